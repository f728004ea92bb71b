/**
 * The judge console's routes: rulings on renege claims, time calls, disqualifications, score
 * corrections and corrected results. Judges and directors only; each ruling is signed with the
 * signed-in judge's name, and the preset's penalty follows through the game projection. What
 * the console shows is worked out in judge-console-model.ts.
 */
import type { Context } from 'hono';
import { Hono } from 'hono';
import type { Decision, ServedLedger } from '../../events/store/served-ledger.ts';
import {
  type JudgeConsoleProps,
  type PendingDisqualification,
  type PendingRuling,
  type PendingWithdrawal,
  JudgeConsole,
  JudgePage,
} from '../../views/judge-console.tsx';
import { SEAT_NAMES } from '../../engine/cards.ts';
import type { Auth } from '../auth/auth.ts';
import { refusalOf, wantsJson } from '../http/refusals.ts';
import { parseFields, readInput } from '../http/request-input.ts';
import type { Session } from '../auth/sessions.ts';
import { runCommand } from '../http/run-command.ts';
import { CommandError } from '../commands/command-error.ts';
import { correctScore, giveRuling } from '../commands/game-commands.ts';
import { callTime, correctGameResult, disqualifyTeam } from '../commands/ruling-commands.ts';
import { gameById, tournamentById } from '../../events/lookup.ts';
import { gameLabel, judgeConsoleProps, judgeVersion, signed, teamName } from './judge-console-model.ts';
import { renegeSentence } from '../../engine/rule-lines.ts';
import { resolveRules } from '../../engine/rules.ts';
import { REFUSED_KINDS, withdrawRuling } from '../commands/ruling-withdrawals.ts';
import { asksReopening, checkReopening, reopeningBy } from '../commands/reopenings.ts';
import { reopeningPreview } from './reopening-preview.ts';
import {
  CorrectionFields,
  DisqualifyChoice,
  DisqualifyParts,
  ResultChoice,
  ResultParts,
  RulingFields,
  TimeChoice,
  TimeParts,
  WithdrawalFields,
  sentAsParts,
} from './judge-fields.ts';
import type { PendingReopening } from '../../views/judge-console.tsx';

const JUDGE_ROLES = ['judge', 'director'] as const;

export interface JudgeRoutesOptions {
  ledger: ServedLedger;
  auth: Auth;
  /** ISO time for time calls. */
  now?: () => string;
}

export function judgeRoutes(options: JudgeRoutesOptions) {
  const { ledger, auth } = options;
  const now = options.now ?? (() => new Date().toISOString());
  const models = ledger.models;
  const app = new Hono();
  app.use('*', auth.guard(JUDGE_ROLES));

  const consoleProps = (
    session: Session,
    notice: { error?: string; done?: string } = {},
    confirm: PendingDisqualification | null = null,
    confirmRuling: PendingRuling | null = null,
    confirmWithdrawal: PendingWithdrawal | null = null,
  ) => judgeConsoleProps(models, now, session, notice, confirm, confirmRuling, confirmWithdrawal);

  /**
   * The confirmation of a decision that would change a decided match, shown in full in place of
   * the ordinary one; null when the decision changes no decided match.
   */
  const reopeningProps = (
    session: Session,
    decision: Decision | Decision[],
    asked: string,
    action: string,
    fields: Record<string, string>,
  ): JudgeConsoleProps | null => {
    const reopening = reopeningBy(models, decision, now());
    if (!reopening) return null;
    const pending: PendingReopening = reopeningPreview(reopening, asked, action, fields);
    return { ...consoleProps(session), confirmReopening: pending };
  };

  const page = (props: JudgeConsoleProps) => String(<JudgePage {...props} stream={`/judge/stream?after=${models.position}`} signal={judgeVersion(models)} />);

  const run = (c: Context, scope: string, decide: Parameters<typeof runCommand>[3]['decide']) => {
    const session = auth.current(c);
    return runCommand(c, ledger, session, {
      scope,
      // Any judge's decision that would change a decided match is given only as a reopening.
      decide: (input, current) => {
        const decided = decide(input, current);
        checkReopening(models, decided.decision, asksReopening(input), now());
        return decided;
      },
      fragment: (notice) => String(<JudgeConsole {...consoleProps(session, notice)} />),
      page: (notice) => page(consoleProps(session, notice)),
      redirect: '/judge',
    });
  };

  app.get('/', async (c) => c.html(page({ ...consoleProps(auth.current(c)), sessions: await auth.sessionList(auth.current(c)) })));
  // The console alone: what the live page fetches when its stream says something changed.
  app.get('/console', (c) => c.html(String(<JudgeConsole {...consoleProps(auth.current(c))} />)));

  /** The ruling a request asks for, read and checked against the claim, without recording it. */
  function ruling(c: Context, input: Record<string, unknown>, judge: string) {
    const gameId = c.req.param('gameId')!;
    const claimId = c.req.param('claimId')!;
    const { upheld: raw, note } = parseFields(input, RulingFields);
    const upheld = raw === true || raw === 'yes' || raw === 'true' ? true : raw === false || raw === 'no' || raw === 'false' ? false : null;
    if (upheld === null) throw new CommandError(`claim ${claimId}: choose uphold or deny (upheld must be yes or no, not ${JSON.stringify(raw ?? null)})`);
    const decision = giveRuling(models, { gameId, claimId, upheld, note, judge });
    const game = gameById(models, gameId)!;
    const claim = game.claims.find((x) => x.claimId === claimId)!;
    return { gameId, claimId, upheld, note, decision, game, claim };
  }

  /**
   * A form asks first: the console shows what the action will do and records it only when the
   * form comes back with confirm=yes; `ask` reads and checks the request and gives the console to
   * show. An API client's request is its own confirmation: null, go on and record.
   */
  async function askFirst(c: Context, ask: (input: Record<string, unknown>, session: Session) => JudgeConsoleProps | null): Promise<Response | null> {
    if (wantsJson(c)) return null;
    const session = auth.current(c);
    const show = (props: JudgeConsoleProps, status: 200 | 400 | 403 | 404 | 409 = 200) =>
      c.html(c.req.header('hx-request') ? String(<JudgeConsole {...props} />) : page(props), status);
    try {
      const input = await readInput(c);
      if (input.confirm === 'yes') return null;
      const props = ask(input, session);
      return props ? show(props) : null;
    } catch (error) {
      const refusal = refusalOf(error);
      if (!refusal) throw error;
      return show(consoleProps(session, { error: refusal.message }), refusal.status as 400 | 403 | 404 | 409);
    }
  }

  app.post('/games/:gameId/claims/:claimId/ruling', async (c) => {
    const asked = await askFirst(c, (input, session) => {
      const r = ruling(c, input, session.name);
      const claim = `Renege claimed against ${SEAT_NAMES[r.claim.seat]} in ${gameLabel(models, r.game)}, hand ${r.claim.hand}${r.claim.trick !== null ? `, trick ${r.claim.trick}` : ''}.`;
      const action = `/judge/games/${encodeURIComponent(r.gameId)}/claims/${encodeURIComponent(r.claimId)}/ruling`;
      const reopening = reopeningProps(session, r.decision, `${r.upheld ? 'Uphold' : 'Deny'}: ${claim}`, action, {
        upheld: r.upheld ? 'yes' : 'no',
        note: r.note,
      });
      if (reopening) return reopening;
      const rules = resolveRules(r.game.rules);
      return consoleProps(session, {}, null, {
        gameId: r.gameId,
        claimId: r.claimId,
        upheld: r.upheld,
        note: r.note,
        claim,
        effect: renegeSentence(rules.options),
      });
    });
    if (asked) return asked;
    return run(c, 'ruling', (input, current) => {
      const { upheld, decision, game, claim } = ruling(c, input, current.name);
      return { decision, done: `${upheld ? 'Upheld' : 'Denied'} the renege claim against ${SEAT_NAMES[claim.seat]} (${gameLabel(models, game)}).` };
    });
  });

  app.post('/time', (c) =>
    run(c, 'time', (input) => {
      const { tournamentId, matchId } = parseFields(input, sentAsParts(input, 'tournamentId', 'matchId') ? TimeParts : TimeChoice);
      const match = tournamentById(models, tournamentId)?.model.matches.find((m) => m.matchId === matchId);
      const where = match ? `${match.table !== null ? `table ${match.table}, ` : ''}${match.label}` : `match ${matchId}`;
      return { decision: callTime(models, { tournamentId, matchId, at: now() }), done: `Time called at ${where}.` };
    }),
  );

  /** The disqualification a request asks for, read and checked, without recording it. */
  function disqualification(input: Record<string, unknown>): PendingDisqualification {
    const {
      tournamentId,
      teamId,
      kind: chosen,
      reason,
    } = parseFields(input, sentAsParts(input, 'tournamentId', 'teamId') ? DisqualifyParts : DisqualifyChoice);
    const kind = chosen as PendingDisqualification['kind'];
    // Decided now, so a team that cannot be put out is refused before the confirmation is asked.
    disqualifyTeam(models, { tournamentId, teamId, reason, kind });
    const tournament = tournamentById(models, tournamentId)!.model;
    const forfeits = tournament.matches.filter(
      (m) => m.teams.includes(teamId) && (m.status === 'ready' || m.status === 'live' || m.status === 'waiting'),
    ).length;
    return { tournamentId, teamId, team: teamName(models, tournamentId, teamId), tournament: tournament.name, kind, reason, forfeits };
  }

  app.post('/disqualify', async (c) => {
    const asked = await askFirst(c, (input, session) => {
      const pending = disqualification(input);
      const decision = disqualifyTeam(models, { tournamentId: pending.tournamentId, teamId: pending.teamId, reason: pending.reason, kind: pending.kind });
      const fields = { team: `${pending.tournamentId}/${pending.teamId}`, kind: pending.kind, reason: pending.reason };
      return (
        reopeningProps(
          session,
          decision,
          `Put ${pending.team} out of ${pending.tournament} (${pending.kind}): “${pending.reason}”.`,
          '/judge/disqualify',
          fields,
        ) ?? consoleProps(session, {}, pending)
      );
    });
    if (asked) return asked;
    return run(c, 'disqualify', (input) => {
      const pending = disqualification(input);
      return {
        decision: disqualifyTeam(models, { tournamentId: pending.tournamentId, teamId: pending.teamId, reason: pending.reason, kind: pending.kind }),
        done: `${pending.team} is out of ${pending.tournament} (${pending.kind}).`,
      };
    });
  });

  app.post('/corrections', async (c) => {
    // A correction is recorded at once, unless it would change a decided match: then it is shown first.
    const asked = await askFirst(c, (input, session) => {
      const { gameId, NS, EW, reason } = parseFields(input, CorrectionFields);
      const decision = correctScore(models, { gameId, points: { NS, EW }, reason, judge: session.name });
      const game = gameById(models, gameId)!;
      const asking = `Correct ${gameLabel(models, game)}: ${teamName(models, game.tournamentId, game.teams.NS)} ${signed(NS)}, ${teamName(models, game.tournamentId, game.teams.EW)} ${signed(EW)} (${reason.trim()}).`;
      return reopeningProps(session, decision, asking, '/judge/corrections', { gameId, NS: String(NS), EW: String(EW), reason });
    });
    if (asked) return asked;
    return run(c, 'correction', (input, session) => {
      const { gameId, NS, EW, reason } = parseFields(input, CorrectionFields);
      const game = gameById(models, gameId);
      const label = game ? gameLabel(models, game) : `game ${gameId}`;
      const names = game
        ? { NS: teamName(models, game.tournamentId, game.teams.NS), EW: teamName(models, game.tournamentId, game.teams.EW) }
        : { NS: 'North–South', EW: 'East–West' };
      return {
        decision: correctScore(models, { gameId, points: { NS, EW }, reason, judge: session.name }),
        done: `Corrected ${label}: ${names.NS} ${signed(NS)}, ${names.EW} ${signed(EW)}.`,
      };
    });
  });

  /** The withdrawal a request asks for, read and checked, without recording it. */
  function withdrawal(input: Record<string, unknown>, session: Session): PendingWithdrawal & { decision: Decision } {
    const { kind, gameId, claimId, correction, reason: why } = parseFields(input, WithdrawalFields);
    const refused = REFUSED_KINDS[kind];
    if (refused) throw new CommandError(`${refused}.`, 409);
    if (kind && kind !== 'renege' && kind !== 'correction')
      throw new CommandError(`kind must be renege or correction (or one of ${Object.keys(REFUSED_KINDS).join(', ')}, which are not withdrawn), not '${kind}'`);
    if (Boolean(claimId) === (correction !== null))
      throw new CommandError(
        `game ${gameId}: name the ruling to withdraw: a claimId for a renege ruling or a correction (its ledger position) for a score correction, one of the two`,
      );
    const ref = claimId ? { claimId } : { correction: correction! };
    const decision = withdrawRuling(models, { gameId, ...ref, reason: why, judge: session.name });
    const line = judgeConsoleProps(models, now, session).rulings.find(
      (r) => r.withdraw?.gameId === gameId && (claimId ? r.withdraw.claimId === claimId : r.withdraw.correction === correction),
    );
    return { gameId, ...ref, ruling: line ? `${line.judge} ${line.text}.` : '', effect: line?.effect ?? '', reason: why.trim(), decision };
  }

  app.post('/withdrawals', async (c) => {
    const asked = await askFirst(c, (input, session) => {
      const { decision, ...pending } = withdrawal(input, session);
      const fields: Record<string, string> = { gameId: pending.gameId, reason: pending.reason };
      if (pending.claimId !== undefined) fields.claimId = pending.claimId;
      if (pending.correction !== undefined) fields.correction = String(pending.correction);
      return (
        reopeningProps(session, decision, `Withdraw: ${pending.ruling} Your reason: “${pending.reason}”.`, '/judge/withdrawals', fields) ??
        consoleProps(session, {}, null, null, pending)
      );
    });
    if (asked) return asked;
    return run(c, 'withdrawal', (input, session) => {
      const pending = withdrawal(input, session);
      return { decision: pending.decision, done: `Withdrawn: ${pending.ruling} It no longer counts.` };
    });
  });

  app.post('/results', async (c) => {
    const asked = await askFirst(c, (input, session) => {
      const { gameId, winner, reason } = parseFields(input, sentAsParts(input, 'gameId', 'winner') ? ResultParts : ResultChoice);
      const game = gameById(models, gameId);
      if (!game) throw new CommandError(`game ${gameId} does not exist`, 404);
      const decision = correctGameResult(models, { tournamentId: game.tournamentId ?? '', gameId, winner, reason, judge: session.name });
      const asking = `Give ${gameLabel(models, game)} to ${teamName(models, game.tournamentId, winner)} (${reason.trim()}).`;
      return reopeningProps(session, decision, asking, '/judge/results', { gameId, winner, reason });
    });
    if (asked) return asked;
    return run(c, 'result', (input, session) => {
      const { gameId, winner, reason } = parseFields(input, sentAsParts(input, 'gameId', 'winner') ? ResultParts : ResultChoice);
      const game = gameById(models, gameId);
      if (!game) throw new CommandError(`game ${gameId} does not exist`, 404);
      return {
        decision: correctGameResult(models, { tournamentId: game.tournamentId ?? '', gameId, winner, reason, judge: session.name }),
        done: `${gameLabel(models, game)} now goes to ${teamName(models, game.tournamentId, winner)}.`,
      };
    });
  });

  return app;
}

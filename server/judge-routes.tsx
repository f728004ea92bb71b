/**
 * The judge console's routes: rulings on renege claims, time calls, disqualifications, score
 * corrections and corrected results. Judges and directors only; each ruling is signed with the
 * signed-in judge's name, and the preset's penalty follows through the game projection. What
 * the console shows is worked out in judge-console-model.ts.
 */
import type { Context } from 'hono';
import { Hono } from 'hono';
import type { Ledger } from '../events/ledger.ts';
import { type JudgeConsoleProps, type PendingDisqualification, JudgeConsole, JudgePage } from '../views/judge-console.tsx';
import { SEAT_NAMES } from '../views/entry-table.tsx';
import type { Auth } from './auth.ts';
import { refusalOf, wantsJson } from './refusals.ts';
import { readInput, textField, wholeField } from './request-input.ts';
import type { Session } from './sessions.ts';
import { runCommand } from './run-command.ts';
import { CommandError, correctScore, giveRuling } from './commands.ts';
import { callTime, correctGameResult, disqualifyTeam } from './match-commands.ts';
import { gameById, tournamentById } from '../events/lookup.ts';
import { gameLabel, judgeConsoleProps, judgeVersion, signed, teamName } from './judge-console-model.ts';

const JUDGE_ROLES = ['judge', 'director'] as const;

export interface JudgeRoutesOptions {
  ledger: Ledger;
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

  const consoleProps = (session: Session, notice: { error?: string; done?: string } = {}, confirm: PendingDisqualification | null = null) =>
    judgeConsoleProps(ledger, now, session, notice, confirm);


  const page = (props: JudgeConsoleProps) => String(<JudgePage {...props} stream={`/judge/stream?after=${models.position}`} signal={judgeVersion(models)} />);

  const run = (c: Context, scope: string, decide: Parameters<typeof runCommand>[3]['decide']) => {
    const session = auth.current(c);
    return runCommand(c, ledger, session, {
      scope,
      decide,
      fragment: (notice) => String(<JudgeConsole {...consoleProps(session, notice)} />),
      page: (notice) => page(consoleProps(session, notice)),
      redirect: '/judge',
    });
  };

  /** Splits a "tournament/item" choice from the console's selects (JSON clients may send the parts). */
  function pair(input: Record<string, unknown>, field: string, first: string, second: string): [string, string] {
    if (input[first] !== undefined || input[second] !== undefined) return [textField(input, first, { max: 120 }), textField(input, second, { max: 120 })];
    const value = textField(input, field, { max: 250 });
    const at = value.lastIndexOf('/');
    if (at <= 0) throw new CommandError(`${field} must name a ${first.replace(/Id$/, '')} and a ${second.replace(/Id$/, '')}, as 'one/other', not '${value}'`);
    return [value.slice(0, at), value.slice(at + 1)];
  }

  app.get('/', (c) => c.html(page({ ...consoleProps(auth.current(c)), sessions: auth.sessionList(auth.current(c)) })));
  // The console alone: what the live page fetches when its stream says something changed.
  app.get('/console', (c) => c.html(String(<JudgeConsole {...consoleProps(auth.current(c))} />)));

  app.post('/games/:gameId/claims/:claimId/ruling', (c) =>
    run(c, 'ruling', (input, session) => {
      const gameId = c.req.param('gameId');
      const claimId = c.req.param('claimId');
      const raw = input.upheld;
      const upheld = raw === true || raw === 'yes' || raw === 'true' ? true : raw === false || raw === 'no' || raw === 'false' ? false : null;
      if (upheld === null) throw new CommandError(`claim ${claimId}: choose uphold or deny (upheld must be yes or no, not ${JSON.stringify(raw ?? null)})`);
      const note = textField(input, 'note', { optional: true, max: 1000 });
      const decision = giveRuling(models, { gameId, claimId, upheld, note, judge: session.name });
      const claim = gameById(models, gameId)!.claims.find((x) => x.claimId === claimId)!;
      return { decision, done: `${upheld ? 'Upheld' : 'Denied'} the renege claim against ${SEAT_NAMES[claim.seat]} (${gameLabel(models, gameById(models, gameId)!)}).` };
    }),
  );

  app.post('/time', (c) =>
    run(c, 'time', (input) => {
      const [tournamentId, matchId] = pair(input, 'match', 'tournamentId', 'matchId');
      const match = tournamentById(models, tournamentId)?.model.matches.find((m) => m.matchId === matchId);
      const where = match ? `${match.table !== null ? `table ${match.table}, ` : ''}${match.label}` : `match ${matchId}`;
      return { decision: callTime(models, { tournamentId, matchId, at: now() }), done: `Time called at ${where}.` };
    }),
  );

  /** The disqualification a request asks for, read and checked, without recording it. */
  function disqualification(input: Record<string, unknown>): PendingDisqualification {
    const [tournamentId, teamId] = pair(input, 'team', 'tournamentId', 'teamId');
    const kind = textField(input, 'kind', { optional: true, max: 20 }) || 'disqualified';
    if (kind !== 'disqualified' && kind !== 'no-show' && kind !== 'forfeit') throw new CommandError(`kind must be disqualified, no-show or forfeit, not '${kind}'`);
    const reason = textField(input, 'reason', { max: 500 });
    // Decided now, so a team that cannot be put out is refused before the confirmation is asked.
    disqualifyTeam(models, { tournamentId, teamId, reason, kind });
    const tournament = tournamentById(models, tournamentId)!.model;
    const forfeits = tournament.matches.filter((m) => m.teams.includes(teamId) && (m.status === 'ready' || m.status === 'live' || m.status === 'waiting')).length;
    return { tournamentId, teamId, team: teamName(models, tournamentId, teamId), tournament: tournament.name, kind, reason, forfeits };
  }

  app.post('/disqualify', async (c) => {
    // A form asks first: the console shows what will happen and records it only when confirmed.
    // An API client's request is its own confirmation.
    const session = auth.current(c);
    if (!wantsJson(c)) {
      try {
        const input = await readInput(c);
        if (input.confirm !== 'yes') {
          const pending = disqualification(input);
          const props = consoleProps(session, {}, pending);
          return c.html(c.req.header('hx-request') ? String(<JudgeConsole {...props} />) : page(props));
        }
      } catch (error) {
        const refusal = refusalOf(error);
        if (!refusal) throw error;
        const props = consoleProps(session, { error: refusal.message });
        return c.html(c.req.header('hx-request') ? String(<JudgeConsole {...props} />) : page(props), refusal.status);
      }
    }
    return run(c, 'disqualify', (input) => {
      const pending = disqualification(input);
      return {
        decision: disqualifyTeam(models, { tournamentId: pending.tournamentId, teamId: pending.teamId, reason: pending.reason, kind: pending.kind }),
        done: `${pending.team} is out of ${pending.tournament} (${pending.kind}).`,
      };
    });
  });

  app.post('/corrections', (c) =>
    run(c, 'correction', (input, session) => {
      const gameId = textField(input, 'gameId', { max: 120 });
      const NS = wholeField(input, 'NS', { min: -2000, max: 2000 })!;
      const EW = wholeField(input, 'EW', { min: -2000, max: 2000 })!;
      const reason = textField(input, 'reason', { max: 500 });
      const game = gameById(models, gameId);
      const label = game ? gameLabel(models, game) : `game ${gameId}`;
      const names = game ? { NS: teamName(models, game.tournamentId, game.teams.NS), EW: teamName(models, game.tournamentId, game.teams.EW) } : { NS: 'North–South', EW: 'East–West' };
      return { decision: correctScore(models, { gameId, points: { NS, EW }, reason, judge: session.name }), done: `Corrected ${label}: ${names.NS} ${signed(NS)}, ${names.EW} ${signed(EW)}.` };
    }),
  );

  app.post('/results', (c) =>
    run(c, 'result', (input, session) => {
      const [gameId, winner] = pair(input, 'result', 'gameId', 'winner');
      const game = gameById(models, gameId);
      if (!game) throw new CommandError(`game ${gameId} does not exist`, 404);
      const reason = textField(input, 'reason', { max: 500 });
      return {
        decision: correctGameResult(models, { tournamentId: game.tournamentId ?? '', gameId, winner, reason, judge: session.name }),
        done: `${gameLabel(models, game)} now goes to ${teamName(models, game.tournamentId, winner)}.`,
      };
    }),
  );

  return app;
}

/**
 * The judge console's routes: rulings on renege claims, time calls, disqualifications, score
 * corrections and corrected results. Judges and directors only; each ruling is signed with the
 * signed-in judge's name, and the preset's penalty follows through the game projection.
 */
import type { Context } from 'hono';
import type { RuleOptions } from '../engine/presets.ts';
import { Hono } from 'hono';
import { type Seat, parseCard, seatAfter } from '../engine/cards.ts';
import { deckFor } from '../engine/deck.ts';
import { resolveRules } from '../engine/rules.ts';
import { replayPlays } from '../engine/trick.ts';
import type { Ledger } from '../events/ledger.ts';
import { handSoFar } from '../events/game-projection.ts';
import type { GameModel } from '../events/read-models.ts';
import { type ClaimCase, type JudgeConsoleProps, JudgeConsole, JudgePage } from '../views/judge-console.tsx';
import { SEAT_NAMES } from '../views/entry-table.tsx';
import { type Auth, type Session, runCommand, tableOfGame, textField, wholeField } from './auth.ts';
import { CommandError, correctScore, giveRuling } from './commands.ts';
import { callTime, correctGameResult, disqualifyTeam } from './tournament-commands.ts';

const JUDGE_ROLES = ['judge', 'director'] as const;

/** What a ruling on a renege does under the game's rules, in the words of rules.md. */
export function renegePenaltyText(options: RuleOptions, rulesName: string): string {
  const n = options.renegeTricks;
  switch (options.renegePenalty) {
    case 'transfer':
      return `If upheld, ${n} tricks move from the reneging team to the other team (all it has if fewer) and count for the receivers' contract and bags (${rulesName}). If denied, nothing changes.`;
    case 'unc':
      return `If upheld, the reneging team's tricks drop by ${n} (not below 0) and the other team gets ${options.renegePoints} points flat; the tricks do not count for its contract or bags (${rulesName}). If denied, nothing changes.`;
    case 'asher':
      return `If upheld, the other team is credited with ${n} tricks now; the reneging team gives up what it has (up to ${n}) now and the rest from its next hand (${rulesName}). If denied, nothing changes.`;
    case 'pitt-boss':
      return `The team that loses the challenge pays (${rulesName}): upheld, ${n} tricks move from the reneging team to the claimants; denied, ${n} tricks move from the claiming team to the accused.`;
    default: {
      const _exhaustive: never = options.renegePenalty;
      return _exhaustive;
    }
  }
}

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

  function teamName(tournamentId: string | null, teamId: string): string {
    return (tournamentId && models.tournaments[tournamentId]?.model.teams.find((t) => t.teamId === teamId)?.name) || teamId;
  }

  function consoleProps(session: Session, notice: { error?: string; done?: string } = {}): JudgeConsoleProps {
    const games = Object.values(models.games);
    const claims: ClaimCase[] = [];
    const rulings: JudgeConsoleProps['rulings'] = [];
    for (const game of games) {
      for (const claim of game.claims) {
        if (!claim.ruling) claims.push(claimCase(game, claim));
        else {
          const r = claim.ruling;
          rulings.push({
            at: r.at,
            judge: r.judge,
            text: `${r.upheld ? 'upheld' : 'denied'} the renege claim against ${SEAT_NAMES[claim.seat]} (game ${game.gameId}, hand ${claim.hand}${claim.trick !== null ? `, trick ${claim.trick}` : ''})${r.note ? `: ${r.note}` : ''}`,
          });
        }
      }
      for (const c of game.corrections) {
        rulings.push({ at: atOf(c.position), judge: c.judge, text: `corrected game ${game.gameId} by NS ${signed(c.points.NS)}, EW ${signed(c.points.EW)}: ${c.reason}` });
      }
    }
    const matches: JudgeConsoleProps['matches'] = [];
    const teams: JudgeConsoleProps['teams'] = [];
    for (const state of Object.values(models.tournaments)) {
      const t = state.model;
      if (t.status === 'finished') continue;
      for (const m of t.matches) {
        if (m.status === 'live' && m.clock) matches.push({ tournamentId: t.tournamentId, matchId: m.matchId, label: m.label, table: m.table, clock: m.clock.calledAt ? 'time called' : `${m.clock.minutes} min from ${m.clock.startedAt.slice(11, 16)}` });
      }
      for (const team of t.teams) {
        if (team.status !== 'disqualified' && team.status !== 'withdrawn' && team.status !== 'out') teams.push({ tournamentId: t.tournamentId, teamId: team.teamId, name: team.name });
      }
      for (const c of state.corrections) {
        rulings.push({ at: atOf(c.position), judge: c.judge, text: `ruled ${teamName(t.tournamentId, c.winner)} the winner of game ${c.gameId}: ${c.reason}` });
      }
    }
    rulings.sort((a, b) => b.at.localeCompare(a.at));
    return {
      csrf: session.csrf,
      judge: session.name,
      claims,
      misdeals: games
        .filter((g) => !g.winner)
        .flatMap((g) => g.rows.filter((r) => r.misdeal).map((r) => ({ gameId: g.gameId, table: tableOfGame(models, g), hand: r.number, reason: r.misdeal! }))),
      matches,
      teams,
      games: games
        .filter((g) => g.tournamentId === null || models.tournaments[g.tournamentId]?.model.status !== 'finished')
        .map((g) => ({
          tournamentId: g.tournamentId,
          gameId: g.gameId,
          label: `${tableOfGame(models, g) !== null ? `Table ${tableOfGame(models, g)}, ` : ''}${teamName(g.tournamentId, g.teams.NS)} vs ${teamName(g.tournamentId, g.teams.EW)}, game ${g.number}`,
          finished: Boolean(g.winner),
          teams: { NS: teamName(g.tournamentId, g.teams.NS), EW: teamName(g.tournamentId, g.teams.EW) },
          teamIds: g.teams,
        })),
      rulings,
      error: notice.error ?? null,
      done: notice.done ?? null,
    };
  }

  // Positions carry no time of their own; the event's time is read from the ledger when shown.
  function atOf(position: number): string {
    if (position <= 0) return '';
    return String(ledger.store.readAll({ after: position - 1, limit: 1 })[0]?.meta.at ?? '');
  }

  function claimCase(game: GameModel, claim: GameModel['claims'][number]): ClaimCase {
    const deck = deckFor(resolveRules(game.rules).options);
    const current = game.current && game.current.number === claim.hand ? game.current : null;
    const record = current ? null : game.hands[claim.hand - 1];
    const plays = current?.plays ?? record?.plays ?? [];
    const dealer = current?.dealer ?? record?.dealer ?? game.dealer;
    let detected: { seat: Seat; trick: number }[];
    let tricks: ClaimCase['tricks'] = [];
    try {
      const result = current ? handSoFar(game)! : replayPlays(deck, dealer, plays.map((t) => t.map((n) => parseCard(n)!)));
      detected = current ? result.reneges : (game.rows[claim.hand - 1]?.reneges ?? result.reneges);
      const around = claim.trick === null ? result.tricks.map((_, i) => i + 1) : [claim.trick - 1, claim.trick, claim.trick + 1];
      tricks = around
        .filter((n) => n >= 1 && n <= result.tricks.length)
        .map((n) => {
          const t = result.tricks[n - 1]!;
          return { number: n, claimed: n === claim.trick, cards: plays[n - 1]!.map((card, i) => ({ seat: seatAfter(t.leader, i), card })) };
        });
    } catch {
      detected = [];
    }
    const found = detected.length === 0
      ? 'The engine finds no renege in the recorded plays of this hand.'
      : `The engine finds: ${detected.map((d) => `renege by ${SEAT_NAMES[d.seat]} at trick ${d.trick}`).join('; ')}.`;
    const options = resolveRules(game.rules).options;
    return {
      gameId: game.gameId,
      claimId: claim.claimId,
      table: tableOfGame(models, game),
      teams: { NS: teamName(game.tournamentId, game.teams.NS), EW: teamName(game.tournamentId, game.teams.EW) },
      hand: claim.hand,
      seat: claim.seat,
      trick: claim.trick,
      tricks,
      detected: plays.length === 0 ? 'No cards were recorded for this hand, so the engine cannot check it; rule on what the table says.' : found,
      penalty: renegePenaltyText(options, resolveRules(game.rules).name),
    };
  }

  const run = (c: Context, scope: string, decide: Parameters<typeof runCommand>[3]['decide']) => {
    const session = auth.current(c);
    return runCommand(c, ledger, session, {
      scope,
      decide,
      fragment: (notice) => String(<JudgeConsole {...consoleProps(session, notice)} />),
      page: (notice) => String(<JudgePage {...consoleProps(session, notice)} />),
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

  app.get('/', (c) => c.html(String(<JudgePage {...consoleProps(auth.current(c))} />)));

  app.post('/games/:gameId/claims/:claimId/ruling', (c) =>
    run(c, 'ruling', (input, session) => {
      const gameId = c.req.param('gameId');
      const claimId = c.req.param('claimId');
      const raw = input.upheld;
      const upheld = raw === true || raw === 'yes' || raw === 'true' ? true : raw === false || raw === 'no' || raw === 'false' ? false : null;
      if (upheld === null) throw new CommandError(`claim ${claimId}: choose uphold or deny (upheld must be yes or no, not ${JSON.stringify(raw ?? null)})`);
      const note = textField(input, 'note', { optional: true, max: 1000 });
      const decision = giveRuling(models, { gameId, claimId, upheld, note, judge: session.name });
      const claim = models.games[gameId]!.claims.find((x) => x.claimId === claimId)!;
      return { decision, done: `${upheld ? 'Upheld' : 'Denied'} the renege claim against ${SEAT_NAMES[claim.seat]}.` };
    }),
  );

  app.post('/time', (c) =>
    run(c, 'time', (input) => {
      const [tournamentId, matchId] = pair(input, 'match', 'tournamentId', 'matchId');
      return { decision: callTime(models, { tournamentId, matchId, at: now() }), done: `Time called in match ${matchId}.` };
    }),
  );

  app.post('/disqualify', (c) =>
    run(c, 'disqualify', (input) => {
      const [tournamentId, teamId] = pair(input, 'team', 'tournamentId', 'teamId');
      const kind = textField(input, 'kind', { optional: true, max: 20 }) || 'disqualified';
      if (kind !== 'disqualified' && kind !== 'no-show' && kind !== 'forfeit') throw new CommandError(`kind must be disqualified, no-show or forfeit, not '${kind}'`);
      const reason = textField(input, 'reason', { max: 500 });
      return { decision: disqualifyTeam(models, { tournamentId, teamId, reason, kind }), done: `${teamName(tournamentId, teamId)} is out of the event (${kind}).` };
    }),
  );

  app.post('/corrections', (c) =>
    run(c, 'correction', (input, session) => {
      const gameId = textField(input, 'gameId', { max: 120 });
      const NS = wholeField(input, 'NS', { min: -2000, max: 2000 })!;
      const EW = wholeField(input, 'EW', { min: -2000, max: 2000 })!;
      const reason = textField(input, 'reason', { max: 500 });
      return { decision: correctScore(models, { gameId, points: { NS, EW }, reason, judge: session.name }), done: `Corrected game ${gameId}: NS ${signed(NS)}, EW ${signed(EW)}.` };
    }),
  );

  app.post('/results', (c) =>
    run(c, 'result', (input, session) => {
      const [gameId, winner] = pair(input, 'result', 'gameId', 'winner');
      const game = models.games[gameId];
      if (!game) throw new CommandError(`game ${gameId} does not exist`, 404);
      const reason = textField(input, 'reason', { max: 500 });
      return {
        decision: correctGameResult(models, { tournamentId: game.tournamentId ?? '', gameId, winner, reason, judge: session.name }),
        done: `Game ${gameId} now goes to ${teamName(game.tournamentId, winner)}.`,
      };
    }),
  );

  return app;
}

function signed(n: number): string {
  return n > 0 ? `+${n}` : String(n);
}

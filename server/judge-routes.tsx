/**
 * The judge console's routes: rulings on renege claims, time calls, disqualifications, score
 * corrections and corrected results. Judges and directors only; each ruling is signed with the
 * signed-in judge's name, and the preset's penalty follows through the game projection.
 */
import type { Context } from 'hono';
import type { RuleOptions } from '../engine/presets.ts';
import { Hono } from 'hono';
import { type Seat, parseCard, seatAfter, teamOf } from '../engine/cards.ts';
import { deckFor } from '../engine/deck.ts';
import { resolveRules } from '../engine/rules.ts';
import { replayPlays } from '../engine/trick.ts';
import type { Ledger } from '../events/ledger.ts';
import { handSoFar } from '../events/game-projection.ts';
import type { GameModel } from '../events/read-models.ts';
import { type ClaimCase, type JudgeConsoleProps, type PendingDisqualification, JudgeConsole, JudgePage } from '../views/judge-console.tsx';
import { replayLink } from '../views/replay.tsx';
import { clockText } from '../views/match-clock.tsx';
import type { ReadModels } from '../events/projections.ts';
import { createHash } from 'node:crypto';
import { SEAT_NAMES } from '../views/entry-table.tsx';
import type { Auth } from './auth.ts';
import { refusalOf, wantsJson } from './refusals.ts';
import { readInput, textField, wholeField } from './request-input.ts';
import type { Session } from './sessions.ts';
import { tableOfGame } from './table-codes.ts';
import { runCommand } from './run-command.ts';
import { CommandError, correctScore, giveRuling } from './commands.ts';
import { callTime, correctGameResult, disqualifyTeam } from './match-commands.ts';
import { gameById, tournamentById } from '../events/lookup.ts';

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
    return (tournamentId && tournamentById(models, tournamentId)?.model.teams.find((t) => t.teamId === teamId)?.name) || teamId;
  }

  function consoleProps(session: Session, notice: { error?: string; done?: string } = {}, confirm: PendingDisqualification | null = null): JudgeConsoleProps {
    const games = Object.values(models.games);
    const claims: { position: number; claim: ClaimCase }[] = [];
    const rulings: JudgeConsoleProps['rulings'] = [];
    for (const game of games) {
      for (const claim of game.claims) {
        if (!claim.ruling) claims.push({ position: claim.position, claim: claimCase(game, claim) });
        else {
          const r = claim.ruling;
          rulings.push({
            at: r.at,
            judge: r.judge,
            text: `${r.upheld ? 'upheld' : 'denied'} the renege claim against ${SEAT_NAMES[claim.seat]} (${gameLabel(models, game)}, hand ${claim.hand}${claim.trick !== null ? `, trick ${claim.trick}` : ''})${r.note ? `: ${r.note}` : ''}`,
          });
        }
      }
      for (const c of game.corrections) {
        const names = { NS: teamName(game.tournamentId, game.teams.NS), EW: teamName(game.tournamentId, game.teams.EW) };
        rulings.push({ at: atOf(c.position), judge: c.judge, text: `corrected ${gameLabel(models, game)} by ${names.NS} ${signed(c.points.NS)}, ${names.EW} ${signed(c.points.EW)}: ${c.reason}` });
      }
    }
    const matches: JudgeConsoleProps['matches'] = [];
    const teams: JudgeConsoleProps['teams'] = [];
    for (const state of Object.values(models.tournaments)) {
      const t = state.model;
      if (t.status === 'finished') continue;
      const name = (id: string | null) => (id ? teamName(t.tournamentId, id) : 'to be decided');
      for (const m of t.matches) {
        if (m.status !== 'live' || !m.clock) continue;
        const left = Date.parse(m.clock.startedAt) + m.clock.minutes * 60_000 - Date.parse(now());
        matches.push({
          tournamentId: t.tournamentId,
          matchId: m.matchId,
          label: `${m.table !== null ? `Table ${m.table} · ` : ''}${m.label}: ${name(m.teams[0])} vs ${name(m.teams[1])}`,
          clock: m.clock.calledAt ? 'time called' : `${clockText(left)} left`,
        });
      }
      for (const team of t.teams) {
        if (team.status !== 'disqualified' && team.status !== 'withdrawn' && team.status !== 'out') teams.push({ tournamentId: t.tournamentId, teamId: team.teamId, name: team.name, tournament: t.name });
      }
      for (const c of state.corrections) {
        const game = gameById(models, c.gameId);
        rulings.push({ at: atOf(c.position), judge: c.judge, text: `ruled ${teamName(t.tournamentId, c.winner)} the winner of ${game ? gameLabel(models, game) : `game ${c.gameId}`}: ${c.reason}` });
      }
    }
    rulings.sort((a, b) => b.at.localeCompare(a.at));
    return {
      csrf: session.csrf,
      judge: session.name,
      // One queue for every tournament: the claim waiting longest first.
      claims: claims.sort((a, b) => a.position - b.position).map((c) => c.claim),
      misdeals: games
        .filter((g) => !g.winner)
        .flatMap((g) => g.rows.filter((r) => r.misdeal).map((r) => ({ label: gameLabel(models, g), hand: r.number, reason: r.misdeal! }))),
      matches,
      teams,
      games: games
        .filter((g) => g.tournamentId === null || tournamentById(models, g.tournamentId)?.model.status !== 'finished')
        .map((g) => ({
          tournamentId: g.tournamentId,
          gameId: g.gameId,
          label: gameLabel(models, g),
          finished: Boolean(g.winner),
          teams: { NS: teamName(g.tournamentId, g.teams.NS), EW: teamName(g.tournamentId, g.teams.EW) },
          teamIds: g.teams,
        })),
      rulings,
      confirm,
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
    const tournament = game.tournamentId ? tournamentById(models, game.tournamentId)?.model : undefined;
    const match = tournament?.matches.find((m) => m.matchId === game.matchId);
    const accused = teamOf(claim.seat);
    return {
      gameId: game.gameId,
      claimId: claim.claimId,
      tournament: tournament?.name ?? null,
      table: tableOfGame(models, game),
      round: match ? `${match.label}, game ${game.number}` : `game ${game.number}`,
      teams: { NS: teamName(game.tournamentId, game.teams.NS), EW: teamName(game.tournamentId, game.teams.EW) },
      accusedTeam: teamName(game.tournamentId, game.teams[accused]),
      hand: claim.hand,
      seat: claim.seat,
      trick: claim.trick,
      claimedAt: atOf(claim.position),
      replay: `${replayLink(game.gameId, claim.hand)}${claim.trick !== null ? `#trick-${claim.trick}` : ''}`,
      tricks,
      detected: plays.length === 0 ? 'No cards were recorded for this hand, so the engine cannot check it; rule on what the table says.' : found,
      penalty: renegePenaltyText(options, resolveRules(game.rules).name),
    };
  }

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
    return { tournamentId, teamId, team: teamName(tournamentId, teamId), tournament: tournament.name, kind, reason, forfeits };
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
      const names = game ? { NS: teamName(game.tournamentId, game.teams.NS), EW: teamName(game.tournamentId, game.teams.EW) } : { NS: 'North–South', EW: 'East–West' };
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
        done: `${gameLabel(models, game)} now goes to ${teamName(game.tournamentId, winner)}.`,
      };
    }),
  );

  return app;
}

function signed(n: number): string {
  return n > 0 ? `+${n}` : String(n);
}

/** A game as people name it: "Spring Cup, Table 3: Aces High vs Big Books, game 1". */
export function gameLabel(models: ReadModels, game: GameModel): string {
  const tournament = game.tournamentId ? tournamentById(models, game.tournamentId)?.model : undefined;
  const name = (id: string) => tournament?.teams.find((t) => t.teamId === id)?.name ?? id;
  const table = tableOfGame(models, game);
  const where = [tournament?.name, table !== null ? `Table ${table}` : null].filter(Boolean).join(', ');
  return `${where ? `${where}: ` : ''}${name(game.teams.NS)} vs ${name(game.teams.EW)}, game ${game.number}`;
}

/**
 * A digest of everything the console shows, but the ages and clocks that tick by themselves:
 * the console's live stream sends a new one only when it changes, and the page then fetches
 * its console again. A card played at a table changes nothing here unless a claim waits on
 * that hand.
 */
export function judgeVersion(models: ReadModels): string {
  const parts: unknown[] = [];
  for (const game of Object.values(models.games)) {
    const open = game.claims.filter((c) => !c.ruling);
    const claimedHands = new Set(open.map((c) => c.hand));
    const playsInClaimedHand = game.current && claimedHands.has(game.current.number) ? game.current.plays.flat().length : 0;
    parts.push([
      game.gameId,
      game.winner,
      game.claims.map((c) => [c.claimId, c.ruling?.position ?? 0]),
      game.rows.filter((r) => r.misdeal).length,
      game.corrections.length,
      playsInClaimedHand,
      game.matchId ? tableOfGame(models, game) : null,
    ]);
  }
  for (const state of Object.values(models.tournaments)) {
    const t = state.model;
    parts.push([
      t.tournamentId,
      t.status,
      t.teams.map((team) => [team.teamId, team.status]),
      t.matches.filter((m) => m.status === 'live').map((m) => [m.matchId, m.table, m.clock?.calledAt ?? null, m.clock?.startedAt ?? null]),
      state.corrections.length,
    ]);
  }
  return createHash('sha256').update(JSON.stringify(parts)).digest('base64url').slice(0, 16);
}

/**
 * The bracket and its matches in the tournament projection: the start (all at once or round by
 * round), rounds drawn later, matches seated, and settling the bracket's results from the games,
 * so a changed result flows on through every match after it.
 */
import { type BracketState, type MatchView, startBracket } from '../engine/bracket.ts';
import { type DrawnRound, firstRoundBracket } from '../engine/bracket-rounds.ts';
import { matchPlayOf } from '../engine/format-play.ts';
import { type ByeDraw, drawBye, drawHighCard } from '../engine/seeding.ts';
import type { BracketRoundDrawn, MatchStarted, TournamentStarted } from './event-catalogue.ts';
import { progressiveStarted } from './progressive-projection.ts';
import type { GameModel, MatchModel, NewsResult } from './read-models.ts';
import { CAUSES, gameWinner, holdingClaims, voidGames } from './tournament-rulings.ts';
import { type MatchInfo, type TournamentState, addLatest, clockPerOf, infoFor, viewsOf } from './tournament-state.ts';

/** The event starts: seeds give the rows their seed numbers, and the bracket (or the tables) begin. */
export function tournamentStarted(state: TournamentState, e: TournamentStarted): void {
  e.seeds.forEach((teamId, i) => {
    const row = state.model.teams.find((t) => t.teamId === teamId);
    if (row) row.seed = i + 1;
  });
  state.model.status = 'running';
  if (e.byeDraw && e.byeDraw.length > 0) {
    try {
      state.byeDraw = drawBye(e.seeds, e.byeDraw as Record<string, string>[]);
    } catch {
      // The command checked the draw; a ledger written by something else keeps its seeds as recorded.
      state.byeDraw = null;
    }
  }
  if (state.progressive) progressiveStarted(state.progressive, e.seeds);
  else if (state.format.roundByRound) startByRound(state, e.seeds, (e.byeDraw ?? []) as Record<string, string>[]);
  else {
    try {
      state.bracket = startBracket(matchPlayOf(state.format)!.start(e.seeds, state.format, null));
    } catch {
      // The command drew the first round from these seeds; a ledger written by something else starts no bracket.
      state.bracket = null;
    }
  }
}

/** A match is seated at its table, with its first dealer's draw and its time limit. */
export function matchStarted(state: TournamentState, e: MatchStarted): MatchInfo {
  const info = infoFor(state, e.matchId);
  info.started = true;
  info.table = e.table;
  info.clock = null;
  if (e.firstDealer) info.firstDealer = e.firstDealer;
  if (e.clock) info.clockPlan = e.clock;
  else delete info.clockPlan;
  return info;
}

/** The next round of a bracket drawn round by round; false when nothing changed. */
export function bracketRoundDrawn(state: TournamentState, drawn: BracketRoundDrawn, position: number): boolean {
  const e = drawn as unknown as DrawnRound;
  if (!state.bracket) return false;
  try {
    state.bracket = { ...state.bracket, bracket: matchPlayOf(state.format)!.appendRound(state.bracket.bracket, e) };
  } catch {
    // The command drew the round from this bracket; a ledger written by something else keeps the bracket as it was.
    return false;
  }
  state.roundDraws = [...state.roundDraws, ...e.draws.map((d) => ({ ...d, round: e.round }))];
  const final = e.matches.some((m) => m.side === 'final');
  addLatest(
    state,
    // Pools into a playoff: the round drawn is the playoff.
    {
      kind: 'round-drawn',
      round: e.round,
      final,
      byes: e.draws.map((d) => ({ teamId: d.bye, card: d.card ?? null })),
      ...(e.playoff ? { playoff: true as const } : {}),
    },
    position,
  );
  return true;
}

/**
 * Round 1 of a bracket drawn round by round: the seeds as given, the bye (odd counts) to the
 * highest card of the recorded draw.
 */
function startByRound(state: TournamentState, seeds: readonly string[], cards: Record<string, string>[]): void {
  let bye: ByeDraw | null = null;
  if (cards.length > 0) {
    try {
      bye = drawHighCard(seeds, cards);
    } catch {
      bye = null;
    }
  }
  state.byeDraw = bye;
  try {
    state.bracket = startBracket(firstRoundBracket(seeds, bye?.team ?? null));
  } catch {
    // The command checked the draw; a ledger written by something else starts no bracket.
    return;
  }
  const match = state.bracket.bracket.matches.find((m) => m.slots.some((slot) => slot.kind === 'bye'));
  state.roundDraws = bye && match ? [{ round: 1, group: 'winners', teams: [...seeds], cards, bye: bye.team, card: bye.card, match: match.id }] : [];
}

/**
 * Whether the games of a match, as played at the table, decide it, claims still waiting or not:
 * then no further game of it is played, and its result waits for the rulings.
 */
export function matchDecidedAtTable(state: TournamentState, matchId: string, games: Readonly<Record<string, GameModel>>): boolean {
  const match = state.model.matches.find((m) => m.matchId === matchId);
  const info = state.matchInfo[matchId];
  if (!match || !info || match.teams[0] === null || match.teams[1] === null) return false;
  return matchDecision(state, info.games, games, match.teams as [string, string], clockPerOf(info, state.format), true) !== null;
}

/**
 * Brings one match's seating, table and clock up to date (it started, or its clock did). False
 * when the match is not in the bracket as last derived.
 */
export function seatMatch(state: TournamentState, matchId: string, info: MatchInfo): boolean {
  if (state.progressive) return false;
  const match = state.model.matches.find((m) => m.matchId === matchId);
  if (!match) return false;
  // Seating moves a match between ready and live and leaves every other status as it is.
  if (match.status === 'ready' || match.status === 'live') match.status = info.started ? 'live' : 'ready';
  match.table = info.table;
  match.clock = info.clock;
  return true;
}

/** Games won in a match by each of its two teams, counting only games between those two. */
export function gamesWonIn(
  state: TournamentState,
  gameIds: readonly string[],
  teams: readonly [string | null, string | null],
  games: Readonly<Record<string, GameModel>>,
): [number, number] {
  const won: [number, number] = [0, 0];
  for (const gameId of gameIds) {
    const game = games[gameId];
    if (!game) continue;
    const winner = gameWinner(state, game);
    if (winner && teams.includes(game.teams.NS) && teams.includes(game.teams.EW)) {
      if (winner === teams[0]) won[0]++;
      else if (winner === teams[1]) won[1]++;
    }
  }
  return won;
}

/**
 * Whether a match between `teams` is decided by its games: a team reached the games it needs,
 * or time was called on the match's clock and a game ended on it (the team ahead when the clock
 * stopped wins the match: pitt-boss "at stop ... the team ahead in the current game wins"). When
 * each game has its own clock (asher), time ends that game only and the match plays on. Only games between
 * these two teams count: after a correction, games played by a team that should not have been
 * there stay in the record but decide nothing.
 */
function matchDecision(
  state: TournamentState,
  gameIds: readonly string[],
  games: Readonly<Record<string, GameModel>>,
  teams: readonly [string, string],
  clockPer: 'match' | 'game' = 'match',
  atTable = false,
): { winner: string; won: number; lost: number } | null {
  // Games won by teams[0] and teams[1]: settling a bracket asks this of every match.
  const wins = [0, 0];
  let timeWinner: string | null = null;
  for (const id of gameIds) {
    const game = games[id];
    if (!game || !teams.includes(game.teams.NS) || !teams.includes(game.teams.EW)) continue;
    // A claim waiting for a ruling in any of its games holds the match: the ruling may change it.
    if (!atTable && holdingClaims(state, game).length > 0) return null;
    const winner = gameWinner(state, game, atTable);
    const side = winner === null ? -1 : teams.indexOf(winner);
    if (side < 0) continue;
    wins[side]!++;
    if (clockPer === 'match' && game.reason === 'time' && game.winner && game.teams[game.winner] === winner) timeWinner = winner;
  }
  const needed = state.format.gamesToWin;
  const reached = wins[0]! >= needed ? teams[0] : wins[1]! >= needed ? teams[1] : null;
  const winner = reached ?? timeWinner;
  if (!winner) return null;
  const side = teams.indexOf(winner);
  return { winner, won: wins[side]!, lost: wins[1 - side]! };
}

/**
 * Brings the bracket's results in line with the games, match by match in bracket order, so a
 * changed result flows on: a match its games now decide gets (or changes) its result; a result
 * its games no longer support (a correction took a game away) is taken back and the match is
 * played on. Results of matches whose teams changed are kept, never erased: the bracket shows
 * them under review until the match is replayed between the right teams, and their games are
 * voided. A decided match reopened this way gets one piece of news saying what happened, by
 * `cause` (the type of the event that reopened it, one of CAUSES). True when the games voided
 * moved, so every standing must be counted again.
 */
export function settle(
  state: TournamentState,
  games: Readonly<Record<string, GameModel>>,
  position: number,
  from: string | null = null,
  cause: string | null = null,
): boolean {
  if (!state.bracket) return false;
  let views = viewsOf(state.bracket);
  const reopened: { matchId: string; result: NewsResult | null }[] = [];
  const replayed: string[] = [];
  // When only the games of match `from` changed, the matches before it in bracket order still
  // fit: each is fed only by matches before it, and none of their games moved.
  const first =
    from === null
      ? 0
      : Math.max(
          0,
          views.findIndex((view) => view.id === from),
        );
  for (let i = first; i < views.length; i++) {
    const view = views[i]!;
    const [a, b] = view.teams;
    if (a === null || b === null || view.status === 'bye' || view.status === 'not-needed' || view.status === 'forfeit') continue;
    const info = state.matchInfo[view.id];
    const decided = info ? matchDecision(state, info.games, games, [a, b], clockPerOf(info, state.format)) : null;
    if (resultFits(state.bracket, view, decided)) continue;
    const results: BracketState['results'] = { ...state.bracket.results };
    const result = decided ? { winner: decided.winner, loser: decided.winner === a ? b : a, won: decided.won, lost: decided.lost } : null;
    if (view.status === 'played') {
      state.reopened[view.id] = position;
      reopened.push({ matchId: view.id, result });
    }
    if (result) {
      results[view.id] = { winner: result.winner, loser: result.loser };
      if (view.status !== 'played' || !cause) addLatest(state, { kind: 'match-won', ...result }, position);
    } else {
      delete results[view.id];
      if (!cause) addLatest(state, { kind: 'match-undecided', matchId: view.id }, position);
    }
    state.bracket = { ...state.bracket, results };
    const before = views;
    views = viewsOf(state.bracket);
    views.forEach((after, j) => {
      if (before[j]!.status !== 'played' || after.status !== 'under-review') return;
      state.reviews.push({ matchId: after.id, position });
      const flagged = state.matchInfo[after.id];
      if (flagged) flagged.started = false;
      if (!replayed.includes(after.id)) replayed.push(after.id);
      if (!cause) addLatest(state, { kind: 'match-under-review', matchId: after.id }, position);
    });
  }
  const torn = voidGames(state, games, position);
  // A match's name is what tells two apart: ids of one name are one match to the room.
  for (const matchId of torn.voided) if (!replayed.some((id) => matchName(state, id) === matchName(state, matchId))) replayed.push(matchId);
  if (cause && (reopened.length > 0 || torn.voided.length > 0)) state.causes[String(position)] = CAUSES[cause] ?? cause;
  if (cause && reopened.length > 0) addLatest(state, { kind: 'matches-reopened', reopened, by: cause, restart: replayed }, position);
  return torn.moved;
}

/** A match as the room names it: its label, with its number where the label is shared ("Round 1 (match 6)", "the Final"). */
export function matchName(state: TournamentState, matchId: string): string {
  return matchNameIn(state.model.matches, matchId);
}

/** A match as the room names it, among the event's matches. */
export function matchNameIn(matches: readonly MatchModel[], matchId: string): string {
  const i = matches.findIndex((m) => m.matchId === matchId);
  const match = matches[i];
  if (!match) return `match ${matchId}`;
  if (match.side === 'final' || match.side === 'third-place') return `the ${match.label}`;
  return matches.filter((m) => m.label === match.label).length > 1 ? `${match.label} (match ${i + 1})` : match.label;
}

/** Whether the bracket's recorded result for a match agrees with what its games decide. */
function resultFits(bracket: BracketState, view: MatchView, decided: { winner: string } | null): boolean {
  const result = bracket.results[view.id];
  const fits = result !== undefined && view.status === 'played';
  return decided ? fits && result.winner === decided.winner : !fits;
}

/**
 * Whether one match's bracket result still agrees with its games. Every event that can change
 * another match's decision settles the whole bracket, so after a game of this match ends, the
 * bracket needs settling only when this match's own result no longer fits.
 */
export function matchSettled(state: TournamentState, games: Readonly<Record<string, GameModel>>, matchId: string | null): boolean {
  if (!state.bracket || !matchId) return false;
  const view = viewsOf(state.bracket).find((v) => v.id === matchId);
  const info = state.matchInfo[matchId];
  if (!view || !info) return false;
  const [a, b] = view.teams;
  if (a === null || b === null || view.status === 'bye' || view.status === 'not-needed' || view.status === 'forfeit') return true;
  return resultFits(state.bracket, view, matchDecision(state, info.games, games, [a, b], clockPerOf(info, state.format)));
}

/**
 * The progressive projection (tournament-spades "advancing winners"): individual players,
 * rounds of 4 hands at every table, the seating each round's results give the next
 * (engine/progressive.ts), individual running totals, standings and the high player / high
 * male / high female prizes. It lives inside its tournament's state and is folded by the
 * tournament projection.
 */
import type { Gender, PrizeWinners, ProgressiveSeating, TableResult } from '../engine/progressive.ts';
import { addRoundScores, firstRound, nextRound, prizeWinners, rankByTotal, sitOutScore } from '../engine/progressive.ts';
import type { PlayerRegistered, ProgressiveRoundStarted } from './event-catalogue.ts';
import type { GameModel } from './read-models.ts';

export interface ProgressivePlayerRow {
  playerId: string;
  name: string;
  gender?: Gender;
  /** The sum of the player's round scores over the rounds finished (a sit-out's the round's average). */
  total: number;
}

export interface ProgressiveRoundModel {
  round: number;
  seating: ProgressiveSeating;
  /** Players resting this round, as recorded when it was seated. */
  sittingOut: string[];
  /** The game played at each table, by table number (as text: JSON keys). */
  games: Record<string, string>;
  /** Each table's result once every table has finished its game; null while the round is played. */
  results: TableResult[] | null;
  /** What each sit-out scored: the round's average individual score, rounded; null until the round is over. */
  sitOutScore: number | null;
  /** Each player's score for the round (sit-outs included), once it is over. */
  scores: Record<string, number> | null;
}

export interface ProgressiveState {
  players: ProgressivePlayerRow[];
  /** The seeded order the event started from; the sit-out turn is taken from it. */
  order: string[];
  rounds: ProgressiveRoundModel[];
  /** The seating for the next round to start; null before the start and after the last round. */
  nextSeating: ProgressiveSeating | null;
  /** Who sits the next round out, beside nextSeating. */
  nextSittingOut: string[];
  /** Best total first; players on equal totals share the place. */
  standings: { place: number; playerId: string; total: number }[];
  /** Set once the last round is finished. */
  prizes: PrizeWinners | null;
  /** Why the seating could not be made (a ledger written by something else); commands refuse first. */
  problem?: string;
}

/** The match id of a table's game in a round: `R2-T3`. */
export function progressiveMatchId(round: number, table: number): string {
  return `R${round}-T${table}`;
}

/** Reads `R2-T3` back into its round and table; null for any other match id. */
export function parseProgressiveMatchId(matchId: string): { round: number; table: number } | null {
  const match = /^R(\d+)-T(\d+)$/.exec(matchId);
  return match ? { round: Number(match[1]), table: Number(match[2]) } : null;
}

/** A progressive event before its first registration. */
export function emptyProgressive(): ProgressiveState {
  return { players: [], order: [], rounds: [], nextSeating: null, nextSittingOut: [], standings: [], prizes: null };
}

/** A player registered. */
export function playerRegistered(state: ProgressiveState, e: PlayerRegistered): void {
  state.players.push({ playerId: e.playerId, name: e.name, ...(e.gender ? { gender: e.gender } : {}), total: 0 });
  rank(state);
}

/** Players withdrawn before the start leave the list. */
export function playerWithdrawn(state: ProgressiveState, playerId: string): void {
  state.players = state.players.filter((p) => p.playerId !== playerId);
  rank(state);
}

/** The event started: the seeded order the first round's seating and every sit-out turn come from. */
export function progressiveStarted(state: ProgressiveState, seeds: readonly string[]): void {
  state.order = [...seeds];
}

/** A round's tables were seated (as recorded) and their games started. */
export function roundStarted(state: ProgressiveState, e: ProgressiveRoundStarted): void {
  if (state.rounds.some((r) => r.round === e.round)) return;
  state.rounds.push({ round: e.round, seating: e.seating, sittingOut: [...(e.sittingOut ?? [])], games: {}, results: null, sitOutScore: null, scores: null });
}

/** A game at one of the round's tables started: it is that table's game. */
export function progressiveGameSeen(state: ProgressiveState, game: GameModel): void {
  const where = game.matchId ? parseProgressiveMatchId(game.matchId) : null;
  const round = where && state.rounds.find((r) => r.round === where.round);
  if (round && where) round.games[String(where.table)] ??= game.gameId;
}

/**
 * Works out every round's results, the totals, standings, the next seating and the prizes
 * again from the seatings as recorded and the games as they now stand, so a judge's score
 * correction to a finished round moves the totals (and, while the next round is not yet seated,
 * its seating) without touching the seatings already played. A round is over once every game of
 * it is, and none is held by a claim waiting for a ruling (`held`). Returns how many rounds are over.
 */
export function deriveProgressive(
  state: ProgressiveState,
  games: Readonly<Record<string, GameModel>>,
  roundsInEvent: number,
  held: (game: GameModel) => boolean = () => false,
): number {
  delete state.problem;
  let totals: Record<string, number> = Object.fromEntries(state.players.map((p) => [p.playerId, 0]));
  let over = 0;
  for (const round of state.rounds) {
    round.results = null;
    round.sitOutScore = null;
    round.scores = null;
    const finished = round.seating.map((t) => games[round.games[String(t.table)] ?? '']);
    // A game a claim still holds has no result yet (tournament-projection.ts holdingClaims).
    if (finished.some((g) => !g || g.winner === null || held(g))) continue;
    // A judge's score correction after the game ended can turn its result round: the side with
    // the higher round score is the one that advances; on equal scores, the one that won the
    // extra hand at the table.
    const results: TableResult[] = finished.map((g, i) => {
      const { NS, EW } = g!.score;
      return { table: round.seating[i]!.table, scores: { NS, EW }, winner: NS > EW ? 'NS' : EW > NS ? 'EW' : g!.winner! };
    });
    try {
      const scores = addRoundScores({}, round.seating, results, round.sittingOut);
      totals = addRoundScores(totals, round.seating, results, round.sittingOut);
      round.results = results;
      round.scores = scores;
      round.sitOutScore = round.sittingOut.length > 0 ? sitOutScore(round.seating, results) : null;
      over++;
    } catch (error) {
      state.problem = `round ${round.round}: ${(error as Error).message}`;
    }
  }
  for (const player of state.players) player.total = totals[player.playerId] ?? 0;
  rank(state);
  state.nextSeating = null;
  state.nextSittingOut = [];
  const last = state.rounds.at(-1);
  try {
    if (!last && state.order.length > 0) {
      ({ seating: state.nextSeating, sittingOut: state.nextSittingOut } = firstRound(state.order));
    } else if (last?.results && last.round < roundsInEvent) {
      ({ seating: state.nextSeating, sittingOut: state.nextSittingOut } = nextRound(state.order, last.round, last.seating, last.sittingOut, last.results));
    }
  } catch (error) {
    state.problem = (error as Error).message;
  }
  state.prizes = progressiveFinished(state, roundsInEvent)
    ? prizeWinners(
        state.players.map((p) => ({ id: p.playerId, ...(p.gender ? { gender: p.gender } : {}) })),
        totals,
      )
    : null;
  return over;
}

/** Whether the event's last round is finished. */
export function progressiveFinished(state: ProgressiveState, roundsInEvent: number): boolean {
  const last = state.rounds.find((r) => r.round === roundsInEvent);
  return last !== undefined && last.results !== null;
}

function rank(state: ProgressiveState): void {
  state.standings = rankByTotal(state.players).map((p) => ({ place: p.place, playerId: p.playerId, total: p.total }));
}

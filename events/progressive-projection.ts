/**
 * The progressive projection (tournament-spades "advancing winners"): individual players,
 * rounds of 4 hands at every table, the seating each round's results give the next
 * (engine/progressive.ts), individual running totals, standings and the high player / high
 * male / high female prizes. It lives inside its tournament's state and is folded by the
 * tournament projection.
 */
import type { Gender, PrizeWinners, ProgressiveSeating, TableResult } from '../engine/progressive.ts';
import { addRoundScores, initialSeating, nextSeating, prizeWinners } from '../engine/progressive.ts';
import type { PlayerRegistered, ProgressiveRoundStarted } from './domain-events.ts';
import type { GameModel } from './read-models.ts';

export interface ProgressivePlayerRow {
  playerId: string;
  name: string;
  gender?: Gender;
  /** The sum of the player's side's round scores over the rounds finished. */
  total: number;
}

export interface ProgressiveRoundModel {
  round: number;
  seating: ProgressiveSeating;
  /** The game played at each table, by table number (as text: JSON keys). */
  games: Record<string, string>;
  /** Each table's result once every table has finished its game; null while the round is played. */
  results: TableResult[] | null;
}

export interface ProgressiveState {
  players: ProgressivePlayerRow[];
  rounds: ProgressiveRoundModel[];
  /** The seating for the next round to start; null before the start and after the last round. */
  nextSeating: ProgressiveSeating | null;
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
  return { players: [], rounds: [], nextSeating: null, standings: [], prizes: null };
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

/** The event started: the first round's seating from the seeded order. */
export function progressiveStarted(state: ProgressiveState, seeds: readonly string[]): void {
  try {
    state.nextSeating = initialSeating(seeds);
  } catch (error) {
    state.problem = (error as Error).message;
  }
}

/** A round's tables were seated and their games started. */
export function roundStarted(state: ProgressiveState, e: ProgressiveRoundStarted): void {
  if (state.rounds.some((r) => r.round === e.round)) return;
  state.rounds.push({ round: e.round, seating: e.seating, games: {}, results: null });
  state.nextSeating = null;
}

/**
 * A game at one of the round's tables started or changed its score. When every table of the
 * round has a winner the round closes: each player adds their side's score, and the next
 * round's seating follows (unless `roundsInEvent` are done). Returns true when a round closed.
 */
export function progressiveGameChanged(
  state: ProgressiveState,
  game: GameModel,
  games: Readonly<Record<string, GameModel>>,
  roundsInEvent: number,
): boolean {
  const where = game.matchId ? parseProgressiveMatchId(game.matchId) : null;
  if (!where) return false;
  const round = state.rounds.find((r) => r.round === where.round);
  if (!round || round.results !== null) return false;
  round.games[String(where.table)] = game.gameId;
  const finished = round.seating.map((t) => games[round.games[String(t.table)] ?? '']);
  if (finished.some((g) => !g || g.winner === null)) return false;
  const results: TableResult[] = finished.map((g, i) => ({ table: round.seating[i]!.table, scores: { ...g!.score }, winner: g!.winner! }));
  try {
    const totals = addRoundScores(Object.fromEntries(state.players.map((p) => [p.playerId, p.total])), round.seating, results);
    for (const player of state.players) player.total = totals[player.playerId] ?? player.total;
    round.results = results;
    state.nextSeating = round.round < roundsInEvent ? nextSeating(round.seating, results) : null;
  } catch (error) {
    state.problem = `round ${round.round}: ${(error as Error).message}`;
    return false;
  }
  rank(state);
  if (round.round >= roundsInEvent) state.prizes = prizeWinners(state.players.map((p) => ({ id: p.playerId, ...(p.gender ? { gender: p.gender } : {}) })), totals(state));
  return true;
}

/** Whether the event's last round is finished. */
export function progressiveFinished(state: ProgressiveState, roundsInEvent: number): boolean {
  const last = state.rounds.find((r) => r.round === roundsInEvent);
  return last !== undefined && last.results !== null;
}

function totals(state: ProgressiveState): Record<string, number> {
  return Object.fromEntries(state.players.map((p) => [p.playerId, p.total]));
}

function rank(state: ProgressiveState): void {
  const sorted = [...state.players].sort((a, b) => b.total - a.total);
  state.standings = sorted.map((p) => ({
    place: sorted.findIndex((q) => q.total === p.total) + 1,
    playerId: p.playerId,
    total: p.total,
  }));
}

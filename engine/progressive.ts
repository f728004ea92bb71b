/**
 * Progressive tables (tournament-spades, "advancing winners"): individual players at tables of
 * four, 4 hands a round. After each round the side with the higher round score at each table
 * moves up one table and splits to partner the pair sitting there; at the top table the
 * winners stay and the losers go to the last table. Scores are kept per player: each player
 * adds their side's round score to their own total.
 *
 * Table 1 is the top table. At every table after a move, the two staying players take N and E
 * and the two incoming players take S and W, so N–S and E–W are each one stayer with one
 * newcomer ("the incoming partners split and join with the sitting partners").
 */
import { type Seat, type Team, SEATS, seatsOf } from './cards.ts';

export type Gender = 'male' | 'female';

export interface ProgressivePlayer {
  id: string;
  /** Only needed for the high male / high female prizes. */
  gender?: Gender;
}

export interface ProgressiveTable {
  /** 1 is the top table. */
  table: number;
  seats: Record<Seat, string>;
}

/** Tables in order, table 1 first. */
export type ProgressiveSeating = ProgressiveTable[];

/**
 * One table's round as reported by its scorekeeper: each side's score over the round's hands
 * and the side that advances. On equal scores the winner is the side that won the extra hand
 * (rules: a tie is broken by one more hand); the scores are what the players add to their totals.
 */
export interface TableResult {
  table: number;
  scores: Record<Team, number>;
  winner: Team;
}

export interface ProgressiveRound {
  seating: ProgressiveSeating;
  results: TableResult[];
}

export interface PrizeWinners {
  /** Everyone tied on the highest total ("the individual(s) with the highest score wins"). */
  highPlayer: string[];
  /** Empty when no player is recorded as male. */
  highMale: string[];
  /** Empty when no player is recorded as female. */
  highFemale: string[];
}

/** The first seating from a seeded order: four players a table, in N, E, S, W order, table 1 first. */
export function initialSeating(order: readonly string[]): ProgressiveSeating {
  if (order.length < 8 || order.length % 4 !== 0) {
    throw new Error(`progressive tables: ${order.length} players; it takes a multiple of 4 and at least two tables ("Two or more tables being played")`);
  }
  const seen = new Set<string>();
  for (const id of order) {
    if (typeof id !== 'string' || id.trim() === '') throw new Error('progressive tables: a player id is empty');
    if (seen.has(id)) throw new Error(`progressive tables: player '${id}' is listed twice`);
    seen.add(id);
  }
  const seating: ProgressiveSeating = [];
  for (let t = 0; t < order.length / 4; t++) {
    const [N, E, S, W] = order.slice(4 * t, 4 * t + 4) as [string, string, string, string];
    seating.push({ table: t + 1, seats: { N, E, S, W } });
  }
  return seating;
}

/** Refuses a seating or a round's results that do not fit together, naming the table. */
export function checkRoundResults(seating: ProgressiveSeating, results: readonly TableResult[]): void {
  checkSeating(seating);
  const byTable = new Map<number, TableResult>();
  for (const result of results) {
    const where = `round results, table ${result.table}`;
    if (!Number.isInteger(result.table) || result.table < 1 || result.table > seating.length) {
      throw new Error(`${where}: there is no such table (tables 1 to ${seating.length} are in play)`);
    }
    if (byTable.has(result.table)) throw new Error(`${where}: reported twice`);
    byTable.set(result.table, result);
    if (result.winner !== 'NS' && result.winner !== 'EW') throw new Error(`${where}: the winner must be NS or EW, not '${String(result.winner)}'`);
    for (const side of ['NS', 'EW'] as const) {
      const score = result.scores?.[side];
      if (!Number.isInteger(score)) throw new Error(`${where}: the ${side} score must be a whole number, not ${String(score)}`);
    }
    const { NS, EW } = result.scores;
    const higher: Team | null = NS > EW ? 'NS' : EW > NS ? 'EW' : null;
    if (higher !== null && higher !== result.winner) {
      throw new Error(`${where}: NS ${NS} v EW ${EW} but ${result.winner} is reported as the winner; the side with the higher round score advances`);
    }
  }
  const missing = seating.filter((t) => !byTable.has(t.table)).map((t) => t.table);
  if (missing.length > 0) throw new Error(`round results: no result for table${missing.length > 1 ? 's' : ''} ${missing.join(', ')}`);
}

/** The seating for the next round: winners up a table and split, top-table losers to the last table. */
export function nextSeating(seating: ProgressiveSeating, results: readonly TableResult[]): ProgressiveSeating {
  checkRoundResults(seating, results);
  const last = seating.length;
  const pair = (table: number, side: Team): [string, string] => {
    const [a, b] = seatsOf(side);
    const seats = seating[table - 1]!.seats;
    return [seats[a], seats[b]];
  };
  const winnerOf = (table: number): Team => results.find((r) => r.table === table)!.winner;
  const loserOf = (table: number): Team => (winnerOf(table) === 'NS' ? 'EW' : 'NS');

  return seating.map(({ table }) => {
    const staying = table === 1 ? pair(1, winnerOf(1)) : pair(table, loserOf(table));
    const incoming = table === last ? pair(1, loserOf(1)) : pair(table + 1, winnerOf(table + 1));
    return { table, seats: { N: staying[0], E: staying[1], S: incoming[0], W: incoming[1] } };
  });
}

/** Totals after adding one round: each player gets their side's round score. */
export function addRoundScores(
  totals: Readonly<Record<string, number>>,
  seating: ProgressiveSeating,
  results: readonly TableResult[],
): Record<string, number> {
  checkRoundResults(seating, results);
  const next = { ...totals };
  for (const result of results) {
    const seats = seating[result.table - 1]!.seats;
    for (const side of ['NS', 'EW'] as const) {
      for (const seat of seatsOf(side)) next[seats[seat]] = (next[seats[seat]] ?? 0) + result.scores[side];
    }
  }
  return next;
}

/** Each player's running total over the rounds played. */
export function progressiveTotals(rounds: readonly ProgressiveRound[]): Record<string, number> {
  let totals: Record<string, number> = {};
  for (const round of rounds) totals = addRoundScores(totals, round.seating, round.results);
  return totals;
}

/**
 * Replays a progressive event from its seeded order and each round's table results: the seating
 * of every round played, the seating for the next one, and the totals.
 */
export function playProgressive(
  order: readonly string[],
  roundResults: readonly (readonly TableResult[])[],
): { rounds: ProgressiveRound[]; seating: ProgressiveSeating; totals: Record<string, number> } {
  let seating = initialSeating(order);
  const rounds: ProgressiveRound[] = [];
  let totals: Record<string, number> = Object.fromEntries(order.map((id) => [id, 0]));
  roundResults.forEach((results, i) => {
    try {
      totals = addRoundScores(totals, seating, results);
      rounds.push({ seating, results: [...results] });
      seating = nextSeating(seating, results);
    } catch (error) {
      throw new Error(`round ${i + 1}: ${(error as Error).message}`);
    }
  });
  return { rounds, seating, totals };
}

/** High player, high male and high female by total; everyone tied on a high total shares it. */
export function prizeWinners(players: readonly ProgressivePlayer[], totals: Readonly<Record<string, number>>): PrizeWinners {
  for (const player of players) {
    if (!(player.id in totals)) throw new Error(`prizes: player '${player.id}' has no total`);
  }
  const best = (group: readonly ProgressivePlayer[]): string[] => {
    if (group.length === 0) return [];
    const top = Math.max(...group.map((p) => totals[p.id]!));
    return group.filter((p) => totals[p.id] === top).map((p) => p.id);
  };
  return {
    highPlayer: best(players),
    highMale: best(players.filter((p) => p.gender === 'male')),
    highFemale: best(players.filter((p) => p.gender === 'female')),
  };
}

function checkSeating(seating: ProgressiveSeating): void {
  if (seating.length < 2) throw new Error(`seating: ${seating.length} table${seating.length === 1 ? '' : 's'}; progressive tables need two or more`);
  const seen = new Map<string, number>();
  seating.forEach((table, i) => {
    if (table.table !== i + 1) throw new Error(`seating: table ${table.table} is listed in place ${i + 1}; tables run 1, 2, 3, … from the top`);
    for (const seat of SEATS) {
      const id = table.seats[seat];
      if (typeof id !== 'string' || id === '') throw new Error(`seating: table ${table.table} seat ${seat} is empty`);
      const other = seen.get(id);
      if (other !== undefined) throw new Error(`seating: player '${id}' sits at table ${other} and again at table ${table.table}`);
      seen.set(id, table.table);
    }
  });
}

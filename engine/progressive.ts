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
 *
 * A count that is not a multiple of 4 leaves 1 to 3 players out of each round, in a fixed turn
 * from the end of the seeded order (sitOuts). The movement is made over the tables as they
 * played; then the next round's sit-outs leave their seats and the players returning take
 * them (nextRound). A sit-out scores the round's average individual score, rounded.
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
  /** Players resting this round (a count that is not a multiple of 4). */
  sittingOut?: string[];
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

/** Fewest players a progressive event takes: two tables ("Two or more tables being played"). */
export const MIN_PLAYERS = 8;

/** Refuses a seeded order too short for two tables, or with a player missing or listed twice. */
function checkOrder(order: readonly string[]): void {
  if (order.length < MIN_PLAYERS) {
    throw new Error(`progressive tables: ${order.length} players; it takes at least ${MIN_PLAYERS}, two tables of four ("Two or more tables being played")`);
  }
  const seen = new Set<string>();
  for (const id of order) {
    if (typeof id !== 'string' || id.trim() === '') throw new Error('progressive tables: a player id is empty');
    if (seen.has(id)) throw new Error(`progressive tables: player '${id}' is listed twice`);
    seen.add(id);
  }
}

/**
 * Who sits out round `round` (1 = the first): with a count that is not a multiple of 4 the
 * extra players sit out in turn, taken from the end of the seeded order and going backwards,
 * round after round, round the list again once everyone has sat out. Taking them in one fixed
 * cycle means nobody sits out twice before everyone has sat out once. Empty for a multiple of 4.
 */
export function sitOuts(order: readonly string[], round: number): string[] {
  const n = order.length;
  const k = n % 4;
  return Array.from({ length: k }, (_, j) => order[(((n - 1 - ((round - 1) * k + j)) % n) + n) % n]!);
}

/**
 * The first seating from a seeded order: four players a table, in N, E, S, W order, table 1
 * first; the players over a multiple of 4 (the last of the order) sit the first round out.
 */
export function initialSeating(order: readonly string[]): ProgressiveSeating {
  return firstRound(order).seating;
}

/** The first round: its seating and who sits it out. */
export function firstRound(order: readonly string[]): { seating: ProgressiveSeating; sittingOut: string[] } {
  checkOrder(order);
  const sittingOut = sitOuts(order, 1);
  const playing = order.filter((id) => !sittingOut.includes(id));
  const seating: ProgressiveSeating = [];
  for (let t = 0; t < playing.length / 4; t++) {
    const [N, E, S, W] = playing.slice(4 * t, 4 * t + 4) as [string, string, string, string];
    seating.push({ table: t + 1, seats: { N, E, S, W } });
  }
  return { seating, sittingOut };
}

/**
 * The round after `round`: the movement is made over the tables as they played (nextSeating),
 * then the next round's sit-outs leave their seats and this round's sit-outs take them, the
 * first returning player the first seat left (tables from the top, N E S W). A returning player
 * so takes up the place in the movement of someone whose turn it is to rest.
 */
export function nextRound(
  order: readonly string[],
  round: number,
  seating: ProgressiveSeating,
  sittingOut: readonly string[],
  results: readonly TableResult[],
): { seating: ProgressiveSeating; sittingOut: string[] } {
  checkOrder(order);
  const moved = nextSeating(seating, results);
  const resting = sitOuts(order, round + 1);
  const returning = [...sittingOut];
  if (returning.length !== resting.length) {
    throw new Error(`round ${round}: ${returning.length} sat out but ${resting.length} sit out next; the count of players changed`);
  }
  const next = moved.map((t) => ({ table: t.table, seats: { ...t.seats } }));
  for (const t of next) {
    for (const seat of SEATS) {
      if (resting.includes(t.seats[seat])) t.seats[seat] = returning.shift()!;
    }
  }
  return { seating: next, sittingOut: resting };
}

/**
 * What a sit-out scores for a round: the average of every seated player's round score (each
 * player scores their side's), rounded to the nearest point, halves up (rules.md).
 */
export function sitOutScore(seating: ProgressiveSeating, results: readonly TableResult[]): number {
  checkRoundResults(seating, results);
  let sum = 0;
  for (const result of results) sum += 2 * result.scores.NS + 2 * result.scores.EW;
  return Math.round(sum / (4 * seating.length));
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
  sittingOut: readonly string[] = [],
): Record<string, number> {
  checkRoundResults(seating, results);
  const next = { ...totals };
  if (sittingOut.length > 0) {
    const average = sitOutScore(seating, results);
    for (const id of sittingOut) next[id] = (next[id] ?? 0) + average;
  }
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
  for (const round of rounds) totals = addRoundScores(totals, round.seating, round.results, round.sittingOut ?? []);
  return totals;
}

/**
 * Replays a progressive event from its seeded order and each round's table results: the seating
 * of every round played, the seating for the next one, and the totals.
 */
export function playProgressive(
  order: readonly string[],
  roundResults: readonly (readonly TableResult[])[],
): { rounds: ProgressiveRound[]; seating: ProgressiveSeating; sittingOut: string[]; totals: Record<string, number> } {
  let { seating, sittingOut } = firstRound(order);
  const rounds: ProgressiveRound[] = [];
  let totals: Record<string, number> = Object.fromEntries(order.map((id) => [id, 0]));
  roundResults.forEach((results, i) => {
    try {
      totals = addRoundScores(totals, seating, results, sittingOut);
      rounds.push({ seating, sittingOut, results: [...results] });
      ({ seating, sittingOut } = nextRound(order, i + 1, seating, sittingOut, results));
    } catch (error) {
      throw new Error(`round ${i + 1}: ${(error as Error).message}`);
    }
  });
  return { rounds, seating, sittingOut, totals };
}

/**
 * The one ranking of an evening, used by every standings view: best total first, equal totals
 * share a place (1, 2, 2, 4), and players sharing a place are listed by name.
 */
export function rankByTotal<T extends { name: string; total: number }>(rows: readonly T[]): (T & { place: number })[] {
  const sorted = [...rows].sort((a, b) => b.total - a.total || a.name.localeCompare(b.name));
  let place = 0;
  return sorted.map((row, i) => {
    if (i === 0 || row.total !== sorted[i - 1]!.total) place = i + 1;
    return { ...row, place };
  });
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

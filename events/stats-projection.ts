/**
 * The statistics projection: what each game's scored hands say about its teams and seats, folded
 * whenever the game is scored (a hand closed, a ruling given or withdrawn, an undo), and the
 * tournament's statistics as the sum of its games'. A game's part is worked out again from the
 * game's own record each time, so a ruling that changes an earlier hand changes its statistics
 * too, and a rebuild, an as-of fold or an import gives the same figures as the live ledger.
 *
 * Definitions, per team (per seat for a player):
 * - `hands`: hands played (a misdeal is no hand; an unplayed asher 6-4 is one, with no tricks);
 * - `bid`: the numeric bids of its seats added up (nil and blind nil count 0; `blind 6` counts 6);
 * - `taken`: the tricks its seats took as the cards fell (or as the tricks were entered), before
 *   any renege ruling moves tricks between the teams;
 * - `contractsMade` / `contractsSet`: hands in which the scorer found the team's contract made or
 *   set, after rulings (a double nil is never set, so it counts as made);
 * - `nilsBid` / `nilsMade` and `blindNilsBid` / `blindNilsMade`: nil and blind nil bids (kept
 *   apart) and those whose seat took no trick;
 * - `bostons`: hands in which its two seats took all 13 tricks;
 * - `bags`: overtricks added to its bag count (none where the rules count no bags);
 * - `bagPenalties`: times the bag penalty was paid;
 * - `renegesClaimed` / `renegesUpheld`: renege claims against its seats that a judge ruled on, as
 *   the game's record holds them (a claim awaiting its ruling, or whose ruling was withdrawn,
 *   is not counted), and those upheld;
 * - `bestHand`: the most points it scored in one hand (null before its first hand).
 */
import { type Seat, type Team, SEATS, TEAMS, otherTeam, seatsOf, teamOf } from '../engine/cards.ts';
import { type Bid, parseBid } from '../engine/bid.ts';
import type { RuleOptions } from '../engine/presets.ts';
import { resolveRules } from '../engine/rules.ts';
import { bigBidOf, madeContractPoints } from '../engine/scoring.ts';
import type { GameModel } from './read-models.ts';

/** What a seat's hands add up to. */
export interface SeatStatLine {
  hands: number;
  bid: number;
  taken: number;
  nilsBid: number;
  nilsMade: number;
  blindNilsBid: number;
  blindNilsMade: number;
}

/** What a team's hands add up to (the module's summary gives each field's meaning). */
export interface TeamStatLine extends SeatStatLine {
  contractsMade: number;
  contractsSet: number;
  bostons: number;
  bags: number;
  bagPenalties: number;
  renegesClaimed: number;
  renegesUpheld: number;
  bestHand: number | null;
}

export type HighlightKind = 'boston' | 'blind-nil-made' | 'big-bid-made' | 'big-bid-set' | 'comeback';

/** Something worth telling the room, at the hand where it happened. */
export interface GameHighlight {
  kind: Exclude<HighlightKind, 'comeback'>;
  team: Team;
  /** The seat, for a blind nil. */
  seat?: Seat;
  /** The team's contract, for a big bid. */
  contract?: number;
  /** What a bid of 10 is worth under the rules' "10 for 200" (120 in unc-300), for one made. */
  worth?: number;
  hand: number;
  position: number;
}

/** The game's winner and the most points it trailed by on the way (0 when it never trailed). */
export interface GameComeback {
  team: Team;
  behind: number;
  /** The hand that won the game, and the position of the event that closed it. */
  hand: number;
  position: number;
}

/** One game's part in its tournament's statistics. */
export interface GameStats {
  matchId: string | null;
  /** The game's number in its match. */
  number: number;
  /** The team (or, in a progressive evening, the partnership) on each side, and who sat where. */
  teamIds: Record<Team, string>;
  seatNames: Partial<Record<Seat, string>>;
  /** Rows of the game counted so far, misdeals included. */
  hands: number;
  misdeals: number;
  teams: Record<Team, TeamStatLine>;
  /** Each seat's hands; a seat with nobody named on it is not kept. */
  seats: Partial<Record<Seat, SeatStatLine>>;
  highlights: GameHighlight[];
  /** The most points each side has trailed by after a hand (or at the start of a game picked up from paper). */
  behind: Record<Team, number>;
  comeback: GameComeback | null;
}

/** A seat line with nothing counted yet. */
export function emptySeatLine(): SeatStatLine {
  return { hands: 0, bid: 0, taken: 0, nilsBid: 0, nilsMade: 0, blindNilsBid: 0, blindNilsMade: 0 };
}

/** A team line with nothing counted yet. */
export function emptyTeamLine(): TeamStatLine {
  return {
    ...emptySeatLine(),
    contractsMade: 0,
    contractsSet: 0,
    bostons: 0,
    bags: 0,
    bagPenalties: 0,
    renegesClaimed: 0,
    renegesUpheld: 0,
    bestHand: null,
  };
}

/** The least a winner must have trailed by for its game to be told as a comeback. */
export const COMEBACK_FLOOR = 100;

/** A bid of at least this many tricks that is set is told to the room. */
export const BIG_SET_FROM = 10;

/** The game's statistics from its scored hands and their rulings, as the game's record holds them. */
export function gameStats(game: GameModel): GameStats {
  const stats: GameStats = {
    matchId: game.matchId,
    number: game.number,
    teamIds: { ...game.teams },
    seatNames: { ...game.seats },
    hands: 0,
    misdeals: 0,
    teams: { NS: emptyTeamLine(), EW: emptyTeamLine() },
    seats: {},
    highlights: [],
    behind: game.start ? { NS: game.start.EW.score - game.start.NS.score, EW: game.start.NS.score - game.start.EW.score } : { NS: 0, EW: 0 },
    comeback: null,
  };
  for (const seat of SEATS) if (game.seats[seat] !== undefined) stats.seats[seat] = emptySeatLine();
  const options = optionsOf(game);
  for (let i = 0; i < game.rows.length; i++) countHand(stats, game, i, options);
  return settleComeback(stats, game);
}

/**
 * The game's statistics after a change: a hand closed on top of those counted is added on its
 * own (the hands before it are as they were); anything else (a ruling, a withdrawal, an undo, a
 * time call) may have changed any hand, and the game is counted again.
 */
export function gameStatsAfter(stats: GameStats | undefined, game: GameModel, handClosed: boolean): GameStats {
  if (!stats || !handClosed || stats.hands !== game.rows.length - 1) return gameStats(game);
  countHand(stats, game, stats.hands, optionsOf(game));
  return settleComeback(stats, game);
}

function optionsOf(game: GameModel): RuleOptions {
  return game.scoring?.rules.options ?? resolveRules(game.rules).options;
}

/** Counts hand `i` of the game (its row and its record) into the game's statistics. */
function countHand(stats: GameStats, game: GameModel, i: number, options: RuleOptions): void {
  const row = game.rows[i]!;
  stats.hands++;
  if (row.misdeal) stats.misdeals++;
  if (row.misdeal || !row.bids || !row.outcome) return;
  const { teams, seats, highlights, behind } = stats;
  const bids = {} as Record<Seat, Bid>;
  for (const seat of SEATS) bids[seat] = parseBid(row.bids[seat])!;
  const tricks = row.tricks ?? null;
  for (const seat of SEATS) {
    const line = seats[seat];
    if (line) {
      line.hands++;
      countSeat(line, bids[seat], tricks?.[seat] ?? 0, tricks !== null);
    }
    countSeat(teams[teamOf(seat)], bids[seat], tricks?.[seat] ?? 0, tricks !== null);
  }
  for (const team of TEAMS) {
    const line = teams[team];
    const outcome = row.outcome[team];
    const [a, b] = seatsOf(team);
    const taken = tricks ? tricks[a] + tricks[b] : 0;
    line.hands++;
    if (outcome.set) line.contractsSet++;
    else line.contractsMade++;
    line.bags += outcome.bags;
    line.bagPenalties += outcome.bagPenalties;
    const points = row[team].points;
    if (line.bestHand === null || points > line.bestHand) line.bestHand = points;
    if (taken === 13) {
      line.bostons++;
      highlights.push({ kind: 'boston', team, hand: row.number, position: row.position });
    }
    const contract = contractOf(bids[a]) + contractOf(bids[b]);
    const doubleNil = isNilBid(bids[a]) && isNilBid(bids[b]);
    const big = bigBidOf(options, contract, doubleNil);
    if (big && !outcome.set && tricks !== null) {
      // The rule's name, "10 for 200": what its lowest bid is worth made.
      const worth = madeContractPoints(options, big.from);
      highlights.push({ kind: 'big-bid-made', team, contract, worth, hand: row.number, position: row.position });
    }
    if (contract >= BIG_SET_FROM && outcome.set) highlights.push({ kind: 'big-bid-set', team, contract, hand: row.number, position: row.position });
    // How far behind each team has been after a hand, before the judges' corrections of the game's total.
    behind[team] = Math.max(behind[team], row[otherTeam(team)].score - row[team].score);
  }
  for (const seat of SEATS) {
    if (bids[seat].kind === 'blind-nil' && tricks !== null && tricks[seat] === 0) {
      highlights.push({ kind: 'blind-nil-made', team: teamOf(seat), seat, hand: row.number, position: row.position });
    }
  }
  for (const claim of game.hands[i]?.reneges ?? []) {
    const line = teams[teamOf(claim.seat)];
    line.renegesClaimed++;
    if (claim.upheld) line.renegesUpheld++;
  }
}

function settleComeback(stats: GameStats, game: GameModel): GameStats {
  const last = game.rows[game.rows.length - 1];
  stats.comeback = game.winner && last ? { team: game.winner, behind: stats.behind[game.winner], hand: last.number, position: last.position } : null;
  return stats;
}

/** A seat's bid and tricks, into its own line or its team's (hands are counted by the caller, once a hand). */
function countSeat(line: SeatStatLine, bid: Bid, taken: number, played: boolean): void {
  line.bid += contractOf(bid);
  line.taken += taken;
  if (bid.kind === 'nil') {
    line.nilsBid++;
    if (played && taken === 0) line.nilsMade++;
  } else if (bid.kind === 'blind-nil') {
    line.blindNilsBid++;
    if (played && taken === 0) line.blindNilsMade++;
  }
}

function contractOf(bid: Bid): number {
  return bid.kind === 'number' || bid.kind === 'blind' ? bid.tricks : 0;
}

function isNilBid(bid: Bid): boolean {
  return bid.kind === 'nil' || bid.kind === 'blind-nil';
}

/** Adds one line's counts into another (a team's or a seat's); the best hand is the better of the two. */
export function addLine(into: SeatStatLine & { bestHand?: number | null }, from: SeatStatLine & { bestHand?: number | null }): void {
  for (const key of SEAT_FIELDS) into[key] += from[key];
  if ('contractsMade' in from) {
    const team = into as TeamStatLine;
    const other = from as TeamStatLine;
    for (const key of TEAM_FIELDS) team[key] += other[key];
    if (other.bestHand !== null && (team.bestHand === null || other.bestHand > team.bestHand)) team.bestHand = other.bestHand;
  }
}

const SEAT_FIELDS = ['hands', 'bid', 'taken', 'nilsBid', 'nilsMade', 'blindNilsBid', 'blindNilsMade'] as const satisfies readonly (keyof SeatStatLine)[];
const TEAM_FIELDS = [
  'contractsMade',
  'contractsSet',
  'bostons',
  'bags',
  'bagPenalties',
  'renegesClaimed',
  'renegesUpheld',
] as const satisfies readonly (keyof TeamStatLine)[];

/**
 * The shapes the projections fold the ledger into and the views render. Plain JSON, so a read
 * model can be snapshotted, compared after a rebuild, and computed as of any position.
 */
import type { Seat, Team } from '../engine/cards.ts';
import type { GameState } from '../engine/game.ts';
import type { StandingRow, Tiebreak } from '../engine/league-table.ts';
import type { Elimination } from '../engine/formats.ts';
import type { BidValue, FormatId, RulesValue } from './event-catalogue.ts';

export interface TeamTotals {
  points: number;
  score: number;
  bags: number;
  sets: number;
}

export interface HandRow {
  number: number;
  dealer: Seat;
  misdeal?: string;
  bids?: Partial<Record<Seat, BidValue>>;
  tricks?: Record<Seat, number>;
  NS: TeamTotals;
  EW: TeamTotals;
  reneges: { seat: Seat; trick: number }[];
  illegalLeads: { seat: Seat; trick: number }[];
  /** How the scorer settled each team's side of the hand (absent for a misdeal): what the statistics count. */
  outcome?: Record<Team, HandOutcome>;
  /** Ledger position of the event that completed the hand. */
  position: number;
}

/** One team's side of a scored hand, as the engine's scorer settled it. */
export interface HandOutcome {
  /** The team bid a contract and did not make it, after any renege ruling (a double nil is never set). */
  set: boolean;
  /** Overtricks added to the team's bag count (0 where the rules count no bags). */
  bags: number;
  /** Times the bag penalty was paid in this hand. */
  bagPenalties: number;
  /** Tricks that count for the team after any renege ruling (and any debt paid), as the pad shows them. */
  counted?: number;
}

export interface HandInProgress {
  number: number;
  dealer: Seat;
  deal?: Record<Seat, string[]>;
  bids: Partial<Record<Seat, BidValue>>;
  /** Cards of each trick so far, leader first, as record names. */
  plays: string[][];
  /** Positions of the CardPlayed events, parallel to plays. */
  playPositions: number[][];
  tricks?: Record<Seat, number>;
  firstSeven?: Team;
}

export interface Claim {
  claimId: string;
  gameId: string;
  hand: number;
  seat: Seat;
  trick: number | null;
  position: number;
  /** When it was claimed, as the ledger recorded it. */
  at: string;
  ruling?: { upheld: boolean; note: string; judge: string; position: number; at: string; withdrawn?: Withdrawal };
}

/** A judge's withdrawal of an earlier ruling (RulingWithdrawn): the ruling stays on record with no effect. */
export interface Withdrawal {
  reason: string;
  judge: string;
  position: number;
  at: string;
}

export interface GameModel {
  gameId: string;
  matchId: string | null;
  tournamentId: string | null;
  number: number;
  rules: RulesValue;
  teams: Record<Team, string>;
  seats: Partial<Record<Seat, string>>;
  dealer: Seat;
  start?: Record<Team, { score: number; bags: number; sets: number }>;
  /** Hands as the game record holds them (input to the engine's scorer). */
  hands: RecordHand[];
  /** Positions of the events that closed each hand, parallel to hands. */
  handPositions: number[];
  current: HandInProgress | null;
  claims: Claim[];
  corrections: { points: Record<Team, number>; reason: string; judge: string; position: number; at: string; withdrawn?: Withdrawal }[];
  timeCalled: number | null;
  /** Scored result, recomputed whenever a hand closes or a ruling changes it. */
  rows: HandRow[];
  score: Record<Team, number>;
  bags: Record<Team, number>;
  sets: Record<Team, number>;
  winner: Team | null;
  reason: string | null;
  abandoned: boolean;
  /** The engine's game after the scored hands, so the next hand is scored on top of it. */
  scoring?: GameState | null;
  /** When the game started and ended, as the ledger recorded them (event-times.ts). */
  times?: { startedAt: string | null; completedAt: string | null };
  /** Set when the recorded hands cannot be scored (a ledger written by something else). */
  problem?: string;
  /**
   * What was recorded at this game since its last deal, oldest first: the entries an undo may
   * take back, and the claims, rulings and corrections after which it may not.
   */
  recent?: RecentEntry[];
  /** The hand the latest closing entry (last card, tricks, misdeal) closed, so an undo can reopen it. */
  closedHand?: HandInProgress | null;
}

/** One thing recorded at a game, as the undo of the last entry sees it. */
export interface RecentEntry {
  type: string;
  position: number;
  hand: number | null;
  seat?: Seat;
  card?: string;
  bid?: BidValue;
  claimId?: string;
}

/** One hand as the spades-game/1 record holds it. */
export interface RecordHand {
  dealer?: Seat;
  misdeal?: string;
  deal?: Record<Seat, string[]>;
  bids?: Partial<Record<Seat, BidValue>>;
  tricks?: Record<Seat, number>;
  plays?: string[][];
  firstSeven?: Team;
  reneges?: { seat: Seat; trick?: number; upheld: boolean }[];
}

export interface TeamRow {
  teamId: string;
  name: string;
  players: string[];
  seed: number | null;
  wins: number;
  losses: number;
  gamesWon: number;
  gamesLost: number;
  points: number;
  bags: number;
  sets: number;
  status: 'registered' | 'withdrawn' | 'alive' | 'out' | 'disqualified' | 'champion';
  /** A drawn team's players by the ids they registered under alone (PartnersDrawn), in roster order. */
  playerIds?: string[];
}

export interface MatchModel {
  matchId: string;
  round: number;
  side: string;
  label: string;
  teams: [string | null, string | null];
  games: string[];
  gamesWon: [number, number];
  status: 'waiting' | 'ready' | 'live' | 'done' | 'bye' | 'forfeit';
  winner: string | null;
  table: number | null;
  /** The running clock: the match's, or (each game timed on its own) the latest game's, named by `gameId`. */
  clock: { startedAt: string; minutes: number; calledAt: string | null; gameId?: string } | null;
  underReview: boolean;
  /**
   * Games of the match that no longer count, with the ledger position of the ruling that voided
   * each (a later ruling moved a team that played them elsewhere); listed in `games` as played.
   */
  voided?: { gameId: string; number: number; position: number; by: string }[];
  /**
   * The ruling that took back the match's decided result (its ledger position and what it was,
   * "a renege ruling"), while the match is played again.
   */
  reopened?: { position: number; by: string };
  /**
   * Claims in the match's games still waiting for a ruling, which hold its result: `since` is when
   * the oldest was made, as the ledger recorded it. Absent while nothing waits.
   */
  awaitingRuling?: { since: string; claims: number };
}

/** A decided match as the news tells it: the winner, the loser and the games each won. */
export interface NewsResult {
  winner: string;
  loser: string;
  won: number;
  lost: number;
}

/**
 * Something that happened in the event, as facts (who, which match or table, by what): the
 * views put it into the room's words. Teams by id, matches by id, `by` the event type that
 * caused a reopening.
 */
export type NewsFact =
  | ({ kind: 'match-won' } & NewsResult)
  | { kind: 'match-undecided'; matchId: string }
  | { kind: 'match-under-review'; matchId: string }
  | { kind: 'matches-reopened'; reopened: { matchId: string; result: NewsResult | null }[]; by: string; restart: string[] }
  | { kind: 'round-drawn'; round: number; final: boolean; byes: { teamId: string; card: string | null }[]; playoff?: true }
  | { kind: 'time-called'; matchId: string; game: number | null; hand: number }
  | { kind: 'result-corrected'; gameId: string; judge: string; winner: string; reason: string }
  | { kind: 'team-out'; teamId: string; how: 'disqualified' | 'no-show' | 'forfeit'; reason: string }
  | { kind: 'round-seated'; round: number; tables: number }
  | { kind: 'rounds-changed'; rounds: number }
  | { kind: 'round-finished'; round: number };

/** A piece of news with the ledger position of the event it came from. */
export type News = NewsFact & { position: number };

export interface TournamentModel {
  tournamentId: string;
  name: string;
  format: FormatId;
  /** Set while the entrants are players registered alone (a team structure whose partners are not drawn yet); absent once they are teams. */
  alone?: true;
  status: 'registration' | 'running' | 'finished';
  teams: TeamRow[];
  matches: MatchModel[];
  placings: { place: number; teamId: string }[];
  /** Newest first: what happened, for the venue screens' short lines ("Aces beat Kings 2–1"), worded by the views. */
  latest: News[];
  /** Prizes won, once the event is finished: by place, and (progressive events) high player, male, female. */
  prizes?: { place: number; prize: string; teams: string[] }[];
  /** A round robin or Swiss event's standings, ranked by its tiebreaks in order (engine/format-play.ts); absent in other structures. */
  league?: {
    kind: Elimination;
    tiebreaks: Tiebreak[];
    rows: StandingRow[];
    /** Pools into a playoff: each pool by name with its teams in seed order (a row's place is then its place in its pool). */
    pools?: { name: string; teams: string[] }[];
    /** Pools into a playoff: the playoff's seeds once it is drawn, else null. */
    playoff?: string[] | null;
  };
  /** The second-chance bracket's own places once the event is finished (single elimination with one); absent otherwise. */
  secondChance?: { place: number; teamId: string }[];
  /** The second-chance bracket's prizes by its own places, once the event is finished; absent without any. */
  secondChancePrizes?: { place: number; prize: string; teams: string[] }[];
}

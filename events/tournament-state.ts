/**
 * What the tournament projection keeps for a tournament, and the small helpers every concern of
 * its fold shares: a match's live facts, a team's row, the room's latest news, a match's label
 * and the bracket's views. The fold itself is tournament-projection.ts.
 */
import { type BracketState, type MatchView, matchViews } from '../engine/bracket.ts';
import type { GroupDraw } from '../engine/bracket-rounds.ts';
import type { FormatOptions } from '../engine/formats.ts';
import { playOf, registersAlone } from '../engine/format-play.ts';
import type { ByeDraw } from '../engine/seeding.ts';
import type {
  BracketRoundDrawn,
  ClockStarted,
  FeePaid,
  FeePaymentUndone,
  CheckInUndone,
  SignUpClosed,
  SignUpOpened,
  TeamWaitlisted,
  WaitlistPromoted,
  GameResultCorrected,
  MatchStarted,
  PlayerRegistered,
  PartnersDrawn,
  ProgressiveRoundStarted,
  ProgressiveRoundsChanged,
  ScreenPinned,
  TeamCheckedIn,
  TeamDisqualified,
  TeamRegistered,
  TeamWithdrawn,
  TimeCalled,
  TournamentCreated,
  TournamentStarted,
} from './event-catalogue.ts';
import type { TournamentTimes } from './event-times.ts';
import { type ProgressiveState, emptyProgressive } from './progressive-projection.ts';
import type { MatchModel, NewsFact, TeamRow, TournamentModel } from './read-models.ts';
import { type RegistrationState, emptyRegistration } from './registration-projection.ts';
import type { GameStats } from './stats-projection.ts';

export type TournamentEvent =
  | { type: 'TournamentCreated'; payload: TournamentCreated }
  | { type: 'TeamRegistered'; payload: TeamRegistered }
  | { type: 'TeamWithdrawn'; payload: TeamWithdrawn }
  | { type: 'TournamentStarted'; payload: TournamentStarted }
  | { type: 'TeamDisqualified'; payload: TeamDisqualified }
  | { type: 'MatchStarted'; payload: MatchStarted }
  | { type: 'ClockStarted'; payload: ClockStarted }
  | { type: 'TimeCalled'; payload: TimeCalled }
  | { type: 'TeamCheckedIn'; payload: TeamCheckedIn }
  | { type: 'PlayerRegistered'; payload: PlayerRegistered }
  | { type: 'GameResultCorrected'; payload: GameResultCorrected }
  | { type: 'ProgressiveRoundStarted'; payload: ProgressiveRoundStarted }
  | { type: 'ProgressiveRoundsChanged'; payload: ProgressiveRoundsChanged }
  | { type: 'ScreenPinned'; payload: ScreenPinned }
  | { type: 'BracketRoundDrawn'; payload: BracketRoundDrawn }
  | { type: 'SignUpOpened'; payload: SignUpOpened }
  | { type: 'SignUpClosed'; payload: SignUpClosed }
  | { type: 'TeamWaitlisted'; payload: TeamWaitlisted }
  | { type: 'WaitlistPromoted'; payload: WaitlistPromoted }
  | { type: 'FeePaid'; payload: FeePaid }
  | { type: 'FeePaymentUndone'; payload: FeePaymentUndone }
  | { type: 'CheckInUndone'; payload: CheckInUndone }
  | { type: 'PartnersDrawn'; payload: PartnersDrawn };

/** Live facts about a bracket match that the bracket itself does not hold. */
export interface MatchInfo {
  /** Every game the match has played, in order; games of a replay follow the earlier ones. */
  games: string[];
  table: number | null;
  clock: MatchModel['clock'];
  /** Seated and playing; cleared when a correction puts the played match under review, to be replayed. */
  started: boolean;
  /** How the first dealer was chosen (MatchStarted's recorded draw or toss). */
  firstDealer?: Record<string, unknown>;
  /** The time limit set at the seating: on the whole match or on each game (MatchStarted's `clock`). */
  clockPlan?: { per: 'match' | 'game'; minutes: number | null };
}

/** What the projection keeps for a tournament: the model the views read and what it is derived from. */
export interface TournamentState {
  model: TournamentModel;
  format: FormatOptions;
  bracket: BracketState | null;
  matchInfo: Record<string, MatchInfo>;
  /** Teams (or players) whose registration is withdrawn before the start. */
  withdrawn: string[];
  /** Teams checked in at the venue, in the order they arrived. */
  checkedIn: string[];
  /** Teams put out of the event (disqualified, no-show, forfeit), with why. */
  disqualified: { teamId: string; kind: 'disqualified' | 'no-show' | 'forfeit'; reason: string; position: number }[];
  /** The blp-2024 bye draw as the recorded cards decide it. */
  byeDraw: ByeDraw | null;
  /** A bracket drawn round by round: each round's bye draws as recorded, round 1's included. */
  roundDraws: (GroupDraw & { round: number })[];
  /** Judges' corrections of finished games' results, in ledger order; the latest for a game stands. */
  corrections: { gameId: string; matchId: string; winner: string; reason: string; judge: string; position: number; at: string }[];
  /** Played matches a correction put under review, and the position of the correction. */
  reviews: { matchId: string; position: number }[];
  /**
   * Games that no longer count, by game id: the ledger position of the ruling (or correction,
   * or disqualification) that voided them. A game counts while its match puts the very two
   * teams that played it there; one played by a team a later ruling moved elsewhere is voided,
   * kept on record, and counts again only if the bracket puts its teams back.
   */
  voided: Record<string, number>;
  /** Decided matches whose result a later ruling took back or changed, and that ruling's position. */
  reopened: Record<string, number>;
  /** What the ruling at each position that reopened a match was, in the room's words ("a renege ruling"). */
  causes: Record<string, string>;
  /** Prizes by place once the event is finished. */
  prizes: { place: number; prize: string; teams: string[] }[];
  /** Progressive tables; null for bracket events. */
  progressive: ProgressiveState | null;
  /**
   * A team structure whose partners are drawn: the players as they registered alone (their rows
   * leave the entrants for the drawn teams' at the draw) and the draw once made; null otherwise.
   */
  partners: DrawnPartners | null;
  /** Each game's winner for its match as last settled, so a hand that decides nothing skips the bracket. */
  decided: Record<string, string | null>;
  /** Each game's part in the standings as last counted (see tallyOf), so a scored hand or a finished game moves only its difference. */
  tally: Record<string, number[]>;
  /** The ledger position at which a director last pinned this tournament to the venue's `/screen`. */
  screenPinnedAt?: number;
  /** Sign-up, the waitlist, fees paid, check-in codes' seeds and who checked in. */
  registration: RegistrationState;
  /** Each game's part in the statistics, as last scored (stats-projection.ts). */
  gameStats: Record<string, GameStats>;
  /**
   * Claims made after their game's match was decided (`gameId claimId`): they hold nothing, and a
   * ruling on them is a reopening. Every other claim waiting for a ruling holds its game's result.
   */
  lateClaims: string[];
  /** When the tournament and its matches were created, started and completed (event-times.ts). */
  times?: TournamentTimes;
}

/** Drawn partners as the tournament projection keeps them. */
export interface DrawnPartners {
  /** The players' rows as they registered, filled once the draw moves them out of the entrants. */
  players: TeamRow[];
  draw: PartnersDrawn | null;
}

/**
 * Whether the tournament's entrants are players alone now: a progressive evening's, or a
 * drawn-partner event's until its partners are drawn (its entrants are the drawn teams after).
 */
export function entrantsAlone(state: Pick<TournamentState, 'format' | 'partners'>): boolean {
  return registersAlone(state.format) && !state.partners?.draw;
}

/** A new tournament from its first event. */
export function startTournament(e: TournamentCreated): TournamentState {
  return {
    model: {
      tournamentId: e.tournamentId,
      name: e.name,
      format: e.format,
      ...(e.options.partners === 'drawn' ? { alone: true as const } : {}),
      status: 'registration',
      teams: [],
      matches: [],
      placings: [],
      prizes: [],
      latest: [],
    },
    format: e.options,
    bracket: null,
    matchInfo: {},
    withdrawn: [],
    checkedIn: [],
    disqualified: [],
    byeDraw: null,
    roundDraws: [],
    corrections: [],
    reviews: [],
    voided: {},
    reopened: {},
    causes: {},
    prizes: [],
    // Players alone at tables (the progressive evening) rather than matches between teams.
    progressive: playOf(e.options).entrants === 'players' ? emptyProgressive() : null,
    partners: e.options.partners === 'drawn' ? { players: [], draw: null } : null,
    decided: {},
    tally: {},
    registration: emptyRegistration(),
    gameStats: {},
    lateClaims: [],
  };
}

// The views of a bracket state, derived once: bracket states are never changed in place (each
// result or forfeit makes a new one), so the views of one stay true. Callers only read them.
const VIEWS = new WeakMap<BracketState, readonly MatchView[]>();
export function viewsOf(bracket: BracketState): readonly MatchView[] {
  let views = VIEWS.get(bracket);
  if (!views) VIEWS.set(bracket, (views = matchViews(bracket)));
  return views;
}

/**
 * What the match's clock times: as set at the seating; for a match seated before that was
 * recorded, as its clock shows; for a match never seated, whose games were entered from paper
 * records, as its format says (asher "Each challenge game is played to 350 points or the 1-hour
 * time limit", so a time call on paper ends that game only).
 */
export function clockPerOf(info: MatchInfo, format: FormatOptions): 'match' | 'game' {
  if (info.clockPlan) return info.clockPlan.per;
  if (info.clock) return info.clock.gameId ? 'game' : 'match';
  return format.clockPer ?? 'match';
}

export function infoFor(state: TournamentState, matchId: string): MatchInfo {
  let info = state.matchInfo[matchId];
  if (!info) state.matchInfo[matchId] = info = { games: [], table: null, clock: null, started: false };
  return info;
}

export function newRow(teamId: string, name: string, players: string[]): TeamRow {
  return { teamId, name, players, seed: null, wins: 0, losses: 0, gamesWon: 0, gamesLost: 0, points: 0, bags: 0, sets: 0, status: 'registered' };
}

/** Puts a piece of news first in the event's latest, keeping the ten newest. */
export function addLatest(state: TournamentState, fact: NewsFact, position: number): void {
  state.model.latest.unshift({ ...fact, position });
  if (state.model.latest.length > 10) state.model.latest.length = 10;
}

export const LABELS: Record<string, string> = {
  winners: 'Round',
  losers: 'Losers round',
  consolation: 'Second chance round',
  final: 'Final',
  'third-place': 'Third place',
};

export function rowsOf(model: TournamentModel): Map<string, TeamRow> {
  return new Map<string, TeamRow>(model.teams.map((t) => [t.teamId, t]));
}

export function withAwaiting(awaiting: MatchModel['awaitingRuling']): Pick<MatchModel, 'awaitingRuling'> {
  return awaiting ? { awaitingRuling: awaiting } : {};
}

/** "A", "A and B", "A, B and C". */
export function listed(items: readonly string[]): string {
  return items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;
}

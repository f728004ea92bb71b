/**
 * A game: the teams' state folded hand by hand, the dealer rotation, and the ending check after
 * every hand. The record scorer and the ledger's projections feed the same fold, one hand at a
 * time, so a record and the live game it came from always agree.
 */
import { type Seat, type Team, SEATS, TEAMS, otherTeam, seatAfter, seatsOf } from './cards.ts';
import { type Bids, checkBids } from './bid.ts';
import type { RuleOptions } from './presets.ts';
import { type Rules, rulesNaming } from './rules.ts';
import { type HandScore, type RenegeRuling, type TeamState, isSixFour, scoreHand } from './scoring.ts';

export type EndReason = 'boston' | 'set-out' | 'target' | 'hands' | 'time';

export interface GameState {
  rules: Rules;
  teams: Record<Team, TeamState>;
  /** Who deals the next hand. */
  dealer: Seat;
  /** Hands recorded so far, misdeals included. */
  handsRecorded: number;
  /** Hands scored so far (misdeals are not; an unplayed 6-4 is). */
  handsPlayed: number;
  /** Time has been called: the game ends after the hand in progress, unless tied. */
  timeCalled: boolean;
  winner: Team | null;
  reason: EndReason | null;
  /** How the most recent hand was scored; null at the start and after a misdeal. */
  last: HandScore | null;
}

/** A hand as the game records it. */
export type GameHand =
  | { kind: 'misdeal'; reason: string; dealer?: Seat }
  | {
      kind: 'played';
      /** Who dealt; when given it must match the rotation. */
      dealer?: Seat;
      bids: Bids;
      /** Tricks each seat took; null for a hand that is not played (asher 6-4). */
      tricks: Readonly<Record<Seat, number>> | null;
      firstSeven: Team | null;
      reneges: readonly RenegeRuling[];
    };

/** A hand the game cannot take: it breaks a rule or comes after the game was won. */
export class GameError extends Error {}

export interface GameStart {
  /** First dealer; N when not given. */
  dealer?: Seat;
  /** The teams' state before the first hand (a game picked up from a paper score pad). */
  teams?: Partial<Record<Team, Partial<TeamState>>>;
}

/** A game before its first hand. */
export function newGame(rules: Rules, start: GameStart = {}): GameState {
  const team = (t: Team): TeamState => ({ score: 0, bags: 0, sets: 0, renegeDebt: 0, ...start.teams?.[t] });
  return {
    rules,
    teams: { NS: team('NS'), EW: team('EW') },
    dealer: start.dealer ?? 'N',
    handsRecorded: 0,
    handsPlayed: 0,
    timeCalled: false,
    winner: null,
    reason: null,
    last: null,
  };
}

/**
 * Who deals after `dealer`: dealer's left, or after a misdeal (`misdeal`, its reason) the same
 * dealer when the options say so, for every reason or for all but a card flipped in the deal.
 */
export function nextDealer(options: Pick<RuleOptions, 'afterMisdeal'>, dealer: Seat, misdeal: string | null): Seat {
  if (misdeal === null) return seatAfter(dealer);
  const passes = options.afterMisdeal === 'next-dealer' || (options.afterMisdeal === 'next-dealer-after-flip' && misdeal === 'card-flipped');
  return passes ? seatAfter(dealer) : dealer;
}

/** Time is called: the hand in progress is played out, then the higher score wins. */
export function callTime(state: GameState): GameState {
  return { ...state, timeCalled: true };
}

/** Throws GameError when the game takes no more hands, or when `dealer` is not the rotation's dealer. */
export function checkTurn(state: GameState, dealer?: Seat): void {
  if (state.winner !== null) {
    throw new GameError(`the game was already won by ${state.winner} (${state.reason}) after hand ${state.handsRecorded}`);
  }
  if (dealer !== undefined && dealer !== state.dealer) {
    throw new GameError(`${dealer} is recorded as dealer, but the deal is ${state.dealer}'s by the rotation`);
  }
}

/** Throws GameError saying what is wrong when the game cannot take `hand` next. */
export function checkHand(state: GameState, hand: GameHand): void {
  const { options } = state.rules;
  // Rules changed from a preset are the event's own, and said so.
  const naming = rulesNaming(state.rules);
  checkTurn(state, hand.dealer);
  if (hand.kind === 'misdeal') return;
  checkBids(options, hand.bids, { NS: state.teams.NS.score, EW: state.teams.EW.score }, naming);
  if (isSixFour(options, hand.bids)) {
    if (hand.tricks !== null) {
      throw new GameError(
        `bids of 6 and 4 are not played under ${typeof naming === 'string' ? naming : 'this event’s rules'}; the hand has no tricks or plays`,
      );
    }
    if (hand.reneges.length > 0) throw new GameError('a 6-4 hand is not played, so it can have no reneges');
    if (hand.firstSeven !== null) throw new GameError('a 6-4 hand is not played, so no team won the first 7 tricks');
    return;
  }
  if (hand.tricks === null) throw new GameError('the hand needs tricks or plays');
  let sum = 0;
  for (const seat of SEATS) {
    const n = hand.tricks[seat];
    if (!Number.isInteger(n) || n < 0 || n > 13) throw new GameError(`${seat} took ${n} tricks; a seat takes 0–13`);
    sum += n;
  }
  if (sum !== 13) {
    const list = SEATS.map((s) => `${s} ${hand.tricks![s]}`).join(', ');
    throw new GameError(`tricks add up to ${sum} (${list}); a hand has 13`);
  }
  if (hand.firstSeven !== null) {
    const [a, b] = seatsOf(hand.firstSeven);
    if (hand.tricks[a] + hand.tricks[b] < 7) {
      throw new GameError(`${hand.firstSeven} is said to have won the first 7 tricks but took ${hand.tricks[a] + hand.tricks[b]}`);
    }
  }
}

/** Folds one hand into the game: checks it (GameError), scores it, moves the deal and checks for the end. */
export function applyHand(state: GameState, hand: GameHand): GameState {
  checkHand(state, hand);
  const options = state.rules.options;
  const handsRecorded = state.handsRecorded + 1;
  if (hand.kind === 'misdeal') {
    return { ...state, handsRecorded, dealer: nextDealer(options, state.dealer, hand.reason), last: null };
  }
  const score = scoreHand(options, state.teams, hand);
  const handsPlayed = state.handsPlayed + 1;
  const end = endOfGame(options, score.after, hand.tricks, handsPlayed, state.timeCalled);
  return {
    ...state,
    teams: score.after,
    dealer: nextDealer(options, state.dealer, null),
    handsRecorded,
    handsPlayed,
    winner: end?.winner ?? null,
    reason: end?.reason ?? null,
    last: score,
  };
}

/**
 * The ending check after a scored hand, in rules.md order: boston, set-out, target, a fixed
 * number of hands, time. A tie at any of these points is no ending: one more hand is played.
 */
export function endOfGame(
  options: RuleOptions,
  teams: Readonly<Record<Team, TeamState>>,
  tricks: Readonly<Record<Seat, number>> | null,
  handsPlayed: number,
  timeCalled: boolean,
): { winner: Team; reason: EndReason } | null {
  const higher = (): Team | null => (teams.NS.score > teams.EW.score ? 'NS' : teams.EW.score > teams.NS.score ? 'EW' : null);

  if (options.boston && tricks !== null) {
    for (const team of TEAMS) {
      const [a, b] = seatsOf(team);
      if (tricks[a] + tricks[b] === 13) return { winner: team, reason: 'boston' };
    }
  }
  if (options.setOut !== null) {
    const out = TEAMS.filter((team) => teams[team].sets >= options.setOut!);
    if (out.length === 1) return { winner: otherTeam(out[0]!), reason: 'set-out' };
    if (out.length === 2) {
      const winner = higher();
      if (winner) return { winner, reason: 'set-out' };
    }
  }
  if (options.target !== null && TEAMS.some((team) => teams[team].score >= options.target!)) {
    const winner = higher();
    if (winner) return { winner, reason: 'target' };
  }
  if (options.hands !== null && handsPlayed >= options.hands) {
    const winner = higher();
    if (winner) return { winner, reason: 'hands' };
  }
  if (timeCalled) {
    const winner = higher();
    if (winner) return { winner, reason: 'time' };
  }
  return null;
}

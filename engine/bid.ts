/**
 * Bids: what a seat may say, what a team's bids add up to, and which bids the options allow
 * given the score before the hand. The same check serves a record (all four bids at once) and a
 * phone at the table (`allowedBids`: only what the seat may still say).
 */
import { type Seat, type Team, TEAMS, otherTeam, seatAfter, seatsOf, teamOf } from './cards.ts';
import type { RuleOptions } from './presets.ts';

/**
 * A seat's bid. A plain 0 is a number, not a nil: it has no bonus and no penalty.
 * `blind` is a blind bid of a number of tricks; both partners of a blind team bid blind.
 */
export type Bid = { kind: 'number'; tricks: number } | { kind: 'nil' } | { kind: 'blind-nil' } | { kind: 'blind'; tricks: number };

export type Bids = Record<Seat, Bid>;

/** The team's side of a hand, read from its two bids. */
export interface TeamBid {
  /** Tricks the team must take: the sum of its non-nil bids (0 for a double nil). */
  contract: number;
  /** Both partners bid blind numbers: the contract is doubled when made. */
  blind: boolean;
  /** Seats of the team that bid nil or blind nil. */
  nilSeats: Seat[];
  /** Both partners bid nil or blind nil: no contract, each nil scored on its own. */
  doubleNil: boolean;
}

/** A bid the options do not allow. */
export class BidError extends Error {}

/** Scores of both teams before the hand, which blind bids and blind nil depend on. */
export type ScoresBefore = Readonly<Record<Team, number>>;

const BLIND_BID = /^blind\s+(\d{1,2})$/;

/** Reads a bid in the record's forms: `5`, `"nil"`, `"blind nil"`, `"blind 6"`; null when it is none of them. */
export function parseBid(value: unknown): Bid | null {
  if (typeof value === 'number') return isTricks(value) ? { kind: 'number', tricks: value } : null;
  if (typeof value !== 'string') return null;
  const text = value.trim().toLowerCase().replace(/\s+/g, ' ');
  if (text === 'nil') return { kind: 'nil' };
  if (text === 'blind nil') return { kind: 'blind-nil' };
  const blind = BLIND_BID.exec(text);
  if (blind) {
    const tricks = Number(blind[1]);
    return isTricks(tricks) ? { kind: 'blind', tricks } : null;
  }
  return null;
}

function isTricks(n: number): boolean {
  return Number.isInteger(n) && n >= 0 && n <= 13;
}

/** The bid as a record writes it: a number, `"nil"`, `"blind nil"` or `"blind N"`. */
export function bidValue(bid: Bid): number | string {
  switch (bid.kind) {
    case 'number':
      return bid.tricks;
    case 'nil':
      return 'nil';
    case 'blind-nil':
      return 'blind nil';
    case 'blind':
      return `blind ${bid.tricks}`;
    default: {
      const _exhaustive: never = bid;
      return _exhaustive;
    }
  }
}

/** Whether the bid is a nil of either kind. */
export function isNil(bid: Bid): boolean {
  return bid.kind === 'nil' || bid.kind === 'blind-nil';
}

/** What one partnership's two bids add up to: its contract, blind or not, and its nil seats. */
export function teamBidOf(bids: Readonly<Record<Seat, Bid>>, team: Team): TeamBid {
  const [a, b] = seatsOf(team);
  const first = bids[a];
  const second = bids[b];
  const nilSeats: Seat[] = [];
  if (isNil(first)) nilSeats.push(a);
  if (isNil(second)) nilSeats.push(b);
  return {
    contract: tricksOf(first) + tricksOf(second),
    blind: first.kind === 'blind' && second.kind === 'blind',
    nilSeats,
    doubleNil: nilSeats.length === 2,
  };
}

function tricksOf(bid: Bid): number {
  return bid.kind === 'number' || bid.kind === 'blind' ? bid.tricks : 0;
}

/** The order in which seats bid: clockwise from dealer's left, or the non-dealing team first. */
export function biddingOrder(options: Pick<RuleOptions, 'biddingOrder'>, dealer: Seat): Seat[] {
  if (options.biddingOrder === 'clockwise') return [seatAfter(dealer, 1), seatAfter(dealer, 2), seatAfter(dealer, 3), dealer];
  // Dealer's left, then that seat's partner (dealer's right), then the dealer's partner, then the dealer.
  return [seatAfter(dealer, 1), seatAfter(dealer, 3), seatAfter(dealer, 2), dealer];
}

/**
 * Whose rules a refusal names: a record's own preset (`'pitt-boss'`, as a record names it), or
 * `EVENT_RULES`, the words a table and a judge hear: an event's rules are its own, whichever
 * rulebook they started from.
 */
export type RulesNaming = string | typeof EVENT_RULES;
export const EVENT_RULES = { event: true } as const;

/** The naming's words: "the pitt-boss rules" / "this event’s rules", and its possessive for a rule. */
function namingWords(naming: RulesNaming): { rules: string; the: string; under: string } {
  if (typeof naming !== 'string') return { rules: 'this event’s rules', the: 'this event’s', under: ' under this event’s rules' };
  return naming ? { rules: `the ${naming} rules`, the: `the ${naming}`, under: ` under ${naming}` } : { rules: 'the rules', the: 'the', under: '' };
}

/**
 * The problem with one team's two bids under the options and the scores before the hand, as a
 * sentence naming the seat and the rule; null when the bids are allowed.
 */
export function teamBidProblem(
  options: RuleOptions,
  team: Team,
  bids: Readonly<Record<Seat, Bid>>,
  before: ScoresBefore,
  rulesName: RulesNaming = '',
): string | null {
  const { rules: theRules, the, under } = namingWords(rulesName);
  const [a, b] = seatsOf(team);
  const down = before[otherTeam(team)] - before[team];

  for (const seat of [a, b]) {
    const bid = bids[seat];
    const partner = seat === a ? b : a;
    if (bid.kind === 'nil' && options.nil === null) return `${seat} bid nil; there are no nil bids${under}`;
    if (bid.kind === 'blind-nil') {
      if (options.blindNil === null) return `${seat} bid blind nil; there are no blind nil bids${under}`;
      if (down < options.blindNilDeficit) {
        return `${seat} bid blind nil with ${team} ${standing(down)}; ${theRules} allow blind nil only for a team down ${options.blindNilDeficit} or more`;
      }
    }
    if (bid.kind === 'blind') {
      const blind = options.blindBid;
      if (blind === null) return `${seat} bid blind ${bid.tricks}; there are no blind bids${under}`;
      if (bids[partner].kind !== 'blind') {
        return `${seat} bid blind ${bid.tricks} but ${partner} bid ${bidValue(bids[partner])}; a blind bid needs both partners to bid blind`;
      }
      const farEnough = blind.strict ? down > blind.deficit : down >= blind.deficit;
      if (!farEnough) {
        const need = blind.strict ? `more than ${blind.deficit}` : `${blind.deficit} or more`;
        return `${team} bid blind with ${team} ${standing(down)}; ${theRules} allow a blind bid only for a team down ${need}`;
      }
    }
  }

  const bid = teamBidOf(bids, team);
  if (bid.doubleNil) return null;
  const totalOf = () => `${team} bid ${bid.contract} (${a} ${bidValue(bids[a])}, ${b} ${bidValue(bids[b])})`;
  if (bid.blind && bid.contract < options.blindBid!.minimumTeam) {
    return `${totalOf()}; ${the} blind bid minimum is ${options.blindBid!.minimumTeam}`;
  }
  if (bid.contract < options.teamMinimum) {
    const nilNote = bid.nilSeats.length > 0 ? ' (a nil bidder’s partner bids at least that, unless both bid nil)' : '';
    return `${totalOf()}; ${the} team minimum is ${options.teamMinimum}${nilNote}`;
  }
  if (bid.contract > options.teamMaximum) return `${totalOf()}; ${the} team maximum is ${options.teamMaximum}`;
  return null;
}

function standing(down: number): string {
  if (down > 0) return `down ${down}`;
  if (down < 0) return `up ${-down}`;
  return 'level';
}

/** Checks all four bids of a hand; throws BidError naming the first seat and rule broken. */
export function checkBids(options: RuleOptions, bids: Bids, before: ScoresBefore, rulesName: RulesNaming = ''): void {
  for (const team of TEAMS) {
    const problem = teamBidProblem(options, team, bids, before, rulesName);
    if (problem) throw new BidError(problem);
  }
}

/** Every bid a seat could make, in the order a bid pad lists them. */
function everyBid(): Bid[] {
  const all: Bid[] = [];
  for (let n = 0; n <= 13; n++) all.push({ kind: 'number', tricks: n });
  all.push({ kind: 'nil' }, { kind: 'blind-nil' });
  for (let n = 0; n <= 13; n++) all.push({ kind: 'blind', tricks: n });
  return all;
}
const EVERY_BID = everyBid();

/**
 * The bids `seat` may still make, given the bids made so far (its partner's, if made) and the
 * scores before the hand: each one leaves the team a legal pair of bids.
 */
export function allowedBids(options: RuleOptions, seat: Seat, bidsSoFar: Partial<Record<Seat, Bid>>, before: ScoresBefore): Bid[] {
  const partner = seatAfter(seat, 2);
  const made = bidsSoFar[partner];
  const team = teamOf(seat);
  const pair: Record<Seat, Bid> = { N: EVERY_BID[0]!, E: EVERY_BID[0]!, S: EVERY_BID[0]!, W: EVERY_BID[0]! };
  const fits = (mine: Bid, theirs: Bid): boolean => {
    pair[seat] = mine;
    pair[partner] = theirs;
    return teamBidProblem(options, team, pair, before) === null;
  };
  return EVERY_BID.filter((mine) => (made ? fits(mine, made) : EVERY_BID.some((theirs) => fits(mine, theirs))));
}

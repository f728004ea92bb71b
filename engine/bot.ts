/**
 * Bots: seated players for demos, simulations and tests. They bid from the tricks a hand is
 * sure to take and play a plain, readable game: cover the partner, win cheaply while the team
 * still needs tricks, duck once the contract is made and bags are close. Every choice is a
 * function of the hand, the table and a seeded Random, so a seed replays a whole game.
 */
import { type Card, type Seat, type Team, seatAfter, seatsOf, teamOf } from './cards.ts';
import { blindBeforeDeal, blindDeclarable } from './blind-declaration.ts';
import { type Bid, type Bids, isNil, teamBidOf } from './bid.ts';
import { type Deck, TRUMPS, beats, deckFor } from './deck.ts';
import type { RuleOptions } from './presets.ts';
import type { Random } from './random.ts';
import { legalPlays, trickWinnerIndex } from './trick.ts';

/** How adventurous the bots are; every chance is drawn from the seeded Random. */
export interface BotStyle {
  /** Chance that a hand fit for nil is bid nil, when the rules have nil (default 0.75). */
  nil?: number;
  /** Chance that a team allowed a blind bid or blind nil takes it (default 0.2). */
  blind?: number;
  /** Chance that a seat able to follow suit reneges on purpose (default 0: bots follow the rules). */
  renege?: number;
}

export interface BotBidInput {
  options: RuleOptions;
  seat: Seat;
  hand: readonly Card[];
  /** The bids made so far this hand, by seat. */
  bids: Readonly<Partial<Record<Seat, Bid>>>;
  /** How many points the seat's team is behind before the hand (opponents' score minus its own). */
  behind?: number;
  random: Random;
  style?: BotStyle;
}

export interface BotPlayInput {
  deck: Deck;
  options: RuleOptions;
  seat: Seat;
  hand: readonly Card[];
  /** The cards of the trick in progress, leader first (empty when the seat leads). */
  trick: readonly Card[];
  trumpsBroken: boolean;
  bids: Readonly<Bids>;
  /** Tricks each seat has taken so far this hand. */
  taken: Readonly<Record<Seat, number>>;
  /** Per card id, non-zero once the card has been played this hand; lets the bot spot the best card left in a suit. */
  played?: Uint8Array;
  /** The seat's team's bag count before the hand. */
  bags?: number;
  random: Random;
  style?: BotStyle;
}

/** Tricks a bid counts toward its team's contract (nil counts none). */
function tricksOf(bid: Bid): number {
  return bid.kind === 'number' || bid.kind === 'blind' ? bid.tricks : 0;
}

const number = (tricks: number): Bid => ({ kind: 'number', tricks });
const blindBid = (tricks: number): Bid => ({ kind: 'blind', tricks });
const NIL: Bid = { kind: 'nil' };

/**
 * A bot team's blind bids declared before the deal, where the rules have them said then: the
 * least the rules allow, split between the partners, taken as often as `style.blind` says; null
 * when no team declares.
 */
export function botBlindBeforeDeal(
  options: RuleOptions,
  scores: Readonly<Record<Team, number>>,
  random: Random,
  style: BotStyle = {},
): Partial<Record<Seat, number>> | null {
  const chance = blindDeclarable(options, scores)[0];
  if (!chance || random.float() >= (style.blind ?? 0.2)) return null;
  const [a, b] = seatsOf(chance.team);
  const first = Math.ceil(chance.minimum / 2);
  return { [a]: first, [b]: chance.minimum - first };
}

/** A bot's bid: the hand's sure tricks, shaped to what the rules allow given the partner's bid. */
export function botBid(input: BotBidInput): Bid {
  const { options, seat, hand, bids, random } = input;
  const style = input.style ?? {};
  const behind = input.behind ?? 0;
  const partnerBid = bids[seatAfter(seat, 2)];
  const minimum = options.teamMinimum;
  const maximum = options.teamMaximum;

  // Blind choices come first: they are declared before the cards are looked at.
  // Where blind bids are declared before the deal, none is made at a seat's turn (botBlindBeforeDeal).
  const blind = blindBeforeDeal(options) ? null : options.blindBid;
  if (blind && (blind.strict ? behind > blind.deficit : behind >= blind.deficit)) {
    const teamLeast = Math.max(blind.minimumTeam, minimum);
    if (partnerBid === undefined && random.float() < (style.blind ?? 0.2)) {
      return blindBid(Math.min(maximum, Math.ceil(teamLeast / 2)));
    }
    // A blind bid binds the whole team: the second partner must bid blind too.
    if (partnerBid?.kind === 'blind') {
      const p = partnerBid.tricks;
      return blindBid(Math.min(maximum - p, Math.max(teamLeast - p, Math.ceil(teamLeast / 2))));
    }
  }
  if (options.blindNil !== null && behind >= options.blindNilDeficit && partnerBid === undefined && random.float() < (style.blind ?? 0.2)) {
    return { kind: 'blind-nil' };
  }

  const deck = deckFor(options);
  const nilFits = options.nil !== null && fitForNil(deck, hand, behind >= options.nil);
  const estimate = Math.max(0, Math.min(13, Math.round(sureTricks(deck, hand))));

  if (partnerBid === undefined) {
    if (nilFits && random.float() < (style.nil ?? 0.75)) return NIL;
    return number(Math.min(estimate, maximum));
  }
  if (isNil(partnerBid)) {
    // The partner's nil leaves this seat's bid as the whole contract.
    return number(clamp(estimate, minimum, maximum));
  }
  const p = tricksOf(partnerBid);
  // Double nil is left to people: a seat whose partner bid a number may nil only when that number carries the team.
  if (nilFits && p >= minimum && random.float() < (style.nil ?? 0.75)) {
    return NIL;
  }
  return number(clamp(estimate, Math.max(0, minimum - p), Math.max(0, maximum - p)));
}

function clamp(n: number, low: number, high: number): number {
  return Math.max(low, Math.min(high, n));
}

/** Tricks a hand should take: guarded top trumps, long trumps, aces, protected kings, ruffs of short suits. */
export function sureTricks(deck: Deck, hand: readonly Card[]): number {
  const order = deck.trumpOrder;
  let trumps = 0;
  for (const card of hand) if (deck.suit[card] === TRUMPS) trumps++;
  let high = 0;
  for (const card of hand) {
    if (deck.suit[card] !== TRUMPS) continue;
    // The p-th highest trump stands up when enough smaller trumps guard it.
    const p = order.indexOf(card);
    if (p < trumps) high++;
    else if (p === trumps) high += 0.5;
  }
  let estimate = high + Math.max(0, trumps - Math.max(4, Math.ceil(high))) * 0.8;
  let spare = Math.max(0, trumps - Math.ceil(high));

  for (let s = 1; s <= 3; s++) {
    let length = 0;
    let ace = false;
    let king = false;
    let queen = false;
    for (const card of hand) {
      if (deck.suit[card] !== s) continue;
      length++;
      const power = deck.power[card]!;
      if (power === 14) ace = true;
      else if (power === 13) king = true;
      else if (power === 12) queen = true;
    }
    if (ace) estimate += length <= 6 ? 1 : 0.5;
    if (king) estimate += length >= 2 && length <= 5 ? 0.8 : length === 1 ? 0.2 : 0.4;
    if (queen && (ace || king) && length >= 3 && length <= 4) estimate += 0.4;
    if (length === 0 && spare > 0) {
      const ruffs = Math.min(spare, 2);
      estimate += ruffs * 0.8;
      spare -= ruffs;
    } else if (length === 1 && spare > 0) {
      estimate += 0.6;
      spare -= 1;
    }
  }
  // Partners' sure tricks overlap (both count on the same ruffs and guards); shading each
  // hand keeps the two bids together near what a table makes.
  return estimate * 0.85;
}

/**
 * How likely a hand is to take a trick it does not want, as a player sizing up a nil reads it:
 * any trump above the eight lowest rules nil out, the higher of those eight and a fourth trump
 * add to the danger, and so does each high card of a side suit, the less for the more low cards
 * it has to hide behind (an ace in a short suit most, a jack in a long one hardly).
 */
export function nilDanger(deck: Deck, hand: readonly Card[]): number {
  const order = deck.trumpOrder;
  let danger = 0;
  let trumps = 0;
  for (const card of hand) {
    if (deck.suit[card] !== TRUMPS) continue;
    trumps++;
    // Counted from the lowest trump: 0 for the two of a plain deck's spades.
    const fromBottom = order.length - 1 - order.indexOf(card);
    if (fromBottom > 7) return Infinity;
    if (fromBottom >= 6) danger += 0.4;
  }
  if (trumps > 3) danger += (trumps - 3) * 0.6;
  for (let s = 1; s <= 3; s++) {
    let length = 0;
    const high: number[] = [];
    for (const card of hand) {
      if (deck.suit[card] !== s) continue;
      length++;
      if (deck.power[card]! >= 11) high.push(deck.power[card]!);
    }
    for (const power of high) {
      if (power >= 14) danger += length >= 5 ? 0.7 : 1.2;
      else if (power === 13) danger += length >= 5 ? 0.25 : length === 4 ? 0.4 : length === 3 ? 0.6 : 1;
      else if (power === 12) danger += length >= 4 ? 0.1 : length === 3 ? 0.25 : 0.5;
      else danger += length >= 3 ? 0.05 : 0.2;
    }
  }
  return danger;
}

/** The most danger a nil is bid with; a team far behind risks more. */
const NIL_DANGER = 1;
const NIL_DANGER_BEHIND = 1.4;

/** Whether a hand calls for nil: little danger of a trick, or a little more when the team is behind by a nil's worth. */
export function fitForNil(deck: Deck, hand: readonly Card[], behindByNil = false): boolean {
  return nilDanger(deck, hand) <= (behindByNil ? NIL_DANGER_BEHIND : NIL_DANGER);
}

/** A bot's card for the trick in progress: always a legal play unless the style asks it to renege and the draw says so. */
export function botPlay(input: BotPlayInput): Card {
  const { deck, options, seat, hand, trick, trumpsBroken, bids, taken, random } = input;
  const style = input.style ?? {};
  const leadCard = trick.length > 0 ? trick[0]! : null;
  const legal = legalPlays(deck, hand, leadCard, trumpsBroken);

  const renegeChance = style.renege ?? 0;
  if (leadCard !== null && renegeChance > 0 && legal.length < hand.length) {
    // The seat can follow (legal is just the led suit) yet holds something else: a deliberate renege.
    if (random.float() < renegeChance) {
      const led = deck.suit[leadCard]!;
      const offSuit = hand.filter((c) => deck.suit[c] !== led);
      return offSuit[random.int(offSuit.length)]!;
    }
  }
  if (legal.length === 1) return legal[0]!;

  const partner = seatAfter(seat, 2);
  const myNil = isNil(bids[seat]);
  const partnerNil = isNil(bids[partner]);
  const need = contractOf(bids, seat) - tricksTowardContract(bids, taken, seat);
  const opponent = seatAfter(seat, 1);
  const opponentsNeed = contractOf(bids, opponent) - tricksTowardContract(bids, taken, opponent);
  const overtricks = Math.max(0, -need);
  const nearBags = options.bagsCounted && options.bagLimit !== null && (input.bags ?? 0) + overtricks >= options.bagLimit - 2;

  if (leadCard === null) {
    if (myNil) return lowest(legal, deck);
    if (partnerNil || need > 0) {
      const boss = bestBoss(deck, legal, hand, input.played);
      if (boss !== null) return boss;
      // A high lead keeps a nil partner under it.
      if (partnerNil) return highest(legal, deck);
      return lowestOfLongestSuit(deck, legal, hand);
    }
    return lowest(legal, deck);
  }

  const led = deck.suit[leadCard]!;
  const leader = seatAfter(seat, 4 - trick.length);
  const winnerIndex = trickWinnerIndex(deck, trick);
  const winning = trick[winnerIndex]!;
  const winnerSeat = seatAfter(leader, winnerIndex);
  const last = trick.length === 3;
  let bestWinner: Card | null = null;
  let worstWinner: Card | null = null;
  let highestLoser: Card | null = null;
  for (const card of legal) {
    if (beats(deck, card, winning, led)) {
      if (bestWinner === null || cost(deck, card) < cost(deck, bestWinner)) bestWinner = card;
      if (worstWinner === null || cost(deck, card) > cost(deck, worstWinner)) worstWinner = card;
    } else if (highestLoser === null || cost(deck, card) > cost(deck, highestLoser)) {
      highestLoser = card;
    }
  }

  if (myNil) return highestLoser ?? bestWinner!;
  if (winnerSeat === partner) {
    // Rescue a nil partner who is winning; otherwise never overtake the partner.
    if (partnerNil && bestWinner !== null) return last ? bestWinner : worstWinner!;
    return lowest(legal, deck);
  }
  // An opponent's nil is worth more to break than a trick is to take.
  if (isNil(bids[winnerSeat]) && taken[winnerSeat] === 0) return highestLoser ?? lowest(legal, deck);
  if (bestWinner !== null && (need > 0 || (opponentsNeed > 0 && !nearBags))) return bestWinner;
  if (need <= 0 && nearBags) return highestLoser ?? bestWinner!;
  return lowest(legal, deck);
}

/** The team's contract: both partners' bids, nil counting none. */
function contractOf(bids: Readonly<Bids>, seat: Seat): number {
  return teamBidOf(bids, teamOf(seat)).contract;
}

/** Tricks counting toward the team's contract: a nil bidder's tricks never do. */
function tricksTowardContract(bids: Readonly<Bids>, taken: Readonly<Record<Seat, number>>, seat: Seat): number {
  const partner = seatAfter(seat, 2);
  return (isNil(bids[seat]) ? 0 : taken[seat]) + (isNil(bids[partner]) ? 0 : taken[partner]);
}

// Trumps' power (86…100) sits above every side card's (2…14), so power alone orders discards:
// the cheapest card to give up is a low side card, the dearest a high trump.
function cost(deck: Deck, card: Card): number {
  return deck.power[card]!;
}

function lowest(cards: readonly Card[], deck: Deck): Card {
  let best = cards[0]!;
  for (const card of cards) if (cost(deck, card) < cost(deck, best)) best = card;
  return best;
}

function highest(cards: readonly Card[], deck: Deck): Card {
  let best = cards[0]!;
  for (const card of cards) if (cost(deck, card) > cost(deck, best)) best = card;
  return best;
}

const positions = new WeakMap<Deck, Int8Array>();

/** Per card id, its index in deck.cards (which runs high to low within each effective suit). */
function positionsIn(deck: Deck): Int8Array {
  let table = positions.get(deck);
  if (!table) {
    table = new Int8Array(54).fill(-1);
    deck.cards.forEach((card, i) => {
      table![card] = i;
    });
    positions.set(deck, table);
  }
  return table;
}

/** A legal card that no unplayed card outside the hand can beat in its suit; side suits before trumps. */
function bestBoss(deck: Deck, legal: readonly Card[], hand: readonly Card[], played: Uint8Array | undefined): Card | null {
  if (!played) return null;
  const at = positionsIn(deck);
  let found: Card | null = null;
  for (const card of legal) {
    const suit = deck.suit[card]!;
    let boss = true;
    for (let i = at[card]! - 1; i >= 0; i--) {
      const higher = deck.cards[i]!;
      if (deck.suit[higher] !== suit) break;
      if (!played[higher] && !hand.includes(higher)) {
        boss = false;
        break;
      }
    }
    if (!boss) continue;
    if (found === null || (deck.suit[found] === TRUMPS && suit !== TRUMPS)) found = card;
  }
  return found;
}

/** The lowest card of the longest side suit among the legal leads (drawing out the opponents' high cards). */
function lowestOfLongestSuit(deck: Deck, legal: readonly Card[], hand: readonly Card[]): Card {
  let bestSuit = -1;
  let bestLength = -1;
  for (const card of legal) {
    const suit = deck.suit[card]!;
    if (suit === TRUMPS && bestSuit !== -1) continue;
    let length = 0;
    for (const other of hand) if (deck.suit[other] === suit) length++;
    if (length > bestLength || (bestSuit === TRUMPS && suit !== TRUMPS)) {
      bestSuit = suit;
      bestLength = length;
    }
  }
  return lowest(
    legal.filter((c) => deck.suit[c] === bestSuit),
    deck,
  );
}

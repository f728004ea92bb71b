/**
 * Simulated hands: a seeded deal played out card by card, either by the bots (for demos and
 * whole games) or by uniformly random legal plays (for property tests, which need the odd
 * plays no sensible bot would make). Everything is a function of the seed.
 */
import { type Card, type Seat, type Team, SEATS, seatAfter, seatIndex, teamOf } from './cards.ts';
import { type Deck, TRUMPS, beats, deckFor } from './deck.ts';
import type { RuleOptions } from './presets.ts';
import { type Random, type Seed, createRandom, dealWith } from './random.ts';
import { type RecordBid, type BotStyle, bidTricks, botBid, botPlay } from './bot.ts';
import type { Violation } from './trick.ts';

export interface SimulateHandInput {
  options: RuleOptions;
  dealer: Seat;
  seed: Seed;
  /** Points each team is behind before the hand (opponents' score minus its own), for blind bids. */
  behind?: Partial<Record<Team, number>>;
  /** Each team's bag count before the hand, so bots duck near the bag limit. */
  bags?: Partial<Record<Team, number>>;
  style?: BotStyle;
}

export interface SimulatedHand {
  dealer: Seat;
  /** Each seat's 13 cards as dealt (the same deal `dealFromSeed(deck, seed, dealer)` gives). */
  deal: Record<Seat, Card[]>;
  /** Each seat's bid; the object's keys are in the order the bids were made. */
  bids: Record<Seat, RecordBid>;
  /** The seats in the order they bid. */
  bidOrder: Seat[];
  /** The 13 tricks, each in play order (leader first); empty for a hand the rules say is not played (6-4). */
  plays: Card[][];
  /** The seat that won each trick. */
  winners: Seat[];
  /** Tricks taken by each seat. */
  taken: Record<Seat, number>;
}

/** The seats in the order they bid: clockwise from the dealer's left, or the non-dealing team first. */
export function bidOrderFor(options: Pick<RuleOptions, 'biddingOrder'>, dealer: Seat): Seat[] {
  const left = seatAfter(dealer, 1);
  if (options.biddingOrder === 'non-dealing-team-first') {
    // Dealer's left, then the dealer's right (its partner); then the dealer's partner, the dealer last.
    return [left, seatAfter(dealer, 3), seatAfter(dealer, 2), dealer];
  }
  return [left, seatAfter(dealer, 2), seatAfter(dealer, 3), dealer];
}

/** Whether the bids make a hand the rules do not play: the 6-4 rule, team bids of exactly 6 and 4 with no nil or blind. */
export function isSixFour(options: Pick<RuleOptions, 'sixFour'>, bids: Readonly<Record<Seat, RecordBid>>): boolean {
  if (!options.sixFour) return false;
  if (SEATS.some((s) => typeof bids[s] !== 'number')) return false;
  const ns = bidTricks(bids.N) + bidTricks(bids.S);
  const ew = bidTricks(bids.E) + bidTricks(bids.W);
  return (ns === 6 && ew === 4) || (ns === 4 && ew === 6);
}

/** Deals a hand from the seed, has the bots bid it and play it out card by card. */
export function simulateHand(input: SimulateHandInput): SimulatedHand {
  const { options, dealer } = input;
  const deck = deckFor(options);
  const random = createRandom(input.seed);
  const deal = dealWith(deck, random, dealer);

  const bidOrder = bidOrderFor(options, dealer);
  const made: Partial<Record<Seat, RecordBid>> = {};
  for (const seat of bidOrder) {
    made[seat] = botBid({
      options,
      seat,
      hand: deal[seat],
      bids: made,
      behind: input.behind?.[teamOf(seat)] ?? 0,
      random,
      ...(input.style ? { style: input.style } : {}),
    });
  }
  const bids = made as Record<Seat, RecordBid>;
  const taken: Record<Seat, number> = { N: 0, E: 0, S: 0, W: 0 };
  if (isSixFour(options, bids)) return { dealer, deal, bids, bidOrder, plays: [], winners: [], taken };

  const { plays, winners } = playByBots(deck, options, dealer, deal, bids, taken, random, input);
  return { dealer, deal, bids, bidOrder, plays, winners, taken };
}

function playByBots(
  deck: Deck,
  options: RuleOptions,
  dealer: Seat,
  deal: Record<Seat, Card[]>,
  bids: Record<Seat, RecordBid>,
  taken: Record<Seat, number>,
  random: Random,
  input: SimulateHandInput,
): { plays: Card[][]; winners: Seat[] } {
  const hands: Record<Seat, Card[]> = { N: [...deal.N], E: [...deal.E], S: [...deal.S], W: [...deal.W] };
  const played = new Uint8Array(54);
  const plays: Card[][] = [];
  const winners: Seat[] = [];
  let leader = seatAfter(dealer);
  let trumpsBroken = false;
  for (let t = 0; t < 13; t++) {
    const trick: Card[] = [];
    for (let i = 0; i < 4; i++) {
      const seat = seatAfter(leader, i);
      const hand = hands[seat];
      const card = botPlay({
        deck,
        options,
        seat,
        hand,
        trick,
        trumpsBroken,
        bids,
        taken,
        played,
        bags: input.bags?.[teamOf(seat)] ?? 0,
        random,
        ...(input.style ? { style: input.style } : {}),
      });
      hand.splice(hand.indexOf(card), 1);
      played[card] = 1;
      trick.push(card);
    }
    let best = 0;
    const led = deck.suit[trick[0]!]!;
    for (let i = 1; i < 4; i++) if (beats(deck, trick[i]!, trick[best]!, led)) best = i;
    if (trick.some((c) => deck.suit[c] === TRUMPS)) trumpsBroken = true;
    const winner = seatAfter(leader, best);
    taken[winner]++;
    winners.push(winner);
    plays.push(trick);
    leader = winner;
  }
  return { plays, winners };
}

export interface RandomHandInput {
  deck: Deck;
  dealer: Seat;
  seed: Seed;
  /**
   * Insert one renege at this 1-based trick: the first seat after the leader that holds the
   * led suit and something else plays something else. When no seat can renege there, the
   * next trick where one can is used.
   */
  renegeAt?: number;
}

export interface RandomHand {
  deal: Record<Seat, Card[]>;
  /** The 13 tricks, each in play order (leader first). */
  plays: Card[][];
  /** The seat that won each trick. */
  winners: Seat[];
  /** The renege that was inserted, or null (none asked for, or none possible from that trick on). */
  renege: Violation | null;
}

/**
 * Deals from the seed and plays uniformly random legal cards (follow suit when able, no trump
 * lead before trumps are broken unless holding only trumps), optionally with one renege.
 * Built for speed: hands live in one typed array and the only allocations are the results.
 */
export function randomHand(input: RandomHandInput): RandomHand {
  const { deck, dealer } = input;
  const suitOf = deck.suit;
  const random = createRandom(input.seed);
  const deal = dealWith(deck, random, dealer);
  const held = new Uint8Array(52);
  const count = new Int32Array(4);
  for (let s = 0; s < 4; s++) {
    const cards = deal[SEATS[s]!];
    for (let i = 0; i < 13; i++) held[s * 13 + i] = cards[i]!;
    count[s] = 13;
  }

  const plays: Card[][] = [];
  const winners: Seat[] = [];
  let renege: Violation | null = null;
  let renegePending = input.renegeAt !== undefined;
  let leader = (seatIndex(dealer) + 1) & 3;
  let broken = false;

  for (let t = 0; t < 13; t++) {
    const trick: Card[] = [0, 0, 0, 0];
    let led = -1;
    let best = 0;
    for (let i = 0; i < 4; i++) {
      const s = (leader + i) & 3;
      const base = s * 13;
      const n = count[s]!;
      // `want` picks which cards are candidates: -1 any, else an effective suit; `avoid` inverts it.
      let want = -1;
      let avoid = false;
      let candidates = n;
      if (i === 0) {
        if (!broken) {
          let trumps = 0;
          for (let k = 0; k < n; k++) if (suitOf[held[base + k]!] === TRUMPS) trumps++;
          if (trumps < n) {
            want = TRUMPS;
            avoid = true;
            candidates = n - trumps;
          }
        }
      } else {
        let following = 0;
        for (let k = 0; k < n; k++) if (suitOf[held[base + k]!] === led) following++;
        if (following > 0) {
          want = led;
          candidates = following;
          if (renegePending && t + 1 >= input.renegeAt! && following < n) {
            avoid = true;
            candidates = n - following;
            renegePending = false;
            renege = { seat: SEATS[s]!, trick: t + 1 };
          }
        }
      }
      let pick = random.int(candidates);
      let index = 0;
      for (let k = 0; k < n; k++) {
        const c = held[base + k]!;
        const matches = want === -1 || (suitOf[c] === want) !== avoid;
        if (matches && pick-- === 0) {
          index = k;
          break;
        }
      }
      const card = held[base + index]!;
      held[base + index] = held[base + n - 1]!;
      count[s] = n - 1;
      trick[i] = card;
      if (i === 0) led = suitOf[card]!;
      else if (beats(deck, card, trick[best]!, led)) best = i;
    }
    if (!broken) for (let i = 0; i < 4; i++) if (suitOf[trick[i]!] === TRUMPS) broken = true;
    plays.push(trick);
    leader = (leader + best) & 3;
    winners.push(SEATS[leader]!);
  }
  return { deal, plays, winners, renege };
}


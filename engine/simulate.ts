/**
 * Simulated hands: a seeded deal played out card by card, either by the bots (for demos and
 * whole games) or by uniformly random legal plays (for property tests, which need the odd
 * plays no sensible bot would make). Everything is a function of the seed.
 */
import { type Card, type Seat, type Team, SEATS, TEAMS, cardName, otherTeam, seatAfter, seatIndex, teamOf } from './cards.ts';
import { type Deck, TRUMPS, beats, deckFor } from './deck.ts';
import { PRESETS, type RuleOptions } from './presets.ts';
import type { Rules } from './rules.ts';
import { type GameState, applyHand, newGame } from './game.ts';
import { type Random, type Seed, createRandom, dealWith } from './random.ts';
import { type Bid, type Bids, bidValue, biddingOrder } from './bid.ts';
import { type BotStyle, botBid, botPlay } from './bot.ts';
import { isSixFour } from './scoring.ts';
import { type Violation, replayPlays } from './trick.ts';

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
  bids: Bids;
  /** The seats in the order they bid. */
  bidOrder: Seat[];
  /** The 13 tricks, each in play order (leader first); empty for a hand the rules say is not played (6-4). */
  plays: Card[][];
  /** The seat that won each trick. */
  winners: Seat[];
  /** Tricks taken by each seat. */
  taken: Record<Seat, number>;
}

/** Deals a hand from the seed, has the bots bid it and play it out card by card. */
export function simulateHand(input: SimulateHandInput): SimulatedHand {
  const { options, dealer } = input;
  const deck = deckFor(options);
  const random = createRandom(input.seed);
  const deal = dealWith(deck, random, dealer);

  const bidOrder = biddingOrder(options, dealer);
  const made: Partial<Record<Seat, Bid>> = {};
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
  const bids = made as Bids;
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
  bids: Bids,
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

/** One hand of a `spades-game/1` record, as simulated. */
export interface RecordHandJson {
  dealer: Seat;
  deal: Record<Seat, string[]>;
  bids: Partial<Record<Seat, number | string>>;
  plays?: string[][];
  reneges?: { seat: Seat; trick: number; upheld: boolean }[];
}

/** A whole simulated game as a `spades-game/1` record. */
export interface RecordJson {
  format: 'spades-game/1';
  rules: string | ({ preset: string } & Partial<RuleOptions>);
  dealer: Seat;
  hands: RecordHandJson[];
}

/** A simulated hand as the game record writes it: card names, bids in the order made, and the renege claims. */
export function recordHand(hand: SimulatedHand, reneges: readonly Violation[] = []): RecordHandJson {
  const names = (cards: readonly Card[]) => cards.map(cardName);
  const bids: Partial<Record<Seat, number | string>> = {};
  for (const seat of hand.bidOrder) bids[seat] = bidValue(hand.bids[seat]);
  const json: RecordHandJson = {
    dealer: hand.dealer,
    deal: { N: names(hand.deal.N), E: names(hand.deal.E), S: names(hand.deal.S), W: names(hand.deal.W) },
    bids,
  };
  if (hand.plays.length > 0) json.plays = hand.plays.map(names);
  if (reneges.length > 0) json.reneges = reneges.map((r) => ({ seat: r.seat, trick: r.trick, upheld: true }));
  return json;
}

export interface SimulateGameInput {
  rules: Rules;
  seed: Seed;
  /** The first dealer; N when not given. */
  dealer?: Seat;
  style?: BotStyle;
  /** Stop after this many hands even with no winner (default 200): a guard, not a rule. */
  maxHands?: number;
}

export interface SimulatedGame {
  hands: SimulatedHand[];
  /** The game after its last hand, folded by the same code as the ledger's. */
  state: GameState;
  /** The game as a `spades-game/1` record; scoring it gives the same result as `state`. */
  record: RecordJson;
}

/**
 * Plays a whole game with bots: each hand is dealt from its own seed (`seed#n`), bid knowing
 * the score, played out, and folded into the game until it is won. Every renege the plays
 * show is claimed by the other team and upheld, so demos with a renege chance show penalties.
 */
export function simulateGame(input: SimulateGameInput): SimulatedGame {
  const { rules } = input;
  const options = rules.options;
  const deck = deckFor(options);
  const maxHands = input.maxHands ?? 200;
  let state = newGame(rules, input.dealer ? { dealer: input.dealer } : {});
  const hands: SimulatedHand[] = [];
  const recorded: RecordHandJson[] = [];
  while (state.winner === null && hands.length < maxHands) {
    const behind = {} as Record<Team, number>;
    const bags = {} as Record<Team, number>;
    for (const team of TEAMS) {
      behind[team] = state.teams[otherTeam(team)].score - state.teams[team].score;
      bags[team] = state.teams[team].bags;
    }
    const hand = simulateHand({
      options,
      dealer: state.dealer,
      seed: `${input.seed}#${hands.length + 1}`,
      behind,
      bags,
      ...(input.style ? { style: input.style } : {}),
    });
    const played = hand.plays.length > 0;
    const reneges = played ? replayPlays(deck, hand.dealer, hand.plays, hand.deal).reneges : [];
    state = applyHand(state, {
      kind: 'played',
      dealer: hand.dealer,
      bids: hand.bids,
      tricks: played ? hand.taken : null,
      firstSeven: played ? firstSevenOf(hand.winners) : null,
      reneges: reneges.map((r) => ({ seat: r.seat, upheld: true })),
    });
    hands.push(hand);
    recorded.push(recordHand(hand, reneges));
  }
  return {
    hands,
    state,
    record: { format: 'spades-game/1', rules: rulesJson(rules), dealer: input.dealer ?? 'N', hands: recorded },
  };
}

/** The team that won each of the first 7 tricks, or null. */
function firstSevenOf(winners: readonly Seat[]): Team | null {
  if (winners.length < 7) return null;
  const team = teamOf(winners[0]!);
  for (let i = 1; i < 7; i++) if (teamOf(winners[i]!) !== team) return null;
  return team;
}

/** The record's `rules`: the preset id, or the preset with just the options that differ from it. */
function rulesJson(rules: Rules): RecordJson['rules'] {
  const base = PRESETS[rules.preset] as unknown as Record<string, unknown>;
  const overrides: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(rules.options)) {
    if (JSON.stringify(value) !== JSON.stringify(base[key])) overrides[key] = value;
  }
  return Object.keys(overrides).length === 0 ? rules.preset : { preset: rules.preset, ...overrides };
}

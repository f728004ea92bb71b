/**
 * Seeded randomness for deals, bots and simulations. The engine never reaches for
 * Math.random: a shuffle is a function of its seed, so a simulated hand, a demo table or a
 * failing property test can be replayed exactly from the seed it printed.
 *
 * The generator is sfc32 (Chris Doty-Humphrey's small fast chaotic PRNG): four 32-bit words
 * of state, good statistical quality, and no allocation per draw.
 */
import { type Card, type Seat, seatAfter, seatIndex } from './cards.ts';
import type { Deck } from './deck.ts';

/** A seed: any 32-bit integer, or a string (hashed to the generator's state). */
export type Seed = number | string;

export interface Random {
  /** The next draw as an unsigned 32-bit integer. */
  uint32(): number;
  /** The next draw as a float in [0, 1). */
  float(): number;
  /** The next draw as an integer in [0, n); n must be in 1…2^32. */
  int(n: number): number;
}

/** A seeded generator: the same seed always gives the same sequence of draws. */
export function createRandom(seed: Seed): Random {
  let [a, b, c, d] = seedState(seed);
  // The first draws of sfc32 still carry the seed's structure; sixteen rounds mix it away.
  for (let i = 0; i < 16; i++) next();

  function next(): number {
    a >>>= 0;
    b >>>= 0;
    c >>>= 0;
    d >>>= 0;
    let t = (a + b) | 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) | 0;
    c = (c << 21) | (c >>> 11);
    d = (d + 1) | 0;
    t = (t + d) | 0;
    c = (c + t) | 0;
    return t >>> 0;
  }

  return {
    uint32: next,
    float: () => next() / 4294967296,
    // Multiply-shift maps a 32-bit draw onto [0, n) with a bias far below anything a card game sees.
    int: (n) => Math.floor((next() / 4294967296) * n),
  };
}

/** Four words of state from a seed: splitmix32 for numbers, a 128-bit string hash (cyrb128) for strings. */
function seedState(seed: Seed): [number, number, number, number] {
  if (typeof seed === 'number') {
    if (!Number.isFinite(seed)) throw new Error(`seed ${seed} is not a finite number`);
    let s = Math.trunc(seed) >>> 0;
    const words: number[] = [];
    for (let i = 0; i < 4; i++) {
      s = (s + 0x9e3779b9) | 0;
      let z = s;
      z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
      z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
      words.push((z ^ (z >>> 16)) >>> 0);
    }
    return words as [number, number, number, number];
  }
  let h1 = 1779033703;
  let h2 = 3144134277;
  let h3 = 1013904242;
  let h4 = 2773480762;
  for (let i = 0; i < seed.length; i++) {
    const k = seed.charCodeAt(i);
    h1 = h2 ^ Math.imul(h1 ^ k, 597399067);
    h2 = h3 ^ Math.imul(h2 ^ k, 2869860233);
    h3 = h4 ^ Math.imul(h3 ^ k, 951274213);
    h4 = h1 ^ Math.imul(h4 ^ k, 2716044179);
  }
  h1 = Math.imul(h3 ^ (h1 >>> 18), 597399067);
  h2 = Math.imul(h4 ^ (h2 >>> 22), 2869860233);
  h3 = Math.imul(h1 ^ (h3 >>> 17), 951274213);
  h4 = Math.imul(h2 ^ (h4 >>> 19), 2716044179);
  h1 ^= h2 ^ h3 ^ h4;
  h2 ^= h1;
  h3 ^= h1;
  h4 ^= h1;
  return [h1 >>> 0, h2 >>> 0, h3 >>> 0, h4 >>> 0];
}

/** Shuffles `items` in place (Fisher–Yates) with draws from `random`, and returns it. */
export function shuffleInPlace<T>(items: T[], random: Random): T[] {
  for (let i = items.length - 1; i > 0; i--) {
    const j = random.int(i + 1);
    const held = items[i]!;
    items[i] = items[j]!;
    items[j] = held;
  }
  return items;
}

/** Shuffles the deck with `random` and deals it one card at a time, starting at the dealer's left. */
export function dealWith(deck: Deck, random: Random, dealer: Seat): Record<Seat, Card[]> {
  const cards = shuffleInPlace([...deck.cards], random);
  const hands: Card[][] = [[], [], [], []];
  const first = seatIndex(seatAfter(dealer));
  for (let i = 0; i < cards.length; i++) hands[(first + i) & 3]!.push(cards[i]!);
  return { N: hands[0]!, E: hands[1]!, S: hands[2]!, W: hands[3]! };
}

/** The deal a seed gives: the preset's deck shuffled and dealt one at a time from the dealer's left. */
export function dealFromSeed(deck: Deck, seed: Seed, dealer: Seat): Record<Seat, Card[]> {
  return dealWith(deck, createRandom(seed), dealer);
}

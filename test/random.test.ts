import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { SEATS, seatAfter } from '../engine/cards.ts';
import { deckFor } from '../engine/deck.ts';
import { PRESETS, PRESET_IDS } from '../engine/presets.ts';
import { createRandom, dealFromSeed, shuffleInPlace } from '../engine/random.ts';

const seeds = fc.oneof(fc.integer({ min: -(2 ** 31), max: 2 ** 32 - 1 }), fc.string({ maxLength: 20 }));

function draws(seed: number | string, n: number): number[] {
  const random = createRandom(seed);
  return Array.from({ length: n }, () => random.uint32());
}

describe('createRandom', () => {
  it('given the same seed, when drawing, then the sequence is the same', () => {
    fc.assert(
      fc.property(seeds, (seed) => {
        expect(draws(seed, 20)).toEqual(draws(seed, 20));
      }),
    );
  });

  it('given neighbouring seeds, when drawing, then the sequences differ from the first draw', () => {
    for (let seed = 0; seed < 200; seed++) expect(draws(seed, 1)).not.toEqual(draws(seed + 1, 1));
    expect(draws('table 1', 4)).not.toEqual(draws('table 2', 4));
  });

  it('given any seed, when drawing, then uint32, float and int stay in their ranges', () => {
    fc.assert(
      fc.property(seeds, fc.integer({ min: 1, max: 1000 }), (seed, n) => {
        const random = createRandom(seed);
        for (let i = 0; i < 50; i++) {
          const u = random.uint32();
          expect(Number.isInteger(u) && u >= 0 && u < 2 ** 32).toBe(true);
          const f = random.float();
          expect(f >= 0 && f < 1).toBe(true);
          const k = random.int(n);
          expect(Number.isInteger(k) && k >= 0 && k < n).toBe(true);
        }
      }),
    );
  });

  it('given many draws of int(13), then every value comes up about equally often', () => {
    const random = createRandom(2024);
    const counts = new Array<number>(13).fill(0);
    const n = 130_000;
    for (let i = 0; i < n; i++) counts[random.int(13)]!++;
    // Chi-square with 12 degrees of freedom: 32.9 is the 0.1% critical value.
    const expected = n / 13;
    const chi = counts.reduce((sum, c) => sum + (c - expected) ** 2 / expected, 0);
    expect(chi).toBeLessThan(32.9);
  });

  it('given a seed that is not a finite number, then it is refused', () => {
    expect(() => createRandom(Number.NaN)).toThrow(/seed NaN/);
  });
});

describe('shuffleInPlace', () => {
  it('given a list, when shuffled, then it holds the same items', () => {
    fc.assert(
      fc.property(seeds, fc.array(fc.integer(), { maxLength: 60 }), (seed, items) => {
        const shuffled = shuffleInPlace([...items], createRandom(seed));
        expect([...shuffled].sort((a, b) => a - b)).toEqual([...items].sort((a, b) => a - b));
      }),
    );
  });

  it('given 3 items, when shuffled many times, then all 6 orders appear about equally often', () => {
    const random = createRandom('orders');
    const counts = new Map<string, number>();
    for (let i = 0; i < 60_000; i++) {
      const key = shuffleInPlace([0, 1, 2], random).join('');
      counts.set(key, (counts.get(key) ?? 0) + 1);
    }
    expect(counts.size).toBe(6);
    for (const c of counts.values()) expect(Math.abs(c - 10_000)).toBeLessThan(500);
  });
});

describe('dealFromSeed', () => {
  for (const id of PRESET_IDS) {
    const deck = deckFor(PRESETS[id]);

    it(`${id}: given any seed and dealer, then each seat gets 13 distinct cards and together they are the deck`, () => {
      fc.assert(
        fc.property(seeds, fc.constantFrom(...SEATS), (seed, dealer) => {
          const deal = dealFromSeed(deck, seed, dealer);
          for (const seat of SEATS) {
            expect(deal[seat]).toHaveLength(13);
            expect(new Set(deal[seat]).size).toBe(13);
          }
          const all = SEATS.flatMap((s) => deal[s]).sort((a, b) => a - b);
          expect(all).toEqual([...deck.cards].sort((a, b) => a - b));
        }),
        { numRuns: 50 },
      );
    });
  }

  it('given the same seed and dealer, then the deal is the same', () => {
    const deck = deckFor(PRESETS['unc-300']);
    fc.assert(
      fc.property(seeds, fc.constantFrom(...SEATS), (seed, dealer) => {
        expect(dealFromSeed(deck, seed, dealer)).toEqual(dealFromSeed(deck, seed, dealer));
      }),
    );
  });

  it('given different seeds, then the deals differ', () => {
    const deck = deckFor(PRESETS['blp-r1']);
    expect(dealFromSeed(deck, 1, 'N')).not.toEqual(dealFromSeed(deck, 2, 'N'));
  });

  it("given a dealer, then the shuffled deck is dealt one card at a time starting at the dealer's left", () => {
    const deck = deckFor(PRESETS['pitt-boss']);
    for (const dealer of SEATS) {
      const order = shuffleInPlace([...deck.cards], createRandom('one at a time'));
      const deal = dealFromSeed(deck, 'one at a time', dealer);
      for (let i = 0; i < order.length; i++) {
        expect(deal[seatAfter(dealer, 1 + (i % 4))][Math.floor(i / 4)]).toBe(order[i]);
      }
    }
  });
});

/**
 * Properties of trick play over random deals and random legal plays, for every preset. The
 * expected winner is worked out here from the deck's trump order and the printed ranks, not by
 * the engine's own comparison, so the two can disagree.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { type Card, type Seat, SEATS, naturalRank, naturalSuit, seatAfter, seatIndex } from '../engine/cards.ts';
import { type Deck, deckFor } from '../engine/deck.ts';
import { PRESETS, PRESET_IDS } from '../engine/presets.ts';
import { randomHand } from '../engine/simulate.ts';
import { replayPlays } from '../engine/trick.ts';

const RUNS = 150;
const seeds = fc.integer({ min: 0, max: 2 ** 32 - 1 });
const dealers = fc.constantFrom(...SEATS);

/** The suit a card follows as: 'T' for any trump, else its printed suit. */
function followsAs(deck: Deck, card: Card): string {
  return deck.trumpOrder.includes(card) ? 'T' : naturalSuit(card)!;
}

/** Index in play order of the card that should win: the highest trump, else the highest card of the suit led. */
function expectedWinnerIndex(deck: Deck, cards: readonly Card[]): number {
  const trumpRanks = cards.map((c) => deck.trumpOrder.indexOf(c));
  if (trumpRanks.some((r) => r >= 0)) {
    let best = -1;
    trumpRanks.forEach((r, i) => {
      if (r >= 0 && (best === -1 || r < trumpRanks[best]!)) best = i;
    });
    return best;
  }
  const led = naturalSuit(cards[0]!);
  let best = 0;
  cards.forEach((c, i) => {
    if (naturalSuit(c) === led && naturalRank(c) > naturalRank(cards[best]!)) best = i;
  });
  return best;
}

function expectedWinners(deck: Deck, dealer: Seat, plays: readonly (readonly Card[])[]): Seat[] {
  const winners: Seat[] = [];
  let leader = seatAfter(dealer);
  for (const cards of plays) {
    leader = seatAfter(leader, expectedWinnerIndex(deck, cards));
    winners.push(leader);
  }
  return winners;
}

for (const id of PRESET_IDS) {
  const deck = deckFor(PRESETS[id]);

  describe(`${id}: random legal hands`, () => {
    it('given a seeded deal and random legal plays, then 13 tricks play every card of the deck exactly once, each from its own hand', () => {
      fc.assert(
        fc.property(seeds, dealers, (seed, dealer) => {
          const { deal, plays } = randomHand({ deck, dealer, seed });
          expect(plays).toHaveLength(13);
          for (const trick of plays) expect(trick).toHaveLength(4);
          const all = plays.flat().sort((a, b) => a - b);
          expect(all).toEqual([...deck.cards].sort((a, b) => a - b));
          // Throws if a seat played a card the deal did not give it.
          expect(() => replayPlays(deck, dealer, plays, deal)).not.toThrow();
        }),
        { numRuns: RUNS },
      );
    });

    it('when replayed, then each trick goes to the highest trump, or else the highest card of the suit led', () => {
      fc.assert(
        fc.property(seeds, dealers, (seed, dealer) => {
          const hand = randomHand({ deck, dealer, seed });
          const expected = expectedWinners(deck, dealer, hand.plays);
          const result = replayPlays(deck, dealer, hand.plays, hand.deal);
          expect(result.winners).toEqual(expected);
          expect(hand.winners).toEqual(expected);
          const taken = Object.fromEntries(SEATS.map((s) => [s, expected.filter((w) => w === s).length]));
          expect(result.taken).toEqual(taken);
          expect(result.next).toBeNull();
        }),
        { numRuns: RUNS },
      );
    });

    it('when replayed with or without the deal, then a legal hand shows no renege and no illegal lead', () => {
      fc.assert(
        fc.property(seeds, dealers, (seed, dealer) => {
          const hand = randomHand({ deck, dealer, seed });
          for (const result of [replayPlays(deck, dealer, hand.plays, hand.deal), replayPlays(deck, dealer, hand.plays)]) {
            expect(result.reneges).toEqual([]);
            expect(result.illegalLeads).toEqual([]);
          }
        }),
        { numRuns: RUNS },
      );
    });

    it('given one renege inserted at a random trick, then it is reported at that trick for that seat and nothing else is', () => {
      fc.assert(
        fc.property(seeds, dealers, fc.integer({ min: 1, max: 13 }), (seed, dealer, at) => {
          const hand = randomHand({ deck, dealer, seed, renegeAt: at });
          expect(hand.plays).toHaveLength(13);
          expect(hand.plays.flat()).toHaveLength(deck.cards.length);
          const result = replayPlays(deck, dealer, hand.plays, hand.deal);
          if (hand.renege === null) {
            expect(result.reneges).toEqual([]);
            return;
          }
          expect(hand.renege.trick).toBeGreaterThanOrEqual(at);
          // Check the renege is real, independently: off the led suit while holding it.
          const t = hand.renege.trick - 1;
          const trick = hand.plays[t]!;
          const leader = t === 0 ? seatAfter(dealer) : result.winners[t - 1]!;
          const position = (seatIndex(hand.renege.seat) - seatIndex(leader) + 4) % 4;
          const led = followsAs(deck, trick[0]!);
          expect(followsAs(deck, trick[position]!)).not.toBe(led);
          const playedBefore = new Set(hand.plays.slice(0, t + 1).flat());
          playedBefore.delete(trick[position]!);
          const stillHeld = hand.deal[hand.renege.seat].filter((c) => !playedBefore.has(c));
          expect(stillHeld.some((c) => followsAs(deck, c) === led)).toBe(true);

          expect(result.reneges).toEqual([hand.renege]);
          expect(result.illegalLeads).toEqual([]);
          expect(result.winners).toEqual(expectedWinners(deck, dealer, hand.plays));
        }),
        { numRuns: RUNS },
      );
    });

    it('given the same seed and plays, then generation and replay give deep-equal results', () => {
      fc.assert(
        fc.property(seeds, dealers, fc.option(fc.integer({ min: 1, max: 13 }), { nil: undefined }), (seed, dealer, at) => {
          const input = at === undefined ? { deck, dealer, seed } : { deck, dealer, seed, renegeAt: at };
          const first = randomHand(input);
          expect(randomHand(input)).toEqual(first);
          expect(replayPlays(deck, dealer, first.plays, first.deal)).toEqual(replayPlays(deck, dealer, first.plays, first.deal));
          expect(replayPlays(deck, dealer, first.plays)).toEqual(replayPlays(deck, dealer, first.plays));
        }),
        { numRuns: RUNS },
      );
    });
  });
}

describe('random legal hands reach the odd plays', () => {
  it('given many seeds, then some hands lead trumps once broken, and some seats throw trumps on a suit they are out of', () => {
    const deck = deckFor(PRESETS['blp-final']);
    let trumpLeads = 0;
    let ruffs = 0;
    for (let seed = 0; seed < 200; seed++) {
      for (const trick of randomHand({ deck, dealer: 'N', seed }).plays) {
        if (followsAs(deck, trick[0]!) === 'T') trumpLeads++;
        else if (trick.some((c) => followsAs(deck, c) === 'T')) ruffs++;
      }
    }
    expect(trumpLeads).toBeGreaterThan(0);
    expect(ruffs).toBeGreaterThan(0);
  });
});

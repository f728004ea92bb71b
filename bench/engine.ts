/**
 * Engine benchmarks: how fast hands can be simulated card by card on one core. Property tests
 * and demo tables lean on these loops, so the goal is set where a few thousand property runs
 * per preset stay well under a second.
 */
import { SEATS } from '../engine/cards.ts';
import { deckFor } from '../engine/deck.ts';
import { PRESETS, PRESET_IDS } from '../engine/presets.ts';
import { dealFromSeed } from '../engine/random.ts';
import { randomHand, simulateHand } from '../engine/simulate.ts';
import { replayPlays } from '../engine/trick.ts';
import { type Benchmark, comparedTo, measureRate, withGoal } from './harness.ts';

const HANDS_PER_BATCH = 2000;
const BOT_HANDS_PER_BATCH = 500;

export const engineBench: Benchmark = {
  group: 'engine',
  run() {
    // Every preset's deck takes its turn, so jokers and promoted deuces are in the mix.
    const decks = PRESET_IDS.map((id) => deckFor(PRESETS[id]));
    let seed = 0;

    const random = withGoal(
      measureRate('random legal hands simulated card by card', 'hands/s', HANDS_PER_BATCH, () => {
        for (let i = 0; i < HANDS_PER_BATCH; i++) {
          randomHand({ deck: decks[i & 7]!, dealer: SEATS[i & 3]!, seed: seed++ });
        }
      }),
      { atLeast: 20_000 },
    );

    const deals = measureRate('seeded deals', 'deals/s', HANDS_PER_BATCH, () => {
      for (let i = 0; i < HANDS_PER_BATCH; i++) dealFromSeed(decks[i & 7]!, seed++, SEATS[i & 3]!);
    });

    const bots = measureRate('bot hands bid and played card by card', 'hands/s', BOT_HANDS_PER_BATCH, () => {
      for (let i = 0; i < BOT_HANDS_PER_BATCH; i++) {
        simulateHand({ options: PRESETS[PRESET_IDS[i & 7]!], dealer: SEATS[i & 3]!, seed: seed++ });
      }
    });

    const recorded = Array.from({ length: HANDS_PER_BATCH }, (_, i) => ({
      deck: decks[i & 7]!,
      dealer: SEATS[i & 3]!,
      hand: randomHand({ deck: decks[i & 7]!, dealer: SEATS[i & 3]!, seed: i, renegeAt: 1 + (i % 13) }),
    }));
    const replays = measureRate('recorded hands replayed with renege detection', 'hands/s', HANDS_PER_BATCH, () => {
      for (const { deck, dealer, hand } of recorded) replayPlays(deck, dealer, hand.plays, hand.deal);
    });

    return [random, comparedTo(deals, random), comparedTo(bots, random), comparedTo(replays, random)];
  },
};

/**
 * Scoring benchmarks: hands folded into games per second on one core, through the same
 * `applyHand` the record scorer and the ledger's projections use (bids checked, hand scored,
 * ending checked). Rebuilding a tournament's standings from its ledger replays every hand, so
 * the goal is set where a whole event re-scores in well under a second.
 */
import { SEATS, type Seat } from '../engine/cards.ts';
import { type Bids, parseBid } from '../engine/bid.ts';
import { type GameHand, type GameState, applyHand, newGame } from '../engine/game.ts';
import { PRESETS, PRESET_IDS, type PresetId } from '../engine/presets.ts';
import { scoreRecord } from '../engine/record.ts';
import { resolveRules } from '../engine/rules.ts';
import { type Benchmark, comparedTo, measureRate, withGoal } from './harness.ts';

const HANDS_PER_BATCH = 20_000;
const RECORDS_PER_BATCH = 200;

function bids(raw: Record<Seat, number | string>): Bids {
  return Object.fromEntries(SEATS.map((s) => [s, parseBid(raw[s])!])) as Bids;
}

function hand(raw: Record<Seat, number | string>, tricks: Record<Seat, number> | null, extra: Partial<GameHand> = {}): GameHand {
  return { kind: 'played', bids: bids(raw), tricks, firstSeven: null, reneges: [], ...extra } as GameHand;
}

/** A fixed round of hands each preset accepts from any score: made, set, bags, big bids, reneges, nils. */
function handsFor(preset: PresetId): GameHand[] {
  const options = PRESETS[preset];
  const list: GameHand[] = [
    hand({ N: 3, E: 2, S: 2, W: 2 }, { N: 4, E: 3, S: 4, W: 2 }),
    hand({ N: 4, E: 2, S: 4, W: 3 }, { N: 3, E: 4, S: 3, W: 3 }),
    hand({ N: 2, E: 3, S: 2, W: 2 }, { N: 3, E: 3, S: 4, W: 3 }, { reneges: [{ seat: 'E', upheld: true }] }),
    hand({ N: 5, E: 2, S: 5, W: 2 }, { N: 6, E: 1, S: 5, W: 1 }),
    { kind: 'misdeal', reason: 'wrong-card-count' },
    hand({ N: 3, E: 3, S: 3, W: 3 }, { N: 4, E: 3, S: 3, W: 3 }, { reneges: [{ seat: 'N', upheld: false }] }),
  ];
  if (options.nil !== null) {
    list.push(hand({ N: 'nil', E: 3, S: 5, W: 3 }, { N: 0, E: 4, S: 6, W: 3 }));
    list.push(hand({ N: 'nil', E: 4, S: 'nil', W: 4 }, { N: 1, E: 6, S: 0, W: 6 }));
  }
  if (options.firstSeven !== null) list.push(hand({ N: 4, E: 2, S: 4, W: 2 }, { N: 5, E: 2, S: 4, W: 2 }, { firstSeven: 'NS' }));
  if (options.sixFour) list.push(hand({ N: 3, E: 2, S: 3, W: 2 }, null));
  return list;
}

export const scoreBench: Benchmark = {
  group: 'scoring',
  run() {
    const games = PRESET_IDS.map((id) => ({ start: newGame(resolveRules(id)), hands: handsFor(id) }));

    const folded = withGoal(
      measureRate('hands scored through the game fold', 'hands/s', HANDS_PER_BATCH, () => {
        let g = 0;
        let { start, hands } = games[0]!;
        let state: GameState = start;
        for (let i = 0; i < HANDS_PER_BATCH; i++) {
          if (state.winner !== null) {
            g = (g + 1) & 7;
            ({ start, hands } = games[g]!);
            state = start;
          }
          const next = hands[i % hands.length]!;
          // The dealer field is left off so every fixed hand fits whatever the rotation is.
          state = applyHand(state, next);
        }
      }),
      { atLeast: 100_000 },
    );

    const record = {
      format: 'spades-game/1',
      rules: 'unc-300',
      hands: Array.from({ length: 8 }, (_, i) =>
        i % 4 === 3 ? { misdeal: 'no-face-cards' } : { bids: { N: 3, E: 2, S: 2, W: 2 }, tricks: { N: 4, E: 3, S: 3 + (i % 2), W: 3 - (i % 2) } },
      ),
    };
    const records = measureRate('records of 8 hands read and scored', 'records/s', RECORDS_PER_BATCH, () => {
      for (let i = 0; i < RECORDS_PER_BATCH; i++) scoreRecord(record);
    });

    return [folded, comparedTo(records, folded)];
  },
};

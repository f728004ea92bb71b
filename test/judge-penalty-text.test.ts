/**
 * What the judge console says a renege ruling will do, for each preset: the penalty rules.md
 * gives ("Scoring a hand", 5), so a judge rules knowing the cost.
 */
import { describe, expect, it } from 'vitest';
import { PRESETS, PRESET_IDS } from '../engine/presets.ts';
import { renegePenaltyText } from '../server/judge/judge-console-model.ts';

const text = (id: (typeof PRESET_IDS)[number]) => renegePenaltyText(PRESETS[id], id);

describe('the renege penalty a judge is shown', () => {
  it('blp and tournament-spades: "3 tricks move from the reneging team to the other team"', () => {
    for (const id of ['blp-r1', 'blp-r2', 'blp-final', 'tournament-spades'] as const) {
      expect(text(id)).toMatch(/^If upheld, 3 tricks move from the reneging team to the other team/);
    }
  });
  it('unc: "the reneging team\'s tricks drop by 3 ... the other team gets +30 points flat"', () => {
    expect(text('unc-300')).toMatch(/tricks drop by 3 \(not below 0\) and the other team gets 30 points flat/);
  });
  it('asher: "credited with 3 tricks now ... the rest from its tricks in its next hand"', () => {
    expect(text('asher')).toMatch(/credited with 3 tricks now; the reneging team gives up what it has \(up to 3\) now and the rest from its next hand/);
  });
  it('pitt-boss: "the team that loses the renege challenge pays", whichever way the ruling goes', () => {
    expect(text('pitt-boss')).toMatch(/loses the challenge pays.*upheld, 3 tricks move from the reneging team.*denied, 3 tricks move from the claiming team/);
  });
});

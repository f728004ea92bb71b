/**
 * What the judge console says a renege ruling will do, for each preset: the penalty rules.md
 * gives ("Scoring a hand", 5), so a judge rules knowing the cost. It is the rules sheet's own
 * sentence, written once (engine/rule-lines.ts), so the judge and the table read the same rule.
 */
import { describe, expect, it } from 'vitest';
import { formatOptions } from '../engine/formats.ts';
import { PRESETS, type PRESET_IDS } from '../engine/presets.ts';
import { renegeSentence } from '../engine/rule-lines.ts';
import { rulesSheet } from '../engine/rules-sheet.ts';

const text = (id: (typeof PRESET_IDS)[number]) => renegeSentence(PRESETS[id]);

describe('the renege penalty a judge is shown', () => {
  it('blp and tournament-spades: "3 tricks move from the reneging team to the other team"', () => {
    for (const id of ['blp-r1', 'blp-r2', 'blp-final', 'tournament-spades'] as const) {
      expect(text(id)).toBe(
        'An upheld renege takes 3 tricks from the reneging team and gives them to the other team (all it has, if fewer), where they count toward the bid and as bags.',
      );
    }
  });
  it('unc: "the reneging team\'s tricks drop by 3 ... the other team gets +30 points flat"', () => {
    expect(text('unc-300')).toBe(
      'An upheld renege takes 3 tricks from the reneging team, which must still make its bid with what is left; the other team does not count them, and the other team scores 30 points.',
    );
  });
  it('asher: "credited with 3 tricks now ... the rest from its tricks in its next hand"', () => {
    expect(text('asher')).toMatch(
      /credits the other team with 3 tricks; the reneging team gives up as many as it has and owes the rest out of its next hand\.$/,
    );
  });
  it('pitt-boss: "the team that loses the renege challenge pays", whichever way the ruling goes', () => {
    expect(text('pitt-boss')).toMatch(
      /costs the side that loses it 3 tricks, given to the other team: the reneging team’s when upheld, the claiming team’s when denied\.$/,
    );
  });
  it('follows the options, whatever the preset: the tricks, the points and where they go', () => {
    expect(renegeSentence({ renegePenalty: 'transfer', renegeTricks: 1, renegePoints: 50 })).toBe(
      'An upheld renege takes 1 trick from the reneging team and gives them to the other team (all it has, if fewer), where they count toward the bid and as bags, and the other team scores 50 points.',
    );
  });
  it('is the rules sheet’s renege line, word for word, in every format', () => {
    for (const format of ['blp-2024', 'unc-intramural', 'pitt-boss', 'asher-theatre', 'tournament-spades'] as const) {
      const options = formatOptions(format);
      const line = rulesSheet(format, options)
        .parts.flatMap((p) => p.lines)
        .find((l) => l.key === 'renege')!;
      const preset = typeof options.rules === 'string' ? options.rules : options.rules.preset;
      expect(line.text, format).toBe(renegeSentence(PRESETS[preset as (typeof PRESET_IDS)[number]]));
    }
  });
});

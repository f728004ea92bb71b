/**
 * Each rule and each word for it written in one place: the seats' names, the "10 for 200"
 * formula, the renege penalty's sentence, the rule options' choices and the misdeal reasons'
 * words. A second copy would drift from the first; these checks fail when one appears.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SEAT_NAMES, seatName } from '../engine/cards.ts';
import { PRESETS } from '../engine/presets.ts';
import { MISDEAL_REASONS, RULE_OPTIONS } from '../engine/rule-options.ts';
import { bigBidOf, madeContractPoints, setContractPoints } from '../engine/scoring.ts';

const ROOT = resolve(import.meta.dirname, '..');

/** Every TypeScript source of the running code, as a path from the root. */
function sources(): string[] {
  return ['engine', 'events', 'server', 'views']
    .flatMap((folder) => readdirSync(join(ROOT, folder), { recursive: true, withFileTypes: true }).map((e) => ({ e, folder })))
    .filter(({ e }) => e.isFile() && /\.tsx?$/.test(e.name))
    .map(({ e }) => relative(ROOT, join(e.parentPath, e.name)))
    .sort();
}

/** The sources whose text matches `pattern`. */
const holding = (pattern: RegExp) => sources().filter((file) => pattern.test(readFileSync(join(ROOT, file), 'utf8')));

describe('written in one place', () => {
  it('names the seats in engine/cards.ts alone', () => {
    expect(holding(/\bN: ['"]North['"]/)).toEqual(['engine/cards.ts']);
    expect(Object.values(SEAT_NAMES).join(', ')).toBe('North, East, South, West');
    expect(seatName('W')).toBe('West');
    expect(seatName('X')).toBe('X');
  });

  it("works out a big bid's worth in engine/scoring.ts alone, for scoring and the statistics alike", () => {
    expect(holding(/madeFloor\b[^\n]*\+[^\n]*madeBonus|Math\.max\([^)]*madeFloor/)).toEqual(['engine/scoring.ts']);
    expect(holding(/from '[./]*engine\/scoring\.ts'/)).toContain('events/stats-projection.ts');
    // Asher's 10 for 200: 10 a trick bid plus 100, whatever the bid; UNC's 120 is a floor.
    expect(madeContractPoints(PRESETS.asher, 11)).toBe(210);
    expect(madeContractPoints(PRESETS['unc-300'], 10)).toBe(120);
    expect(madeContractPoints(PRESETS['unc-300'], 13)).toBe(130);
    expect(madeContractPoints(PRESETS['unc-300'], 9)).toBe(90);
    expect(bigBidOf(PRESETS['unc-300'], 10, true)).toBeNull();
    expect(setContractPoints(PRESETS['pitt-boss'], 12)).toBe(-100);
    expect(setContractPoints(PRESETS['unc-300'], 12)).toBe(-120);
  });

  it('words the renege penalty in engine/rule-lines.ts alone, for the rules sheet and the judge alike', () => {
    expect(holding(/[`'"](?:An upheld renege|If upheld, |The team that loses the challenge pays)/)).toEqual(['engine/rule-lines.ts']);
  });

  it('lists each rule option’s choices, and words each misdeal reason, in the catalogue alone', () => {
    for (const option of RULE_OPTIONS) {
      if (option.control.kind !== 'choice') continue;
      const [a, b] = option.control.choices;
      const listed = new RegExp(`['"]${a!.value}['"],\\s*['"]${b!.value}['"]|['"]?value['"]?: ['"]${a!.value}['"]|\\[['"]${a!.value}['"], ['"]`);
      expect(holding(listed), option.key).toEqual(['engine/rule-options.ts']);
    }
    for (const reason of MISDEAL_REASONS)
      expect(holding(new RegExp(reason.words.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))), reason.value).toEqual(['engine/rule-options.ts']);
  });
});

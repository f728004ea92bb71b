/**
 * The rule options' catalogue (engine/rule-options.ts) is the one place each option is written:
 * every option there is what the engine checks an override with, what the record schema (and the
 * JSON Schema published from it) holds a record's rules to, and refused in the director's words,
 * the option's label, never its identifier.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv2020 from 'ajv/dist/2020.js';
import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { PRESETS, PRESET_IDS, type PresetId, type RuleOptions } from '../engine/presets.ts';
import { ruleLines } from '../engine/rule-lines.ts';
import { RecordError, scoreRecord } from '../engine/record.ts';
import { COMPOUND_CHOICES, type RuleOption, RULE_OPTIONS, RULE_OPTION_NAMES, optionText, ruleOption } from '../engine/rule-options.ts';
import { RulesError, resolveRules } from '../engine/rules.ts';
import { formatOptions } from '../engine/formats.ts';
import { rulesSheet } from '../engine/rules-sheet.ts';
import { openApiDocument } from '../server/api/openapi.ts';
import { builtRules } from '../server/director/create-choices.ts';
import { builderProps } from '../server/director/create-form.ts';
import { RulesBuilder } from '../views/rules-builder.tsx';

const published = JSON.parse(readFileSync(join(import.meta.dirname, '..', 'docs', 'schemas', 'spades-game-1.schema.json'), 'utf8')) as Record<string, unknown>;
const validate = new Ajv2020({ allErrors: false, strict: false }).compile(published);
const BASE = 'unc-300';

/** Values of the wrong kind for the option, worked out from its control alone. */
function badValues(option: RuleOption): unknown[] {
  const c = option.control;
  switch (c.kind) {
    case 'number':
      return [-1, 1.5, 'x', [], ...(c.max !== null ? [c.max + 1] : []), ...(c.min > 0 ? [c.min - 1] : []), ...(c.none === null ? [null] : [])];
    case 'yes-no':
      return ['yes', 1, null];
    case 'choice':
      return ['nope', null, 1];
    case 'cards':
      return [['2X'], 'AS', ['BJ'], null];
    case 'reasons':
      return [[''], 'card-flipped', [1], null];
    case 'fields':
      return [5, 'x', {}, { ...sample(c.fields), over: 1 }, { ...sample(c.fields), [c.fields[0]!.key]: -1 }];
    default: {
      const _exhaustive: never = c;
      return _exhaustive;
    }
  }
}

/** Values of the right kind for the option, worked out from its control alone. */
function goodValues(option: RuleOption): unknown[] {
  const c = option.control;
  switch (c.kind) {
    case 'number':
      return [c.min, c.min + 1, ...(c.max !== null ? [c.max - 1, c.max] : [c.min + 100]), ...(c.none !== null ? [null] : [])];
    case 'yes-no':
      return [true, false];
    case 'choice':
      return c.choices.map((x) => x.value);
    case 'cards':
      return [[], ['2H', '2D'], ['2C', '2H'], ['2♦', '2s']];
    case 'reasons':
      return [[], ['card-flipped'], c.choices.map((x) => x.value)];
    case 'fields':
      return [null, sample(c.fields)];
    default: {
      const _exhaustive: never = c;
      return _exhaustive;
    }
  }
}

function sample(fields: readonly { key: string; control: { kind: string; min?: number } }[]): Record<string, unknown> {
  return Object.fromEntries(fields.map((f) => [f.key, f.control.kind === 'yes-no' ? false : f.control.min]));
}

function engineProblem(rules: unknown): string | null {
  try {
    resolveRules(rules);
    return null;
  } catch (error) {
    if (error instanceof RulesError) return error.message;
    throw error;
  }
}

function recordProblem(rules: unknown): string | null {
  try {
    scoreRecord({ format: 'spades-game/1', rules, hands: [] });
    return null;
  } catch (error) {
    if (error instanceof RecordError) return error.message;
    throw error;
  }
}

describe('the rule options’ catalogue', () => {
  it('holds every option a preset has, and no other', () => {
    for (const id of PRESET_IDS) expect([...RULE_OPTION_NAMES].sort()).toEqual(Object.keys(PRESETS[id]).sort());
  });

  it('names every option in words, with what it does and what it takes', () => {
    for (const option of RULE_OPTIONS) {
      expect(option.label, option.key).not.toMatch(/[a-z][A-Z]/);
      expect(option.label, option.key).toMatch(/^[A-Z0-9]/);
      expect(option.help, option.key).toMatch(/^[A-Z].*\.$/);
      expect(option.help, option.key).not.toMatch(/`|\bnull\b/);
    }
    expect(new Set(RULE_OPTIONS.map((o) => o.label)).size).toBe(RULE_OPTIONS.length);
  });

  for (const option of RULE_OPTIONS) {
    it(`${option.key}: refused alike by the engine and the record schema, in the option’s words`, () => {
      for (const value of badValues(option)) {
        const rules = { preset: BASE, [option.key]: value };
        const problem = engineProblem(rules);
        expect(problem, JSON.stringify(value)).not.toBeNull();
        expect(problem!.startsWith(`rules: ${option.label} must be `) || problem!.startsWith(`rules: ${option.label}: `), problem!).toBe(true);
        // The option's identifier stays out of the sentence.
        if (/[A-Z]/.test(option.key)) expect(problem, problem!).not.toContain(option.key);
        expect(recordProblem(rules)).toBe(problem);
        expect(validate({ format: 'spades-game/1', rules, hands: [] }), `${option.key} ${JSON.stringify(value)}`).toBe(false);
      }
    });

    it(`${option.key}: taken alike by the engine and the record schema`, () => {
      let taken = 0;
      for (const value of goodValues(option)) {
        const rules = { preset: BASE, [option.key]: value };
        // The options may not fit together (a deck of 54 cards); that is checked beside the schema, the same for both.
        const problem = engineProblem(rules);
        expect(recordProblem(rules)).toBe(problem);
        expect(validate({ format: 'spades-game/1', rules, hands: [] }), `${option.key} ${JSON.stringify(value)}`).toBe(true);
        if (problem === null) {
          taken++;
          expect(resolveRules(rules).options[option.key]).toEqual(value);
        }
      }
      expect(taken).toBeGreaterThan(0);
    });

    it(`${option.key}: published in the record's JSON Schema from the catalogue's schema, label and help`, () => {
      const rulesSchema = (published.properties as Record<string, { anyOf: { properties?: Record<string, Record<string, unknown>> }[] }>).rules!;
      const property = rulesSchema.anyOf.find((s) => s.properties)!.properties![option.key]!;
      const { $schema: _s, ...own } = z.toJSONSchema(option.schema, { target: 'draft-2020-12' }) as Record<string, unknown>;
      expect(property).toEqual({ ...own, title: option.label, description: option.help });
    });
  }

  /**
   * The sheet's lines by key, for a best-of-3 event playing `preset` with `overrides`: the rules
   * of play as the sheet words them (whether or not the options fit together, as a deck of 54
   * cards does not), and the game's line where they do.
   */
  const sheetLines = (preset: PresetId, overrides: Record<string, unknown>) => {
    const lines = new Map<string, { text: string | null; options: string[] }>(
      ruleLines({ ...PRESETS[preset], ...overrides } as RuleOptions, 2).map((l) => [l.key, l]),
    );
    if (engineProblem({ preset, ...overrides }) === null) {
      const sheet = rulesSheet('pitt-boss', formatOptions('pitt-boss', { rules: { preset, ...overrides } }));
      const game = sheet.parts.flatMap((p) => p.lines).find((l) => l.key === 'game')!;
      lines.set('game', game);
    }
    return lines;
  };

  for (const option of RULE_OPTIONS) {
    it(`${option.key}: words the rules sheet's lines it names, and only those`, () => {
      const changed = new Set<string>();
      // Every preset, so that each line's options are seen at work (the partner of a nil bidder only where teams bid at least 1).
      for (const preset of PRESET_IDS)
        for (const value of goodValues(option)) {
          if (!option.schema.safeParse(value).success) continue;
          const before = sheetLines(preset, {});
          const after = sheetLines(preset, { [option.key]: value });
          for (const key of new Set([...before.keys(), ...after.keys()])) {
            // Options that do not fit together make no game line.
            if (key === 'game' && !(before.has(key) && after.has(key))) continue;
            if (before.get(key)?.text === after.get(key)?.text) continue;
            changed.add(key);
            // A line a value changes says it is written from the option.
            expect(before.get(key)?.options ?? after.get(key)?.options, `${option.key} = ${JSON.stringify(value)} changes '${key}' of ${preset}`).toContain(
              option.key,
            );
          }
        }
      expect([...changed].length, `no value of ${option.key} changes the sheet`).toBeGreaterThan(0);
      for (const key of changed) expect(option.sheet, key).toContain(key);
    });
  }

  const builder = String(RulesBuilder(builderProps('pitt-boss', {})));
  for (const option of RULE_OPTIONS) {
    const compound = COMPOUND_CHOICES.find((c) => c.options.includes(option.key));
    it(`${option.key}: asked on the create form by the control its entry names${compound ? ` (within ${compound.label})` : ''}, and read back from it`, () => {
      // An option a compound choice sets is asked by that choice, its words setting the option.
      if (compound) {
        const select = new RegExp(`<select name="rule\\.${compound.key}" id="[^"]+">([^]*?)</select>`).exec(builder)![1]!;
        const shown = [...select.matchAll(/<option value="([^"]+)"[^>]*>([^<]+)<\/option>/g)].map((m) => m[2]);
        expect(shown).toEqual(compound.choices.map((c) => c.words));
        for (const choice of compound.choices) {
          const read = builtRules({ rulesFormat: 'pitt-boss', [`rule.${compound.key}`]: choice.value }, 'pitt-boss');
          const same = JSON.stringify(choice.set[option.key]) === JSON.stringify(PRESETS['pitt-boss'][option.key]);
          expect(read[option.key], `${compound.key} ${choice.value}`).toEqual(same ? undefined : choice.set[option.key]);
        }
        return;
      }
      const name = `rule.${option.key}`;
      // Its label names the control, and its help follows.
      // Points to win a game are asked as a flyer says them, "Game to 300 points, or 30 minutes".
      const said = option.key === 'target' ? 'Game to' : option.label.replace(/&/g, '&amp;');
      expect(builder).toContain(`<label for="${name}">${said}</label> `);
      const at = builder.indexOf(`name="${name}"`);
      expect(at).toBeGreaterThan(0);
      expect(builder.slice(at)).toMatch(
        new RegExp(`^[^]*?<p class="rule-help">${option.help.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/"/g, '&quot;')}</p>`),
      );
      const c = option.control;
      if (c.kind === 'choice' || c.kind === 'yes-no') {
        const select = new RegExp(`<select name="${name.replace('.', '\\.')}" id="[^"]+">([^]*?)</select>`).exec(builder)![1]!;
        const shown = [...select.matchAll(/<option value="([^"]+)"[^>]*>([^<]+)<\/option>/g)].map((m) => ({ value: m[1], words: m[2] }));
        expect(shown).toEqual(
          c.kind === 'choice'
            ? c.choices
            : [
                { value: 'true', words: 'yes' },
                { value: 'false', words: 'no' },
              ],
        );
      } else if (c.kind === 'fields') {
        // Allowed or not, then each of its values in a field of its own, labelled in words.
        const value = PRESETS['pitt-boss'][option.key] as Record<string, unknown> | null;
        expect(builder).toMatch(
          new RegExp(
            `<select name="${name.replace('.', '\\.')}" id="[^"]+"><option value="none"${value === null ? ' selected=""' : ''}>${c.none}</option><option value="yes"${value === null ? '' : ' selected=""'}>yes</option></select>`,
          ),
        );
        for (const part of c.fields) expect(builder).toContain(`<label class="rule-part">${part.label} `);
        for (const part of c.fields) expect(builder).toMatch(new RegExp(`name="${name.replace('.', '\\.')}\\.${part.key}"`));
      } else if (c.kind === 'reasons') {
        // A box a reason, in the sheet's words, ticked where the rulebook calls a misdeal for it.
        const held = PRESETS['pitt-boss'][option.key] as string[];
        for (const r of c.choices) {
          expect(builder).toContain(
            `<input type="checkbox" name="${name}.${r.value}" value="on"${held.includes(r.value) ? ' checked=""' : ''}/> ${r.words.replace(/&/g, '&amp;')}</label>`,
          );
        }
        const ticked = (values: string[]) =>
          builtRules({ rulesFormat: 'pitt-boss', [name]: 'checks', ...Object.fromEntries(values.map((v) => [`${name}.${v}`, 'on'])) }, 'pitt-boss');
        expect(ticked(held)).toEqual({});
        expect(ticked([...held].reverse())).toEqual({});
        expect(ticked([...held, 'no-trumps'])).toEqual({ [option.key]: [...held, 'no-trumps'] });
        expect(ticked(['uneven-deal'])).toEqual({ [option.key]: ['uneven-deal'] });
      } else {
        expect(builder).toMatch(
          new RegExp(
            `<input name="${name.replace('.', '\\.')}" id="[^"]+" value="${optionText(PRESETS['pitt-boss'][option.key]).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}"`,
          ),
        );
      }
      // Every value the option takes, written as the form writes it, is read back as itself.
      for (const value of goodValues(option)) {
        const fields: Record<string, string> =
          c.kind === 'fields' && value !== null
            ? { [name]: 'yes', ...Object.fromEntries(Object.entries(value as Record<string, unknown>).map(([k, v]) => [`${name}.${k}`, optionText(v)])) }
            : { [name]: optionText(value) };
        const read = builtRules({ rulesFormat: 'pitt-boss', ...fields }, 'pitt-boss');
        const same = JSON.stringify(value) === JSON.stringify(PRESETS['pitt-boss'][option.key]);
        const cards = option.control.kind === 'cards' ? (value as string[]).map((card) => card.replace('♦', 'D').toUpperCase()) : value;
        expect(read, `${option.key} ${optionText(value)}`).toEqual(same ? {} : { [option.key]: cards });
      }
    });
  }

  it('is what the read API’s document says an event’s rules hold, option by option', () => {
    const format = JSON.stringify((openApiDocument() as { components: { schemas: Record<string, unknown> } }).components.schemas.FormatOptions);
    for (const option of RULE_OPTIONS)
      expect(format, option.key).toContain(
        `"${option.key}":${JSON.stringify({ ...(z.toJSONSchema(option.schema) as object), title: option.label, description: option.help }).replace(/^\{"\$schema":"[^"]+",/, '{')}`,
      );
  });

  it('finds an option by its name, and nothing for a name that is none', () => {
    expect(ruleOption('bagLimit')?.label).toBe('Bags before a penalty');
    expect(ruleOption('toString')).toBeUndefined();
    expect(ruleOption('bagLimt')).toBeUndefined();
  });
});

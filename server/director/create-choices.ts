/**
 * What a director chooses on the create form where a rulebook leaves it open: games to win a
 * match, the clocks (minutes on a match or final, and whether a clock times each game or the
 * whole match) and rule overrides (docs/rule-options.md), each left empty for the rulebook's own
 * value. Read from form fields or JSON alike into format options; whether the values make sense
 * is checked by the command (engine/formats.ts formatProblem, engine/rules.ts resolveRules), so
 * a bad choice is refused with the same sentence whichever way it came.
 */
import { type FormatId, type FormatOptions, type RulesChoice, formatOptions } from '../../engine/formats.ts';
import { parseCardList } from '../../engine/cards.ts';
import { RULE_OPTIONS, ruleOption } from '../../engine/rule-options.ts';
import { resolveRules } from '../../engine/rules.ts';
import { CommandError } from '../commands/commands.ts';
import { field, fields, parseFields } from '../http/request-input.ts';

/** Minutes as sent: '' for the rulebook's, `none` for no clock, digits or a JSON number. */
const minutes = (name: string) =>
  field.raw().optional().transform((raw, ctx): number | null | undefined => {
    if (raw === undefined || raw === '') return undefined;
    if (raw === null || (typeof raw === 'string' && /^\s*none\s*$/i.test(raw))) return null;
    const value = typeof raw === 'string' && /^\s*-?\d{1,9}\s*$/.test(raw) ? Number(raw) : raw;
    if (typeof value !== 'number') ctx.addIssue({ code: 'custom', message: `${name} must be whole minutes from 1 to 600, or none, not ${JSON.stringify(raw)}` });
    return typeof value === 'number' ? value : undefined;
  });

const ChoiceFields = fields({
  gamesToWin: field.raw().optional().transform((raw, ctx): number | undefined => {
    if (raw === undefined || raw === null || raw === '') return undefined;
    const value = typeof raw === 'string' && /^\s*-?\d{1,9}\s*$/.test(raw) ? Number(raw) : raw;
    if (typeof value !== 'number') ctx.addIssue({ code: 'custom', message: `games to win a match must be a whole number from 1 to 4 (1 = one game, 2 = best of 3), not ${JSON.stringify(raw)}` });
    return typeof value === 'number' ? value : undefined;
  }),
  clockMinutes: minutes('the match clock'),
  finalClockMinutes: minutes('the final’s clock'),
  clockPer: field
    .optionalText({ max: 10 })
    .refine((per) => per === '' || per === 'match' || per === 'game', { error: (iss) => `a clock times the whole 'match' or each 'game', not '${String(iss.input)}'` }),
  ruleOverrides: field.raw().optional(),
});

/**
 * Rule overrides from the form's lines ("bagLimit = 6", values as JSON, bare words as text) or a
 * JSON object. Names and values are checked later by resolveRules, against the preset.
 */
export function ruleOverrides(raw: unknown): Record<string, unknown> {
  if (raw === undefined || raw === null || raw === '') return {};
  if (typeof raw === 'object' && !Array.isArray(raw)) return { ...(raw as Record<string, unknown>) };
  if (typeof raw !== 'string') throw new CommandError('rule overrides are lines of option = value (such as bagLimit = 6), or a JSON object');
  const overrides: Record<string, unknown> = {};
  raw.split(/\r?\n/).forEach((line, i) => {
    const text = line.trim();
    if (text === '' || text.startsWith('#')) return;
    const at = text.indexOf('=');
    const key = at > 0 ? text.slice(0, at).trim() : '';
    if (!/^[A-Za-z][A-Za-z0-9]*$/.test(key)) throw new CommandError(`rule overrides, line ${i + 1}: '${text}' is not option = value (such as bagLimit = 6)`);
    if (key === 'preset') throw new CommandError(`rule overrides, line ${i + 1}: the preset is the format's; override its options one by one`);
    if (Object.hasOwn(overrides, key)) throw new CommandError(`rule overrides, line ${i + 1}: ${key} is given twice`);
    overrides[key] = overrideValue(key, text.slice(at + 1).trim());
  });
  return overrides;
}

/**
 * One override's value as written: JSON, or the notation the options table of the help page
 * shows: cards as players write them (`2D 2S`, `2♦ 2♠`), misdeal reasons as words
 * (`card-flipped wrong-card-count`), an object's fields as `deficit 100, strict false`.
 * Anything else stays text, for resolveRules to refuse with the option's own sentence.
 */
export function overrideValue(key: string, text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    // Not JSON: read by the control the option is asked with.
  }
  const kind = ruleOption(key)?.control.kind;
  if (/^none$/i.test(text) && kind !== 'cards' && kind !== 'reasons') return null;
  if (kind === 'cards') return parseCardList(text) ?? text;
  if (kind === 'reasons') return /^none$/i.test(text) ? [] : text.split(/[\s,]+/).filter((w) => w !== '');
  if (kind === 'yes-no' && /^(yes|no)$/i.test(text)) return /^yes$/i.test(text);
  if (kind === 'fields') {
    const entries = text.split(',').map((part) => part.trim().split(/\s+/));
    if (entries.every((e) => e.length === 2 && /^[A-Za-z]+$/.test(e[0]!))) {
      return Object.fromEntries(entries.map(([name, value]) => [name!, overrideValue('', value!)]));
    }
  }
  return text;
}

/**
 * The rules builder's changes: each `rule.<option>` field read as an override line is, kept where
 * it differs from the format's own value. The builder names the format it shows (`rulesFormat`):
 * values shown for another format would be that format's, so they are refused, not compared.
 */
export function builtRules(input: Record<string, unknown>, format: FormatId): Record<string, unknown> {
  const shown = input.rulesFormat;
  if (shown === undefined || shown === '') return {};
  if (shown !== format) throw new CommandError(`the rules builder shows the rules of ${String(shown)}, but the format chosen is ${format}; show ${format}'s rules before changing them`);
  const base = resolveRules(formatOptions(format).rules).options as unknown as Record<string, unknown>;
  const built: Record<string, unknown> = {};
  for (const { key, label } of RULE_OPTIONS) {
    const text = input[`rule.${key}`];
    if (typeof text !== 'string') continue;
    if (text.length > 200) throw new CommandError(`${label}: at most 200 characters, not ${text.length}`);
    const value = overrideValue(key, text.trim());
    if (JSON.stringify(value) !== JSON.stringify(base[key])) built[key] = value;
  }
  return built;
}

/** The rules of a round with the overrides on top: `{ preset, ...overrides }`. */
function withOverrides(rules: RulesChoice, overrides: Record<string, unknown>): RulesChoice {
  const base = typeof rules === 'string' ? { preset: rules } : rules;
  return { ...base, ...overrides };
}

/** The format's options with the director's choices on top; what the director left empty stays the rulebook's. */
export function createChoices(input: Record<string, unknown>, format: FormatId): Partial<FormatOptions> {
  const f = parseFields(input, ChoiceFields);
  const chosen: Partial<FormatOptions> = {};
  if (f.gamesToWin !== undefined) chosen.gamesToWin = f.gamesToWin;
  if (f.clockMinutes !== undefined) chosen.clockMinutes = f.clockMinutes;
  if (f.finalClockMinutes !== undefined) chosen.finalClockMinutes = f.finalClockMinutes;
  if (f.clockPer !== '') chosen.clockPer = f.clockPer as FormatOptions['clockPer'];
  const overrides = ruleOverrides(f.ruleOverrides);
  for (const [key, value] of Object.entries(builtRules(input, format))) {
    if (Object.hasOwn(overrides, key) && JSON.stringify(overrides[key]) !== JSON.stringify(value)) {
      throw new CommandError(`${ruleOption(key)!.label} is set to ${JSON.stringify(value)} in the rules builder and to ${JSON.stringify(overrides[key])} in the override lines; set it in one place`);
    }
    overrides[key] = value;
  }
  if (Object.keys(overrides).length > 0) {
    // The overrides hold in every round: a preset per round stays, with the same options changed.
    const base = formatOptions(format);
    chosen.rules = withOverrides(base.rules, overrides);
    if (base.firstRoundRules !== null) chosen.firstRoundRules = withOverrides(base.firstRoundRules, overrides);
    if (base.finalRules !== null) chosen.finalRules = withOverrides(base.finalRules, overrides);
    // How the first dealer is chosen is a rule option and the seating's method alike.
    const firstDealer = ruleOption('firstDealer').schema.safeParse(overrides.firstDealer);
    if (firstDealer.success) chosen.firstDealer = firstDealer.data;
  }
  return chosen;
}

/**
 * What a director chooses on the create form where a rulebook leaves it open: games to win a
 * match, the clocks (minutes on a match or final, and whether a clock times each game or the
 * whole match) and rule overrides (docs/rule-options.md), each left empty for the rulebook's own
 * value. Read from form fields or JSON alike into format options; whether the values make sense
 * is checked by the command (engine/formats.ts formatProblem, engine/rules.ts resolveRules), so
 * a bad choice is refused with the same sentence whichever way it came.
 */
import type { FormatOptions, RulesChoice } from '../../engine/formats.ts';
import type { EventStart } from '../../engine/structures.ts';
import { STANDARD_RULES } from '../../engine/presets.ts';
import { ruleOption } from '../../engine/rule-options.ts';
import { resolveRules } from '../../engine/rules.ts';
import { CommandError } from '../commands/command-error.ts';
import { field, fields, parseFields } from '../http/request-input.ts';
import { ruleOverrides } from './override-lines.ts';
import type { RoundKey } from '../../engine/rule-controls.ts';
import { builtRounds, rulesFromOf, startOf, startingRounds } from './rules-form.ts';

/** Minutes as sent: '' for the rulebook's, `none` for no clock, digits or a JSON number. */
const minutes = (name: string) =>
  field
    .raw()
    .optional()
    .transform((raw, ctx): number | null | undefined => {
      if (raw === undefined || raw === '') return undefined;
      if (raw === null || (typeof raw === 'string' && /^\s*none\s*$/i.test(raw))) return null;
      const value = typeof raw === 'string' && /^\s*-?\d{1,9}\s*$/.test(raw) ? Number(raw) : raw;
      if (typeof value !== 'number')
        ctx.addIssue({ code: 'custom', message: `${name} must be whole minutes from 1 to 600, or none, not ${JSON.stringify(raw)}` });
      return typeof value === 'number' ? value : undefined;
    });

/** At most this many prizes a list, each at most this long: a podium's worth, and then some. */
const MOST_PRIZES = 20;
const PRIZE_LENGTH = 200;

/** Prizes as sent: a JSON list, or the form's lines, 1st first; '' or absent for the event's own. */
const prizeList = (name: string) =>
  field
    .raw()
    .optional()
    .transform((raw, ctx): string[] | undefined => {
      if (raw === undefined || raw === null || raw === '') return undefined;
      const list =
        typeof raw === 'string'
          ? raw
              .split(/\r?\n/)
              .map((line) => line.trim())
              .filter((line) => line !== '')
          : raw;
      if (!Array.isArray(list) || list.some((p) => typeof p !== 'string' || p.trim() === '' || p.length > PRIZE_LENGTH) || list.length > MOST_PRIZES) {
        ctx.addIssue({
          code: 'custom',
          message: `${name} are up to ${MOST_PRIZES} descriptions of up to ${PRIZE_LENGTH} characters, one a line, 1st first`,
        });
        return undefined;
      }
      return list.map((p) => (p as string).trim());
    });

const ChoiceFields = fields({
  gamesToWin: field
    .raw()
    .optional()
    .transform((raw, ctx): number | undefined => {
      if (raw === undefined || raw === null || raw === '') return undefined;
      const value = typeof raw === 'string' && /^\s*-?\d{1,9}\s*$/.test(raw) ? Number(raw) : raw;
      if (typeof value !== 'number')
        ctx.addIssue({
          code: 'custom',
          message: `games to win a match must be a whole number from 1 to 4 (1 = one game, 2 = best of 3), not ${JSON.stringify(raw)}`,
        });
      return typeof value === 'number' ? value : undefined;
    }),
  clockMinutes: minutes('the match clock'),
  finalClockMinutes: minutes('the final’s clock'),
  clockPer: field.optionalText({ max: 10 }).refine((per) => per === '' || per === 'match' || per === 'game', {
    error: (iss) => `a clock times the whole 'match' or each 'game', not '${String(iss.input)}'`,
  }),
  ruleOverrides: field.raw().optional(),
  // An entry fee, whatever the rulebook: the price, and an early price up to a day.
  entryFee: field.optionalWhole({ min: 0, max: 100000 }),
  earlyFee: field.optionalWhole({ min: 0, max: 100000 }),
  earlyUntil: field.optionalText({ max: 10 }),
  // The entrants the event is made for, as its sheet says it.
  teams: field.optionalWhole({ min: 2, max: 1024 }),
  // Prizes by place; a second-chance bracket's by its own places.
  prizes: prizeList('prizes'),
  secondChancePrizes: prizeList('second-chance prizes'),
});

/** The entry fee chosen on the form, or undefined for the rulebook's own. */
function feesOf(f: { entryFee: number | null; earlyFee: number | null; earlyUntil: string }): FormatOptions['fees'] | undefined {
  if (f.entryFee === null) {
    if (f.earlyFee !== null || f.earlyUntil !== '') throw new CommandError('an early price needs the entry fee it is cheaper than; give the entry fee too');
    return undefined;
  }
  if ((f.earlyFee === null) !== (f.earlyUntil === ''))
    throw new CommandError('an early price needs the day it ends, and a day needs the early price; give both or neither');
  if (f.earlyUntil !== '' && !/^\d{4}-\d{2}-\d{2}$/.test(f.earlyUntil))
    throw new CommandError(`the early price’s last day must be a date such as 2024-09-12, not '${f.earlyUntil}'`);
  // One price: early and late alike; the day then changes nothing.
  return f.earlyFee === null
    ? { early: f.entryFee, late: f.entryFee, deadline: '2000-01-01' }
    : { early: f.earlyFee, late: f.entryFee, deadline: f.earlyUntil };
}

/** The rules builder's changes to the main rounds' rules: the options that differ from the format's own. */
export function builtRules(input: Record<string, unknown>, format: string): Record<string, unknown> {
  return builtRounds(input, format)?.rules ?? {};
}

/** The rules of a round with the overrides on top: `{ preset, ...overrides }`. */
function withOverrides(rules: RulesChoice, overrides: Record<string, unknown>): RulesChoice {
  const base = typeof rules === 'string' ? { preset: rules } : rules;
  return { ...base, ...overrides };
}

/** A whole number as a form or JSON sends it; anything else as sent, for the format's check to say what is wrong. */
const wholeOrAsSent = (value: unknown): unknown => (typeof value === 'string' && /^\s*\d{1,9}\s*$/.test(value) ? Number(value) : value);
const given = (value: unknown): boolean => value !== undefined && value !== null && value !== '';

/** Pools into a playoff: how many pools, how many of each go on, and the playoff, as sent; checked in words by engine/formats.ts. */
function poolChoices(input: Record<string, unknown>): Partial<FormatOptions> {
  const chosen: Partial<FormatOptions> = {};
  if (given(input.pools)) chosen.pools = wholeOrAsSent(input.pools) as number;
  if (given(input.advance)) chosen.advance = wholeOrAsSent(input.advance) as number;
  if (given(input.playoff)) chosen.playoff = input.playoff as FormatOptions['playoff'];
  return chosen;
}

/**
 * The event the form's `format` and `rules` choose, its options with the director's choices on
 * top; what the director left empty stays the structure's or the rulebook's.
 */
export function createChoices(input: Record<string, unknown>, format: unknown): { start: EventStart; options: FormatOptions } {
  const start = startOf(format, input);
  const f = parseFields(input, ChoiceFields);
  const chosen: Partial<FormatOptions> = {};
  if (f.teams !== null) chosen.teams = f.teams;
  if (f.prizes !== undefined) chosen.prizes = f.prizes;
  if (f.secondChancePrizes !== undefined) chosen.secondChancePrizes = f.secondChancePrizes;
  if (f.gamesToWin !== undefined) chosen.gamesToWin = f.gamesToWin;
  if (f.clockMinutes !== undefined) chosen.clockMinutes = f.clockMinutes;
  if (f.finalClockMinutes !== undefined) chosen.finalClockMinutes = f.finalClockMinutes;
  if (f.clockPer !== '') chosen.clockPer = f.clockPer as FormatOptions['clockPer'];
  const fees = feesOf(f);
  if (fees !== undefined) chosen.fees = fees;
  Object.assign(chosen, poolChoices(input));
  const lines = ruleOverrides(f.ruleOverrides);
  const base = start.options;
  // Each round's rules: the builder's values (a value set once holds in every round but those
  // with their own), a standard game where the event starts from one, then the override lines.
  const built = builtRounds(input, start.chosen) ?? (rulesFromOf(start) === 'standard' ? standardRounds(start) : null);
  const main = built?.rules ?? {};
  for (const [key, value] of Object.entries(lines)) {
    if (Object.hasOwn(main, key) && JSON.stringify(main[key]) !== JSON.stringify(value)) {
      throw new CommandError(
        `${ruleOption(key)?.label ?? key} is set to ${JSON.stringify(main[key])} in the rules builder and to ${JSON.stringify(value)} in the override lines; set it in one place`,
      );
    }
  }
  for (const round of ['rules', 'firstRoundRules', 'finalRules'] as const) {
    const rules = base[round];
    if (rules === null) continue;
    const overrides = { ...(built?.[round] ?? {}), ...lines };
    if (Object.keys(overrides).length > 0) chosen[round] = withOverrides(rules, overrides);
  }
  // How the first dealer is chosen is a rule option and the seating's method alike.
  const firstDealer = ruleOption('firstDealer').schema.safeParse({ ...main, ...lines }.firstDealer);
  if (firstDealer.success) chosen.firstDealer = firstDealer.data;
  return { start, options: { ...base, ...chosen } };
}

/** A standard game in every round, as overrides of the preset each round records. */
function standardRounds(start: EventStart): Partial<Record<RoundKey, Record<string, unknown>>> {
  return Object.fromEntries(
    startingRounds(start).map((round) => {
      const preset = resolveRules(round.preset).options as unknown as Record<string, unknown>;
      return [round.key, Object.fromEntries(Object.entries(STANDARD_RULES).filter(([k, v]) => JSON.stringify(v) !== JSON.stringify(preset[k])))];
    }),
  );
}

/**
 * Resolving a `rules` value (a preset id, or `{ "preset": id, ...overrides }`) into checked
 * RuleOptions. A tournament director may override any option per event, so every override is
 * checked here, once, and the rest of the engine can trust the options it is handed.
 */
import { EVENT_RULES, type RulesNaming } from './bid.ts';
import { parseCard } from './cards.ts';
import { deckFor } from './deck.ts';
import { cardSymbol } from './rule-lines.ts';
import { PRESETS, PRESET_IDS, type PresetId, type RuleOptions, isPresetId } from './presets.ts';
import { RULE_OPTIONS, optionProblem, optionText, ruleOption } from './rule-options.ts';

/** Rules as a game plays them: the options, the preset they came from, and a name for messages. */
export interface Rules {
  preset: PresetId;
  /** The preset id, or `unc-300 (overridden)` when options were overridden; used in error messages. */
  name: string;
  options: RuleOptions;
}

/**
 * How a refusal names these rules: a preset as it was taken, by its id (as a record names it);
 * rules changed from it as the event's own, never as "unc-300 (overridden)".
 */
export function rulesNaming(rules: Rules): RulesNaming {
  return rules.name === rules.preset ? rules.preset : EVENT_RULES;
}

/** A `rules` value that names no preset or overrides an option with a bad value. */
export class RulesError extends Error {}

// A game's rules value is resolved again for every hand it deals, bids and scores; a value
// already resolved is answered from here while each of its fields is still the one it held.
const resolved = new WeakMap<object, { fields: [string, unknown][]; rules: Rules }>();

/**
 * Resolves a `rules` value into checked options; throws RulesError saying what is wrong. The
 * answer may be shared with other calls for the same value: read it, do not change it.
 */
export function resolveRules(value: unknown): Rules {
  if (typeof value === 'object' && value !== null) {
    const known = resolved.get(value);
    if (known && sameFields(value as Record<string, unknown>, known.fields)) return known.rules;
    const rules = resolveRulesValue(value);
    resolved.set(value, { fields: Object.entries(value), rules });
    return rules;
  }
  return resolveRulesValue(value);
}

function sameFields(value: Record<string, unknown>, fields: [string, unknown][]): boolean {
  let count = 0;
  for (const key in value) {
    if (!Object.hasOwn(value, key)) continue;
    const field = fields[count++];
    if (field === undefined || field[0] !== key || field[1] !== value[key]) return false;
  }
  return count === fields.length;
}

function resolveRulesValue(value: unknown): Rules {
  if (typeof value === 'string') {
    if (!isPresetId(value)) throw new RulesError(`rules: unknown preset '${value}'; the presets are ${PRESET_IDS.join(', ')}`);
    return { preset: value, name: value, options: PRESETS[value] };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new RulesError(`rules: expected a preset id or { "preset": id, ...options }, got ${JSON.stringify(value)}`);
  }
  const { preset, ...overrides } = value as Record<string, unknown>;
  if (preset === undefined) throw new RulesError('rules: the "preset" field is missing');
  if (!isPresetId(preset)) {
    throw new RulesError(`rules: unknown preset ${JSON.stringify(preset)}; the presets are ${PRESET_IDS.join(', ')}`);
  }
  const options: Record<string, unknown> = { ...PRESETS[preset] };
  for (const [key, override] of Object.entries(overrides)) {
    const option = ruleOption(key);
    if (!option) throw new RulesError(`rules: '${key}' is not a rule option; see the rule options at /help/rule-options (docs/rule-options.md)`);
    const problem = optionProblem(option, override);
    if (problem) throw new RulesError(`rules: ${problem}`);
    options[key] = override;
  }
  const checked = options as unknown as RuleOptions;
  checkTogether(checked);
  const name = Object.keys(overrides).length === 0 ? preset : `${preset} (overridden)`;
  return { preset, name, options: checked };
}

/** Checks that hold between options, whichever preset they started from. */
function checkTogether(options: RuleOptions): void {
  if (options.target === null && options.hands === null) {
    throw new RulesError(`rules: a game needs points to win or a number of hands (${label('target')} and ${label('hands')} are both none)`);
  }
  if (options.teamMinimum > options.teamMaximum) {
    throw new RulesError(`rules: ${label('teamMinimum')}, ${options.teamMinimum}, is above ${label('teamMaximum').toLowerCase()}, ${options.teamMaximum}`);
  }
  const size = deckFor(options).cards.length;
  if (size !== 52) {
    throw new RulesError(
      `rules: the deck has ${size} cards (${options.removed.length} taken out, jokers ${options.jokers ? 'in' : 'out'}); four hands of 13 need 52`,
    );
  }
}

/**
 * Choices that contradict each other, each explained in words with what would work: a card
 * promoted above the ace of spades that is also taken out of the deck would silently stop
 * being a trump. Asked of new events before they are made (older ones keep the rules they
 * were played under); an empty list when the options agree.
 */
export function rulesConflicts(options: RuleOptions): string[] {
  const removed = new Set(options.removed.map(parseCard));
  const both = options.promoted.filter((card) => removed.has(parseCard(card)));
  return both.map((card) => {
    const name = cardSymbol(parseCard(card)!);
    return `${name} is both taken out of the deck (${label('removed')}) and ranked as a trump (${label('promoted')}); take it out of one of the two: keep it in the deck to play it as a trump, or take it off the trumps`;
  });
}

/**
 * Where two sets of options differ, in the options' words, `ours` named `here` and `theirs`
 * `there`: "Points to win a game is 200 here and 300 in the record" (the first three, and how
 * many more).
 */
export function rulesDifference(ours: RuleOptions, theirs: RuleOptions, here: string, there: string): string {
  const differ = RULE_OPTIONS.filter((o) => JSON.stringify(ours[o.key]) !== JSON.stringify(theirs[o.key]));
  const text = (v: unknown) => (typeof v === 'boolean' ? (v ? 'yes' : 'no') : optionText(v));
  const said = differ.slice(0, 3).map((o) => `${o.label} is ${text(ours[o.key])} ${here} and ${text(theirs[o.key])} ${there}`);
  const more = differ.length > 3 ? `; and ${differ.length - 3} more` : '';
  return `${said.join('; ')}${more}`;
}

/** An option's name as a refusal says it. */
const label = (key: keyof RuleOptions): string => ruleOption(key)!.label;

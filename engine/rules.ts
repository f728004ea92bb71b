/**
 * Resolving a `rules` value (a preset id, or `{ "preset": id, ...overrides }`) into checked
 * RuleOptions. A tournament director may override any option per event, so every override is
 * checked here, once, and the rest of the engine can trust the options it is handed.
 */
import { parseCard } from './cards.ts';
import { deckFor } from './deck.ts';
import { PRESETS, PRESET_IDS, type PresetId, type RuleOptions, isPresetId } from './presets.ts';

/** Rules as a game plays them: the options, the preset they came from, and a name for messages. */
export interface Rules {
  preset: PresetId;
  /** The preset id, or `unc-300 (overridden)` when options were overridden; used in error messages. */
  name: string;
  options: RuleOptions;
}

/** A `rules` value that names no preset or overrides an option with a bad value. */
export class RulesError extends Error {}

type Check = (value: unknown) => string | null;

const wholeNumber =
  (min: number, max = Infinity): Check =>
  (v) =>
    Number.isInteger(v) && (v as number) >= min && (v as number) <= max
      ? null
      : max === Infinity
        ? `a whole number ${min} or more`
        : `a whole number ${min}–${max}`;
const orNull =
  (check: Check): Check =>
  (v) => {
    if (v === null) return null;
    const problem = check(v);
    return problem === null ? null : `${problem}, or null`;
  };
const boolean: Check = (v) => (typeof v === 'boolean' ? null : 'true or false');
const oneOf =
  (...values: string[]): Check =>
  (v) =>
    typeof v === 'string' && values.includes(v) ? null : `one of ${values.map((x) => `"${x}"`).join(', ')}`;
const naturalCards: Check = (v) =>
  Array.isArray(v) && v.every((c) => typeof c === 'string' && parseCard(c) !== null && parseCard(c)! < 52)
    ? null
    : 'a list of natural cards such as 2H 2C (or 2♥ 2♣)';
const strings: Check = (v) =>
  Array.isArray(v) && v.every((s) => typeof s === 'string' && s.length > 0) ? null : 'a list of non-empty strings';
const object =
  (fields: Record<string, Check>): Check =>
  (v) => {
    if (typeof v !== 'object' || v === null || Array.isArray(v)) {
      return `an object with ${Object.keys(fields).join(', ')}`;
    }
    for (const [key, check] of Object.entries(fields)) {
      if (!(key in v)) return `an object with ${Object.keys(fields).join(', ')} (${key} is missing)`;
      const problem = check((v as Record<string, unknown>)[key]);
      if (problem) return `an object whose ${key} is ${problem}`;
    }
    const extra = Object.keys(v).find((key) => !(key in fields));
    return extra ? `an object with only ${Object.keys(fields).join(', ')} (not ${extra})` : null;
  };

const CHECKS: Record<keyof RuleOptions, Check> = {
  target: orNull(wholeNumber(1)),
  hands: orNull(wholeNumber(1)),
  removed: naturalCards,
  jokers: boolean,
  promoted: naturalCards,
  biddingOrder: oneOf('clockwise', 'non-dealing-team-first'),
  teamMinimum: wholeNumber(0, 13),
  teamMaximum: wholeNumber(0, 13),
  nil: orNull(wholeNumber(0)),
  blindNil: orNull(wholeNumber(0)),
  blindNilDeficit: wholeNumber(0),
  blindBid: orNull(object({ deficit: wholeNumber(0), strict: boolean, minimumTeam: wholeNumber(0, 13) })),
  nilTricks: oneOf('overtricks', 'nothing'),
  overtrickPoints: boolean,
  bagsCounted: boolean,
  bagLimit: orNull(wholeNumber(1)),
  bagPenalty: wholeNumber(0),
  bigBid: orNull(
    object({ from: wholeNumber(0, 13), madeFloor: wholeNumber(0), madeBonus: wholeNumber(0), setPoints: orNull(wholeNumber(0)) }),
  ),
  firstSeven: orNull(wholeNumber(0)),
  renegePenalty: oneOf('transfer', 'unc', 'asher', 'pitt-boss'),
  renegeTricks: wholeNumber(0, 13),
  renegePoints: wholeNumber(0),
  sixFour: boolean,
  boston: boolean,
  setOut: orNull(wholeNumber(1)),
  firstDealer: oneOf('high-card', 'coin-toss', 'random'),
  afterMisdeal: oneOf('same-dealer', 'next-dealer'),
  misdealReasons: strings,
  dealerCarriesAcrossGames: boolean,
};

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
    if (!Object.hasOwn(CHECKS, key)) {
      throw new RulesError(`rules: '${key}' is not a rule option; see the rule options at /help/rule-options (docs/rule-options.md)`);
    }
    const problem = CHECKS[key as keyof RuleOptions](override);
    if (problem) throw new RulesError(`rules: option ${key} must be ${problem}, got ${JSON.stringify(override)}`);
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
    throw new RulesError('rules: a game needs a target or a number of hands (target and hands are both null)');
  }
  if (options.teamMinimum > options.teamMaximum) {
    throw new RulesError(`rules: teamMinimum ${options.teamMinimum} is above teamMaximum ${options.teamMaximum}`);
  }
  const size = deckFor(options).cards.length;
  if (size !== 52) {
    throw new RulesError(
      `rules: the deck has ${size} cards (removed ${options.removed.length}, jokers ${options.jokers}); four hands of 13 need 52`,
    );
  }
}

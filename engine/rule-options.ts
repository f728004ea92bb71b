/**
 * The rule options, each written once: its values as a zod schema, its name in a director's
 * words, what it does, and the control a form asks it with. Everything else is derived from
 * here: `resolveRules` checks an override against the option's schema and refuses it in the
 * option's words, the record schema (and its published JSON Schema) holds each option to the
 * same schema, the rules sheet says which of its sentences each option is worded in
 * (engine/rule-lines.ts), the create form draws one control per option, and the reference
 * (docs/rule-options.md) is generated from the same entries.
 */
import { z } from 'zod';
import { NATURAL_CARD_PATTERN } from './cards.ts';
import type { RuleOptions } from './presets.ts';

/** How a form asks for an option's value. */
export type RuleControl =
  /** A whole number; `none` says what no value means where the option may have none. */
  | { kind: 'number'; min: number; max: number | null; none: string | null }
  | { kind: 'yes-no' }
  | { kind: 'choice'; choices: readonly RuleChoice[] }
  /** Natural cards, as players write them (`2D 2S`, `2♦ 2♠`), or none. */
  | { kind: 'cards' }
  /** Any of a list of named reasons, in order. */
  | { kind: 'reasons'; choices: readonly RuleChoice[] }
  /** An option made of a few values, or none (`none` says what no value means). */
  | { kind: 'fields'; fields: readonly RuleField[]; none: string; example: string };

/** One value of a choice, and how a director reads it. */
export interface RuleChoice {
  value: string;
  words: string;
}

/** One of the values an option made of a few holds. */
export interface RuleField {
  key: string;
  label: string;
  help: string;
  /** What the value must be, as a refusal says it. */
  expects: string;
  control: Extract<RuleControl, { kind: 'number' | 'yes-no' }>;
}

/** The rules sheet's lines on the rules of play (the sentences are engine/rule-lines.ts's). */
export type SheetLineKey =
  | 'game'
  | 'deck'
  | 'trumps'
  | 'play'
  | 'bidding-order'
  | 'bid-range'
  | 'nil'
  | 'nil-tricks'
  | 'blind-nil'
  | 'blind-bid'
  | 'contract'
  | 'bags'
  | 'big-bid'
  | 'first-seven'
  | 'six-four'
  | 'boston'
  | 'set-out'
  | 'renege'
  | 'claims'
  | 'first-dealer'
  | 'dealer-across-games'
  | 'misdeal';

/** One rule option, written once. */
export interface RuleOption<K extends keyof RuleOptions = keyof RuleOptions> {
  key: K;
  /** The option's name in a director's words, as the form and every refusal say it. */
  label: string;
  /** What the option does, in a sentence. */
  help: string;
  /** The values the option takes. */
  schema: z.ZodType<RuleOptions[K]>;
  /** What a value must be, in words, as a refusal says it. */
  expects: string;
  control: RuleControl;
  /** The rules sheet's lines whose sentences this option's value changes. */
  sheet: readonly SheetLineKey[];
}

/** A value's kind: its schema, its words and its control, built together so they agree. */
interface Kind<T> {
  schema: z.ZodType<T>;
  expects: string;
  control: RuleControl;
}

const whole = (min: number, max: number | null = null): Kind<number> => ({
  schema: max === null ? z.number().int().min(min) : z.number().int().min(min).max(max),
  expects: max === null ? `a whole number ${min} or more` : `a whole number ${min}–${max}`,
  control: { kind: 'number', min, max, none: null },
});

/** A number that may be none: `none` says what no value means ("no limit"). */
const orNone = (kind: Kind<number>, none: string): Kind<number | null> => ({
  schema: kind.schema.nullable(),
  expects: `${kind.expects}, or none (${none})`,
  control: { ...(kind.control as Extract<RuleControl, { kind: 'number' }>), none },
});

const yesNo: Kind<boolean> = { schema: z.boolean(), expects: 'yes or no (true or false)', control: { kind: 'yes-no' } };

const choiceWords = (choices: readonly RuleChoice[]) => choices.map((c) => `${c.value} (${c.words})`).join(', ');

function choice<T extends string>(...choices: readonly { value: T; words: string }[]): Kind<T> {
  return {
    schema: z.enum(choices.map((c) => c.value) as [T, ...T[]]),
    expects: `one of ${choiceWords(choices)}`,
    control: { kind: 'choice', choices },
  };
}

const cards: Kind<string[]> = {
  schema: z.array(z.string().regex(NATURAL_CARD_PATTERN)),
  expects: 'natural cards as players write them, such as 2H 2C (or 2♥ 2♣), or none',
  control: { kind: 'cards' },
};

/** The misdeal reasons a table knows, as the sheet words them; a rulebook may name others. */
export const MISDEAL_REASONS: readonly RuleChoice[] = [
  { value: 'wrong-card-count', words: 'a player not dealt 13 cards' },
  { value: 'no-face-cards', words: 'a hand with no face card (J, Q, K), called before the bidding' },
  { value: 'no-trumps', words: 'a hand with no trump, called before the bidding' },
  { value: 'leaked-card-details', words: 'a player telling the partner which cards are held, during the bidding' },
  { value: 'card-flipped', words: 'a card flipped during the deal' },
  { value: 'no-cut-offered', words: 'a deal made without offering the player on the dealer’s right a cut' },
  { value: 'card-exposed', words: 'a card exposed during the deal' },
  { value: 'uneven-deal', words: 'an uneven deal (the dealer not getting the last card)' },
];

const reasons: Kind<string[]> = {
  schema: z.array(z.string().min(1)),
  expects: 'a list of reasons, such as card-flipped wrong-card-count, or none',
  control: { kind: 'reasons', choices: MISDEAL_REASONS },
};

type FieldKind = Kind<number> | Kind<number | null> | Kind<boolean>;

/** An option made of a few values, or none. */
function fields<T extends object>(none: string, example: string, parts: { [F in keyof T]: { label: string; help: string; kind: FieldKind } }): Kind<T | null> {
  const entries = Object.entries(parts) as [string, { label: string; help: string; kind: FieldKind }][];
  return {
    schema: z.strictObject(Object.fromEntries(entries.map(([key, f]) => [key, f.kind.schema]))).nullable() as unknown as z.ZodType<T | null>,
    expects: `none (${none}), or its values written as ${example}`,
    control: {
      kind: 'fields',
      none,
      example,
      fields: entries.map(([key, f]) => ({ key, label: f.label, help: f.help, expects: f.kind.expects, control: f.kind.control as RuleField['control'] })),
    },
  };
}

type Entry<K extends keyof RuleOptions> = { label: string; help: string; sheet: readonly SheetLineKey[] } & Kind<RuleOptions[K]>;

/** Every option, in the order the reference and the form list them. */
const ENTRIES: { [K in keyof RuleOptions]: Entry<K> } = {
  target: {
    sheet: ['game'],
    label: 'Points to win a game',
    help: 'Points that win the game; none when the game is a fixed number of hands.',
    ...orNone(whole(1), 'a game of a number of hands'),
  },
  hands: {
    sheet: ['game'],
    label: 'Hands in a game',
    help: 'A game of exactly this many hands (ties play on); none for a game to a number of points.',
    ...orNone(whole(1), 'a game to a number of points'),
  },
  removed: { sheet: ['deck', 'trumps'], label: 'Cards taken out', help: 'Cards taken out of the 52 (names as in records).', ...cards },
  jokers: { sheet: ['deck', 'trumps'], label: 'Jokers', help: 'Whether the two jokers are in the deck, as the two highest trumps.', ...yesNo },
  promoted: {
    sheet: ['trumps'],
    label: 'Trumps above the ace of spades',
    help: 'Non-natural trumps ranked just below the jokers and above A♠, high to low (e.g. 2D, 2S).',
    ...cards,
  },
  biddingOrder: {
    sheet: ['bidding-order'],
    label: 'Who bids first',
    help: 'Who bids first.',
    ...choice({ value: 'clockwise', words: 'clockwise from the dealer’s left' }, { value: 'non-dealing-team-first', words: 'the non-dealing team first' }),
  },
  teamMinimum: {
    sheet: ['bid-range', 'blind-bid'],
    label: 'Board (the least a team may bid)',
    help: 'The least a team may bid (the partner’s bid when one partner bids nil).',
    ...whole(0, 13),
  },
  teamMaximum: { sheet: ['bid-range'], label: 'The most a team may bid', help: 'The most a team may bid.', ...whole(0, 13) },
  nil: {
    sheet: ['nil', 'bid-range', 'nil-tricks'],
    label: 'Nil',
    help: 'Points for a nil made / lost; none when nil may not be bid.',
    ...orNone(whole(0), 'no nil'),
  },
  blindNil: {
    sheet: ['blind-nil', 'bid-range', 'nil-tricks'],
    label: 'Blind nil',
    help: 'Points for a blind nil made / lost; none when blind nil may not be bid.',
    ...orNone(whole(0), 'no blind nil'),
  },
  blindNilDeficit: {
    sheet: ['blind-nil'],
    label: 'Blind nil only when behind by',
    help: 'How far behind a team must be (at least) to bid blind nil.',
    ...whole(0),
  },
  blindBid: {
    sheet: ['blind-bid'],
    label: 'Blind bids',
    help: 'Blind team bids (both partners bid blind), or none when not allowed.',
    ...fields<NonNullable<RuleOptions['blindBid']>>('no blind bids', 'deficit 100, strict false, minimumTeam 4', {
      deficit: { label: 'only when behind by', help: 'How far behind (opponents’ score minus the team’s) the team must be before the hand.', kind: whole(0) },
      strict: { label: 'strictly more behind than that', help: 'True when the team must be strictly more than that far behind.', kind: yesNo },
      minimumTeam: { label: 'the least a blind bid may be', help: 'The lowest team total a blind bid may have.', kind: whole(0, 13) },
    }),
  },
  blindBidDeclared: {
    sheet: ['blind-bid'],
    label: 'Blind bids are said',
    help: 'When a blind bid is made: at the bidders’ turn, or declared by the team before the cards are dealt.',
    ...choice({ value: 'in-turn', words: 'at the bidders’ turn' }, { value: 'before-deal', words: 'before the cards are dealt' }),
  },
  nilTricks: {
    sheet: ['nil-tricks'],
    label: 'A nil bidder’s tricks',
    help: 'What a nil bidder’s tricks are worth to the team: overtricks (a point and a bag), or nothing.',
    ...choice({ value: 'overtricks', words: 'count as overtricks' }, { value: 'nothing', words: 'score nothing' }),
  },
  overtrickPoints: { sheet: ['bags'], label: 'Overtricks score a point', help: 'Whether overtricks score a point each.', ...yesNo },
  bagsCounted: { sheet: ['bags', 'renege'], label: 'Overtricks count as bags', help: 'Whether overtricks are counted as bags.', ...yesNo },
  bagLimit: {
    sheet: ['bags'],
    label: 'Bags before a penalty',
    help: 'Every this-many bags costs the bag penalty and the count restarts; none for no penalty.',
    ...orNone(whole(1), 'no bag penalty'),
  },
  bagPenalty: { sheet: ['bags'], label: 'Bag penalty', help: 'Points lost each time the bag limit is reached.', ...whole(0) },
  bigBid: {
    sheet: ['big-bid'],
    label: 'Big bids (10 for 200)',
    help: 'The "10 for 200" rule, or none.',
    ...fields<NonNullable<RuleOptions['bigBid']>>('a big bid scores like any other', 'from 10, madeFloor 200, madeBonus 0, setPoints none', {
      from: { label: 'from a team bid of', help: 'Team bids at or above this are "10 for 200" bids.', kind: whole(0, 13) },
      madeFloor: { label: 'made, worth at least', help: 'Made: the contract is worth at least this many points (before overtricks).', kind: whole(0) },
      madeBonus: { label: 'made, a bonus of', help: 'Made: points added on top of 10 × bid.', kind: whole(0) },
      setPoints: {
        label: 'set, it loses',
        help: 'Set: the team loses this many points; none means the ordinary −10 × bid.',
        kind: orNone(whole(0), '10 a trick bid'),
      },
    }),
  },
  firstSeven: {
    sheet: ['first-seven'],
    label: 'First seven tricks bonus',
    help: 'Bonus for a team that wins the first 7 tricks of a hand; none for no bonus.',
    ...orNone(whole(0), 'no bonus'),
  },
  renegePenalty: {
    sheet: ['renege'],
    label: 'Renege penalty',
    help: 'How an upheld renege claim is paid.',
    ...choice(
      { value: 'transfer', words: 'the tricks go to the other team' },
      { value: 'unc', words: 'the tricks are lost, and must still make the bid' },
      { value: 'asher', words: 'credited now, the rest owed from the next hand' },
      { value: 'pitt-boss', words: 'the side that loses the claim pays' },
    ),
  },
  renegeTricks: { sheet: ['renege'], label: 'Tricks a renege costs', help: 'Tricks a renege costs.', ...whole(0, 13) },
  renegePoints: { sheet: ['renege'], label: 'Points a renege pays', help: 'Flat points the other team gets for a renege; 0 for none.', ...whole(0) },
  sixFour: {
    sheet: ['six-four'],
    label: '6–4 bids not played',
    help: 'Bids of exactly 6 and 4 (no nil or blind) are not played: +60 / +40, no bags.',
    ...yesNo,
  },
  boston: { sheet: ['boston'], label: 'A Boston wins the game', help: 'A team that takes all 13 tricks wins the game at once.', ...yesNo },
  setOut: {
    sheet: ['set-out'],
    label: 'Sets that lose the game',
    help: 'A team’s n-th set in a game loses it; none for no set-out.',
    ...orNone(whole(1), 'no set-out'),
  },
  firstDealer: {
    sheet: ['first-dealer'],
    label: 'First dealer',
    help: 'How the first dealer is chosen.',
    ...choice({ value: 'high-card', words: 'a draw for high card' }, { value: 'coin-toss', words: 'a coin toss' }, { value: 'random', words: 'a random draw' }),
  },
  afterMisdeal: {
    sheet: ['misdeal'],
    label: 'After a misdeal',
    help: 'Who deals after a misdeal.',
    ...choice(
      { value: 'same-dealer', words: 'the same dealer deals again' },
      { value: 'next-dealer', words: 'the deal passes on' },
      { value: 'next-dealer-after-flip', words: 'the deal passes on after a card flipped in the deal; otherwise the same dealer deals again' },
    ),
  },
  misdealReasons: { sheet: ['misdeal'], label: 'Misdeal when', help: 'The reasons a misdeal may be called for.', ...reasons },
  dealerCarriesAcrossGames: {
    sheet: ['dealer-across-games'],
    label: 'Deal carries across games',
    help: 'The dealer rotation carries on across the games of a match.',
    ...yesNo,
  },
};

/** Every rule option, in the order the reference and the form list them. */
export const RULE_OPTIONS: readonly RuleOption[] = (Object.keys(ENTRIES) as (keyof RuleOptions)[]).map((key) => ({ key, ...ENTRIES[key] }) as RuleOption);

const BY_KEY: ReadonlyMap<string, RuleOption> = new Map(RULE_OPTIONS.map((o) => [o.key, o]));

/** The option named `key`, or undefined for a name that is no rule option. */
export function ruleOption<K extends keyof RuleOptions>(key: K): RuleOption<K>;
export function ruleOption(key: string): RuleOption | undefined;
export function ruleOption(key: string): RuleOption | undefined {
  return BY_KEY.get(key);
}

/** A choice's words as the option's control says them ('a coin toss'), or undefined for a value it does not offer. */
export function choiceLabel<K extends keyof RuleOptions>(key: K, value: unknown): string | undefined {
  const control = ruleOption(key).control;
  return control.kind === 'choice' || control.kind === 'reasons' ? control.choices.find((c) => c.value === value)?.words : undefined;
}

/**
 * A choice that sets a few options at once, as a flyer says it in one phrase ("overtricks score
 * nothing"). The form asks it in place of its options; the override lines still set each one.
 */
export interface CompoundChoice {
  key: string;
  label: string;
  help: string;
  options: readonly (keyof RuleOptions)[];
  choices: readonly (RuleChoice & { set: Partial<RuleOptions> })[];
}

/** Overtricks: what a trick over the bid scores, and whether it is a bag. */
export const OVERTRICKS: CompoundChoice = {
  key: 'overtricks',
  label: 'Overtricks',
  help: 'What a trick taken over the bid scores, and whether it counts toward the bag penalty.',
  options: ['overtrickPoints', 'bagsCounted'],
  choices: [
    { value: 'point-and-bag', words: 'score 1 each and count as bags', set: { overtrickPoints: true, bagsCounted: true } },
    { value: 'point', words: 'score 1 each, with no bags kept', set: { overtrickPoints: true, bagsCounted: false } },
    { value: 'bag', words: 'score nothing, but count as bags', set: { overtrickPoints: false, bagsCounted: true } },
    { value: 'nothing', words: 'score nothing (a team is credited only with its bid)', set: { overtrickPoints: false, bagsCounted: false } },
  ],
};

/** Every choice that sets a few options at once. */
export const COMPOUND_CHOICES: readonly CompoundChoice[] = [OVERTRICKS];

/** The compound choice the options' values make, or undefined where none of its choices matches. */
export function compoundValue(compound: CompoundChoice, options: Partial<RuleOptions>): string | undefined {
  return compound.choices.find((c) => Object.entries(c.set).every(([k, v]) => options[k as keyof RuleOptions] === v))?.value;
}

/** The names of the rule options, in order. */
export const RULE_OPTION_NAMES: readonly (keyof RuleOptions)[] = RULE_OPTIONS.map((o) => o.key);

/** An option's value in the notation the override lines and the reference write it: `2D 2S`, `none`, `deficit 100, strict false`. */
export function optionText(value: unknown): string {
  if (value === null) return 'none';
  if (Array.isArray(value)) return value.length === 0 ? 'none' : value.join(' ');
  if (typeof value === 'object')
    return Object.entries(value as Record<string, unknown>)
      .map(([k, v]) => `${k} ${optionText(v)}`)
      .join(', ');
  return String(value);
}

/**
 * What is wrong with `value` as the option's value, in the option's words; null when nothing is.
 * `names`: whether a part of an option made of a few is named by its key too, as the override
 * lines write it (a form's field beside the problem needs only its words).
 */
export function optionProblem(option: RuleOption, value: unknown, names = true): string | null {
  const checked = option.schema.safeParse(value);
  if (checked.success) return null;
  // An option made of a few values says which of them is wrong.
  if (option.control.kind === 'fields' && typeof value === 'object' && value !== null && !Array.isArray(value)) {
    const issue = checked.error.issues[0]!;
    const given = value as Record<string, unknown>;
    const part = option.control.fields.find((f) => f.key === issue.path[0]);
    if ((issue.code as string) === 'unrecognized_keys') {
      return `${option.label}: ${String((issue as { keys?: string[] }).keys?.[0])} is not one of its values; write none (${option.control.none}), or ${option.control.example}`;
    }
    const key = names && part ? ` (${part.key})` : '';
    if (part && given[part.key] === undefined)
      return names ? `${option.label}: ${part.label}${key} is missing from ${JSON.stringify(value)}` : `${option.label}: ${part.label} is missing`;
    if (part && !names) return `${option.label}, “${part.label}”: ${part.expects} is needed, not ${JSON.stringify(given[part.key])}`;
    if (part) return `${option.label}: ${part.label}${key} must be ${part.expects}, got ${JSON.stringify(given[part.key])}`;
  }
  return `${option.label} must be ${option.expects}, got ${JSON.stringify(value)}`;
}

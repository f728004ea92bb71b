/**
 * What an event is and which rules its games use, chosen apart. A structure says how entrants
 * meet and go out (single elimination, double elimination, a progressive evening, …); the rules
 * are a standard game or one of the rulebooks' presets, changed from there. The five rulebook
 * events stay as shorthands naming both halves at once.
 *
 * Every structure the create form and `POST /director/tournaments` offer is one entry of
 * STRUCTURES: a new structure is a new entry (and the engine module that runs it), nothing else
 * here changes.
 */
import { FORMATS, type FormatId, type FormatOptions, type RulesChoice, formatOptions } from './formats.ts';
import { resolveRules } from './rules.ts';
import { PRESETS, PRESET_IDS, type PresetId, type RuleOptions, isPresetId } from './presets.ts';

/** One structure an event may have. */
export interface Structure {
  /** What `format` says to choose it in the API (`single-elimination`). */
  id: string;
  /** Its name on a page: "Single elimination". */
  name: string;
  /** What it means, in a sentence a new director reads under the choice. */
  description: string;
  /** Who enters: teams of two partners, or players alone. */
  entrants: 'teams' | 'players';
  /** The format recorded for it: `custom` for a structure the rulebooks do not name alone. */
  recordedAs: FormatId;
  /** The format options that make it, set over the recorded format's own. */
  options: Partial<FormatOptions>;
  /** What it fixes in every game's rules, whichever rules are chosen (a progressive round is 4 hands). */
  game?: Partial<RuleOptions>;
  /** Whether an event's format options are this structure's; absent, `options` are compared one by one. */
  matches?: (options: FormatOptions) => boolean;
}

export const STRUCTURES: readonly Structure[] = [
  {
    id: 'single-elimination',
    name: 'Single elimination',
    description: 'Teams of two; a team that loses a match is out.',
    entrants: 'teams',
    recordedAs: 'custom',
    options: { elimination: 'single', reset: false },
  },
  {
    id: 'double-elimination',
    name: 'Double elimination',
    description: 'Teams of two; a team is out when it has lost two matches, the winners of both brackets meet in the final.',
    entrants: 'teams',
    recordedAs: 'custom',
    options: { elimination: 'double', reset: false },
  },
  {
    id: 'double-elimination-first-round-losers',
    name: 'Double elimination for first-round losers only',
    description: 'Teams of two; a team that loses its first match plays on in a losers’ bracket, and any other loss puts a team out.',
    entrants: 'teams',
    recordedAs: 'custom',
    options: { elimination: 'first-round-losers', reset: false },
  },
  {
    id: 'progressive',
    name: 'Progressive tables',
    description: 'Players enter alone; each round is one game of 4 hands, winners move up a table and change partners, and the highest individual total wins.',
    entrants: 'players',
    // The house runs its progressive evenings as the one it knows.
    recordedAs: 'tournament-spades',
    options: { elimination: 'progressive', gamesToWin: 1 },
    game: { target: null, hands: 4 },
  },
  {
    id: 'round-robin',
    name: 'Round robin',
    description:
      'Teams of two; every team plays every other team once (or twice, with 2 rounds), nobody is out, and the standings place them by matches won, then games won, then points difference, then head-to-head.',
    entrants: 'teams',
    recordedAs: 'custom',
    options: { elimination: 'round-robin', reset: false, rounds: 1 },
    // Once or twice through: the number of rounds is the director's.
    matches: (options) => options.elimination === 'round-robin',
  },
  {
    id: 'swiss',
    name: 'Swiss',
    description:
      'Teams of two; a set number of rounds (3 unless given below), each pairing teams with the same number of wins who have not met; nobody is out, and the standings place them by matches won, then their opponents’ wins, then points difference.',
    entrants: 'teams',
    recordedAs: 'custom',
    options: { elimination: 'swiss', reset: false, rounds: 3 },
    matches: (options) => options.elimination === 'swiss',
  },
  {
    id: 'pools',
    name: 'Pools into a playoff',
    description:
      'Teams of two; the teams are spread over pools by seed, every team plays every other team of its pool, and the top teams of each pool go on to a single or double elimination playoff (2 pools, the top 2 of each going on to single elimination, unless chosen below).',
    entrants: 'teams',
    recordedAs: 'custom',
    options: { elimination: 'pools', reset: false, pools: 2, advance: 2, playoff: 'single' },
    // The number of pools, how many go on and the playoff are the director's.
    matches: (options) => options.elimination === 'pools',
  },
];

/** The five rulebooks' events, each naming a structure and its own rules at once. */
export const RULEBOOK_EVENTS: readonly { id: Exclude<FormatId, 'custom'>; name: string }[] = [
  { id: 'pitt-boss', name: 'Pitt Boss' },
  { id: 'blp-2024', name: 'BLP 2024' },
  { id: 'unc-intramural', name: 'UNC intramural' },
  { id: 'asher-theatre', name: 'Asher Theatre' },
  { id: 'tournament-spades', name: 'Tournament Spades' },
];

/** What `rules` may say: a standard game, or a preset by id. */
export type RulesId = 'standard' | PresetId;

/** Each rules choice as a page names it; never its id. */
export const RULES_NAMES: Readonly<Record<RulesId, string>> = {
  standard: 'A standard game: 52 cards, spades trump, 10 a trick, 1 a bag, 10 bags −100, nil ±100, to 500',
  'blp-r1': 'BLP 2024, round 1: games to 200',
  'blp-r2': 'BLP 2024, rounds after the first: jokers in, 2♥ and 2♣ out, games to 350',
  'blp-final': 'BLP 2024 final: jokers, 2♦ and 2♠ above the ace of spades, games to 500',
  'unc-300': 'UNC intramural: jokers, 2♠ above the ace, nil 60, games to 300',
  'unc-500': 'UNC intramural championship: jokers, 2♠ above the ace, nil 100, games to 500',
  'pitt-boss': 'Pitt Boss: jokers, blind bids 100 behind, games to 350',
  asher: 'Asher Theatre: jokers, overtricks score nothing, 6–4 bids, games to 350',
  'tournament-spades': 'Tournament Spades: games of 4 hands, nil 100',
};

/** The rulebook each rules choice is from, as a sheet names it: "differs from the UNC intramural rulebook". */
export const RULES_BOOKS: Readonly<Record<RulesId, string>> = {
  standard: 'standard',
  'blp-r1': 'BLP 2024',
  'blp-r2': 'BLP 2024',
  'blp-final': 'BLP 2024',
  'unc-300': 'UNC intramural',
  'unc-500': 'UNC intramural',
  'pitt-boss': 'Pitt Boss',
  asher: 'Asher Theatre',
  'tournament-spades': 'Tournament Spades',
};

/** The rules choices in the order the create form offers them: a standard game first. */
export const RULES_IDS: readonly RulesId[] = ['standard', ...PRESET_IDS.filter((p) => p !== 'standard')];

/** A `format` or `rules` that is not one of the choices, said so a director can put it right. */
export class StructureError extends Error {}

export const structureById = (id: string): Structure | undefined => STRUCTURES.find((s) => s.id === id);
const rulebookEvent = (id: string) => RULEBOOK_EVENTS.find((r) => r.id === id);

/** The structure an event's format options make: the first entry whose options they hold. */
export function structureOf(options: FormatOptions): Structure | undefined {
  return STRUCTURES.find((s) =>
    s.matches ? s.matches(options) : Object.entries(s.options).every(([k, v]) => JSON.stringify(options[k as keyof FormatOptions]) === JSON.stringify(v)),
  );
}

/** What an event is, in words: the rulebook's name for a rulebook's event, else its structure's name. */
export function eventKindName(format: FormatId, options: FormatOptions): string {
  if (format !== 'custom') return rulebookEvent(format)?.name ?? 'Custom rules';
  const name = structureOf(options)?.name ?? 'Custom rules';
  return options.partners === 'drawn' ? `${name}, partners drawn` : name;
}

/**
 * The rulebook an event's rules sheet is held to, by name: a rulebook event's own, else the
 * rulebook of the preset its games start from.
 */
export function rulebookName(format: FormatId, options: FormatOptions): string {
  if (format !== 'custom') return rulebookEvent(format)?.name ?? 'Custom rules';
  return RULES_BOOKS[resolveRules(options.rules).preset];
}

/** What an event starts from, before the director's changes: the format to record and its options. */
export interface EventStart {
  /** The format recorded in the ledger. */
  format: FormatId;
  /** What the director chose it as (a structure id or a rulebook event id). */
  chosen: string;
  /** The rules chosen, or `rulebook` for a rulebook event's own presets. */
  rules: 'rulebook' | RulesId;
  options: FormatOptions;
  /** What the structure fixes in every round's rules. */
  game: Partial<RuleOptions>;
  /** What the event is, in words ("Single elimination", "Pitt Boss"). */
  name: string;
}

const formatList = () => [...STRUCTURES.map((s) => s.id), ...RULEBOOK_EVENTS.map((r) => r.id)].join(', ');
const rulesList = () => RULES_IDS.join(', ');

/**
 * The event a `format` and a `rules` choose. A rulebook event keeps its own rules in every
 * round unless `rules` names others; a structure plays a standard game unless `rules` names a
 * preset. `rules: 'standard'` for a rulebook event leaves its rounds' presets recorded and
 * changes their values to a standard game's (server/director/rules-form.ts), so it stays
 * `standard` here. Throws StructureError naming the choice that is not one.
 */
export function eventStart(format: unknown, rules: unknown): EventStart {
  const rulesText = rules === undefined || rules === null || rules === '' ? null : rules;
  if (rulesText !== null && rulesText !== 'rulebook' && rulesText !== 'standard' && !isPresetId(rulesText)) {
    throw new StructureError(`rules must be standard or one of the presets ${rulesList()}, not ${JSON.stringify(rules)}`);
  }
  const rulebook = typeof format === 'string' ? rulebookEvent(format) : undefined;
  if (rulebook) {
    const chosenRules: EventStart['rules'] = rulesText === null || rulesText === rulebook.id ? 'rulebook' : (rulesText as EventStart['rules']);
    let options = formatOptions(rulebook.id);
    if (chosenRules !== 'rulebook' && chosenRules !== 'standard') options = { ...options, rules: chosenRules, firstRoundRules: null, finalRules: null };
    return { format: rulebook.id, chosen: rulebook.id, rules: chosenRules, options, game: {}, name: rulebook.name };
  }
  const structure = typeof format === 'string' ? structureById(format) : undefined;
  if (!structure) throw new StructureError(`format must be one of ${formatList()}, not ${JSON.stringify(format)}`);
  if (rulesText === 'rulebook')
    throw new StructureError(`rules: ${structure.name.toLowerCase()} has no rulebook of its own; choose standard or one of the presets ${rulesList()}`);
  const chosenRules = (rulesText ?? 'standard') as RulesId;
  const base = structure.recordedAs === 'custom' ? formatOptions('custom') : FORMATS[structure.recordedAs];
  const options: FormatOptions = {
    ...base,
    ...structure.options,
    rules: withGame(chosenRules, structure.game),
    firstRoundRules: null,
    finalRules: null,
    // How the first dealer is chosen is a rule of the preset and the seating's method alike.
    firstDealer: PRESETS[chosenRules].firstDealer,
    fees: null,
    prizes: [],
    teams: null,
  };
  return { format: structure.recordedAs, chosen: structure.id, rules: chosenRules, options, game: structure.game ?? {}, name: structure.name };
}

/** A preset with what the structure fixes in its games on top. */
function withGame(rules: RulesId, game: Partial<RuleOptions> | undefined): RulesChoice {
  const own = PRESETS[rules] as unknown as Record<string, unknown>;
  const differ = Object.entries(game ?? {}).filter(([k, v]) => JSON.stringify(own[k]) !== JSON.stringify(v));
  return differ.length === 0 ? rules : { preset: rules, ...Object.fromEntries(differ) };
}

/** The format ids `POST /director/tournaments` takes, structures first. */
export const FORMAT_CHOICES: readonly string[] = [...STRUCTURES.map((s) => s.id), ...RULEBOOK_EVENTS.map((r) => r.id)];

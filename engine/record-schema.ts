/**
 * The shape of a `spades-game/1` record (docs/spec/game-record.md), written once: `record.ts` reads
 * records through these schemas, and `npm run schemas` publishes them as JSON Schema
 * (docs/schemas/spades-game-1.schema.json). Each schema carries the one line a refused record
 * gets, saying what is wrong and where.
 *
 * Only the shape is here. What depends on the preset or on the game so far (a card outside the
 * preset's deck, a bid the preset forbids, tricks that do not add up to 13, plays that do not
 * replay, a hand after the game was won) is checked by `record.ts` and the game fold.
 */
import { z } from 'zod';
import { CARD_PATTERN, type Seat, type Team, SEATS, TEAMS } from './cards.ts';
import { PRESET_IDS } from './presets.ts';
import { RULE_OPTIONS } from './rule-options.ts';
import { RulesError, resolveRules } from './rules.ts';

export const RECORD_SCHEMA_ID = 'https://spades-ledger.example/schemas/spades-game-1.schema.json';

type Issue = z.core.$ZodRawIssue;
type Path = readonly PropertyKey[];

/** A value as a refusal names it: `null`, `a list`, `an object`, or its JSON. */
export function kind(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object') return 'an object';
  return JSON.stringify(value);
}

/** Like `kind`, but `nothing` for a field that is missing. */
const given = (value: unknown): string => (value === undefined ? 'nothing' : kind(value));
/** The value's JSON, as a refusal quotes it (`undefined` for a missing one). */
const quote = (value: unknown): string => `${JSON.stringify(value)}`;
/** The path's element `from` places from its end: the seat or index an issue is about. */
const at = (path: Path | undefined, from: number): string => String(path?.[path.length - from]);
/** Whether the issue is about a key the object may not have. */
const strayKey = (iss: Issue): boolean => (iss.code as string) === 'unrecognized_keys' || iss.code === 'invalid_key';
/** The key such an issue names first. */
const unknownKey = (iss: Issue): string => ('keys' in iss ? String((iss.keys as string[])[0]) : at(iss.path, 1));

const SEAT_WORDS = 'seats are N, E, S, W';

/** The longest player name a record's seat may hold: what the ledger keeps for a name. */
export const SEAT_NAME_MAX = 120;

// Bids, as a record may write them: case-insensitive, spaces around. The pattern is the same
// set of strings that `parseBid` reads (the test holds it to it); cards' are beside parseCard.
export { CARD_PATTERN, NATURAL_CARD_PATTERN } from './cards.ts';
const SPACE = String.raw`\s*`;
const NIL = '[Nn][Ii][Ll]';
export const BID_TEXT_PATTERN = new RegExp(String.raw`^${SPACE}(?:${NIL}|[Bb][Ll][Ii][Nn][Dd]\s+(?:${NIL}|0?[0-9]|1[0-3]))${SPACE}$`);

const seat = (error: (iss: Issue) => string) => z.enum(SEATS as [string, ...string[]], { error });
const card = (where: (path: Path | undefined) => string) =>
  z.string({ error: (iss) => `${where(iss.path)}: ${quote(iss.input)} is not a card` }).regex(CARD_PATTERN, {
    error: (iss) => `${where(iss.path)}: ${quote(iss.input)} is not a card`,
  });

/** The record's fields outside its hands, as the schema passes them (rules not yet resolved). */
export interface RecordHeaderJson {
  format: 'spades-game/1';
  rules: unknown;
  seats?: Partial<Record<Seat, string>>;
  dealer?: Seat;
  start?: Partial<Record<Team, { score?: number; bags?: number; sets?: number }>>;
  timeCalled?: number;
  hands: unknown[];
}

/** A played hand as the schema passes it: cards and bids as written, not yet held to the preset. */
export interface PlayedHandJson {
  dealer?: Seat;
  deal?: Record<Seat, string[]>;
  bids: Record<Seat, number | string>;
  tricks?: Record<Seat, number>;
  plays?: string[][];
  firstSeven?: Team;
  reneges?: { seat: Seat; upheld: boolean; trick?: number }[];
}

// ——— The rules: a preset id, or a preset with options overridden (docs/rule-options.md). ———

const presetId = z.enum(PRESET_IDS as [string, ...string[]]);
/** Each rule option's values, as `resolveRules` checks an override of it, named and described for JSON Schema. */
const OPTIONS = Object.fromEntries(RULE_OPTIONS.map((o) => [o.key, o.schema.meta({ title: o.label, description: o.help }).optional()]));

/** The names of the rule options a record may override. */
export { RULE_OPTION_NAMES } from './rule-options.ts';

/** What `resolveRules` says is wrong with `value`, the rules' one checker and its sentences. */
export function rulesProblem(value: unknown): string {
  if (value === undefined) return 'rules: missing; give a preset id such as "unc-300"';
  try {
    resolveRules(value);
  } catch (error) {
    if (error instanceof RulesError) return error.message;
    throw error;
  }
  return `rules: expected a preset id or { "preset": id, ...options }, got ${quote(value)}`;
}

/** A `rules` value's shape: a preset id, or a preset with options overridden, each as the catalogue has it. */
export const rulesValueSchema = z.union([presetId, z.strictObject({ preset: presetId, ...OPTIONS })]);

const rules = z.union(rulesValueSchema.options, { error: (iss) => rulesProblem(iss.input) });

// ——— One hand. ———

const handDealer = seat((iss) => `dealer: ${quote(iss.input)} is not a seat; ${SEAT_WORDS}`).optional();

/** A hand that was misdealt: its reason, and who dealt it; it scores nothing. */
export const misdealHandSchema = z.strictObject(
  {
    dealer: handDealer,
    misdeal: z
      .string({ error: (iss) => `misdeal: expected the reason as a non-empty string, got ${quote(iss.input)}` })
      .regex(/\S/, { error: (iss) => `misdeal: expected the reason as a non-empty string, got ${quote(iss.input)}` }),
  },
  {
    error: (iss) =>
      strayKey(iss)
        ? `a misdealt hand has only its reason (and dealer), but it also has '${unknownKey(iss)}'`
        : `expected a hand object, got ${kind(iss.input)}`,
  },
);

const HAND_FIELDS = ['dealer', 'deal', 'bids', 'tricks', 'plays', 'firstSeven', 'reneges'];

/** An object with one value for each seat, all four required; `field` names it in refusals. */
function bySeat(field: string, value: z.ZodType, notObject: (input: unknown) => string): z.ZodType {
  const shape = Object.fromEntries(SEATS.map((s) => [s, value]));
  return z.strictObject(shape, {
    error: (iss) => (strayKey(iss) ? `${field}: '${unknownKey(iss)}' is not a seat; ${SEAT_WORDS}` : notObject(iss.input)),
  });
}

const bidProblem = (iss: Issue): string =>
  iss.input === undefined
    ? `bids: ${at(iss.path, 1)} has no bid`
    : `bids: ${at(iss.path, 1)}'s bid ${quote(iss.input)} is not a bid; a bid is 0–13, "nil", "blind nil" or "blind N"`;
/** A bid: a whole number of tricks 0–13, `"nil"`, `"blind nil"` or `"blind N"`. */
const bid = z.union(
  [
    z.number({ error: bidProblem }).int({ error: bidProblem }).min(0, { error: bidProblem }).max(13, { error: bidProblem }),
    z.string({ error: bidProblem }).regex(BID_TEXT_PATTERN, { error: bidProblem }),
  ],
  { error: bidProblem },
);

const tricksProblem = (iss: Issue): string =>
  `tricks: ${at(iss.path, 1)} ${iss.input === undefined ? 'is missing' : `has ${quote(iss.input)}`}; each seat takes a whole number 0–13`;
const trickCount = z.number({ error: tricksProblem }).int({ error: tricksProblem }).min(0, { error: tricksProblem }).max(13, { error: tricksProblem });

const dealtCards = z
  .array(
    card((path) => `deal: ${at(path, 2)}`),
    { error: (iss) => `deal: ${at(iss.path, 1)} has no list of cards` },
  )
  .length(13, { error: (iss) => `deal: ${at(iss.path, 1)} has ${(iss.input as unknown[]).length} cards; each seat is dealt 13` });

const trickProblem = (iss: Issue): string =>
  `plays: trick ${Number(at(iss.path, 1)) + 1} ${Array.isArray(iss.input) ? `has ${iss.input.length} cards` : 'is not a list of cards'}; a trick has 4`;
const trick = z
  .array(
    card((path) => `trick ${Number(at(path, 2)) + 1}`),
    { error: trickProblem },
  )
  .length(4, { error: trickProblem });

const claimWhere = (path: Path | undefined, from: number): string => `reneges[${at(path, from)}]`;
/** A renege claim and the judge's ruling on it; the claim is made by the other team. */
const ruling = z.strictObject(
  {
    seat: seat((iss) => `${claimWhere(iss.path, 2)}: seat ${quote(iss.input)} is not a seat; ${SEAT_WORDS}`),
    upheld: z.boolean({ error: (iss) => `${claimWhere(iss.path, 2)}: upheld must be true or false, got ${quote(iss.input)}` }),
    trick: z
      .number({ error: (iss) => `${claimWhere(iss.path, 2)}: trick must be a trick number 1–13, got ${quote(iss.input)}` })
      .int({ error: (iss) => `${claimWhere(iss.path, 2)}: trick must be a trick number 1–13, got ${quote(iss.input)}` })
      .min(1, { error: (iss) => `${claimWhere(iss.path, 2)}: trick must be a trick number 1–13, got ${quote(iss.input)}` })
      .max(13, { error: (iss) => `${claimWhere(iss.path, 2)}: trick must be a trick number 1–13, got ${quote(iss.input)}` })
      .optional(),
  },
  {
    error: (iss) =>
      strayKey(iss)
        ? `${claimWhere(iss.path, 1)}: unknown field '${unknownKey(iss)}'; a ruling has seat, trick, upheld`
        : `${claimWhere(iss.path, 1)}: expected { "seat", "trick", "upheld" }, got ${kind(iss.input)}`,
  },
);

/** A hand that was bid (and, unless it is not played, played). */
export const playedHandSchema = z
  .strictObject(
    {
      dealer: handDealer,
      deal: bySeat('deal', dealtCards, (input) => `deal: expected each seat's 13 cards, got ${kind(input)}`).optional(),
      bids: bySeat('bids', bid, (input) =>
        input === undefined ? 'bids: missing; a played hand needs all four bids' : `bids: expected each seat's bid, got ${kind(input)}`,
      ),
      tricks: bySeat('tricks', trickCount, (input) => `tricks: expected a number for each seat, got ${kind(input)}`).optional(),
      plays: z
        .array(trick, { error: (iss) => `plays: expected the 13 tricks, got ${kind(iss.input)}` })
        .length(13, { error: (iss) => `plays: ${(iss.input as unknown[]).length} tricks recorded; a hand has 13` })
        .optional(),
      firstSeven: z.enum(TEAMS as [string, ...string[]], { error: (iss) => `firstSeven: expected "NS" or "EW", got ${quote(iss.input)}` }).optional(),
      reneges: z.array(ruling, { error: (iss) => `reneges: expected a list of rulings, got ${kind(iss.input)}` }).optional(),
    },
    {
      error: (iss) =>
        strayKey(iss)
          ? `unknown field '${unknownKey(iss)}'; a hand has ${HAND_FIELDS.join(', ')} or misdeal`
          : `expected a hand object, got ${kind(iss.input)}`,
    },
  )
  .superRefine((hand, ctx) => {
    if (hand.plays === undefined) return;
    // With the plays given, the first 7 tricks are counted from them, and each claim is about a trick of them.
    if (hand.firstSeven !== undefined) {
      ctx.addIssue({ code: 'custom', path: ['firstSeven'], message: 'firstSeven is given with plays; with plays the first 7 tricks are counted from them' });
    }
    hand.reneges?.forEach((claim, i) => {
      if (claim.trick === undefined) {
        ctx.addIssue({
          code: 'custom',
          path: ['reneges', i, 'trick'],
          message: `reneges[${i}]: the renege claim against ${claim.seat} needs its trick, since the plays are given`,
        });
      }
    });
  })
  .meta({
    // The same two rules, for JSON Schema: no firstSeven beside plays, and each claim's trick beside plays.
    if: { required: ['plays'] },
    then: { not: { required: ['firstSeven'] }, properties: { reneges: { items: { required: ['trick'] } } } },
  });

/** One hand: misdealt, or bid (and played). */
export const handSchema = z.union([misdealHandSchema, playedHandSchema]);

// ——— The record. ———

const TOP_FIELDS = ['format', 'rules', 'seats', 'dealer', 'start', 'timeCalled', 'hands'];

const startTeam = z.strictObject(
  Object.fromEntries(
    (['score', 'bags', 'sets'] as const).map((field) => {
      const problem = (iss: Issue) =>
        `start.${at(iss.path, 2)}.${field}: expected a whole number${field === 'score' ? '' : ' 0 or more'}, got ${quote(iss.input)}`;
      const n = z.number({ error: problem }).int({ error: problem });
      return [field, (field === 'score' ? n : n.min(0, { error: problem })).optional()];
    }),
  ),
  {
    error: (iss) =>
      strayKey(iss)
        ? `start.${at(iss.path, 1)}: unknown field '${unknownKey(iss)}'; the fields are score, bags, sets`
        : `start.${at(iss.path, 1)}: expected { "score", "bags", "sets" }, got ${kind(iss.input)}`,
  },
);

function recordOf(hands: z.ZodType) {
  return z.strictObject(
    {
      format: z.literal('spades-game/1', { error: (iss) => `format: expected "spades-game/1", got ${iss.input === undefined ? 'nothing' : quote(iss.input)}` }),
      rules,
      seats: z
        .partialRecord(
          seat(() => ''),
          z
            .string({ error: (iss) => `seats: ${at(iss.path, 1)}'s name must be a string, got ${kind(iss.input)}` })
            .min(1, { error: (iss) => `seats.${at(iss.path, 1)}: an empty name; leave the seat out when its player is not known` })
            .max(SEAT_NAME_MAX, { error: (iss) => `seats.${at(iss.path, 1)}: at most ${SEAT_NAME_MAX} characters, not ${String(iss.input).length}` }),
          {
            error: (iss) =>
              strayKey(iss)
                ? `seats: '${unknownKey(iss)}' is not a seat; ${SEAT_WORDS}`
                : `seats: expected an object of player names by seat, got ${kind(iss.input)}`,
          },
        )
        .optional(),
      dealer: seat((iss) => `dealer: ${quote(iss.input)} is not a seat; ${SEAT_WORDS}`).optional(),
      start: z
        .partialRecord(z.enum(TEAMS as [string, ...string[]]), startTeam, {
          error: (iss) =>
            strayKey(iss)
              ? `start: '${unknownKey(iss)}' is not a team; teams are NS and EW`
              : `start: expected { "NS": {...}, "EW": {...} }, got ${kind(iss.input)}`,
        })
        .optional(),
      timeCalled: z
        .number({ error: (iss) => `timeCalled: expected the 1-based number of a hand, got ${quote(iss.input)}` })
        .int({ error: (iss) => `timeCalled: expected the 1-based number of a hand, got ${quote(iss.input)}` })
        .min(1, { error: (iss) => `timeCalled: expected the 1-based number of a hand, got ${quote(iss.input)}` })
        .optional(),
      hands: z.array(hands, { error: (iss) => `hands: expected a list of hands, got ${given(iss.input)}` }),
    },
    {
      error: (iss) =>
        strayKey(iss)
          ? `record: unknown field '${unknownKey(iss)}'; the fields are ${TOP_FIELDS.join(', ')}`
          : `record: expected a JSON object, got ${kind(iss.input)}`,
    },
  );
}

/** A whole record, each hand in full: the schema published for tools outside. */
export const recordSchema = recordOf(handSchema);

/** The record's fields with its hands left unread, as `record.ts` reads it: each hand is read on its turn. */
export const recordHeaderSchema = recordOf(z.unknown());

/** The first issue in the order a reader meets them: an object's unknown field before its fields, and fields in order. */
export function firstIssue(issues: readonly z.core.$ZodIssue[], first: readonly string[] = []): z.core.$ZodIssue {
  const rank = (issue: z.core.$ZodIssue): number => {
    const i = first.indexOf(String(issue.path[0]));
    return i >= 0 && issue.path.length === 1 ? i : first.length;
  };
  const before = (a: z.core.$ZodIssue, b: z.core.$ZodIssue): boolean => {
    if (rank(a) !== rank(b)) return rank(a) < rank(b);
    // An issue at an object comes before the issues inside it.
    return a.path.length < b.path.length && a.path.every((key, i) => key === b.path[i]);
  };
  return issues.reduce((best, issue) => (before(issue, best) ? issue : best));
}

/** The published JSON Schema (draft 2020-12) of a `spades-game/1` record. */
export function recordJsonSchema(): Record<string, unknown> {
  const schema = z.toJSONSchema(recordSchema, { target: 'draft-2020-12' }) as Record<string, unknown>;
  const { $schema, ...rest } = schema;
  return {
    $schema,
    $id: RECORD_SCHEMA_ID,
    title: 'A Spades game record, spades-game/1',
    description:
      'One game at one table: its rules, seats and hands, in order (spec: game-record.md). This schema is the shape only; ' +
      "what depends on the preset or the game so far (a card outside the preset's deck, a bid the preset forbids, tricks that " +
      'do not add up to 13, plays that do not replay, a hand after the game was won) is for `spades score` to check.',
    ...rest,
  };
}

/**
 * The registry of event types. Each type has a schema version and a schema of its payload; the
 * store refuses an event whose type is not registered or whose payload does not pass. When a
 * payload's shape changes, the version goes up and an upcaster turns the old shape into the new
 * one as events are read: what was written stays written, byte for byte, so the hash chain holds.
 *
 * Schemas are zod's (a Standard Schema library): written once, they check payloads with the
 * sentences below and are published as JSON Schema (`docs/schemas/`) for tools outside.
 */
import { z } from 'zod';

/** What is wrong with a payload, and where: `field` is a path such as `payload.bids.N`. */
export interface PayloadIssue {
  field: string;
  problem: string;
}

export type Checked<T> = { ok: true; value: T } | { ok: false; issue: PayloadIssue };

/** The schema of a value: what it must be, as the value it will be recorded as. */
export type Check<T> = z.ZodType<T>;

export interface EventDefinition<T extends string = string, P = unknown> {
  readonly type: T;
  /** The current schema version (1 for a type that never changed shape). */
  readonly version: number;
  /** The payload's schema. */
  readonly validate: Check<P>;
  /** `upcasters[n]` turns a version-n payload into a version n+1 payload. */
  // biome-ignore lint/suspicious/noExplicitAny: an upcaster takes the payload an older version wrote, whatever its shape
  readonly upcasters: Readonly<Record<number, (payload: any) => unknown>>;
}

/** An event as the rest of the app handles it: a type and its payload. */
export interface AnyEvent {
  type: string;
  payload: unknown;
}

/** The event union a set of definitions describes: `{ type: 'BidMade'; payload: BidMade } | …`. */
export type EventOf<D> = D extends EventDefinition<infer T, infer P> ? { type: T; payload: P } : never;

/** Declares an event type: its name, current schema version, payload check, and upcasters from older versions. */
export function defineEvent<const T extends string, P>(definition: {
  type: T;
  version: number;
  validate: Check<P>;
  // biome-ignore lint/suspicious/noExplicitAny: an upcaster takes the payload an older version wrote, whatever its shape
  upcasters?: Record<number, (payload: any) => unknown>;
}): EventDefinition<T, P> {
  const { type, version } = definition;
  if (!/^[A-Z][A-Za-z0-9]*$/.test(type)) {
    throw new Error(`event type '${type}' must be a PascalCase name such as BidMade`);
  }
  if (!Number.isInteger(version) || version < 1) {
    throw new Error(`event type ${type}: version ${version} must be a whole number from 1`);
  }
  const upcasters = definition.upcasters ?? {};
  for (let from = 1; from < version; from++) {
    if (typeof upcasters[from] !== 'function') {
      throw new Error(`event type ${type} is at version ${version} but has no upcaster from version ${from} to ${from + 1}`);
    }
  }
  return { type, version, validate: definition.validate, upcasters };
}

/** An event whose type no registered definition names. */
export class UnknownEventTypeError extends Error {
  constructor(readonly type: string) {
    super(`event type '${type}' is not registered, so the ledger cannot record or read it`);
  }
}

/** A payload that fails its type's check; nothing is written. */
export class InvalidPayloadError extends Error {
  constructor(
    readonly type: string,
    readonly version: number,
    readonly field: string,
    readonly problem: string,
  ) {
    super(`${type} (version ${version}): ${field} ${problem}`);
  }
}

/** A stored payload that this build cannot bring up to the current version. */
export class UpcastError extends Error {}

export interface EventRegistry<E extends AnyEvent = AnyEvent> {
  /** The definition of `type`, if registered. */
  definition(type: string): EventDefinition | undefined;
  /** Every registered definition, in the order registered. */
  definitions(): readonly EventDefinition[];
  /** Checks a payload about to be written; returns the current version and the payload to record. */
  validate(type: string, payload: unknown): { schemaVersion: number; payload: E['payload'] };
  /** Brings a stored payload of `schemaVersion` up to the current version. */
  upcast(type: string, schemaVersion: number, payload: unknown): E['payload'];
}

/** Collects event definitions into the registry a store checks and upcasts with. */
// biome-ignore lint/suspicious/noExplicitAny: the constraint admits every definition; each keeps its own types through D
export function eventRegistry<const D extends readonly EventDefinition<any, any>[]>(...definitions: D): EventRegistry<EventOf<D[number]>> {
  const byType = new Map<string, EventDefinition>();
  for (const definition of definitions) {
    if (byType.has(definition.type)) throw new Error(`event type ${definition.type} is defined twice`);
    byType.set(definition.type, definition);
  }
  const find = (type: string): EventDefinition => {
    const definition = byType.get(type);
    if (!definition) throw new UnknownEventTypeError(type);
    return definition;
  };
  return {
    definition: (type) => byType.get(type),
    definitions: () => [...byType.values()],
    validate(type, payload) {
      const definition = find(type);
      const checked = checkValue(definition.validate, payload);
      if (!checked.ok) {
        throw new InvalidPayloadError(type, definition.version, checked.issue.field, checked.issue.problem);
      }
      return { schemaVersion: definition.version, payload: checked.value };
    },
    upcast(type, schemaVersion, payload) {
      const definition = find(type);
      if (schemaVersion === definition.version) return payload;
      if (schemaVersion > definition.version || schemaVersion < 1) {
        throw new UpcastError(`${type} was written as version ${schemaVersion}, but this build knows versions 1 to ${definition.version}`);
      }
      let value = payload;
      for (let from = schemaVersion; from < definition.version; from++) value = definition.upcasters[from]!(value);
      const checked = checkValue(definition.validate, value);
      if (!checked.ok) {
        throw new UpcastError(`${type} upcast from version ${schemaVersion} to ${definition.version}: ${checked.issue.field} ${checked.issue.problem}`);
      }
      return checked.value;
    },
  };
}

// Payload schemas. Small on purpose: payloads are plain JSON records of strings, numbers and
// enumerations, and the problem text of each schema becomes the error a director reads.

const describe = (value: unknown): string =>
  value === null
    ? 'null'
    : Array.isArray(value)
      ? 'an array'
      : typeof value === 'string'
        ? `"${value}"`
        : typeof value === 'object'
          ? 'an object'
          : String(value);

type Issue = z.core.$ZodIssue;

/** The first thing wrong with a value, at `field` and below, in the sentences of the schemas below. */
function issueAt(field: string, issue: Issue): PayloadIssue {
  const at = issue.path.reduce<string>((path, key) => (typeof key === 'number' ? `${path}[${key}]` : `${path}.${String(key)}`), field);
  switch (issue.code) {
    case 'unrecognized_keys':
      return { field: `${at}.${issue.keys[0]}`, problem: 'is not a field of this event' };
    case 'invalid_key':
      return { field: at, problem: `is not an expected key (${issue.issues[0] ? issueAt(at, issue.issues[0] as Issue).problem : issue.message})` };
    case 'invalid_union': {
      // Of the alternatives (a bid is a number or a text), the first one's complaint is the clearest.
      const first = issue.errors[0]?.[0];
      return first ? issueAt(at, first as Issue) : { field: at, problem: issue.message };
    }
    default:
      return { field: at, problem: issue.message };
  }
}

/** Checks a value against a schema: the value as it will be recorded, or the first issue. */
export function checkValue<T>(schema: Check<T>, value: unknown, field = 'payload'): Checked<T> {
  const result = schema.safeParse(value);
  if (result.success) return { ok: true, value: result.data };
  const issues = result.error.issues as Issue[];
  // An unexpected field is named first, as a reader looks for it before the fields it expects.
  const first = issues.find((i) => i.code === 'unrecognized_keys') ?? issues[0]!;
  return { ok: false, issue: issueAt(field, first) };
}

/** A string, optionally non-empty (`min`), bounded (`max`) or matching `pattern`. */
function text(options: { min?: number; max?: number; pattern?: RegExp } = {}): z.ZodString {
  let schema = z.string({ error: (iss) => `must be a string, not ${describe(iss.input)}` });
  if (options.min !== undefined) schema = schema.min(options.min, { error: `must have at least ${options.min} characters` });
  if (options.max !== undefined) schema = schema.max(options.max, { error: `must have at most ${options.max} characters` });
  if (options.pattern) {
    const pattern = options.pattern;
    schema = schema.regex(pattern, { error: (iss) => `"${String(iss.input)}" does not match ${pattern}` });
  }
  return schema;
}

/** A whole number, optionally within `min`…`max`. */
function integer(options: { min?: number; max?: number } = {}): z.ZodNumber {
  let schema = z
    .number({ error: (iss) => `must be a whole number, not ${describe(iss.input)}` })
    .int({ error: (iss) => `must be a whole number, not ${describe(iss.input)}` });
  if (options.min !== undefined) schema = schema.min(options.min, { error: (iss) => `must be at least ${options.min}, not ${String(iss.input)}` });
  if (options.max !== undefined) schema = schema.max(options.max, { error: (iss) => `must be at most ${options.max}, not ${String(iss.input)}` });
  return schema;
}

/** A finite number. */
function number(): z.ZodNumber {
  return z.number({ error: (iss) => `must be a number, not ${describe(iss.input)}` });
}

function boolean(): z.ZodBoolean {
  return z.boolean({ error: (iss) => `must be true or false, not ${describe(iss.input)}` });
}

/** One of the listed strings or numbers. */
function oneOf<const V extends string | number>(values: readonly V[]): Check<V> {
  return z.literal(values as V[], {
    error: (iss) => `must be one of ${values.map((v) => JSON.stringify(v)).join(', ')}, not ${describe(iss.input)}`,
  }) as unknown as Check<V>;
}

/** The first schema that passes (e.g. a bid that is a number or "nil"). */
function either<A, B>(a: Check<A>, b: Check<B>): Check<A | B> {
  return z.union([a, b]) as unknown as Check<A | B>;
}

function nullable<T>(schema: Check<T>): Check<T | null> {
  return schema.nullable() as unknown as Check<T | null>;
}

/** An object field that may be absent. */
function optional<T>(schema: Check<T>): z.ZodOptional<Check<T>> {
  return schema.optional();
}

function array<T>(schema: Check<T>, options: { min?: number; max?: number } = {}): Check<T[]> {
  let list = z.array(schema, { error: (iss) => `must be a list, not ${describe(iss.input)}` });
  if (options.min !== undefined) list = list.min(options.min, { error: `must have at least ${options.min} entries` });
  if (options.max !== undefined) list = list.max(options.max, { error: `must have at most ${options.max} entries` });
  return list as unknown as Check<T[]>;
}

/** An object whose keys are checked by `key` (e.g. seats) and whose values by `schema`. */
function record<K extends string, T>(key: Check<K>, schema: Check<T>): Check<Partial<Record<K, T>>> {
  // Keys are any text checked by `key`, so a record need not have every key (seats dealt so far).
  const keys = z.string().pipe(key as unknown as z.ZodType<string, string>);
  return z.record(keys, schema, { error: (iss) => `must be an object, not ${describe(iss.input)}` }) as unknown as Check<Partial<Record<K, T>>>;
}

/**
 * An object with exactly these fields. An unknown field is refused rather than dropped: a ledger
 * entry should hold what its type says and nothing a reader would have to guess about.
 */
function object<S extends z.ZodRawShape>(shape: S): z.ZodObject<S, z.core.$strict> {
  return z.strictObject(shape, { error: (iss) => (iss.code === 'invalid_type' ? `must be an object, not ${describe(iss.input)}` : undefined) });
}

/** A payload taken as it is (for a type whose check lives elsewhere); still refused if not JSON-shaped at the top. */
function anyObject(): Check<Record<string, unknown>> {
  return z.record(z.string(), z.unknown(), { error: (iss) => `must be an object, not ${describe(iss.input)}` });
}

/** The payload schemas, used as `check.object({ seat: check.oneOf(SEATS), bid: check.integer({ min: 0 }) })`. */
export const check = { text, integer, number, boolean, oneOf, either, nullable, optional, array, record, object, anyObject };

/**
 * The registry of event types. Each type has a schema version and a check of its payload; the
 * store refuses an event whose type is not registered or whose payload does not pass. When a
 * payload's shape changes, the version goes up and an upcaster turns the old shape into the new
 * one as events are read: what was written stays written, byte for byte, so the hash chain holds.
 */

/** What is wrong with a payload, and where: `field` is a path such as `payload.bids.N`. */
export interface PayloadIssue {
  field: string;
  problem: string;
}

export type Checked<T> = { ok: true; value: T } | { ok: false; issue: PayloadIssue };

/** Checks a value found at `field`; returns the value as it will be recorded, or the issue. */
export type Check<T> = (value: unknown, field?: string) => Checked<T>;

/** A check for an object field that may be left out. */
export type OptionalCheck<T> = Check<T | undefined> & { readonly optional: true };

export interface EventDefinition<T extends string = string, P = unknown> {
  readonly type: T;
  /** The current schema version (1 for a type that never changed shape). */
  readonly version: number;
  readonly validate: (payload: unknown) => Checked<P>;
  /** `upcasters[n]` turns a version-n payload into a version n+1 payload. */
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
  validate: (payload: unknown) => Checked<P>;
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
  /** Checks a payload about to be written; returns the current version and the payload to record. */
  validate(type: string, payload: unknown): { schemaVersion: number; payload: E['payload'] };
  /** Brings a stored payload of `schemaVersion` up to the current version. */
  upcast(type: string, schemaVersion: number, payload: unknown): E['payload'];
}

/** Collects event definitions into the registry a store checks and upcasts with. */
export function eventRegistry<const D extends readonly EventDefinition<any, any>[]>(
  ...definitions: D
): EventRegistry<EventOf<D[number]>> {
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
    validate(type, payload) {
      const definition = find(type);
      const checked = definition.validate(payload);
      if (!checked.ok) {
        throw new InvalidPayloadError(type, definition.version, checked.issue.field, checked.issue.problem);
      }
      return { schemaVersion: definition.version, payload: checked.value };
    },
    upcast(type, schemaVersion, payload) {
      const definition = find(type);
      if (schemaVersion === definition.version) return payload;
      if (schemaVersion > definition.version || schemaVersion < 1) {
        throw new UpcastError(
          `${type} was written as version ${schemaVersion}, but this build knows versions 1 to ${definition.version}`,
        );
      }
      let value = payload;
      for (let from = schemaVersion; from < definition.version; from++) value = definition.upcasters[from]!(value);
      const checked = definition.validate(value);
      if (!checked.ok) {
        throw new UpcastError(
          `${type} upcast from version ${schemaVersion} to ${definition.version}: ${checked.issue.field} ${checked.issue.problem}`,
        );
      }
      return checked.value;
    },
  };
}

// Payload checks. Small on purpose: payloads are plain JSON records of strings, numbers and
// enumerations, and the problem text of each check becomes the error a director reads.

const describe = (value: unknown): string =>
  value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value === 'string' ? `"${value}"` : typeof value === 'object' ? 'an object' : String(value);

const fail = (field: string, problem: string): { ok: false; issue: PayloadIssue } => ({ ok: false, issue: { field, problem } });

/** A string, optionally non-empty (`min`), bounded (`max`) or matching `pattern`. */
function text(options: { min?: number; max?: number; pattern?: RegExp } = {}): Check<string> {
  return (value, field = 'payload') => {
    if (typeof value !== 'string') return fail(field, `must be a string, not ${describe(value)}`);
    if (options.min !== undefined && value.length < options.min) return fail(field, `must have at least ${options.min} characters`);
    if (options.max !== undefined && value.length > options.max) return fail(field, `must have at most ${options.max} characters`);
    if (options.pattern && !options.pattern.test(value)) return fail(field, `"${value}" does not match ${options.pattern}`);
    return { ok: true, value };
  };
}

/** A whole number, optionally within `min`…`max`. */
function integer(options: { min?: number; max?: number } = {}): Check<number> {
  return (value, field = 'payload') => {
    if (typeof value !== 'number' || !Number.isSafeInteger(value)) return fail(field, `must be a whole number, not ${describe(value)}`);
    if (options.min !== undefined && value < options.min) return fail(field, `must be at least ${options.min}, not ${value}`);
    if (options.max !== undefined && value > options.max) return fail(field, `must be at most ${options.max}, not ${value}`);
    return { ok: true, value };
  };
}

/** A finite number. */
function number(): Check<number> {
  return (value, field = 'payload') =>
    typeof value === 'number' && Number.isFinite(value) ? { ok: true, value } : fail(field, `must be a number, not ${describe(value)}`);
}

function boolean(): Check<boolean> {
  return (value, field = 'payload') =>
    typeof value === 'boolean' ? { ok: true, value } : fail(field, `must be true or false, not ${describe(value)}`);
}

/** One of the listed strings or numbers. */
function oneOf<const V extends string | number>(values: readonly V[]): Check<V> {
  return (value, field = 'payload') =>
    values.includes(value as V)
      ? { ok: true, value: value as V }
      : fail(field, `must be one of ${values.map((v) => JSON.stringify(v)).join(', ')}, not ${describe(value)}`);
}

/** The first check that passes (e.g. a bid that is a number or "nil"). */
function either<A, B>(a: Check<A>, b: Check<B>): Check<A | B> {
  return (value, field = 'payload') => {
    const first = a(value, field);
    if (first.ok) return first;
    const second = b(value, field);
    return second.ok ? second : first;
  };
}

function nullable<T>(check: Check<T>): Check<T | null> {
  return (value, field = 'payload') => (value === null ? { ok: true, value: null } : check(value, field));
}

/** An object field that may be absent. */
function optional<T>(check: Check<T>): OptionalCheck<T> {
  const optionalCheck: Check<T | undefined> = (value, field = 'payload') =>
    value === undefined ? { ok: true, value: undefined } : check(value, field);
  return Object.assign(optionalCheck, { optional: true as const });
}

function array<T>(check: Check<T>, options: { min?: number; max?: number } = {}): Check<T[]> {
  return (value, field = 'payload') => {
    if (!Array.isArray(value)) return fail(field, `must be a list, not ${describe(value)}`);
    if (options.min !== undefined && value.length < options.min) return fail(field, `must have at least ${options.min} entries`);
    if (options.max !== undefined && value.length > options.max) return fail(field, `must have at most ${options.max} entries`);
    const out: T[] = [];
    for (let i = 0; i < value.length; i++) {
      const checked = check(value[i], `${field}[${i}]`);
      if (!checked.ok) return checked;
      out.push(checked.value);
    }
    return { ok: true, value: out };
  };
}

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** An object whose keys are checked by `key` (e.g. seats) and whose values by `check`. */
function record<K extends string, T>(key: Check<K>, check: Check<T>): Check<Partial<Record<K, T>>> {
  return (value, field = 'payload') => {
    if (!isPlainObject(value)) return fail(field, `must be an object, not ${describe(value)}`);
    const out: Partial<Record<K, T>> = {};
    for (const [k, v] of Object.entries(value)) {
      const checkedKey = key(k, `${field}.${k}`);
      if (!checkedKey.ok) return fail(`${field}.${k}`, `is not an expected key (${checkedKey.issue.problem})`);
      const checked = check(v, `${field}.${k}`);
      if (!checked.ok) return checked;
      out[checkedKey.value] = checked.value;
    }
    return { ok: true, value: out };
  };
}

type Shape = Record<string, Check<unknown>>;
type ShapeValue<S extends Shape> = {
  [K in keyof S as S[K] extends OptionalCheck<unknown> ? never : K]: S[K] extends Check<infer V> ? V : never;
} & {
  [K in keyof S as S[K] extends OptionalCheck<unknown> ? K : never]?: S[K] extends OptionalCheck<infer V> ? V : never;
};

/**
 * An object with exactly these fields. An unknown field is refused rather than dropped: a ledger
 * entry should hold what its type says and nothing a reader would have to guess about.
 */
function object<S extends Shape>(shape: S): Check<{ [K in keyof ShapeValue<S>]: ShapeValue<S>[K] }> {
  return (value, field = 'payload') => {
    if (!isPlainObject(value)) return fail(field, `must be an object, not ${describe(value)}`);
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value)) {
      if (!(key in shape)) return fail(`${field}.${key}`, 'is not a field of this event');
    }
    for (const [key, check] of Object.entries(shape)) {
      const checked = check(value[key], `${field}.${key}`);
      if (!checked.ok) return checked;
      if (checked.value !== undefined) out[key] = checked.value;
    }
    return { ok: true, value: out as { [K in keyof ShapeValue<S>]: ShapeValue<S>[K] } };
  };
}

/** A payload taken as it is (for a type whose check lives elsewhere); still refused if not JSON-shaped at the top. */
function anyObject(): Check<Record<string, unknown>> {
  return (value, field = 'payload') =>
    isPlainObject(value) ? { ok: true, value } : fail(field, `must be an object, not ${describe(value)}`);
}

/** The payload checks, used as `check.object({ seat: check.oneOf(SEATS), bid: check.integer({ min: 0 }) })`. */
export const check = { text, integer, number, boolean, oneOf, either, nullable, optional, array, record, object, anyObject };

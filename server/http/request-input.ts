/**
 * Reading what a request sends: a JSON object or a form's fields, read through one zod schema
 * per shape of request. A body that is neither JSON nor a form, JSON nested deeper than any
 * request here needs, or a field of the wrong kind is refused with a sentence naming it.
 */
import type { Context } from 'hono';
import { z } from 'zod';
import anyAscii from 'any-ascii';
import { CommandError } from '../commands/command-error.ts';
import { quoted } from '../../events/names.ts';

/**
 * How deep JSON a request may nest. A game record, the deepest thing sent, nests 6 levels;
 * the limit keeps a body of nothing but brackets from reaching code that walks it recursively.
 */
export const MAX_JSON_DEPTH = 32;

/** An id a director may give a tournament, team or player: letters, digits and dashes (events/names.ts). */
export { ID_PATTERN } from '../../events/names.ts';

/** How much of what a request sent a refusal quotes back. */
export const ECHO_MAX = 24;

/**
 * A value the request sent, as a refusal quotes it: at most ECHO_MAX characters and nothing that
 * cannot be seen, so a 15 KB parameter is not answered with itself, nor a hidden character
 * carried back into a page.
 */
export function echoed(text: string): string {
  return quoted(text, ECHO_MAX);
}

/** An id made from a name (`Ten for Two` → `ten-for-two`), when the director gives none. */
export function slug(name: string): string {
  // Any script is spelled in Latin letters first, so 'Пиковые Дамы' is pikovye-damy, not a bare 'team'.
  return anyAscii(name.normalize('NFKC'))
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60);
}

/**
 * The first place `text` nests JSON arrays and objects deeper than `max`, or null. Counted on
 * the text before parsing, so a body built to exhaust the stack never becomes an object.
 */
export function jsonNestingProblem(text: string, max = MAX_JSON_DEPTH): string | null {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    if (inString) {
      if (ch === 0x5c)
        i++; // a backslash escapes the next character
      else if (ch === 0x22) inString = false;
    } else if (ch === 0x22) {
      inString = true;
    } else if (ch === 0x5b || ch === 0x7b) {
      if (++depth > max) return `it nests arrays and objects more than ${max} levels deep (at character ${i + 1})`;
    } else if (ch === 0x5d || ch === 0x7d) {
      depth--;
    }
  }
  return null;
}

/**
 * The request body as JSON, refused with a sentence when it is not JSON (`notJson`, or the
 * parser's own words) or nests too deeply.
 */
export async function readJson(c: Context, notJson?: string): Promise<unknown> {
  let text: string;
  try {
    text = await c.req.text();
  } catch (error) {
    throw new CommandError(`the request body could not be read: ${(error as Error).message}`);
  }
  const problem = jsonNestingProblem(text);
  if (problem) throw new CommandError(`the request body is refused: ${problem}`);
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new CommandError(notJson ?? `the request body is not JSON: ${(error as Error).message}`);
  }
}

/**
 * The request's fields: a JSON object, or a form's fields. A body that is neither is refused
 * with a sentence rather than read as empty.
 */
export async function readInput(c: Context): Promise<Record<string, unknown>> {
  const type = c.req.header('content-type') ?? '';
  if (type.includes('application/json')) {
    const body = await readJson(c);
    if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new CommandError('the request body must be a JSON object of fields');
    return body as Record<string, unknown>;
  }
  if (type.includes('application/x-www-form-urlencoded') || type.includes('multipart/form-data')) {
    try {
      const form = await c.req.parseBody({ all: false });
      // fromEntries defines each field as the object's own, whatever its name.
      return Object.fromEntries(Object.entries(form).map(([k, v]) => [k, typeof v === 'string' ? v : '']));
    } catch (error) {
      throw new CommandError(`the form could not be read: ${(error as Error).message}`);
    }
  }
  if (c.req.method === 'GET' || c.req.method === 'HEAD') return {};
  const length = Number(c.req.header('content-length') ?? '0');
  if (!type && length === 0) return {};
  throw new CommandError(`send the fields as a form or as JSON, not as '${type || 'an unlabelled body'}'`);
}

// Fields. A form sends every field as text and JSON sends numbers as numbers, so each field
// schema takes both. A field that is absent, null or empty is missing. The problems read as
// "<field> is missing", "<field> must be text, not a list", and so on: a building block words
// what is wrong, and the field's name is put in front of it. A route's own check (a `.refine`
// or an issue it adds) words the whole sentence itself.

/** Absent, null and empty are all "not sent". */
const sent = (value: unknown): unknown => (value === null || value === '' ? undefined : value);

const kindOf = (value: unknown): string => (Array.isArray(value) ? 'a list' : typeof value);

/** Text, trimmed, at most `max` characters (500 unless told); a number is taken as its digits. */
function textSchema(max: number) {
  return z
    .string({ error: (iss) => (iss.input === undefined ? 'is missing' : `must be text, not ${kindOf(iss.input)}`) })
    .trim()
    .max(max, { error: `must have at most ${max} characters` });
}

const asText = (value: unknown): unknown => {
  const given = sent(value);
  return typeof given === 'number' ? String(given) : given;
};

/** A whole number, optionally from `min` to `max`: a number in JSON, digits in a form. */
function wholeSchema(options: { min?: number; max?: number }) {
  const notWhole = (iss: { input?: unknown }) => (iss.input === undefined ? 'is missing' : `must be a whole number, not ${JSON.stringify(iss.input)}`);
  let schema = z.number({ error: notWhole }).int({ error: notWhole });
  const { min, max } = options;
  if (min !== undefined) schema = schema.min(min, { error: (iss) => `must be at least ${min}, not ${String(iss.input)}` });
  if (max !== undefined) schema = schema.max(max, { error: (iss) => `must be at most ${max}, not ${String(iss.input)}` });
  return schema;
}

const asWhole = (value: unknown): unknown => {
  const given = sent(value);
  return typeof given === 'string' && /^-?\d{1,9}$/.test(given.trim()) ? Number(given) : given;
};

/** The building blocks of a request's schema, as `fields({ seat: field.text({ max: 5 }) })`. */
export const field = {
  /** Text that must be sent. */
  text: (options: { max?: number } = {}) => z.preprocess(asText, textSchema(options.max ?? 500)),
  /** Text that may be left out: '' when it is. */
  optionalText: (options: { max?: number } = {}) => z.preprocess(asText, textSchema(options.max ?? 500).optional()).transform((text) => text ?? ''),
  /** A whole number that must be sent. */
  whole: (options: { min?: number; max?: number } = {}) => z.preprocess(asWhole, wholeSchema(options)),
  /** A whole number that may be left out: null when it is. */
  optionalWhole: (options: { min?: number; max?: number } = {}) => z.preprocess(asWhole, wholeSchema(options).optional()).transform((n) => n ?? null),
  /** A field taken as sent, for a route that reads it its own way. */
  raw: () => z.unknown(),
};

/** The request's own fields only: a field named like an object's built-ins (`constructor`, `__proto__`) is read only if sent. */
function ownFields(input: unknown): unknown {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) return input;
  const own: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
  for (const [key, value] of Object.entries(input)) Object.defineProperty(own, key, { value, enumerable: true, writable: true, configurable: true });
  return own;
}

/**
 * A request's fields as one schema, checked in the order the keys are written: the first
 * problem is the first field's. Fields not named (the CSRF token, a command id) are let through.
 */
export function fields<S extends z.ZodRawShape>(shape: S) {
  return z.preprocess(ownFields, z.object(shape));
}

/** The sentence for a problem: a route's own check words it whole; a building block's names its field first. */
function sentenceOf(issue: z.core.$ZodIssue): string {
  if (issue.code === 'custom' || issue.path.length === 0) return issue.message;
  return `${issue.path.map(String).join('.')} ${issue.message}`;
}

/** The fields `input` holds as `schema` reads them, or a refusal with the first problem's sentence. */
export function parseFields<S extends z.ZodType>(input: Record<string, unknown>, schema: S): z.output<S> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  throw new CommandError(sentenceOf(result.error.issues[0]!));
}

/** Reads the request's fields (a form or a JSON object) through `schema`. */
export async function readFields<S extends z.ZodType>(c: Context, schema: S): Promise<z.output<S>> {
  return parseFields(await readInput(c), schema);
}

/**
 * Reading what a request sends: a JSON object or a form's fields, and single fields checked
 * for what they must be. A body that is neither JSON nor a form, JSON nested deeper than any
 * request here needs, or a field of the wrong kind is refused with a sentence naming it.
 */
import type { Context } from 'hono';
import { CommandError } from './commands.ts';

/**
 * How deep JSON a request may nest. A game record, the deepest thing sent, nests 6 levels;
 * the limit keeps a body of nothing but brackets from reaching code that walks it recursively.
 */
export const MAX_JSON_DEPTH = 32;

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
      if (ch === 0x5c) i++; // a backslash escapes the next character
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

/** A field that must be text. */
export function textField(input: Record<string, unknown>, name: string, options: { optional?: boolean; max?: number } = {}): string {
  const value = Object.hasOwn(input, name) ? input[name] : undefined;
  if (value === undefined || value === null || value === '') {
    if (options.optional) return '';
    throw new CommandError(`${name} is missing`);
  }
  if (typeof value !== 'string' && typeof value !== 'number') throw new CommandError(`${name} must be text, not ${Array.isArray(value) ? 'a list' : typeof value}`);
  const text = String(value).trim();
  if (text.length > (options.max ?? 500)) throw new CommandError(`${name} must have at most ${options.max ?? 500} characters`);
  return text;
}

/** A field that must be a whole number (a number in JSON, digits in a form). */
export function wholeField(input: Record<string, unknown>, name: string, options: { optional?: boolean; min?: number; max?: number } = {}): number | null {
  const value = Object.hasOwn(input, name) ? input[name] : undefined;
  if (value === undefined || value === null || value === '') {
    if (options.optional) return null;
    throw new CommandError(`${name} is missing`);
  }
  const n = typeof value === 'number' ? value : typeof value === 'string' && /^-?\d{1,9}$/.test(value.trim()) ? Number(value) : NaN;
  if (!Number.isSafeInteger(n)) throw new CommandError(`${name} must be a whole number, not ${JSON.stringify(value)}`);
  if (options.min !== undefined && n < options.min) throw new CommandError(`${name} must be at least ${options.min}, not ${n}`);
  if (options.max !== undefined && n > options.max) throw new CommandError(`${name} must be at most ${options.max}, not ${n}`);
  return n;
}

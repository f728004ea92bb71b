/**
 * How large a request body may be. Every route reads its body whole, so without a bound one
 * large POST holds its size in memory; with it, a body that says it is too large is refused
 * before a byte of it is read, and one that does not say is cut off at the bound.
 */
import type { MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { refuse } from './refusals.ts';

/** Forms and JSON fields: a bid, a ruling, a team's registration. */
export const FORM_BODY_BYTES = 16 * 1024;
/** A `spades-game/1` record entered at `POST /api/games/import`: a long game card by card is under 100 KB. */
export const RECORD_BODY_BYTES = 1024 * 1024;

/** A director's pasted list or CSV of entrants: 512 lines of three 120-character names fit. */
export const BULK_BODY_BYTES = 256 * 1024;

const BODILESS = new Set(['GET', 'HEAD', 'OPTIONS']);
const RECORD_IMPORT_PATH = '/api/games/import';
const BULK_PATH = /^\/director\/tournaments\/[^/]+\/(teams|players)\/bulk$/;

const sizeText = (bytes: number) => (bytes >= 1024 * 1024 ? `${bytes / (1024 * 1024)} MiB` : `${bytes / 1024} KiB`);

function limit(maxSize: number, what: string): MiddlewareHandler {
  return bodyLimit({
    maxSize,
    onError: (c) => {
      // The rest of the body is not wanted: closing the connection stops the client sending it.
      c.header('connection', 'close');
      return refuse(c, 413, `the request body is larger than the ${sizeText(maxSize)} ${what} may send`);
    },
  });
}

/** Bounds every request body: records for import at RECORD_BODY_BYTES, lists of entrants at BULK_BODY_BYTES, everything else at FORM_BODY_BYTES. */
export function bodyLimits(): MiddlewareHandler {
  const forms = limit(FORM_BODY_BYTES, 'a form or a JSON request');
  const records = limit(RECORD_BODY_BYTES, 'a game record for import');
  const lists = limit(BULK_BODY_BYTES, 'a list of entrants');
  return (c, next) => {
    // A read sends no body to bound; asking for one would make the full request object, which
    // every read of a busy screen or API client would pay for.
    if (BODILESS.has(c.req.method)) return next();
    return c.req.path === RECORD_IMPORT_PATH ? records(c, next) : BULK_PATH.test(c.req.path) ? lists(c, next) : forms(c, next);
  };
}

/**
 * How large a request body may be, how long it may take to arrive, and how many may be arriving
 * at once from one address. Every route reads its body whole, so without a bound one large POST
 * holds its size in memory; with it, a body that says it is too large is refused before a byte
 * of it is read, and one that does not say is cut off at the bound. A body sent a byte at a time
 * holds a connection for as long as the server waits: the server gives a whole request
 * REQUEST_TIMEOUT_MS (Node's own default is five minutes), and one address may have only
 * SLOW_BODIES_PER_ADDRESS bodies still arriving at once.
 */
import type { IncomingMessage } from 'node:http';
import type { MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { clientAddress } from './client-address.ts';
import { refuse } from './refusals.ts';

/** Forms and JSON fields: a bid, a ruling, a team's registration. */
export const FORM_BODY_BYTES = 16 * 1024;
/** A `spades-game/1` record entered at `POST /api/games/import`: a long game card by card is under 100 KB. */
export const RECORD_BODY_BYTES = 1024 * 1024;

/** A director's pasted list or CSV of entrants: 512 lines of three 120-character names fit. */
export const BULK_BODY_BYTES = 256 * 1024;

/** Milliseconds a client has to send a whole request, its headers and its body. */
export const REQUEST_TIMEOUT_MS = 20_000;

/**
 * The Node server options that bound how long a request may take to arrive, for whoever creates
 * the server (`serverOptions` of @hono/node-server's serve): the headers within 10 seconds, the
 * whole request within REQUEST_TIMEOUT_MS, checked every 2 seconds, so a request still arriving
 * is answered 408 and its connection closed within 22 seconds. A response that takes longer (an
 * event stream) is not affected: only the request's own arrival is timed.
 */
export const REQUEST_TIMEOUTS = { headersTimeout: 10_000, requestTimeout: REQUEST_TIMEOUT_MS, connectionsCheckingInterval: 2_000 } as const;

/** Requests from one address whose bodies may be arriving at once. */
export const SLOW_BODIES_PER_ADDRESS = 16;

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

/**
 * Bounds every request body: records for import at RECORD_BODY_BYTES, lists of entrants at
 * BULK_BODY_BYTES, everything else at FORM_BODY_BYTES; and refuses a body from an address that
 * already has `slowBodiesPerAddress` bodies still arriving.
 */
export function bodyLimits(options: { slowBodiesPerAddress?: number } = {}): MiddlewareHandler {
  const forms = limit(FORM_BODY_BYTES, 'a form or a JSON request');
  const records = limit(RECORD_BODY_BYTES, 'a game record for import');
  const lists = limit(BULK_BODY_BYTES, 'a list of entrants');
  const most = options.slowBodiesPerAddress ?? SLOW_BODIES_PER_ADDRESS;
  // Per address, the requests whose bodies have not all arrived: each is counted until its last
  // byte is in or its connection is gone, so a body sent in the usual few milliseconds is hardly
  // counted at all, and a slow one at most until the request timeout ends it.
  const arriving = new Map<string, number>();
  return (c, next) => {
    // A read sends no body to bound; asking for one would make the full request object, which
    // every read of a busy screen or API client would pay for.
    if (BODILESS.has(c.req.method)) return next();
    // Node's request, when there is one (not for an in-process request, nor one a test makes up).
    const incoming = (c.env as { incoming?: Partial<IncomingMessage> } | undefined)?.incoming;
    if (incoming?.complete === false && typeof incoming.once === 'function') {
      const address = clientAddress(c);
      const count = arriving.get(address) ?? 0;
      if (count >= most) {
        c.header('connection', 'close');
        c.header('retry-after', String(Math.ceil(REQUEST_TIMEOUT_MS / 1000)));
        return Promise.resolve(
          refuse(
            c,
            429,
            `this address is already sending ${most} requests whose bodies have not all arrived, the most one address may send at once; send this one again once those are through`,
          ),
        );
      }
      arriving.set(address, count + 1);
      let counted = true;
      const done = () => {
        if (!counted) return;
        counted = false;
        const left = (arriving.get(address) ?? 1) - 1;
        if (left > 0) arriving.set(address, left);
        else arriving.delete(address);
      };
      incoming.once('end', done);
      incoming.once('close', done);
    }
    return c.req.path === RECORD_IMPORT_PATH ? records(c, next) : BULK_PATH.test(c.req.path) ? lists(c, next) : forms(c, next);
  };
}

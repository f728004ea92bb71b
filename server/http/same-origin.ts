/**
 * Refuses a changing request sent from another site: a browser says so in Sec-Fetch-Site, or
 * an Origin that is not this host. Clients that send neither (scripts, tests) still need a
 * session's token for anything behind a guard.
 */
import type { MiddlewareHandler } from 'hono';
import { refuse } from './refusals.ts';

const UNSAFE = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** The middleware refusing changing requests from other sites with a 403 and a sentence. */
export function sameOriginOnly(): MiddlewareHandler {
  return async (c, next) => {
    if (UNSAFE.has(c.req.method)) {
      const site = c.req.header('sec-fetch-site');
      const origin = c.req.header('origin');
      const host = c.req.header('host') ?? new URL(c.req.url).host;
      // A browser's Sec-Fetch-Site cannot be set by a page, so it is believed when sent; Origin
      // is the check for browsers without it.
      let foreign = site !== undefined && site !== 'same-origin' && site !== 'none';
      if (site === undefined && origin !== undefined) {
        try {
          if (origin === 'null' || new URL(origin).host !== host) foreign = true;
        } catch {
          foreign = true;
        }
      }
      if (foreign) return refuse(c, 403, `a request from ${origin ?? 'another site'} may not change anything here; use the forms on this site`);
    }
    await next();
  };
}

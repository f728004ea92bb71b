/**
 * The headers every answer of the site carries: scripts, styles and streams come only from this
 * site, with no inline code; nothing is framed but the embeds, which any site may frame; and the
 * read API, which any site may read.
 */
import { Hono } from 'hono';
import type { MiddlewareHandler } from 'hono';
import { secureHeaders } from 'hono/secure-headers';

/** Who else may use an answer: any site framing it (`embed`), any site reading it (`api`), or none. */
export type Openness = 'embed' | 'api' | null;

/** The middleware setting the site's headers on an answer open as said. */
export function siteHeaders(open: Openness): MiddlewareHandler {
  return secureHeaders({
    contentSecurityPolicy: {
      defaultSrc: ["'self'"],
      scriptSrc: ["'self'"],
      styleSrc: ["'self'"],
      imgSrc: ["'self'", 'data:'],
      connectSrc: ["'self'"],
      fontSrc: ["'self'"],
      objectSrc: ["'none'"],
      baseUri: ["'none'"],
      formAction: ["'self'"],
      frameAncestors: open === 'embed' ? ['*'] : ["'none'"],
    },
    // Same-origin, not no-referrer: with no referrer a browser sends `Origin: null` on form posts.
    referrerPolicy: 'same-origin',
    xFrameOptions: open === 'embed' ? false : 'SAMEORIGIN',
    crossOriginResourcePolicy: open === null ? 'same-origin' : 'cross-origin',
  });
}

/** The headers a middleware sets on an answer, as a plain set: asked of it once, on an empty answer. */
export async function headersOf(middleware: MiddlewareHandler): Promise<Readonly<Record<string, string>>> {
  const probe = new Hono();
  probe.use(middleware);
  probe.get('/', (c) => c.body(null, 204));
  const set: Record<string, string> = {};
  (await probe.request('/')).headers.forEach((value, name) => (set[name] = value));
  return set;
}

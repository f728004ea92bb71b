/**
 * The public read API under /api/v1: every resource of api-registry.ts answered as JSON from the
 * read models, any site allowed to read it, each answer checked against its schema before it
 * leaves and tagged with the ledger position it was folded at. An answer at a position never
 * changes, so it is made once per position and kept, and a client holding it gets a 304.
 */
import { gzipSync } from 'node:zlib';
import { Hono } from 'hono';
import type { Context } from 'hono';
import type { ServedLedger } from '../../events/store/served-ledger.ts';
import { clientAddress } from '../http/client-address.ts';
import { echoed } from '../http/request-input.ts';
import { API_RESOURCES, type ApiResource, type ResourceAnswer } from './api-registry.ts';
import { OPENAPI_PATH, servedDocument } from './openapi.ts';
import type { ErrorCode } from './api-schemas.ts';
import { RATE_LIMIT_EXPOSED, rateLimitHeaders } from '../live/rate-limit-headers.ts';

/** A resource as of a past position, from the reader thread; `busy` when the heavy reads are all taken. */
export type PastResource = (
  address: string,
  id: string,
  params: Readonly<Record<string, string>>,
  position: number,
) => Promise<{ answer: ResourceAnswer } | { busy: string }>;

export interface ApiOptions {
  ledger: ServedLedger;
  /** Answers `?asOf=` on the reader thread, through the heavy reads' gate. */
  past: PastResource;
  /** The as-of reads one address may have at once through that gate, and how many more now. */
  readsOf?: (address: string) => { quota: number; remaining: number };
  /** Headers every answer carries besides its own (the site's security headers), made once. */
  headers?: Promise<Readonly<Record<string, string>>>;
  /**
   * What an answer that fails its own schema does: `throw` (the tests, so a wrong shape fails
   * them) or `log` (a server: the integrator still gets the data, and the log says what to fix).
   */
  onInvalid?: 'throw' | 'log';
}

/**
 * An answer made: its bytes (or the sentence for a 404) at the position it was folded at, and
 * the same bytes gzipped once the first client accepting gzip asks.
 */
type Made =
  | { position: number; body: Uint8Array<ArrayBuffer>; gzip?: Uint8Array<ArrayBuffer> }
  | { position: number; missing: string }
  | { position: number; invalid: string };

// Answers kept: the resources asked for lately, each at the position it was last made for, up
// to this many bytes in all (a 64-team tournament's answer is some tens of KB).
const KEPT_BYTES = 16 * 2 ** 20;

/** The headers every answer of the API carries: any site may read it, and see its ETag. */
export const OPEN = {
  'access-control-allow-origin': '*',
  'access-control-expose-headers': `ETag, Retry-After, ${RATE_LIMIT_EXPOSED}`,
};

/** The read API's routes, to mount at /api/v1. */
export function apiRoutes(options: ApiOptions) {
  const { ledger, past } = options;
  const onInvalid = options.onInvalid ?? (process.env.VITEST ? 'throw' : 'log');
  const document = servedDocument();
  // Encoded once, as the resources' answers are: the document is some tens of KB.
  const documentBytes = new TextEncoder().encode(document.text);
  const documentGzip = new Uint8Array(gzipSync(documentBytes));
  const etag = (position: number) => (gzip: boolean) => `"${position}-${document.tag}${gzip ? '-gzip' : ''}"`;
  const kept = new Map<string, Made>();
  let keptBytes = 0;
  const size = (answer: Made) =>
    ('body' in answer ? answer.body.byteLength + (answer.gzip?.byteLength ?? 0) : 'missing' in answer ? answer.missing.length : answer.invalid.length) + 64;
  /** The answer's gzipped bytes, made on first asking and kept (and counted) beside it. */
  const gzipped = (answer: Extract<Made, { body: unknown }>, key: string) => {
    if (!answer.gzip) {
      answer.gzip = new Uint8Array(gzipSync(answer.body));
      if (kept.get(key) === answer) keptBytes += answer.gzip.byteLength;
    }
    return answer.gzip;
  };
  const app = new Hono();
  // Every answer's headers as one plain set, so none is built header by header: the site's own,
  // then the API's openness, then the answer's.
  const common = (options.headers ?? Promise.resolve({})).then((site) => ({ ...site, ...OPEN }));
  let base: Readonly<Record<string, string>> | null = null;
  app.use('*', async (_c, next) => {
    base ??= await common;
    await next();
  });
  const send = (body: BodyInit | null, status: number, headers: Record<string, string>) => new Response(body, { status, headers: { ...base, ...headers } });
  const refuse = (error: string, code: ErrorCode, status: number, headers: Record<string, string> = {}) =>
    send(JSON.stringify({ error, code }), status, { 'content-type': 'application/json', ...headers });
  /**
   * How an answer is sent to this client: gzipped when it takes gzip (a browser, most HTTP
   * libraries: a tenth of the bytes on the venue's Wi-Fi). The gzipped bytes are another
   * representation with an ETag of their own; either one held by the client spares it the answer.
   */
  const coding = (c: Context, tagOf: (gzip: boolean) => string, own: Record<string, string>) => {
    const gzip = acceptsGzip(c.req.header('accept-encoding'));
    const asked = c.req.header('if-none-match');
    return { gzip, held: matches(asked, tagOf(false)) || matches(asked, tagOf(true)), headers: { ...own, etag: tagOf(gzip), vary: 'Accept-Encoding' } };
  };
  /** JSON bytes as this client takes them, or a 304 when it holds them already. */
  const sendJson = (
    c: Context,
    tagOf: (gzip: boolean) => string,
    own: Record<string, string>,
    plain: Uint8Array<ArrayBuffer>,
    gzipped: () => Uint8Array<ArrayBuffer>,
  ) => {
    const { gzip, held, headers } = coding(c, tagOf, own);
    if (held) return send(null, 304, headers);
    const json = { ...headers, 'content-type': 'application/json; charset=utf-8' };
    return gzip ? send(gzipped(), 200, { ...json, 'content-encoding': 'gzip' }) : send(plain, 200, json);
  };

  // A page on another site that sends If-None-Match asks first.
  app.options('*', () =>
    send(null, 204, {
      'access-control-allow-methods': 'GET, HEAD, OPTIONS',
      'access-control-allow-headers': 'If-None-Match',
      'access-control-max-age': '86400',
    }),
  );

  app.get('/openapi.json', (c) =>
    sendJson(
      c,
      (gzip) => `"${document.tag}${gzip ? '-gzip' : ''}"`,
      { 'cache-control': 'no-cache' },
      documentBytes,
      () => documentGzip,
    ),
  );

  /** Checks an answer against its schema, as the document promises it. */
  const checked = (resource: ApiResource, body: unknown): Uint8Array<ArrayBuffer> => {
    const result = resource.schema.safeParse(body);
    if (!result.success) {
      const message = `the ${resource.id} answer does not match its schema: ${result.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`;
      if (onInvalid === 'throw') throw new Error(message);
      console.error(message);
    }
    // Encoded once: every client asking at this position is sent the same bytes.
    return new TextEncoder().encode(JSON.stringify(body));
  };

  const made = (resource: ApiResource, answer: ResourceAnswer, position: number): Made =>
    'missing' in answer
      ? { position, missing: answer.missing }
      : 'invalid' in answer
        ? { position, invalid: answer.invalid }
        : { position, body: checked(resource, answer.body) };

  const keep = (key: string, answer: Made) => {
    const earlier = kept.get(key);
    if (earlier) keptBytes -= size(earlier);
    kept.delete(key);
    kept.set(key, answer);
    keptBytes += size(answer);
    while (keptBytes > KEPT_BYTES && kept.size > 1) {
      const [oldest, made] = kept.entries().next().value!;
      kept.delete(oldest);
      keptBytes -= size(made);
    }
  };

  for (const resource of API_RESOURCES) {
    const route = resource.path.replace(/\{(\w+)\}/g, ':$1');
    app.get(route, async (c) => {
      const asked = askedQuery(c, ledger.models.position, resource);
      if ('error' in asked) return refuse(asked.error, 'invalid-parameter', 400);
      const params: Record<string, string> = { ...asked.query, ...Object.fromEntries(resource.params.map((p) => [p.name, c.req.param(p.name) ?? ''])) };
      // A resource whose links carry the query on (a list's next page) carries the position too.
      if (asked.position !== undefined) params.asOf = String(asked.position);
      const position = asked.position ?? ledger.models.position;
      // The answer now may change with the next entry: ask each time, with the ETag. A past one never does.
      const own: Record<string, string> = { 'cache-control': asked.position === undefined ? 'no-cache' : 'public, max-age=86400' };
      // An as-of read says how many such reads its address may still ask for at once.
      const quota = () => {
        const reads = options.readsOf?.(clientAddress(c));
        return reads ? rateLimitHeaders('as-of-reads', reads.quota, reads.remaining) : {};
      };
      const key = `${resource.id}\u0000${Object.entries(params).flat().join('\u0000')}${asked.position === undefined ? '' : `@${position}`}`;
      let answer = kept.get(key);
      if (answer?.position !== position) {
        if (asked.position === undefined) answer = made(resource, resource.answer(ledger.models, params), position);
        else {
          // Folded even when the client holds an ETag of this position: only the fold says
          // whether the resource was there then, and a 404 is no answer a client holds.
          const folded = await past(clientAddress(c), resource.id, params, position);
          if ('busy' in folded) return refuse(folded.busy, 'too-many-reads', 429, { 'retry-after': '2', ...quota() });
          answer = made(resource, folded.answer, position);
        }
        keep(key, answer);
      }
      if (asked.position !== undefined) Object.assign(own, quota());
      if ('invalid' in answer) return refuse(answer.invalid, 'invalid-cursor', 400);
      if ('missing' in answer)
        return refuse(asked.position === undefined ? answer.missing : `${answer.missing} at ledger position ${position}`, 'not-found', 404);
      const found = answer;
      return sendJson(c, etag(position), own, found.body, () => gzipped(found, key));
    });
  }

  app.get('*', (c) => refuse(`there is nothing at ${c.req.path}; the read API's resources are listed in ${OPENAPI_PATH}`, 'no-such-address', 404));
  app.all('*', (c) =>
    refuse(`the read API only reads: ${c.req.method} is not taken here, use GET`, 'method-not-allowed', 405, { allow: 'GET, HEAD, OPTIONS' }),
  );
  return app;
}

/**
 * What the query asks: the position `?asOf=` names (none: the ledger as it stands) and the
 * resource's own parameters, or the sentence saying what is wrong with one of them. Parameters
 * no resource takes are ignored (a cache-buster `_=`, a tracker's tag); a known one given a
 * wrong value, or given twice, is refused.
 */
function askedQuery(c: Context, head: number, resource: ApiResource): { position?: number; query: Record<string, string> } | { error: string } {
  const query: Record<string, string> = {};
  // Most asks carry no query at all.
  if (!c.req.url.includes('?')) return { query };
  const given = c.req.queries();
  for (const param of resource.query ?? []) {
    const values = given[param.name];
    if (values === undefined) continue;
    if (values.length > 1) return { error: `${param.name} is given more than once: give one` };
    if (!param.schema.safeParse(values[0]).success) return { error: `${param.name} must be ${param.must}, not '${echoed(values[0]!)}'` };
    query[param.name] = values[0]!;
  }
  const values = given.asOf;
  if (values === undefined) return { query };
  if (values.length > 1) return { error: 'asOf is given more than once: give one ledger position' };
  const text = values[0]!;
  if (!/^\d{1,15}$/.test(text) || Number(text) > head)
    return { error: `asOf must be a ledger position, a whole number from 0 to ${head}, not '${echoed(text)}'` };
  return { position: Number(text), query };
}

/** Whether an Accept-Encoding header takes gzip: named (or `*`, when gzip is not named) with no `q=0`. */
export function acceptsGzip(header: string | undefined): boolean {
  if (!header) return false;
  const codings = new Map<string, number>();
  for (const part of header.split(',')) {
    const [name, ...params] = part.split(';').map((p) => p.trim().toLowerCase());
    const q = params.find((p) => p.startsWith('q='));
    if (name) codings.set(name, q === undefined ? 1 : Number(q.slice(2)));
  }
  const weight = codings.get('gzip') ?? codings.get('x-gzip') ?? codings.get('*') ?? 0;
  return weight > 0;
}

/** Whether an If-None-Match header names this ETag (or any, `*`); weak and strong compare alike. */
function matches(header: string | undefined, tag: string): boolean {
  if (!header) return false;
  return header.split(',').some((part) => {
    const given = part.trim();
    return given === '*' || given === tag || given === `W/${tag}`;
  });
}

/**
 * The files the pages load and the schemas published for tools: the stylesheet (its parts
 * written in, so a page loads one), the browser scripts, htmx and its SSE extension, the
 * favicon, and the JSON Schemas generated from the ones the ledger checks with.
 */
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Env, Hono } from 'hono';
import { domainEvents } from '../../events/event-catalogue.ts';
import { publishedSchemas } from '../../events/event-catalogue-schema.ts';
import { own } from '../../events/lookup.ts';

const here = dirname(fileURLToPath(import.meta.url));
const require = createRequire(import.meta.url);
const htmxDir = dirname(require.resolve('htmx.org/package.json'));

/** Files served under /static: the stylesheet, htmx and its SSE extension, read once. */
const STATIC: Record<string, { type: string; path: string }> = {
  'app.css': { type: 'text/css; charset=utf-8', path: join(here, '..', '..', 'static', 'app.css') },
  'favicon.svg': { type: 'image/svg+xml', path: join(here, '..', '..', 'static', 'favicon.svg') },
  'entry.css': { type: 'text/css; charset=utf-8', path: join(here, '..', '..', 'static', 'entry.css') },
  'clock.js': { type: 'text/javascript; charset=utf-8', path: join(here, '..', '..', 'static', 'clock.js') },
  'replay.js': { type: 'text/javascript; charset=utf-8', path: join(here, '..', '..', 'static', 'replay.js') },
  'live-status.js': { type: 'text/javascript; charset=utf-8', path: join(here, '..', '..', 'static', 'live-status.js') },
  'outbox.js': { type: 'text/javascript; charset=utf-8', path: join(here, '..', '..', 'static', 'outbox.js') },
  'judge.js': { type: 'text/javascript; charset=utf-8', path: join(here, '..', '..', 'static', 'judge.js') },
  'screen-highlights.js': { type: 'text/javascript; charset=utf-8', path: join(here, '..', '..', 'static', 'screen-highlights.js') },
  'htmx.min.js': { type: 'text/javascript; charset=utf-8', path: join(htmxDir, 'dist', 'htmx.min.js') },
  'hx-sse.js': { type: 'text/javascript; charset=utf-8', path: join(htmxDir, 'dist', 'ext', 'hx-sse.js') },
};

/**
 * A stylesheet as a page loads it: each part it imports (`@import url("app/….css");`, one line
 * each, in either quote) written in at its place, so the parts keep their cascade order in one file.
 */
function stylesheet(path: string): string {
  return readFileSync(path, 'utf8').replace(/^@import url\((['"])([\w/-]+\.css)\1\);.*$/gm, (_, _quote: string, part: string) =>
    readFileSync(join(dirname(path), part), 'utf8'),
  );
}

/** Adds the routes of the static files, the favicon and the published schemas. */
export function staticRoutes<E extends Env>(app: Hono<E>): void {
  // Browsers ask for /favicon.ico whatever the page says.
  app.get('/favicon.ico', (c) => c.redirect('/static/favicon.svg', 301));

  // The published JSON Schemas, as generated from the schemas the ledger checks with.
  const schemas = publishedSchemas(domainEvents);
  app.get('/schemas/:file', (c) => {
    const text = Object.hasOwn(schemas, c.req.param('file')) ? schemas[c.req.param('file')] : undefined;
    if (text === undefined) return c.json({ error: `no schema '${c.req.param('file')}'; the schemas are ${Object.keys(schemas).join(', ')}` }, 404);
    return c.body(text, 200, { 'content-type': 'application/schema+json; charset=utf-8', 'cache-control': 'public, max-age=300' });
  });

  app.get('/static/:file', (c) => {
    const file = own(STATIC, c.req.param('file'));
    if (!file || !existsSync(file.path)) return c.text(`no static file '${c.req.param('file')}'`, 404);
    const body = file.type.startsWith('text/css') ? stylesheet(file.path) : readFileSync(file.path);
    return c.body(body, 200, { 'content-type': file.type, 'cache-control': 'public, max-age=300' });
  });
}

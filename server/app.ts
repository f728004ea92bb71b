/**
 * The HTTP application: venue pages, their live streams, the public event feed and health.
 * Requests read the ledger's read models; live pages get one SSE message per ledger event,
 * rendered once per channel and written as the same bytes to every client.
 */
import { Hono } from 'hono';
import type { Context } from 'hono';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { HttpBindings } from '@hono/node-server';
import { RESPONSE_ALREADY_SENT } from '@hono/node-server/utils/response';
import type { Ledger } from '../events/ledger.ts';
import { VersionConflictError } from '../events/event-store.ts';
import { InvalidPayloadError } from '../events/event-types.ts';
import { gameRecord } from '../events/game-projection.ts';
import { CommandError } from './commands.ts';
import { EVENTS_CHANNEL, catchUpAndAttach, eventMessage, resumePoint } from './event-stream.ts';
import { type Broadcaster, type SseSink, SSE_HEADERS, createBroadcaster, nodeSink, streamSink } from './sse.ts';
import { type LiveView, channelOf, createLivePublisher, renderLivePage } from './live-pages.tsx';
import { tournamentLinks } from '../views/tournament-home.tsx';
import { auditApp } from './audit-routes.tsx';
import { secureHeaders } from 'hono/secure-headers';
import { type Auth, createAuth, refusalOf, sameOriginOnly } from './auth.ts';
import { entryRoutes } from './entry-routes.tsx';
import { judgeRoutes } from './judge-routes.tsx';
import { directorRoutes } from './director-routes.tsx';

export interface AppOptions {
  ledger: Ledger;
  broadcaster?: Broadcaster;
  /** Accounts and sessions; made over the ledger's own file when not given. */
  auth?: Auth;
  /** The system's shuffle for tables that deal from it: a fresh seed per deal. */
  newSeed?: () => string;
  /** ISO time that match clocks and time calls record; the system clock when not given. */
  now?: () => string;
}

const here = dirname(fileURLToPath(import.meta.url));
const require = createRequire(import.meta.url);
const htmxDir = dirname(require.resolve('htmx.org/package.json'));

/** Files served under /static: the stylesheet, htmx and its SSE extension, read once. */
const STATIC: Record<string, { type: string; path: string }> = {
  'app.css': { type: 'text/css; charset=utf-8', path: join(here, '..', 'static', 'app.css') },
  'favicon.svg': { type: 'image/svg+xml', path: join(here, '..', 'static', 'favicon.svg') },
  'entry.css': { type: 'text/css; charset=utf-8', path: join(here, '..', 'static', 'entry.css') },
  'clock.js': { type: 'text/javascript; charset=utf-8', path: join(here, '..', 'static', 'clock.js') },
  'replay.js': { type: 'text/javascript; charset=utf-8', path: join(here, '..', 'static', 'replay.js') },
  'htmx.min.js': { type: 'text/javascript; charset=utf-8', path: join(htmxDir, 'dist', 'htmx.min.js') },
  'hx-sse.js': { type: 'text/javascript; charset=utf-8', path: join(htmxDir, 'dist', 'ext', 'hx-sse.js') },
};

export function createApp(options: AppOptions) {
  const { ledger } = options;
  const broadcaster = options.broadcaster ?? createBroadcaster();
  const app = new Hono<{ Bindings: Partial<HttpBindings> }>();
  const auth = options.auth ?? createAuth({ ledger });

  // Scripts, styles and streams come only from this site: no inline code, nothing framed.
  app.use(
    secureHeaders({
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
        frameAncestors: ["'none'"],
      },
      // Same-origin, not no-referrer: with no referrer a browser sends `Origin: null` on form posts.
      referrerPolicy: 'same-origin',
    }),
  );
  app.use(sameOriginOnly());

  // Every ledger event goes to the raw feed as it is; live pages get their changed regions,
  // rendered once per channel when the burst of appends is over.
  const pages = createLivePublisher(broadcaster, ledger.models);
  ledger.onChange((change, events) => {
    if (broadcaster.hasClients(EVENTS_CHANNEL)) {
      for (const event of events) broadcaster.publish(EVENTS_CHANNEL, eventMessage(event));
    }
    pages.changed(change);
  });

  app.onError((error, c) => {
    if (error instanceof CommandError) return c.json({ error: error.message }, error.status);
    if (error instanceof VersionConflictError) return c.json({ error: error.message }, 409);
    if (error instanceof InvalidPayloadError) return c.json({ error: error.message }, 400);
    const refusal = refusalOf(error);
    if (refusal) return c.json({ error: refusal.message }, refusal.status);
    console.error(error);
    return c.json({ error: 'the server failed to answer this request; it has been logged' }, 500);
  });

  app.get('/healthz', (c) => c.json({ ok: true, position: ledger.store.head().position }));

  // Browsers ask for /favicon.ico whatever the page says.
  app.get('/favicon.ico', (c) => c.redirect('/static/favicon.svg', 301));

  app.get('/static/:file', (c) => {
    const file = STATIC[c.req.param('file')];
    if (!file || !existsSync(file.path)) return c.text(`no static file '${c.req.param('file')}'`, 404);
    return c.body(readFileSync(file.path), 200, { 'content-type': file.type, 'cache-control': 'public, max-age=300' });
  });

  app.get('/api/events', (c) => {
    const after = resumePoint(undefined, c.req.query('after'));
    if (typeof after !== 'number') return c.json({ error: after.error }, 400);
    const limitText = c.req.query('limit') ?? '100';
    if (!/^\d+$/.test(limitText) || Number(limitText) < 1 || Number(limitText) > 1000) {
      return c.json({ error: `limit must be a whole number from 1 to 1000, not '${limitText}'` }, 400);
    }
    return c.json(ledger.store.readAll({ after, limit: Number(limitText) }));
  });

  app.get('/api/events/stream', async (c) => {
    const after = resumePoint(c.req.header('last-event-id'), c.req.query('after'));
    if (typeof after !== 'number') return c.json({ error: after.error }, 400);
    return openStream(c, broadcaster, (sink) =>
      catchUpAndAttach(
        { readAfter: (from, limit) => ledger.store.readAll({ after: from, limit }), headPosition: () => ledger.store.head().position },
        broadcaster,
        sink,
        after,
      ),
    );
  });

  app.get('/games/:gameId/record', (c) => {
    const game = ledger.models.games[c.req.param('gameId')];
    if (!game) return c.json({ error: `game ${c.req.param('gameId')} does not exist` }, 404);
    return c.json(gameRecord(game));
  });

  // Entering a whole game from a record is a judge's or director's to do.
  app.use('/api/games/import', auth.guard(['judge', 'director']));
  app.route('/', auditApp(ledger));
  app.route('/', auth.routes);
  const now = options.now ? { now: options.now } : {};
  app.route('/entry', entryRoutes({ ledger, auth, ...now, ...(options.newSeed ? { newSeed: options.newSeed } : {}) }));
  app.route('/judge', judgeRoutes({ ledger, auth, ...now }));
  app.route('/director', directorRoutes({ ledger, auth, ...now }));

  // Live pages: the full page, and its stream of regions.
  const page = (view: LiveView) => (c: Context) => {
    const html = renderLivePage(view, ledger.models);
    if (html === null) return c.html('<!DOCTYPE html><title>Not found</title><p>Nothing here yet.</p>', 404);
    return c.html(html);
  };
  const stream = (view: LiveView) => (c: Context) => {
    const channel = view.channel;
    const after = resumePoint(c.req.header('last-event-id'), c.req.query('after'));
    if (typeof after !== 'number') return c.json({ error: after.error }, 400);
    return openStream(c, broadcaster, (sink) => pages.attach(channel, sink, after));
  };

  app.get('/', (c) => {
    const current = ledger.models.currentTournament;
    return current ? c.redirect(tournamentLinks(current).home) : page({ kind: 'home', channel: channelOf('home') })(c);
  });
  app.get('/stream', (c) => stream({ kind: 'home', channel: channelOf('home') })(c));
  // The venue screen of the current tournament: the address a venue types once.
  app.get('/screen', (c) => {
    const current = ledger.models.currentTournament;
    if (!current) return c.html('<!DOCTYPE html><title>Screen</title><p>No tournament has been set up yet.</p>', 404);
    return c.redirect(tournamentLinks(current).screen);
  });
  for (const kind of ['tournament', 'leaderboard', 'bracket', 'screen'] as const) {
    const suffix = kind === 'tournament' ? '' : `/${kind}`;
    const view = (c: Context): LiveView => {
      const tournamentId = c.req.param('tournamentId')!;
      return { kind, tournamentId, channel: channelOf(kind, tournamentId) };
    };
    app.get(`/tournaments/:tournamentId${suffix}`, (c) => page(view(c))(c));
    app.get(`/tournaments/:tournamentId${suffix}/stream`, (c) => stream(view(c))(c));
  }
  const tableView = (c: Context): LiveView => ({ kind: 'table', gameId: c.req.param('gameId')!, channel: channelOf('table', c.req.param('gameId')!) });
  app.get('/tournaments/:tournamentId/tables/:gameId', (c) => page(tableView(c))(c));
  app.get('/tournaments/:tournamentId/tables/:gameId/stream', (c) => stream(tableView(c))(c));
  app.get('/games/:gameId', (c) => page(tableView(c))(c));
  app.get('/games/:gameId/stream', (c) => stream(tableView(c))(c));

  return { app, broadcaster, auth };
}

/**
 * Opens an SSE response. Under Node the client's socket is written directly (cheapest for
 * thousands of screens); elsewhere (in-process requests) through a web stream.
 */
function openStream(
  c: Context<{ Bindings: Partial<HttpBindings> }>,
  broadcaster: Broadcaster,
  start: (sink: SseSink) => void | Promise<void>,
): Response | Promise<Response> {
  const res = c.env?.outgoing;
  if (res && 'writeHead' in res) {
    res.writeHead(200, SSE_HEADERS);
    res.flushHeaders();
    // A comment first, so proxies and browsers see the stream open at once.
    res.write(': open\n\n');
    const sink = nodeSink(res, broadcaster.maxBufferedBytes);
    void Promise.resolve(start(sink)).catch(() => sink.close());
    return RESPONSE_ALREADY_SENT;
  }
  const { sink, stream } = streamSink(broadcaster.maxBufferedBytes);
  sink.write(new TextEncoder().encode(': open\n\n'));
  void Promise.resolve(start(sink)).catch(() => sink.close());
  return new Response(stream, { headers: SSE_HEADERS });
}

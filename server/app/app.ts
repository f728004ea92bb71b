/**
 * The HTTP application: venue pages, their live streams, the public event feed and health.
 * Requests read the ledger's read models; live pages get one SSE message per ledger event,
 * rendered once per channel and written as the same bytes to every client.
 */
import { Hono } from 'hono';
import type { Context } from 'hono';
import type { HttpBindings } from '@hono/node-server';
import { type LedgerHandle, servedOf } from '../../events/store/served-ledger.ts';
import { LedgerUnavailableError } from '../../events/store/append.ts';
import { tournamentLinks } from '../../events/addresses.ts';
import { LedgerReadError } from '../../events/store/served-ledger.ts';
import { ReaderError, createHeavyReadGate, createHeavyReads, pastResources } from '../audit/heavy-reads.ts';
import { OPEN, apiRoutes } from '../api/api-routes.ts';
import { staticRoutes } from './static-files.ts';
import { InvalidPayloadError } from '../../events/event-registry.ts';
import { gameRecord } from '../../events/game-projection.ts';
import { gameById, tournamentById } from '../../events/lookup.ts';
import type { ReadModels } from '../../events/projections.ts';
import { CommandError } from '../commands/command-error.ts';
import { EVENTS_CHANNEL, eventMessage, resumePoint, tournamentChannel, tournamentOfEvent } from '../live/event-stream.ts';
import { type Broadcaster, createBroadcaster } from '../live/sse.ts';
import { type FeedLimitOptions, createFeedLimits } from '../live/feed-limits.ts';
import { FEED_OPEN, eventFeedRoute } from '../live/feed-route.ts';
import { openStream } from '../live/open-stream.ts';
import { type LiveView, renderLivePage } from '../audience/live-pages.tsx';
import { channelOf, createLivePublisher } from './live-channels.tsx';
import { auditApp } from '../audit/audit-routes.tsx';
import { headersOf, siteHeaders } from '../http/site-headers.ts';
import { type Auth, createAuth, signedBy } from '../auth/auth.ts';
import { bodyLimits } from '../http/body-limits.ts';
import { refusalOf, wantsJson } from '../http/refusals.ts';
import { sameOriginOnly } from '../http/same-origin.ts';
import { ServerErrorPage } from '../../views/server-error.tsx';
import { NotFoundPage } from '../../views/not-found.tsx';
import { rulesPages } from '../audience/rules-pages.tsx';
import { returnAfterSignIn, signInFirst } from '../auth/sign-in-return.ts';
import { entryRoutes } from '../entry/entry-routes.tsx';
import { judgeRoutes } from '../judge/judge-routes.tsx';
import { directorRoutes } from '../director/director-routes.tsx';
import { missingSubjectOf, subjectChannelId } from '../audience/team-pages.tsx';
import { signUpRoutes } from '../audience/sign-up-routes.tsx';
import { publicAddress } from '../http/public-address.ts';
import { clientAddress, forwardedBy, trustedProxies } from '../http/client-address.ts';
import { echoed } from '../http/request-input.ts';
import { EMBEDS, type EmbedKind, missingEmbed, renderEmbed } from '../audience/embeds.tsx';
import { circuitDirectorRoutes, circuitPages } from '../series/circuit-routes.tsx';

export interface AppOptions {
  /** The served ledger, or an open ledger that knows its adapter (a file's, served with group commit). */
  ledger: LedgerHandle;
  broadcaster?: Broadcaster;
  /** The public event feed's caps; the defaults of live/feed-limits.ts when not given. */
  feedLimits?: FeedLimitOptions;
  /** Accounts and sessions; made over the ledger's own file when not given. */
  auth?: Auth;
  /** The system's shuffle for tables that deal from it: a fresh seed per deal. */
  newSeed?: () => string;
  /** ISO time that match clocks and time calls record; the system clock when not given. */
  now?: () => string;
  /** The address phones reach the server at, for QR codes; PUBLIC_URL when not given. */
  publicUrl?: string;
  /** The proxies whose X-Real-IP and X-Forwarded-Proto are believed; TRUST_PROXY when not given, else none. */
  trustProxy?: string;
}

/** The public event feed's addresses, which any site may read. */
const FEED_PATHS = new Set(['/api/events', '/api/events/stream']);
/** The only addresses another site may frame. */
const EMBED_PATH = new RegExp(`^/embed/(tournaments/[^/]+/(${Object.keys(EMBEDS).join('|')})|series/[^/]+)$`);

export function createApp(options: AppOptions) {
  const ledger = servedOf(options.ledger);
  const broadcaster = options.broadcaster ?? createBroadcaster();
  const app = new Hono<{ Bindings: Partial<HttpBindings> }>();
  // Before anything counts a request against its address: who it is from, and whether over HTTPS.
  app.use(forwardedBy(trustedProxies(options.trustProxy ?? process.env.TRUST_PROXY)));
  // Sign-in state lives beside the events, in the ledger's file unless given (the server on PostgreSQL brings its own).
  const auth = options.auth ?? createAuth({ ledger });

  // The site's headers (http/site-headers.ts): only the embeds may be framed, and only the read API read by any site.
  const [closed, framed, read] = [siteHeaders(null), siteHeaders('embed'), siteHeaders('api')];
  // The read API sets the same headers itself, as one plain set made once: a program polling it
  // a thousand times a second is spared building them on every answer. An answer the app's
  // error handler gave instead gets them here.
  const readHeaders = headersOf(read);
  app.use(async (c, next) => {
    if (EMBED_PATH.test(c.req.path)) return framed(c, next);
    // The event feed is read by other sites as the read API is.
    if (FEED_PATHS.has(c.req.path)) {
      await read(c, next);
      for (const [name, value] of Object.entries(FEED_OPEN)) c.res.headers.set(name, value);
      return;
    }
    if (!c.req.path.startsWith('/api/v1/')) return closed(c, next);
    await next();
    if (c.error) for (const [name, value] of Object.entries({ ...(await readHeaders), ...OPEN })) c.res.headers.set(name, value);
  });
  // Before anything reads a body: a body over the bound is refused before it is read.
  app.use(bodyLimits());
  app.use(sameOriginOnly());

  // Every request reads and decides from what the file holds, whoever wrote it: another server
  // process, `spades import` or a judge's import. Cheap when nothing new was committed.
  app.use(async (_c, next) => {
    await ledger.sync();
    await next();
  });

  // Every ledger event goes to the raw feed as it is; live pages get their changed regions,
  // rendered once per channel when the burst of appends is over.
  const pages = createLivePublisher(broadcaster, ledger.models);
  ledger.onChange((change, events) => {
    for (const event of events) {
      const whole = broadcaster.hasClients(EVENTS_CHANNEL);
      const tournamentId = tournamentOfEvent(ledger.models.games, event);
      const one = tournamentId !== null && broadcaster.hasClients(tournamentChannel(tournamentId));
      if (!whole && !one) continue;
      // Encoded once for the whole feed and the tournament's.
      const message = eventMessage(event);
      if (whole) broadcaster.publish(EVENTS_CHANNEL, message);
      if (one) broadcaster.publish(tournamentChannel(tournamentId), message);
    }
    pages.changed(change);
  });

  app.onError((error, c) => {
    if (error instanceof LedgerUnavailableError || error instanceof LedgerReadError || error instanceof ReaderError)
      return c.json({ error: error.message, code: 'unavailable' }, 503);
    if (error instanceof CommandError) return c.json({ error: error.message }, error.status);
    if (error instanceof InvalidPayloadError) return c.json({ error: error.message }, 400);
    const refusal = refusalOf(error);
    if (refusal) return c.json({ error: refusal.message }, refusal.status);
    console.error(error);
    // A page asked for by a person answers with a page that says so, never a bare stack.
    if (!wantsJson(c)) return c.html(String(ServerErrorPage()), 500);
    return c.json({ error: 'the server failed to answer this request; it has been logged' }, 500);
  });

  // Asks the ledger's storage itself (at most once a second), so a balancer stops sending the
  // room to a process that cannot read or write it, and sends it again once it can.
  app.get('/healthz', async (c) => {
    const health = await ledger.checkHealth();
    const body = { ok: health.writable, writable: health.writable, position: health.position, ...(health.reason ? { reason: health.reason } : {}) };
    return c.json(body, health.writable ? 200 : 503);
  });

  staticRoutes(app);

  app.get('/api/events', async (c) => {
    const after = resumePoint(undefined, c.req.query('after'));
    if (typeof after !== 'number') return c.json({ error: after.error, code: 'invalid-parameter' }, 400);
    const limitText = c.req.query('limit') ?? '100';
    if (!/^\d+$/.test(limitText) || Number(limitText) < 1 || Number(limitText) > 1000) {
      return c.json({ error: `limit must be a whole number from 1 to 1000, not '${echoed(limitText)}'`, code: 'invalid-parameter' }, 400);
    }
    return c.json(await ledger.read({ after, limit: Number(limitText) }));
  });

  app.get(
    '/api/events/stream',
    eventFeedRoute({
      ledger,
      broadcaster,
      addressOf: clientAddress,
      limits: createFeedLimits({ streamRetrySeconds: Math.max(1, Math.ceil(broadcaster.stallTimeoutMs / 1000)), ...options.feedLimits }),
    }),
  );

  app.get('/games/:gameId/record', (c) => {
    const game = gameById(ledger.models, c.req.param('gameId'));
    if (!game) return c.json({ error: `game ${c.req.param('gameId')} does not exist` }, 404);
    return c.json(gameRecord(game));
  });

  // Entering a whole game from a record is a judge's or director's to do.
  app.use('/api/games/import', auth.guard(['judge', 'director']));
  // The heavy reads, one worker and one gate for the auditors' pages and the read API's asOf.
  const reads = createHeavyReads(ledger);
  const gate = createHeavyReadGate();
  app.route('/', auditApp(ledger, { ...(options.now ? { now: options.now } : {}), reads, gate, signedBy: (c) => signedBy(auth.current(c)) }));
  app.route('/api/v1', apiRoutes({ ledger, past: pastResources(reads, gate), readsOf: gate.readsOf, headers: readHeaders }));
  // A signed-out browser asking for a staff page signs in (or joins a table) and comes back to it.
  app.use('/login', returnAfterSignIn());
  app.use('/join', returnAfterSignIn());
  for (const [path, signIn] of [
    ['/judge', '/login'],
    ['/judge/*', '/login'],
    ['/director', '/login'],
    ['/director/*', '/login'],
    ['/entry', '/join'],
    ['/entry/*', '/join'],
  ] as const) {
    app.use(path, signInFirst(auth, signIn));
  }
  app.route('/', auth.routes);
  const now = options.now ? { now: options.now } : {};
  app.route('/entry', entryRoutes({ ledger, auth, ...now, ...(options.newSeed ? { newSeed: options.newSeed } : {}) }));
  app.route('/judge', judgeRoutes({ ledger, auth, ...now }));
  const publicUrl = options.publicUrl ?? process.env.PUBLIC_URL;
  app.route('/director', circuitDirectorRoutes({ ledger, auth, ...now }));
  app.route('/director', directorRoutes({ ledger, auth, ...now, ...(publicUrl ? { publicUrl } : {}) }));
  // Series and players across events: their pages, CSV and embed.
  app.route('/', circuitPages(ledger));
  // A team's own sign-up and check-in, from any phone.
  app.route('/', signUpRoutes({ ledger, auth, ...now }));

  // Live pages: the full page, and its stream of regions.
  const page =
    (view: LiveView, missing = 'There is nothing at this address yet.') =>
    (c: Context) => {
      // The address phones reach, for the sign-up's QR code on the venue screen.
      const html = renderLivePage(view, ledger.models, {
        origin: publicAddress(c.req.url, publicUrl).origin,
        now: (options.now ?? (() => new Date().toISOString()))(),
      });
      if (html === null) return c.html(String(NotFoundPage({ message: missing, path: c.req.path })), 404);
      return c.html(html);
    };
  const stream = (view: LiveView) => async (c: Context) => {
    const channel = view.channel;
    const after = resumePoint(c.req.header('last-event-id'), c.req.query('after'));
    if (typeof after !== 'number') return c.json({ error: after.error }, 400);
    await ledger.syncTo(after);
    // A stream for a tournament or game the ledger does not hold is refused as its page is.
    const missing = missingSubject(view, ledger.models);
    if (missing) return c.json({ error: missing }, 404);
    return openStream(c, broadcaster, (sink) => pages.attach(channel, sink, after));
  };

  // Every tournament with where it stands.
  app.get('/', (c) => page({ kind: 'home', channel: channelOf('home') })(c));
  app.get('/stream', (c) => stream({ kind: 'home', channel: channelOf('home') })(c));
  // The address a venue types once: the screen of the tournament a director pinned, at this
  // same address, so a TV left here never moves to a tournament created later.
  // `/screen?t=<id>` holds a screen to that tournament whatever the director pins, stream and all.
  const pinned: LiveView = { kind: 'pinned', channel: channelOf('pinned') };
  const screenView = (c: Context): LiveView => {
    const t = c.req.query('t');
    return t === undefined ? pinned : { kind: 'screen', tournamentId: t, channel: channelOf('screen', t), venue: true };
  };
  const noScreen = (c: Context) =>
    c.req.query('t') === undefined
      ? 'No tournament has been set up yet, so the venue screen has nothing to show.'
      : `There is no tournament '${c.req.query('t')}' to show on this screen.`;
  app.get('/screen', (c) => page(screenView(c), noScreen(c))(c));
  app.get('/screen/stream', (c) => stream(screenView(c))(c));
  // The judge console's live stream: a signal each judge's page answers by fetching its console.
  app.get('/judge/stream', auth.guard(['judge', 'director']), (c) => stream({ kind: 'judge', channel: channelOf('judge') })(c));
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
  app.get('/tournaments/:tournamentId/games/:gameId', (c) => page(tableView(c))(c));
  app.get('/tournaments/:tournamentId/games/:gameId/stream', (c) => stream(tableView(c))(c));
  // A game's page was once at …/tables/<game>, though a table is a numbered table in the room;
  // links printed or bookmarked then still arrive, moved for good.
  for (const rest of ['', '/stream']) {
    app.get(`/tournaments/:tournamentId/tables/:gameId${rest}`, (c) => {
      const moved = `${tournamentLinks(c.req.param('tournamentId')).game(c.req.param('gameId'))}${rest}${new URL(c.req.url).search}`;
      return c.redirect(moved, 301);
    });
  }
  app.get('/games/:gameId', (c) => page(tableView(c))(c));
  app.get('/games/:gameId/stream', (c) => stream(tableView(c))(c));
  // A team's own page, and a progressive player's: where to go next and how it stands, live.
  for (const kind of ['team', 'player'] as const) {
    const view = (c: Context) => {
      const [tournamentId, subjectId] = [c.req.param('tournamentId')!, c.req.param('subjectId')!];
      return { kind, tournamentId, subjectId, channel: channelOf(kind, subjectChannelId(tournamentId, subjectId)) };
    };
    app.get(`/tournaments/:tournamentId/${kind}s/:subjectId`, (c) =>
      page(view(c), `${missingSubjectOf(view(c), ledger.models) ?? 'There is nothing at this address'}.`)(c),
    );
    app.get(`/tournaments/:tournamentId/${kind}s/:subjectId/stream`, (c) => stream(view(c))(c));
  }

  // A tournament's bracket and standings for other sites to frame, kept live by the pages' own streams.
  for (const kind of Object.keys(EMBEDS) as EmbedKind[]) {
    app.get(`/embed/tournaments/:tournamentId/${kind}`, (c) => {
      const html = renderEmbed(kind, c.req.param('tournamentId'), ledger.models);
      return html === null ? c.html(missingEmbed(c.req.param('tournamentId')), 404) : c.html(html);
    });
  }
  // The rules in force at each event, and the rule options' help page.
  app.route('/', rulesPages(ledger));

  app.notFound((c) => {
    if (wantsJson(c)) return c.json({ error: `there is nothing at ${c.req.path}` }, 404);
    return c.html(String(NotFoundPage({ message: 'There is no page at this address.', path: c.req.path })), 404);
  });

  /** Lets go of what the app holds beside the ledger (the reader's thread), as the server stops. */
  const close = () => reads.close();
  return { app, broadcaster, auth, close };
}

/** What a live view names that the ledger does not hold, as a sentence; null when it all exists. */
function missingSubject(view: LiveView, models: ReadModels): string | null {
  if (view.kind === 'team' || view.kind === 'player') return missingSubjectOf(view, models);
  if ('tournamentId' in view && !tournamentById(models, view.tournamentId)) return `tournament ${view.tournamentId} does not exist`;
  if ('gameId' in view && !gameById(models, view.gameId)) return `game ${view.gameId} does not exist`;
  return null;
}

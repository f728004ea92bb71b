/**
 * Three `spades serve` processes on one PostgreSQL behind deploy/nginx.conf, while bots enter at
 * the tables through a fourth: screens attached through nginx to different processes show the
 * same standings and tables, each entry brought live by their own process, and when one process is killed with
 * SIGKILL its screens reconnect through nginx to another and resume with nothing missed or
 * repeated (a real Chromium, and event-feed clients checked against /api/events).
 */
import { readFileSync } from 'node:fs';
import { createParser } from 'eventsource-parser';
import pg from 'pg';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type PostgresLedger, openPostgresLedger } from '../events/store/postgres/served-ledger.ts';
import { LIVE_TABLES_ID } from '../views/screen.tsx';
import { DEMO_TOURNAMENT, createDemo } from '../server/serve/serve.ts';
import { driveTables } from '../server/serve/table-driver.ts';
import { SSE_LOG, regionText, sseLog } from './fixtures/browser-page.ts';
import {
  hasChromium,
  killHard,
  launchChromium,
  noteMissingChromium,
  removeTempDirs,
  type ServeProcess,
  startServeProcess,
  tempDir,
  waitFor,
} from './fixtures/live-server.ts';
import { NGINX_TEMPLATE, type NginxProxy, nginx, noteMissingNginx, startNginx } from './fixtures/nginx.ts';
import { type PostgresCluster, noteMissingPostgres, postgres, startPostgres } from './fixtures/postgres.ts';

noteMissingPostgres('pg-cluster');
noteMissingNginx('pg-cluster');
noteMissingChromium('pg-cluster (its browser case)');

const SEED = 'cluster';
const STANDINGS = '.panel--standings';

/** deploy/nginx.conf, saying in each answer which process gave it, so the test knows where each screen is attached. */
function templateNamingUpstream(): string {
  const template = readFileSync(NGINX_TEMPLATE, 'utf8');
  const marked = template.replace(
    /^([ \t]*)proxy_pass http:\/\/spades;\n/gm,
    (line, indent: string) => `${line}${indent}add_header X-Upstream $upstream_addr always;\n`,
  );
  expect(marked).not.toBe(template);
  return marked;
}

/** An event-feed client that reconnects with Last-Event-ID whenever its stream ends, as EventSource does. */
interface Follower {
  ids: number[];
  data: Map<number, string>;
  /** When each event arrived, in ms since the epoch. */
  arrived: Map<number, number>;
  /** The process (host:port) each connection was attached to, in order. */
  upstreams: string[];
  stop(): void;
}

function follow(base: string): Follower {
  const follower: Follower = { ids: [], data: new Map(), arrived: new Map(), upstreams: [], stop: () => undefined };
  let stopped = false;
  let abort = new AbortController();
  follower.stop = () => {
    stopped = true;
    abort.abort();
  };
  void (async () => {
    while (!stopped) {
      abort = new AbortController();
      // From the start of the ledger at first (a client naming no position would start at the head).
      const last = follower.ids.at(-1);
      try {
        const response = await fetch(`${base}/api/events/stream`, {
          headers: { accept: 'text/event-stream', 'last-event-id': String(last ?? 0) },
          signal: abort.signal,
        });
        follower.upstreams.push(response.headers.get('x-upstream') ?? 'unknown');
        const parser = createParser({
          onEvent: (message) => {
            const id = Number(message.id);
            follower.ids.push(id);
            follower.data.set(id, message.data);
            follower.arrived.set(id, Date.now());
          },
        });
        const reader = response.body!.getReader();
        const decoder = new TextDecoder();
        for (;;) {
          const { done, value } = await reader.read();
          if (done) break;
          parser.feed(decoder.decode(value, { stream: true }));
        }
      } catch {
        // A broken connection is followed by a new one, as a browser's would be.
      }
      if (!stopped) await new Promise((resolve) => setTimeout(resolve, 100));
    }
  })();
  return follower;
}

/** Every event of the ledger through /api/events, a page at a time. */
async function allEvents(base: string): Promise<{ position: number; meta: { at: string } }[]> {
  const events: { position: number; meta: { at: string } }[] = [];
  for (;;) {
    const page = (await (await fetch(`${base}/api/events?after=${events.length}&limit=1000`)).json()) as { position: number; meta: { at: string } }[];
    events.push(...page);
    if (page.length < 1000) return events;
  }
}

const portOf = (upstream: string) => Number(upstream.split(':').pop());

describe.skipIf(!postgres.available || !nginx.available)('three server processes on one PostgreSQL behind nginx', () => {
  let cluster: PostgresCluster;
  let url: string;
  let bots: PostgresLedger;
  const servers: (ServeProcess | undefined)[] = [];
  let proxy: NginxProxy;
  let playing = false;
  let playingDone: Promise<void> = Promise.resolve();

  /** The bots enter at every table (one step at each, every 100 ms) until `stopPlaying`. */
  const startPlaying = () => {
    playing = true;
    playingDone = (async () => {
      while (playing) {
        await driveTables(bots, { tournamentId: DEMO_TOURNAMENT, seed: SEED });
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    })();
  };
  const stopPlaying = async () => {
    playing = false;
    await playingDone;
  };
  const serverOn = (port: number) => servers.find((s) => s?.port === port);
  const startServer = (port = 0) => startServeProcess(tempDir(), port, ['--no-demo'], { DATABASE_URL: url });

  beforeAll(async () => {
    cluster = await startPostgres();
    url = await cluster.createDatabase('cluster');
    bots = await openPostgresLedger({ url });
    await createDemo(bots);
    await driveTables(bots, { tournamentId: DEMO_TOURNAMENT, seed: SEED });
    const started = await Promise.allSettled([1, 2, 3].map(() => startServer()));
    // Whatever started is stopped by afterAll, even when another did not.
    servers.push(...started.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : [])));
    for (const s of started) if (s.status === 'rejected') throw s.reason;
    proxy = await startNginx({ upstreamPorts: servers.map((s) => s!.port), template: templateNamingUpstream() });
  }, 180_000);

  afterAll(async () => {
    playing = false;
    await playingDone.catch(() => undefined);
    await Promise.all(servers.map((s) => (s ? killHard(s.child) : undefined)));
    await proxy?.stop();
    await bots?.close();
    await cluster?.stop();
    removeTempDirs();
  });

  it('keeps every event-feed client gapless through nginx while one process is killed, each event within a second before the kill', async () => {
    const followers = Array.from({ length: 9 }, () => follow(proxy.url));
    await waitFor('every client to attach', () => followers.every((f) => f.upstreams.length === 1), 20_000);
    // nginx spreads the clients over the processes.
    const attachedAt = Date.now();
    const attached = new Set(followers.map((f) => portOf(f.upstreams[0]!)));
    expect(attached.size).toBeGreaterThan(1);

    startPlaying();
    await waitFor('some entries', () => bots.models.position > 200, 20_000);
    // The process holding the most clients goes down, as a crash or a pulled plug would.
    const counts = new Map<number, number>();
    for (const f of followers) counts.set(portOf(f.upstreams[0]!), (counts.get(portOf(f.upstreams[0]!)) ?? 0) + 1);
    const victim = [...counts].sort((a, b) => b[1] - a[1])[0]![0];
    const killedAt = Date.now();
    await killHard(serverOn(victim)!.child);
    servers[servers.findIndex((s) => s?.port === victim)] = undefined;
    await waitFor('more entries after the kill', () => bots.models.position > 400, 30_000);
    await stopPlaying();
    const head = bots.models.position;

    await waitFor('every client to reach the head', () => followers.every((f) => f.ids.at(-1) === head), 30_000);
    followers.forEach((f) => f.stop());
    const events = await allEvents(proxy.url);
    expect(events.map((e) => e.position)).toEqual(Array.from({ length: head }, (_, i) => i + 1));
    for (const f of followers) {
      // Every event once, in order: nothing missed or repeated across the reconnect.
      expect(f.ids).toEqual(events.map((e) => e.position));
      for (const event of events) expect(JSON.parse(f.data.get(event.position)!)).toEqual(event);
    }
    const moved = followers.filter((f) => portOf(f.upstreams[0]!) === victim);
    expect(moved.length).toBeGreaterThan(0);
    for (const f of moved) {
      expect(f.upstreams.length).toBeGreaterThan(1);
      expect(portOf(f.upstreams.at(-1)!)).not.toBe(victim);
    }
    // Before the kill, every client had each event within a second of its append, whichever process it was on.
    for (const f of followers) {
      for (const event of events) {
        const appended = Date.parse(event.meta.at);
        if (appended < attachedAt || appended > killedAt - 1000) continue;
        const arrived = f.arrived.get(event.position)!;
        expect(arrived - appended, `event ${event.position} on ${f.upstreams[0]}`).toBeLessThan(1000);
      }
    }
    // The process comes back on its port, for the next case.
    const index = servers.indexOf(undefined);
    servers[index] = await startServer(victim);
  }, 180_000);

  it('plays the demo’s tables from one process at a time, and from another once that one is killed', async () => {
    const demoUrl = await cluster.createDatabase('demo');
    const reader = new pg.Client({ connectionString: demoUrl });
    await reader.connect();
    const holder = async () => {
      const { rows } = await reader
        .query<{ holder: string }>("SELECT holder FROM leases WHERE name = 'demo-bots' AND expires_at > now()")
        .catch(() => ({ rows: [] as { holder: string }[] }));
      return rows[0]?.holder;
    };
    // Both start at once on the new database; should either fail to, the other is not left running.
    const started = await Promise.allSettled([1, 2].map(() => startServeProcess(tempDir(), 0, ['--pace', '100'], { DATABASE_URL: demoUrl })));
    const demoServers = started.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
    if (demoServers.length < 2) {
      await Promise.all(demoServers.map((s) => killHard(s.child)));
      await reader.end();
      throw (started.find((s) => s.status === 'rejected') as PromiseRejectedResult).reason;
    }
    const watcher = await openPostgresLedger({ url: demoUrl });
    try {
      // Both set the demo up at the same moment: each step lands once.
      await waitFor('the bots to play', () => watcher.models.position > 60, 30_000);
      expect(watcher.models.tournaments[DEMO_TOURNAMENT]!.model.teams).toHaveLength(16);
      const playing = await waitFor('a process to hold the lease', holder, 10_000);
      const pid = Number(playing.split(':')[1]);
      const killed = demoServers.find((s) => s.child.pid === pid)!;
      const other = demoServers.find((s) => s !== killed)!;
      expect(killed).toBeDefined();
      await killHard(killed.child);
      const at = watcher.models.position;
      // Once the lease runs out, the other process takes it and its bots carry on.
      try {
        await waitFor('the other process to take the lease', async () => Number((await holder())?.split(':')[1]) === other.child.pid, 30_000);
      } catch (error) {
        throw new Error(
          `${(error as Error).message}; the lease is held by ${await holder()}; process ${other.child.pid} (exit ${other.child.exitCode}) wrote:\n${other.output()}`,
        );
      }
      await waitFor('the bots to carry on', () => watcher.models.position > at + 20, 20_000);
      const report = await watcher.store.verifyChain();
      expect(report.ok).toBe(true);
    } finally {
      await watcher.close();
      await Promise.all(demoServers.map((s) => killHard(s.child)));
      await reader.end();
    }
  }, 120_000);

  describe.skipIf(!hasChromium)('in a browser', () => {
    let browser: Browser;
    beforeAll(async () => {
      browser = await launchChromium();
    });
    afterAll(async () => {
      await browser?.close();
    });

    /** A venue screen through nginx, and the process its stream is attached to. */
    const openScreen = async (): Promise<{ page: Page; upstream: () => number }> => {
      const page = await browser.newPage({ viewport: { width: 1920, height: 1080 } });
      await page.addInitScript(SSE_LOG);
      let upstream = 0;
      page.on('response', (response) => {
        if (response.url().endsWith('/stream') || response.url().includes('/stream?')) upstream = portOf(response.headers()['x-upstream'] ?? '');
      });
      const response = await page.goto(`${proxy.url}/screen`);
      expect(response?.status()).toBe(200);
      await waitFor('the screen to connect', async () => (await sseLog(page)).opened === 1 && upstream > 0, 20_000);
      return { page, upstream: () => upstream };
    };
    const shown = async (page: Page) => `${await regionText(page, STANDINGS)}\n${await regionText(page, LIVE_TABLES_ID)}`;

    it('shows the same standings and tables on screens attached to different processes, and moves a killed process’s screen to another', async () => {
      const screens: { page: Page; upstream: () => number }[] = [];
      // Until the screens sit on at least two processes (nginx takes them in turn).
      while (screens.length < 6 && new Set(screens.map((s) => s.upstream())).size < 3) screens.push(await openScreen());
      expect(new Set(screens.map((s) => s.upstream())).size).toBeGreaterThan(1);

      const entry = async () => {
        const before = bots.models.position;
        expect(await driveTables(bots, { tournamentId: DEMO_TOURNAMENT, seed: SEED })).toBeGreaterThan(0);
        const position = bots.models.position;
        expect(position).toBeGreaterThan(before);
        // Every screen is brought the entry by its own process, without a reload. How soon is the
        // bench's to measure ("commit to screen through nginx"), not a test's on a shared machine.
        await waitFor(
          'every screen to reach the entry',
          async () => (await Promise.all(screens.map((s) => sseLog(s.page)))).every((log) => log.ids.at(-1) === position),
          10_000,
        );
        const texts = await Promise.all(screens.map((s) => shown(s.page)));
        expect(new Set(texts).size).toBe(1);
        return texts[0]!;
      };
      const first = await entry();
      const second = await entry();
      expect(second).not.toBe(first);

      // The process under the first screen goes down; that screen reconnects through nginx to another.
      const victim = screens[0]!.upstream();
      await killHard(serverOn(victim)!.child);
      servers[servers.findIndex((s) => s?.port === victim)] = undefined;
      const moved = screens.filter((s) => s.upstream() === victim);
      await waitFor(
        'the screens of the killed process to reconnect elsewhere',
        async () => {
          for (const s of moved) if ((await sseLog(s.page)).opened < 2 || s.upstream() === victim) return false;
          return true;
        },
        30_000,
      );
      // Entries after the move reach every screen, the moved ones included, and all show the same.
      const third = await entry();
      expect(third).not.toBe(second);
      // What the screens show is what a page loaded now shows.
      const fresh = await openScreen();
      expect(await shown(fresh.page)).toBe(third);
      for (const s of [...screens, fresh]) expect((await sseLog(s.page)).ids).toEqual([...(await sseLog(s.page)).ids].sort((a, b) => a - b));
      await Promise.all([...screens, fresh].map((s) => s.page.close()));
    }, 180_000);
  });
});

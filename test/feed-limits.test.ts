/**
 * The public event feed's caps: streams at once from one address and over the server, and the
 * catch-up allowance, each refused with a sentence and `Retry-After`; one address at its cap
 * locks out neither other addresses nor anyone's page streams; catch-ups take turns.
 */
import { type IncomingMessage, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Ledger } from '../events/store/sqlite/ledger.ts';
import { createApp } from '../server/app/app.ts';
import { type FeedLimitOptions, createCatchUpTurns, createFeedLimits, feedLimitsFromEnv } from '../server/live/feed-limits.ts';
import { TOURNAMENT, demoLedger, play, removeTempDirs, tempDir, waitFor } from './fixtures/live-server.ts';

let ledger: Ledger;
beforeAll(async () => {
  ledger = await demoLedger(tempDir());
  await play(ledger, 400);
});
afterAll(() => {
  ledger.close();
  removeTempDirs();
});

/** The app on a free loopback port with the given feed limits. */
async function served(feedLimits: FeedLimitOptions) {
  const { app, broadcaster } = createApp({ ledger, feedLimits });
  const server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' });
  if (!server.listening) await new Promise((resolve) => server.once('listening', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    port,
    broadcaster,
    close: () =>
      new Promise<void>((resolve) => {
        broadcaster.close();
        if ('closeAllConnections' in server) server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

interface Opened {
  status: number;
  headers: IncomingMessage['headers'];
  /** The body so far: the refusal's JSON, or the stream's text. */
  body(): string;
  messages: EventSourceMessage[];
  ended: Promise<void>;
  close(): void;
}

/** Opens `path` from `from` (any 127.x.y.z is this machine, and a different address to the server). */
function open(port: number, path: string, from = '127.0.0.1'): Promise<Opened> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, localAddress: from, agent: false, headers: { accept: 'text/event-stream' } }, (res) => {
      let text = '';
      const messages: EventSourceMessage[] = [];
      const parser = createParser({ onEvent: (m) => messages.push(m) });
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        text += chunk;
        parser.feed(chunk);
      });
      const ended = new Promise<void>((done) => {
        res.once('close', done);
        res.once('end', done);
      });
      resolve({ status: res.statusCode ?? 0, headers: res.headers, body: () => text, messages, ended, close: () => req.destroy() });
    });
    req.on('error', reject);
    req.end();
  });
}

describe('the feed caps', () => {
  it('refuses a stream over the per-address cap with a sentence and Retry-After, and lets other addresses and page streams in', async () => {
    const server = await served({ streamsPerAddress: 3, streams: 10 });
    try {
      const head = ledger.models.position;
      const mine = await Promise.all([0, 1, 2].map(() => open(server.port, `/api/events/stream?after=${head}`)));
      expect(mine.map((o) => o.status)).toEqual([200, 200, 200]);

      const refused = await open(server.port, `/api/events/stream?after=${head}`);
      expect(refused.status).toBe(429);
      expect(refused.headers['retry-after']).toBe('30');
      // The limit it reached, as the RateLimit headers state it: none left.
      expect(refused.headers['ratelimit-policy']).toBe('"feed-streams";q=3;qu="concurrent-requests"');
      expect(refused.headers.ratelimit).toBe('"feed-streams";r=0');
      await refused.ended;
      expect(JSON.parse(refused.body())).toEqual({
        error: 'this address already has 3 event feed connections open, the most one address may have at once; close one, or try again in 30 seconds',
        code: 'too-many-streams',
      });

      // Another address, and this address's own page streams, are not held back by it.
      const other = await open(server.port, `/api/events/stream?after=${head}`, '127.0.0.2');
      expect(other.status).toBe(200);
      const page = await open(server.port, `/tournaments/${TOURNAMENT}/screen/stream?after=${head}`);
      expect(page.status).toBe(200);

      // A stream that ends gives its place back.
      mine[0]!.close();
      await waitFor('the closed stream to be let go', () => server.broadcaster.clientCount() === 4);
      const again = await open(server.port, `/api/events/stream?after=${head}`);
      expect(again.status).toBe(200);
      for (const o of [...mine, other, page, again]) o.close();
    } finally {
      await server.close();
    }
  });

  it('refuses a stream over the server-wide cap, whatever address it comes from', async () => {
    const server = await served({ streamsPerAddress: 2, streams: 3 });
    try {
      const head = ledger.models.position;
      const held = [
        await open(server.port, `/api/events/stream?after=${head}`, '127.0.0.1'),
        await open(server.port, `/api/events/stream?after=${head}`, '127.0.0.1'),
        await open(server.port, `/api/events/stream?after=${head}`, '127.0.0.2'),
      ];
      expect(held.map((o) => o.status)).toEqual([200, 200, 200]);
      const refused = await open(server.port, `/api/events/stream?after=${head}`, '127.0.0.3');
      expect(refused.status).toBe(429);
      expect(refused.headers['retry-after']).toBe('30');
      await refused.ended;
      expect(JSON.parse(refused.body()).error).toBe(
        'the server already has 3 event feed connections open, the most it serves at once; try again in 30 seconds',
      );
      for (const o of held) o.close();
    } finally {
      await server.close();
    }
  });

  it("paces a catch-up to its address's allowance, refuses another catch-up meanwhile, and lets a stream at the head in", async () => {
    const head = ledger.models.position;
    const allowance = 300 * 1024;
    const rate = 200 * 1024;
    // The whole ledger is several times the allowance.
    const ledgerBytes = JSON.stringify(ledger.store.readAll()).length;
    expect(ledgerBytes).toBeGreaterThan(3 * allowance);
    const server = await served({ catchUpBytesPerAddress: allowance, catchUpRatePerAddress: rate });
    try {
      const first = await open(server.port, '/api/events/stream?after=0');
      expect(first.status).toBe(200);
      await waitFor('some of the catch-up', () => first.messages.length > 0);

      const second = await open(server.port, '/api/events/stream?after=0');
      expect(second.status).toBe(429);
      await second.ended;
      const { error } = JSON.parse(second.body()) as { error: string };
      expect(error).toMatch(
        /^this address has been sent 0\.3 MiB of missed events in a short time, the most it may catch up on at once \(then 0\.2 MiB a second\); try again in \d+ seconds, or resume from a later event$/,
      );
      expect(Number(second.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      expect(error).toContain(`try again in ${second.headers['retry-after']} seconds`);

      // Another address has an allowance of its own; a stream with nothing to catch up needs none.
      const elsewhere = await open(server.port, `/api/events/stream?after=${head - 5}`, '127.0.0.2');
      expect(elsewhere.status).toBe(200);
      const live = await open(server.port, `/api/events/stream?after=${head}`);
      expect(live.status).toBe(200);

      // The paced catch-up still gets every event, once and in order.
      await waitFor('the paced catch-up to reach the head', () => first.messages.length >= head, 30_000);
      expect(first.messages.map((m) => Number(m.id))).toEqual(Array.from({ length: head }, (_, i) => i + 1));
      await waitFor("the other address's catch-up", () => elsewhere.messages.length >= 5);
      for (const o of [first, elsewhere, live]) o.close();
    } finally {
      await server.close();
    }
  }, 40_000);
});

describe('the feed allowances', () => {
  it('refill at their rate up to their size, and say how long to wait when spent', () => {
    let clock = 0;
    const limits = createFeedLimits(
      { catchUpBytesPerAddress: 1024 * 1024, catchUpRatePerAddress: 256 * 1024, catchUpBytes: 4 * 1024 * 1024, catchUpRate: 1024 * 1024 },
      () => clock,
    );
    const first = limits.admit('192.0.2.1', true);
    if (!('ticket' in first)) throw new Error(first.refused);
    // Spending the whole allowance and a page more: the next catch-up waits until it is back to a
    // quarter MiB (a page's worth), 2 seconds of refill at a quarter MiB a second.
    void first.ticket.spend(1024 * 1024 + 256 * 1024);
    const refused = limits.admit('192.0.2.1', true);
    expect(refused).toMatchObject({ retryAfterSeconds: 2 });
    // Another address is not held back; nor is a stream of this one that has nothing to catch up.
    expect('ticket' in limits.admit('192.0.2.2', true)).toBe(true);
    expect('ticket' in limits.admit('192.0.2.1', false)).toBe(true);
    clock += 2000;
    expect('ticket' in limits.admit('192.0.2.1', true)).toBe(true);
    // Never more than its size, however long it rests.
    clock += 3_600_000;
    const rested = limits.admit('192.0.2.3', true);
    if (!('ticket' in rested)) throw new Error(rested.refused);
    void rested.ticket.spend(1024 * 1024 - 200 * 1024);
    expect('refused' in limits.admit('192.0.2.3', true)).toBe(true);
    first.ticket.release();
  });

  it('count a released stream once, however often it is released', () => {
    const limits = createFeedLimits({ streamsPerAddress: 2 });
    const a = limits.admit('192.0.2.1', false);
    if (!('ticket' in a)) throw new Error(a.refused);
    a.ticket.release();
    a.ticket.release();
    expect(limits.openStreams()).toBe(0);
    expect('ticket' in limits.admit('192.0.2.1', false) && 'ticket' in limits.admit('192.0.2.1', false)).toBe(true);
    expect('refused' in limits.admit('192.0.2.1', false)).toBe(true);
  });
});

describe('the feed caps an operator sets', () => {
  it('are read from FEED_STREAMS_PER_ADDRESS and FEED_STREAMS, and refused with a sentence when not a count', () => {
    expect(feedLimitsFromEnv({})).toEqual({});
    expect(feedLimitsFromEnv({ FEED_STREAMS_PER_ADDRESS: '200', FEED_STREAMS: '4000' })).toEqual({ streamsPerAddress: 200, streams: 4000 });
    expect(feedLimitsFromEnv({ FEED_STREAMS: '0' })).toEqual({
      error: "FEED_STREAMS must be a whole number of event feed connections from 1 to 9999999, not '0'",
    });
    expect(feedLimitsFromEnv({ FEED_STREAMS_PER_ADDRESS: 'lots' })).toEqual({
      error: "FEED_STREAMS_PER_ADDRESS must be a whole number of event feed connections from 1 to 9999999, not 'lots'",
    });
  });
});

describe('catch-up turns', () => {
  it('are given one at a time, in order, with the event loop let through between them', async () => {
    const turn = createCatchUpTurns();
    const order: string[] = [];
    const endFirst = await turn();
    const second = turn().then((end) => {
      order.push('second');
      return end;
    });
    const third = turn().then((end) => {
      order.push('third');
      return end;
    });
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(order).toEqual([]);
    // A timer due before the next turn runs before it.
    setTimeout(() => order.push('timer'), 0);
    await new Promise((resolve) => setTimeout(resolve, 1));
    endFirst();
    (await second)();
    (await third)();
    expect(order).toEqual(['timer', 'second', 'third']);
  });
});

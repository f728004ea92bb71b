import { connect } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import type { Ledger } from '../events/store/sqlite/ledger.ts';
import { createApp } from '../server/app/app.ts';
import { nextEntry } from '../server/serve/table-driver.ts';
import { EVENTS_CHANNEL } from '../server/live/event-stream.ts';
import { type SseSink, createBroadcaster, encodeSse } from '../server/live/sse.ts';
import { LIVE_TABLES_ID, TICKER_ID } from '../views/screen.tsx';
import { LEADERBOARD_ID } from '../views/leaderboard.tsx';
import { BRACKET_ID } from '../views/bracket.tsx';
import { HIGHLIGHTS_ID } from '../views/stats.tsx';
import { TOURNAMENT, demoLedger, openSse, play, playUntil, removeTempDirs, serveInProcess, tempDir, waitFor } from './fixtures/live-server.ts';

const decoder = new TextDecoder();

/** A sink that keeps what it is sent, as a client that reads at once would. */
function recordingSink(): SseSink & { chunks: Uint8Array[]; text(): string; closed: boolean } {
  const closers: (() => void)[] = [];
  const sink = {
    chunks: [] as Uint8Array[],
    closed: false,
    text: () => sink.chunks.map((c) => decoder.decode(c)).join(''),
    write(bytes: Uint8Array) {
      sink.chunks.push(bytes);
      return true;
    },
    buffered: () => 0,
    drained: () => Promise.resolve(),
    close() {
      sink.closed = true;
      for (const fn of closers) fn();
    },
    onClose(fn: () => void) {
      closers.push(fn);
    },
  };
  return sink;
}

afterEach(() => {
  vi.useRealTimers();
});

describe('the broadcaster', () => {
  it('encodes a message once: id, event name, and each line of data on its own data line', () => {
    expect(decoder.decode(encodeSse({ id: 42, data: '<p>one</p>\n<p>two</p>' }))).toBe('id: 42\ndata: <p>one</p>\ndata: <p>two</p>\n\n');
    expect(decoder.decode(encodeSse({ event: 'tick', data: 'x' }))).toBe('event: tick\ndata: x\n\n');
  });

  it('writes the very same bytes to every client of a channel, and nothing to other channels', () => {
    const broadcaster = createBroadcaster();
    const a = recordingSink();
    const b = recordingSink();
    const other = recordingSink();
    broadcaster.attach('screen:t1', a);
    broadcaster.attach('screen:t1', b);
    broadcaster.attach('leaderboard:t1', other);
    const message = encodeSse({ id: 7, data: 'hello' });
    broadcaster.publish('screen:t1', message);
    expect(a.chunks).toEqual([message]);
    expect(b.chunks[0]).toBe(a.chunks[0]);
    expect(other.chunks).toEqual([]);
    expect(broadcaster.clientCount()).toBe(3);
    broadcaster.close();
    expect([a.closed, b.closed, other.closed]).toEqual([true, true, true]);
    expect(broadcaster.clientCount()).toBe(0);
  });

  it('forgets a client that leaves, and a channel when its last client leaves', () => {
    const broadcaster = createBroadcaster();
    const a = recordingSink();
    const b = recordingSink();
    broadcaster.attach('table:g1', a);
    const detach = broadcaster.attach('table:g1', b);
    a.close();
    expect(broadcaster.clientCount()).toBe(1);
    detach();
    expect(broadcaster.hasClients('table:g1')).toBe(false);
    expect(broadcaster.channels()).toEqual([]);
    broadcaster.close();
  });

  it('sends a heartbeat comment at least every 15 seconds by default', () => {
    vi.useFakeTimers();
    const broadcaster = createBroadcaster();
    const sink = recordingSink();
    broadcaster.attach('screen:t1', sink);
    vi.advanceTimersByTime(15_000);
    expect(sink.text()).toMatch(/^: heartbeat\n\n/);
    broadcaster.close();
  });

  it('drops a client whose unsent bytes pass the bound, and keeps the others', () => {
    const broadcaster = createBroadcaster({ maxBufferedBytes: 1000 });
    // A client that takes nothing: its sink refuses once the bound is passed, as nodeSink does.
    const stalled = recordingSink();
    let pending = 0;
    const stalledSink: SseSink = {
      ...stalled,
      write(bytes) {
        if (pending > broadcaster.maxBufferedBytes) return false;
        pending += bytes.byteLength;
        return true;
      },
      buffered: () => pending,
    };
    const healthy = recordingSink();
    broadcaster.attach('screen:t1', stalledSink);
    broadcaster.attach('screen:t1', healthy);
    for (let i = 0; i < 10; i++) broadcaster.publish('screen:t1', encodeSse({ id: i, data: 'x'.repeat(300) }));
    expect(stalled.closed).toBe(true);
    expect(pending).toBeLessThan(1000 + 400);
    expect(broadcaster.clientCount()).toBe(1);
    expect(healthy.chunks).toHaveLength(10);
    broadcaster.close();
  });
});

describe('SSE over HTTP', () => {
  let ledger: Ledger;
  beforeAll(async () => {
    ledger = await demoLedger(tempDir());
    await play(ledger, 3);
  });
  afterAll(() => {
    ledger.close();
    removeTempDirs();
  });

  const streams = [
    '/api/events/stream',
    `/tournaments/${TOURNAMENT}/screen/stream`,
    `/tournaments/${TOURNAMENT}/leaderboard/stream`,
    `/tournaments/${TOURNAMENT}/bracket/stream`,
    `/tournaments/${TOURNAMENT}/stream`,
  ];

  it('answers every stream with an event stream that proxies must not buffer, on sockets and in process', async () => {
    const server = await serveInProcess(ledger);
    const { app, broadcaster } = createApp({ ledger });
    try {
      for (const path of streams) {
        const socket = await openSse(server.url + path);
        const local = await app.request(path);
        for (const response of [socket.response, local]) {
          expect(response.status, path).toBe(200);
          expect(response.headers.get('content-type'), path).toBe('text/event-stream; charset=utf-8');
          expect(response.headers.get('x-accel-buffering'), path).toBe('no');
          expect(response.headers.get('cache-control'), path).toBe('no-cache, no-transform');
        }
        socket.close();
        await local.body!.cancel();
      }
    } finally {
      broadcaster.close();
      await server.close();
    }
  });

  it('keeps an idle connection alive with heartbeat comments', async () => {
    const server = await serveInProcess(ledger, { heartbeatSeconds: 0.05 });
    const reader = await openSse(`${server.url}/tournaments/${TOURNAMENT}/screen/stream?after=${ledger.models.position}`);
    await waitFor('two heartbeats', () => reader.comments.filter((c) => c.trim() === 'heartbeat').length >= 2);
    expect(reader.messages).toEqual([]);
    reader.close();
    await server.close();
  });

  it('drops a client that stops reading once its buffer passes the bound, and keeps serving the others', async () => {
    const bound = 64 * 1024;
    const server = await serveInProcess(ledger, { maxBufferedBytes: bound });
    const { port } = new URL(server.url);
    // A client that sends its request and then never reads a byte.
    const stalled = connect(Number(port), '127.0.0.1');
    stalled.pause();
    stalled.write(`GET /api/events/stream?after=${ledger.store.head().position} HTTP/1.1\r\nHost: x\r\nAccept: text/event-stream\r\n\r\n`);
    const healthy = await openSse(`${server.url}/api/events/stream?after=${ledger.store.head().position}`);
    await waitFor('both clients to attach', () => server.broadcaster.clientCount() === 2);

    // Much more than the socket buffers of both ends can hold, so the server's own queue grows.
    const message = encodeSse({ id: 1, data: 'x'.repeat(256 * 1024) });
    let sent = 0;
    while (server.broadcaster.clientCount() === 2 && sent < 400) {
      server.broadcaster.publish(EVENTS_CHANNEL, message);
      sent++;
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect(server.broadcaster.clientCount()).toBe(1);
    expect(sent).toBeLessThan(400);
    await waitFor('the healthy client to read everything sent', () => healthy.messages.length === sent);
    healthy.close();
    stalled.destroy();
    await server.close();
  });
});

describe('live page messages', () => {
  let ledger: Ledger;
  beforeAll(async () => {
    ledger = await demoLedger(tempDir());
    await play(ledger, 2);
  });
  afterAll(() => {
    ledger.close();
    removeTempDirs();
  });

  /** Reads a stream of the in-process app, message by message. */
  async function stream(app: ReturnType<typeof createApp>['app'], path: string) {
    const response = await app.request(path);
    const messages: EventSourceMessage[] = [];
    const parser = createParser({ onEvent: (m) => messages.push(m) });
    const reader = response.body!.getReader();
    void (async () => {
      for (;;) {
        const { done, value } = await reader.read().catch(() => ({ done: true, value: undefined }));
        if (done || !value) return;
        parser.feed(decoder.decode(value, { stream: true }));
      }
    })();
    return { messages, close: () => reader.cancel() };
  }
  /** The next entry at every live table, sent together as scorekeepers' requests arriving at once are: one commit. */
  async function burst(ledger: Ledger): Promise<number> {
    const games = Object.values(ledger.models.games).filter((game) => !game.winner);
    const appended = await Promise.all(games.map((game) => ledger.served.append(() => nextEntry(ledger, game, { seed: 'burst' }) ?? [])));
    return appended.filter((results) => results.length > 0).length;
  }
  const targets = (message: EventSourceMessage) => [...message.data.matchAll(/<hx-partial hx-target="#([^"]+)"/g)].map((m) => m[1]);

  it('sends a page that missed events all its regions at once, as of the ledger position', async () => {
    const { app, broadcaster } = createApp({ ledger });
    const screen = await stream(app, `/tournaments/${TOURNAMENT}/screen/stream?after=3`);
    await waitFor('the catch-up message', () => screen.messages.length === 1);
    expect(screen.messages[0]!.id).toBe(String(ledger.models.position));
    expect(targets(screen.messages[0]!)).toEqual([TICKER_ID, HIGHLIGHTS_ID, LEADERBOARD_ID, BRACKET_ID, LIVE_TABLES_ID]);
    await screen.close();
    broadcaster.close();
  });

  it('renders one message per burst of entries, carrying only the regions that changed', async () => {
    const { app, broadcaster } = createApp({ ledger });
    const screen = await stream(app, `/tournaments/${TOURNAMENT}/screen/stream?after=${ledger.models.position}`);
    const board = await stream(app, `/tournaments/${TOURNAMENT}/leaderboard/stream?after=${ledger.models.position}`);
    await waitFor('both pages to attach', () => broadcaster.clientCount() === 2);

    const entries = await burst(ledger);
    expect(entries).toBeGreaterThan(1);
    await waitFor('the burst message', () => screen.messages.length === 1);
    // Cards played change the tables, not the standings, bracket or results.
    expect(screen.messages[0]!.id).toBe(String(ledger.models.position));
    expect(targets(screen.messages[0]!)).toEqual([LIVE_TABLES_ID]);

    // A finished match changes the results ticker, and the standings on both pages.
    const results = ledger.models.tournaments[TOURNAMENT]!.model.latest.length;
    await playUntil(ledger, () => ledger.models.tournaments[TOURNAMENT]!.model.latest.length > results);
    await new Promise((resolve) => setTimeout(resolve, 50));
    // The bots make one entry after another, each its own burst: the last message is as of the last.
    expect(screen.messages.at(-1)!.id).toBe(String(ledger.models.position));
    const finished = screen.messages.filter((m) => targets(m).includes(TICKER_ID));
    expect(finished).toHaveLength(1);
    expect(targets(finished[0]!)).toContain(LEADERBOARD_ID);
    const last = screen.messages.filter((m) => targets(m).includes(LEADERBOARD_ID)).at(-1)!;
    expect(board.messages.length).toBeGreaterThan(0);
    expect(board.messages.at(-1)!.id).toBe(last.id);
    expect(board.messages.every((m) => targets(m).join() === LEADERBOARD_ID)).toBe(true);
    // The screen lays the standings out in columns read from across the room, the page in one
    // full table; both rank the same teams in the same order as of the same entry.
    const screenBoard = last.data.slice(last.data.indexOf(`<hx-partial hx-target="#${LEADERBOARD_ID}"`)).split('</hx-partial>')[0]!;
    const pageBoard = board.messages.at(-1)!.data;
    const ranking = (partial: string) => [...partial.matchAll(/<tr data-team="([^"]+)"/g)].map((m) => m[1]);
    expect(screenBoard).toContain('leaderboard--columns');
    expect(pageBoard).not.toContain('leaderboard--columns');
    expect(ranking(pageBoard)).toHaveLength(ledger.models.tournaments[TOURNAMENT]!.model.teams.length);
    expect(ranking(screenBoard)).toEqual(ranking(pageBoard));
    await screen.close();
    await board.close();
    broadcaster.close();
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import type { Ledger } from '../events/store/sqlite/ledger.ts';
import { createApp } from '../server/app/app.ts';
import { createBroadcaster } from '../server/live/sse.ts';
import { type InProcessServer, demoLedger, openSse, play, removeTempDirs, serveInProcess, tempDir, waitFor } from './fixtures/live-server.ts';

let ledger: Ledger;
let server: InProcessServer;

beforeAll(async () => {
  ledger = await demoLedger(tempDir());
  await play(ledger, 40);
  server = await serveInProcess(ledger);
});

afterAll(async () => {
  await server.close();
  ledger.close();
  removeTempDirs();
});

const positions = (messages: readonly EventSourceMessage[]) => messages.map((m) => Number(m.id));
const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);

describe('GET /api/events', () => {
  it('pages through the ledger in position order from ?after, at most ?limit at a time', async () => {
    const first = (await (await fetch(`${server.url}/api/events?limit=5`)).json()) as { position: number; type: string }[];
    expect(first.map((e) => e.position)).toEqual([1, 2, 3, 4, 5]);
    expect(first[0]!.type).toBe('TournamentCreated');
    const next = (await (await fetch(`${server.url}/api/events?after=5&limit=3`)).json()) as { position: number }[];
    expect(next.map((e) => e.position)).toEqual([6, 7, 8]);
    const head = ledger.store.head().position;
    const tail = (await (await fetch(`${server.url}/api/events?after=${head - 1}`)).json()) as { position: number }[];
    expect(tail.map((e) => e.position)).toEqual([head]);
  });

  it('refuses a malformed position or limit with a sentence saying what is wrong', async () => {
    for (const [query, message] of [
      ['after=-1', "after must be a ledger position (a whole number ≥ 0), not '-1'"],
      ['after=abc', "after must be a ledger position (a whole number ≥ 0), not 'abc'"],
      ['limit=0', "limit must be a whole number from 1 to 1000, not '0'"],
      ['limit=1001', "limit must be a whole number from 1 to 1000, not '1001'"],
    ] as const) {
      const response = await fetch(`${server.url}/api/events?${query}`);
      expect(response.status, query).toBe(400);
      expect(await response.json()).toEqual({ error: message, code: 'invalid-parameter' });
    }
  });
});

describe('GET /api/events/stream', () => {
  it('sends every event after ?after=0 with its ledger position as id, then the live ones as they are appended', async () => {
    const head = ledger.store.head().position;
    const reader = await openSse(`${server.url}/api/events/stream?after=0`);
    expect(reader.response.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    await waitFor('the catch-up to reach the head', () => reader.messages.length >= head);
    await play(ledger, 2);
    const newHead = ledger.store.head().position;
    await waitFor('the live events', () => reader.messages.length >= newHead);
    reader.close();
    expect(positions(reader.messages)).toEqual(range(1, newHead));
    const sample = JSON.parse(reader.messages[newHead - 1]!.data) as { position: number; type: string; hash: string };
    expect(sample.position).toBe(newHead);
    expect(sample.hash).toBe(ledger.store.readAll({ after: newHead - 1, limit: 1 })[0]!.hash);
  });

  it('resumes after Last-Event-ID (or ?after) with nothing missed or repeated', async () => {
    const head = ledger.store.head().position;
    for (const [headers, query] of [
      [{ 'last-event-id': '100' }, ''],
      [{}, '?after=100'],
      // A reconnecting browser sends both; the id it saw last wins over the address it started from.
      [{ 'last-event-id': '100' }, '?after=7'],
    ] as const) {
      const reader = await openSse(`${server.url}/api/events/stream${query}`, headers);
      await waitFor('the catch-up', () => reader.messages.length >= head - 100);
      await new Promise((resolve) => setTimeout(resolve, 50));
      reader.close();
      expect(positions(reader.messages)).toEqual(range(101, head));
    }
  });

  it('sends an event the same bytes live as on catch-up', async () => {
    await waitFor('the earlier clients to be gone', () => server.broadcaster.clientCount() === 0);
    const live = await openSse(`${server.url}/api/events/stream?after=${ledger.store.head().position}`);
    await waitFor('the live client to attach', () => server.broadcaster.clientCount() === 1);
    const from = ledger.store.head().position;
    await play(ledger, 1);
    const to = ledger.store.head().position;
    await waitFor('the live events', () => live.messages.length >= to - from);
    live.close();
    const caughtUp = await openSse(`${server.url}/api/events/stream`, { 'last-event-id': String(from) });
    await waitFor('the catch-up', () => caughtUp.messages.length >= to - from);
    caughtUp.close();
    expect(caughtUp.messages.slice(0, to - from)).toEqual(live.messages);
  });

  it('starts a client that names no position at the head: only what is appended after it connects', async () => {
    await waitFor('the earlier clients to be gone', () => server.broadcaster.clientCount() === 0);
    const head = ledger.store.head().position;
    const reader = await openSse(`${server.url}/api/events/stream`);
    await waitFor('the client to attach', () => server.broadcaster.clientCount() === 1);
    expect(reader.messages).toEqual([]);
    await play(ledger, 1);
    const newHead = ledger.store.head().position;
    await waitFor('the live events', () => reader.messages.length >= newHead - head);
    reader.close();
    expect(positions(reader.messages)).toEqual(range(head + 1, newHead));
  });

  it('refuses a Last-Event-ID that is not a ledger position', async () => {
    const response = await fetch(`${server.url}/api/events/stream`, { headers: { 'last-event-id': 'seven' } });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ error: "Last-Event-ID must be a ledger position (a whole number ≥ 0), not 'seven'", code: 'invalid-parameter' });
  });

  it('paces a long catch-up to a slow reader instead of dropping it at the buffer bound', async () => {
    // In process the stream counts what the reader has not taken yet, so a reader that takes
    // its time is exactly a client behind by thousands of events on a small buffer.
    const { app, broadcaster } = createApp({ ledger, broadcaster: createBroadcaster({ maxBufferedBytes: 16 * 1024 }) });
    const head = ledger.store.head().position;
    // Far more than the bound: the old catch-up wrote 500 events at a time and was dropped.
    expect(head * 200).toBeGreaterThan(4 * 16 * 1024);
    const response = await app.request('/api/events/stream?after=0');
    const reader = response.body!.getReader();
    const messages: EventSourceMessage[] = [];
    const parser = createParser({ onEvent: (m) => messages.push(m) });
    const decoder = new TextDecoder();
    let reads = 0;
    while (messages.length < head) {
      const { done, value } = await reader.read();
      if (done) break;
      parser.feed(decoder.decode(value, { stream: true }));
      if (++reads % 200 === 0) await new Promise((resolve) => setTimeout(resolve, 1));
    }
    expect(positions(messages)).toEqual(range(1, head));
    expect(broadcaster.clientCount()).toBe(1);
    await reader.cancel();
    broadcaster.close();
  });
});

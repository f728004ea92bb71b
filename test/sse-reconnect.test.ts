import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createParser } from 'eventsource-parser';
import { createRandom, type Random } from '../engine/random.ts';
import type { Ledger } from '../events/store/sqlite/ledger.ts';
import { type InProcessServer, demoLedger, play, removeTempDirs, serveInProcess, tempDir, waitFor } from './fixtures/live-server.ts';

const CLIENTS = 20;
const DROPS_PER_CLIENT = 50;

let ledger: Ledger;
let server: InProcessServer;

beforeAll(async () => {
  ledger = await demoLedger(tempDir());
  await play(ledger, 2);
  server = await serveInProcess(ledger);
});

afterAll(async () => {
  await server.close();
  ledger.close();
  removeTempDirs();
});

interface Received {
  id: number;
  data: string;
}

type Cut = 'after-messages' | 'mid-chunk' | 'after-time';

/**
 * One connection to the feed, resuming after `lastId`, cut by the client in one of three ways:
 * after some messages (or a moment without them), in the middle of a chunk (the part of a message that arrived before the
 * cut is thrown away, as a browser's would be), or after a few milliseconds whatever has
 * arrived. With `until`, it reads until that holds instead.
 */
async function connectOnce(url: string, lastId: number, random: Random, received: Received[], until?: () => boolean): Promise<void> {
  const abort = new AbortController();
  const headers: Record<string, string> = { accept: 'text/event-stream' };
  headers['last-event-id'] = String(lastId);
  const response = await fetch(url, { headers, signal: abort.signal });
  expect(response.status).toBe(200);
  const parser = createParser({ onEvent: (m) => received.push({ id: Number(m.id), data: m.data }) });
  const decoder = new TextDecoder();
  const reader = response.body!.getReader();
  const cut: Cut = until ? 'after-messages' : (['after-messages', 'after-messages', 'mid-chunk', 'after-time'] as const)[random.int(4)]!;
  const messagesBeforeCut = 1 + random.int(40);
  // A connection waiting for messages is cut after a quarter of a second at most, as a phone
  // leaving the Wi-Fi would be.
  const timer = cut === 'after-time' ? setTimeout(() => abort.abort(), random.int(8)) : until ? null : setTimeout(() => abort.abort(), 50 + random.int(200));
  const start = received.length;
  try {
    for (;;) {
      if (until?.()) break;
      const { done, value } = await reader.read();
      if (done) break;
      if (cut === 'mid-chunk' && value.byteLength > 1) {
        parser.feed(decoder.decode(value.subarray(0, 1 + random.int(value.byteLength - 1))));
        break;
      }
      parser.feed(decoder.decode(value, { stream: true }));
      if (!until && cut === 'after-messages' && received.length - start >= messagesBeforeCut) break;
    }
  } catch (error) {
    if ((error as Error).name !== 'AbortError') throw error;
  } finally {
    if (timer) clearTimeout(timer);
    abort.abort();
  }
}

describe('the event feed under random disconnects', () => {
  it(`gives each of ${CLIENTS} clients, after ${CLIENTS * DROPS_PER_CLIENT} disconnects and reconnects in all, every event once and in order`, async () => {
    const url = `${server.url}/api/events/stream`;
    let appending = true;
    // Appends go on while the clients come and go: one for every four reconnects made so far, so
    // the ledger grows as much on a busy machine as on a quiet one.
    let reconnects = 0;
    let appended = 0;
    const appender = (async () => {
      while (appending) {
        for (; appended < reconnects / 4; appended++) await play(ledger, 1);
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
    })();

    const runs = Array.from({ length: CLIENTS }, async (_, client) => {
      const random = createRandom(`reconnect-${client}`);
      const received: Received[] = [];
      // Half the clients join from the start of the ledger, half from wherever it stood.
      const joinAt = client % 2 === 0 ? 0 : ledger.store.head().position;
      const firstId = joinAt + 1;
      for (let drop = 0; drop < DROPS_PER_CLIENT; drop++) {
        const lastId = received.length > 0 ? received[received.length - 1]!.id : joinAt;
        await connectOnce(url, lastId, random, received);
        reconnects++;
      }
      return { received, firstId };
    });
    const clients = await Promise.all(runs);
    appending = false;
    await appender;

    // With the ledger still, every client reconnects once more and reads up to the head.
    const head = ledger.store.head().position;
    const stored = new Map(ledger.store.readAll({ after: 0, limit: head }).map((e) => [e.position, JSON.stringify(e)]));
    expect(stored.size).toBe(head);
    await Promise.all(
      clients.map(({ received }, client) => {
        const lastId = received.length > 0 ? received[received.length - 1]!.id : clients[client]!.firstId - 1;
        return connectOnce(url, lastId, createRandom(`final-${client}`), received, () => received.at(-1)?.id === head);
      }),
    );

    for (const [client, { received, firstId }] of clients.entries()) {
      const ids = received.map((m) => m.id);
      const expected = Array.from({ length: head - firstId + 1 }, (_, i) => firstId + i);
      expect(ids, `client ${client}`).toEqual(expected);
      for (const message of received) {
        if (message.data !== stored.get(message.id)) expect(message.data, `client ${client}, event ${message.id}`).toBe(stored.get(message.id));
      }
    }
    // Appends went on during the disconnects, and the clients joining late were live, not replaying.
    expect(head).toBeGreaterThan(clients[1]!.firstId + 100);
    await waitFor('every connection to be let go', () => server.broadcaster.clientCount() === 0);
  }, 150_000);
});

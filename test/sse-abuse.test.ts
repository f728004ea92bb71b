/**
 * Event streams on a public network: clients that ask for the whole ledger and never read are
 * dropped within the stall timeout, whether still catching up or attached, and their memory
 * goes with them; a line break of any kind in a name cannot start an SSE field of its own; the
 * streams carry the same security headers as the pages.
 */
import { request } from 'node:http';
import { type Socket, connect } from 'node:net';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { createAdaptorServer } from '@hono/node-server';
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Ledger } from '../events/store/sqlite/ledger.ts';
import { createApp } from '../server/app/app.ts';
import { createBroadcaster, encodeSse } from '../server/live/sse.ts';
import { registerTeam, createTournament } from '../server/commands/tournament-commands.ts';
import { demoLedger, openSse, play, removeTempDirs, serveInProcess, tempDir, waitFor } from './fixtures/live-server.ts';

/**
 * The JavaScript heap and the buffers outside it, after full collections. V8 frees buffers'
 * memory on a background thread after a collection, so this collects a few times, a moment
 * apart, and keeps the lowest reading.
 */
async function heldMemory(): Promise<number> {
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as () => void;
  let lowest = Infinity;
  for (let i = 0; i < 5; i++) {
    gc();
    await new Promise((resolve) => setTimeout(resolve, 50));
    const { heapUsed, arrayBuffers } = process.memoryUsage();
    lowest = Math.min(lowest, heapUsed + arrayBuffers);
  }
  return lowest;
}

let ledger: Ledger;
beforeAll(async () => {
  ledger = await demoLedger(tempDir());
  // Enough events that a catch-up from position 0 is far more than the socket buffers hold.
  await play(ledger, 500);
});
afterAll(() => {
  ledger.close();
  removeTempDirs();
});

describe('event streams', () => {
  it('drop 200 clients that never read during catch-up within the stall timeout, and the others still get every event', async () => {
    expect(ledger.store.head().position).toBeGreaterThan(3000);
    // A Unix socket: its buffers stay small, so a client that stops reading makes the server's own
    // queue grow, as it does over a venue's network (loopback TCP would soak up megabytes first).
    // All from one address, which the feed's caps would turn away after the first few dozen: here
    // every one is let in, to be dropped for not reading.
    const feedLimits = { streamsPerAddress: 250, catchUpBytesPerAddress: 2 ** 30, catchUpBytes: 2 ** 30 };
    const { app, broadcaster } = createApp({ ledger, broadcaster: createBroadcaster({ heartbeatSeconds: 0.25, stallSeconds: 1 }), feedLimits });
    const server = createAdaptorServer({ fetch: app.fetch }) as import('node:http').Server;
    // The server's side of each connection: a dropped client's socket is ended here, whether or
    // not the client ever reads the end of it.
    const open = new Set<Socket>();
    server.on('connection', (socket: Socket) => {
      open.add(socket);
      socket.once('close', () => open.delete(socket));
    });
    const path = join(tempDir('spades-sse-'), 'server.sock');
    await new Promise<void>((resolve) => server.listen(path, resolve));
    const before = await heldMemory();
    const stalled: Socket[] = [];
    for (let i = 0; i < 200; i++) {
      const socket = connect(path);
      socket.pause();
      socket.on('error', () => {});
      socket.write('GET /api/events/stream?after=0 HTTP/1.1\r\nHost: x\r\nAccept: text/event-stream\r\n\r\n');
      stalled.push(socket);
    }
    // One client that reads everything, as a screen does.
    const ids: number[] = [];
    const parser = createParser({ onEvent: (m) => ids.push(Number(m.id)) });
    const healthy = request({ socketPath: path, path: '/api/events/stream?after=0', headers: { accept: 'text/event-stream' } }, (res) => {
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => parser.feed(chunk));
    });
    healthy.on('error', () => {});
    healthy.end();

    await waitFor('every stalled client to be dropped', () => open.size === 1 && broadcaster.clientCount() === 1, 20_000);
    const head = ledger.store.head().position;
    await waitFor('the reading client to catch up', () => ids.length === head, 20_000);
    expect(ids).toEqual(Array.from({ length: head }, (_, i) => i + 1));
    expect(broadcaster.clientCount()).toBe(1);
    healthy.destroy();
    for (const socket of stalled) socket.destroy();
    // What the clients held is released once they are gone: the heap and buffers are back near
    // where they started (200 stalled catch-ups kept would hold far more than the margin).
    await waitFor('the server to see every client go', () => open.size === 0 && broadcaster.clientCount() === 0, 20_000);
    broadcaster.close();
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect((await heldMemory()) - before).toBeLessThan(16 * 1024 * 1024);
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }, 60_000);

  it('end a field at CR, LF and CRLF alike, so a name carrying one cannot inject an id', async () => {
    for (const breakText of ['\r', '\n', '\r\n']) {
      const messages: EventSourceMessage[] = [];
      const parser = createParser({ onEvent: (m) => messages.push(m) });
      parser.feed(new TextDecoder().decode(encodeSse({ id: 7, data: `{"name":"x${breakText}id: 999999999${breakText}data: y"}` })));
      expect(messages).toHaveLength(1);
      expect(messages[0]!.id).toBe('7');
    }
  });

  it("push a page region naming a team with a carriage return (stored before names were checked) without moving the screen's resume point", async () => {
    const server = await serveInProcess(ledger);
    ledger.execute(createTournament(ledger.models, { tournamentId: 'cr', name: 'Carriage Cup', format: 'pitt-boss' }));
    const after = ledger.models.position;
    const reader = await openSse(`${server.url}/tournaments/cr/leaderboard/stream?after=${after}`);
    // Names are refused a line break now; a ledger written before that may still hold one.
    const decision = registerTeam(ledger.models, { tournamentId: 'cr', teamId: 'evil', name: 'Evil', players: ['A', 'B'] });
    decision.events[0]!.payload.name = 'Evil\rid: 999999999\rdata: x';
    ledger.execute(decision);
    await waitFor('the region naming the team', () => reader.messages.some((m) => m.data.includes('Evil')));
    // The name's own line breaks stay inside the data; no field of the name's making appears.
    expect(reader.messages.every((m) => m.id === String(after + 1))).toBe(true);
    reader.close();
    await server.close();
  });

  it('answer with the security headers of the pages', async () => {
    const server = await serveInProcess(ledger);
    const reader = await openSse(`${server.url}/api/events/stream?after=${ledger.models.position}`);
    expect(reader.response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(reader.response.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(reader.response.headers.get('x-frame-options')).toBe('DENY');
    reader.close();
    await server.close();
  });
});

/**
 * The server side of the SSE benchmark, run as its own process by `bench/sse.ts` (with
 * --expose-gc, and its file-descriptor limit raised for thousands of sockets): the app over a
 * demo tournament in a temporary ledger, on a free port. It answers its parent over IPC:
 * `memory` (collected, then measured), `append` (one entry at a table, timed just before it is
 * appended) and `stop`.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serve } from '@hono/node-server';
import { openLedger } from '../events/store/sqlite/ledger.ts';
import { createApp } from '../server/app/app.ts';
import { DEMO_TOURNAMENT, createDemo } from '../server/serve/serve.ts';
import { driveTables, nextEntry } from '../server/serve/table-driver.ts';

export type ServerRequest = { kind: 'memory' } | { kind: 'append' } | { kind: 'stop' };
export type ServerReply =
  | { kind: 'listening'; port: number; position: number }
  | { kind: 'memory'; rss: number; heap: number; clients: number }
  | { kind: 'appended'; first: number; last: number; at: number };

const SEED = 'sse-bench';
const now = () => performance.timeOrigin + performance.now();
const send = (reply: ServerReply) => process.send!(reply);

const dir = mkdtempSync(join(tmpdir(), 'spades-sse-bench-'));
const ledger = openLedger({ path: join(dir, 'bench.db'), synchronous: 'NORMAL' });
await createDemo(ledger);
// Matches under way, so there is always a table with an entry to make.
for (let i = 0; i < 5; i++) await driveTables(ledger, { tournamentId: DEMO_TOURNAMENT, seed: SEED });
// Every screen of the bench comes from this one machine: the feed's caps on one address (and on
// the server) are lifted, to measure the broadcaster's own fan-out to thousands of clients.
const { app, broadcaster } = createApp({ ledger, feedLimits: { streamsPerAddress: 10_000, streams: 10_000 } });
const server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' });
server.once('listening', () => {
  send({ kind: 'listening', port: (server.address() as AddressInfo).port, position: ledger.models.position });
});

const gc = (globalThis as { gc?: () => void }).gc;
let table = 0;

/** One entry at the next table in turn: the smallest append a scorekeeper makes. */
async function appendOne(): Promise<void> {
  const games = Object.values(ledger.models.games).filter((g) => !g.winner);
  for (let tries = 0; tries < games.length; tries++) {
    const game = games[table++ % games.length]!;
    const decision = nextEntry(ledger, game, { seed: SEED });
    if (!decision) continue;
    const first = ledger.models.position + 1;
    const at = now();
    ledger.execute(decision);
    send({ kind: 'appended', first, last: ledger.models.position, at });
    return;
  }
  await driveTables(ledger, { tournamentId: DEMO_TOURNAMENT, seed: SEED });
  await appendOne();
}

process.on('message', async (request: ServerRequest) => {
  switch (request.kind) {
    case 'memory': {
      for (let i = 0; i < 3; i++) gc?.();
      const usage = process.memoryUsage();
      send({ kind: 'memory', rss: usage.rss, heap: usage.heapUsed + usage.external, clients: broadcaster.clientCount() });
      break;
    }
    case 'append':
      await appendOne();
      break;
    case 'stop':
      broadcaster.close();
      server.close();
      ledger.close();
      rmSync(dir, { recursive: true, force: true });
      process.exit(0);
      break;
    default: {
      const _exhaustive: never = request;
      throw new Error(`unknown request ${JSON.stringify(_exhaustive)}`);
    }
  }
});

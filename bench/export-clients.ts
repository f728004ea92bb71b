/**
 * The readers of the exports benchmark (bench/exports.ts), in a process of their own so their
 * downloads cannot delay the timing of /healthz: four anonymous clients, each from its own
 * loopback address, that loop on one kind of read while told to, reading every byte. Told to
 * stop, they drop what they are reading and report what they were answered and the bytes read.
 *
 *   node bin/run-ts.js bench/export-clients.ts PORT EVENTS GAME_ID   (with an IPC channel)
 */
import { type ClientRequest, request } from 'node:http';

export type ReadKind = 'export' | 'standings' | 'record' | 'as-of';
export type ReadersRequest = { kind: 'go'; read: ReadKind } | { kind: 'stop' };
export type ReadersReply = { kind: 'stopped'; answered: number; refused: number; failed: number; bytes: number };

const READERS = 4;
const [port, events, gameId] = process.argv.slice(2) as [string, string, string];

/** The path each kind of read asks for. */
function pathOf(read: ReadKind): string {
  if (read === 'export') return '/api/ledger.ndjson';
  if (read === 'standings') return '/tournaments/bench/standings.csv';
  if (read === 'record') return `/games/${encodeURIComponent(gameId)}/record`;
  return `/tournaments/bench/as-of?position=${1 + Math.floor(Math.random() * Number(events))}`;
}

const open = new Set<ClientRequest>();
let turn = 0;
let tally = { answered: 0, refused: 0, failed: 0, bytes: 0 };

/** One read from `localAddress`; resolves when the answer is read or the read is dropped. */
function read(path: string, localAddress: string): Promise<void> {
  return new Promise((resolve) => {
    const req = request({ host: '127.0.0.1', port: Number(port), path, localAddress }, (res) => {
      res.on('data', (chunk: Buffer) => (tally.bytes += chunk.length));
      res.on('end', () => {
        open.delete(req);
        if (res.statusCode === 200) tally.answered++;
        else if (res.statusCode === 429) tally.refused++;
        else tally.failed++;
        resolve();
      });
      res.on('close', () => resolve());
    });
    open.add(req);
    req.on('error', () => {
      open.delete(req);
      resolve();
    });
    req.end();
  });
}

let running: Promise<void>[] = [];

process.on('message', async (message: ReadersRequest) => {
  if (message.kind === 'go') {
    const mine = ++turn;
    tally = { answered: 0, refused: 0, failed: 0, bytes: 0 };
    running = Array.from({ length: READERS }, async (_, i) => {
      while (turn === mine) await read(pathOf(message.read), `127.0.0.${i + 2}`);
    });
    return;
  }
  turn++;
  for (const req of open) req.destroy();
  await Promise.all(running);
  process.send!({ kind: 'stopped', ...tally } satisfies ReadersReply);
});

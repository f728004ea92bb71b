/**
 * Exports off the live loop: the 64-team card-by-card ledger (200,000+ events) served by a real
 * `spades serve` process, /healthz timed every 20 ms while four anonymous clients (each from its
 * own loopback address, in a process of their own: bench/export-clients.ts) loop on one kind of
 * ledger-sized read: the NDJSON export, the standings CSV, a game's record, the as-of page. The
 * same /healthz timed with no one reading is the yardstick, measured in the same run in the
 * spell just before each loaded one (a few seconds each, every kind in each round), so a
 * neighbour's burst on a shared machine lands on both halves of a pair rather than on one. The
 * goal: the live loop's p99 within twice its idle p99, taken as the median of the pairs' ratios.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { openLedger } from '../events/store/sqlite/ledger.ts';
import { type ServeProcess, startServeProcess } from '../test/fixtures/live-server.ts';
import type { ReadKind, ReadersReply, ReadersRequest } from './export-clients.ts';
import { type Benchmark, type Figure, percentile } from './harness.ts';
import { tournamentLedgerCopy } from './rebuild.ts';

const ROOT = join(import.meta.dirname, '..');
const ROUNDS = 5;
const SPELL_MS = 3500;

const READS: { read: ReadKind; words: string }[] = [
  { read: 'export', words: 'the NDJSON export' },
  { read: 'standings', words: 'the standings CSV' },
  { read: 'record', words: "a game's record" },
  { read: 'as-of', words: 'the as-of page at a random position' },
];

/** Time to the last byte of one GET, in milliseconds. */
function timed(port: number, path: string): Promise<number> {
  const start = process.hrtime.bigint();
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path }, (res) => {
      res.on('data', () => {});
      res.on('end', () => resolve(Number(process.hrtime.bigint() - start) / 1e6));
    });
    req.on('error', reject);
    req.end();
  });
}

/** Times /healthz every 20 ms for `ms`. */
async function probe(port: number, ms: number, into: number[]): Promise<void> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    into.push(await timed(port, '/healthz'));
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const residentMB = (pid: number, field: 'VmHWM' | 'VmRSS') =>
  Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? NaN) / 1024;

function healthFigure(name: string, samples: number[]): Figure {
  return { name, unit: 'ms', median: percentile(samples, 50), p99: percentile(samples, 99), samples: samples.length };
}

export const exportsBench: Benchmark = {
  group: 'exports off the live loop',
  async run() {
    const dir = mkdtempSync(join(tmpdir(), 'spades-exports-'));
    let server: ServeProcess | null = null;
    let readers: ChildProcess | null = null;
    try {
      const { path, events } = await tournamentLedgerCopy(dir);
      const dataDir = join(dir, 'data');
      mkdirSync(dataDir);
      renameSync(path, join(dataDir, 'spades.db'));
      // The record asked for is the longest game's: the most hands, the biggest record.
      const view = openLedger({ path: join(dataDir, 'spades.db'), readonly: true, snapshotEvery: Number.MAX_SAFE_INTEGER, onNotice: () => {} });
      const game = Object.values(view.models.games).reduce((a, b) => (b.hands.length > a.hands.length ? b : a));
      view.close();
      server = await startServeProcess(dataDir, 0, ['--no-demo']);
      const { port } = server;
      const pid = server.child.pid!;

      readers = spawn(process.execPath, [join(ROOT, 'bin', 'run-ts.js'), join(ROOT, 'bench', 'export-clients.ts'), String(port), String(events), game.gameId], {
        cwd: ROOT,
        stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      });
      const child = readers;
      const tell = (message: ReadersRequest) => child.send(message);
      const stopped = () => new Promise<ReadersReply>((resolve) => child.once('message', (reply: ReadersReply) => resolve(reply)));

      // Warm: the reader thread started and every route compiled and run once.
      for (const path of ['/api/ledger.ndjson', '/tournaments/bench/standings.csv', `/games/${game.gameId}/record`, '/tournaments/bench/as-of?position=1'])
        await timed(port, path);
      const before = residentMB(pid, 'VmRSS');

      // Each loaded spell right after an idle one: a pair runs back to back, so a neighbour's
      // burst on a shared machine mostly lands on both halves of it.
      const idle: number[] = [];
      const loaded = new Map<ReadKind, number[]>(READS.map(({ read }) => [read, []]));
      const ratios = new Map<ReadKind, number[]>(READS.map(({ read }) => [read, []]));
      const answered = new Map<ReadKind, ReadersReply[]>(READS.map(({ read }) => [read, []]));
      for (let round = 0; round < ROUNDS; round++) {
        for (const { read } of READS) {
          const before: number[] = [];
          await probe(port, SPELL_MS, before);
          const during: number[] = [];
          tell({ kind: 'go', read });
          await probe(port, SPELL_MS, during);
          const reply = stopped();
          tell({ kind: 'stop' });
          answered.get(read)!.push(await reply);
          idle.push(...before);
          loaded.get(read)!.push(...during);
          ratios.get(read)!.push(percentile(during, 99) / percentile(before, 99));
        }
      }
      const peak = residentMB(pid, 'VmHWM');

      const quiet = healthFigure('/healthz with no one reading (the spell before each loaded one)', idle);
      const figures: Figure[] = [quiet];
      for (const { read, words } of READS) {
        const name =
          read === 'export' ? `/healthz while four clients loop on exports (${words}, ${events} events)` : `/healthz while four clients loop on ${words}`;
        // The ratio is the median of each pair's p99 ratio: the goal is the live loop's p99 within twice its idle p99.
        const ratio = percentile(ratios.get(read)!, 50);
        figures.push({
          ...healthFigure(name, loaded.get(read)!),
          comparedTo: { name: `${quiet.name}, p99 to p99, median of ${ROUNDS} pairs`, ratio },
          goal: '<= 2 x idle p99',
          met: ratio <= 2,
        });
      }
      for (const { read, words } of READS) {
        const replies = answered.get(read)!;
        const sum = (key: 'answered' | 'refused' | 'failed' | 'bytes') => replies.reduce((n, r) => n + r[key], 0);
        const seconds = (ROUNDS * SPELL_MS) / 1000;
        process.stdout.write(
          `  ${words}: ${sum('answered')} answered in full, ${sum('refused')} told to wait (429), ${sum('failed')} failed, ${Math.round(sum('bytes') / 2 ** 20)} MB read in ${seconds} s (a read under way when a spell ends is dropped, its bytes counted)\n`,
        );
        figures.push({
          name: `${words}: reads answered in full by four clients in ${seconds} s`,
          unit: 'reads',
          median: sum('answered'),
          p99: sum('answered'),
          samples: 1,
        });
        const mb = Math.round(sum('bytes') / 2 ** 20);
        figures.push({ name: `${words}: read by four clients in ${seconds} s`, unit: 'MB', median: mb, p99: mb, samples: 1 });
        if (sum('refused') > 0 || sum('failed') > 0)
          figures.push({
            name: `${words}: reads refused or failed`,
            unit: 'reads',
            median: sum('refused') + sum('failed'),
            p99: sum('refused') + sum('failed'),
            samples: 1,
          });
      }
      figures.push(
        { name: 'server resident memory before the reads', unit: 'MB', median: before, p99: before, samples: 1 },
        {
          name: 'server peak resident memory meanwhile (the reader thread folding the as-of models included)',
          unit: 'MB',
          median: peak,
          p99: peak,
          samples: 1,
        },
      );
      return figures;
    } finally {
      readers?.kill('SIGKILL');
      server?.child.kill('SIGKILL');
      rmSync(dir, { recursive: true, force: true });
    }
  },
};

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  for (const figure of await exportsBench.run()) console.log(JSON.stringify(figure));
}

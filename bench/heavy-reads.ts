/**
 * Heavy public reads under load: the 64-team card-by-card ledger served by a real `spades serve`
 * process while its demo bots play, 8 anonymous clients (each from its own loopback address)
 * looping for 20 s on /verify, the NDJSON export, as-of and the past standings CSV. Measured
 * meanwhile: /healthz and a table entry (the whole command path: fold, decide, append), and the
 * server's peak memory. Before these reads were sliced, 4 such clients took /healthz to a median
 * of 5.6 s.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { startServeProcess } from '../test/fixtures/live-server.ts';
import { mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openLedger } from '../events/store/sqlite/ledger.ts';
import { createDemo, DEMO_TOURNAMENT } from '../server/serve/serve.ts';
import { nextEntry } from '../server/serve/table-driver.ts';
import { type Benchmark, type Figure, comparedTo, percentile, withGoal } from './harness.ts';
import { tournamentLedgerCopy } from './rebuild.ts';

const ROOT = join(import.meta.dirname, '..');
const SPADES = join(ROOT, 'bin', 'spades.js');
const SECONDS = 20;

/** One request from a given local address; resolves with the status and the time to the last byte. */
function timed(
  port: number,
  path: string,
  options: { localAddress?: string; method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<{ status: number; ms: number }> {
  const start = process.hrtime.bigint();
  return new Promise((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port, path, method: options.method ?? 'GET', headers: options.headers, localAddress: options.localAddress },
      (res) => {
        res.on('data', () => {});
        res.on('end', () => resolve({ status: res.statusCode ?? 0, ms: Number(process.hrtime.bigint() - start) / 1e6 }));
      },
    );
    req.on('error', reject);
    if (options.body) req.write(options.body);
    req.end();
  });
}

function timeFigure(name: string, samples: number[]): Figure {
  return { name, unit: 'ms', median: percentile(samples, 50), p99: percentile(samples, 99), samples: samples.length };
}

function statusMB(pid: number, field: 'VmHWM' | 'VmRSS'): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(status)?.[1] ?? NaN) / 1024;
}
const peakMemoryMB = (pid: number) => statusMB(pid, 'VmHWM');
const residentMB = (pid: number) => statusMB(pid, 'VmRSS');

export const heavyReadsBench: Benchmark = {
  group: 'heavy reads',
  async run() {
    const dir = mkdtempSync(join(tmpdir(), 'spades-heavy-'));
    let server: { child: ChildProcess; port: number } | null = null;
    try {
      const { path, events } = await tournamentLedgerCopy(dir);
      const dataDir = join(dir, 'data');
      mkdirSync(dataDir);
      const served = join(dataDir, 'spades.db');
      renameSync(path, served);
      // The demo beside it, for the server's bots to play while the reads run.
      const setup = openLedger({ path: served });
      await createDemo(setup);
      setup.close();
      const add = spawn(process.execPath, [SPADES, 'add-user', 'Dee Rector', '--role', 'director', '--password', 'director-password-1', '--db', served], {
        cwd: ROOT,
      });
      await new Promise((resolve) => add.once('exit', resolve));
      server = await startServeProcess(dataDir, 0, ['--pace', '200']);
      const { port } = server;

      const login = await fetch(`http://127.0.0.1:${port}/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'Dee Rector', password: 'director-password-1' }),
      });
      const { csrf } = (await login.json()) as { csrf: string };
      const headers = {
        cookie: login.headers.get('set-cookie')!.split(';')[0]!,
        'x-csrf-token': csrf,
        'content-type': 'application/json',
        accept: 'application/json',
      };

      const view = openLedger({ path: served, readonly: true, snapshotEvery: Number.MAX_SAFE_INTEGER, onNotice: () => {} });
      /** Makes the next entry at a live demo table every 100 ms until `until`, timing each request. */
      const makeEntries = async (until: number, times: number[]) => {
        for (let round = 0; Date.now() < until; round++) {
          view.sync();
          const games = Object.values(view.models.games).filter((g) => g.tournamentId === DEMO_TOURNAMENT && !g.winner);
          const game = games[round % Math.max(1, games.length)];
          const event = game ? nextEntry(view, game, { seed: 'bench' })?.events[0] : undefined;
          if (game && event && (event.type === 'BidMade' || event.type === 'CardPlayed')) {
            const p = event.payload as Record<string, unknown>;
            const route = event.type === 'BidMade' ? 'bid' : 'play';
            const body = JSON.stringify(event.type === 'BidMade' ? { seat: p.seat, bid: p.bid } : { seat: p.seat, card: p.card });
            times.push((await timed(port, `/entry/games/${game.gameId}/${route}`, { method: 'POST', headers, body })).ms);
          }
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
      };
      // The same entries with no one reading, for comparison, and the server's memory before the load.
      const quiet: number[] = [];
      await makeEntries(Date.now() + 5000, quiet);
      const before = residentMB(server.child.pid!);

      // The heavy clients run in a process of their own (bench/heavy-clients.ts): this one only
      // times /healthz and the entries, so its own callbacks are not held up by their downloads.
      const load = spawn(
        process.execPath,
        [join(ROOT, 'bin', 'run-ts.js'), join(ROOT, 'bench', 'heavy-clients.ts'), String(port), String(SECONDS), String(events)],
        { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] },
      );
      let loadOutput = '';
      const started = new Promise<void>((resolve) =>
        load.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
          loadOutput += chunk;
          if (loadOutput.includes('started\n')) resolve();
        }),
      );
      const loadDone = new Promise<void>((resolve) => load.once('exit', () => resolve()));
      await Promise.race([started, loadDone]);
      const until = Date.now() + SECONDS * 1000;
      const health: number[] = [];
      const probe = (async () => {
        while (Date.now() < until) {
          health.push((await timed(port, '/healthz')).ms);
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
      })();
      const entries: number[] = [];
      const entry = makeEntries(until, entries);
      await Promise.all([probe, entry, loadDone]);
      const answered = JSON.parse(loadOutput.replace('started\n', '').trim() || '{"ok":0,"limited":0}') as { ok: number; limited: number };
      view.close();
      const memory = peakMemoryMB(server.child.pid!);
      process.stdout.write(`  ${answered.ok} heavy reads answered, ${answered.limited} told to wait (429)\n`);
      const alone = timeFigure('a table entry (fold, decide, append) with no one reading', quiet);
      return [
        withGoal(timeFigure(`/healthz while 8 clients loop on verify, export, as-of and CSV over ${events} events`, health), { atMost: 50 }),
        withGoal(comparedTo(timeFigure('a table entry (fold, decide, append) meanwhile', entries), alone), { atMost: 50 }),
        alone,
        withGoal({ name: 'server peak resident memory meanwhile', unit: 'MB', median: memory, p99: memory, samples: 1 }, { atMost: 300 }),
        { name: 'server resident memory before the load', unit: 'MB', median: before, p99: before, samples: 1 },
        { name: 'heavy reads answered in 20 s by 8 clients', unit: 'reads', median: answered.ok, p99: answered.ok, samples: 1 },
      ];
    } finally {
      server?.child.kill('SIGKILL');
      rmSync(dir, { recursive: true, force: true });
    }
  },
};

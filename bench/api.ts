/**
 * The read API on the 64-team card-by-card ledger (200,000+ events) served by a real
 * `spades serve` process: requests sent at a steady 1,000 a second (open loop: each is sent on
 * its schedule whether or not the last has been answered) over keep-alive connections, to the
 * tournament (most), the list and its games, timed to the last byte; the goal is p99 <= 5 ms.
 * The load comes from a process of its own (bench/api-clients.ts), once from clients taking gzip
 * (browsers and most HTTP libraries ask for it; the goal is theirs) and once from clients that
 * do not.
 * Then, one request at a time and interleaved so the machine's drift lands on all three alike:
 * a 304 to a client holding the ETag, against the 200 it spares (the same answer in full) and
 * against the standings page an integrator would otherwise scrape. And, in this process, what
 * making the tournament's answer afresh costs (fold to JSON, schema check, text, gzip), which
 * the first answer after a ledger entry pays.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdirSync, mkdtempSync, renameSync, rmSync } from 'node:fs';
import { text } from 'node:stream/consumers';
import { gzipSync } from 'node:zlib';
import { Agent, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { openLedger } from '../events/store/sqlite/ledger.ts';
import { tournamentResource } from '../server/api/api-resources.ts';
import { TournamentSchema } from '../server/api/api-schemas.ts';
import { type ServeProcess, startServeProcess } from '../test/fixtures/live-server.ts';
import { type Benchmark, type Figure, measureTime, percentile, withGoal } from './harness.ts';
import { tournamentLedgerCopy } from './rebuild.ts';

const ROOT = join(fileURLToPath(import.meta.url), '..', '..');
const RATE = 1000;
const SECONDS = 10;
const PAIRS = 1500;

interface Answer {
  status: number;
  ms: number;
  etag: string | undefined;
  bytes: number;
}

/** One GET to the last byte. */
function get(agent: Agent, port: number, path: string, headers: Record<string, string> = {}): Promise<Answer> {
  const start = process.hrtime.bigint();
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, agent, headers }, (res) => {
      let bytes = 0;
      res.on('data', (chunk: Buffer) => (bytes += chunk.length));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, ms: Number(process.hrtime.bigint() - start) / 1e6, etag: res.headers.etag, bytes }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** The open-loop load, sent by a process of its own (bench/api-clients.ts). */
async function loadFrom(port: number, games: string[], coding: 'gzip' | 'identity' | 'healthz', settle = 3): Promise<{ times: number[]; failed: number }> {
  const clients = spawn(
    process.execPath,
    [join(ROOT, 'bin', 'run-ts.js'), join(ROOT, 'bench', 'api-clients.ts'), String(port), String(RATE), String(SECONDS), coding, String(settle)],
    {
      cwd: ROOT,
      stdio: ['pipe', 'pipe', 'inherit'],
    },
  );
  clients.stdin.end(JSON.stringify(games));
  const output = text(clients.stdout);
  const [code] = (await once(clients, 'close')) as [number | null];
  if (code !== 0) throw new Error(`the read API's load clients stopped with status ${code}`);
  return JSON.parse(await output) as { times: number[]; failed: number };
}

/** What making the tournament's answer afresh costs in this process, and the ids of its games. */
function freshAnswer(path: string): { games: string[]; fresh: Figure } {
  const view = openLedger({ path, readonly: true, snapshotEvery: Number.MAX_SAFE_INTEGER, onNotice: () => {} });
  try {
    const games = Object.keys(view.models.games);
    // Made afresh: what the first answer after each ledger entry costs the server.
    const fresh = withGoal(
      measureTime(
        'the 64-team tournament’s answer made afresh: folded to JSON, checked against its schema, written as text and gzipped',
        () => {
          const body = tournamentResource(view.models, 'bench');
          if (!TournamentSchema.safeParse(body).success) throw new Error('the bench tournament’s answer does not match its schema');
          gzipSync(new TextEncoder().encode(JSON.stringify(body)));
        },
        200,
        100,
      ),
      { atMost: 5 },
    );
    return { games, fresh };
  } finally {
    view.close();
  }
}

/** A time figure beside another, p99 to p99. */
const comparedToP99 = (figure: Figure, other: Figure): Figure => ({
  ...figure,
  comparedTo: { name: `${other.name} (p99 to p99)`, ratio: figure.p99 / other.p99 },
});

const timeFigure = (name: string, times: number[]): Figure => ({
  name,
  unit: 'ms',
  median: percentile(times, 50),
  p99: percentile(times, 99),
  samples: times.length,
});

export const apiBench: Benchmark = {
  group: 'read api',
  async run() {
    const dir = mkdtempSync(join(tmpdir(), 'spades-api-bench-'));
    let server: ServeProcess | null = null;
    const agent = new Agent({ keepAlive: true, maxSockets: 32 });
    try {
      const { path, events } = await tournamentLedgerCopy(dir);
      const dataDir = join(dir, 'data');
      mkdirSync(dataDir);
      renameSync(path, join(dataDir, 'spades.db'));
      // The models are let go before the load: the client sending it holds only the game ids.
      const { games, fresh } = freshAnswer(join(dataDir, 'spades.db'));

      server = await startServeProcess(dataDir, 0, ['--no-demo']);
      const { port } = server;
      const tournament = '/api/v1/tournaments/bench';
      const leaderboard = '/tournaments/bench/leaderboard';
      const mix = `(6 in 10 the tournament, 1 the list, 3 a game; ${events} events), to the last byte`;
      // A server just started is still collecting what folding the whole ledger left for some
      // seconds (a venue's runs for hours): the first load settles it for 15 s before it counts.
      const loaded = await loadFrom(port, games, 'gzip', 15);
      const load = withGoal(
        timeFigure(`the read API at ${RATE.toLocaleString('en-US')} requests/s for ${SECONDS} s, clients taking gzip ${mix}`, loaded.times),
        { atMost: 5 },
      );
      const plain = await loadFrom(port, games, 'identity');
      const unzipped = comparedToP99(timeFigure(`the same, clients taking no gzip (every answer in full, 62 KB for the tournament) ${mix}`, plain.times), load);
      const lightest = await loadFrom(port, games, 'healthz');
      const floor = timeFigure(`the same load on /healthz alone, the server's lightest answer (what this machine adds to any answer)`, lightest.times);
      const figures: Figure[] = [fresh, { ...load, comparedTo: { name: `${floor.name} (p99 to p99)`, ratio: load.p99 / floor.p99 } }, unzipped, floor];
      const failed = loaded.failed + plain.failed + lightest.failed;
      if (failed > 0) figures.push({ name: 'read API requests not answered 200 meanwhile', unit: 'requests', median: failed, p99: failed, samples: 1 });

      // A 304 against the 200 it spares and the page it spares, one request at a time, interleaved.
      for (const p of [tournament, leaderboard]) await get(agent, port, p);
      const { etag, bytes } = await get(agent, port, tournament);
      const page = await get(agent, port, leaderboard);
      const notModified: number[] = [];
      const full: number[] = [];
      const pages: number[] = [];
      const kinds = [
        async () => {
          const answer = await get(agent, port, tournament, { 'if-none-match': etag! });
          if (answer.status !== 304) throw new Error(`a request holding the ETag was answered ${answer.status}, not 304`);
          notModified.push(answer.ms);
        },
        async () => full.push((await get(agent, port, tournament)).ms),
        async () => pages.push((await get(agent, port, leaderboard)).ms),
      ];
      // Each kind takes each turn in the round alike, so none always follows the page (and the collection it leaves behind).
      for (let i = 0; i < PAIRS; i++) for (let k = 0; k < kinds.length; k++) await kinds[(i + k) % kinds.length]!();
      const spared = timeFigure(`the tournament answered in full (200, ${Math.round(bytes / 1024)} KB)`, full);
      const scraped = timeFigure(`the standings page an integrator would scrape (${Math.round(page.bytes / 1024)} KB)`, pages);
      const held = timeFigure('the tournament answered 304 to a client holding its ETag', notModified);
      const ratio = (a: Figure, b: Figure) => a.median / b.median;
      figures.push(
        // Beside the same answer in full, for reference only: over loopback its 62 KB cost next to nothing, so the two differ by noise.
        { ...held, comparedTo: { name: spared.name, ratio: ratio(held, spared) } },
        {
          ...held,
          name: `${held.name}, against the page`,
          comparedTo: { name: scraped.name, ratio: ratio(held, scraped) },
          goal: '< 1 x the page it spares',
          met: ratio(held, scraped) < 1,
        },
        spared,
        scraped,
      );
      return figures;
    } finally {
      agent.destroy();
      server?.child.kill('SIGKILL');
      rmSync(dir, { recursive: true, force: true });
    }
  },
};

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  for (const figure of await apiBench.run()) console.log(JSON.stringify(figure));
}

/**
 * Screens behind nginx, on one `spades serve` process and on three, all on one PostgreSQL: how
 * long an entry takes from its commit to every screen (p50/p99), and what a screen costs the
 * processes in memory. The three processes carry three times the one process's clients, so the
 * figures say whether adding processes adds room for screens at the same latency. The entries
 * are made by a process of their own, as a scorekeeper's would be on another server.
 */
import { readFileSync } from 'node:fs';
import { driveTables, nextEntry } from '../server/serve/table-driver.ts';
import { DEMO_TOURNAMENT, createDemo } from '../server/serve/serve.ts';
import { type PostgresLedger, openPostgresLedger } from '../events/store/postgres/served-ledger.ts';
import { postgres, startPostgres } from '../test/fixtures/postgres.ts';
import { nginx, startNginx } from '../test/fixtures/nginx.ts';
import { type ServeProcess, killHard, startServeProcess, tempDir, removeTempDirs } from '../test/fixtures/live-server.ts';
import { type Benchmark, type Figure, percentile, withGoal } from './harness.ts';
import { type ClientsChild, addClients } from './sse.ts';

const SAMPLES = 60;
const WARM_UP = 5;
/** Screens per process. */
const CLIENTS_PER_PROCESS = 500;
// Every screen comes through the one nginx: the feed's caps on one address are lifted to the bench's count.
const ONE_ADDRESS = { FEED_STREAMS_PER_ADDRESS: String(CLIENTS_PER_PROCESS * 3), FEED_STREAMS: String(CLIENTS_PER_PROCESS * 3) };
const SEED = 'cluster-bench';

/** Resident memory of a process, in bytes. */
function residentBytes(pid: number): number {
  const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return match ? Number(match[1]) * 1024 : NaN;
}

/** One entry at the first unfinished game: its positions and when it was committed. */
async function oneEntry(ledger: PostgresLedger): Promise<{ first: number; last: number; at: number }> {
  const game = Object.values(ledger.models.games).find((g) => g.tournamentId === DEMO_TOURNAMENT && !g.winner);
  if (!game) throw new Error('the demo has no game left to play');
  const results = await ledger.append((models) => nextEntry(ledger, models.games[game.gameId]!, { seed: SEED }) ?? []);
  const at = performance.timeOrigin + performance.now();
  const positions = results.flatMap((r) => r.positions);
  if (positions.length === 0) throw new Error('the entry recorded nothing');
  return { first: positions[0]!, last: positions[positions.length - 1]!, at };
}

interface Measured {
  samples: number[];
  perClientKB: number;
}

/** `processes` servers behind nginx, `count` screens spread over them, SAMPLES entries timed to every screen. */
async function measure(url: string, entries: PostgresLedger, processes: number, count: number): Promise<Measured> {
  const servers: ServeProcess[] = [];
  let clients: ClientsChild[] = [];
  let proxy: Awaited<ReturnType<typeof startNginx>> | null = null;
  try {
    servers.push(
      ...(await Promise.all(
        Array.from({ length: processes }, () => startServeProcess(tempDir('spades-cluster-bench-'), 0, ['--no-demo'], { DATABASE_URL: url, ...ONE_ADDRESS })),
      )),
    );
    proxy = await startNginx({ upstreamPorts: servers.map((s) => s.port) });
    const memory = () => servers.reduce((sum, s) => sum + residentBytes(s.child.pid!), 0);
    // The processes' code paths warmed by a few entries before their memory is read.
    for (let i = 0; i < WARM_UP; i++) await oneEntry(entries);
    const before = memory();
    clients = await addClients(`${proxy.url}/api/events/stream`, entries.models.position, count);
    const perClientKB = (memory() - before) / count / 1024;
    const samples: number[] = [];
    for (let i = -WARM_UP; i < SAMPLES; i++) {
      const entry = await oneEntry(entries);
      for (const c of clients) c.send({ kind: 'await', first: entry.first, last: entry.last });
      const arrived = await Promise.all(clients.map((c) => c.next('arrived')));
      if (i >= 0) for (const reply of arrived) for (const at of reply.arrivals) samples.push(at - entry.at);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    return { samples, perClientKB };
  } finally {
    for (const c of clients) c.process.kill();
    await proxy?.stop();
    await Promise.all(servers.map((s) => killHard(s.child)));
  }
}

export const clusterBench: Benchmark = {
  group: 'several processes behind nginx',
  async run(): Promise<Figure[]> {
    if (!postgres.available || !nginx.available) {
      console.log('  skipped: needs PostgreSQL (apt-get install postgresql) and nginx (apt-get install nginx)');
      return [];
    }
    const cluster = await startPostgres({ settings: { max_connections: 200 } });
    let entries: PostgresLedger | null = null;
    try {
      const url = await cluster.createDatabase('bench');
      entries = await openPostgresLedger({ url });
      await createDemo(entries);
      // The matches seated and their first games started: every table has a game to enter.
      await driveTables(entries, { tournamentId: DEMO_TOURNAMENT, seed: SEED });
      const one = await measure(url, entries, 1, CLIENTS_PER_PROCESS);
      const oneCrowded = await measure(url, entries, 1, CLIENTS_PER_PROCESS * 3);
      const three = await measure(url, entries, 3, CLIENTS_PER_PROCESS * 3);
      const figure = (processes: number, clients: number, m: Measured): Figure => ({
        name: `commit to screen through nginx, ${clients.toLocaleString('en-US')} screens on ${processes} process${processes > 1 ? 'es' : ''}`,
        unit: 'ms',
        median: percentile(m.samples, 50),
        p99: percentile(m.samples, 99),
        samples: m.samples.length,
      });
      const single = figure(1, CLIENTS_PER_PROCESS, one);
      const crowded = figure(1, CLIENTS_PER_PROCESS * 3, oneCrowded);
      const spread = figure(3, CLIENTS_PER_PROCESS * 3, three);
      const p99Ratio = (a: Figure, b: Figure) => ({ name: `${b.name} (p99 to p99)`, ratio: a.p99 / b.p99 });
      return [
        single,
        crowded,
        // Three processes hold three times the screens at the p99 one process gives its share.
        { ...withGoal(spread, { atMost: Math.round(single.p99 * 100) / 100 }), comparedTo: p99Ratio(spread, single) },
        { ...spread, name: `${spread.name}, against one process holding them all`, comparedTo: p99Ratio(spread, crowded) },
        { name: 'process memory per screen, 1 process (resident)', unit: 'KB', median: one.perClientKB, p99: one.perClientKB, samples: 1 },
        { name: 'process memory per screen, 3 processes (resident)', unit: 'KB', median: three.perClientKB, p99: three.perClientKB, samples: 1 },
      ];
    } finally {
      await entries?.close();
      await cluster.stop();
      removeTempDirs();
    }
  },
};

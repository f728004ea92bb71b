/**
 * Append rates on PostgreSQL beside SQLite's, in the same run and on the same disk: one event
 * per append, each commit waiting for its log to reach the disk (SQLite synchronous=FULL,
 * PostgreSQL synchronous_commit on, as the stores always commit).
 *
 *   1 writer            one connection appending to one stream, one append after another; on
 *                       PostgreSQL also a raw INSERT of a row the same size per transaction,
 *                       what the commit alone costs there
 *   32 writers, own     32 writers at once, each appending to a stream of its own
 *   32 writers, shared  32 writers at once on one stream, each deciding against the version
 *                       it just read and trying again on a conflict, as racing tables would;
 *                       the rate counts recorded events, the conflicts are counted beside it,
 *                       and every event is checked to be recorded once
 *
 * PostgreSQL runs on a throwaway cluster in a temporary folder (test/fixtures/postgres.ts). Its
 * 32 writers are 32 appends under way at once on one store, as one server process's requests
 * are, so they commit in groups (events/store/postgres/group-commit.ts); the same 32 writers as 32 stores of one
 * connection each, in this process, commit as 32 processes would, through the intake; and
 * 32 writers in 8 real processes (pg-writer-process.ts, forked, each with its own store and
 * connections, 4 writers a process, a stream each) show what the processes gain from committing
 * together through the intake (events/store/postgres/group-commit.ts), against 1 writer and
 * against the 32 in one process, with the share of their appends left in the intake.
 * SQLite's 32 writers are 32 worker threads, each with its own connection to one file, as 32
 * processes on one file would be; the same file within one server process, where its appends
 * commit in groups, is measured by table entries (sqlite-served.ts). Each
 * PostgreSQL append figure is compared with SQLite's for the same writers (and the raw INSERT
 * with the single writer), as the median of ratios of rounds run back to back, so a slow patch of
 * the disk slows both sides of a pair alike. Beside each PostgreSQL rate is the mean number of
 * appends a transaction carried, and for the single writer and the 32 on one store, the time a
 * transaction spends in each step. Without PostgreSQL's binaries the benchmark says so in one
 * line and gives no figures.
 */
import { type ChildProcess, fork } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads';
import { openDatabase } from '../events/store/sqlite/database.ts';
import { type EventStore, createEventStore } from '../events/store/sqlite/event-store.ts';
import { VersionConflictError } from '../events/store/append.ts';
import { type PgEventStore, openPostgresStore } from '../events/store/postgres/event-store.ts';
import { type GroupCommitStats, noCommits } from '../events/store/postgres/group-commit.ts';
import type { WriterLinkStats } from '../events/store/postgres/writer-link.ts';
import { postgres, startPostgres } from '../test/fixtures/postgres.ts';
import pg from 'pg';
import { type Benchmark, type Figure, percentile, rateFigure, withGoal } from './harness.ts';
import { type BenchEvent, event, registry } from './ledger.ts';
import { sqliteServedFigures } from './sqlite-served.ts';

const clock = () => '2026-01-01T00:00:00.000Z';

const WRITERS = 32;
const ROUNDS = 5;
const WARM_ROUNDS = 3;
// Events per round: by the single writer, by each of the 32 on its own stream, and recorded by
// each of the 32 on the shared one.
const SINGLE = 100;
const EACH = 8;
const EACH_SHARED = 3;
// On one PostgreSQL store the 32 commit in groups, so each writes more for a round worth timing.
const EACH_GROUPED = 32;
const SHARED_STREAM = 'game-shared';
// The 32 writers again as 8 server processes of 4 (pg-writer-process.ts).
const WRITERS_PER_PROCESS = 4;
const PROCESSES = WRITERS / WRITERS_PER_PROCESS;

/** A writer process: appends `count` events on each of its writers' streams, answering its store's commit counts. */
interface WriterProcess {
  run(count: number): Promise<GroupCommitStats & WriterLinkStats>;
  close(): Promise<void>;
}

async function startWriterProcesses(url: string): Promise<WriterProcess[]> {
  const runTs = new URL('../bin/run-ts.js', import.meta.url).pathname;
  const entry = new URL('./pg-writer-process.ts', import.meta.url).pathname;
  return Promise.all(
    Array.from(
      { length: PROCESSES },
      (_, index) =>
        new Promise<WriterProcess>((resolve, reject) => {
          const child: ChildProcess = fork(runTs, [entry, url, String(index), String(WRITERS_PER_PROCESS)], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
          let answer: { done: (stats: GroupCommitStats & WriterLinkStats) => void; failed: (error: Error) => void } | null = null;
          child.once('error', reject);
          child.once('exit', (code) => {
            const error = new Error(`writer process ${index} exited with ${code}`);
            reject(error);
            answer?.failed(error);
          });
          child.on('message', (message: 'ready' | { done: boolean; stats?: GroupCommitStats & WriterLinkStats; error?: string }) => {
            if (message === 'ready') {
              resolve({
                run: (count) =>
                  new Promise((done, failed) => {
                    answer = { done, failed };
                    child.send({ count });
                  }),
                close: async () => {
                  child.removeAllListeners('exit');
                  child.send('close');
                  await new Promise((ended) => child.once('exit', ended));
                },
              });
              return;
            }
            const waiting = answer;
            answer = null;
            if (message.done) waiting?.done(message.stats!);
            else waiting?.failed(new Error(`writer process ${index}: ${message.error}`));
          });
        }),
    ),
  );
}

type Mode = 'own' | 'shared';

/**
 * Appends `count` events as one writer; on the shared stream, decides against the version read and
 * retries on a conflict, each event under a command id of its own (`tag`, the writer, the event).
 * Returns the conflicts met.
 */
async function writeAs(
  store: Pick<PgEventStore<BenchEvent>, 'append' | 'streamVersion'>,
  writer: number,
  mode: Mode,
  count: number,
  tag = '',
): Promise<number> {
  let conflicts = 0;
  for (let done = 0; done < count; ) {
    if (mode === 'own') {
      await store.append(`game-w${writer}`, [event]);
      done++;
      continue;
    }
    const version = await store.streamVersion(SHARED_STREAM);
    try {
      await store.append(SHARED_STREAM, [event], { expectedVersion: version, commandId: `${tag}-${writer}-${done}` });
      done++;
    } catch (error) {
      if (!(error instanceof VersionConflictError)) throw error;
      conflicts++;
    }
  }
  return conflicts;
}

/** The same, synchronously, on a SQLite store. */
function writeSqlite(store: EventStore<BenchEvent>, writer: number, mode: Mode, count: number): number {
  let conflicts = 0;
  for (let done = 0; done < count; ) {
    if (mode === 'own') {
      store.append(`game-w${writer}`, [event]);
      done++;
      continue;
    }
    try {
      store.append(SHARED_STREAM, [event], { expectedVersion: store.streamVersion(SHARED_STREAM) });
      done++;
    } catch (error) {
      if (!(error instanceof VersionConflictError)) throw error;
      conflicts++;
    }
  }
  return conflicts;
}

interface Job {
  mode: Mode;
  count: number;
}

/** A worker thread's part: one SQLite connection to the file, appending as told, one job at a time. */
export function runWriterThread(): void {
  const { path, writer } = workerData as { path: string; writer: number };
  const database = openDatabase({ path, synchronous: 'FULL', busyTimeoutMs: 60_000 });
  const store = createEventStore<BenchEvent>(database, { registry, clock });
  parentPort!.on('message', (job: Job | 'close') => {
    if (job === 'close') {
      database.close();
      parentPort!.close();
      return;
    }
    parentPort!.postMessage({ conflicts: writeSqlite(store, writer, job.mode, job.count) });
  });
  parentPort!.postMessage('ready');
}

// A worker starts with Node's own loader: the TypeScript hooks first, then this file.
const WORKER_SOURCE = `
const { workerData } = require('node:worker_threads');
import(workerData.loader)
  .then(({ registerTypeScript }) => { registerTypeScript(); return import(workerData.entry); })
  .then(({ runWriterThread }) => runWriterThread());
`;

interface ThreadWriter {
  run(job: Job): Promise<number>;
  close(): Promise<void>;
}

async function startThreads(path: string, count: number): Promise<ThreadWriter[]> {
  const loader = new URL('../bin/typescript.js', import.meta.url).href;
  return Promise.all(
    Array.from(
      { length: count },
      (_, writer) =>
        new Promise<ThreadWriter>((resolve, reject) => {
          const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { loader, entry: import.meta.url, path, writer } });
          let answer: ((conflicts: number) => void) | null = null;
          worker.on('error', reject);
          worker.on('message', (message: 'ready' | { conflicts: number }) => {
            if (message === 'ready') {
              resolve({
                run: (job) =>
                  new Promise<number>((done) => {
                    answer = done;
                    worker.postMessage(job);
                  }),
                close: async () => {
                  worker.postMessage('close');
                  await new Promise((ended) => worker.once('exit', ended));
                },
              });
            } else {
              answer?.(message.conflicts);
            }
          });
        }),
    ),
  );
}

/** Seconds taken by `work`. */
async function timed(work: () => Promise<unknown> | unknown): Promise<number> {
  const start = process.hrtime.bigint();
  await work();
  return Number(process.hrtime.bigint() - start) / 1e9;
}

export const pgAppendBench: Benchmark = {
  group: 'ledger on PostgreSQL',
  async run(): Promise<Figure[]> {
    // Group commit within one process on the file, which needs no PostgreSQL.
    const withinProcess = await sqliteServedFigures();
    if (!postgres.available) {
      console.log("  skipped: PostgreSQL's initdb, pg_ctl and postgres are not under /usr/lib/postgresql/*/bin (apt-get install postgresql to run it)");
      return withinProcess;
    }
    const cluster = await startPostgres();
    const dir = mkdtempSync(join(tmpdir(), 'spades-pg-append-bench-'));
    const pgStores: PgEventStore<BenchEvent>[] = [];
    const clients: pg.Client[] = [];
    let threads: ThreadWriter[] = [];
    let processes: WriterProcess[] = [];
    // SQLite's writers all append to one file, as PostgreSQL's all append to one database.
    const path = join(dir, 'ledger.db');
    const database = openDatabase({ path, synchronous: 'FULL' });
    try {
      const openPg = async (url: string, poolSize = 1) => {
        const store = await openPostgresStore<BenchEvent>({ url, registry, clock, poolSize });
        pgStores.push(store);
        return store;
      };
      const pgSingle = await openPg(cluster.url);
      // One process's 32 writers share its store (and its commits); 32 processes have a store each.
      const pgGrouped = await openPg(cluster.url, 4);
      const pgApart = await Promise.all(Array.from({ length: WRITERS }, () => openPg(cluster.url)));
      const sqliteSingle = createEventStore<BenchEvent>(database, { registry, clock });
      const raw = new pg.Client({ connectionString: cluster.url });
      await raw.connect();
      clients.push(raw);
      await raw.query(`CREATE TABLE raw_rows (position bigint PRIMARY KEY, stream text NOT NULL, version integer NOT NULL, type text NOT NULL,
        schema_version integer NOT NULL, payload text NOT NULL, meta text NOT NULL, command_id text UNIQUE, prev_hash text NOT NULL, hash text NOT NULL)`);
      const payload = JSON.stringify(event.payload);
      const meta = JSON.stringify({ at: clock() });
      const hash = 'ab'.repeat(32);
      let rawPosition = 0;
      const rawInserts = async () => {
        for (let i = 0; i < SINGLE; i++) {
          rawPosition++;
          await raw.query('INSERT INTO raw_rows VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)', [
            rawPosition,
            'game-7',
            rawPosition,
            'CardPlayed',
            1,
            payload,
            meta,
            null,
            hash,
            hash,
          ]);
        }
        return 0;
      };
      threads = await startThreads(path, WRITERS);
      processes = await startWriterProcesses(cluster.url);
      // The writer processes' commit counts after their last round, summed.
      let processStats: (GroupCommitStats & WriterLinkStats)[] = [];

      let runs = 0;
      const sharedRun = async (store: PgEventStore<BenchEvent> | PgEventStore<BenchEvent>[]) => {
        const tag = `run${++runs}`;
        const writerStore = (w: number) => (Array.isArray(store) ? store[w]! : store);
        return (await Promise.all(Array.from({ length: WRITERS }, (_, w) => writeAs(writerStore(w), w, 'shared', EACH_SHARED, tag)))).reduce(
          (a, b) => a + b,
          0,
        );
      };
      const sides = {
        sqlite1: async () => writeSqlite(sqliteSingle, 0, 'own', SINGLE),
        pg1: async () => writeAs(pgSingle, 0, 'own', SINGLE),
        pgRaw: rawInserts,
        sqliteOwn: async () => (await Promise.all(threads.map((t) => t.run({ mode: 'own', count: EACH })))).reduce((a, b) => a + b, 0),
        pgOwn: async () =>
          (await Promise.all(Array.from({ length: WRITERS }, (_, w) => writeAs(pgGrouped, w, 'own', EACH_GROUPED)))).reduce((a, b) => a + b, 0),
        pgOwnApart: async () => (await Promise.all(pgApart.map((s, w) => writeAs(s, w, 'own', EACH)))).reduce((a, b) => a + b, 0),
        pgProcesses: async () => {
          processStats = await Promise.all(processes.map((p) => p.run(EACH_GROUPED)));
          return 0;
        },
        sqliteShared: async () => (await Promise.all(threads.map((t) => t.run({ mode: 'shared', count: EACH_SHARED })))).reduce((a, b) => a + b, 0),
        pgShared: () => sharedRun(pgGrouped),
      };
      const events = {
        sqlite1: SINGLE,
        pg1: SINGLE,
        pgRaw: SINGLE,
        sqliteOwn: WRITERS * EACH,
        pgOwn: WRITERS * EACH_GROUPED,
        pgOwnApart: WRITERS * EACH,
        pgProcesses: WRITERS * EACH_GROUPED,
        sqliteShared: WRITERS * EACH_SHARED,
        pgShared: WRITERS * EACH_SHARED,
      };
      type Side = keyof typeof sides;
      // The stores each PostgreSQL side appends through, whose commits it counts.
      const storesOf: Partial<Record<Side, PgEventStore<BenchEvent>[]>> = { pg1: [pgSingle], pgOwn: [pgGrouped], pgOwnApart: pgApart, pgShared: [pgGrouped] };
      const zero = noCommits();
      const sum = (all: GroupCommitStats[]): GroupCommitStats =>
        all.reduce(
          (a, b) => ({
            transactions: a.transactions + b.transactions,
            appends: a.appends + b.appends,
            largest: Math.max(a.largest, b.largest),
            oneTrip: a.oneTrip + b.oneTrip,
            queued: a.queued + b.queued,
            forOthers: a.forOthers + b.forOthers,
            decidedAhead: a.decidedAhead + b.decidedAhead,
            steps: {
              connect: a.steps.connect + b.steps.connect,
              lock: a.steps.lock + b.steps.lock,
              decide: a.steps.decide + b.steps.decide,
              write: a.steps.write + b.steps.write,
            },
          }),
          zero,
        );
      // Each side's commit counts so far: its stores', or what its writer processes last answered.
      const statsOf = (side: Side): GroupCommitStats | null =>
        side === 'pgProcesses' ? sum(processStats) : storesOf[side] ? sum(storesOf[side].map((s) => s.commitStats())) : null;
      const rates = Object.fromEntries(Object.keys(sides).map((k) => [k, [] as number[]])) as Record<Side, number[]>;
      const batches = Object.fromEntries(Object.keys(sides).map((k) => [k, [] as number[]])) as Record<Side, number[]>;
      const steps = Object.fromEntries(Object.keys(sides).map((k) => [k, [] as GroupCommitStats[]])) as Record<Side, GroupCommitStats[]>;
      const conflicts: Record<'sqliteShared' | 'pgShared', number[]> = { sqliteShared: [], pgShared: [] };
      const queuedShare: number[] = [];
      const forwardedShare: number[] = [];
      const aheadShare: number[] = [];
      // Rounds of each side first, unmeasured: connections, statements, caches and compiled code
      // warmed, so each side's first rounds measure neither the connection nor the compiler. A
      // writer process takes an eighth of its side's appends, so its side warms 8 times as many
      // rounds: each process has then compiled its code over as many appends as the one process
      // of the 32 writers has (with 3, the processes' rates still climbed round after round).
      const warmRounds = (side: Side) => (side === 'pgProcesses' ? WARM_ROUNDS * PROCESSES : WARM_ROUNDS);
      for (let round = 0; round < WARM_ROUNDS * PROCESSES; round++) {
        for (const side of Object.keys(sides) as Side[]) if (round < warmRounds(side)) await sides[side]();
      }
      for (let round = 0; round < ROUNDS; round++) {
        // Each pair back to back, so both sides of a ratio see the same disk.
        for (const side of Object.keys(sides) as Side[]) {
          let met = 0;
          const before = statsOf(side);
          const seconds = await timed(async () => (met = await sides[side]()));
          rates[side].push(events[side] / seconds);
          if (before) {
            const after = statsOf(side)!;
            const transactions = after.transactions - before.transactions;
            batches[side].push((after.appends - before.appends) / transactions);
            if (side === 'pgProcesses') {
              queuedShare.push((after.queued - before.queued) / (after.appends - before.appends));
              forwardedShare.push(processStats.reduce((n, p) => n + p.forwarded, 0) / events.pgProcesses);
              aheadShare.push((after.decidedAhead - before.decidedAhead) / (after.appends - before.appends));
            }
            const per = (name: keyof GroupCommitStats['steps']) => (after.steps[name] - before.steps[name]) / transactions;
            steps[side].push({ ...after, steps: { connect: per('connect'), lock: per('lock'), decide: per('decide'), write: per('write') } });
          }
          if (side === 'sqliteShared' || side === 'pgShared') conflicts[side].push(met / events[side]);
        }
      }
      // Every PostgreSQL writer appended to the one ledger of the cluster's database.
      if (!(await pgSingle.verifyChain()).ok) throw new Error('the PostgreSQL benchmark ledger does not verify');
      // The racing writers' every event recorded once: one a command id, versions 1…n with none twice.
      const expectedShared = (WARM_ROUNDS + ROUNDS) * WRITERS * EACH_SHARED;
      const {
        rows: [shared],
      } = await raw.query<{ n: string; top: number; commands: string }>(
        'SELECT count(*) AS n, max(version) AS top, count(DISTINCT command_id) AS commands FROM events WHERE stream = $1',
        [SHARED_STREAM],
      );
      if (Number(shared!.n) !== expectedShared || Number(shared!.top) !== expectedShared || Number(shared!.commands) !== expectedShared) {
        throw new Error(
          `the writers racing on one stream recorded ${shared!.n} events (top version ${shared!.top}, ${shared!.commands} command ids), not ${expectedShared} once each`,
        );
      }
      // The writer processes' every event recorded once, each stream's versions 1…n.
      const expectedEach = (warmRounds('pgProcesses') + ROUNDS) * EACH_GROUPED;
      const { rows: apart } = await raw.query<{ stream: string; n: string; top: number }>(
        "SELECT stream, count(*) AS n, max(version) AS top FROM events WHERE stream LIKE 'game-p%' GROUP BY stream",
      );
      if (apart.length !== WRITERS || apart.some((r) => Number(r.n) !== expectedEach || Number(r.top) !== expectedEach)) {
        throw new Error(`the writer processes recorded ${JSON.stringify(apart)}, not ${expectedEach} events on each of ${WRITERS} streams`);
      }

      const pair = (pg: Side, sqlite: Side, pgName: string, sqliteName: string): Figure[] => {
        const ratios = rates[pg].map((rate, i) => rate / rates[sqlite][i]!);
        const sqliteFigure = rateFigure(sqliteName, 'events/s', rates[sqlite]);
        return [{ ...rateFigure(pgName, 'events/s', rates[pg]), comparedTo: { name: sqliteName, ratio: percentile(ratios, 50) } }, sqliteFigure];
      };
      const conflictFigure = (name: string, values: number[]): Figure => ({
        name,
        unit: 'conflicts/event',
        median: percentile(values, 50),
        p99: percentile(values, 99),
        samples: values.length,
      });
      const rawFigure = rateFigure('PostgreSQL: raw INSERT of a row the same size, one per transaction', 'rows/s', rates.pgRaw);
      const batchFigure = (side: Side, rateName: string): Figure => ({
        name: `mean batch: appends per transaction, ${rateName.replace(/^PostgreSQL: /, '')}`,
        unit: 'appends/transaction',
        median: percentile(batches[side], 50),
        p99: percentile(batches[side], 99),
        samples: batches[side].length,
      });
      const stepFigures = (side: Side, writers: string): Figure[] =>
        (['connect', 'lock', 'decide', 'write'] as const).map((step) => {
          const what = {
            connect: 'waiting for a connection',
            lock: "BEGIN, head locked, versions and command ids read (the long way's first round trip)",
            decide: 'commands checked and chained',
            write: "rows inserted, head moved, committed (one round trip: the whole of a lone process's transaction, or the long way's second)",
          }[step];
          const values = steps[side].map((s) => s.steps[step]);
          return {
            name: `PostgreSQL commit step, ${writers}: ${what}`,
            unit: 'ms/transaction',
            median: percentile(values, 50),
            p99: percentile(values, 99),
            samples: values.length,
          };
        });
      const ratioFigure = (name: string, top: Side, bottom: Side, atLeast: number): Figure => {
        const ratios = rates[top].map((r, i) => r / rates[bottom][i]!);
        return withGoal({ name, unit: '×', median: percentile(ratios, 50), p99: percentile(ratios, 1), samples: ratios.length }, { atLeast });
      };
      const names = {
        pg1: 'PostgreSQL: append, 1 writer, one event per transaction',
        pgOwn: `PostgreSQL: append, ${WRITERS} writers at once, a stream each`,
        pgOwnApart: `PostgreSQL: append, ${WRITERS} writers at once, a stream each, a store each (as ${WRITERS} processes)`,
        pgShared: `PostgreSQL: append, ${WRITERS} writers racing on one stream, recorded`,
        pgProcesses: `PostgreSQL: append, ${WRITERS} writers in ${PROCESSES} processes (${WRITERS_PER_PROCESS} each, a stream each)`,
      };
      return [
        ...pair('pg1', 'sqlite1', names.pg1, 'SQLite: append, 1 writer, one event per transaction (synchronous=FULL)'),
        batchFigure('pg1', names.pg1),
        {
          ...rawFigure,
          comparedTo: {
            name: names.pg1,
            ratio: percentile(
              rates.pgRaw.map((r, i) => r / rates.pg1[i]!),
              50,
            ),
          },
        },
        ratioFigure('PostgreSQL: append, 1 writer, against a raw INSERT per transaction', 'pg1', 'pgRaw', 0.6),
        ...stepFigures('pg1', '1 writer'),
        ...pair('pgOwn', 'sqliteOwn', names.pgOwn, `SQLite: append, ${WRITERS} writers at once (threads), a stream each`),
        batchFigure('pgOwn', names.pgOwn),
        ratioFigure(`PostgreSQL: append, ${WRITERS} writers at once against 1 writer`, 'pgOwn', 'pg1', 8),
        ...stepFigures('pgOwn', `${WRITERS} writers on one store`),
        {
          ...rateFigure(names.pgOwnApart, 'events/s', rates.pgOwnApart),
          comparedTo: {
            name: names.pg1,
            ratio: percentile(
              rates.pgOwnApart.map((r, i) => r / rates.pg1[i]!),
              50,
            ),
          },
        },
        batchFigure('pgOwnApart', names.pgOwnApart),
        {
          ...rateFigure(names.pgProcesses, 'events/s', rates.pgProcesses),
          comparedTo: {
            name: names.pg1,
            ratio: percentile(
              rates.pgProcesses.map((r, i) => r / rates.pg1[i]!),
              50,
            ),
          },
        },
        batchFigure('pgProcesses', names.pgProcesses),
        {
          name: `PostgreSQL, ${WRITERS} writers in ${PROCESSES} processes: share of appends forwarded to the writer process`,
          unit: 'share',
          median: percentile(forwardedShare, 50),
          p99: percentile(forwardedShare, 99),
          samples: forwardedShare.length,
        },
        {
          name: `PostgreSQL, ${WRITERS} writers in ${PROCESSES} processes: share of appends chained while the writer waited for the rest, before its commit began`,
          unit: 'share',
          median: percentile(aheadShare, 50),
          p99: percentile(aheadShare, 99),
          samples: aheadShare.length,
        },
        {
          name: `PostgreSQL, ${WRITERS} writers in ${PROCESSES} processes: share of appends left in the intake for another process to chain`,
          unit: 'share',
          median: percentile(queuedShare, 50),
          p99: percentile(queuedShare, 99),
          samples: queuedShare.length,
        },
        ratioFigure(`PostgreSQL: append, ${WRITERS} writers in ${PROCESSES} processes against 1 writer`, 'pgProcesses', 'pg1', 4),
        ratioFigure(`PostgreSQL: append, ${WRITERS} writers in ${PROCESSES} processes against ${WRITERS} writers in one process`, 'pgProcesses', 'pgOwn', 0.5),
        ...pair('pgShared', 'sqliteShared', names.pgShared, `SQLite: append, ${WRITERS} writers racing on one stream (threads), recorded`),
        batchFigure('pgShared', names.pgShared),
        conflictFigure(`PostgreSQL: conflicts met per event recorded, ${WRITERS} writers on one stream`, conflicts.pgShared),
        conflictFigure(`SQLite: conflicts met per event recorded, ${WRITERS} writers on one stream`, conflicts.sqliteShared),
        ...withinProcess,
      ];
    } finally {
      await Promise.all(threads.map((t) => t.close()));
      await Promise.all(processes.map((p) => p.close()));
      await Promise.all(pgStores.map((s) => s.close()));
      await Promise.all(clients.map((c) => c.end()));
      database.close();
      await cluster.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  },
};

if (isMainThread && import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  for (const figure of await pgAppendBench.run()) console.log(JSON.stringify(figure));
}

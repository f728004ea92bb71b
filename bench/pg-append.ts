/**
 * Append rates on PostgreSQL beside SQLite's, in the same run and on the same disk: one event
 * per append, each commit waiting for its log to reach the disk (SQLite synchronous=FULL,
 * PostgreSQL synchronous_commit on, as the stores always commit).
 *
 *   1 writer            one connection appending to one stream, one append after another; on
 *                       PostgreSQL also a raw INSERT of a row the same size per transaction,
 *                       what the commit alone costs there
 *   32 writers, own     32 connections at once, each appending to a stream of its own
 *   32 writers, shared  32 connections at once on one stream, each deciding against the version
 *                       it just read and trying again on a conflict, as racing tables would;
 *                       the rate counts recorded events, the conflicts are counted beside it
 *
 * PostgreSQL runs on a throwaway cluster in a temporary folder (test/fixtures/postgres.ts), its
 * 32 writers as 32 stores of one connection each in this process; SQLite's 32 writers are 32
 * worker threads, each with its own connection to one file. Each PostgreSQL append figure is
 * compared with SQLite's for the same writers (and the raw INSERT with the single writer), as the
 * median of ratios of rounds run back to back, so a slow patch of the disk slows both sides of a
 * pair alike. Without PostgreSQL's binaries the
 * benchmark says so in one line and gives no figures.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads';
import { openDatabase } from '../events/database.ts';
import { type EventStore, VersionConflictError, createEventStore } from '../events/event-store.ts';
import { type PgEventStore, openPostgresStore } from '../events/pg-event-store.ts';
import { postgres, startPostgres } from '../test/fixtures/postgres.ts';
import pg from 'pg';
import { type Benchmark, type Figure, percentile, rateFigure } from './harness.ts';
import { type BenchEvent, event, registry } from './ledger.ts';

const clock = () => '2026-01-01T00:00:00.000Z';

const WRITERS = 32;
const ROUNDS = 5;
// Events per round: by the single writer, by each of the 32 on its own stream, and recorded by
// each of the 32 on the shared one.
const SINGLE = 50;
const EACH = 8;
const EACH_SHARED = 3;
const SHARED_STREAM = 'game-shared';

type Mode = 'own' | 'shared';

/** Appends `count` events as one writer; on the shared stream, decides against the version read and retries on a conflict. Returns the conflicts met. */
async function writeAs(store: Pick<PgEventStore<BenchEvent>, 'append' | 'streamVersion'>, writer: number, mode: Mode, count: number): Promise<number> {
  let conflicts = 0;
  for (let done = 0; done < count; ) {
    if (mode === 'own') {
      await store.append(`game-w${writer}`, [event]);
      done++;
      continue;
    }
    const version = await store.streamVersion(SHARED_STREAM);
    try {
      await store.append(SHARED_STREAM, [event], { expectedVersion: version });
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
    Array.from({ length: count }, (_, writer) =>
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
      })),
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
    if (!postgres.available) {
      console.log('  skipped: PostgreSQL\'s initdb, pg_ctl and postgres are not under /usr/lib/postgresql/*/bin (apt-get install postgresql to run it)');
      return [];
    }
    const cluster = await startPostgres();
    const dir = mkdtempSync(join(tmpdir(), 'spades-pg-append-bench-'));
    const pgStores: PgEventStore<BenchEvent>[] = [];
    const clients: pg.Client[] = [];
    let threads: ThreadWriter[] = [];
    // SQLite's writers all append to one file, as PostgreSQL's all append to one database.
    const path = join(dir, 'ledger.db');
    const database = openDatabase({ path, synchronous: 'FULL' });
    try {
      const openPg = async (url: string) => {
        const store = await openPostgresStore<BenchEvent>({ url, registry, clock, poolSize: 1 });
        pgStores.push(store);
        return store;
      };
      const pgSingle = await openPg(cluster.url);
      const pgWriters = await Promise.all(Array.from({ length: WRITERS }, () => openPg(cluster.url)));
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
          await raw.query('INSERT INTO raw_rows VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)', [rawPosition, 'game-7', rawPosition, 'CardPlayed', 1, payload, meta, null, hash, hash]);
        }
        return 0;
      };
      threads = await startThreads(path, WRITERS);

      const sides = {
        sqlite1: async () => writeSqlite(sqliteSingle, 0, 'own', SINGLE),
        pg1: async () => writeAs(pgSingle, 0, 'own', SINGLE),
        pgRaw: rawInserts,
        sqliteOwn: async () => (await Promise.all(threads.map((t) => t.run({ mode: 'own', count: EACH })))).reduce((a, b) => a + b, 0),
        pgOwn: async () => (await Promise.all(pgWriters.map((s, w) => writeAs(s, w, 'own', EACH)))).reduce((a, b) => a + b, 0),
        sqliteShared: async () => (await Promise.all(threads.map((t) => t.run({ mode: 'shared', count: EACH_SHARED })))).reduce((a, b) => a + b, 0),
        pgShared: async () => (await Promise.all(pgWriters.map((s, w) => writeAs(s, w, 'shared', EACH_SHARED)))).reduce((a, b) => a + b, 0),
      };
      const events = { sqlite1: SINGLE, pg1: SINGLE, pgRaw: SINGLE, sqliteOwn: WRITERS * EACH, pgOwn: WRITERS * EACH, sqliteShared: WRITERS * EACH_SHARED, pgShared: WRITERS * EACH_SHARED };
      type Side = keyof typeof sides;
      const rates = Object.fromEntries(Object.keys(sides).map((k) => [k, [] as number[]])) as Record<Side, number[]>;
      const conflicts: Record<'sqliteShared' | 'pgShared', number[]> = { sqliteShared: [], pgShared: [] };
      // A round of each side first, unmeasured: connections, statements and caches warmed.
      for (const side of Object.keys(sides) as Side[]) await sides[side]();
      for (let round = 0; round < ROUNDS; round++) {
        // Each pair back to back, so both sides of a ratio see the same disk.
        for (const side of Object.keys(sides) as Side[]) {
          let met = 0;
          const seconds = await timed(async () => (met = await sides[side]()));
          rates[side].push(events[side] / seconds);
          if (side === 'sqliteShared' || side === 'pgShared') conflicts[side].push(met / events[side]);
        }
      }
      // Every PostgreSQL writer appended to the one ledger of the cluster's database.
      if (!(await pgSingle.verifyChain()).ok) throw new Error('the PostgreSQL benchmark ledger does not verify');

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
      return [
        ...pair('pg1', 'sqlite1', 'PostgreSQL: append, 1 writer, one event per transaction', 'SQLite: append, 1 writer, one event per transaction (synchronous=FULL)'),
        { ...rawFigure, comparedTo: { name: 'PostgreSQL: append, 1 writer, one event per transaction', ratio: percentile(rates.pgRaw.map((r, i) => r / rates.pg1[i]!), 50) } },
        ...pair('pgOwn', 'sqliteOwn', `PostgreSQL: append, ${WRITERS} writers at once, a stream each`, `SQLite: append, ${WRITERS} writers at once (threads), a stream each`),
        ...pair('pgShared', 'sqliteShared', `PostgreSQL: append, ${WRITERS} writers racing on one stream, recorded`, `SQLite: append, ${WRITERS} writers racing on one stream (threads), recorded`),
        conflictFigure(`PostgreSQL: conflicts met per event recorded, ${WRITERS} writers on one stream`, conflicts.pgShared),
        conflictFigure(`SQLite: conflicts met per event recorded, ${WRITERS} writers on one stream`, conflicts.sqliteShared),
      ];
    } finally {
      await Promise.all(threads.map((t) => t.close()));
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

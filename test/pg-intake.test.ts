/**
 * Group commit across processes on PostgreSQL (events/store/postgres/group-commit.ts): a store
 * that finds the head held by another leaves its commands in the intake, the holder decides and
 * chains them in its own commit, and the store that left them finds its answers. Each store here
 * has connections of its own, as a separate server process has; the writer processes killed at
 * random are real processes.
 */
import pg from 'pg';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CommandIdReusedError, VersionConflictError } from '../events/store/append.ts';
import { verifyRows, type ChainedRow } from '../events/hash-chain.ts';
import { AppendOutcomeUnknownError, type PgEventStore, openPostgresStore } from '../events/store/postgres/event-store.ts';
import { buildLedgerChild, crashCycle } from './fixtures/ledger-child-process.ts';
import { postgresBackend } from './fixtures/ledger-backends.ts';
import { type LedgerTestEvent, counter, STORED_COLUMNS as COLUMNS, ledgerTestRegistry } from './fixtures/ledger-events.ts';
import { type PostgresCluster, noteMissingPostgres, postgres, startPostgres } from './fixtures/postgres.ts';
import { waitFor } from './fixtures/wait-for.ts';
import { createRandom } from '../engine/random.ts';

noteMissingPostgres('pg-intake');

const clock = () => '2025-03-01T19:00:00.000Z';

describe.skipIf(!postgres.available)('group commit across processes on PostgreSQL', () => {
  let cluster: PostgresCluster;
  let url: string;
  let sqlClient: pg.Client;
  const opened: PgEventStore<LedgerTestEvent>[] = [];

  beforeAll(async () => {
    cluster = await startPostgres();
  });
  afterAll(async () => {
    await cluster?.stop();
  });
  beforeEach(async () => {
    url = await cluster.createDatabase('intake');
    sqlClient = new pg.Client({ connectionString: url });
    await sqlClient.connect();
  });
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((s) => s.close()));
    await sqlClient.end();
  });

  const open = async (name = 'spades') => {
    const store = await openPostgresStore<LedgerTestEvent>({ url: `${url}?application_name=${name}`, registry: ledgerTestRegistry, clock, poolSize: 2 });
    opened.push(store);
    return store;
  };
  const query = async <R extends object>(text: string) => (await sqlClient.query<R>(text)).rows;
  const storedRows = async () =>
    (await query<ChainedRow & { position: string }>(`SELECT ${COLUMNS} FROM events ORDER BY position`)).map((row) => ({
      ...row,
      position: Number(row.position),
    }));
  const waiting = async () => Number((await query<{ n: string }>('SELECT count(*) AS n FROM ledger_intake'))[0]!.n);

  /** Holds the head row as another process's commit would, until `release` is called. */
  const holdHead = async () => {
    const holder = new pg.Client({ connectionString: url });
    await holder.connect();
    await holder.query('BEGIN');
    await holder.query('SELECT position FROM ledger_head WHERE id FOR UPDATE');
    return async () => {
      await holder.query('ROLLBACK');
      await holder.end();
    };
  };

  it('eight stores with four writers each commit together: most commands chained by another store, each once, in one chain', async () => {
    const stores = await Promise.all(Array.from({ length: 8 }, () => open()));
    const EACH = 25;
    await Promise.all(
      stores.flatMap((store, s) =>
        Array.from({ length: 4 }, async (_, w) => {
          for (let i = 1; i <= EACH; i++) await store.append(`game-s${s}-w${w}`, [counter(`s${s}w${w}`, i)], { expectedVersion: i - 1 });
        }),
      ),
    );
    const stats = stores.map((s) => s.commitStats());
    const sum = (key: 'appends' | 'queued' | 'forOthers') => stats.reduce((n, s) => n + s[key], 0);
    // commands went through the intake and were chained by a store other than their own
    expect(sum('queued')).toBeGreaterThan(0);
    expect(sum('forOthers')).toBeGreaterThan(0);
    const rows = await storedRows();
    expect(rows).toHaveLength(8 * 4 * EACH);
    expect(verifyRows(rows)).toMatchObject({ ok: true, count: 8 * 4 * EACH });
    // every stream's versions 1…n in chain order, each event once
    const byStream = new Map<string, number[]>();
    for (const row of rows) byStream.set(row.stream, [...(byStream.get(row.stream) ?? []), row.version]);
    for (const versions of byStream.values()) expect(versions).toEqual(Array.from({ length: EACH }, (_, i) => i + 1));
    // and commits carried commands of several stores: fewer transactions wrote rows than commands
    const [{ transactions }] = await query<{ transactions: string }>('SELECT count(DISTINCT xmin::text) AS transactions FROM events');
    expect(Number(transactions)).toBeLessThan(rows.length / 2);
    // nothing is left waiting, and every answer left for another store was taken
    expect(await waiting()).toBe(0);
    expect(await query('SELECT id FROM ledger_outcomes')).toEqual([]);
  });

  it('a command left in the intake is decided against the chain it joins: a stale version is refused with the versions, a command id answers its first result', async () => {
    const [a, b] = [await open(), await open()];
    await a.append('game-1', [counter('a', 1)], { commandId: 'tap-1' });
    await b.append('game-1', [counter('b', 2)]);
    // given another process holding the head, so both stores' commands go into the intake
    const release = await holdHead();
    // (a's two, then b's two: each store's sent together go in together, in the order sent)
    const stale = a.append('game-1', [counter('a', 3)], { expectedVersion: 1 }).catch((error: unknown) => error);
    const reused = a.append('game-2', [counter('a', 9)], { commandId: 'tap-1' }).catch((error: unknown) => error);
    await waitFor("a's commands in the intake", async () => (await waiting()) === 2, 10_000);
    const fresh = b.append('game-1', [counter('b', 3)], { expectedVersion: 2 });
    const repeat = b.append('game-1', [counter('a', 1)], { commandId: 'tap-1' });
    await waitFor('four commands in the intake', async () => (await waiting()) === 4, 10_000);
    await release();
    // then each is answered as if its store had decided it alone, in the order they came
    expect(await stale).toBeInstanceOf(VersionConflictError);
    expect(await stale).toMatchObject({ stream: 'game-1', expected: 1, actual: 2 });
    expect(await fresh).toMatchObject({ positions: [3], versions: [3], duplicate: false });
    expect(await repeat).toMatchObject({ positions: [1], versions: [1], duplicate: true });
    expect(await reused).toBeInstanceOf(CommandIdReusedError);
    // one of the two stores chained the other's commands
    expect(a.commitStats().forOthers + b.commitStats().forOthers).toBeGreaterThan(0);
    expect(verifyRows(await storedRows())).toMatchObject({ ok: true, count: 3 });
    expect(await waiting()).toBe(0);
  });

  it('a command whose store is cut off while it waits in the intake is decided by the next holder of the head, and a retry finds it', async () => {
    const [a, b] = [await open('cut_off'), await open()];
    await a.append('game-1', [counter('a', 1)]);
    const release = await holdHead();
    // Its answer is taken as soon as it comes, so a refusal arriving while the test waits is not left unheard.
    const lost = a.append('game-1', [counter('a', 2)], { commandId: 'tap-2', expectedVersion: 1 }).then(
      () => null,
      (error: unknown) => error,
    );
    await waitFor('the command in the intake', async () => (await waiting()) === 1, 10_000);
    // when the store's connections are cut while its command waits
    await sqlClient.query("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'cut_off'");
    expect(await lost).toBeInstanceOf(AppendOutcomeUnknownError);
    await release();
    // then the next append, from another store, chains it first
    expect(await b.append('game-1', [counter('b', 3)])).toMatchObject({ positions: [3], versions: [3] });
    expect((await storedRows()).map((r) => [r.stream, r.version, JSON.parse(r.payload).by])).toEqual([
      ['game-1', 1, 'a'],
      ['game-1', 2, 'a'],
      ['game-1', 3, 'b'],
    ]);
    // and the store sending it again with its command id is answered with what was recorded
    expect(await a.append('game-1', [counter('a', 2)], { commandId: 'tap-2', expectedVersion: 1 })).toMatchObject({ duplicate: true, positions: [2] });
    expect(await waiting()).toBe(0);
  });

  it('keeps every acknowledged event, gapless and chained, when four writer processes going through the intake are killed with SIGKILL', async () => {
    const child = buildLedgerChild();
    const backend = postgresBackend();
    await backend.start();
    try {
      const location = await backend.create();
      const seed = Date.now() >>> 0;
      const random = createRandom(seed).float;
      let acked = 0;
      let lastHead = 0;
      for (let cycle = 1; cycle <= 12; cycle++) {
        const result = await crashCycle(backend, location, child.path, random, 4);
        expect(result.problems, `cycle ${cycle} (seed ${seed})`).toEqual([]);
        expect(result.head).toBeGreaterThanOrEqual(lastHead);
        lastHead = result.head;
        acked += result.acked;
      }
      expect(acked).toBeGreaterThan(0);
      // and the writers did commit together: transactions (rows sharing an xmin) holding
      // commands of several writer processes (command ids begin with the writer's name)
      const [mixed] = await backend.sql(
        location,
        `SELECT count(*) AS n FROM (SELECT xmin::text FROM events WHERE command_id IS NOT NULL
        GROUP BY xmin::text HAVING count(DISTINCT split_part(command_id, '-', 1)) > 1) AS t`,
      );
      expect(Number(mixed!.n)).toBeGreaterThan(0);
    } finally {
      child.remove();
      await backend.stop();
    }
  }, 240_000);
});

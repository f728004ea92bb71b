/**
 * The event store on PostgreSQL, on a throwaway cluster, in what only a shared server brings:
 * the schema made by whoever opens first, writers racing from separate pools, a batch split over
 * several inserts still all or nothing, commits announced to listeners, a commit whose answer
 * never came, group commit, digests walked page by page, and rows byte for byte the same as the
 * SQLite store's. The rules both stores keep (gapless positions, the chain from 64 zeros, version
 * conflicts, payload checks, reads, upcasting, command ids) are held on both in
 * ledger-backends.test.ts.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { type Server, type Socket, createServer, connect as connectTcp } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../events/store/sqlite/database.ts';
import { type AppendResult, CommandIdReusedError, LedgerUnavailableError, VersionConflictError } from '../events/store/append.ts';
import { createEventStore } from '../events/store/sqlite/event-store.ts';
import { GENESIS_HASH, type ChainedRow, parseDigest, verifyRows } from '../events/hash-chain.ts';
import { AppendOutcomeUnknownError, type PgEventStore, type PostgresStoreOptions, openPostgresStore } from '../events/store/postgres/event-store.ts';
import { type LedgerTestEvent, counter, STORED_COLUMNS as COLUMNS, ledgerTestRegistry } from './fixtures/ledger-events.ts';
import { type PostgresCluster, noteMissingPostgres, postgres, startPostgres } from './fixtures/postgres.ts';
import { waitFor } from './fixtures/wait-for.ts';

noteMissingPostgres('pg-event-store');

const clock = () => '2025-03-01T19:00:00.000Z';

describe.skipIf(!postgres.available)('the event store on PostgreSQL', () => {
  let cluster: PostgresCluster;
  let admin: pg.Client;
  let databaseName: string;
  let url: string;
  let store: PgEventStore<LedgerTestEvent>;
  let sqlClient: pg.Client;
  const opened: PgEventStore<LedgerTestEvent>[] = [];
  let databases = 0;

  beforeAll(async () => {
    cluster = await startPostgres();
    admin = new pg.Client({ connectionString: cluster.url });
    await admin.connect();
  });
  afterAll(async () => {
    await admin?.end();
    await cluster?.stop();
  });

  // Each test gets a database of its own, and the store and a plain client on it.
  beforeEach(async () => {
    databaseName = `ledger_${++databases}`;
    await admin.query(`CREATE DATABASE ${databaseName}`);
    url = cluster.urlFor(databaseName);
    store = await open();
    sqlClient = new pg.Client({ connectionString: url });
    await sqlClient.connect();
  });
  afterEach(async () => {
    await sqlClient.end();
    await Promise.all(opened.splice(0).map((s) => s.close()));
  });

  const open = async (options: Partial<PostgresStoreOptions<LedgerTestEvent>> = {}) => {
    const opening = await openPostgresStore<LedgerTestEvent>({ url, registry: ledgerTestRegistry, clock, poolSize: 2, ...options });
    opened.push(opening);
    return opening;
  };
  const query = async <R extends object>(text: string, values: unknown[] = []) => (await sqlClient.query<R>(text, values)).rows;
  const rowCount = async () => Number((await query<{ n: string }>('SELECT count(*) AS n FROM events'))[0]!.n);
  const storedRows = async () =>
    (await query<ChainedRow & { position: string }>(`SELECT ${COLUMNS} FROM events ORDER BY position`)).map((row) => ({
      ...row,
      position: Number(row.position),
    }));

  describe('opening', () => {
    it('creates the schema without a migration step, even with eight processes opening a new database at once', async () => {
      const stores = await Promise.all(Array.from({ length: 8 }, () => open({ poolSize: 1 })));
      for (const s of stores) expect(await s.head()).toEqual({ position: 0, hash: GENESIS_HASH });
      const triggers = await query<{ tgname: string }>(
        "SELECT tgname FROM pg_trigger WHERE tgname IN ('events_append_only', 'ledger_head_kept') ORDER BY tgname",
      );
      expect(triggers.map((t) => t.tgname)).toEqual(['events_append_only', 'ledger_head_kept']);
    });

    it('refuses a database holding a newer ledger schema than this build knows', async () => {
      await query("COMMENT ON TABLE ledger_head IS 'spades ledger schema 3'");
      await expect(open()).rejects.toThrow(/ledger schema 3; this build knows up to 2/);
    });

    it('refuses to change, delete or truncate a stored event, or to delete the head', async () => {
      await store.append('game-1', [counter('a', 1)]);
      await expect(query("UPDATE events SET payload = '{}'")).rejects.toThrow(/the ledger is append-only: events cannot be changed/);
      await expect(query('DELETE FROM events')).rejects.toThrow(/the ledger is append-only: events cannot be deleted/);
      await expect(query('TRUNCATE events')).rejects.toThrow(/the ledger is append-only: events cannot be deleted/);
      await expect(query('DELETE FROM ledger_head')).rejects.toThrow(/ledger head cannot be deleted/);
      expect(await rowCount()).toBe(1);
    });

    it('commits each append with synchronous_commit on, even where the database says off', async () => {
      // given a database whose sessions commit asynchronously unless told otherwise
      await admin.query(`ALTER DATABASE ${databaseName} SET synchronous_commit = off`);
      const asyncStore = await open();
      const plain = new pg.Client({ connectionString: url });
      await plain.connect();
      expect((await plain.query('SHOW synchronous_commit')).rows[0].synchronous_commit).toBe('off');
      await plain.end();
      // and a trigger noting the setting inside each inserting transaction
      await query('CREATE TABLE seen_setting (value text)');
      await query(`CREATE FUNCTION note_setting() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN INSERT INTO seen_setting VALUES (current_setting('synchronous_commit')); RETURN NULL; END $$`);
      await query('CREATE TRIGGER note_setting AFTER INSERT ON events FOR EACH STATEMENT EXECUTE FUNCTION note_setting()');
      // when the store appends
      await asyncStore.append('game-1', [counter('a', 1)]);
      // then its transaction committed synchronously
      expect(await query('SELECT value FROM seen_setting')).toEqual([{ value: 'on' }]);
    });
  });

  describe('append', () => {
    it('checks payloads against the domain events unless given another registry', async () => {
      const domain = await openPostgresStore({ url });
      try {
        await expect(domain.append('game-1', [counter('a', 1) as never])).rejects.toThrow(/event type 'CounterIncremented' is not registered/);
      } finally {
        await domain.close();
      }
    });

    it('appends a large batch in one transaction, across several inserts, all or nothing', async () => {
      // given a rule of the database that refuses one event deep in the batch's second insert
      await query(`ALTER TABLE events ADD CONSTRAINT not_1234 CHECK (payload <> '{"attempt":1234,"by":"a"}')`);
      const batch = Array.from({ length: 2500 }, (_, i) => counter('a', i));
      // when the batch is appended, then nothing of it is kept, and the head has not moved
      await expect(store.append('game-1', batch)).rejects.toThrow(/not_1234/);
      expect(await rowCount()).toBe(0);
      expect(await query('SELECT position::int FROM ledger_head')).toEqual([{ position: 0 }]);
      // and once the rule is gone the same batch takes positions from 1 with nothing skipped
      await query('ALTER TABLE events DROP CONSTRAINT not_1234');
      expect((await store.append('game-1', batch)).positions).toEqual(batch.map((_, i) => i + 1));
      expect(await store.streamVersion('game-1')).toBe(2500);
      expect(await store.verifyChain()).toMatchObject({ ok: true, count: 2500 });
    });
  });

  describe('digests and verification', () => {
    it('writes the head as position:hash', async () => {
      expect(await store.digest()).toBe(`0:${GENESIS_HASH}`);
      const { events } = await store.append('game-1', [counter('a', 1), counter('a', 2)]);
      expect(parseDigest(await store.digest())).toEqual({ position: 2, hash: events[1]!.hash });
    });

    it('walks a chain longer than a page, and names the first position changed behind the triggers back', async () => {
      // given 12,000 events: more than two pages of the walk
      for (let i = 0; i < 12; i++)
        await store.append(
          `game-${i % 3}`,
          Array.from({ length: 1000 }, (_, j) => counter('a', i * 1000 + j)),
        );
      expect(await store.verifyChain()).toMatchObject({ ok: true, count: 12_000, head: { position: 12_000 } });
      // when someone who owns the table drops the trigger and edits an event on the second page
      await query('ALTER TABLE events DISABLE TRIGGER events_append_only');
      await query(`UPDATE events SET payload = '{"attempt":0,"by":"z"}' WHERE position = 7001`);
      // then the walk stops there, and a walk up to the event before still verifies
      expect(await store.verifyChain()).toMatchObject({ ok: false, count: 7000, firstBad: { position: 7001, reason: 'its hash does not match its contents' } });
      expect(await store.verifyChain({ upTo: 7000 })).toMatchObject({ ok: true, count: 7000 });
    });
  });

  describe('listening', () => {
    it('hears the head after each commit of any writer, not of a repeat or a refused append, until stopped', async () => {
      const heard: number[] = [];
      const stop = await store.listen((position) => heard.push(position));
      const other = await open({ poolSize: 1 });
      await other.append('game-1', [counter('a', 1), counter('a', 2)], { commandId: 'c-1' });
      await other.append('game-1', [counter('a', 1), counter('a', 2)], { commandId: 'c-1' });
      await expect(other.append('game-1', [counter('a', 3)], { expectedVersion: 0 })).rejects.toThrow(VersionConflictError);
      await store.append('game-2', [counter('b', 1)]);
      await waitFor('the second commit', () => heard.length >= 2);
      await stop();
      // a listener started after the stop hears the next commit; by then the stopped one would have too
      const later: number[] = [];
      await store.listen((position) => later.push(position));
      await other.append('game-1', [counter('a', 3)]);
      await waitFor('the commit after the stop', () => later.includes(4));
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(heard).toEqual([2, 3]);
    });

    it('connects again when its connection is cut, and tells the head it may have missed', async () => {
      const heard: number[] = [];
      await store.listen((position) => heard.push(position));
      await store.append('game-1', [counter('a', 1)]);
      await waitFor('the first commit', () => heard.includes(1));
      // when the server cuts the listening connection and an append lands meanwhile
      const listeners = await query<{ pid: number }>(`SELECT pid FROM pg_stat_activity WHERE datname = $1 AND query LIKE 'LISTEN%'`, [databaseName]);
      expect(listeners).toHaveLength(1);
      await query('SELECT pg_terminate_backend($1)', [listeners[0]!.pid]);
      await store.append('game-1', [counter('a', 2)]);
      // then the listener comes back with the head, and hears what follows
      await waitFor('the head after reconnecting', () => heard.includes(2), 10_000);
      await store.append('game-1', [counter('a', 3)]);
      await waitFor('the commit after reconnecting', () => heard.includes(3));
      expect(heard.filter((p) => p !== 2)).toEqual([1, 3]);
    });
  });

  describe('storage faults', () => {
    it('refuses an append to a read-only database as unavailable, writing nothing', async () => {
      await store.append('game-1', [counter('a', 1)]);
      await admin.query(`ALTER DATABASE ${databaseName} SET default_transaction_read_only = on`);
      const readOnly = await open();
      const attempt = readOnly.append('game-1', [counter('a', 2)]);
      await expect(attempt).rejects.toThrow(LedgerUnavailableError);
      await expect(attempt).rejects.toThrow('the ledger cannot record anything right now: the database is read-only; nothing was recorded');
      expect(await rowCount()).toBe(1);
    });

    it('refuses an append while the server cannot be reached as unavailable', async () => {
      const gone = await startPostgres();
      const lost = await openPostgresStore({ url: gone.url, registry: ledgerTestRegistry, clock, poolSize: 1 });
      await lost.append('game-1', [counter('a', 1)]);
      await gone.stop();
      const attempt = lost.append('game-1', [counter('a', 2)]);
      await expect(attempt).rejects.toThrow(LedgerUnavailableError);
      await expect(attempt).rejects.not.toThrow(AppendOutcomeUnknownError);
      await lost.close();
    });

    it('says so when the connection is lost after the commit was sent, and a retry with the command id finds it recorded', async () => {
      // given a proxy that, once armed, passes a COMMIT on to the server and cuts the client off before the answer
      const proxy = await commitCuttingProxy(cluster.port);
      try {
        const cut = await open({ url: `postgresql://postgres@127.0.0.1:${proxy.port}/${databaseName}`, poolSize: 1 });
        await cut.append('game-1', [counter('a', 1)]);
        proxy.arm();
        const attempt = cut.append('game-1', [counter('a', 2)], { commandId: 'tap-2' });
        await expect(attempt).rejects.toThrow(AppendOutcomeUnknownError);
        await expect(attempt).rejects.toThrow(/may or may not have been recorded; send it again with the same command id/);
        // it was recorded: the server had the commit
        expect(await rowCount()).toBe(2);
        const retry = await cut.append('game-1', [counter('a', 2)], { commandId: 'tap-2' });
        expect(retry).toMatchObject({ duplicate: true, positions: [2], versions: [2] });
        expect(await rowCount()).toBe(2);
      } finally {
        await proxy.close();
      }
    });
  });

  describe('group commit: appends sent while a commit is in flight share the next', () => {
    /** Settles each append, in the order sent, as its value or the error it was refused with. */
    const settle = <T>(appends: Promise<T>[]) =>
      Promise.all(
        appends.map((a) =>
          a.then(
            (value) => ({ value }),
            (error: unknown) => ({ error }),
          ),
        ),
      );

    it('forty appends sent at once from one process take far fewer transactions, and each is recorded once, in order', async () => {
      const results = await Promise.all(Array.from({ length: 40 }, (_, i) => store.append(`game-${i}`, [counter('a', i), counter('a', i + 100)])));
      const stats = store.commitStats();
      expect(stats.appends).toBe(40);
      expect(stats.transactions).toBeLessThanOrEqual(4);
      expect(stats.largest).toBeGreaterThan(1);
      // positions in the order the appends were sent, gapless, each stream at version 2
      expect(results.map((r) => r.positions)).toEqual(Array.from({ length: 40 }, (_, i) => [2 * i + 1, 2 * i + 2]));
      expect(results.every((r) => r.versions.join() === '1,2' && !r.duplicate)).toBe(true);
      const rows = await storedRows();
      expect(rows).toHaveLength(80);
      expect(verifyRows(rows)).toMatchObject({ ok: true, count: 80 });
      expect(await store.head()).toEqual({ position: 80, hash: rows[79]!.hash });
    });

    it('refuses only the command whose stream moved, counting the earlier commands of the same batch', async () => {
      await store.append('game-1', [counter('a', 0)]);
      const before = store.commitStats().transactions;
      const [first, stale, other, after] = await settle([
        store.append('game-1', [counter('first', 1)], { expectedVersion: 1 }),
        // decided from version 1 too, but the first of the batch moved game-1 on
        store.append('game-1', [counter('stale', 1)], { expectedVersion: 1 }),
        store.append('game-2', [counter('other', 1)], { expectedVersion: 0 }),
        // decided from the version the first of the batch leaves
        store.append('game-1', [counter('after', 1)], { expectedVersion: 2 }),
      ]);
      // all four went in one transaction
      expect(store.commitStats().transactions - before).toBe(1);
      expect(first).toMatchObject({ value: { positions: [2], versions: [2] } });
      expect((stale as { error: unknown }).error).toBeInstanceOf(VersionConflictError);
      expect((stale as { error: VersionConflictError }).error).toMatchObject({ stream: 'game-1', expected: 1, actual: 2 });
      expect(other).toMatchObject({ value: { positions: [3], versions: [1] } });
      expect(after).toMatchObject({ value: { positions: [4], versions: [3] } });
      const rows = await storedRows();
      expect(rows.map((r) => [r.stream, r.version, JSON.parse(r.payload).by])).toEqual([
        ['game-1', 1, 'a'],
        ['game-1', 2, 'first'],
        ['game-2', 1, 'other'],
        ['game-1', 3, 'after'],
      ]);
      expect(verifyRows(rows)).toMatchObject({ ok: true, count: 4 });
    });

    it('answers a command id repeated within a batch and across batches with the first result, and refuses its reuse', async () => {
      const before = store.commitStats().transactions;
      const [once, again, reused, conflicted, retried] = await settle([
        store.append('game-1', [counter('a', 1), counter('a', 2)], { commandId: 'tap-1' }),
        store.append('game-1', [counter('a', 1), counter('a', 2)], { commandId: 'tap-1' }),
        store.append('game-1', [counter('z', 9)], { commandId: 'tap-1' }),
        // a command refused records nothing, so its id is free for the same command sent again
        store.append('game-2', [counter('b', 1)], { commandId: 'tap-2', expectedVersion: 5 }),
        store.append('game-2', [counter('b', 1)], { commandId: 'tap-2', expectedVersion: 0 }),
      ]);
      expect(store.commitStats().transactions - before).toBe(1);
      const first = (once as { value: AppendResult }).value;
      expect(first).toMatchObject({ positions: [1, 2], duplicate: false });
      expect((again as { value: AppendResult }).value).toEqual({ ...first, duplicate: true });
      expect((reused as { error: unknown }).error).toBeInstanceOf(CommandIdReusedError);
      expect((conflicted as { error: unknown }).error).toBeInstanceOf(VersionConflictError);
      expect(retried).toMatchObject({ value: { positions: [3], versions: [1], duplicate: false } });
      // and in a later batch, beside a new command
      const [later, fresh] = await Promise.all([
        store.append('game-1', [counter('a', 1), counter('a', 2)], { commandId: 'tap-1' }),
        store.append('game-3', [counter('c', 1)], { commandId: 'tap-3' }),
      ]);
      expect(later).toEqual({ ...first, duplicate: true });
      expect(fresh).toMatchObject({ positions: [4], duplicate: false });
      expect((await storedRows()).map((r) => r.command_id)).toEqual(['tap-1', null, 'tap-2', 'tap-3']);
    });

    it('commits the others when the database refuses one command of a batch', async () => {
      // given a database that refuses any event on one stream
      await query(`CREATE FUNCTION refuse_closed() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN IF NEW.stream = 'game-closed' THEN RAISE EXCEPTION 'game-closed takes no more events'; END IF; RETURN NEW; END $$`);
      await query('CREATE TRIGGER refuse_closed BEFORE INSERT ON events FOR EACH ROW EXECUTE FUNCTION refuse_closed()');
      const [a, closed, b] = await settle([
        store.append('game-1', [counter('a', 1)]),
        store.append('game-closed', [counter('x', 1)]),
        store.append('game-2', [counter('b', 1)]),
      ]);
      expect((closed as { error: Error }).error.message).toMatch(/game-closed takes no more events/);
      expect(a).toMatchObject({ value: { positions: [1] } });
      expect(b).toMatchObject({ value: { positions: [2] } });
      expect(verifyRows(await storedRows())).toMatchObject({ ok: true, count: 2 });
    });

    it('commits in one round trip while the process writes alone, and takes the long way whenever that would answer wrongly', async () => {
      for (let i = 1; i <= 3; i++) await store.append('game-1', [counter('a', i)], { expectedVersion: i - 1 });
      // the first transactions learn where the ledger stands; once nothing moved between two, one round trip
      expect(store.commitStats().oneTrip).toBeGreaterThanOrEqual(1);
      const alone = store.commitStats().oneTrip;
      await store.append('game-1', [counter('a', 4)], { commandId: 'tap-4' });
      expect(store.commitStats().oneTrip).toBe(alone + 1);
      // another process writes to the same stream: the head this one knew has moved
      const other = await open({ poolSize: 1 });
      await other.append('game-1', [counter('b', 5)]);
      // decided from the version read now, which this process has not seen written: recorded, not refused
      expect(await store.append('game-1', [counter('a', 6)], { expectedVersion: 5 })).toMatchObject({ positions: [6], versions: [6] });
      // decided from a version gone by: refused as the database says
      await expect(store.append('game-1', [counter('a', 7)], { expectedVersion: 5 })).rejects.toMatchObject({ expected: 5, actual: 6 });
      // a command id already recorded, sent again where one round trip would do: the first answer
      await store.append('game-2', [counter('c', 1)]);
      await store.append('game-2', [counter('c', 2)]);
      const before = store.commitStats().oneTrip;
      expect(await store.append('game-1', [counter('a', 4)], { commandId: 'tap-4' })).toMatchObject({ duplicate: true, positions: [4] });
      // and once more alone, one round trip again
      await store.append('game-2', [counter('c', 3)]);
      await store.append('game-2', [counter('c', 4)]);
      expect(store.commitStats().oneTrip).toBeGreaterThan(before);
      const rows = await storedRows();
      expect(rows.map((r) => [r.stream, r.version])).toEqual([
        ['game-1', 1],
        ['game-1', 2],
        ['game-1', 3],
        ['game-1', 4],
        ['game-1', 5],
        ['game-1', 6],
        ['game-2', 1],
        ['game-2', 2],
        ['game-2', 3],
        ['game-2', 4],
      ]);
      expect(verifyRows(rows)).toMatchObject({ ok: true, count: 10 });
      expect(await store.head()).toEqual({ position: 10, hash: rows[9]!.hash });
      expect(await query('SELECT position::int AS position, hash FROM ledger_head')).toEqual([{ position: 10, hash: rows[9]!.hash }]);
    });

    it('stores text byte for byte when it commits in one round trip, as the chain and the SQLite store need', async () => {
      for (let i = 1; i <= 3; i++) await store.append('tournament-1', [{ type: 'NoteTaken', payload: { text: `note ${i}`, author: 'dir' } }]);
      const before = store.commitStats().oneTrip;
      const texts = ['quote " backslash \\ newline \n tab \t', 'single \' quote, {braces}, "NULL", NULL', "Zoë ♠ 🂡 \u2028 $1 $$ E'\\x'", ''];
      const results = await Promise.all(texts.map((text) => store.append('tournament-1', [{ type: 'NoteTaken', payload: { text, author: 'dir ector' } }])));
      expect(store.commitStats().oneTrip).toBeGreaterThan(before);
      const rows = await storedRows();
      expect(verifyRows(rows)).toMatchObject({ ok: true, count: 7 });
      results.forEach((result, i) => {
        const row = rows.find((r) => r.position === result.positions[0])!;
        expect(JSON.parse(row.payload)).toEqual({ text: texts[i], author: 'dir ector' });
        expect(row.hash).toBe(result.events[0]!.hash);
      });
    });

    it('commits batches of every size in one round trip, a parameter a value up to 64 rows and arrays past that, each row as sent', async () => {
      for (let i = 1; i <= 3; i++) await store.append('tournament-1', [{ type: 'NoteTaken', payload: { text: `warm ${i}`, author: 'dir' } }]);
      const texts = (size: number) => Array.from({ length: size }, (_, i) => (i % 2 ? `row ${i} ' " \\ ♠ $${i}` : `NULL ${i}`));
      let count = 3;
      for (const size of [1, 2, 63, 64, 65, 130]) {
        const before = store.commitStats();
        // One append of `size` events, and as many appends of one event at once, sharing a commit.
        const alone = await store.append(
          'tournament-1',
          texts(size).map((text) => ({ type: 'NoteTaken', payload: { text, author: 'a' } })),
        );
        const together = await Promise.all(texts(size).map((text) => store.append('tournament-1', [{ type: 'NoteTaken', payload: { text, author: 'b' } }])));
        const after = store.commitStats();
        expect(after.oneTrip - before.oneTrip, `batches of ${size}`).toBe(after.transactions - before.transactions);
        count += 2 * size;
        const rows = await storedRows();
        expect(verifyRows(rows)).toMatchObject({ ok: true, count });
        expect(alone.positions.map((p) => JSON.parse(rows[p - 1]!.payload).text)).toEqual(texts(size));
        expect(together.map((r) => JSON.parse(rows[r.positions[0]! - 1]!.payload).text)).toEqual(texts(size));
        expect(together.map((r) => rows[r.positions[0]! - 1]!.hash)).toEqual(together.map((r) => r.events[0]!.hash));
      }
    });

    it('32 writers racing on one stream of one process record every event exactly once', async () => {
      const shared = await open({ poolSize: 4 });
      const EACH = 4;
      const conflicts = await Promise.all(
        Array.from({ length: 32 }, async (_, w) => {
          let met = 0;
          for (let attempt = 0; attempt < EACH; ) {
            const version = await shared.streamVersion('game-7');
            try {
              await shared.append('game-7', [counter(`w${w}`, attempt)], { expectedVersion: version, commandId: `w${w}-${attempt}` });
              attempt++;
            } catch (error) {
              if (!(error instanceof VersionConflictError)) throw error;
              met++;
            }
          }
          return met;
        }),
      );
      const events = await shared.readStream('game-7');
      expect(events.map((e) => e.version)).toEqual(Array.from({ length: 32 * EACH }, (_, i) => i + 1));
      const written = events.map((e) => `${(e.payload as { by: string }).by}/${(e.payload as { attempt: number }).attempt}`);
      expect(new Set(written).size).toBe(32 * EACH);
      expect(conflicts.reduce((a, b) => a + b, 0)).toBeGreaterThan(0);
      expect(shared.commitStats().largest).toBeGreaterThan(1);
      expect(await shared.verifyChain()).toMatchObject({ ok: true, count: 32 * EACH });
    });

    it('answers every append of a batch whose commit answer was lost as unknown, and each retry finds it recorded', async () => {
      const proxy = await commitCuttingProxy(cluster.port);
      try {
        const cut = await open({ url: `postgresql://postgres@127.0.0.1:${proxy.port}/${databaseName}`, poolSize: 1 });
        await cut.append('game-0', [counter('a', 0)]);
        proxy.arm();
        const sent = Array.from({ length: 6 }, (_, i) => cut.append(`game-${i + 1}`, [counter('a', i)], { commandId: `tap-${i}` }));
        const outcomes = await settle(sent);
        for (const outcome of outcomes) expect((outcome as { error: unknown }).error).toBeInstanceOf(AppendOutcomeUnknownError);
        expect(cut.commitStats().transactions).toBe(2);
        expect(await rowCount()).toBe(7);
        const retries = await Promise.all(Array.from({ length: 6 }, (_, i) => cut.append(`game-${i + 1}`, [counter('a', i)], { commandId: `tap-${i}` })));
        expect(retries.map((r) => [r.duplicate, r.positions[0]])).toEqual(Array.from({ length: 6 }, (_, i) => [true, i + 2]));
        expect(await rowCount()).toBe(7);
      } finally {
        await proxy.close();
      }
    });

    it('answers an append committed in one round trip whose answer was lost as unknown, and the retry finds it recorded', async () => {
      const proxy = await commitCuttingProxy(cluster.port);
      try {
        const cut = await open({ url: `postgresql://postgres@127.0.0.1:${proxy.port}/${databaseName}`, poolSize: 1 });
        for (let i = 1; i <= 3; i++) await cut.append('game-1', [counter('a', i)]);
        expect(cut.commitStats().oneTrip).toBeGreaterThanOrEqual(1);
        const oneTrip = cut.commitStats().oneTrip;
        proxy.arm();
        await expect(cut.append('game-1', [counter('a', 4)], { commandId: 'tap-4' })).rejects.toThrow(AppendOutcomeUnknownError);
        expect(await rowCount()).toBe(4);
        // the retry goes the long way, as nothing is known after a lost answer, and finds it recorded
        expect(await cut.append('game-1', [counter('a', 4)], { commandId: 'tap-4' })).toMatchObject({ duplicate: true, positions: [4] });
        expect(cut.commitStats().oneTrip).toBe(oneTrip);
        expect(await rowCount()).toBe(4);
      } finally {
        await proxy.close();
      }
    });

    it('answers every waiting append with the fault when the server goes away, leaving none hanging', async () => {
      const gone = await startPostgres();
      const lost = await openPostgresStore({ url: gone.url, registry: ledgerTestRegistry, clock, poolSize: 1, connectTimeoutMs: 2000 });
      try {
        await lost.append('game-1', [counter('a', 1)]);
        await gone.stop();
        const outcomes = await settle(Array.from({ length: 8 }, (_, i) => lost.append(`game-${i}`, [counter('a', i)])));
        for (const outcome of outcomes) expect((outcome as { error: unknown }).error).toBeInstanceOf(LedgerUnavailableError);
      } finally {
        await lost.close();
      }
    });
  });

  describe('writers racing from separate pools', () => {
    it('32 writers on four streams: gapless positions, one winner per stream and round, every loser a version conflict, a chain that verifies', async () => {
      const writers = await Promise.all(Array.from({ length: 32 }, () => open({ poolSize: 1 })));
      const streamOf = (w: number) => `game-${w % 4}`;
      let recorded = 0;
      for (let round = 1; round <= 4; round++) {
        // every writer decides against the version it read, all before anyone writes
        const read = await Promise.all(writers.map((s, w) => s.streamVersion(streamOf(w))));
        const outcomes = await Promise.allSettled(
          writers.map((s, w) => s.append(streamOf(w), [counter(`w${w}`, round), counter(`w${w}`, round + 100)], { expectedVersion: read[w]! })),
        );
        const winners = outcomes.flatMap((o, w) => (o.status === 'fulfilled' ? [w] : []));
        const losers = outcomes.flatMap((o) => (o.status === 'rejected' ? [o.reason as unknown] : []));
        expect(new Set(winners.map(streamOf)).size).toBe(4);
        expect(winners).toHaveLength(4);
        for (const loser of losers) expect(loser).toBeInstanceOf(VersionConflictError);
        recorded += winners.length * 2;
      }
      // then writers retrying until they land, all at once
      await Promise.all(
        writers.map(async (s, w) => {
          for (;;) {
            const version = await s.streamVersion(streamOf(w));
            try {
              return await s.append(streamOf(w), [counter(`w${w}`, 999)], { expectedVersion: version });
            } catch (error) {
              if (!(error instanceof VersionConflictError)) throw error;
            }
          }
        }),
      );
      recorded += 32;
      const rows = await storedRows();
      expect(rows.map((r) => r.position)).toEqual(Array.from({ length: recorded }, (_, i) => i + 1));
      const versions = await query<{ stream: string; n: string; top: number }>(
        'SELECT stream, count(*) AS n, max(version) AS top FROM events GROUP BY stream ORDER BY stream',
      );
      for (const { n, top } of versions) expect(Number(n)).toBe(top);
      expect(verifyRows(rows)).toMatchObject({ ok: true, count: recorded });
      expect(await store.verifyChain()).toMatchObject({ ok: true, count: recorded });
    });
  });

  describe('the same rows as the SQLite store', () => {
    it('gives byte-identical rows and the same head hash for the same appends', async () => {
      const dir = mkdtempSync(join(tmpdir(), 'spades-pg-parity-'));
      const database = openDatabase({ path: join(dir, 'ledger.db') });
      try {
        const sqlite = createEventStore(database, { registry: ledgerTestRegistry, clock });
        // the same appends, through each store: plain, with meta, a command id, a batch over two
        // streams, text beyond ASCII, and an expected version
        type Step = (s: {
          append: (...a: Parameters<typeof sqlite.append>) => unknown;
          appendMany: (...a: Parameters<typeof sqlite.appendMany>) => unknown;
        }) => unknown;
        const steps: Step[] = [
          (s) => s.append('game-1', [counter('a', 1), counter('a', 2)]),
          (s) => s.append('game-1', [{ ...counter('Zoë ♠ 🂡', 3), meta: { seat: 'N' } }], { meta: { by: 'judge:ana' }, commandId: 'c-1' }),
          (s) =>
            s.appendMany(
              [
                {
                  stream: 'match-1',
                  events: [{ type: 'NoteTaken', payload: { text: 'quote " backslash \\ newline \n tab \t', author: 'dir' } }],
                  expectedVersion: 0,
                },
                { stream: 'game-1', events: [counter('b', 4)], expectedVersion: 3 },
              ],
              { commandId: 'batch-1', request: 'sha256:abc' },
            ),
          (s) => s.append('tournament-1', [{ type: 'NoteTaken', payload: { text: '', author: 'x' } }]),
        ];
        for (const step of steps) {
          step(sqlite);
          await step(store);
        }
        const sqliteRows = database.sqlite.prepare(`SELECT ${COLUMNS} FROM events ORDER BY position`).all();
        const pgRows = await storedRows();
        expect(pgRows).toHaveLength(6);
        expect(pgRows).toEqual(sqliteRows);
        expect(await store.head()).toEqual(sqlite.head());
        expect(await store.digest()).toBe(sqlite.digest());
      } finally {
        database.close();
        rmSync(dir, { recursive: true, force: true });
      }
    });
  });
});

/**
 * A TCP proxy to PostgreSQL that, once armed, forwards the next message that commits an append
 * (one ending in COMMIT, or the statement a process writing alone commits with) to the server, waits for
 * the server's answer, and then cuts the client off without passing the answer on: the commit
 * happened, and the client cannot know.
 */
async function commitCuttingProxy(serverPort: number): Promise<{ port: number; arm(): void; close(): Promise<void> }> {
  // The end of the simple-query message that commits an append (its text ends with COMMIT and a
  // zero byte), or the name of the statements a process writing alone commits with (their names
  // begin so, the number of rows or "arrays" after).
  const commitMessages = [Buffer.from('COMMIT\0'), Buffer.from('spades_ledger_one_trip_')];
  let armed = false;
  const sockets = new Set<Socket>();
  const server: Server = createServer((client) => {
    const upstream = connectTcp(serverPort, '127.0.0.1');
    sockets.add(client).add(upstream);
    let cutting = false;
    client.on('data', (chunk) => {
      if (armed && commitMessages.some((m) => chunk.includes(m))) {
        armed = false;
        cutting = true;
      }
      upstream.write(chunk);
    });
    upstream.on('data', (chunk) => {
      if (cutting) {
        client.destroy();
        upstream.destroy();
        return;
      }
      client.write(chunk);
    });
    const end = () => {
      client.destroy();
      upstream.destroy();
    };
    client.on('close', end).on('error', end);
    upstream.on('close', end).on('error', end);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  return {
    port: typeof address === 'object' && address ? address.port : 0,
    arm: () => {
      armed = true;
    },
    close: () => {
      for (const socket of sockets) socket.destroy();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

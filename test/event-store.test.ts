/**
 * The event store: appends, reads, optimistic concurrency, payload checks, upcasting, and when
 * listeners and in-transaction hooks hear of events.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type LedgerDatabase, defaultDatabasePath, executeSync, openDatabase } from '../events/store/sqlite/database.ts';
import {
  AppendRefusedError,
  type EventStore,
  VersionConflictError,
  checkDigest,
  createEventStore,
} from '../events/store/sqlite/event-store.ts';
import { InvalidPayloadError, UnknownEventTypeError, check, defineEvent, eventRegistry } from '../events/event-types.ts';
import { GENESIS_HASH, canonicalBytes, canonicalJson, chainHash, parseDigest } from '../events/hash-chain.ts';
import { type LedgerTestEvent, ledgerTestRegistry } from './fixtures/ledger-events.ts';

const clock = () => '2025-03-01T19:00:00.000Z';
const counter = (by: string, attempt: number) => ({ type: 'CounterIncremented' as const, payload: { by, attempt } });

let dir: string;
let database: LedgerDatabase;
let store: EventStore<LedgerTestEvent>;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'spades-store-'));
  database = openDatabase({ path: join(dir, 'ledger.db') });
  store = createEventStore(database, { registry: ledgerTestRegistry, clock });
});
afterEach(() => {
  database.close();
  rmSync(dir, { recursive: true, force: true });
});

const rowCount = () => (database.sqlite.prepare('SELECT count(*) AS n FROM events').get() as { n: number }).n;

describe('opening a ledger file', () => {
  it('sets WAL and synchronous=FULL, and creates the schema without a migration step', () => {
    expect(database.sqlite.pragma('journal_mode', { simple: true })).toBe('wal');
    // 2 is FULL
    expect(database.sqlite.pragma('synchronous', { simple: true })).toBe(2);
    expect(store.head()).toEqual({ position: 0, hash: GENESIS_HASH });
  });

  it('puts the file under DATA_DIR, or ./data when it is not set', () => {
    expect(defaultDatabasePath({ DATA_DIR: '/srv/spades' })).toBe(join('/srv/spades', 'spades.db'));
    expect(defaultDatabasePath({})).toBe(join('data', 'spades.db'));
  });

  it('refuses to change or delete a stored event', () => {
    store.append('game-1', [counter('a', 1)]);
    expect(() => database.sqlite.prepare("UPDATE events SET payload = '{}'").run()).toThrow(/append-only/);
    expect(() => database.sqlite.prepare('DELETE FROM events').run()).toThrow(/append-only/);
  });
});

describe('append', () => {
  it('gives gapless positions across streams and versions within each stream', () => {
    // given events on two streams
    store.append('game-1', [counter('a', 1), counter('a', 2)]);
    store.append('match-3', [counter('b', 1)]);
    // when a third append lands on the first stream
    const result = store.append('game-1', [counter('a', 3)]);
    // then positions run on and the stream's version follows its own count
    expect(result).toMatchObject({ stream: 'game-1', positions: [4], versions: [3], duplicate: false });
    expect(store.readAll().map((e) => [e.position, e.stream, e.version])).toEqual([
      [1, 'game-1', 1],
      [2, 'game-1', 2],
      [3, 'match-3', 1],
      [4, 'game-1', 3],
    ]);
  });

  it('records meta with the time from the store clock, the append meta and the event meta', () => {
    const [event] = store.append('game-1', [{ ...counter('a', 1), meta: { seat: 'N' } }], { meta: { by: 'director:ana' } }).events;
    expect(event!.meta).toEqual({ at: '2025-03-01T19:00:00.000Z', by: 'director:ana', seat: 'N' });
    expect(store.readStream('game-1')[0]!.meta).toEqual(event!.meta);
  });

  it('chains each event to the one before: the first links to 64 zeros', () => {
    const { events } = store.append('game-1', [counter('a', 1), counter('a', 2)]);
    expect(events[0]!.prevHash).toBe(GENESIS_HASH);
    expect(events[1]!.prevHash).toBe(events[0]!.hash);
    const row = database.sqlite.prepare('SELECT * FROM events WHERE position = 2').get() as Parameters<typeof chainHash>[1];
    expect(chainHash(events[0]!.hash, row)).toBe(events[1]!.hash);
    expect(store.head()).toEqual({ position: 2, hash: events[1]!.hash });
  });

  it('refuses an expected version the stream has moved past, naming both, and writes nothing', () => {
    // given game-1 at version 2
    store.append('game-1', [counter('a', 1), counter('a', 2)]);
    // when someone decided against version 1
    const attempt = () => store.append('game-1', [counter('b', 1)], { expectedVersion: 1 });
    // then a conflict the API can answer 409 with
    expect(attempt).toThrow(VersionConflictError);
    try {
      attempt();
    } catch (error) {
      expect(error).toMatchObject({ stream: 'game-1', expected: 1, actual: 2 });
      expect((error as Error).message).toMatch(/game-1 is at version 2, not 1/);
    }
    expect(rowCount()).toBe(2);
  });

  it('takes expected version 0 as "this stream has no events yet"', () => {
    expect(store.append('game-9', [counter('a', 1)], { expectedVersion: 0 }).versions).toEqual([1]);
    expect(() => store.append('game-9', [counter('a', 2)], { expectedVersion: 0 })).toThrow(VersionConflictError);
  });

  it('refuses a bad payload with an error naming the event type and the field, writing nothing of the batch', () => {
    const bad = { type: 'CounterIncremented' as const, payload: { by: 'a', attempt: -1 } };
    expect(() => store.append('game-1', [counter('a', 1), bad])).toThrow(InvalidPayloadError);
    try {
      store.append('game-1', [counter('a', 1), bad]);
    } catch (error) {
      expect(error).toMatchObject({ type: 'CounterIncremented', field: 'payload.attempt' });
      expect((error as Error).message).toBe('CounterIncremented (version 1): payload.attempt must be at least 0, not -1');
    }
    expect(rowCount()).toBe(0);
  });

  it('refuses a field the event type does not have', () => {
    const extra = { type: 'CounterIncremented', payload: { by: 'a', attempt: 1, score: 5 } } as unknown as LedgerTestEvent;
    expect(() => store.append('game-1', [extra as never])).toThrow(/payload\.score is not a field of this event/);
  });

  it('refuses an unregistered event type', () => {
    const unknown = { type: 'TrickStolen', payload: {} } as unknown as LedgerTestEvent;
    expect(() => store.append('game-1', [unknown as never])).toThrow(UnknownEventTypeError);
    expect(rowCount()).toBe(0);
  });

  it('refuses a stream id that is not a plain name', () => {
    expect(() => store.append('game 1', [counter('a', 1)])).toThrow(AppendRefusedError);
    expect(() => store.append('', [counter('a', 1)])).toThrow(/stream id/);
  });

  it('refuses meta that JSON cannot carry, naming where it is', () => {
    expect(() => store.append('game-1', [counter('a', 1)], { meta: { when: new Date(0) } })).toThrow(/meta\.when is a Date object/);
  });

  it('waits out a file that answers busy at once (as while another process recovers it), then appends', async () => {
    const { Worker } = await import('node:worker_threads');
    const { createRequire } = await import('node:module');
    // Another connection takes the write lock and keeps it for 300 ms.
    const held = new Int32Array(new SharedArrayBuffer(4));
    const holder = new Worker(
      `const { workerData: w } = require('node:worker_threads');
       const db = new (require(w.driver))(w.path);
       db.exec('BEGIN IMMEDIATE');
       Atomics.store(w.held, 0, 1);
       Atomics.notify(w.held, 0);
       Atomics.wait(w.held, 0, 1, 300);
       db.exec('COMMIT');
       db.close();`,
      { eval: true, workerData: { driver: createRequire(import.meta.url).resolve('better-sqlite3'), path: database.sqlite.name, held } },
    );
    const done = new Promise((resolve) => holder.once('exit', resolve));
    Atomics.wait(held, 0, 0, 5000);
    expect(Atomics.load(held, 0)).toBe(1);
    // SQLite itself now answers busy at once instead of waiting.
    database.sqlite.pragma('busy_timeout = 0');
    expect(store.append('game-1', [counter('a', 1)]).positions).toEqual([1]);
    await done;
    expect(store.verifyChain()).toMatchObject({ ok: true, count: 1 });
  });

  it('appends a large batch in one transaction, all or nothing', () => {
    const batch = Array.from({ length: 500 }, (_, i) => counter('a', i));
    expect(store.append('game-1', batch).positions).toEqual(batch.map((_, i) => i + 1));
    expect(store.streamVersion('game-1')).toBe(500);
    expect(store.verifyChain()).toMatchObject({ ok: true, count: 500 });
  });
});

describe('reading', () => {
  it('reads after a position with a limit, and a stream after a version', () => {
    for (let i = 1; i <= 6; i++) store.append(i % 2 ? 'game-1' : 'game-2', [counter('a', i)]);
    expect(store.readAll({ after: 2, limit: 3 }).map((e) => e.position)).toEqual([3, 4, 5]);
    expect(store.readStream('game-2').map((e) => e.version)).toEqual([1, 2, 3]);
    expect(store.readStream('game-2', { after: 1 }).map((e) => e.position)).toEqual([4, 6]);
    expect(store.readStream('game-404')).toEqual([]);
  });

  it('upcasts an old payload as it is read, leaving the stored row and its hash alone', () => {
    // given a NoteTaken written at version 1, before notes had an author
    const old = eventRegistry(
      defineEvent({ type: 'NoteTaken', version: 1, validate: check.object({ text: check.text() }) }),
    );
    const oldStore = createEventStore(database, { registry: old, clock });
    const [written] = oldStore.append('tournament-1', [{ type: 'NoteTaken', payload: { text: 'table 4 late' } }]).events;
    // when today's store reads it
    const [read] = store.readStream('tournament-1');
    // then it comes up to version 2, and the ledger still holds what was written
    expect(read).toMatchObject({ type: 'NoteTaken', schemaVersion: 2, payload: { text: 'table 4 late', author: 'director' } });
    const row = database.sqlite.prepare('SELECT schema_version, payload, hash FROM events').get();
    expect(row).toEqual({ schema_version: 1, payload: '{"text":"table 4 late"}', hash: written!.hash });
    expect(store.verifyChain().ok).toBe(true);
  });
});

describe('listeners and in-transaction hooks', () => {
  it('tells subscribers after the commit, when another connection can already read the events', () => {
    const other = openDatabase({ path: database.path });
    const seen: number[][] = [];
    store.subscribe((events) => {
      const visible = (other.sqlite.prepare('SELECT count(*) AS n FROM events').get() as { n: number }).n;
      seen.push([events.length, visible]);
    });
    store.append('game-1', [counter('a', 1), counter('a', 2)]);
    other.close();
    expect(seen).toEqual([[2, 2]]);
  });

  it('tells no subscriber of an append that failed or repeated a command', () => {
    const seen: number[] = [];
    store.subscribe((events) => seen.push(...events.map((e) => e.position)));
    store.append('game-1', [counter('a', 1)], { commandId: 'c-1' });
    expect(() => store.append('game-1', [counter('a', 2)], { expectedVersion: 0 })).toThrow(VersionConflictError);
    store.append('game-1', [counter('a', 1)], { commandId: 'c-1' });
    expect(seen).toEqual([1]);
  });

  it('keeps the append when a subscriber throws, and reports the error', () => {
    const errors: unknown[] = [];
    const quiet = createEventStore(database, { registry: ledgerTestRegistry, clock, onListenerError: (e) => errors.push(e) });
    quiet.subscribe(() => {
      throw new Error('view failed');
    });
    expect(quiet.append('game-1', [counter('a', 1)]).positions).toEqual([1]);
    expect(errors).toHaveLength(1);
    expect(rowCount()).toBe(1);
  });

  it('runs hooks inside the transaction, so a read model and its checkpoint commit with the events', () => {
    // given a projection writing a checkpoint table in the append's transaction
    database.sqlite.exec('CREATE TABLE checkpoint (position INTEGER NOT NULL)');
    database.sqlite.exec('INSERT INTO checkpoint VALUES (0)');
    const kysely = database.kysely.withTables<{ checkpoint: { position: number } }>();
    store.onAppendInTransaction((events, db) => {
      executeSync(db, kysely.updateTable('checkpoint').set({ position: events.at(-1)!.position }));
    });
    // when events are appended
    store.append('game-1', [counter('a', 1), counter('a', 2)]);
    // then the checkpoint moved with them
    expect(database.sqlite.prepare('SELECT position FROM checkpoint').get()).toEqual({ position: 2 });
  });

  it('rolls the append back when a hook throws', () => {
    const remove = store.onAppendInTransaction(() => {
      throw new Error('read model refused');
    });
    expect(() => store.append('game-1', [counter('a', 1)])).toThrow('read model refused');
    expect(rowCount()).toBe(0);
    remove();
    expect(store.append('game-1', [counter('a', 1)]).positions).toEqual([1]);
  });

  it('refuses an append started from inside a hook', () => {
    store.onAppendInTransaction(() => {
      store.append('game-2', [counter('b', 1)]);
    });
    expect(() => store.append('game-1', [counter('a', 1)])).toThrow(/inside another append's transaction/);
    expect(rowCount()).toBe(0);
  });
});

describe('digests', () => {
  it('says a noted head is still part of the chain as it grows, and not once its event changes', () => {
    store.append('game-1', [counter('a', 1), counter('a', 2)]);
    const noted = store.digest();
    expect(parseDigest(noted).position).toBe(2);
    store.append('game-1', [counter('a', 3)]);
    expect(checkDigest(database, noted)).toMatchObject({ ok: true });
    expect(checkDigest(database, `0:${GENESIS_HASH}`)).toMatchObject({ ok: true });
    expect(checkDigest(database, `2:${'a'.repeat(64)}`)).toMatchObject({ ok: false, reason: expect.stringMatching(/position 2 now has hash/) });
    expect(checkDigest(database, `9:${'a'.repeat(64)}`)).toMatchObject({ ok: false, reason: expect.stringMatching(/no position 9/) });
    expect(() => checkDigest(database, 'yesterday')).toThrow(/POSITION:HASH/);
  });
});

describe('canonical bytes', () => {
  const json = fc.jsonValue({ maxDepth: 3 });
  it('are the canonical JSON of the hashed columns, keys sorted, payload and meta as their text', () => {
    fc.assert(
      fc.property(fc.record({
        position: fc.nat(), stream: fc.string(), version: fc.nat(), type: fc.string(), schema_version: fc.nat(),
        payload: json.map((v) => canonicalJson(v)), meta: json.map((v) => canonicalJson(v)), command_id: fc.option(fc.string()),
      }), (row) => {
        expect(canonicalBytes(row).toString('utf8')).toBe(canonicalJson({ ...row }));
      }),
    );
  });

  it('sort keys at every depth, so the same value always gives the same text', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const reordered = JSON.parse(JSON.stringify(value, (_k, v) => (v && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).reverse()) : v)));
        expect(canonicalJson(reordered)).toBe(canonicalJson(value));
        expect(canonicalJson(JSON.parse(canonicalJson(value)))).toBe(canonicalJson(value));
      }),
    );
  });
});

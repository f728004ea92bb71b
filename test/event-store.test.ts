/**
 * The event store on a SQLite file, in what only it does: opening the file, waiting out a busy
 * one, a large batch in one transaction, when listeners and in-transaction hooks hear of events,
 * digests and canonical bytes. The rules both stores keep (gapless positions, the chain, version
 * conflicts, payload checks, reads, upcasting, command ids) are held on both in
 * ledger-backends.test.ts.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type LedgerDatabase, defaultDatabasePath, executeSync, openDatabase } from '../events/store/sqlite/database.ts';
import { type EventStore, createEventStore } from '../events/store/sqlite/event-store.ts';
import { VersionConflictError } from '../events/store/append.ts';
import { checkDigest } from '../events/store/sqlite/ledger-tools.ts';
import { GENESIS_HASH, canonicalBytes, canonicalJson, parseDigest } from '../events/hash-chain.ts';
import { type LedgerTestEvent, counter, ledgerTestRegistry } from './fixtures/ledger-events.ts';

const clock = () => '2025-03-01T19:00:00.000Z';

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
      fc.property(
        fc.record({
          position: fc.nat(),
          stream: fc.string(),
          version: fc.nat(),
          type: fc.string(),
          schema_version: fc.nat(),
          payload: json.map((v) => canonicalJson(v)),
          meta: json.map((v) => canonicalJson(v)),
          command_id: fc.option(fc.string()),
        }),
        (row) => {
          expect(canonicalBytes(row).toString('utf8')).toBe(canonicalJson({ ...row }));
        },
      ),
    );
  });

  it('sort keys at every depth, so the same value always gives the same text', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const reordered = JSON.parse(
          JSON.stringify(value, (_k, v) => (v && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).reverse()) : v)),
        );
        expect(canonicalJson(reordered)).toBe(canonicalJson(value));
        expect(canonicalJson(JSON.parse(canonicalJson(value)))).toBe(canonicalJson(value));
      }),
    );
  });
});

/**
 * Idempotent appends: a command retried (a double-tapped button, a request resent after a lost
 * response) is recorded once, and every retry gets the first append's answer.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type LedgerDatabase, openDatabase } from '../events/store/sqlite/database.ts';
import { CommandIdReusedError } from '../events/store/append.ts';
import { type EventStore, createEventStore } from '../events/store/sqlite/event-store.ts';
import { type LedgerTestEvent, counter, ledgerTestRegistry } from './fixtures/ledger-events.ts';

let dir: string;
let database: LedgerDatabase;
let store: EventStore<LedgerTestEvent>;
const open = () => createEventStore(database, { registry: ledgerTestRegistry, clock: () => '2025-03-01T19:00:00.000Z' });
const rows = () => database.sqlite.prepare('SELECT position, stream, version, command_id FROM events ORDER BY position').all();

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'spades-idem-'));
  database = openDatabase({ path: join(dir, 'ledger.db') });
  store = open();
});
afterEach(() => {
  database.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('a command id', () => {
  it('appended three times gives one event, and the same answer each time', () => {
    // given a bid recorded with command id bid-17
    const first = store.append('game-1', [counter('N', 1)], { commandId: 'bid-17', expectedVersion: 0 });
    // when the same command arrives twice more
    const second = store.append('game-1', [counter('N', 1)], { commandId: 'bid-17', expectedVersion: 0 });
    const third = store.append('game-1', [counter('N', 1)], { commandId: 'bid-17', expectedVersion: 0 });
    // then one event, and the retries answer with its position and version
    expect(rows()).toEqual([{ position: 1, stream: 'game-1', version: 1, command_id: 'bid-17' }]);
    expect(first.duplicate).toBe(false);
    for (const retry of [second, third]) {
      expect(retry.duplicate).toBe(true);
      expect({ ...retry, duplicate: false }).toEqual(first);
    }
  });

  it('is remembered after other appends, and by a store opened on the file later', () => {
    store.append('game-1', [counter('N', 1)], { commandId: 'bid-17' });
    store.append('game-1', [counter('E', 2)], { commandId: 'bid-18' });
    database.close();
    database = openDatabase({ path: join(dir, 'ledger.db') });
    const reopened = open();
    // the stream is at version 2 now, yet the retry is no conflict: it was already done
    const retry = reopened.append('game-1', [counter('N', 1)], { commandId: 'bid-17', expectedVersion: 0 });
    expect(retry).toMatchObject({ duplicate: true, positions: [1], versions: [1] });
    expect(rows()).toHaveLength(2);
  });

  it('for a command that recorded several events answers with all of them', () => {
    store.append('game-2', [counter('x', 0)]);
    const first = store.append('game-1', [counter('N', 1), counter('N', 2), counter('N', 3)], { commandId: 'hand-3-close' });
    store.append('game-1', [counter('S', 4)]);
    const retry = store.append('game-1', [counter('N', 1), counter('N', 2), counter('N', 3)], { commandId: 'hand-3-close' });
    expect(retry).toMatchObject({ duplicate: true, positions: [2, 3, 4], versions: [1, 2, 3] });
    expect(retry.events.map((e) => e.hash)).toEqual(first.events.map((e) => e.hash));
    expect(rows()).toHaveLength(5);
  });

  it('used again for a different stream is refused, since that can only be a mistake', () => {
    store.append('game-1', [counter('N', 1)], { commandId: 'bid-17' });
    expect(() => store.append('game-2', [counter('N', 1)], { commandId: 'bid-17' })).toThrow(CommandIdReusedError);
    expect(rows()).toHaveLength(1);
  });

  it('retried from a second connection to the same file is still recorded once', () => {
    const other = openDatabase({ path: join(dir, 'ledger.db') });
    const otherStore = createEventStore(other, { registry: ledgerTestRegistry });
    store.append('game-1', [counter('N', 1)], { commandId: 'bid-17' });
    expect(otherStore.append('game-1', [counter('N', 1)], { commandId: 'bid-17' })).toMatchObject({ duplicate: true, positions: [1] });
    other.close();
    expect(rows()).toHaveLength(1);
  });
});

/**
 * Tampering: whatever is changed in the file (a byte of any hashed column of any row, a row
 * deleted, two rows' contents swapped), verification fails and names the first position that
 * no longer holds, both through `verifyChain` and through the real `spades verify` process.
 */
import { execFile } from 'node:child_process';
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import BetterSqlite3 from 'better-sqlite3';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../events/store/sqlite/database.ts';
import { checkDigest, createEventStore, verifyChain } from '../events/store/sqlite/event-store.ts';
import { ledgerTestRegistry } from './fixtures/ledger-events.ts';

const run = promisify(execFile);
const SPADES = resolve(import.meta.dirname, '../bin/spades.js');
const COLUMNS = ['position', 'stream', 'version', 'type', 'schema_version', 'payload', 'meta', 'command_id', 'prev_hash', 'hash'] as const;
type Column = (typeof COLUMNS)[number];
const INTEGER_COLUMNS: readonly Column[] = ['position', 'version', 'schema_version'];

type Mutation =
  | { kind: 'change'; row: number; column: Column; at: number; replacement: number; delta: number }
  | { kind: 'delete'; row: number }
  | { kind: 'swap'; row: number; other: number };

let dir: string;
let template: string;
let size: number;
let copies = 0;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'spades-tamper-'));
  template = join(dir, 'template.db');
  const database = openDatabase({ path: template });
  const store = createEventStore(database, { registry: ledgerTestRegistry, clock: () => '2025-03-01T19:00:00.000Z' });
  for (let i = 0; i < 12; i++) {
    const stream = ['game-1', 'game-2', 'match-1'][i % 3]!;
    if (i % 4 === 3) {
      store.append(stream, [{ type: 'NoteTaken', payload: { text: `Zoë's table, note ${i}`, author: 'judge' } }], { meta: { by: 'judge:zoë' } });
    } else {
      store.append(stream, [{ type: 'CounterIncremented', payload: { by: 'N', attempt: i } }, { type: 'CounterIncremented', payload: { by: 'S', attempt: i } }], { commandId: `cmd-${i}` });
    }
  }
  size = store.head().position;
  database.close();
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A copy of the intact ledger with the append-only triggers dropped, as someone editing the file would. */
function tamperableCopy(): { file: string; sqlite: BetterSqlite3.Database } {
  const file = join(dir, `copy-${++copies}.db`);
  copyFileSync(template, file);
  const sqlite = new BetterSqlite3(file);
  sqlite.exec('DROP TRIGGER events_no_update; DROP TRIGGER events_no_delete;');
  return { file, sqlite };
}

type Row = Record<Column, string | number | null>;

/** Applies a mutation; returns the position verification must name. */
function tamper(sqlite: BetterSqlite3.Database, mutation: Mutation): number {
  const get = (position: number) => sqlite.prepare('SELECT * FROM events WHERE position = ?').get(position) as Row;
  switch (mutation.kind) {
    case 'delete':
      sqlite.prepare('DELETE FROM events WHERE position = ?').run(mutation.row);
      return mutation.row;
    case 'swap': {
      const [low, high] = [Math.min(mutation.row, mutation.other), Math.max(mutation.row, mutation.other)];
      const a = get(low);
      const b = get(high);
      const set = sqlite.prepare(`UPDATE events SET ${COLUMNS.slice(1).map((c) => `${c} = @${c}`).join(', ')} WHERE position = @position`);
      // Park one row first so the unique stream/version and command id never clash midway.
      sqlite.prepare("UPDATE events SET stream = 'parked', command_id = NULL WHERE position = ?").run(low);
      set.run({ ...a, position: high });
      set.run({ ...b, position: low });
      return low;
    }
    case 'change': {
      const { row, column } = mutation;
      const original = get(row)[column];
      const update = sqlite.prepare(`UPDATE events SET ${column} = ? WHERE position = ?`);
      // Some changes would clash with a unique column (another stream's name, another command
      // id, a taken position); the next candidate is just as much a change.
      for (let attempt = 0; attempt < 200; attempt++) {
        let value: string | number;
        if (INTEGER_COLUMNS.includes(column)) {
          value = (original as number) + (column === 'position' ? size : 0) + mutation.delta + attempt;
        } else if (original === null) {
          value = String.fromCharCode(0x21 + ((mutation.replacement + attempt) % 94));
        } else {
          const text = original as string;
          const at = mutation.at % text.length;
          let code = 0x20 + ((mutation.replacement + attempt) % 95);
          if (code === text.charCodeAt(at)) code = code === 0x7e ? 0x20 : code + 1;
          value = text.slice(0, at) + String.fromCharCode(code) + text.slice(at + 1);
        }
        if (value === original) continue;
        try {
          update.run(value, row);
          return row;
        } catch (error) {
          if (!/UNIQUE/.test(String(error))) throw error;
        }
      }
      throw new Error(`no change of ${column} at ${row} could be stored`);
    }
  }
}

const mutations = (): fc.Arbitrary<Mutation> =>
  fc.oneof(
    fc.record({
      kind: fc.constant('change' as const),
      row: fc.integer({ min: 1, max: size }),
      column: fc.constantFrom(...COLUMNS),
      at: fc.nat(),
      replacement: fc.nat(),
      delta: fc.oneof(fc.integer({ min: -3, max: -1 }), fc.integer({ min: 1, max: 3 })),
    }),
    // The head itself can be cut off without breaking any link; a noted digest catches that (below).
    fc.record({ kind: fc.constant('delete' as const), row: fc.integer({ min: 1, max: size - 1 }) }),
    fc
      .record({ row: fc.integer({ min: 1, max: size }), other: fc.integer({ min: 1, max: size }) })
      .filter(({ row, other }) => row !== other)
      .map(({ row, other }) => ({ kind: 'swap' as const, row, other })),
  );

describe('a tampered ledger', () => {
  it('is intact before anyone touches it', () => {
    const { file, sqlite } = tamperableCopy();
    sqlite.close();
    const database = openDatabase({ path: file, readonly: true });
    expect(verifyChain(database)).toMatchObject({ ok: true, count: size });
    database.close();
  });

  it('fails verification at the position that was changed, deleted or swapped', () => {
    fc.assert(
      fc.property(mutations(), (mutation) => {
        // given an intact ledger, when one mutation is made to its file
        const { file, sqlite } = tamperableCopy();
        const expected = tamper(sqlite, mutation);
        sqlite.close();
        // then verification fails and names that position
        const database = openDatabase({ path: file, readonly: true });
        const report = verifyChain(database);
        database.close();
        rmSync(file);
        expect(report.ok).toBe(false);
        expect(report.firstBad?.position).toBe(expected);
        expect(report.count).toBe(expected - 1);
      }),
      { numRuns: 300 },
    );
  });

  it('fails `spades verify` with exit status 1, naming the position', async () => {
    await fc.assert(
      fc.asyncProperty(mutations(), async (mutation) => {
        const { file, sqlite } = tamperableCopy();
        const expected = tamper(sqlite, mutation);
        sqlite.close();
        const outcome = await run(process.execPath, [SPADES, 'verify', '--db', file]).then(
          (ok) => ({ code: 0, stdout: ok.stdout }),
          (error: { code: number; stdout: string }) => ({ code: error.code, stdout: error.stdout }),
        );
        expect(outcome.code).toBe(1);
        expect(outcome.stdout).toContain(`position ${expected} does not verify`);
      }),
      { numRuns: 3 },
    );
  }, 60_000);

  it('cut off at the head still verifies on its own, but no longer holds a digest noted before', async () => {
    // given a digest an auditor noted of the intact ledger
    const intact = openDatabase({ path: template, readonly: true });
    const noted = `${size}:${verifyChain(intact).head.hash}`;
    intact.close();
    // when the newest event is deleted
    const { file, sqlite } = tamperableCopy();
    sqlite.prepare('DELETE FROM events WHERE position = ?').run(size);
    sqlite.close();
    // then the shorter chain is self-consistent, and the digest shows what is missing
    const database = openDatabase({ path: file, readonly: true });
    expect(verifyChain(database)).toMatchObject({ ok: true, count: size - 1 });
    expect(checkDigest(database, noted)).toMatchObject({ ok: false, reason: expect.stringContaining(`no position ${size}`) });
    database.close();
    const outcome = await run(process.execPath, [SPADES, 'verify', '--db', file, '--digest', noted]).catch((e: { code: number; stdout: string }) => e);
    expect(outcome).toMatchObject({ code: 1, stdout: expect.stringContaining(`digest ${noted} is not part of this chain`) });
  }, 30_000);
});

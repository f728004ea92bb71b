/**
 * A long fold reads its pages on a second thread while this one folds (events/store/sqlite/
 * pages-ahead.ts). What it folds must be exactly what a fold reading on one thread gives, and a
 * row that cannot be read must stop it with the same sentence naming that row. Small pages and a
 * short head start make a few hundred events take the path a 200,000-event rebuild takes.
 */
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { type FoldReading, LedgerReadError, catchUp, openLedger } from '../events/store/sqlite/ledger.ts';
import { readPagesAhead } from '../events/store/sqlite/pages-ahead.ts';
import { emptyModels } from '../events/projections.ts';
import { type AuditLedger, playTournament, tempLedger } from './fixtures/audit-ledger.ts';

const AHEAD: FoldReading = { page: 40, readAheadFrom: 100, headStart: 60 };
const ONE_THREAD: FoldReading = { page: 40, readAheadFrom: Number.POSITIVE_INFINITY, headStart: 0 };
const PAGE_SQL = `SELECT json_group_array(json_array(position, type)), max(position) FROM (SELECT position, type FROM events WHERE position > ? AND position <= ? ORDER BY position LIMIT ?)`;

let fixture: AuditLedger;
let head: number;

beforeAll(() => {
  fixture = tempLedger();
  playTournament(fixture.ledger, { teams: 4, seed: 'read-ahead', renegeChance: 0.05 });
  head = fixture.ledger.store.head().position;
  fixture.ledger.close();
}, 60_000);

afterAll(() => fixture.remove());

function foldWith(path: string, reading: FoldReading, onProgress?: (done: number) => void) {
  const ledger = openLedger({ path, readonly: true, snapshotEvery: Number.MAX_SAFE_INTEGER, onNotice: () => {} });
  try {
    const models = emptyModels();
    catchUp(ledger.store, models, onProgress, reading);
    return models;
  } finally {
    ledger.close();
  }
}

describe('a fold that reads ahead on a second thread', () => {
  it('folds the same models as a fold on one thread, up to the head, telling its progress page by page', () => {
    expect(head).toBeGreaterThan(AHEAD.readAheadFrom * 3);
    const progress: number[] = [];
    const ahead = foldWith(fixture.path, AHEAD, (done) => progress.push(done));
    const alone = foldWith(fixture.path, ONE_THREAD);
    expect(ahead.position).toBe(head);
    expect(JSON.stringify(ahead)).toBe(JSON.stringify(alone));
    expect(ahead).toEqual(alone);
    // Every page lands in order, none larger than a page, and the last is the head.
    expect(progress.at(-1)).toBe(head);
    progress.forEach((done, i) => expect(done - (progress[i - 1] ?? 0)).toBeGreaterThan(0));
    progress.forEach((done, i) => expect(done - (progress[i - 1] ?? 0)).toBeLessThanOrEqual(AHEAD.page));
  });

  it('reads every page after the start once, in order, and ends with an empty one', () => {
    const reader = readPagesAhead(fixture.path, PAGE_SQL, 25, head, 30);
    expect(reader).not.toBeNull();
    const positions: number[] = [];
    let page = reader!.next();
    while (page !== null && page.last !== null) {
      const rows = JSON.parse(page.text) as [number, string][];
      positions.push(...rows.map(([position]) => position));
      expect(page.last).toBe(rows.at(-1)![0]);
      page = reader!.next();
    }
    expect(page).toEqual({ text: '[]', last: null });
    expect(positions).toEqual(Array.from({ length: head - 25 }, (_, i) => 26 + i));
    // Once it has stopped it says so, however often it is asked.
    expect(reader!.next()).toBeNull();
    reader!.close();
  });

  it('sends a page too large for its slot as a message, in its place among the others', () => {
    // Slots of 575 bytes: pages of 30 rows are some 540 to 610 bytes, so some fit and some do not.
    const read = (slotBytes?: number) => {
      const reader = readPagesAhead(fixture.path, PAGE_SQL, 0, head, 30, slotBytes)!;
      const texts: string[] = [];
      for (let page = reader.next(); page !== null; page = reader.next()) texts.push(page.text);
      reader.close();
      return texts;
    };
    const small = read(575);
    expect(small.some((text) => Buffer.byteLength(text) > 575)).toBe(true);
    expect(small.some((text) => text !== '[]' && Buffer.byteLength(text) <= 575)).toBe(true);
    expect(small).toEqual(read());
    const positions = small.flatMap((text) => (JSON.parse(text) as [number, string][]).map(([position]) => position));
    expect(positions).toEqual(Array.from({ length: head }, (_, i) => i + 1));
  });

  it('stops when told, before the end, and gives nothing more', () => {
    const reader = readPagesAhead(fixture.path, PAGE_SQL, 0, head, 10)!;
    expect(reader.next()?.last).toBe(10);
    reader.close();
    expect(reader.next()).toBeNull();
  });

  it('gives nothing, rather than a wrong page, for a file it cannot read', () => {
    const reader = readPagesAhead(join(fixture.dir, 'no-such-ledger.db'), PAGE_SQL, 0, 100, 10);
    expect(reader?.next() ?? null).toBeNull();
    reader?.close();
  });

  it('stops at a row that cannot be read with the sentence a fold on one thread gives, naming the row', () => {
    const broken = join(fixture.dir, 'broken.db');
    copyFileSync(fixture.path, broken);
    // Past the head start, in a page the second thread reads.
    const position = head - 50;
    const sqlite = new Database(broken);
    sqlite.exec('DROP TRIGGER events_no_update');
    sqlite.prepare("UPDATE events SET payload = '{\"gameId\": ' WHERE position = ?").run(position);
    sqlite.close();
    const failure = (reading: FoldReading) => {
      try {
        foldWith(broken, reading);
      } catch (error) {
        return error;
      }
      return null;
    };
    const ahead = failure(AHEAD);
    const alone = failure(ONE_THREAD);
    expect(ahead).toBeInstanceOf(LedgerReadError);
    expect((ahead as Error).message).toBe((alone as Error).message);
    expect((ahead as Error).message).toContain(`event ${position}: its payload is not JSON`);
  });
});

/**
 * A long fold shares its pages with a second thread that reads ahead while this one folds
 * (events/store/sqlite/pages-ahead.ts). What it folds must be exactly what a fold reading on one
 * thread gives, and a row that cannot be read must stop it with the same sentence naming that
 * row. Small pages make a few hundred events take the path a 200,000-event rebuild takes.
 */
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { type FoldReading, catchUp } from '../events/store/sqlite/page-fold.ts';
import { LedgerReadError } from '../events/store/served-ledger.ts';
import { openLedger } from '../events/store/sqlite/ledger.ts';
import { type PagesAhead, readPagesAhead } from '../events/store/sqlite/pages-ahead.ts';
import { emptyModels } from '../events/projections.ts';
import { type AuditLedger, playTournament, tempLedger } from './fixtures/audit-ledger.ts';

const AHEAD: FoldReading = { page: 40, readAheadFrom: 100 };
const ONE_THREAD: FoldReading = { page: 40, readAheadFrom: Number.POSITIVE_INFINITY };
const PAGE_SQL = `SELECT json_group_array(json_array(position, type)), max(position) FROM (SELECT position, type FROM events WHERE position > ? AND position <= ? ORDER BY position LIMIT ?)`;

let fixture: AuditLedger;
let head: number;

beforeAll(async () => {
  fixture = tempLedger();
  await playTournament(fixture.ledger, { teams: 4, seed: 'read-ahead', renegeChance: 0.05 });
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

/** Blocks this thread for `ms`, as a long fold does, while the reader runs. */
function pause(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/** Every page a reader gives: the positions they hold in order (a page left to this thread read here), and the reader's texts. */
function readAll(reader: PagesAhead): { positions: number[]; texts: string[]; fromReader: number } {
  const sqlite = new Database(fixture.path, { readonly: true });
  const between = sqlite.prepare('SELECT position FROM events WHERE position > ? AND position <= ? ORDER BY position').pluck();
  const positions: number[] = [];
  const texts: string[] = [];
  try {
    for (let page = reader.next(); page !== null; page = reader.next()) {
      if ('text' in page) {
        texts.push(page.text);
        positions.push(...(JSON.parse(page.text) as [number, string][]).map(([position]) => position));
      } else positions.push(...(between.all(page.own.after, page.own.upTo) as number[]));
    }
  } finally {
    sqlite.close();
    reader.close();
  }
  return { positions, texts, fromReader: texts.length };
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

  it('gives every page after the start once, in order, from the reader or for this thread to read', () => {
    const reader = readPagesAhead(fixture.path, PAGE_SQL, 25, head, 30);
    // A moment for the reader to start and read ahead.
    pause(300);
    const { positions, fromReader } = readAll(reader);
    expect(fromReader).toBeGreaterThan(0);
    expect(positions).toEqual(Array.from({ length: head - 25 }, (_, i) => 26 + i));
    // Once every page is given it says so, however often it is asked.
    expect(reader.next()).toBeNull();
    reader.close();
  });

  it('stops when told, before the end, and gives nothing more', () => {
    const reader = readPagesAhead(fixture.path, PAGE_SQL, 0, head, 10);
    expect(reader.next()).not.toBeNull();
    reader.close();
    expect(reader.next()).toBeNull();
  });

  it('leaves every page to this thread, rather than give a wrong one, when the reader cannot read the file', () => {
    const reader = readPagesAhead(join(fixture.dir, 'no-such-ledger.db'), PAGE_SQL, 0, 100, 10);
    pause(300);
    const pages: unknown[] = [];
    for (let page = reader.next(); page !== null; page = reader.next()) pages.push(page);
    expect(pages).toEqual(Array.from({ length: 10 }, (_, i) => ({ own: { after: 10 * i, upTo: 10 * i + 10 } })));
  });

  it('sends a page too large for its slot as a message, in its place among the others', () => {
    // Slots of 575 bytes: pages of 30 rows are some 540 to 610 bytes, so some fit and some do not.
    const reader = readPagesAhead(fixture.path, PAGE_SQL, 0, head, 30, 575);
    pause(300);
    const { positions, texts } = readAll(reader);
    expect(texts.some((text) => Buffer.byteLength(text) > 575)).toBe(true);
    expect(texts.some((text) => Buffer.byteLength(text) <= 575)).toBe(true);
    expect(positions).toEqual(Array.from({ length: head }, (_, i) => i + 1));
  });

  it('stops at a row that cannot be read with the sentence a fold on one thread gives, naming the row', () => {
    const broken = join(fixture.dir, 'broken.db');
    copyFileSync(fixture.path, broken);
    // Past the head start, in a page the second thread reads.
    const position = head - 50;
    const sqlite = new Database(broken);
    sqlite.exec('DROP TRIGGER events_no_update');
    sqlite.prepare('UPDATE events SET payload = \'{"gameId": \' WHERE position = ?').run(position);
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

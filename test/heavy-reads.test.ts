/**
 * The ledger-wide public reads work a page at a time: the export streams the very lines of
 * `spades export`, the chain walk carries on as the ledger grows and walks again from position 1
 * to catch a row edited in place, and one address runs one such read at a time.
 */
import BetterSqlite3 from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exportLines } from '../events/ledger-file.ts';
import { BusyError, createHeavyReadGate, createHeavyReads } from '../server/heavy-reads.ts';
import { createLedgerReader } from '../server/ledger-reader.ts';
import { createApp } from '../server/app.ts';
import { type AuditLedger, keepPlaying, playTournament, tempLedger } from './fixtures/audit-ledger.ts';

let temp: AuditLedger;
beforeAll(() => {
  temp = tempLedger();
  playTournament(temp.ledger, { stopAt: 3000 });
});
afterAll(() => temp.remove());

describe('ledger-wide reads', () => {
  it('stream the export in pages from the reader thread, byte for byte what spades export writes', async () => {
    const streamed = await new Response(createHeavyReads(temp.ledger).exportStream(temp.ledger.store.head().position)).text();
    expect(streamed).toBe([...exportLines(temp.ledger.database)].join(''));
    const { app } = createApp({ ledger: temp.ledger });
    const res = await app.request('/api/ledger.ndjson');
    expect(res.headers.get('x-ledger-digest')).toBe(temp.ledger.store.digest());
    expect(await res.text()).toBe(streamed);
  });

  it('carry the chain walk on as events are appended, and walk again from position 1 to find a row edited in place', async () => {
    let now = 0;
    const watch = createLedgerReader(temp.ledger.database, { fullEveryMs: 1000, clock: () => now });
    const first = watch.check();
    expect(first.report).toMatchObject({ ok: true, count: temp.ledger.store.head().position });
    keepPlaying(temp.ledger, { tournamentId: 't1', seed: 'audit', stopAt: 3200 });
    expect(watch.check().report).toMatchObject({ ok: true, count: temp.ledger.store.head().position });

    const db = new BetterSqlite3(temp.path);
    db.exec('DROP TRIGGER events_no_update');
    db.prepare('UPDATE events SET payload = ? WHERE position = 10').run('{"edited":true}');
    db.close();
    // Within the interval the walk only carries on from its head; after it, the whole chain is walked again.
    expect(watch.check().report.ok).toBe(true);
    now = 1000;
    expect(watch.check().report).toMatchObject({ ok: false, firstBad: { position: 10, reason: 'its hash does not match its contents' } });
  });

  it('run one at a time per address, and turn a second from the same address away', async () => {
    const gate = createHeavyReadGate({ concurrent: 2 });
    let release!: () => void;
    const held = gate('10.0.0.1', () => new Promise<void>((resolve) => (release = resolve)));
    await expect(gate('10.0.0.1', async () => 'second')).rejects.toBeInstanceOf(BusyError);
    expect(await gate('10.0.0.2', async () => 'other address')).toBe('other address');
    release();
    await held;
    expect(await gate('10.0.0.1', async () => 'after')).toBe('after');
  });

  it('answer 404, not 500, for a tournament id that names a property every object has', async () => {
    const { app } = createApp({ ledger: temp.ledger });
    for (const id of ['constructor', '__proto__', 'toString']) {
      expect((await app.request(`/tournaments/${id}/as-of?position=1`)).status).toBe(404);
      expect((await app.request(`/tournaments/${id}/standings.csv`)).status).toBe(404);
    }
  });
});

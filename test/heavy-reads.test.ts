/**
 * The ledger-wide public reads work a page at a time: the export streams the very lines of
 * `spades export`, the chain walk carries on as the ledger grows and walks again from position 1
 * to catch a row edited in place, and one address runs one such read at a time. Under the real
 * server the export's pages go from memory shared with the reader straight into the response,
 * and the as-of page and past standings are made on the reader's thread.
 */
import { EventEmitter } from 'node:events';
import BetterSqlite3 from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serve } from '@hono/node-server';
import type { AddressInfo } from 'node:net';
import { exportLedger, exportLines } from '../events/store/sqlite/ledger-tools.ts';
import { BusyError, type ExportTarget, createHeavyReadGate, createHeavyReads } from '../server/audit/heavy-reads.ts';
import { exportPageOf } from '../server/audit/export-pages.ts';
import { renderPast } from '../server/audit/past-views.tsx';
import { createLedgerReader } from '../server/audit/storage/sqlite.ts';
import { createApp } from '../server/app/app.ts';
import { createTournament } from '../server/commands/tournament-commands.ts';
import { type AuditLedger, keepPlaying, playTournament, tempLedger } from './fixtures/audit-ledger.ts';

let temp: AuditLedger;
beforeAll(async () => {
  temp = tempLedger();
  await playTournament(temp.ledger, { stopAt: 3000 });
});
afterAll(() => temp.remove());

describe('ledger-wide reads', () => {
  it('stream the export in pages from the reader thread, byte for byte what spades export writes', async () => {
    const streamed = await new Response(createHeavyReads(temp.ledger).exportStream(temp.ledger.store.head().position)).text();
    expect(streamed).toBe([...exportLines(temp.ledger.database)].join(''));
    const { app } = createApp({ ledger: temp.ledger });
    const res = await app.request('/api/ledger.ndjson');
    expect(res.headers.get('x-ledger-digest')).toBe(temp.ledger.store.digest());
    // The response frames the pages with the export's header and trailer lines.
    expect(await res.text()).toBe([...exportLedger(temp.ledger.database)].join(''));
  });

  it('write the export into the response from two shared slots, filling a slot again only once the socket has taken it', async () => {
    const expected = [...exportLines(temp.ledger.database)].join('');
    const written: Buffer[] = [];
    let overwritten = 0;
    const target = Object.assign(new EventEmitter(), {
      headersSent: true,
      destroyed: false,
      write(chunk: Uint8Array, callback: (error?: Error | null) => void) {
        // Straight from memory the reader shares: no buffer of its own per page.
        expect(chunk.buffer).toBeInstanceOf(SharedArrayBuffer);
        const copy = Buffer.from(chunk);
        written.push(copy);
        // A slow socket: the chunk must be left as it was until the socket has taken it.
        setTimeout(() => {
          if (Buffer.compare(Buffer.from(chunk), copy) !== 0) overwritten++;
          callback();
        }, 30);
        return false;
      },
    }) as EventEmitter & ExportTarget;
    // Slots of 16 KB: the page is cut at the last whole line that fits, and each slot is used many times.
    const stream = createHeavyReads(temp.ledger, { exportSlotBytes: 16 * 1024 }).exportStream(temp.ledger.store.head().position, target);
    // The stream carries no bytes of its own: it ends once the last page is written.
    expect(await stream.getReader().read()).toEqual({ done: true, value: undefined });
    expect(written.length).toBeGreaterThan(10);
    expect(overwritten).toBe(0);
    expect(Buffer.concat(written).toString()).toBe(expected);
  });

  it('put whole lines in a slot, and send a line longer than the whole slot on its own', () => {
    const rows = [1, 2, 3].map((position) => ({ position, text: `${'x'.repeat(position === 2 ? 40 : 5)}\n` }));
    const slot = new Uint8Array(new SharedArrayBuffer(16));
    expect(exportPageOf(rows, (r) => r.text, 0, slot)).toEqual({ written: 6, last: 1 });
    const long = exportPageOf(rows.slice(1), (r) => r.text, 1, slot);
    expect(long.last).toBe(2);
    expect(new TextDecoder().decode(long.bytes)).toBe(rows[1]!.text);
    expect(exportPageOf([], (r: (typeof rows)[number]) => r.text, 3, slot)).toEqual({ written: 0, last: 3 });
  });

  it('answer the export over HTTP with the headers every page gets and the very lines of spades export', async () => {
    const { app } = createApp({ ledger: temp.ledger });
    const server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' });
    if (!server.listening) await new Promise((resolve) => server.once('listening', resolve));
    try {
      const res = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/api/ledger.ndjson`);
      expect(res.headers.get('x-ledger-digest')).toBe(temp.ledger.store.digest());
      expect(res.headers.get('content-security-policy')).toContain("default-src 'self'");
      expect(res.headers.get('content-type')).toBe('application/x-ndjson; charset=utf-8');
      expect(await res.text()).toBe([...exportLedger(temp.ledger.database)].join(''));
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('make the as-of page and the past standings on the reader thread, as the routes answer them', async () => {
    const reads = createHeavyReads(temp.ledger);
    const reader = createLedgerReader(temp.ledger.database);
    const { app } = createApp({ ledger: temp.ledger });
    const head = temp.ledger.store.head().position;
    const tournamentId = Object.keys(temp.ledger.models.tournaments)[0]!;
    const gamesToWin = temp.ledger.models.tournaments[tournamentId]!.format.gamesToWin;
    for (const position of [0, Math.floor(head / 2), head]) {
      const page = await reads.pastView(tournamentId, position, { kind: 'as-of', head, gamesToWin });
      expect(page).toEqual(renderPast(tournamentId, reader.tournamentAt(tournamentId, position), { kind: 'as-of', head, gamesToWin }));
      expect(await (await app.request(`/tournaments/${tournamentId}/as-of?position=${position}`)).text()).toBe(page.body);
      const csv = await reads.pastView(tournamentId, position, { kind: 'standings' });
      expect(csv.position).toBe(position);
      expect(await (await app.request(`/tournaments/${tournamentId}/standings.csv?position=${position}`)).text()).toBe(csv.body);
    }
  });

  it('carry a past tournament forward from the position asked before, to what a fold from position 0 gives', () => {
    const head = temp.ledger.store.head().position;
    const tournamentId = Object.keys(temp.ledger.models.tournaments)[0]!;
    const stepping = createLedgerReader(temp.ledger.database);
    for (const position of [100, 101, Math.floor(head / 2), head, 50]) {
      expect(stepping.tournamentAt(tournamentId, position)).toEqual(createLedgerReader(temp.ledger.database).tournamentAt(tournamentId, position));
    }
  });

  it('carry the chain walk on as events are appended, and walk again from position 1 to find a row edited in place', async () => {
    let now = 0;
    const watch = createLedgerReader(temp.ledger.database, { fullEveryMs: 1000, clock: () => now });
    const first = watch.check();
    expect(first.report).toMatchObject({ ok: true, count: temp.ledger.store.head().position });
    await keepPlaying(temp.ledger, { tournamentId: 't1', seed: 'audit', stopAt: 3200 });
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

  it('read the head once for the verify page: the walk and the count stop at it while events are appended', () => {
    // Events appended between reading the head and walking the chain (as a writer does beside
    // the reader's thread) must not carry the walk or the count past the head the page shows.
    const own = tempLedger('verify-race.db');
    const ledger = own.ledger;
    for (let i = 0; i < 5; i++) ledger.execute(createTournament(ledger.models, { tournamentId: `before-${i}`, name: `Before ${i}`, format: 'pitt-boss' }));
    const before = ledger.store.head().position;
    let appended = false;
    const sqlite = new Proxy(ledger.database.sqlite, {
      get(target, property) {
        if (property !== 'prepare') return Reflect.get(target, property, target);
        return (text: string) => {
          const statement = target.prepare(text);
          if (!/ORDER BY position DESC LIMIT 1/.test(text)) return statement;
          return {
            get: () => {
              const head = statement.get();
              if (!appended) {
                appended = true;
                for (let i = 0; i < 3; i++)
                  ledger.execute(createTournament(ledger.models, { tournamentId: `verify-race-${i}`, name: `Race ${i}`, format: 'pitt-boss' }));
              }
              return head;
            },
          };
        };
      },
    });
    const reader = createLedgerReader({ ...ledger.database, sqlite });
    const { report, stored, events } = reader.check();
    expect(appended).toBe(true);
    expect(ledger.store.head().position).toBeGreaterThan(before);
    expect(stored.position).toBe(before);
    expect(report).toMatchObject({ ok: true, count: before, head: stored });
    expect(events).toBe(before);
    // The next look reads the new head, and all of it again belongs together.
    const next = reader.check();
    expect(next.stored.position).toBe(ledger.store.head().position);
    expect(next.report).toMatchObject({ ok: true, count: next.stored.position, head: next.stored });
    expect(next.events).toBe(next.stored.position);
    own.remove();
  });

  it('run one at a time per address, a second from the same address waiting its turn, and turn away an address past its share', async () => {
    const gate = createHeavyReadGate({ concurrent: 2, perAddress: 3 });
    const order: string[] = [];
    let release!: () => void;
    const held = gate('10.0.0.1', () => new Promise<void>((resolve) => (release = resolve)).then(() => order.push('first')));
    const second = gate('10.0.0.1', async () => order.push('second'));
    const third = gate('10.0.0.1', async () => order.push('third'));
    await expect(gate('10.0.0.1', async () => 'fourth')).rejects.toBeInstanceOf(BusyError);
    // Another address is not kept waiting by the first one's queue.
    expect(await gate('10.0.0.2', async () => 'other address')).toBe('other address');
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(order).toEqual([]);
    release();
    await Promise.all([held, second, third]);
    expect(order).toEqual(['first', 'second', 'third']);
    expect(await gate('10.0.0.1', async () => 'after')).toBe('after');
  });

  it('turn reads away once the room’s queue is full, whichever addresses they come from', async () => {
    const gate = createHeavyReadGate({ concurrent: 1, queue: 2 });
    let release!: () => void;
    const first = gate('10.0.0.1', () => new Promise<void>((resolve) => (release = resolve)));
    const queued = [gate('10.0.0.2', async () => 2), gate('10.0.0.3', async () => 3)];
    await expect(gate('10.0.0.4', async () => 4)).rejects.toBeInstanceOf(BusyError);
    release();
    await first;
    expect(await Promise.all(queued)).toEqual([2, 3]);
  });

  it('answer 404, not 500, for a tournament id that names a property every object has', async () => {
    const { app } = createApp({ ledger: temp.ledger });
    for (const id of ['constructor', '__proto__', 'toString']) {
      expect((await app.request(`/tournaments/${id}/as-of?position=1`)).status).toBe(404);
      expect((await app.request(`/tournaments/${id}/standings.csv`)).status).toBe(404);
    }
  });
});

/**
 * Storage faults are refusals, not crashes. A full disk (SQLite's page limit standing in for
 * it) or a read-only file makes every write answer 503 with the reason, /healthz says the
 * ledger is not writable, the demo's bots pause without ending the process, nothing already
 * acknowledged is lost, and writing resumes by itself once the storage takes writes again.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { LedgerUnavailableError } from '../events/store/append.ts';
import { type Ledger, openLedger } from '../events/store/sqlite/ledger.ts';
import { createApp } from '../server/app/app.ts';
import { DEMO_TOURNAMENT, createDemo, demoBots } from '../server/serve/serve.ts';
import { driveTables, nextEntry } from '../server/serve/table-driver.ts';
import { type AuditLedger, tempLedger } from './fixtures/audit-ledger.ts';

let temp: AuditLedger | null = null;
afterEach(() => {
  temp?.remove();
  temp = null;
});

async function setUp() {
  temp = tempLedger();
  const { ledger } = temp;
  await createDemo(ledger);
  const notices: string[] = [];
  const tick = demoBots(ledger, (line) => notices.push(line));
  for (let i = 0; i < 30; i++) await tick();
  const { app, auth } = createApp({ ledger, newSeed: () => 'seed' });
  await auth.users.add('Dee Rector', 'director', 'director-password-1');
  const login = await app.request('/login', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'Dee Rector', password: 'director-password-1' }),
  });
  expect(login.status).toBe(200);
  const { csrf } = (await login.json()) as { csrf: string };
  const headers = {
    cookie: login.headers.get('set-cookie')!.split(';')[0]!,
    'x-csrf-token': csrf,
    'content-type': 'application/json',
    accept: 'application/json',
  };
  return { ledger, app, headers, tick, notices };
}

/** The next entry at some live demo table, as the director's request for it. */
function nextRequest(ledger: Ledger): { path: string; body: Record<string, unknown> } {
  for (const game of Object.values(ledger.models.games)) {
    if (game.tournamentId !== DEMO_TOURNAMENT || game.winner) continue;
    const decision = nextEntry(ledger, game, { seed: 'x' });
    const event = decision?.events[0];
    if (!event) continue;
    const payload = event.payload as Record<string, unknown>;
    const base = `/entry/games/${game.gameId}`;
    if (event.type === 'HandDealt') return { path: `${base}/deal`, body: { shuffle: 'system' } };
    if (event.type === 'BidMade') return { path: `${base}/bid`, body: { seat: payload.seat, bid: payload.bid } };
    if (event.type === 'CardPlayed') return { path: `${base}/play`, body: { seat: payload.seat, card: payload.card } };
  }
  throw new Error('no table has an entry to make');
}

const rows = (ledger: Ledger) => ledger.database.sqlite.prepare('SELECT position, hash FROM events ORDER BY position').all();

describe.each([
  {
    fault: 'a full disk',
    reason: 'the disk is full',
    // The file may not grow past the pages it has: the next page it needs is refused as SQLITE_FULL.
    break: (ledger: Ledger) => ledger.database.sqlite.pragma(`max_page_count = ${ledger.database.sqlite.pragma('page_count', { simple: true }) as number}`),
    mend: (ledger: Ledger) => ledger.database.sqlite.pragma('max_page_count = 1073741823'),
  },
  {
    fault: 'a read-only file',
    reason: 'the ledger file is read-only',
    break: (ledger: Ledger) => ledger.database.sqlite.pragma('query_only = 1'),
    mend: (ledger: Ledger) => ledger.database.sqlite.pragma('query_only = 0'),
  },
])('$fault', ({ reason, break: breakStorage, mend }) => {
  it('answers every write with 503 and the reason, says so on /healthz, pauses the bots, loses nothing, and resumes', async () => {
    const { ledger, app, headers, tick, notices } = await setUp();
    expect((await app.request('/healthz')).status).toBe(200);

    breakStorage(ledger);
    // The bots keep trying until an entry needs what the storage cannot give.
    for (let i = 0; i < 500 && ledger.health().writable; i++) await tick();
    expect(ledger.health()).toMatchObject({ writable: false, reason });
    expect(notices.filter((n) => n.startsWith('demo tables paused'))).toEqual([
      `demo tables paused: the ledger cannot record anything right now: ${reason}; nothing was recorded`,
    ]);
    const acknowledged = rows(ledger);

    const health = await app.request('/healthz');
    expect(health.status).toBe(503);
    expect(await health.json()).toEqual({ ok: false, writable: false, reason, position: ledger.models.position });

    const { path, body } = nextRequest(ledger);
    const refused = await app.request(path, { method: 'POST', headers, body: JSON.stringify(body) });
    expect(refused.status).toBe(503);
    expect(((await refused.json()) as { error: string }).error).toBe(`the ledger cannot record anything right now: ${reason}; nothing was recorded`);
    expect(() => ledger.execute((_models) => [], {})).not.toThrow();
    // Paused bots make one attempt a tick, each refused, none fatal.
    for (let i = 0; i < 5; i++) await tick();
    expect(rows(ledger)).toEqual(acknowledged);

    mend(ledger);
    await tick();
    expect(notices.at(-1)).toBe('demo tables: the ledger takes entries again; the bots carry on');
    expect(ledger.health().writable).toBe(true);
    expect((await app.request('/healthz')).status).toBe(200);
    const next = nextRequest(ledger);
    const accepted = await app.request(next.path, { method: 'POST', headers, body: JSON.stringify(next.body) });
    expect(accepted.status).toBe(200);
    expect(rows(ledger).slice(0, acknowledged.length)).toEqual(acknowledged);
    expect(rows(ledger).length).toBeGreaterThan(acknowledged.length);
  });

  it('closes without throwing while the storage refuses writes, and the ledger opens again intact', async () => {
    temp = tempLedger();
    const path = temp.path;
    temp.ledger.close();
    const notices: string[] = [];
    const ledger = openLedger({ path, onNotice: (line) => notices.push(line) });
    await createDemo(ledger);
    for (let i = 0; i < 20; i++) await driveTables(ledger, { tournamentId: DEMO_TOURNAMENT, seed: 'x' });
    breakStorage(ledger);
    await expect(
      (async () => {
        for (let i = 0; i < 500; i++) await driveTables(ledger, { tournamentId: DEMO_TOURNAMENT, seed: 'x' });
      })(),
    ).rejects.toThrow(LedgerUnavailableError);
    // Everything appended before the fault was acknowledged, and must be there after.
    const head = ledger.store.head();
    // close() is what SIGTERM runs: a snapshot the storage refuses is reported, and the file still closes.
    expect(() => ledger.close()).not.toThrow();
    expect(ledger.database.sqlite.open).toBe(false);
    if (reason === 'the ledger file is read-only') expect(notices).toEqual([`read models: not stored at position ${head.position}: ${reason}`]);
    const again = openLedger({ path, onNotice: (line) => notices.push(line) });
    expect(again.store.head()).toEqual(head);
    expect(again.store.verifyChain().ok).toBe(true);
    again.close();
  });
});

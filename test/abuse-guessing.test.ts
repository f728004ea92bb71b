/**
 * Guessing from the venue's Wi-Fi: table codes and passwords tried in parallel are held to the
 * limits the README documents, a page never says whether a code is right before the limit lets
 * it be tried, and the owner of an account still signs in while someone else guesses at it.
 * In process: each request says which address it comes from, and the clock is the test's.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type Ledger, openLedger } from '../events/store/sqlite/ledger.ts';
import { createApp } from '../server/app/app.ts';
import { createAuth } from '../server/auth/auth.ts';
import { JOIN_FAILURES_PER_MINUTE } from '../server/auth/rate-limits.ts';
import { createTournament, registerTeam } from '../server/commands/tournament-commands.ts';

const dirs: string[] = [];
const ledgers: Ledger[] = [];
afterEach(() => {
  for (const ledger of ledgers.splice(0)) ledger.close();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A ledger with a tournament of 6 teams (3 tables) and a judge, and an app whose clock is `clock.t`. */
async function setUp(options: { sleep?: (ms: number) => Promise<void>; trustProxy?: string } = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'spades-abuse-'));
  dirs.push(dir);
  const ledger = openLedger({ path: join(dir, 'ledger.db'), synchronous: 'NORMAL' });
  ledgers.push(ledger);
  ledger.execute(createTournament(ledger.models, { tournamentId: 'cup', name: 'Harbour Cup', format: 'pitt-boss' }));
  for (let i = 1; i <= 6; i++) ledger.execute(registerTeam(ledger.models, { tournamentId: 'cup', teamId: `t${i}`, name: `Team ${i}`, players: ['a', 'b'] }));
  const clock = { t: Date.UTC(2026, 5, 1, 18) };
  const auth = createAuth({ ledger, now: () => clock.t, ...(options.sleep ? { sleep: options.sleep } : {}) });
  const { app } = createApp({ ledger, auth, trustProxy: options.trustProxy ?? '' });
  await auth.users.add('Jo Judge', 'judge', 'correct horse');
  /** A request from `address`, as the Node server would hand it over. */
  const from = (address: string, path: string, init: RequestInit = {}) =>
    Promise.resolve(app.request(path, init, { incoming: { socket: { remoteAddress: address } } }));
  const json = (body: unknown, headers: Record<string, string> = {}): RequestInit => ({
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  return { ledger, app, auth, clock, from, json };
}

/** How many of each status. */
const tally = (responses: Response[]) => responses.reduce<Record<number, number>>((n, r) => ({ ...n, [r.status]: (n[r.status] ?? 0) + 1 }), {});

/** A code of the right shape that names no table (codes are checked against every table). */
const wrongCode = (i: number) => `WRONG${String(i).padStart(5, '2').replace(/[01]/g, '9')}`.slice(0, 10);

describe('table codes', () => {
  it('are long enough that the per-address limit leaves a guess hopeless even from a thousand addresses', async () => {
    const { auth } = await setUp();
    const code = await auth.tableCode('cup', 1);
    expect(code).toMatch(/^[A-HJ-KMNP-Z2-9]{10}$/);
    // 1,000 addresses at 10 wrong codes a minute each for a year, with 64 tables in play: the
    // chance that any guess names a table is under one in two thousand (README, Limits).
    const guessesPerYear = 1000 * JOIN_FAILURES_PER_MINUTE * 60 * 24 * 365;
    expect((guessesPerYear * 64) / 31 ** code.length).toBeLessThan(5e-4);
  });

  it('GET /join?code= says nothing about a code, right or wrong, once the address has used up its tries', async () => {
    const { auth, from } = await setUp();
    for (let i = 0; i < 10; i++) {
      const res = await from('10.0.0.7', `/join?code=${wrongCode(i)}`);
      expect(res.status, `try ${i + 1}`).toBe(401);
    }
    const right = await auth.tableCode('cup', 3);
    const refused = await from('10.0.0.7', `/join?code=${right}`);
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
    const page = await refused.text();
    expect(page).toContain('too many wrong table codes from this address in the last minute');
    expect(page).not.toContain('table 3');
    expect(page).not.toContain('Harbour Cup');
    // From elsewhere the same code is named at once.
    const elsewhere = await from('10.0.0.8', `/join?code=${right}`);
    expect(elsewhere.status).toBe(200);
    expect(await elsewhere.text()).toMatch(/This code is for <strong>table 3<\/strong> of Harbour Cup/);
  });

  it('share one count between the page and the join itself', async () => {
    const { auth, from, json } = await setUp();
    for (let i = 0; i < 5; i++) expect((await from('10.0.0.9', `/join?code=${wrongCode(i)}`)).status).toBe(401);
    for (let i = 5; i < 10; i++) expect((await from('10.0.0.9', '/join', json({ code: wrongCode(i) }))).status).toBe(401);
    const join = await from('10.0.0.9', '/join', json({ code: await auth.tableCode('cup', 1) }));
    expect(join.status).toBe(429);
    expect(((await join.json()) as { error: string }).error).toMatch(
      /^too many wrong table codes from this address in the last minute; try again in \d+ seconds$/,
    );
  });

  it('tried 300 at once from one address, only 10 are checked', async () => {
    const { from, json } = await setUp();
    const responses = await Promise.all(
      Array.from({ length: 300 }, (_, i) => (i % 2 ? from('10.0.1.1', `/join?code=${wrongCode(i)}`) : from('10.0.1.1', '/join', json({ code: wrongCode(i) })))),
    );
    expect(tally(responses)).toEqual({ 401: 10, 429: 290 });
  });

  it('sixty wrong codes from six addresses lock out those six only: the right code from any other address joins', async () => {
    const { auth, from, json } = await setUp();
    const responses = await Promise.all(Array.from({ length: 60 }, (_, i) => from(`10.1.0.${i % 6}`, '/join', json({ code: wrongCode(i) }))));
    expect(tally(responses)).toEqual({ 401: 60 });
    for (let table = 1; table <= 3; table++) {
      const fresh = await from(`10.2.0.${table}`, '/join', json({ code: await auth.tableCode('cup', table) }));
      expect(fresh.status, `table ${table}`).toBe(200);
      expect(await fresh.json()).toMatchObject({ role: 'scorekeeper', tournamentId: 'cup', table });
    }
    // Many more addresses guessing at once still leave the room's phones alone.
    const flood = await Promise.all(Array.from({ length: 240 }, (_, i) => from(`10.3.${i}.1`, `/join?code=${wrongCode(i)}`)));
    expect(tally(flood)).toEqual({ 401: 240 });
    expect((await from('10.2.0.9', '/join', json({ code: await auth.tableCode('cup', 2) }))).status).toBe(200);
    // A guesser's own address stays held to its ten a minute.
    const guesser = await from('10.1.0.0', '/join', json({ code: wrongCode(999) }));
    expect(guesser.status).toBe(429);
  });

  it('a right code is not counted: the phones of a whole room behind one address all join', async () => {
    const { auth, from, json } = await setUp();
    for (let i = 0; i < 20; i++) {
      const res = await from('10.3.0.1', '/join', json({ code: await auth.tableCode('cup', (i % 3) + 1) }));
      expect(res.status, `phone ${i + 1}`).toBe(200);
    }
  });

  it('are counted in the ledger file, which forgets each count once no limit looks back to it', async () => {
    const { ledger, clock, from, json } = await setUp();
    const rows = () => (ledger.database.sqlite.prepare('SELECT count(*) AS n FROM rate_limit_hits').get() as { n: number }).n;
    for (let i = 0; i < 10; i++) await from(`10.20.0.${i}`, '/join', json({ code: wrongCode(i) }));
    // Each wrong try is counted once, for its address.
    expect(rows()).toBe(10);
    clock.t += 16 * 60_000;
    await from('10.20.1.1', '/join', json({ code: wrongCode(99) }));
    expect(rows()).toBe(1);
  });

  it('behind the proxy TRUST_PROXY names, the address counted is the one nginx passes on, and an IPv6 client is counted by its /64', async () => {
    const { app } = await setUp({ trustProxy: '127.0.0.1' });
    const via = (socket: string, headers: Record<string, string>, code: string) =>
      Promise.resolve(app.request(`/join?code=${code}`, { headers }, { incoming: { socket: { remoteAddress: socket } } }));
    for (let i = 0; i < 10; i++) expect((await via('127.0.0.1', { 'x-real-ip': '203.0.113.5' }, wrongCode(i))).status).toBe(401);
    expect((await via('127.0.0.1', { 'x-real-ip': '203.0.113.5' }, wrongCode(11))).status).toBe(429);
    expect((await via('127.0.0.1', { 'x-real-ip': '203.0.113.6' }, wrongCode(12))).status).toBe(401);
    // A client cannot pick its own address by sending the header itself.
    for (let i = 0; i < 10; i++) expect((await via('198.51.100.1', { 'x-real-ip': `203.0.114.${i}` }, wrongCode(i))).status).toBe(401);
    expect((await via('198.51.100.1', { 'x-real-ip': '203.0.114.99' }, wrongCode(20))).status).toBe(429);
    for (let i = 0; i < 10; i++) expect((await via(`2001:db8:1:2::${i + 1}`, {}, wrongCode(i))).status).toBe(401);
    expect((await via('2001:db8:1:2:ffff::9', {}, wrongCode(30))).status).toBe(429);
    expect((await via('2001:db8:1:3::1', {}, wrongCode(31))).status).toBe(401);
  });
});

describe('passwords', () => {
  it('100 at once for one name from one address: one is checked, the rest wait for its answer', async () => {
    const { from, json } = await setUp();
    const bodies = [...Array.from({ length: 99 }, (_, i) => `wrong ${i}`), 'correct horse'];
    const responses = await Promise.all(bodies.map((password) => from('10.4.0.1', '/login', json({ name: 'Jo Judge', password }))));
    const counts = tally(responses);
    expect(counts[429]).toBe(99);
    expect((counts[401] ?? 0) + (counts[200] ?? 0)).toBe(1);
    const refused = responses.find((r) => r.status === 429)!;
    expect(((await refused.json()) as { error: string }).error).toBe('a sign-in as Jo Judge from this address is already being checked; wait for its answer');
  });

  it('from 40 addresses at once, checks of one name are spaced as documented: 10, then 1, 2, 4, 8 seconds apart', async () => {
    const waits: number[] = [];
    const { clock, from, json } = await setUp({ sleep: async (ms) => void waits.push(ms) });
    const start = clock.t;
    const responses = await Promise.all(
      Array.from({ length: 40 }, (_, i) => from(`10.5.${i}.1`, '/login', json({ name: 'jo judge', password: `guess ${i}` }))),
    );
    expect(tally(responses)).toEqual({ 401: 15, 429: 25 });
    // Ten at once, then turns 1, 3, 7, 15 and 23 seconds on; a turn more than 30 seconds off is refused.
    expect(waits.sort((a, b) => a - b)).toEqual([1000, 3000, 7000, 15000, 23000]);
    const refused = (await responses.find((r) => r.status === 429)!.json()) as { error: string };
    expect(refused.error).toMatch(
      /^jo judge has had many wrong passwords in the last 15 minutes, so its sign-ins are checked one at a time; try again in \d+ seconds$/,
    );
    // A minute on, the spacing is at its most: 8 seconds, so at most 4 more fit the 30 seconds a try may wait.
    clock.t = start + 60_000;
    waits.length = 0;
    const again = await Promise.all(Array.from({ length: 40 }, (_, i) => from(`10.6.${i}.1`, '/login', json({ name: 'Jo Judge', password: `again ${i}` }))));
    expect(tally(again)).toEqual({ 401: 4, 429: 36 });
    expect(waits.sort((a, b) => a - b)).toEqual([8000, 16000, 24000]);
  });

  it('the owner signs in from elsewhere while one address guesses at the name', async () => {
    const { from, json } = await setUp();
    const guesses = await Promise.all(Array.from({ length: 30 }, (_, i) => from('10.7.0.1', '/login', json({ name: 'Jo Judge', password: `guess ${i}` }))));
    expect(tally(guesses)[429]).toBeGreaterThanOrEqual(29);
    for (let i = 0; i < 12; i++) await from('10.7.0.1', '/login', json({ name: 'Jo Judge', password: `more ${i}` }));
    const attacker = await from('10.7.0.1', '/login', json({ name: 'Jo Judge', password: 'correct horse' }));
    expect(attacker.status).toBe(429);
    const owner = await from('10.8.0.1', '/login', json({ name: 'Jo Judge', password: 'correct horse' }));
    expect(owner.status).toBe(200);
  });

  it('against guessing from many addresses, a browser that signed in before goes straight in, and any other waits rather than hitting a wall', async () => {
    const waits: number[] = [];
    const { clock, from, json } = await setUp({ sleep: async (ms) => void waits.push(ms) });
    // The owner signed in from this browser last week; the device cookie is kept, the session ended.
    const earlier = await from('10.9.0.1', '/login', json({ name: 'Jo Judge', password: 'correct horse' }));
    expect(earlier.status).toBe(200);
    const device = earlier.headers
      .getSetCookie()
      .find((c) => c.startsWith('spades_device='))!
      .split(';')[0]!;
    expect(earlier.headers.getSetCookie().find((c) => c.startsWith('spades_device='))).toMatch(/HttpOnly/);
    await Promise.all(Array.from({ length: 40 }, (_, i) => from(`10.10.${i}.1`, '/login', json({ name: 'Jo Judge', password: `guess ${i}` }))));
    waits.length = 0;
    const owner = await from('10.11.0.1', '/login', json({ name: 'Jo Judge', password: 'correct horse' }, { cookie: device }));
    expect(owner.status).toBe(200);
    expect(waits).toEqual([]);
    // Another browser: told how long to wait, and let in once that time has passed.
    const other = await from('10.12.0.1', '/login', json({ name: 'Jo Judge', password: 'correct horse' }));
    expect(other.status).toBe(429);
    const wait = Number(other.headers.get('retry-after'));
    expect(wait).toBeGreaterThan(0);
    expect(wait).toBeLessThanOrEqual(30);
    clock.t += wait * 1000;
    const after = await from('10.12.0.1', '/login', json({ name: 'Jo Judge', password: 'correct horse' }));
    expect(after.status).toBe(200);
  });

  it('a device cookie for one account gives no way past the queue of another, and stops helping after 10 wrong passwords of its own', async () => {
    const waits: number[] = [];
    const { auth, clock, from, json } = await setUp({ sleep: async (ms) => void waits.push(ms) });
    await auth.users.add('Sam Other', 'judge', 'other password');
    const mine = await from('10.13.0.1', '/login', json({ name: 'Sam Other', password: 'other password' }));
    const device = mine.headers
      .getSetCookie()
      .find((c) => c.startsWith('spades_device='))!
      .split(';')[0]!;
    await Promise.all(Array.from({ length: 40 }, (_, i) => from(`10.14.${i}.1`, '/login', json({ name: 'Jo Judge', password: `guess ${i}` }))));
    const borrowed = await from('10.13.0.2', '/login', json({ name: 'Jo Judge', password: 'a guess' }, { cookie: device }));
    expect(borrowed.status).toBe(429);
    // Sam's own name, guessed with Sam's device cookie from ten addresses: after ten, the queue applies.
    clock.t += 60_000;
    for (let i = 0; i < 10; i++)
      expect((await from(`10.15.${i}.1`, '/login', json({ name: 'Sam Other', password: `nope ${i}` }, { cookie: device }))).status).toBe(401);
    waits.length = 0;
    await Promise.all(
      Array.from({ length: 3 }, (_, i) => from(`10.16.${i}.1`, '/login', json({ name: 'Sam Other', password: `nope ${i}` }, { cookie: device }))),
    );
    expect(waits.length).toBeGreaterThan(0);
  });
});

/**
 * Sessions that end: a cookie kept after signing out, after `spades add-user` sets a new
 * password, or after a role change opens nothing; a session goes idle and runs out; directors
 * and judges list their own sessions and end them; a rotated table code signs out its table.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type Ledger, openLedger } from '../events/store/sqlite/ledger.ts';
import { createApp } from '../server/app/app.ts';
import { createAuth } from '../server/auth/auth.ts';
import { SESSION_HOURS, SESSION_IDLE_MINUTES } from '../server/auth/sessions.ts';
import { createTournament, registerTeam } from '../server/commands/tournament-commands.ts';
import { cli } from './fixtures/cli.ts';

const dirs: string[] = [];
const ledgers: Ledger[] = [];
afterEach(() => {
  for (const ledger of ledgers.splice(0)) ledger.close();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

interface Client {
  cookie: string;
  csrf: string;
}

async function setUp() {
  const dir = mkdtempSync(join(tmpdir(), 'spades-sessions-'));
  dirs.push(dir);
  const path = join(dir, 'ledger.db');
  const ledger = openLedger({ path, synchronous: 'NORMAL' });
  ledgers.push(ledger);
  ledger.execute(createTournament(ledger.models, { tournamentId: 'cup', name: 'Harbour Cup', format: 'pitt-boss' }));
  for (let i = 1; i <= 4; i++) ledger.execute(registerTeam(ledger.models, { tournamentId: 'cup', teamId: `t${i}`, name: `Team ${i}`, players: ['a', 'b'] }));
  const clock = { t: Date.UTC(2026, 5, 1, 18) };
  const auth = createAuth({ ledger, now: () => clock.t });
  const { app } = createApp({ ledger, auth });
  await auth.users.add('Dana Director', 'director', 'director password');
  await auth.users.add('Jo Judge', 'judge', 'judge password');
  const request = (path: string, init: RequestInit = {}) => Promise.resolve(app.request(path, init));
  const signIn = async (path: string, body: Record<string, string>, device = 'a phone'): Promise<Client> => {
    const res = await request(path, { method: 'POST', headers: { 'content-type': 'application/json', 'user-agent': device }, body: JSON.stringify(body) });
    if (res.status !== 200) throw new Error(`${path} answered ${res.status}: ${await res.text()}`);
    return { cookie: res.headers.get('set-cookie')!.split(';')[0]!, csrf: ((await res.json()) as { csrf: string }).csrf };
  };
  const asJudge = (device?: string) => signIn('/login', { name: 'Jo Judge', password: 'judge password' }, device);
  const asDirector = (device?: string) => signIn('/login', { name: 'Dana Director', password: 'director password' }, device);
  /** A changing request as `client`, with its token. */
  const post = (client: Client, path: string, body: unknown = {}) =>
    request(path, {
      method: 'POST',
      headers: { cookie: client.cookie, 'x-csrf-token': client.csrf, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  const get = (client: Client, path: string) => request(path, { headers: { cookie: client.cookie, accept: 'application/json' } });
  return { path, ledger, auth, clock, request, signIn, asJudge, asDirector, post, get };
}

describe('a kept cookie', () => {
  it('opens nothing after its judge signs out, on any device', async () => {
    const { asJudge, post, get, request } = await setUp();
    const phone = await asJudge('phone');
    const laptop = await asJudge('laptop');
    expect((await get(phone, '/judge')).status).toBe(200);
    const out = await request('/logout', { method: 'POST', headers: { cookie: phone.cookie, accept: 'application/json' } });
    expect(out.status).toBe(200);
    expect(out.headers.get('set-cookie')).toMatch(/^spades_session=;/);
    for (const kept of [phone, laptop]) {
      expect((await get(kept, '/judge')).status).toBe(401);
      const call = await post(kept, '/judge/time', { tournamentId: 'cup', matchId: 'm1' });
      expect(call.status).toBe(401);
      expect(((await call.json()) as { error: string }).error).toBe('sign in as a judge or a director to do this');
    }
  });

  it('opens nothing after spades add-user gives the account a new password', async () => {
    const { path, asDirector, post } = await setUp();
    const director = await asDirector();
    const before = await post(director, '/director/tournaments', { tournamentId: 'spring', name: 'Spring', format: 'pitt-boss' });
    expect(before.status).toBe(200);
    const reset = await cli(['add-user', 'dana director', '--role', 'director', '--db', path], 'a new password\n');
    expect(reset.code).toBe(0);
    const after = await post(director, '/director/tournaments', { tournamentId: 'summer', name: 'Summer', format: 'pitt-boss' });
    expect(after.status).toBe(401);
  });

  it('opens nothing after the account changes role, while the same password and role again ends nothing', async () => {
    const { auth, asDirector, get } = await setUp();
    const director = await asDirector();
    await auth.users.add('Dana Director', 'director', 'director password');
    expect((await get(director, '/director')).status).toBe(200);
    await auth.users.add('Dana Director', 'judge', 'director password');
    expect((await get(director, '/director')).status).toBe(401);
  });

  it('ends after the idle time without a request, and after its hours however busy', async () => {
    const { clock, asJudge, get } = await setUp();
    const start = clock.t;
    const busy = await asJudge();
    const idle = await asJudge();
    clock.t += (SESSION_IDLE_MINUTES - 1) * 60_000;
    expect((await get(busy, '/judge')).status).toBe(200);
    clock.t += 2 * 60_000;
    expect((await get(idle, '/judge')).status).toBe(401);
    expect((await get(busy, '/judge')).status).toBe(200);
    while (clock.t + (SESSION_IDLE_MINUTES - 1) * 60_000 < start + SESSION_HOURS * 3600_000) {
      clock.t += (SESSION_IDLE_MINUTES - 1) * 60_000;
      expect((await get(busy, '/judge')).status).toBe(200);
    }
    clock.t = start + SESSION_HOURS * 3600_000;
    expect((await get(busy, '/judge')).status).toBe(401);
  });
});

describe('a director or judge', () => {
  it('sees their own sessions on their page, and ends one, all others, or this one', async () => {
    const { asJudge, asDirector, post, get, request } = await setUp();
    const phone = await asJudge('Judge phone');
    const laptop = await asJudge('Judge laptop');
    const tablet = await asJudge('Judge tablet');
    const director = await asDirector('Director laptop');
    const page = await (await request('/judge', { headers: { cookie: laptop.cookie } })).text();
    expect(page).toContain('Your sessions (3)');
    expect(page).toContain('this device: </strong>Judge laptop');
    expect(page).not.toContain('Director laptop');
    const listed = (await (await get(laptop, '/sessions')).json()) as { sessions: { id: string; device: string; current: boolean }[] };
    expect(listed.sessions.map((s) => [s.device, s.current]).sort()).toEqual([
      ['Judge laptop', true],
      ['Judge phone', false],
      ['Judge tablet', false],
    ]);
    const phoneId = listed.sessions.find((s) => s.device === 'Judge phone')!.id;
    expect(await (await post(laptop, '/sessions/end', { session: phoneId })).json()).toEqual({ ok: true, ended: 1 });
    expect((await get(phone, '/judge')).status).toBe(401);
    // Another account's session is not theirs to end.
    const directorId = ((await (await get(director, '/sessions')).json()) as { sessions: { id: string }[] }).sessions[0]!.id;
    const foreign = await post(laptop, '/sessions/end', { session: directorId });
    expect(foreign.status).toBe(404);
    expect(((await foreign.json()) as { error: string }).error).toBe(`Jo Judge has no session '${directorId}' to end; it may have ended already`);
    expect((await get(director, '/director')).status).toBe(200);
    expect(await (await post(laptop, '/sessions/end', { session: 'others' })).json()).toEqual({ ok: true, ended: 1 });
    expect((await get(tablet, '/judge')).status).toBe(401);
    expect((await get(laptop, '/judge')).status).toBe(200);
    const own = (await (await get(laptop, '/sessions')).json()) as { sessions: { id: string }[] };
    expect(own.sessions).toHaveLength(1);
    const self = await request('/sessions/end', {
      method: 'POST',
      headers: { cookie: laptop.cookie, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ _csrf: laptop.csrf, session: own.sessions[0]!.id }).toString(),
    });
    expect(self.status).toBe(303);
    expect(self.headers.get('location')).toBe('/login');
    expect((await get(laptop, '/judge')).status).toBe(401);
  });

  it('a director sees theirs on the director page; a scorekeeper has no session list', async () => {
    const { auth, asDirector, signIn, get, request } = await setUp();
    const director = await asDirector('Director laptop');
    const page = await (await request('/director', { headers: { cookie: director.cookie } })).text();
    expect(page).toContain('Your sessions (1)');
    const table = await signIn('/join', { code: await auth.tableCode('cup', 1) });
    expect((await get(table, '/sessions')).status).toBe(403);
  });
});

describe('table codes', () => {
  it('rotated by the director: the old code and the sessions joined with it end, other tables keep theirs', async () => {
    const { auth, asDirector, signIn, post, get, request } = await setUp();
    const old = await auth.tableCode('cup', 1);
    const phone = await signIn('/join', { code: old });
    const otherTable = await signIn('/join', { code: await auth.tableCode('cup', 2) });
    expect((await get(phone, '/entry/tables/cup/1')).status).toBe(200);
    const director = await asDirector();
    const codes = await (await request('/director/tournaments/cup/codes', { headers: { cookie: director.cookie } })).text();
    expect(codes).toContain('action="/director/tournaments/cup/tables/1/code"');
    const rotated = await post(director, '/director/tournaments/cup/tables/1/code');
    expect(rotated.status).toBe(200);
    const { code } = (await rotated.json()) as { code: string };
    expect(code).not.toBe(old);
    expect(code).toBe(await auth.tableCode('cup', 1));
    expect((await get(phone, '/entry/tables/cup/1')).status).toBe(401);
    expect((await get(otherTable, '/entry/tables/cup/2')).status).toBe(200);
    const stale = await request('/join', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ code: old }) });
    expect(stale.status).toBe(401);
    expect((await signIn('/join', { code })).csrf).toBeTruthy();
    const nowhere = await post(director, '/director/tournaments/cup/tables/9/code');
    expect(nowhere.status).toBe(404);
    expect(((await nowhere.json()) as { error: string }).error).toBe("tournament cup has tables 1 to 2, not '9'");
  });

  it('a scorekeeper signing out ends only that phone, not the other phone at the table', async () => {
    const { auth, signIn, get, request } = await setUp();
    const code = await auth.tableCode('cup', 1);
    const first = await signIn('/join', { code });
    const second = await signIn('/join', { code });
    await request('/logout', { method: 'POST', headers: { cookie: first.cookie } });
    expect((await get(first, '/entry/tables/cup/1')).status).toBe(401);
    expect((await get(second, '/entry/tables/cup/1')).status).toBe(200);
  });
});

/**
 * Signing in: scrypt passwords, the login throttle, table codes, signed session cookies and the
 * `spades add-user` command.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../events/store/sqlite/database.ts';
import { openLedger } from '../events/store/sqlite/ledger.ts';
import { createApp } from '../server/app/app.ts';
import { checkPassword, hashPassword, openUsers } from '../server/auth/accounts.ts';
import { createThrottle } from '../server/auth/rate-limits.ts';
import { sqliteAuthStorage } from '../server/auth/storage/sqlite.ts';
import { findTable, tableCode } from '../server/auth/table-codes.ts';
import { main } from '../server/cli/main.ts';
import { createTournament, registerTeam } from '../server/commands/tournament-commands.ts';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});
function tempPath(): string {
  const dir = mkdtempSync(join(tmpdir(), 'spades-auth-'));
  dirs.push(dir);
  return join(dir, 'ledger.db');
}

async function appWithUsers() {
  const ledger = openLedger({ path: tempPath(), synchronous: 'NORMAL' });
  const { app, auth } = createApp({ ledger });
  await auth.users.add('Jo Judge', 'judge', 'correct horse');
  return { ledger, app, auth };
}

const login = (app: { request: (p: string, i: RequestInit) => Response | Promise<Response> }, name: string, password: string) =>
  Promise.resolve(app.request('/login', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name, password }) }));

describe('passwords', () => {
  it('are stored as salted scrypt hashes, never as given', async () => {
    const a = await hashPassword('correct horse');
    const b = await hashPassword('correct horse');
    expect(a).toMatch(/^scrypt\$16384\$8\$1\$[A-Za-z0-9_-]+\$[A-Za-z0-9_-]+$/);
    expect(a).not.toBe(b);
    expect(a).not.toContain('correct');
    expect(await checkPassword('correct horse', a)).toBe(true);
    expect(await checkPassword('correct horsf', a)).toBe(false);
  });

  it('live in a users table of the ledger file', async () => {
    const path = tempPath();
    const database = openDatabase({ path });
    await openUsers(sqliteAuthStorage(database)).add('Dana', 'director', 'long enough');
    const row = database.sqlite.prepare('SELECT name, role, password FROM users').get() as { name: string; role: string; password: string };
    expect(row).toMatchObject({ name: 'Dana', role: 'director' });
    expect(row.password.startsWith('scrypt$')).toBe(true);
    database.close();
  });
});

describe('logging in', () => {
  it('sets a signed HttpOnly SameSite cookie, and a tampered cookie is no session', async () => {
    const { app, ledger } = await appWithUsers();
    const res = await login(app, 'jo judge', 'correct horse');
    expect(res.status).toBe(200);
    const cookie = res.headers.get('set-cookie')!;
    expect(cookie).toMatch(/^spades_session=/);
    expect(cookie).toContain('HttpOnly');
    expect(cookie).toContain('SameSite=Lax');
    const session = cookie.split(';')[0]!;
    expect((await app.request('/judge', { headers: { cookie: session } })).status).toBe(200);
    // Flip one character of the signed value: the signature no longer matches.
    const [name, value] = session.split('=');
    const tampered = `${name}=${value!.slice(0, 5)}${value![5] === 'A' ? 'B' : 'A'}${value!.slice(6)}`;
    expect((await app.request('/judge', { headers: { cookie: tampered, accept: 'application/json' } })).status).toBe(401);
    ledger.close();
  });

  it('the 11th wrong password in a minute gets 429, and even the right one waits', async () => {
    const { app, ledger } = await appWithUsers();
    for (let i = 1; i <= 10; i++) {
      const res = await login(app, 'Jo Judge', `wrong ${i}`);
      expect(res.status, `attempt ${i}`).toBe(401);
      expect(((await res.json()) as { error: string }).error).toBe('that name and password do not match an account');
    }
    const eleventh = await login(app, 'Jo Judge', 'wrong 11');
    expect(eleventh.status).toBe(429);
    expect(eleventh.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(((await eleventh.json()) as { error: string }).error).toMatch(/too many wrong passwords in the last minute/);
    expect((await login(app, 'Jo Judge', 'correct horse')).status).toBe(429);
    ledger.close();
  });

  it('the throttle forgets failures older than a minute', async () => {
    let t = 0;
    const throttle = createThrottle({ now: () => t });
    for (let i = 0; i < 10; i++) await throttle.fail('k');
    expect(await throttle.waitFor('k')).toBe(60);
    t = 60_001;
    expect(await throttle.waitFor('k')).toBe(0);
  });

  it('a wrong password on the login page is said on the page', async () => {
    const { app, ledger } = await appWithUsers();
    const res = await app.request('/login', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'name=Jo+Judge&password=nope',
    });
    expect(res.status).toBe(401);
    expect(await res.text()).toContain('that name and password do not match an account');
    ledger.close();
  });
});

describe('table codes', () => {
  it('name one table of a tournament in play, the same every time they are printed', async () => {
    const ledger = openLedger({ path: tempPath(), synchronous: 'NORMAL' });
    ledger.execute(createTournament(ledger.models, { tournamentId: 'cup', name: 'Cup', format: 'pitt-boss' }));
    for (let i = 1; i <= 6; i++) ledger.execute(registerTeam(ledger.models, { tournamentId: 'cup', teamId: `t${i}`, name: `T${i}`, players: ['a', 'b'] }));
    const { app, auth } = createApp({ ledger });
    const code = await auth.tableCode('cup', 3);
    expect(code).toMatch(/^[A-HJ-NP-Z2-9]{10}$/);
    expect(tableCode(auth.secret, 'cup', 3)).toBe(code);
    expect(findTable(auth.secret, ledger.models, code.toLowerCase())).toEqual({ tournamentId: 'cup', table: 3 });
    const join = await app.request('/join', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ code }) });
    expect(join.status).toBe(200);
    expect(await join.json()).toMatchObject({ role: 'scorekeeper', tournamentId: 'cup', table: 3 });
    const wrong = await app.request('/join', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ code: 'ZZZZZZ' }) });
    expect(wrong.status).toBe(401);
    expect(((await wrong.json()) as { error: string }).error).toBe("'ZZZZZZ' is not the code of a table in play; check the card on the table");
    ledger.close();
  });
});

describe('spades add-user', () => {
  it('adds a judge with the password from stdin, who can then sign in', async () => {
    const path = tempPath();
    const out: string[] = [];
    const io = { stdout: (t: string) => void out.push(t), stderr: (t: string) => void out.push(t), stdin: async () => 'a long password\n' };
    expect(await main(['add-user', 'Jo Judge', '--role', 'judge', '--db', path], io)).toBe(0);
    expect(out.join('')).toContain('Jo Judge can now sign in as judge');
    const ledger = openLedger({ path, synchronous: 'NORMAL' });
    const { app } = createApp({ ledger });
    expect((await login(app, 'Jo Judge', 'a long password')).status).toBe(200);
    ledger.close();
  });

  it('refuses a role other than director or judge, and a short password, with a sentence', async () => {
    const path = tempPath();
    const err: string[] = [];
    const io = { stdout: () => {}, stderr: (t: string) => void err.push(t), stdin: async () => 'short\n' };
    expect(await main(['add-user', 'Sam', '--role', 'scorekeeper', '--db', path], io)).toBe(2);
    expect(await main(['add-user', 'Sam', '--role', 'judge', '--db', path], io)).toBe(2);
    expect(err).toEqual(["add-user: --role must be director or judge, not 'scorekeeper'\n", 'add-user: the password for Sam needs at least 8 characters\n']);
  });

  it('refuses a PostgreSQL database it cannot reach in one line, without the password in the address', async () => {
    const err: string[] = [];
    const io = { stdout: () => {}, stderr: (t: string) => void err.push(t), stdin: async () => 'a long password\n' };
    expect(await main(['add-user', 'Sam', '--role', 'judge', '--db', 'postgresql://postgres:hush@127.0.0.1:1/spades'], io)).toBe(2);
    expect(err).toEqual([
      'spades add-user: cannot open the ledger at postgresql://postgres@127.0.0.1:1/spades: the database server cannot be reached (ECONNREFUSED)\n',
    ]);
  });
});

/**
 * Who did what, without publishing logins: a director's and a judge's entries carry the display
 * name and an account id, never the name they sign in with, in the ledger, the event feed, its
 * stream and the NDJSON export; an import names the judge who made it; and a ledger file from
 * before display names keeps its accounts, shown by their sign-in names.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../events/store/sqlite/database.ts';
import { openLedger, type Ledger } from '../events/store/sqlite/ledger.ts';
import { createApp } from '../server/app/app.ts';
import { createAuth } from '../server/auth/auth.ts';
import { openUsers } from '../server/auth/accounts.ts';
import { accountIdOf } from '../server/auth/sessions.ts';
import { sqliteAuthStorage } from '../server/auth/storage/sqlite.ts';
import { main } from '../server/cli/main.ts';
import { fullGameRecord } from './record-builders.ts';

const ledgers: Ledger[] = [];
const dirs: string[] = [];
afterEach(() => {
  for (const ledger of ledgers.splice(0)) ledger.close();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'spades-display-'));
  dirs.push(dir);
  return dir;
}

/** Reads an in-process event stream until it has sent the event at `position`, then closes it. */
async function streamUpTo(res: Response, position: number): Promise<string> {
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let text = '';
  const deadline = Date.now() + 10_000;
  while (!new RegExp(`^id: ${position}$`, 'm').test(text)) {
    if (Date.now() > deadline) throw new Error(`the stream stopped before position ${position}:\n${text.slice(-500)}`);
    const { value, done } = await reader.read();
    if (done) break;
    text += decoder.decode(value, { stream: true });
  }
  await reader.cancel();
  return text;
}

describe('a director’s and a judge’s entries', () => {
  it('carry display names and account ids, never a sign-in name, in the ledger, the feed, its stream and the export; an import names its judge', async () => {
    const dir = tempDir();
    const ledger = openLedger({ path: join(dir, 'ledger.db'), synchronous: 'NORMAL' });
    ledgers.push(ledger);
    const auth = createAuth({ ledger });
    const { app } = createApp({ ledger, auth });
    await auth.users.add('dana.k', 'director', 'director password', 'Dana Kowalski');
    await auth.users.add('jo.j', 'judge', 'judge password', 'Jo Judge');

    const signIn = async (name: string, password: string) => {
      const res = await app.request('/login', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name, password }) });
      expect(res.status).toBe(200);
      const body = (await res.json()) as { csrf: string; name: string };
      return { cookie: res.headers.get('set-cookie')!.split(';')[0]!, csrf: body.csrf, name: body.name };
    };
    const director = await signIn('dana.k', 'director password');
    const judge = await signIn('jo.j', 'judge password');
    expect([director.name, judge.name]).toEqual(['Dana Kowalski', 'Jo Judge']);
    const post = (who: { cookie: string; csrf: string }, path: string, body: unknown) =>
      app.request(path, {
        method: 'POST',
        headers: { 'content-type': 'application/json', cookie: who.cookie, 'x-csrf-token': who.csrf },
        body: JSON.stringify(body),
      });

    expect((await post(director, '/director/tournaments', { tournamentId: 'cup', name: 'Harbour Cup', format: 'pitt-boss' })).status).toBe(200);
    expect((await post(director, '/director/tournaments/cup/teams', { name: 'Aces', player1: 'Ann', player2: 'Bo', teamId: 'aces' })).status).toBe(200);
    expect((await post(director, '/director/tournaments/cup/teams/bulk', { lines: 'Kings, Cy, Di\nQueens, Ed, Flo', confirm: 'yes' })).status).toBe(200);
    expect((await post(director, '/director/tournaments/cup/check-in', { teamId: 'aces' })).status).toBe(200);
    const imported = await post(judge, '/api/games/import', { gameId: 'paper-1', record: fullGameRecord() });
    expect(imported.status).toBe(201);

    const head = ledger.store.head().position;
    const events = ledger.store.readAll();
    expect(events.length).toBe(head);
    const byDirector = events.filter((e) => e.stream === 'tournament-cup');
    expect(byDirector.length).toBeGreaterThanOrEqual(5);
    const directorId = accountIdOf(auth.secret, 'user:dana.k');
    const judgeId = accountIdOf(auth.secret, 'user:jo.j');
    expect(directorId).toMatch(/^acct-[A-Za-z0-9_-]{16}$/);
    expect(directorId).not.toBe(judgeId);
    for (const event of byDirector) expect(event.meta).toMatchObject({ by: 'director:Dana Kowalski', account: directorId });
    expect(events.find((e) => e.type === 'TeamCheckedIn')!.payload).toMatchObject({ by: 'Dana Kowalski' });
    // The import is signed by the judge who made it.
    const game = events.filter((e) => e.stream === 'game-paper-1');
    expect(game.length).toBeGreaterThan(10);
    for (const event of game) expect(event.meta).toMatchObject({ by: 'judge:Jo Judge', account: judgeId, via: 'record-import' });

    // Nowhere a sign-in name: the stored rows, the feed, its stream, the export.
    const rows = JSON.stringify(ledger.database.sqlite.prepare('SELECT stream, payload, meta FROM events').all());
    const feed = await (await app.request(`/api/events?after=0&limit=1000`)).text();
    expect(feed).toContain('Dana Kowalski');
    const stream = await streamUpTo(await app.request('/api/events/stream?after=0'), head);
    const exported = await (await app.request('/api/ledger.ndjson')).text();
    expect(exported).toContain('judge:Jo Judge');
    for (const [where, text] of [
      ['ledger', rows],
      ['feed', feed],
      ['stream', stream],
      ['export', exported],
    ] as const) {
      expect(text, where).not.toMatch(/dana\.k|jo\.j/i);
    }
  });
});

describe('spades import --by', () => {
  it('signs the game with the judge it names, by display name and account id, and refuses a name no account has', async () => {
    const dir = tempDir();
    const path = join(dir, 'ledger.db');
    const out = { stdout: '', stderr: '' };
    const io = { stdout: (t: string) => void (out.stdout += t), stderr: (t: string) => void (out.stderr += t), stdin: async () => '' };
    expect(await main(['add-user', 'jo.j', '--role', 'judge', '--display-name', 'Jo Judge', '--password', 'judge password', '--db', path], io)).toBe(0);
    const file = join(dir, 'game.json');
    writeFileSync(file, JSON.stringify(fullGameRecord()));
    expect(await main(['import', file, '--game', 'paper-nobody', '--by', 'someone', '--db', path], io)).toBe(2);
    expect(out.stderr).toBe(
      'spades import: --by names no judge or director of this ledger; add the account with spades add-user, then import again; nothing was imported\n',
    );
    expect(await main(['import', file, '--game', 'paper-cli', '--by', 'JO.J', '--db', path], io)).toBe(0);
    const ledger = openLedger({ path, synchronous: 'NORMAL' });
    ledgers.push(ledger);
    const events = ledger.store.readAll();
    expect(events.every((e) => e.stream === 'game-paper-cli')).toBe(true);
    const secret = sqliteAuthStorage(ledger.database).secret;
    for (const event of events) expect(event.meta).toMatchObject({ by: 'judge:Jo Judge', account: accountIdOf(secret, 'user:jo.j'), via: 'record-import' });
    expect(JSON.stringify(ledger.database.sqlite.prepare('SELECT payload, meta FROM events').all())).not.toMatch(/jo\.j/i);
  });
});

describe('accounts', () => {
  it('in a ledger file from before display names are kept, shown by their sign-in names, and can be given one', async () => {
    const path = join(tempDir(), 'old.db');
    const old = openDatabase({ path });
    // The users table as such a file has it.
    old.sqlite.exec(
      `CREATE TABLE users (name TEXT PRIMARY KEY COLLATE NOCASE, role TEXT NOT NULL CHECK (role IN ('director', 'judge')), password TEXT NOT NULL, created_at TEXT NOT NULL) STRICT`,
    );
    const hash = 'scrypt$16384$8$1$AAAAAAAAAAAAAAAAAAAAAA$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA';
    old.sqlite.prepare('INSERT INTO users VALUES (?, ?, ?, ?)').run('Old Timer', 'judge', hash, '2025-01-01T00:00:00.000Z');
    old.close();

    const database = openDatabase({ path });
    try {
      const users = openUsers(sqliteAuthStorage(database));
      expect(await users.list()).toEqual([{ name: 'Old Timer', displayName: 'Old Timer', role: 'judge' }]);
      await users.add('Old Timer', 'judge', 'a new password', 'Olive T.');
      await users.add('fresh', 'director', 'fresh password');
      expect(await users.list()).toEqual([
        { name: 'fresh', displayName: 'fresh', role: 'director' },
        { name: 'Old Timer', displayName: 'Olive T.', role: 'judge' },
      ]);
      // A new password alone keeps the display name.
      await users.add('old timer', 'judge', 'another password');
      expect(await users.verify('OLD TIMER', 'another password')).toEqual({ name: 'Old Timer', displayName: 'Olive T.', role: 'judge' });
      await expect(users.add('fresh', 'director', 'fresh password', 'Fr\u202Esh')).rejects.toThrow(
        /^the display name holds a character that changes the direction of the text \(U\+202E\) at character 3/,
      );
    } finally {
      database.close();
    }
  });

  it('spades add-user takes a display name, and refuses one with hidden characters in one line', async () => {
    const path = join(tempDir(), 'ledger.db');
    const out = { stdout: '', stderr: '' };
    const io = { stdout: (t: string) => void (out.stdout += t), stderr: (t: string) => void (out.stderr += t), stdin: async () => '' };
    expect(
      await main(['add-user', 'dana.k', '--role', 'director', '--display-name', 'Dana Kowalski', '--password', 'director password', '--db', path], io),
    ).toBe(0);
    expect(out.stdout).toBe(`dana.k can now sign in as director at /login, shown as Dana Kowalski (ledger ${path})\n`);
    expect(await main(['add-user', 'jo.j', '--role', 'judge', '--display-name', 'Jo\u0007', '--password', 'judge password', '--db', path], io)).toBe(2);
    expect(out.stderr).toBe(
      'add-user: the display name holds a control character (U+0007) at character 3; a name is written with letters, digits, spaces and punctuation that can be seen\n',
    );
    const database = openDatabase({ path });
    try {
      expect(await openUsers(sqliteAuthStorage(database)).list()).toEqual([{ name: 'dana.k', displayName: 'Dana Kowalski', role: 'director' }]);
    } finally {
      database.close();
    }
  });
});

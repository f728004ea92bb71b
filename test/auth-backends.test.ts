/**
 * Sign-in shared by several server processes, held to the same assertions where it is kept in
 * the ledger's SQLite file and where it is kept in PostgreSQL: two app instances over the same
 * accounts and sessions (as two processes would be, each with its own connections) honour each
 * other's sessions and see them end, whether by signing out, by a new password from
 * `spades add-user`, or by a table code rotated on the other; and the limits of server/auth/rate-limits.ts
 * hold over the two together when the attempts are split between them and sent at once. The
 * PostgreSQL cases run on a throwaway cluster and skip without one.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type Ledger, openLedger } from '../events/store/sqlite/ledger.ts';
import { createApp } from '../server/app/app.ts';
import { createAuth, ledgerFileStorage } from '../server/auth/auth.ts';
import type { AuthStorage } from '../server/auth/storage/auth-storage.ts';
import { createTournament, registerTeam } from '../server/commands/tournament-commands.ts';
import { authBackends } from './fixtures/auth-backends.ts';
import { cli } from './fixtures/cli.ts';
import { noteMissingPostgres } from './fixtures/postgres.ts';
import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import { openDatabase } from '../events/store/sqlite/database.ts';

noteMissingPostgres('auth-backends (the PostgreSQL half)');

interface Client {
  cookie: string;
  csrf: string;
}

/** How many of each status. */
const tally = (responses: Response[]) => responses.reduce<Record<number, number>>((n, r) => ({ ...n, [r.status]: (n[r.status] ?? 0) + 1 }), {});

/** A code of the right shape that names no table. */
const wrongCode = (i: number) => `WRONG${String(i).padStart(5, '2').replace(/[01]/g, '9')}`.slice(0, 10);

const json = (body: unknown, headers: Record<string, string> = {}): RequestInit => ({
  method: 'POST',
  headers: { 'content-type': 'application/json', ...headers },
  body: JSON.stringify(body),
});

for (const backend of authBackends()) {
  describe.skipIf(!backend.available)(`sign-in kept in ${backend.name}, shared by two app instances`, () => {
    beforeAll(() => backend.start());
    afterAll(() => backend.stop());

    const cleanups: (() => Promise<void> | void)[] = [];
    afterEach(async () => {
      for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
    });

    /**
     * A ledger file with a tournament of 6 teams (3 tables), a judge and a director, and two app
     * instances over it and the same sign-ins, started at the same moment; the clock is `clock.t`.
     */
    /**
     * The storage with each taking-off of hits first waiting for `hold`: an attempt's "being
     * checked" mark then stands until the test lets it go, however the requests' own steps are
     * spread in time on a busy machine.
     */
    const holdingRemovals = (storage: AuthStorage, hold: () => Promise<void>): AuthStorage => ({
      ...storage,
      hits: new Proxy(storage.hits, {
        get: (target, name, receiver) =>
          name === 'remove' ? async (ids: readonly number[]) => (await hold(), target.remove(ids)) : Reflect.get(target, name, receiver),
      }),
    });

    async function setUp(options: { sleep?: (ms: number) => Promise<void>; holdRemovals?: () => Promise<void> } = {}) {
      const dir = mkdtempSync(join(tmpdir(), 'spades-auth-backends-'));
      cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
      const path = join(dir, 'ledger.db');
      const writer = openLedger({ path, synchronous: 'NORMAL' });
      writer.execute(createTournament(writer.models, { tournamentId: 'cup', name: 'Harbour Cup', format: 'pitt-boss' }));
      for (let i = 1; i <= 6; i++)
        writer.execute(registerTeam(writer.models, { tournamentId: 'cup', teamId: `t${i}`, name: `Team ${i}`, players: ['a', 'b'] }));
      const location = await backend.create(path);
      const clock = { t: Date.UTC(2026, 5, 1, 18) };

      const instance = async (n: number, ledger: Ledger) => {
        const held = await backend.open(location, ledger, n);
        const kept = held.storage ?? (options.holdRemovals ? ledgerFileStorage(ledger) : undefined);
        const storage = kept && options.holdRemovals ? holdingRemovals(kept, options.holdRemovals) : kept;
        const auth = createAuth({ ledger, now: () => clock.t, ...(storage ? { storage } : {}), ...(options.sleep ? { sleep: options.sleep } : {}) });
        const { app, broadcaster } = createApp({ ledger, auth });
        cleanups.push(async () => {
          broadcaster.close();
          await held.close();
          ledger.close();
        });
        /** A request from `address`, as the Node server would hand it over. */
        const from = (address: string, path: string, init: RequestInit = {}) =>
          Promise.resolve(app.request(path, init, { incoming: { socket: { remoteAddress: address } } }));
        const signIn = async (path: string, body: Record<string, string>, device = 'a phone'): Promise<Client> => {
          const res = await from('10.0.0.1', path, json(body, { 'user-agent': device }));
          if (res.status !== 200) throw new Error(`${path} answered ${res.status}: ${await res.text()}`);
          return { cookie: res.headers.get('set-cookie')!.split(';')[0]!, csrf: ((await res.json()) as { csrf: string }).csrf };
        };
        const get = (client: Client, path: string) => from('10.0.0.1', path, { headers: { cookie: client.cookie, accept: 'application/json' } });
        const post = (client: Client, path: string, body: unknown = {}) =>
          from('10.0.0.1', path, json(body, { cookie: client.cookie, 'x-csrf-token': client.csrf, accept: 'application/json' }));
        return { auth, from, signIn, get, post };
      };
      const [a, b] = await Promise.all([instance(1, writer), instance(2, openLedger({ path, synchronous: 'NORMAL' }))]);
      await a.auth.users.add('Jo Judge', 'judge', 'judge password');
      await b.auth.users.add('Dana Director', 'director', 'director password');
      /** The instance the `i`-th of a batch of attempts goes to: every other one. */
      const either = (i: number) => (i % 2 === 0 ? a : b);
      return { a, b, either, clock, location, path };
    }

    it('upgrades a place from before display names without a step of its own: the accounts stay, shown by their sign-in names', async () => {
      const { location, path } = await setUp();
      // The column taken away again, as a place made before display names has none.
      if (backend.name === 'SQLite') {
        const database = openDatabase({ path: location });
        database.sqlite.exec('ALTER TABLE users DROP COLUMN display_name');
        database.close();
      } else {
        const kysely = new Kysely<unknown>({ dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: location, max: 1 }) }) });
        await sql`ALTER TABLE users DROP COLUMN display_name`.execute(kysely);
        await kysely.destroy();
      }
      const ledger = openLedger({ path, synchronous: 'NORMAL' });
      const held = await backend.open(location, ledger, 3);
      cleanups.push(async () => {
        await held.close();
        ledger.close();
      });
      const auth = createAuth({ ledger, ...(held.storage ? { storage: held.storage } : {}) });
      expect(await auth.users.list()).toEqual([
        { name: 'Dana Director', displayName: 'Dana Director', role: 'director' },
        { name: 'Jo Judge', displayName: 'Jo Judge', role: 'judge' },
      ]);
      expect(await auth.users.verify('jo judge', 'judge password')).toEqual({ name: 'Jo Judge', displayName: 'Jo Judge', role: 'judge' });
      await auth.users.add('jo judge', 'judge', 'judge password', 'Jo J.');
      expect(await auth.users.verify('Jo Judge', 'judge password')).toEqual({ name: 'Jo Judge', displayName: 'Jo J.', role: 'judge' });
    });

    describe('a session', () => {
      it('made through one instance is honoured by the other, and refused by both after signing out', async () => {
        const { a, b } = await setUp();
        const judge = await a.signIn('/login', { name: 'Jo Judge', password: 'judge password' });
        expect((await b.get(judge, '/judge')).status).toBe(200);
        const table = await b.signIn('/join', { code: await b.auth.tableCode('cup', 1) });
        expect((await a.get(table, '/entry/tables/cup/1')).status).toBe(200);
        const out = await b.from('10.0.0.1', '/logout', { method: 'POST', headers: { cookie: judge.cookie, accept: 'application/json' } });
        expect(out.status).toBe(200);
        for (const side of [a, b]) {
          expect((await side.get(judge, '/judge')).status).toBe(401);
          expect((await side.get(table, '/entry/tables/cup/1')).status).toBe(200);
        }
      });

      it('listed on one instance can be ended there, and is over on the other', async () => {
        const { a, b } = await setUp();
        const phone = await a.signIn('/login', { name: 'Jo Judge', password: 'judge password' }, 'Judge phone');
        const laptop = await b.signIn('/login', { name: 'Jo Judge', password: 'judge password' }, 'Judge laptop');
        const listed = (await (await a.get(laptop, '/sessions')).json()) as { sessions: { id: string; device: string; current: boolean }[] };
        expect(listed.sessions.map((s) => [s.device, s.current]).sort()).toEqual([
          ['Judge laptop', true],
          ['Judge phone', false],
        ]);
        const phoneId = listed.sessions.find((s) => s.device === 'Judge phone')!.id;
        expect(await (await b.post(laptop, '/sessions/end', { session: phoneId })).json()).toEqual({ ok: true, ended: 1 });
        expect((await a.get(phone, '/judge')).status).toBe(401);
        expect((await b.get(phone, '/judge')).status).toBe(401);
        expect((await a.get(laptop, '/judge')).status).toBe(200);
      });

      it('lets both instances set up one account at the same moment, as two servers starting at once do', async () => {
        const { a, b } = await setUp();
        for (let round = 0; round < 300; round++) {
          const name = `Demo Director ${round}`;
          // The stored step itself, sent from both at once (a password is hashed before it, which spreads them out).
          const user = (password: string) => ({ name, displayName: name, role: 'director', password, createdAt: new Date().toISOString() });
          await Promise.all([a.auth.storage.accounts.save(user('hash one'), null), b.auth.storage.accounts.save(user('hash two'), null)]);
          expect(await a.auth.storage.accounts.find(name)).toMatchObject({ name, role: 'director' });
        }
      });

      it('ends on both instances once spades add-user gives the account a new password', async () => {
        const { a, b, location } = await setUp();
        const phone = await a.signIn('/login', { name: 'Jo Judge', password: 'judge password' });
        const laptop = await b.signIn('/login', { name: 'Jo Judge', password: 'judge password' });
        for (const side of [a, b]) for (const kept of [phone, laptop]) expect((await side.get(kept, '/judge')).status).toBe(200);
        const reset = await cli(['add-user', 'jo judge', '--role', 'judge', '--db', location], 'a new password\n');
        expect(reset.code).toBe(0);
        expect(reset.stdout).toContain('jo judge can now sign in as judge');
        for (const side of [a, b]) for (const kept of [phone, laptop]) expect((await side.get(kept, '/judge')).status).toBe(401);
        const old = await a.from('10.0.0.2', '/login', json({ name: 'Jo Judge', password: 'judge password' }));
        expect(old.status).toBe(401);
        const fresh = await b.signIn('/login', { name: 'Jo Judge', password: 'a new password' });
        expect((await a.get(fresh, '/judge')).status).toBe(200);
      });

      it('ends on both instances once the account changes role, while the same password and role again ends nothing', async () => {
        const { a, b } = await setUp();
        const director = await a.signIn('/login', { name: 'Dana Director', password: 'director password' });
        await b.auth.users.add('Dana Director', 'director', 'director password');
        expect((await a.get(director, '/director')).status).toBe(200);
        await b.auth.users.add('dana director', 'judge', 'director password');
        for (const side of [a, b]) expect((await side.get(director, '/director')).status).toBe(401);
        expect(await a.auth.users.list()).toEqual([
          { name: 'Dana Director', displayName: 'Dana Director', role: 'judge' },
          { name: 'Jo Judge', displayName: 'Jo Judge', role: 'judge' },
        ]);
      });
    });

    it.runIf(backend.name === 'PostgreSQL')('spades add-user finds the database by DATABASE_URL as well as by --db', async () => {
      const { a, location } = await setUp();
      const before = process.env.DATABASE_URL;
      process.env.DATABASE_URL = location;
      try {
        const added = await cli(['add-user', 'Sam Scorer', '--role', 'judge'], 'a long password\n');
        expect(added).toMatchObject({ code: 0, stderr: '' });
        expect(added.stdout).toBe(`Sam Scorer can now sign in as judge at /login (database ${location})\n`);
      } finally {
        if (before === undefined) delete process.env.DATABASE_URL;
        else process.env.DATABASE_URL = before;
      }
      expect((await a.from('10.0.0.1', '/login', json({ name: 'Sam Scorer', password: 'a long password' }))).status).toBe(200);
    });

    describe('a table code rotated through one instance', () => {
      it('is refused on both, and signs out on both whoever joined with it; other tables keep theirs', async () => {
        const { a, b } = await setUp();
        const old = await a.auth.tableCode('cup', 1);
        expect(await b.auth.tableCode('cup', 1)).toBe(old);
        const phones = [await a.signIn('/join', { code: old }), await b.signIn('/join', { code: old })];
        const otherTable = await b.signIn('/join', { code: await b.auth.tableCode('cup', 2) });
        const director = await b.signIn('/login', { name: 'Dana Director', password: 'director password' });
        const rotated = await a.post(director, '/director/tournaments/cup/tables/1/code');
        expect(rotated.status).toBe(200);
        const { code } = (await rotated.json()) as { code: string };
        expect(code).not.toBe(old);
        expect(await b.auth.tableCode('cup', 1)).toBe(code);
        for (const side of [a, b]) {
          for (const phone of phones) expect((await side.get(phone, '/entry/tables/cup/1')).status).toBe(401);
          expect((await side.get(otherTable, '/entry/tables/cup/2')).status).toBe(200);
          const stale = await side.from('10.0.0.3', '/join', json({ code: old }));
          expect(stale.status).toBe(401);
        }
        const joined = await b.signIn('/join', { code });
        expect((await a.get(joined, '/entry/tables/cup/1')).status).toBe(200);
        const codes = await (await b.from('10.0.0.1', '/director/tournaments/cup/codes', { headers: { cookie: director.cookie } })).text();
        expect(codes).toContain(`data-code="${code}"`);
      });
    });

    describe('the table code limits, over both instances together', () => {
      it('tried 300 at once from one address, only 10 are checked', async () => {
        const { either } = await setUp();
        const responses = await Promise.all(
          Array.from({ length: 300 }, (_, i) =>
            i % 4 < 2 ? either(i).from('10.0.1.1', `/join?code=${wrongCode(i)}`) : either(i).from('10.0.1.1', '/join', json({ code: wrongCode(i) })),
          ),
        );
        expect(tally(responses)).toEqual({ 401: 10, 429: 290 });
      });

      it('sixty wrong codes from six addresses lock out those six only, through either instance', async () => {
        const { a, b, either } = await setUp();
        const responses = await Promise.all(Array.from({ length: 60 }, (_, i) => either(i).from(`10.1.0.${i % 6}`, '/join', json({ code: wrongCode(i) }))));
        expect(tally(responses)).toEqual({ 401: 60 });
        for (const side of [a, b]) {
          const fresh = await side.from('10.2.0.1', '/join', json({ code: await side.auth.tableCode('cup', 2) }));
          expect(fresh.status).toBe(200);
          const guesser = await side.from('10.1.0.3', '/join', json({ code: wrongCode(999) }));
          expect(guesser.status).toBe(429);
        }
      });

      it('do not count a right code: a room of phones behind one address all join, through either instance', async () => {
        const { a, either } = await setUp();
        const codes = await Promise.all([1, 2, 3].map((table) => a.auth.tableCode('cup', table)));
        for (let i = 0; i < 20; i++) {
          const res = await either(i).from('10.3.0.1', '/join', json({ code: codes[i % 3] }));
          expect(res.status, `phone ${i + 1}`).toBe(200);
        }
      });
    });

    it('the counts are forgotten once no limit looks back to them, whichever instance counted them', async () => {
      const { a, b, either, clock } = await setUp();
      const keys = [...Array.from({ length: 10 }, (_, i) => `join-address:10.20.0.${i}`), 'join-address:10.20.1.1'];
      const counted = async () => {
        const view = await b.auth.storage.hits.read(keys, 0);
        return keys.reduce((n, key) => n + view.times(key, 0).length, 0);
      };
      for (let i = 0; i < 10; i++) await either(i).from(`10.20.0.${i}`, '/join', json({ code: wrongCode(i) }));
      expect(await counted()).toBe(10);
      clock.t += 16 * 60_000;
      await a.from('10.20.1.1', '/join', json({ code: wrongCode(99) }));
      expect(await counted()).toBe(1);
    });

    describe('the password limits, over both instances together', () => {
      it('100 at once for one name from one address: one is checked, the rest wait for its answer', async () => {
        // The check under way holds its mark until the 99 others have their answers, so they
        // all meet it however the machine spreads their steps in time.
        let answered = 0;
        let allOthersAnswered = () => {};
        const othersAnswered = new Promise<void>((resolve) => (allOthersAnswered = resolve));
        const { either } = await setUp({ holdRemovals: () => Promise.race([othersAnswered, new Promise<void>((resolve) => setTimeout(resolve, 10_000))]) });
        const bodies = [...Array.from({ length: 99 }, (_, i) => `wrong ${i}`), 'judge password'];
        const responses = await Promise.all(
          bodies.map(async (password, i) => {
            const response = await either(i).from('10.4.0.1', '/login', json({ name: 'Jo Judge', password }));
            if (++answered === 99) allOthersAnswered();
            return response;
          }),
        );
        const counts = tally(responses);
        expect(counts[429]).toBe(99);
        expect((counts[401] ?? 0) + (counts[200] ?? 0)).toBe(1);
      });

      it('30 at once from one address for 30 names: 10 are checked in the minute', async () => {
        const { either } = await setUp();
        const responses = await Promise.all(
          Array.from({ length: 30 }, (_, i) => either(i).from('10.5.0.1', '/login', json({ name: `Someone ${i}`, password: 'a guess' }))),
        );
        expect(tally(responses)).toEqual({ 401: 10, 429: 20 });
        const refused = responses.find((r) => r.status === 429)!;
        expect(((await refused.json()) as { error: string }).error).toMatch(/^too many wrong passwords in the last minute; try again in \d+ seconds$/);
      });

      it('from 40 addresses at once, checks of one name are spaced as documented: 10, then 1, 2, 4, 8 seconds apart', async () => {
        const waits: number[] = [];
        const { either } = await setUp({ sleep: async (ms) => void waits.push(ms) });
        const responses = await Promise.all(
          Array.from({ length: 40 }, (_, i) => either(i).from(`10.6.${i}.1`, '/login', json({ name: 'jo judge', password: `guess ${i}` }))),
        );
        expect(tally(responses)).toEqual({ 401: 15, 429: 25 });
        expect(waits.sort((x, y) => x - y)).toEqual([1000, 3000, 7000, 15000, 23000]);
      });
    });
  });
}

/**
 * Two `spades serve` processes on one ledger, as an operator runs them behind nginx: on one
 * PostgreSQL database, and on one SQLite file. A burst of public sign-ups split between them,
 * each from its own address, against a cap, and a burst of desk actions split the same way: every
 * race one process loses to the other is decided again from what the other recorded, so each
 * person hears only what a person would say (registered, waitlisted at a place, "'Team 3' is
 * already checked in"), never a stream, a version or "reload and try again".
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServedLedger } from '../events/store/served-ledger.ts';
import { openLedger } from '../events/store/sqlite/ledger.ts';
import { openPostgresLedger } from '../events/store/postgres/served-ledger.ts';
import { createAuth, postgresAuthStorage } from '../server/auth/auth.ts';
import { setSignUp } from '../server/commands/registration-commands.ts';
import { createTournament } from '../server/commands/tournament-commands.ts';
import { type ServeProcess, killHard, ledgerPath, removeTempDirs, startServeProcess, tempDir } from './fixtures/live-server.ts';
import { type PostgresCluster, noteMissingPostgres, postgres, startPostgres } from './fixtures/postgres.ts';

noteMissingPostgres('multi-process-races (the PostgreSQL half)');

const ID = 'burst';
const CAP = 8;
const SIGN_UPS = 60;
const DIRECTOR = { name: 'Dee Rector', password: 'director-password-1' };
/** What no answer to a person may hold: the store's words for a lost race. */
const STORE_WORDS = /tournament-burst|version|reload|try again|expected|stream/i;

/** The tournament taking sign-ups with its cap, and a director to work the desk. */
async function setUp(ledger: ServedLedger, auth: ReturnType<typeof createAuth>): Promise<void> {
  await ledger.append((m) => createTournament(m, { tournamentId: ID, name: 'Burst Cup', format: 'unc-intramural' }));
  await ledger.append((m) => setSignUp(m, { tournamentId: ID, open: true, cap: CAP, closes: null, at: new Date().toISOString() }));
  await auth.users.add(DIRECTOR.name, 'director', DIRECTOR.password);
}

interface Where {
  name: string;
  available: boolean;
  /** Makes a new ledger set up for the burst; the environment two servers are started with on it. */
  prepare(): Promise<{ dataDir: string; env: Record<string, string> }>;
  stop(): Promise<void>;
}

function onSqlite(): Where {
  return {
    name: 'one SQLite file',
    available: true,
    async prepare() {
      const dataDir = tempDir('spades-races-');
      const ledger = openLedger({ path: ledgerPath(dataDir) });
      try {
        await setUp(ledger.served, createAuth({ ledger }));
      } finally {
        ledger.close();
      }
      return { dataDir, env: {} };
    },
    async stop() {},
  };
}

function onPostgres(): Where {
  let cluster: PostgresCluster | null = null;
  return {
    name: 'one PostgreSQL database',
    available: postgres.available,
    async prepare() {
      cluster ??= await startPostgres();
      const url = await cluster.createDatabase('races');
      const ledger = await openPostgresLedger({ url });
      try {
        await setUp(ledger, createAuth({ ledger, storage: await postgresAuthStorage(ledger.store.kysely) }));
      } finally {
        await ledger.close();
      }
      return { dataDir: tempDir('spades-races-'), env: { DATABASE_URL: url } };
    },
    async stop() {
      await cluster?.stop();
    },
  };
}

interface Answer {
  status: number;
  body: Record<string, unknown>;
}

async function send(url: string, path: string, body: unknown, headers: Record<string, string> = {}): Promise<Answer> {
  const res = await fetch(`${url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  let parsed: Record<string, unknown>;
  try {
    parsed = JSON.parse(text) as Record<string, unknown>;
  } catch {
    parsed = { text };
  }
  return { status: res.status, body: parsed };
}

async function signIn(url: string): Promise<Record<string, string>> {
  const res = await fetch(`${url}/login`, { method: 'POST', headers: { 'content-type': 'application/json', origin: url }, body: JSON.stringify(DIRECTOR) });
  if (res.status !== 200) throw new Error(`signing in to ${url} failed: ${res.status} ${await res.text()}`);
  const { csrf } = (await res.json()) as { csrf: string };
  return { cookie: res.headers.get('set-cookie')!.split(';')[0]!, 'x-csrf-token': csrf, origin: url };
}

interface SignUpState {
  registered: string[];
  waitlist: string[];
  names: Record<string, string>;
}

async function signUpState(url: string): Promise<SignUpState> {
  return (await (await fetch(`${url}/tournaments/${ID}/sign-up`, { headers: { accept: 'application/json' } })).json()) as SignUpState;
}

for (const where of [onSqlite(), onPostgres()]) {
  describe.skipIf(!where.available)(`two server processes on ${where.name}`, () => {
    const servers: ServeProcess[] = [];
    let urls: [string, string];

    beforeAll(async () => {
      const { dataDir, env } = await where.prepare();
      // The per-address limits read the client's address from X-Real-IP, as nginx sends it.
      const started = await Promise.allSettled([0, 1].map(() => startServeProcess(dataDir, 0, ['--no-demo'], { ...env, TRUST_PROXY: '127.0.0.1' })));
      servers.push(...started.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : [])));
      for (const s of started) if (s.status === 'rejected') throw s.reason;
      urls = [`http://127.0.0.1:${servers[0]!.port}`, `http://127.0.0.1:${servers[1]!.port}`];
    }, 120_000);

    afterAll(async () => {
      await Promise.all(servers.map((s) => killHard(s.child)));
      await where.stop();
      removeTempDirs();
    });

    it(`answers ${SIGN_UPS} sign-ups at once, split between them, against a cap of ${CAP}: ${CAP} registered and the rest waitlisted in the order answered, every answer 200`, async () => {
      const answers = await Promise.all(
        Array.from({ length: SIGN_UPS }, (_, i) =>
          send(
            urls[i % 2]!,
            `/tournaments/${ID}/sign-up`,
            { name: `Team ${i + 1}`, player1: `Ann ${i + 1}`, player2: `Bo ${i + 1}` },
            { 'x-real-ip': `10.1.${i >> 8}.${(i % 250) + 1}` },
          ),
        ),
      );
      expect(answers.filter((a) => a.status !== 200)).toEqual([]);
      const registered = answers.filter((a) => a.body.status === 'registered');
      const waitlisted = answers.filter((a) => a.body.status === 'waitlisted');
      expect(registered).toHaveLength(CAP);
      expect(waitlisted).toHaveLength(SIGN_UPS - CAP);
      // Each waitlisted team was told its own place, 1 to 52, none twice.
      expect(waitlisted.map((a) => a.body.place as number).sort((x, y) => x - y)).toEqual(Array.from({ length: SIGN_UPS - CAP }, (_, i) => i + 1));

      // Both processes hold what the answers said: the registered, and the waitlist in the places given.
      const byPlace = [...waitlisted].sort((x, y) => (x.body.place as number) - (y.body.place as number)).map((a) => a.body.teamId);
      for (const url of urls) {
        let state = await signUpState(url);
        for (let i = 0; i < 40 && state.registered.length + state.waitlist.length < SIGN_UPS; i++) {
          await new Promise((resolve) => setTimeout(resolve, 50));
          state = await signUpState(url);
        }
        expect(new Set(state.registered)).toEqual(new Set(registered.map((a) => a.body.teamId)));
        expect(state.waitlist).toEqual(byPlace);
      }
    }, 60_000);

    it('answers 20 desk actions at once, split between them, with 200 or a refusal in the room’s words', async () => {
      // One sign-in at a time: a name is checked once at a time from one address.
      const heads = [await signIn(urls[0]!), await signIn(urls[1]!)];
      const state = await signUpState(urls[0]!);
      // From both desks at once: six registered teams checked in, the other two withdrawn (each
      // freeing its place for the first on the waitlist), sign-up closed, and a cap below the field.
      const once = [200, 409];
      const actions = [
        ...state.registered.slice(0, 6).map((teamId) => ({
          path: `/director/tournaments/${ID}/check-in`,
          body: { teamId },
          statuses: once,
          refusal: `'${state.names[teamId]}' is already checked in`,
        })),
        ...state.registered.slice(6).map((teamId) => ({
          path: `/director/tournaments/${ID}/withdraw`,
          body: { teamId },
          statuses: once,
          refusal: `'${state.names[teamId]}' has already withdrawn`,
        })),
        { path: `/director/tournaments/${ID}/sign-up`, body: { open: false }, statuses: once, refusal: 'sign-up for tournament burst is not open' },
        {
          path: `/director/tournaments/${ID}/sign-up`,
          body: { open: true, cap: 7 },
          statuses: [409, 409],
          refusal: '8 entrants are already registered, so the cap cannot be 7',
        },
      ];
      const answers = await Promise.all(actions.flatMap((action) => [0, 1].map((i) => send(urls[i]!, action.path, action.body, heads[i]))));
      expect(answers).toHaveLength(20);
      actions.forEach((action, i) => {
        const pair = answers.slice(2 * i, 2 * i + 2);
        // One desk's action is recorded; the other's, decided again after it, is refused for what it now is.
        expect(pair.map((a) => a.status).sort()).toEqual(action.statuses);
        for (const refused of pair.filter((a) => a.status === 409)) expect(String(refused.body.error)).toContain(action.refusal);
      });
      // Both processes hold the same: two promoted from the waitlist, sign-up closed.
      const after = await Promise.all(urls.map((url) => signUpState(url)));
      expect(after[0]!.registered).toHaveLength(CAP);
      expect(after[0]!.registered).toEqual(expect.arrayContaining(state.waitlist.slice(0, 2)));
      for (const answer of answers) expect(JSON.stringify(answer.body)).not.toMatch(STORE_WORDS);
    }, 60_000);
  });
}

/**
 * The sign-in state in a PostgreSQL database, so that every server process on it shares the
 * accounts, the sessions and their generations, the table code rotations and the counts of
 * the rate limits. The same tables and columns as in the ledger file (sqlite.ts).
 *
 * What stands in for the file's single write lock: a step that writes more than one row runs in
 * one transaction, and the hit log's read-then-count step holds a transaction-scoped advisory
 * lock on each key it reads (`pg_advisory_xact_lock`), so parallel attempts on any number of
 * processes are counted one after another and none slips past a limit. Forgetting expired rows
 * skips rows another step is already deleting, so two such steps never wait on each other.
 * Times are milliseconds since the epoch in `bigint` columns; the pool is the caller's, and so
 * is closing it.
 */
import { randomBytes } from 'node:crypto';
import { type Kysely, sql } from 'kysely';
import { pgStorageFaultOf } from '../../../events/store/postgres/event-store.ts';
import {
  type AccountStore,
  type AuthStorage,
  type HitStore,
  type NewHit,
  type SessionStore,
  type SessionRow,
  type TableCodeStore,
  hitView,
  storedSession,
} from './auth-storage.ts';

type Bigint = number | string;
type AuthTables = {
  users: { name: string; role: string; password: string; created_at: string; display_name: string | null };
  auth_settings: { name: string; value: string };
  sessions: SessionRow<Bigint>;
  session_generations: { account: string; generation: number };
  table_code_rotations: { tournament_id: string; table_number: number; rotation: number };
  rate_limit_hits: { id: Bigint; key: string; at: Bigint };
};
type Db = Kysely<AuthTables>;

// Any number of processes may start at once: creating the tables takes this lock first, since
// two CREATE TABLE IF NOT EXISTS racing can both try to create. The hit log's key locks are
// two-key advisory locks under HIT_LOCKS, apart from every one-key lock.
const SCHEMA_LOCK = 0x5_ba_de_a;
const HIT_LOCKS = 0x5_ba_de;

const TABLES = ['users', 'auth_settings', 'sessions', 'session_generations', 'table_code_rotations', 'rate_limit_hits'];

// A name is one account whatever its case, as the file's `COLLATE NOCASE` makes it.
const SCHEMA = sql`
CREATE TABLE IF NOT EXISTS users (
  name text PRIMARY KEY,
  role text NOT NULL CHECK (role IN ('director', 'judge')),
  password text NOT NULL,
  created_at text NOT NULL
);
CREATE UNIQUE INDEX IF NOT EXISTS users_name_nocase ON users (lower(name));
-- A database from before display names gains the column, empty: such an account is shown by
-- its sign-in name until given a display name of its own.
ALTER TABLE users ADD COLUMN IF NOT EXISTS display_name text;
CREATE TABLE IF NOT EXISTS auth_settings (
  name text PRIMARY KEY,
  value text NOT NULL
);
CREATE TABLE IF NOT EXISTS sessions (
  id text PRIMARY KEY,
  account text NOT NULL,
  role text NOT NULL,
  name text NOT NULL,
  tournament_id text,
  table_number integer,
  generation integer NOT NULL,
  csrf text NOT NULL,
  started_at bigint NOT NULL,
  seen_at bigint NOT NULL,
  address text NOT NULL,
  agent text NOT NULL
);
CREATE INDEX IF NOT EXISTS sessions_account ON sessions (account);
CREATE TABLE IF NOT EXISTS session_generations (
  account text PRIMARY KEY,
  generation integer NOT NULL
);
CREATE TABLE IF NOT EXISTS table_code_rotations (
  tournament_id text NOT NULL,
  table_number integer NOT NULL,
  rotation integer NOT NULL,
  CONSTRAINT table_code_rotations_key PRIMARY KEY (tournament_id, table_number)
);
CREATE TABLE IF NOT EXISTS rate_limit_hits (
  id bigserial PRIMARY KEY,
  key text NOT NULL,
  at bigint NOT NULL
);
CREATE INDEX IF NOT EXISTS rate_limit_hits_key_at ON rate_limit_hits (key, at);
`;

/** Whether every sign-in table is in place, so a role that may not create tables can still use them. */
async function installed(db: Db): Promise<boolean> {
  const { rows } = await sql<{ missing: Bigint }>`SELECT count(*) FILTER (WHERE to_regclass(t) IS NULL) AS missing FROM unnest(${TABLES}::text[]) AS t`.execute(
    db,
  );
  if (Number(rows[0]!.missing) !== 0) return false;
  const columns = await sql<{
    n: Bigint;
  }>`SELECT count(*) AS n FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = 'users' AND column_name = 'display_name'`.execute(
    db,
  );
  return Number(columns.rows[0]!.n) === 1;
}

/** Creates the sign-in tables where they are missing; safe to run from many processes at once. */
async function createTables(db: Db): Promise<void> {
  if (await installed(db)) return;
  await db.transaction().execute(async (trx) => {
    await sql`SELECT pg_advisory_xact_lock(${sql.lit(SCHEMA_LOCK)})`.execute(trx);
    await SCHEMA.execute(trx);
  });
}

/** The database's signing key, made (by whichever process comes first) when it has none. */
async function secretOf(db: Db): Promise<string> {
  const read = async () => (await db.selectFrom('auth_settings').select('value').where('name', '=', 'session-secret').executeTakeFirst())?.value;
  const found = await read();
  if (found) return found;
  const made = randomBytes(32).toString('base64url');
  await db
    .insertInto('auth_settings')
    .values({ name: 'session-secret', value: made })
    .onConflict((oc) => oc.column('name').doNothing())
    .execute();
  return (await read())!;
}

/** Each method as given, but answering a database that cannot be reached as the ledger's storage faults are (503). */
function withStorageFaults<T extends object>(store: T): T {
  const wrapped = {} as Record<string, unknown>;
  for (const [name, method] of Object.entries(store)) {
    wrapped[name] = async (...args: unknown[]) => {
      try {
        return await (method as (...a: unknown[]) => Promise<unknown>)(...args);
      } catch (error) {
        throw pgStorageFaultOf(error) ?? error;
      }
    };
  }
  return wrapped as T;
}

/** Ends every session of an account started until now, inside the caller's transaction. */
async function endAccount(trx: Db, account: string): Promise<void> {
  await trx
    .insertInto('session_generations')
    .values({ account, generation: 1 })
    .onConflict((oc) => oc.column('account').doUpdateSet({ generation: sql<number>`session_generations.generation + 1` }))
    .execute();
  await trx.deleteFrom('sessions').where('account', '=', account).execute();
}

// An account from before display names is shown by its sign-in name.
const displayName = sql<string>`coalesce(display_name, name)`.as('displayName');

function postgresAccounts(db: Db): AccountStore {
  return {
    find: async (name) =>
      (await db
        .selectFrom('users')
        .select(['name', displayName, 'role', 'password'])
        .where(sql<string>`lower(name)`, '=', sql<string>`lower(${name})`)
        .executeTakeFirst()) ?? null,
    list: () => db.selectFrom('users').select(['name', displayName, 'role']).orderBy(sql`lower(name)`).orderBy('name').execute(),
    save: (user, endSessionsOf) =>
      db.transaction().execute(async (trx) => {
        // Two saves of one name at once (two processes setting up the same account) take turns:
        // the second finds the first's row and updates it, rather than tripping the primary key.
        await sql`SELECT pg_advisory_xact_lock(hashtext(${`user:${user.name.toLowerCase()}`}))`.execute(trx);
        await trx
          .insertInto('users')
          .values({ name: user.name, display_name: user.displayName, role: user.role, password: user.password, created_at: user.createdAt })
          .onConflict((oc) => oc.expression(sql`lower(name)`).doUpdateSet({ display_name: user.displayName, role: user.role, password: user.password }))
          .execute();
        if (endSessionsOf !== null) await endAccount(trx, endSessionsOf);
      }),
  };
}

function postgresSessions(db: Db): SessionStore {
  const rows = () =>
    db
      .selectFrom('sessions')
      .leftJoin('session_generations', 'session_generations.account', 'sessions.account')
      .selectAll('sessions')
      .select('session_generations.generation as current');
  return {
    start: (session, expired) =>
      db.transaction().execute(async (trx) => {
        const over = trx
          .selectFrom('sessions')
          .select('id')
          .where((eb) => eb.or([eb('seen_at', '<=', expired.seenBy), eb('started_at', '<=', expired.startedBy)]));
        await trx.deleteFrom('sessions').where('id', 'in', over.forUpdate().skipLocked()).execute();
        // The generation is read in the insert itself: a sign-out committed before it ends this
        // session too (its generation is then behind), one committed after it deletes its row.
        const generation = trx.selectFrom('session_generations').select('generation').where('account', '=', session.account);
        await trx
          .insertInto('sessions')
          .values({
            id: session.id,
            account: session.account,
            role: session.role,
            name: session.name,
            tournament_id: session.tournamentId,
            table_number: session.table,
            generation: sql<number>`coalesce((${generation}), 0)`,
            csrf: session.csrf,
            started_at: session.startedAt,
            seen_at: session.seenAt,
            address: session.address,
            agent: session.agent,
          })
          .execute();
      }),
    find: async (id) => {
      const row = await rows().where('sessions.id', '=', id).executeTakeFirst();
      return row ? storedSession(row) : null;
    },
    touch: async (id, at) => void (await db.updateTable('sessions').set({ seen_at: at }).where('id', '=', id).where('seen_at', '<', at).execute()),
    list: async (account) => (await rows().where('sessions.account', '=', account).orderBy('sessions.seen_at', 'desc').execute()).map(storedSession),
    endOne: async (account, id) => (await db.deleteFrom('sessions').where('id', '=', id).where('account', '=', account).returning('id').execute()).length > 0,
    endOthers: async (account, keep) =>
      (await db.deleteFrom('sessions').where('account', '=', account).where('id', '!=', keep).returning('id').execute()).length,
    endAccount: (account) => db.transaction().execute((trx) => endAccount(trx, account)),
  };
}

function postgresTableCodes(db: Db): TableCodeStore {
  return {
    async rotations(tournamentId) {
      let query = db.selectFrom('table_code_rotations').selectAll();
      if (tournamentId !== undefined) query = query.where('tournament_id', '=', tournamentId);
      return (await query.execute()).map((r) => ({ tournamentId: r.tournament_id, table: r.table_number, rotation: r.rotation }));
    },
    rotate: (tournamentId, table, account) =>
      db.transaction().execute(async (trx) => {
        const row = await trx
          .insertInto('table_code_rotations')
          .values({ tournament_id: tournamentId, table_number: table, rotation: 1 })
          .onConflict((oc) => oc.columns(['tournament_id', 'table_number']).doUpdateSet({ rotation: sql<number>`table_code_rotations.rotation + 1` }))
          .returning('rotation')
          .executeTakeFirstOrThrow();
        await endAccount(trx, account);
        return row.rotation;
      }),
  };
}

function postgresHits(db: Db): HitStore {
  const read = async (trx: Db, keys: readonly string[], since: number) => {
    const rows = await trx
      .selectFrom('rate_limit_hits')
      .select(['key', 'at'])
      .where('key', 'in', [...keys])
      .where('at', '>=', since)
      .orderBy('at')
      .execute();
    return hitView(rows.map((r) => ({ key: r.key, at: Number(r.at) })));
  };
  const insert = (trx: Db, hits: readonly NewHit[]) =>
    trx
      .insertInto('rate_limit_hits')
      .values(hits.map(({ key, at }) => ({ key, at }) as AuthTables['rate_limit_hits']))
      .returning(['id', 'key', 'at'])
      .execute();
  return {
    read: (keys, since) => read(db, keys, since),
    take: (keys, since, decide) =>
      db.transaction().execute(async (trx) => {
        // One lock per key, taken in the order of their hashes (PostgreSQL evaluates the locks
        // after sorting), so two steps sharing keys queue up rather than wait on each other.
        await sql`
          SELECT pg_advisory_xact_lock(${sql.lit(HIT_LOCKS)}, h)
          FROM (SELECT DISTINCT hashtext(k) AS h FROM unnest(${[...keys]}::text[]) AS k) AS held
          ORDER BY h`.execute(trx);
        const decision = decide(await read(trx, keys, since));
        if (decision.hits.length === 0) return { value: decision.value, ids: [] };
        if (decision.forgetBefore !== undefined) {
          const old = trx.selectFrom('rate_limit_hits').select('id').where('at', '<', decision.forgetBefore);
          await trx.deleteFrom('rate_limit_hits').where('id', 'in', old.forUpdate().skipLocked()).execute();
        }
        // Matched back by key and time, as RETURNING promises no order.
        const added = await insert(trx, decision.hits);
        const ids = decision.hits.map((hit) => {
          const index = added.findIndex((row) => row.key === hit.key && Number(row.at) === hit.at);
          return Number(added.splice(index, 1)[0]!.id);
        });
        return { value: decision.value, ids };
      }),
    add: async (key, at) => Number((await insert(db, [{ key, at }]))[0]!.id),
    async remove(ids) {
      if (ids.length > 0)
        await db
          .deleteFrom('rate_limit_hits')
          .where('id', 'in', [...ids])
          .execute();
    },
  };
}

/**
 * The sign-in state kept in the PostgreSQL database `kysely` is connected to: creates its tables
 * where they are missing and the signing key when there is none. The connections are the
 * caller's to close (`kysely.destroy()`, or the event store's `close()` for its own).
 */
// biome-ignore lint/suspicious/noExplicitAny: the ledger's own database handle, whose tables are the ledger's types, not these
export async function postgresAuthStorage(kysely: Kysely<any>): Promise<AuthStorage> {
  const db = kysely.withTables<AuthTables>() as unknown as Db;
  let secret: string;
  try {
    await createTables(db);
    secret = await secretOf(db);
  } catch (error) {
    throw pgStorageFaultOf(error) ?? error;
  }
  return {
    secret,
    place: 'the database',
    accounts: withStorageFaults(postgresAccounts(db)),
    sessions: withStorageFaults(postgresSessions(db)),
    tableCodes: withStorageFaults(postgresTableCodes(db)),
    hits: withStorageFaults(postgresHits(db)),
  };
}

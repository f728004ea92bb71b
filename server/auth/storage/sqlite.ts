/**
 * The sign-in state in the ledger's own SQLite file, beside the events but outside them (a
 * password change is not a tournament event, and the hash chain should not carry password
 * hashes). Each method does its whole step synchronously, in one transaction where it writes
 * more than one row, and answers with a promise already settled: no transaction is ever open
 * across an await, so an append the same connection makes meanwhile can never be rolled back
 * with someone else's step. Several server processes on one file share every row.
 */
import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { type LedgerDatabase, executeSync, openDatabase } from '../../../events/store/sqlite/database.ts';
import type { SqliteServedLedger } from '../../../events/store/sqlite/served-ledger.ts';
import { type LedgerHandle, servedOf } from '../../../events/store/served-ledger.ts';
import {
  type AccountStore,
  type AuthStorage,
  type HitStore,
  type SessionStore,
  type SessionRow,
  type TableCodeStore,
  hitView,
  storedSession,
} from './auth-storage.ts';

type UsersTable = { name: string; role: string; password: string; created_at: string; display_name: string | null };
type AuthSettingsTable = { name: string; value: string };
type SessionsTable = SessionRow;
type GenerationsTable = { account: string; generation: number };
type RotationsTable = { tournament_id: string; table_number: number; rotation: number };
type HitsTable = { id: number; key: string; at: number };
type AuthTables = {
  users: UsersTable;
  auth_settings: AuthSettingsTable;
  sessions: SessionsTable;
  session_generations: GenerationsTable;
  table_code_rotations: RotationsTable;
  rate_limit_hits: HitsTable;
};

// The tables as the file has always had them, so a file from before keeps its accounts and sessions.
const USERS_SCHEMA = `
CREATE TABLE IF NOT EXISTS users (
  name TEXT PRIMARY KEY COLLATE NOCASE,
  role TEXT NOT NULL CHECK (role IN ('director', 'judge')),
  password TEXT NOT NULL,
  created_at TEXT NOT NULL
) STRICT;
CREATE TABLE IF NOT EXISTS auth_settings (
  name TEXT PRIMARY KEY,
  value TEXT NOT NULL
) STRICT;
`;

const tablesOf = (database: LedgerDatabase) => database.kysely.withTables<AuthTables>();

/**
 * Gives a file's accounts the display name column when the file is from before it: empty, so
 * each such account is shown by its sign-in name until given a display name of its own. Another
 * process may add it at the same moment; either way the column is there after.
 */
function addDisplayNames(database: LedgerDatabase): void {
  const has = () => (database.sqlite.prepare(`SELECT count(*) AS n FROM pragma_table_info('users') WHERE name = 'display_name'`).get() as { n: number }).n > 0;
  if (has()) return;
  try {
    database.sqlite.exec('ALTER TABLE users ADD COLUMN display_name TEXT');
  } catch (error) {
    if (!has()) throw error;
  }
}

/** Creates the sign-in tables where the file does not have them yet. */
function createTables(database: LedgerDatabase): void {
  const db = tablesOf(database);
  database.sqlite.exec(USERS_SCHEMA);
  addDisplayNames(database);
  executeSync(
    database,
    db.schema
      .createTable('sessions')
      .ifNotExists()
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('account', 'text', (c) => c.notNull())
      .addColumn('role', 'text', (c) => c.notNull())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('tournament_id', 'text')
      .addColumn('table_number', 'integer')
      .addColumn('generation', 'integer', (c) => c.notNull())
      .addColumn('csrf', 'text', (c) => c.notNull())
      .addColumn('started_at', 'integer', (c) => c.notNull())
      .addColumn('seen_at', 'integer', (c) => c.notNull())
      .addColumn('address', 'text', (c) => c.notNull())
      .addColumn('agent', 'text', (c) => c.notNull())
      .modifyEnd(sql`STRICT`),
  );
  executeSync(database, db.schema.createIndex('sessions_account').ifNotExists().on('sessions').column('account'));
  executeSync(
    database,
    db.schema
      .createTable('session_generations')
      .ifNotExists()
      .addColumn('account', 'text', (c) => c.primaryKey())
      .addColumn('generation', 'integer', (c) => c.notNull())
      .modifyEnd(sql`STRICT`),
  );
  executeSync(
    database,
    db.schema
      .createTable('table_code_rotations')
      .ifNotExists()
      .addColumn('tournament_id', 'text', (c) => c.notNull())
      .addColumn('table_number', 'integer', (c) => c.notNull())
      .addColumn('rotation', 'integer', (c) => c.notNull())
      .addPrimaryKeyConstraint('table_code_rotations_key', ['tournament_id', 'table_number'])
      .modifyEnd(sql`STRICT`),
  );
  executeSync(
    database,
    db.schema
      .createTable('rate_limit_hits')
      .ifNotExists()
      .addColumn('id', 'integer', (c) => c.primaryKey())
      .addColumn('key', 'text', (c) => c.notNull())
      .addColumn('at', 'integer', (c) => c.notNull())
      .modifyEnd(sql`STRICT`),
  );
  executeSync(database, db.schema.createIndex('rate_limit_hits_key_at').ifNotExists().on('rate_limit_hits').columns(['key', 'at']));
}

/** The file's signing key, made (by whichever process comes first) when it has none. */
function secretOf(database: LedgerDatabase): string {
  const db = tablesOf(database);
  const read = () => executeSync(database, db.selectFrom('auth_settings').select('value').where('name', '=', 'session-secret'))[0]?.value;
  const found = read();
  if (found) return found;
  const made = randomBytes(32).toString('base64url');
  executeSync(
    database,
    db
      .insertInto('auth_settings')
      .values({ name: 'session-secret', value: made })
      .onConflict((oc) => oc.doNothing()),
  );
  return read()!;
}

/** Ends every session of an account started until now; inside the caller's transaction. */
function endAccountSync(database: LedgerDatabase, account: string): void {
  const db = tablesOf(database);
  executeSync(
    database,
    db
      .insertInto('session_generations')
      .values({ account, generation: 1 })
      .onConflict((oc) => oc.column('account').doUpdateSet({ generation: sql<number>`generation + 1` })),
  );
  executeSync(database, db.deleteFrom('sessions').where('account', '=', account));
}

// An account from before display names is shown by its sign-in name.
const displayName = sql<string>`coalesce(display_name, name)`.as('displayName');

function sqliteAccounts(database: LedgerDatabase): AccountStore {
  const db = tablesOf(database);
  return {
    find: async (name) => executeSync(database, db.selectFrom('users').select(['name', displayName, 'role', 'password']).where('name', '=', name))[0] ?? null,
    list: async () => executeSync(database, db.selectFrom('users').select(['name', displayName, 'role']).orderBy('name')),
    async save(user, endSessionsOf) {
      database.sqlite
        .transaction(() => {
          executeSync(
            database,
            db
              .insertInto('users')
              .values({ name: user.name, display_name: user.displayName, role: user.role, password: user.password, created_at: user.createdAt })
              .onConflict((oc) => oc.column('name').doUpdateSet({ display_name: user.displayName, role: user.role, password: user.password })),
          );
          if (endSessionsOf !== null) endAccountSync(database, endSessionsOf);
        })
        .immediate();
    },
  };
}

function sqliteSessions(database: LedgerDatabase): SessionStore {
  const db = tablesOf(database);
  const rows = () =>
    db
      .selectFrom('sessions')
      .leftJoin('session_generations', 'session_generations.account', 'sessions.account')
      .selectAll('sessions')
      .select('session_generations.generation as current');
  return {
    async start(session, expired) {
      database.sqlite
        .transaction(() => {
          executeSync(
            database,
            db.deleteFrom('sessions').where((eb) => eb.or([eb('seen_at', '<=', expired.seenBy), eb('started_at', '<=', expired.startedBy)])),
          );
          const generation =
            executeSync(database, db.selectFrom('session_generations').select('generation').where('account', '=', session.account))[0]?.generation ?? 0;
          executeSync(
            database,
            db.insertInto('sessions').values({
              id: session.id,
              account: session.account,
              role: session.role,
              name: session.name,
              tournament_id: session.tournamentId,
              table_number: session.table,
              generation,
              csrf: session.csrf,
              started_at: session.startedAt,
              seen_at: session.seenAt,
              address: session.address,
              agent: session.agent,
            }),
          );
        })
        .immediate();
    },
    find: async (id) => {
      const row = executeSync(database, rows().where('sessions.id', '=', id))[0];
      return row ? storedSession(row) : null;
    },
    touch: async (id, at) => void executeSync(database, db.updateTable('sessions').set({ seen_at: at }).where('id', '=', id).where('seen_at', '<', at)),
    list: async (account) => executeSync(database, rows().where('sessions.account', '=', account).orderBy('sessions.seen_at', 'desc')).map(storedSession),
    endOne: async (account, id) =>
      executeSync(database, db.deleteFrom('sessions').where('id', '=', id).where('account', '=', account).returning('id')).length > 0,
    endOthers: async (account, keep) =>
      executeSync(database, db.deleteFrom('sessions').where('account', '=', account).where('id', '!=', keep).returning('id')).length,
    endAccount: async (account) => database.sqlite.transaction(() => endAccountSync(database, account)).immediate(),
  };
}

function sqliteTableCodes(database: LedgerDatabase): TableCodeStore {
  const db = tablesOf(database);
  return {
    async rotations(tournamentId) {
      let query = db.selectFrom('table_code_rotations').selectAll();
      if (tournamentId !== undefined) query = query.where('tournament_id', '=', tournamentId);
      return executeSync(database, query).map((r) => ({ tournamentId: r.tournament_id, table: r.table_number, rotation: r.rotation }));
    },
    async rotate(tournamentId, table, account) {
      return database.sqlite
        .transaction(() => {
          const [row] = executeSync(
            database,
            db
              .insertInto('table_code_rotations')
              .values({ tournament_id: tournamentId, table_number: table, rotation: 1 })
              .onConflict((oc) => oc.columns(['tournament_id', 'table_number']).doUpdateSet({ rotation: sql<number>`rotation + 1` }))
              .returning('rotation'),
          );
          endAccountSync(database, account);
          return row!.rotation;
        })
        .immediate();
    },
  };
}

/** The hit log in the file's `rate_limit_hits` table. */
function sqliteHitStore(database: LedgerDatabase): HitStore {
  const db = tablesOf(database);
  const read = (keys: readonly string[], since: number) =>
    hitView(
      executeSync(
        database,
        db
          .selectFrom('rate_limit_hits')
          .select(['key', 'at'])
          .where('key', 'in', [...keys])
          .where('at', '>=', since)
          .orderBy('at'),
      ),
    );
  const add = (key: string, at: number) =>
    executeSync(
      database,
      db
        .insertInto('rate_limit_hits')
        .values({ key, at } as HitsTable)
        .returning('id'),
    )[0]!.id;
  return {
    read: async (keys, since) => read(keys, since),
    // The file's write lock is taken before the read, so no other writer counts in between.
    take: async (keys, since, decide) =>
      database.sqlite
        .transaction(() => {
          const decision = decide(read(keys, since));
          if (decision.hits.length > 0 && decision.forgetBefore !== undefined) {
            executeSync(database, db.deleteFrom('rate_limit_hits').where('at', '<', decision.forgetBefore));
          }
          return { value: decision.value, ids: decision.hits.map((hit) => add(hit.key, hit.at)) };
        })
        .immediate(),
    add: async (key, at) => add(key, at),
    async remove(ids) {
      if (ids.length > 0) executeSync(database, db.deleteFrom('rate_limit_hits').where('id', 'in', [...ids]));
    },
  };
}

/** The sign-in state kept in a ledger file; creates its tables (and the signing key) on first use. */
export function sqliteAuthStorage(database: LedgerDatabase): AuthStorage {
  createTables(database);
  return {
    secret: secretOf(database),
    place: 'the ledger file',
    accounts: sqliteAccounts(database),
    sessions: sqliteSessions(database),
    tableCodes: sqliteTableCodes(database),
    hits: sqliteHitStore(database),
  };
}

/** Sign-in state that lives as long as the process: what a limit counts when given nowhere to keep it. */
export function memoryAuthStorage(): AuthStorage {
  return sqliteAuthStorage(openDatabase({ path: ':memory:' }));
}

/**
 * The sign-in state in the ledger's own file, given the file's ledger or the server's ledger over
 * it. A ledger in PostgreSQL has no file: its sign-in state goes in the database (postgres.ts).
 */
export function ledgerFileStorage(handle: LedgerHandle): AuthStorage {
  const served = servedOf(handle);
  if (served.backend !== 'sqlite')
    throw new Error('a ledger on PostgreSQL needs its sign-in state on PostgreSQL too: pass a storage such as postgresAuthStorage');
  return sqliteAuthStorage((served as SqliteServedLedger).ledger.database);
}

/**
 * Which ledger a command works on: a PostgreSQL database when `--db` or DATABASE_URL is a
 * postgres:// URL, otherwise a SQLite file (`--db FILE`, or the default under DATA_DIR). `--db`
 * comes first, so a file can be named while DATABASE_URL is set. Each is opened here, or
 * refused in one line.
 */
import { UsageError } from './io.ts';
import { LedgerFileError, type LedgerDatabase, defaultDatabasePath, openDatabase } from '../../events/store/sqlite/database.ts';
import { type PgEventStore, openPostgresStore, pgStorageFaultOf, shownPgUrl } from '../../events/store/postgres/event-store.ts';
import type { LedgerTools } from '../../events/store/ledger-tools.ts';
import { fileLedgerTools } from '../../events/store/sqlite/ledger-tools.ts';
import { postgresLedgerTools } from '../../events/store/postgres/ledger-tools.ts';

export type LedgerTarget = { kind: 'sqlite'; path: string | undefined } | PostgresTarget;

export interface PostgresTarget {
  kind: 'postgres';
  url: string;
  /** The URL as it may be printed: without a password. */
  name: string;
}

const POSTGRES_URL = /^postgres(ql)?:\/\//i;

/** The ledger named by `--db`, else by DATABASE_URL, else the default file; refuses a DATABASE_URL that is not PostgreSQL's. */
export function ledgerTarget(command: string, db: string | undefined, env: Record<string, string | undefined> = process.env): LedgerTarget {
  if (db !== undefined) return POSTGRES_URL.test(db) ? { kind: 'postgres', url: db, name: shownPgUrl(db) } : { kind: 'sqlite', path: db };
  const url = env.DATABASE_URL;
  if (url === undefined || url === '') return { kind: 'sqlite', path: undefined };
  // Not echoed: a connection string of some other kind may carry a password.
  if (!POSTGRES_URL.test(url))
    throw new UsageError(`spades ${command}: DATABASE_URL is set but is not a postgres:// or postgresql:// URL; unset it to use the ledger file`);
  return { kind: 'postgres', url, name: shownPgUrl(url) };
}

/** Why PostgreSQL refused: the storage fault's reason, without the connection string's password. */
export function pgRefusal(error: unknown): string {
  return pgStorageFaultOf(error)?.reason ?? (error as Error).message;
}

/**
 * Opens the PostgreSQL ledger, runs `use` on it and closes it. A database that cannot be reached,
 * or (with `existing`) holds no ledger, or fails midway, is refused in one line (exit 2).
 */
export async function withPostgresLedger<T>(
  command: string,
  target: PostgresTarget,
  options: { existing: boolean },
  use: (store: PgEventStore) => Promise<T>,
): Promise<T> {
  let store: PgEventStore;
  try {
    store = await openPostgresStore({ url: target.url, existing: options.existing, poolSize: 2 });
  } catch (error) {
    throw new UsageError(`spades ${command}: cannot open the ledger at ${target.name}: ${pgRefusal(error)}`);
  }
  try {
    return await use(store);
  } catch (error) {
    const fault = pgStorageFaultOf(error);
    if (fault) throw new UsageError(`spades ${command}: ${target.name}: ${fault.message}`);
    throw error;
  } finally {
    await store.close();
  }
}

/** Opens the ledger file named by `--db` (or the default one) for reading, or refuses with one line. */
export function openLedgerForReading(command: string, path: string | undefined): LedgerDatabase {
  try {
    return openDatabase({ path: path ?? defaultDatabasePath(), readonly: true });
  } catch (error) {
    if (error instanceof LedgerFileError) throw new UsageError(`spades ${command}: ${error.message}`);
    throw error;
  }
}

/**
 * Opens the ledger named, whichever store holds it, for the tools that only read it (verify,
 * export), runs `use` on it and closes it; what cannot be opened is refused in one line.
 */
export async function withLedgerTools<T>(command: string, target: LedgerTarget, use: (tools: LedgerTools) => Promise<T>): Promise<T> {
  if (target.kind === 'postgres') return withPostgresLedger(command, target, { existing: true }, (store) => use(postgresLedgerTools(store, target.name)));
  const database = openLedgerForReading(command, target.path);
  try {
    return await use(fileLedgerTools(database));
  } finally {
    database.close();
  }
}

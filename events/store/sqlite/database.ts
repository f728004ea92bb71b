/**
 * The SQLite file the ledger lives in. Opening it sets it up: WAL so readers never block the
 * writer, `synchronous=FULL` so an acknowledged append survives a power cut, and the schema
 * created in place (there is no separate migration step to forget).
 */
import BetterSqlite3 from 'better-sqlite3';
import { type Compilable, Kysely, SqliteDialect } from 'kysely';
import { existsSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { ChainedRow } from '../../hash-chain.ts';

/** One ledger row. Columns are snake_case as stored; `hash-chain.ts` says what is hashed. */
export type EventsTable = ChainedRow;

/** Every table in the file. Read models add theirs with `kysely.withTables<…>()`. */
export interface Database {
  events: EventsTable;
}

/** An open ledger file: the better-sqlite3 handle for synchronous transactions and kysely for typed queries. */
export interface LedgerDatabase {
  path: string;
  sqlite: BetterSqlite3.Database;
  kysely: Kysely<Database>;
  close(): void;
}

export interface OpenDatabaseOptions {
  /** Default: `defaultDatabasePath()`. `:memory:` works for tests. */
  path?: string;
  /** FULL (default) syncs the WAL on every commit; NORMAL may lose the last commits on power loss. */
  synchronous?: 'FULL' | 'NORMAL';
  /**
   * Open an existing ledger for reading only: no schema is created, nothing can be written, and
   * no `-wal` or `-shm` file is left beside it that was not there before.
   */
  readonly?: boolean;
  /** How long a writer waits for another process's write lock before giving up. */
  busyTimeoutMs?: number;
}

/** A file that cannot be opened as a ledger; the message says which file and why. */
export class LedgerFileError extends Error {}

/** Where the ledger lives unless told otherwise: `$DATA_DIR/spades.db`, or `./data/spades.db`. */
export function defaultDatabasePath(env: Record<string, string | undefined> = process.env): string {
  return join(env.DATA_DIR || './data', 'spades.db');
}

const SCHEMA_VERSION = 1;

// STRICT so a column holds only its declared type: a value the chain hashed as a number cannot
// quietly be stored as text. The triggers make the append-only rule the file's own, not just the
// store's; someone with the file can drop them, which is what the hash chain is for.
const SCHEMA = `
CREATE TABLE IF NOT EXISTS events (
  position INTEGER PRIMARY KEY,
  stream TEXT NOT NULL,
  version INTEGER NOT NULL,
  type TEXT NOT NULL,
  schema_version INTEGER NOT NULL,
  payload TEXT NOT NULL,
  meta TEXT NOT NULL,
  command_id TEXT UNIQUE,
  prev_hash TEXT NOT NULL,
  hash TEXT NOT NULL
) STRICT;
CREATE UNIQUE INDEX IF NOT EXISTS events_stream_version ON events (stream, version);
CREATE TRIGGER IF NOT EXISTS events_no_update BEFORE UPDATE ON events
  BEGIN SELECT RAISE(ABORT, 'the ledger is append-only: events cannot be changed'); END;
CREATE TRIGGER IF NOT EXISTS events_no_delete BEFORE DELETE ON events
  BEGIN SELECT RAISE(ABORT, 'the ledger is append-only: events cannot be deleted'); END;
`;

/** Opens (creating when needed) the ledger file, with WAL, the chosen sync level and the schema in place. */
export function openDatabase(options: OpenDatabaseOptions = {}): LedgerDatabase {
  const path = options.path ?? defaultDatabasePath();
  const memory = path === ':memory:';
  if (options.readonly) {
    if (!existsSync(path)) throw new LedgerFileError(`no ledger at ${path}: the file does not exist`);
  } else if (!memory) {
    mkdirSync(dirname(path), { recursive: true });
  }
  // A reader of a WAL file makes its -wal and -shm files and, unable to write, cannot remove them
  // when it closes. When no one had the file open before (neither file there), they are tidied.
  const leftBehind = options.readonly === true && !memory && !existsSync(`${path}-wal`) && !existsSync(`${path}-shm`);
  let sqlite: BetterSqlite3.Database;
  try {
    sqlite = new BetterSqlite3(path, {
      readonly: options.readonly ?? false,
      fileMustExist: options.readonly ?? false,
      timeout: options.busyTimeoutMs ?? 5000,
    });
  } catch (error) {
    throw new LedgerFileError(`cannot open ${path}: ${(error as Error).message}`);
  }
  try {
    if (options.readonly) {
      const table = sqlite.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'events'").get();
      if (!table) throw new LedgerFileError(`${path} is not a spades ledger: it has no events table`);
    } else {
      if (!memory) sqlite.pragma('journal_mode = WAL');
      sqlite.pragma(`synchronous = ${options.synchronous ?? 'FULL'}`);
      sqlite
        .transaction(() => {
          sqlite.exec(SCHEMA);
          const version = sqlite.pragma('user_version', { simple: true }) as number;
          if (version > SCHEMA_VERSION) {
            throw new LedgerFileError(`${path} has ledger schema ${version}; this build knows up to ${SCHEMA_VERSION}`);
          }
          if (version < SCHEMA_VERSION) sqlite.pragma(`user_version = ${SCHEMA_VERSION}`);
        })
        .immediate();
    }
  } catch (error) {
    sqlite.close();
    if (leftBehind) removeWalFiles(path);
    if (error instanceof LedgerFileError) throw error;
    throw new LedgerFileError(`cannot open ${path} as a ledger: ${(error as Error).message}`);
  }
  const kysely = new Kysely<Database>({ dialect: new SqliteDialect({ database: sqlite }) });
  return {
    path,
    sqlite,
    kysely,
    close: () => {
      if (!sqlite.open) return;
      sqlite.close();
      if (leftBehind) removeWalFiles(path);
    },
  };
}

/**
 * Removes a ledger file's -wal and -shm when no connection holds it: SQLite's own last connection
 * to close does that, after folding the WAL into the file, so one is opened and closed. Another
 * process holding the file keeps them, as it must. A file that cannot be written keeps them too.
 */
function removeWalFiles(path: string): void {
  if (!existsSync(`${path}-wal`) && !existsSync(`${path}-shm`)) return;
  try {
    const tidy = new BetterSqlite3(path, { fileMustExist: true, timeout: 0 });
    try {
      // The WAL is opened, and so closed with the connection, only once something is read.
      tidy.pragma('user_version', { simple: true });
    } finally {
      tidy.close();
    }
  } catch {
    // Busy or not writable: the files stay, as they would after any reader.
  }
}

/**
 * Runs a kysely query synchronously on the better-sqlite3 handle. Inside an append's
 * transaction nothing may await, so a projection writing its read model there builds the query
 * with kysely (typed, parameters bound) and runs it with this.
 */
export function executeSync<R>(database: LedgerDatabase, query: Compilable<R>): R[] {
  const compiled = query.compile();
  const statement = database.sqlite.prepare(compiled.sql);
  const parameters = compiled.parameters as unknown[];
  if (statement.reader) return statement.all(...parameters) as R[];
  statement.run(...parameters);
  return [];
}

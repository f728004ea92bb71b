/**
 * The ledger's event store on PostgreSQL, so that many server processes on many machines can
 * share one ledger. Same rows, same hash chain bytes, same rules as the SQLite store
 * (`event-store.ts`): gapless positions, a version per stream checked inside the append's
 * transaction, command ids recognised on repeat and refused on reuse, payloads checked against
 * the event registry before anything is written, and an append-only table.
 *
 * What stands in for SQLite's single write lock is a one-row table, `ledger_head`, holding the
 * last position and its hash: every transaction that writes events locks that row (`FOR UPDATE`)
 * before it reads the head, the stream versions or a command id, so the chain stays one line and
 * every command is decided against the chain it joins. Positions come from that row, not a
 * sequence, so a rolled-back append leaves no gap. Each such transaction commits with
 * `synchronous_commit` on, and announces the new head with `NOTIFY spades_ledger, '<position>'`,
 * sent when it commits, so every process can fold what any writer recorded.
 *
 * Appends sent while a commit is in flight share the next transaction, each still checked and
 * answered on its own; appends of a process that finds the head held by another wait in
 * `ledger_intake` for the holder to chain them in its commit, and find their answers in
 * `ledger_outcomes` (group commit across processes, `group-commit.ts`).
 */
import { Kysely, PostgresDialect, type Transaction, sql } from 'kysely';
import pg from 'pg';
import { domainEvents } from '../../event-catalogue.ts';
import type { AnyEvent, EventRegistry } from '../../event-registry.ts';
import {
  type AppendOptions,
  type AppendResult,
  LedgerUnavailableError,
  type NewEvent,
  type RecordedEvent,
  type StreamAppend,
  appendResults,
  prepareAppend,
  recordedEvent,
} from '../append.ts';
import { type GroupCommitStats, groupCommitter, refusalOf, refusalText } from './group-commit.ts';
import { type WriterLinkStats, writerLink } from './writer-link.ts';
import { type ChainHead, type ChainReport, type ChainedRow, GENESIS_HASH, chainVerifier, formatDigest } from '../../hash-chain.ts';

/** The channel each append's commit is announced on, with the new head position as the payload. */
export const LEDGER_CHANNEL = 'spades_ledger';

/** The tables of a ledger on PostgreSQL. Read models add theirs with `kysely.withTables<…>()`. */
export interface PgLedgerTables {
  events: ChainedRow;
  /** One row (`id` true): the chain's head, locked by every append. */
  ledger_head: { id: boolean; position: number; hash: string };
  /** Commands waiting for the holder of the head to decide and chain them (group-commit.ts). */
  ledger_intake: { id: number; streams: string[]; command_id: string | null; command: string };
  /** What became of a command of the intake, for the process that left it there. */
  ledger_outcomes: { id: number; duplicate: boolean; first_position: number; last_position: number; refusal: string | null; at: Date };
}

export interface PostgresStoreOptions<E extends AnyEvent> {
  /** A PostgreSQL connection string: `postgresql://user@host:5432/database`. */
  url: string;
  /** Default: the domain's events (`event-catalogue.ts`). */
  registry?: EventRegistry<E>;
  /** The time recorded as `meta.at`, as an ISO string. Default: the system clock. */
  clock?: () => string;
  /** Connections the store keeps open at most. Default 10. */
  poolSize?: number;
  /** How long to wait for a connection before an append is refused as unavailable. Default 10 s. */
  connectTimeoutMs?: number;
  /** Where errors thrown by `listen` callbacks go. Default: console.error. */
  onListenerError?: (error: unknown) => void;
  /**
   * Open a ledger already set up, creating nothing: a database without the ledger's tables is
   * refused. For the commands that only read (verify, export).
   */
  existing?: boolean;
  /**
   * Take part in electing the ledger's writer process, as a server process does: the elected one
   * commits every process's appends, listening on `host` for the others (writer-link.ts), and the
   * others forward theirs to it. Without it, the store appends directly (the CLI, imports, tools).
   */
  writerLink?: { host: string; onNotice?: (line: string) => void };
}

/** The event store on PostgreSQL: the SQLite store's methods, each answering with a promise. */
export interface PgEventStore<E extends AnyEvent = AnyEvent> {
  readonly kysely: Kysely<PgLedgerTables>;
  /** Appends events to a stream in one transaction; see the module comment. */
  append(stream: string, events: readonly NewEvent<E>[], options?: AppendOptions): Promise<AppendResult<E>>;
  /**
   * Appends to several streams in one transaction: every stream's expected version is checked
   * and either all the events are recorded or none. A command id names the whole batch.
   */
  appendMany(appends: readonly StreamAppend<E>[], options?: Omit<AppendOptions, 'expectedVersion'>): Promise<AppendResult<E>[]>;
  /** Events after position `after` (default 0) in position order, at most `limit`. */
  readAll(options?: { after?: number; limit?: number }): Promise<RecordedEvent<E>[]>;
  /** A stream's events in version order, after version `after` (default 0). */
  readStream(stream: string, options?: { after?: number }): Promise<RecordedEvent<E>[]>;
  /** The stream's current version (0 when it has no events). */
  streamVersion(stream: string): Promise<number>;
  head(): Promise<ChainHead>;
  /** The head as an auditor writes it down: `position:hash`. */
  digest(): Promise<string>;
  /** Walks the chain (or up to `upTo`) a page at a time, as it stood when the walk began. */
  verifyChain(options?: { upTo?: number }): Promise<ChainReport>;
  /**
   * Calls `onHead` with the head position after each commit by any writer, over a connection of
   * its own that LISTENs. If that connection is lost it connects again and calls `onHead` with
   * the head as it then is, since announcements made meanwhile were missed. Resolves, once
   * listening, to a function that stops it.
   */
  listen(onHead: (position: number) => void): Promise<() => Promise<void>>;
  /**
   * How many transactions this store's appends took and how many appends they answered: appends
   * sent while a commit is in flight share the next transaction (see group-commit.ts).
   */
  commitStats(): GroupCommitStats & WriterLinkStats;
  /** Whether this store commits for the other server processes now (see `writerLink`). */
  isWriter(): boolean;
  /** Answers the appends already sent, then stops every listener and closes the pool. */
  close(): Promise<void>;
}

/**
 * The connection to PostgreSQL was lost after the commit was sent, so whether the append was
 * recorded is not known. Sending it again with the same command id is safe: a repeat that was
 * recorded answers with the first result. The HTTP API answers 503, as for any storage fault.
 */
export class AppendOutcomeUnknownError extends LedgerUnavailableError {
  constructor(reason: string, code: string) {
    super(reason, code);
    this.message = `the connection to the ledger was lost while the append was being committed (${reason}), so it may or may not have been recorded; send it again with the same command id to find out`;
  }
}

const COLUMNS = ['position', 'stream', 'version', 'type', 'schema_version', 'payload', 'meta', 'command_id', 'prev_hash', 'hash'] as const;

const VERIFY_PAGE = 5000;

// Any number of processes may open the ledger at once; creating the schema takes this
// transaction-scoped lock first, since two CREATE TABLE IF NOT EXISTS racing can both try to create.
const SCHEMA_LOCK = 0x5_ba_de_5;

// Statement-level triggers, so even a statement matching no row is refused, and TRUNCATE (which
// row triggers never see) too. The same words as the SQLite file's triggers. As there, someone
// who owns the table can drop them; the hash chain is what catches that.
const SCHEMA = sql`
CREATE TABLE IF NOT EXISTS events (
  position bigint PRIMARY KEY CHECK (position >= 1),
  stream text NOT NULL,
  version integer NOT NULL CHECK (version >= 1),
  type text NOT NULL,
  schema_version integer NOT NULL,
  payload text NOT NULL,
  meta text NOT NULL,
  command_id text UNIQUE,
  prev_hash text NOT NULL,
  hash text NOT NULL,
  CONSTRAINT events_stream_version UNIQUE (stream, version)
);
CREATE TABLE IF NOT EXISTS ledger_head (
  id boolean PRIMARY KEY DEFAULT true CHECK (id),
  position bigint NOT NULL,
  hash text NOT NULL
);
INSERT INTO ledger_head (id, position, hash)
  SELECT true, coalesce(max(position), 0),
         coalesce((SELECT hash FROM events ORDER BY position DESC LIMIT 1), ${sql.lit(GENESIS_HASH)})
  FROM events
ON CONFLICT (id) DO NOTHING;
CREATE TABLE IF NOT EXISTS ledger_intake (
  id bigserial PRIMARY KEY,
  streams text[] NOT NULL,
  command_id text,
  command text NOT NULL
);
CREATE TABLE IF NOT EXISTS ledger_outcomes (
  id bigint PRIMARY KEY,
  duplicate boolean NOT NULL,
  first_position bigint NOT NULL,
  last_position bigint NOT NULL,
  refusal text,
  at timestamptz NOT NULL DEFAULT now()
);
CREATE OR REPLACE FUNCTION spades_events_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'the ledger is append-only: events cannot be %', CASE TG_OP WHEN 'UPDATE' THEN 'changed' ELSE 'deleted' END;
END $$;
CREATE OR REPLACE FUNCTION spades_ledger_head_kept() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'the ledger head cannot be deleted: every append locks it';
END $$;
DO $$ BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_trigger WHERE tgname = 'events_append_only' AND tgrelid = 'events'::regclass) THEN
    CREATE TRIGGER events_append_only BEFORE UPDATE OR DELETE OR TRUNCATE ON events
      FOR EACH STATEMENT EXECUTE FUNCTION spades_events_append_only();
  END IF;
  IF NOT EXISTS (SELECT 1 FROM pg_trigger WHERE tgname = 'ledger_head_kept' AND tgrelid = 'ledger_head'::regclass) THEN
    CREATE TRIGGER ledger_head_kept BEFORE DELETE OR TRUNCATE ON ledger_head
      FOR EACH STATEMENT EXECUTE FUNCTION spades_ledger_head_kept();
  END IF;
END $$;
`;

// Recorded as the comment of ledger_head once the schema is in place, as SQLite's user_version is.
// Schema 2 added the intake and its outcomes; a ledger of schema 1 gains them when next opened.
const SCHEMA_VERSION = 2;
const SCHEMA_MARK = /^spades ledger schema (\d+)$/;

/**
 * Whether the ledger's tables are in place, at the schema version this build writes. Throws for a
 * database that is not UTF8 or holds a newer schema than this build knows.
 */
async function schemaInstalled(db: Kysely<PgLedgerTables>): Promise<boolean> {
  const { rows } = await sql<{ mark: string | null; encoding: string }>`
    SELECT obj_description(to_regclass('ledger_head'), 'pg_class') AS mark, current_setting('server_encoding') AS encoding`.execute(db);
  const { mark, encoding } = rows[0]!;
  // Payload and meta must come back byte for byte as hashed, whatever names they carry.
  if (encoding !== 'UTF8') {
    throw new Error(`the ledger needs a UTF8 database, and this one is ${encoding}: create it with ENCODING 'UTF8'`);
  }
  const version = Number(SCHEMA_MARK.exec(mark ?? '')?.[1] ?? 0);
  if (version > SCHEMA_VERSION) throw new Error(`this database holds ledger schema ${version}; this build knows up to ${SCHEMA_VERSION}`);
  return version === SCHEMA_VERSION;
}

/**
 * Creates the ledger's tables, triggers and head row where they are missing; safe to run from
 * many processes at once. A ledger already set up is only read, so a process can open one it
 * may not change (a read-only role or database) and be refused at its first append instead.
 */
export async function createPgSchema(kysely: Kysely<PgLedgerTables>): Promise<void> {
  if (await schemaInstalled(kysely)) return;
  await kysely.transaction().execute(async (trx) => {
    await sql`SELECT pg_advisory_xact_lock(${sql.lit(SCHEMA_LOCK)})`.execute(trx);
    if (await schemaInstalled(trx)) return;
    await SCHEMA.execute(trx);
    await sql`COMMENT ON TABLE ledger_head IS ${sql.lit(`spades ledger schema ${SCHEMA_VERSION}`)}`.execute(trx);
  });
}

/** Whether the database at `url` already holds the ledger's tables (empty or not). */
export async function postgresLedgerInstalled(url: string): Promise<boolean> {
  const kysely = new Kysely<PgLedgerTables>({
    dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: url, max: 1, connectionTimeoutMillis: 10_000 }) }),
  });
  try {
    const { rows } = await sql<{ t: string | null }>`SELECT to_regclass('events')::text AS t`.execute(kysely);
    return rows[0]?.t != null;
  } finally {
    await kysely.destroy();
  }
}

/** A connection string as it may be shown: without its password. */
export function shownPgUrl(url: string): string {
  try {
    const parsed = new URL(url);
    parsed.password = '';
    parsed.searchParams.delete('password');
    return parsed.toString();
  } catch {
    return 'the PostgreSQL database given';
  }
}

// bigint (position) arrives as text by default; as a number it is the same value as long as it is
// a safe integer, which a position always is (the SQLite store holds them as numbers too).
const INT8_OID = 20;
const types: pg.CustomTypesConfig = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') => {
    if (oid === INT8_OID && format !== 'binary') {
      return (text: string) => {
        const value = Number(text);
        if (!Number.isSafeInteger(value)) throw new Error(`${text} is too large for the ledger to read as a number`);
        return value;
      };
    }
    return pg.types.getTypeParser(oid, format as 'text');
  }) as pg.CustomTypesConfig['getTypeParser'],
};

// PostgreSQL's answers (SQLSTATE, by class or in full) that mean the database, not the request,
// is at fault, and the network errors that mean it cannot be reached.
const SQLSTATE_FAULTS: [string, string][] = [
  ['53100', "the database server's disk is full"],
  ['53', 'the database server is out of resources'],
  ['25006', 'the database is read-only'],
  ['58', 'the database server failed to read or write its disk'],
  ['57P', 'the database server is shutting down or not yet accepting connections'],
  ['08', 'the connection to the database failed'],
];
const NETWORK_FAULTS = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN']);

/** The storage fault a PostgreSQL or network error stands for, or null for any other error. */
export function pgStorageFaultOf(error: unknown): LedgerUnavailableError | null {
  if (error instanceof LedgerUnavailableError) return error;
  const code = (error as { code?: unknown } | null)?.code;
  const message = (error as { message?: unknown } | null)?.message;
  if (typeof code === 'string') {
    if (NETWORK_FAULTS.has(code)) return new LedgerUnavailableError(`the database server cannot be reached (${code})`, code);
    const fault = SQLSTATE_FAULTS.find(([prefix]) => code.startsWith(prefix));
    if (fault) return new LedgerUnavailableError(fault[1], code);
  }
  // pg's own words when a connection dies or cannot be made in time; they carry no code.
  if (typeof message === 'string' && /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error/i.test(message)) {
    return new LedgerUnavailableError(`the connection to the database was lost (${message})`, 'CONNECTION_LOST');
  }
  return null;
}

/** Whether a fault means the connection went away, rather than the server answering with an error. */
export function connectionLost(fault: LedgerUnavailableError): boolean {
  return NETWORK_FAULTS.has(fault.code) || fault.code.startsWith('08') || fault.code === 'CONNECTION_LOST';
}

/**
 * Locks the head row for the rest of the transaction and reads the head: every transaction that
 * writes events goes through here first, so they commit one after another and the chain stays
 * one line. Also makes this transaction's commit wait for its WAL to reach the disk.
 */
export async function lockHead(trx: Transaction<PgLedgerTables>): Promise<ChainHead> {
  // set_config(…, true) is SET LOCAL: this transaction's commit waits for its WAL to reach the
  // disk whatever the connection, role or database says, at no extra round trip.
  const { rows: heads } = await sql<ChainHead>`
    SELECT set_config('synchronous_commit', 'on', true) AS synchronous_commit, position, hash
    FROM ledger_head WHERE id FOR UPDATE`.execute(trx);
  if (heads.length === 0) throw new Error('the ledger_head row is missing, so no append can take its place in the chain');
  return { position: heads[0]!.position, hash: heads[0]!.hash };
}

/** Moves the locked head row to `head`, and announces it on LEDGER_CHANNEL when the transaction commits. */
export async function moveHead(trx: Transaction<PgLedgerTables>, head: ChainHead): Promise<void> {
  // The announcement is queued now and sent only if, and when, the transaction commits.
  await sql`
    WITH moved AS (UPDATE ledger_head SET position = ${head.position}, hash = ${head.hash} WHERE id RETURNING position)
    SELECT pg_notify(${LEDGER_CHANNEL}, position::text) FROM moved`.execute(trx);
}

/**
 * The stored rows after position `after` and up to `upTo`, in position order, a page at a time,
 * read through `db`: a transaction gives every page the same snapshot.
 */
export async function* pgRowPages(
  db: Kysely<PgLedgerTables>,
  options: { after?: number; upTo?: number; pageSize?: number } = {},
): AsyncGenerator<ChainedRow[]> {
  const upTo = options.upTo ?? Number.MAX_SAFE_INTEGER;
  const pageSize = options.pageSize ?? VERIFY_PAGE;
  let after = options.after ?? 0;
  for (;;) {
    const page = await db
      .selectFrom('events')
      .select(COLUMNS)
      .where('position', '>', after)
      .where('position', '<=', upTo)
      .orderBy('position')
      .limit(pageSize)
      .execute();
    if (page.length > 0) yield page;
    if (page.length < pageSize) return;
    after = page.at(-1)!.position;
  }
}

/** Walks the chain as `db` sees it (or up to `upTo`), a page at a time; names the first bad position. */
export async function walkPgChain(db: Kysely<PgLedgerTables>, options: { upTo?: number } = {}): Promise<ChainReport> {
  const verifier = chainVerifier();
  for await (const page of pgRowPages(db, options)) {
    for (const row of page) {
      if (verifier.feed(row)) return verifier.report();
    }
  }
  return verifier.report();
}

/** Opens the ledger on PostgreSQL, creating its tables where they are missing. */
export async function openPostgresStore<E extends AnyEvent = AnyEvent>(options: PostgresStoreOptions<E>): Promise<PgEventStore<E>> {
  const registry = options.registry ?? (domainEvents as unknown as EventRegistry<E>);
  const clock = options.clock ?? (() => new Date().toISOString());
  const onListenerError = options.onListenerError ?? ((error: unknown) => console.error('ledger listener failed:', error));
  const connection = { connectionString: options.url, connectionTimeoutMillis: options.connectTimeoutMs ?? 10_000 };
  const pool = new pg.Pool({ ...connection, max: options.poolSize ?? 10, types });
  // An idle connection the server closed (a restart, say) is dropped by the pool and replaced on
  // the next query; the query is where a lasting fault shows.
  pool.on('error', () => undefined);
  // A connection lost while in use fails its query, which is how the append hears of it; pg also
  // emits 'error' on the client then, and the pool listens only while the client is idle, so
  // without a listener of its own that second report would bring the whole process down.
  pool.on('connect', (client) => client.on('error', () => undefined));
  const kysely = new Kysely<PgLedgerTables>({ dialect: new PostgresDialect({ pool }) });
  try {
    if (!options.existing) {
      await createPgSchema(kysely);
    } else if (!(await schemaInstalled(kysely))) {
      throw new Error('the database has no ledger tables: nothing has been imported or appended to it');
    }
  } catch (error) {
    await kysely.destroy();
    throw error;
  }
  const stoppers = new Set<() => Promise<void>>();

  const toRecorded = (row: ChainedRow): RecordedEvent<E> => recordedEvent(registry, row);

  // Appends go through the group committer: those sent while a commit is in flight share the next.
  // Set below once the writer link exists: the committer asks it before each commit.
  let gather: ((lastCommitMs: number) => Promise<void>) | undefined;
  const committer = groupCommitter<E>({
    pool,
    gather: (lastCommitMs) => gather?.(lastCommitMs) ?? Promise.resolve(),
    channel: LEDGER_CHANNEL,
    toRecorded,
    isFault: (error) => pgStorageFaultOf(error) !== null,
    failure(error, commitSent, queued) {
      const fault = pgStorageFaultOf(error);
      // An answer to the commit, even an error, means it did not commit; no answer means no one
      // knows. A command left in the intake is decided by whoever holds the head next.
      if (fault && (queued || (commitSent && connectionLost(fault)))) return new AppendOutcomeUnknownError(fault.reason, fault.code);
      return fault ?? error;
    },
  });

  // A server process forwards its appends to the elected writer process, or is that writer.
  const link = options.writerLink
    ? writerLink<E>({
        connection,
        pool,
        host: options.writerLink.host,
        submit: (batches, commandId, request) => committer.submit(batches, commandId, request),
        toRecorded,
        errorText: (error) =>
          error instanceof LedgerUnavailableError
            ? JSON.stringify({ kind: error instanceof AppendOutcomeUnknownError ? 'unknown' : 'unavailable', reason: error.reason, code: error.code })
            : refusalText(error),
        errorOf: (text) => {
          const r = JSON.parse(text) as { kind: string; reason: string; code: string };
          if (r.kind === 'unknown') return new AppendOutcomeUnknownError(r.reason, r.code);
          if (r.kind === 'unavailable') return new LedgerUnavailableError(r.reason, r.code);
          return refusalOf(text);
        },
        writerLost: (reason) => new AppendOutcomeUnknownError(reason, 'writer-lost'),
        ...(options.writerLink.onNotice ? { onNotice: options.writerLink.onNotice } : {}),
      })
    : null;
  const submit = link ? link.submit : committer.submit;
  gather = link?.gather;

  const appendMany: PgEventStore<E>['appendMany'] = async (appends, appendOptions = {}) => {
    const { commandId = null, request = null } = appendOptions;
    // Checks and serialisation happen before the command is queued, so a bad event costs no other
    // writer any waiting, and nothing is written unless every event of the batch is good.
    const batches = prepareAppend(registry, appends, appendOptions, clock);
    return appendResults(appends, await submit(batches, commandId, request));
  };

  const head = async (): Promise<ChainHead> => {
    const row = await kysely.selectFrom('events').select(['position', 'hash']).orderBy('position', 'desc').limit(1).executeTakeFirst();
    return row ?? { position: 0, hash: GENESIS_HASH };
  };

  // One snapshot for every page, so appends made during the walk neither show up halfway nor
  // shift a page: the report is of the chain as it stood when the walk began.
  const verifyChain = (verifyOptions: { upTo?: number } = {}): Promise<ChainReport> =>
    kysely
      .transaction()
      .setIsolationLevel('repeatable read')
      .setAccessMode('read only')
      .execute((trx) => walkPgChain(trx, verifyOptions));

  const listen: PgEventStore<E>['listen'] = async (onHead) => {
    let stopped = false;
    let client: pg.Client | null = null;
    let retry: NodeJS.Timeout | null = null;
    const tell = (position: number) => {
      try {
        onHead(position);
      } catch (error) {
        onListenerError(error);
      }
    };
    const connect = async (): Promise<void> => {
      const next = new pg.Client({ ...connection, keepAlive: true });
      next.on('notification', (message) => {
        if (message.channel === LEDGER_CHANNEL && message.payload) tell(Number(message.payload));
      });
      // A lost connection ends the client; 'end' is where it is replaced.
      next.on('error', () => undefined);
      next.on('end', () => {
        if (client !== next) return;
        client = null;
        if (!stopped) reconnect(50);
      });
      try {
        await next.connect();
        await next.query(`LISTEN ${LEDGER_CHANNEL}`);
      } catch (error) {
        await next.end().catch(() => undefined);
        throw error;
      }
      if (stopped) {
        await next.end().catch(() => undefined);
        return;
      }
      client = next;
    };
    const reconnect = (wait: number) => {
      retry = setTimeout(() => {
        retry = null;
        connect()
          .then(() => (stopped ? undefined : head().then((h) => tell(h.position))))
          .catch(() => {
            if (!stopped && client === null) reconnect(Math.min(wait * 2, 1000));
          });
      }, wait);
    };
    await connect();
    const stop = async () => {
      stopped = true;
      stoppers.delete(stop);
      if (retry) clearTimeout(retry);
      const current = client;
      client = null;
      await current?.end().catch(() => undefined);
    };
    stoppers.add(stop);
    return stop;
  };

  return {
    kysely,
    append: async (stream, events, appendOptions = {}) => {
      const { expectedVersion, ...rest } = appendOptions;
      return (await appendMany([{ stream, events, ...(expectedVersion !== undefined ? { expectedVersion } : {}) }], rest))[0]!;
    },
    appendMany,
    readAll: async ({ after = 0, limit } = {}) => {
      let query = kysely.selectFrom('events').select(COLUMNS).where('position', '>', after).orderBy('position');
      // As in the SQLite store, a negative limit means no limit.
      if (limit !== undefined && limit >= 0) query = query.limit(limit);
      return (await query.execute()).map(toRecorded);
    },
    readStream: async (stream, { after = 0 } = {}) =>
      (await kysely.selectFrom('events').select(COLUMNS).where('stream', '=', stream).where('version', '>', after).orderBy('version').execute()).map(
        toRecorded,
      ),
    streamVersion: async (stream) => {
      const row = await kysely
        .selectFrom('events')
        .select((eb) => eb.fn.max('version').as('version'))
        .where('stream', '=', stream)
        .executeTakeFirst();
      return Number(row?.version ?? 0);
    },
    head,
    digest: async () => formatDigest(await head()),
    verifyChain,
    listen,
    commitStats: () => ({ ...committer.stats(), ...(link?.stats() ?? { forwarded: 0, servedForOthers: 0, own: 0 }) }),
    isWriter: () => link?.isWriter() ?? false,
    async close() {
      await link?.close();
      await committer.idle();
      await Promise.all([...stoppers].map((stop) => stop()));
      await kysely.destroy();
    },
  };
}

/**
 * The append-only event store: the only way anything in a tournament changes. Each append is one
 * synchronous IMMEDIATE transaction, so two writers (even two processes) never interleave: the
 * stream's version and the chain's head are read and extended under the same write lock.
 *
 * Keep one store per open database: subscribers hear of what that store appended.
 */
import type BetterSqlite3 from 'better-sqlite3';
import type { LedgerDatabase } from './database.ts';
import {
  type ChainHead,
  type ChainReport,
  type ChainedRow,
  GENESIS_HASH,
  canonicalJson,
  chainHash,
  formatDigest,
  parseDigest,
  verifyRows,
} from './hash-chain.ts';
import type { AnyEvent, EventRegistry } from './event-types.ts';

/** Who and when, recorded with each event. `at` comes from the store's clock. */
export interface EventMeta {
  at: string;
  [key: string]: unknown;
}

/** An event to append: its type, payload, and any meta of its own (merged over the append's). */
export type NewEvent<E extends AnyEvent = AnyEvent> = E extends AnyEvent ? E & { meta?: Record<string, unknown> } : never;

/** An event as recorded, its payload brought up to the current schema version. */
export type RecordedEvent<E extends AnyEvent = AnyEvent> = E extends AnyEvent
  ? E & {
      position: number;
      stream: string;
      version: number;
      /** The schema version of `payload` as given here (the current one; the stored row keeps its own). */
      schemaVersion: number;
      meta: EventMeta;
      commandId: string | null;
      prevHash: string;
      hash: string;
    }
  : never;

export interface AppendOptions {
  /** The stream's version the caller decided against (0 for a stream with no events yet). */
  expectedVersion?: number;
  /** An id for the command these events carry out; appending it again returns the first result. */
  commandId?: string;
  /** Meta for every event of this append, such as `{ by: 'judge:ana' }`. */
  meta?: Record<string, unknown>;
}

export interface AppendResult<E extends AnyEvent = AnyEvent> {
  stream: string;
  /** The positions given to the events (empty when there were none to append). */
  positions: number[];
  /** Their versions within the stream. */
  versions: number[];
  events: RecordedEvent<E>[];
  /** True when the command id had been seen, and this is the first append's result. */
  duplicate: boolean;
}

export interface EventStoreOptions<E extends AnyEvent> {
  registry: EventRegistry<E>;
  /** The time recorded as `meta.at`, as an ISO string. Default: the system clock. */
  clock?: () => string;
  /** Where errors thrown by subscribers go; the events are committed regardless. Default: console.error. */
  onListenerError?: (error: unknown) => void;
}

export type Listener<E extends AnyEvent> = (events: RecordedEvent<E>[]) => void;

export interface EventStore<E extends AnyEvent = AnyEvent> {
  readonly database: LedgerDatabase;
  /** Appends events to a stream in one transaction; see the module comment. */
  append(stream: string, events: readonly NewEvent<E>[], options?: AppendOptions): AppendResult<E>;
  /** Events after position `after` (default 0) in position order, at most `limit`. */
  readAll(options?: { after?: number; limit?: number }): RecordedEvent<E>[];
  /** A stream's events in version order, after version `after` (default 0). */
  readStream(stream: string, options?: { after?: number }): RecordedEvent<E>[];
  /** The stream's current version (0 when it has no events). */
  streamVersion(stream: string): number;
  head(): ChainHead;
  /** The head as an auditor writes it down: `position:hash`. */
  digest(): string;
  verifyChain(options?: { upTo?: number }): ChainReport;
  /** Calls `listener` after each commit with the events it recorded; returns an unsubscribe function. */
  subscribe(listener: Listener<E>): () => void;
  /**
   * Calls `hook` inside each append's transaction, after the events are inserted and before the
   * commit. A hook that throws rolls the append back. It must not await: the transaction is
   * synchronous (write with `executeSync` or the better-sqlite3 handle). Returns a removal function.
   */
  onAppendInTransaction(hook: (events: RecordedEvent<E>[], database: LedgerDatabase) => void): () => void;
}

/** The stream moved on since the caller read it; the HTTP API answers 409. */
export class VersionConflictError extends Error {
  constructor(
    readonly stream: string,
    readonly expected: number,
    readonly actual: number,
  ) {
    super(`${stream} is at version ${actual}, not ${expected} as expected: someone else recorded something first; reload and try again`);
  }
}

/** A command id already used for a different stream. */
export class CommandIdReusedError extends Error {
  constructor(
    readonly commandId: string,
    readonly stream: string,
    readonly usedFor: string,
  ) {
    super(`command id ${commandId} was already used for ${usedFor}, so it cannot be used again for ${stream}`);
  }
}

/** An append the store refuses before writing anything (a bad stream name, meta or position). */
export class AppendRefusedError extends Error {}

const STREAM_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._:-]{0,199}$/;
const COMMAND_ID_PATTERN = /^[\x21-\x7e]{1,200}$/;

const COLUMNS = 'position, stream, version, type, schema_version, payload, meta, command_id, prev_hash, hash';

/** Creates the store over an open ledger file. */
export function createEventStore<E extends AnyEvent>(
  database: LedgerDatabase,
  options: EventStoreOptions<E>,
): EventStore<E> {
  const { sqlite } = database;
  const { registry } = options;
  const clock = options.clock ?? (() => new Date().toISOString());
  const onListenerError = options.onListenerError ?? ((error: unknown) => console.error('event listener failed:', error));
  const listeners = new Set<Listener<E>>();
  const hooks = new Set<(events: RecordedEvent<E>[], database: LedgerDatabase) => void>();

  const statements = {
    head: sqlite.prepare<[], { position: number; hash: string }>('SELECT position, hash FROM events ORDER BY position DESC LIMIT 1'),
    streamVersion: sqlite.prepare<[string], { version: number | null }>('SELECT max(version) AS version FROM events WHERE stream = ?'),
    command: sqlite.prepare<[string], ChainedRow>(`SELECT ${COLUMNS} FROM events WHERE command_id = ?`),
    range: sqlite.prepare<[number, number], ChainedRow>(`SELECT ${COLUMNS} FROM events WHERE position BETWEEN ? AND ? ORDER BY position`),
    insert: sqlite.prepare<[number, string, number, string, number, string, string, string | null, string, string]>(
      `INSERT INTO events (${COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ),
    all: sqlite.prepare<[number, number], ChainedRow>(`SELECT ${COLUMNS} FROM events WHERE position > ? ORDER BY position LIMIT ?`),
    stream: sqlite.prepare<[string, number], ChainedRow>(`SELECT ${COLUMNS} FROM events WHERE stream = ? AND version > ? ORDER BY version`),
  };

  const toRecorded = (row: ChainedRow): RecordedEvent<E> => {
    let payload: unknown;
    try {
      payload = registry.upcast(row.type, row.schema_version, JSON.parse(row.payload));
    } catch (error) {
      throw new Error(`position ${row.position} (${row.stream} version ${row.version}): ${(error as Error).message}`);
    }
    const definition = registry.definition(row.type);
    return {
      type: row.type,
      payload,
      position: row.position,
      stream: row.stream,
      version: row.version,
      schemaVersion: definition?.version ?? row.schema_version,
      meta: JSON.parse(row.meta) as EventMeta,
      commandId: row.command_id,
      prevHash: row.prev_hash,
      hash: row.hash,
    } as RecordedEvent<E>;
  };

  interface Prepared {
    type: string;
    schemaVersion: number;
    payload: unknown;
    payloadText: string;
    meta: EventMeta;
    metaText: string;
  }

  let inTransaction = false;
  // How long SQLite was told to wait for a busy file (better-sqlite3's default when unset).
  const busyTimeoutMs = Number(sqlite.pragma('busy_timeout', { simple: true }) ?? 5000);

  const write = sqlite.transaction(
    (stream: string, prepared: Prepared[], expectedVersion: number | undefined, commandId: string | null) => {
      if (commandId !== null) {
        const first = statements.command.get(commandId);
        if (first) {
          if (first.stream !== stream) throw new CommandIdReusedError(commandId, stream, first.stream);
          const count = Number((JSON.parse(first.meta) as EventMeta).commandEvents ?? 1);
          const rows = statements.range.all(first.position, first.position + count - 1);
          return { rows, duplicate: true, recorded: rows.map(toRecorded) };
        }
      }
      const actual = statements.streamVersion.get(stream)?.version ?? 0;
      if (expectedVersion !== undefined && actual !== expectedVersion) {
        throw new VersionConflictError(stream, expectedVersion, actual);
      }
      if (prepared.length === 0) return { rows: [], duplicate: false, recorded: [] };
      let head: ChainHead = statements.head.get() ?? { position: 0, hash: GENESIS_HASH };
      const rows: ChainedRow[] = [];
      const recorded: RecordedEvent<E>[] = [];
      prepared.forEach((event, i) => {
        const columns = {
          position: head.position + 1,
          stream,
          version: actual + i + 1,
          type: event.type,
          schema_version: event.schemaVersion,
          payload: event.payloadText,
          meta: event.metaText,
          command_id: i === 0 ? commandId : null,
        };
        const hash = chainHash(head.hash, columns);
        const row: ChainedRow = { ...columns, prev_hash: head.hash, hash };
        statements.insert.run(
          row.position, row.stream, row.version, row.type, row.schema_version,
          row.payload, row.meta, row.command_id, row.prev_hash, row.hash,
        );
        rows.push(row);
        recorded.push({
          type: event.type,
          payload: event.payload,
          position: row.position,
          stream,
          version: row.version,
          schemaVersion: event.schemaVersion,
          meta: event.meta,
          commandId: row.command_id,
          prevHash: row.prev_hash,
          hash,
        } as RecordedEvent<E>);
        head = { position: row.position, hash };
      });
      if (hooks.size > 0) {
        inTransaction = true;
        try {
          for (const hook of hooks) hook(recorded, database);
        } finally {
          inTransaction = false;
        }
      }
      return { rows, duplicate: false, recorded };
    },
  );

  const append: EventStore<E>['append'] = (stream, events, appendOptions = {}) => {
    if (inTransaction) {
      throw new AppendRefusedError(`cannot append to ${stream} from inside another append's transaction; use subscribe to react after the commit`);
    }
    if (typeof stream !== 'string' || !STREAM_PATTERN.test(stream)) {
      throw new AppendRefusedError(`stream id '${stream}' must be letters, digits and . _ : - (such as game-7), at most 200 characters`);
    }
    const { expectedVersion, commandId = null } = appendOptions;
    if (expectedVersion !== undefined && (!Number.isSafeInteger(expectedVersion) || expectedVersion < 0)) {
      throw new AppendRefusedError(`expected version ${expectedVersion} of ${stream} must be a whole number from 0`);
    }
    if (commandId !== null && !COMMAND_ID_PATTERN.test(commandId)) {
      throw new AppendRefusedError(`command id '${commandId}' must be 1 to 200 printable characters without spaces`);
    }
    // Checks and serialisation happen before the write lock is taken, so a bad event costs no
    // one else any waiting, and nothing is written unless every event of the batch is good.
    const at = clock();
    const prepared: Prepared[] = events.map((event, i) => {
      const { schemaVersion, payload } = registry.validate(event.type, event.payload);
      const meta: EventMeta = { ...appendOptions.meta, ...event.meta, at };
      // The first event of a command says how many it recorded, so a repeat can answer with them all.
      if (commandId !== null && i === 0 && events.length > 1) meta.commandEvents = events.length;
      let payloadText: string;
      let metaText: string;
      try {
        payloadText = canonicalJson(payload, 'payload');
        metaText = canonicalJson(meta, 'meta');
      } catch (error) {
        throw new AppendRefusedError(`${event.type} for ${stream}: ${(error as Error).message}`);
      }
      return { type: event.type, schemaVersion, payload, payloadText, meta, metaText };
    });
    const result = whileBusy(busyTimeoutMs, () => write.immediate(stream, prepared, expectedVersion, commandId));
    if (!result.duplicate && result.recorded.length > 0) {
      for (const listener of listeners) {
        try {
          listener(result.recorded);
        } catch (error) {
          onListenerError(error);
        }
      }
    }
    return {
      stream,
      positions: result.rows.map((row) => row.position),
      versions: result.rows.map((row) => row.version),
      events: result.recorded,
      duplicate: result.duplicate,
    };
  };

  return {
    database,
    append,
    readAll: ({ after = 0, limit = -1 } = {}) => statements.all.all(after, limit).map(toRecorded),
    readStream: (stream, { after = 0 } = {}) => statements.stream.all(stream, after).map(toRecorded),
    streamVersion: (stream) => statements.streamVersion.get(stream)?.version ?? 0,
    head: () => readHead(sqlite),
    digest: () => formatDigest(readHead(sqlite)),
    verifyChain: (verifyOptions) => verifyChain(database, verifyOptions),
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    onAppendInTransaction(hook) {
      hooks.add(hook);
      return () => hooks.delete(hook);
    },
  };
}

function readHead(sqlite: BetterSqlite3.Database): ChainHead {
  const row = sqlite.prepare<[], ChainHead>('SELECT position, hash FROM events ORDER BY position DESC LIMIT 1').get();
  return row ?? { position: 0, hash: GENESIS_HASH };
}

/** The rows of the ledger as stored, in position order, read lazily. */
export function iterateRows(database: LedgerDatabase, options: { upTo?: number } = {}): IterableIterator<ChainedRow> {
  return database.sqlite
    .prepare<[number], ChainedRow>(`SELECT ${COLUMNS} FROM events WHERE position <= ? ORDER BY position`)
    .iterate(options.upTo ?? Number.MAX_SAFE_INTEGER);
}

/**
 * Walks the whole chain (or up to `upTo`) in position order: recomputes each hash, checks the
 * positions are gapless, the prev-hash links and each stream's versions; names the first bad position.
 */
export function verifyChain(database: LedgerDatabase, options: { upTo?: number } = {}): ChainReport {
  return verifyRows(iterateRows(database, options), options);
}

/** The current head of a ledger file. */
export function ledgerHead(database: LedgerDatabase): ChainHead {
  return readHead(database.sqlite);
}

export type DigestCheck = { ok: true; head: ChainHead } | { ok: false; reason: string };

/**
 * Says whether a digest noted earlier (`position:hash`) is still part of today's chain: the event
 * at that position still has that hash, and the chain verifies up to it. Throws
 * `DigestFormatError` for text that is not a digest.
 */
export function checkDigest(database: LedgerDatabase, digest: string): DigestCheck {
  const noted = parseDigest(digest);
  if (noted.position === 0) {
    return noted.hash === GENESIS_HASH
      ? { ok: true, head: noted }
      : { ok: false, reason: `digest ${digest} names position 0, whose hash is always ${GENESIS_HASH}` };
  }
  const row = database.sqlite.prepare<[number], { hash: string }>('SELECT hash FROM events WHERE position = ?').get(noted.position);
  if (!row) return { ok: false, reason: `the ledger has no position ${noted.position} any more (its head is ${readHead(database.sqlite).position})` };
  if (row.hash !== noted.hash) return { ok: false, reason: `position ${noted.position} now has hash ${row.hash}, not the noted ${noted.hash}` };
  const report = verifyChain(database, { upTo: noted.position });
  if (!report.ok) return { ok: false, reason: `the chain up to position ${noted.position} does not verify: position ${report.firstBad!.position}: ${report.firstBad!.reason}` };
  return { ok: true, head: noted };
}

const pause = new Int32Array(new SharedArrayBuffer(4));

/**
 * Runs a write transaction, trying it again while the file is busy, for as long as SQLite's
 * busy timeout would have waited. SQLite waits out a busy file by itself, except at a few moments
 * when it answers busy at once: while another process recovers the write-ahead log left by a
 * process that was killed, say. A transaction that fails so has written nothing.
 */
function whileBusy<T>(timeoutMs: number, write: () => T): T {
  const deadline = Date.now() + timeoutMs;
  for (let wait = 1; ; wait = Math.min(wait * 2, 50)) {
    try {
      return write();
    } catch (error) {
      const busy = typeof (error as { code?: unknown }).code === 'string' && (error as { code: string }).code.startsWith('SQLITE_BUSY');
      if (!busy || Date.now() >= deadline) throw error;
      Atomics.wait(pause, 0, 0, wait);
    }
  }
}

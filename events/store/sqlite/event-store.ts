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
  type AppendOptions,
  type AppendResult,
  AppendRefusedError,
  LedgerUnavailableError,
  type NewEvent,
  type PreparedBatch,
  type RecordedEvent,
  type StreamAppend,
  type WrittenBatch,
  appendResults,
  chainAppend,
  commandEventCount,
  prepareAppend,
  recordedEvent,
  repeatedCommand,
} from '../append.ts';
import { type ChainHead, type ChainReport, type ChainedRow, GENESIS_HASH, formatDigest, verifyRows } from '../../hash-chain.ts';
import type { AnyEvent, EventRegistry } from '../../event-registry.ts';

export interface EventStoreOptions<E extends AnyEvent> {
  registry: EventRegistry<E>;
  /** The time recorded as `meta.at`, as an ISO string. Default: the system clock. */
  clock?: () => string;
  /** Where errors thrown by subscribers go; the events are committed regardless. Default: console.error. */
  onListenerError?: (error: unknown) => void;
}

export type Listener<E extends AnyEvent> = (events: RecordedEvent<E>[]) => void;

/** One command of a group commit: its streams' events and its append options. */
export interface GroupedAppend<E extends AnyEvent = AnyEvent> {
  appends: readonly StreamAppend<E>[];
  options?: Omit<AppendOptions, 'expectedVersion'>;
}

/** What one command of a group commit is answered: its results, or why it alone was refused. */
export type GroupOutcome<E extends AnyEvent = AnyEvent> = { results: AppendResult<E>[] } | { error: unknown };

export interface EventStore<E extends AnyEvent = AnyEvent> {
  readonly database: LedgerDatabase;
  /** Appends events to a stream in one transaction; see the module comment. */
  append(stream: string, events: readonly NewEvent<E>[], options?: AppendOptions): AppendResult<E>;
  /**
   * Appends to several streams in one transaction: every stream's expected version is checked
   * and either all the events are recorded or none. A command id names the whole batch.
   */
  appendMany(appends: readonly StreamAppend<E>[], options?: Omit<AppendOptions, 'expectedVersion'>): AppendResult<E>[];
  /**
   * Appends several commands in one transaction and one flush to the disk (group commit): each is
   * checked against its streams' versions and its command id in the order given, seeing the ones
   * before it, and is answered on its own; one refused (a conflict, a reused command id, a bad
   * event) is rolled back to its savepoint and the others commit. A storage fault refuses them all.
   */
  appendGroup(commands: readonly GroupedAppend<E>[]): GroupOutcome<E>[];
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

// SQLite's answers that mean the storage, not the request, is at fault.
const STORAGE_FAULTS: Record<string, string> = {
  SQLITE_FULL: 'the disk is full',
  SQLITE_READONLY: 'the ledger file is read-only',
  SQLITE_IOERR: 'the disk failed to read or write',
  SQLITE_CANTOPEN: 'the ledger file cannot be opened for writing',
  SQLITE_PERM: 'the ledger file may not be written',
  SQLITE_NOLFS: 'the ledger file has grown past what the file system allows',
};

/** The storage fault an error from SQLite stands for, or null for any other error. */
export function storageFaultOf(error: unknown): LedgerUnavailableError | null {
  if (error instanceof LedgerUnavailableError) return error;
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code !== 'string') return null;
  // Extended codes name the primary one first: SQLITE_IOERR_WRITE, SQLITE_READONLY_DBMOVED.
  const reason = STORAGE_FAULTS[code.split('_').slice(0, 2).join('_')];
  return reason ? new LedgerUnavailableError(reason, code) : null;
}

const COLUMNS = 'position, stream, version, type, schema_version, payload, meta, command_id, prev_hash, hash';

/** Creates the store over an open ledger file. */
export function createEventStore<E extends AnyEvent>(database: LedgerDatabase, options: EventStoreOptions<E>): EventStore<E> {
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

  const toRecorded = (row: ChainedRow): RecordedEvent<E> => recordedEvent(registry, row);

  let inTransaction = false;
  // How long SQLite was told to wait for a busy file (better-sqlite3's default when unset).
  const busyTimeoutMs = Number(sqlite.pragma('busy_timeout', { simple: true }) ?? 5000);

  /** The first result of a command id, if it is a repeat of the same command; throws if it is another. */
  const repeatOf = (commandId: string, batches: PreparedBatch[], request: string | null): WrittenBatch<E>[] | null => {
    const first = statements.command.get(commandId);
    if (!first) return null;
    const rows = statements.range.all(first.position, first.position + commandEventCount(first) - 1);
    return repeatedCommand(commandId, batches, request, first, rows).map((mine) => ({ rows: mine, recorded: mine.map(toRecorded) }));
  };

  // Set while a command's rows are being inserted: a failure from then on may have written some of them.
  let inserting = false;

  /**
   * One command's part of a write transaction: its command id looked up, its streams' versions
   * checked, its events chained after `known` (the head, when the caller knows it already) and
   * inserted. Returns what it wrote and the head after it.
   */
  const writeCommand = (batches: PreparedBatch[], commandId: string | null, request: string | null, known?: ChainHead) => {
    if (commandId !== null) {
      const repeat = repeatOf(commandId, batches, request);
      if (repeat) return { written: repeat, duplicate: true, head: known };
    }
    const start: ChainHead = known ?? statements.head.get() ?? { position: 0, hash: GENESIS_HASH };
    const { written, head } = chainAppend<E>(start, batches, (stream) => statements.streamVersion.get(stream)?.version ?? 0, commandId);
    inserting = true;
    for (const { rows } of written) {
      for (const row of rows) {
        statements.insert.run(
          row.position,
          row.stream,
          row.version,
          row.type,
          row.schema_version,
          row.payload,
          row.meta,
          row.command_id,
          row.prev_hash,
          row.hash,
        );
      }
    }
    const all = written.flatMap((w) => w.recorded);
    if (hooks.size > 0 && all.length > 0) {
      inTransaction = true;
      try {
        for (const hook of hooks) hook(all, database);
      } finally {
        inTransaction = false;
      }
    }
    inserting = false;
    return { written, duplicate: false, head };
  };

  const write = sqlite.transaction((batches: PreparedBatch[], commandId: string | null, request: string | null) => {
    inserting = false;
    const { written, duplicate } = writeCommand(batches, commandId, request);
    return { written, duplicate };
  });

  /** Tells the subscribers what a commit recorded; one that throws is reported, the commit stands. */
  const tellListeners = (recorded: RecordedEvent<E>[]) => {
    if (recorded.length === 0) return;
    for (const listener of listeners) {
      try {
        listener(recorded);
      } catch (error) {
        onListenerError(error);
      }
    }
  };

  const appendMany: EventStore<E>['appendMany'] = (appends, appendOptions = {}) => {
    const streamsNamed = appends.map((a) => a.stream).join(', ') || 'no stream';
    if (inTransaction) {
      throw new AppendRefusedError(`cannot append to ${streamsNamed} from inside another append's transaction; use subscribe to react after the commit`);
    }
    const { commandId = null, request = null } = appendOptions;
    // Checks and serialisation happen before the write lock is taken, so a bad event costs no
    // one else any waiting, and nothing is written unless every event of the batch is good.
    const batches = prepareAppend(registry, appends, appendOptions, clock);
    let result: { written: WrittenBatch<E>[]; duplicate: boolean };
    try {
      result = whileBusy(busyTimeoutMs, () => write.immediate(batches, commandId, request));
    } catch (error) {
      throw storageFaultOf(error) ?? error;
    }
    if (!result.duplicate) tellListeners(result.written.flatMap((w) => w.recorded));
    return appendResults(appends, result);
  };

  const appendGroup: EventStore<E>['appendGroup'] = (commands) => {
    if (inTransaction) throw new AppendRefusedError("cannot append from inside another append's transaction; use subscribe to react after the commit");
    type Prepared = { batches: PreparedBatch[]; commandId: string | null; request: string | null } | { error: unknown };
    // Each command's events are checked and serialised before the lock, as a lone append's are.
    const prepared: Prepared[] = commands.map(({ appends, options = {} }) => {
      try {
        return { batches: prepareAppend(registry, appends, options, clock), commandId: options.commandId ?? null, request: options.request ?? null };
      } catch (error) {
        return { error };
      }
    });
    type Written = { result: { written: WrittenBatch<E>[]; duplicate: boolean } } | { error: unknown };
    // Each command is checked (command id, versions) before any row of it is written, so one
    // refused there has written nothing and needs no savepoint; the head is carried from one
    // command to the next. Should a command fail once its rows are being written (an insert the
    // file refuses, a hook that throws), the group is rolled back and run again with a savepoint
    // per command, so that command alone is undone.
    const quick = sqlite.transaction((): Written[] => {
      let head: ChainHead | undefined;
      const outcomes: Written[] = [];
      for (const command of prepared) {
        if ('error' in command) {
          outcomes.push(command);
          continue;
        }
        inserting = false;
        try {
          const done = writeCommand(command.batches, command.commandId, command.request, head);
          head = done.head ?? head;
          outcomes.push({ result: { written: done.written, duplicate: done.duplicate } });
        } catch (error) {
          if (storageFaultOf(error) || !sqlite.inTransaction) throw error;
          if (inserting) throw new RunWithSavepoints();
          outcomes.push({ error });
        }
      }
      return outcomes;
    });
    const careful = sqlite.transaction(() =>
      prepared.map((command): Written => {
        if ('error' in command) return command;
        try {
          // Called inside the group's transaction, the append's own becomes a savepoint.
          return { result: write(command.batches, command.commandId, command.request) };
        } catch (error) {
          // A fault of the storage, or one that ended the whole transaction, refuses the group.
          if (storageFaultOf(error) || !sqlite.inTransaction) throw error;
          return { error };
        }
      }),
    );
    const runGroup = (): Written[] => {
      try {
        return quick.immediate();
      } catch (error) {
        if (!(error instanceof RunWithSavepoints)) throw error;
        return careful.immediate();
      }
    };
    let outcomes: Written[];
    try {
      outcomes = whileBusy(busyTimeoutMs, runGroup);
    } catch (error) {
      throw storageFaultOf(error) ?? error;
    }
    tellListeners(outcomes.flatMap((o) => ('result' in o && !o.result.duplicate ? o.result.written.flatMap((w) => w.recorded) : [])));
    return outcomes.map((o, i) => ('result' in o ? { results: appendResults(commands[i]!.appends, o.result) } : o));
  };

  const append: EventStore<E>['append'] = (stream, events, appendOptions = {}) => {
    const { expectedVersion, ...rest } = appendOptions;
    return appendMany([{ stream, events, ...(expectedVersion !== undefined ? { expectedVersion } : {}) }], rest)[0]!;
  };

  return {
    database,
    append,
    appendMany,
    appendGroup,
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

/** A group commit that must run again with a savepoint per command. */
class RunWithSavepoints extends Error {}

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

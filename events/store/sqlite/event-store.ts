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
} from '../../hash-chain.ts';
import type { AnyEvent, EventRegistry } from '../../event-types.ts';

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
  /**
   * An id for the command these events carry out; appending the same command again returns the
   * first result. "The same" means the same request when `request` is given (a digest of what
   * was asked, recorded with the first event), otherwise the same streams and events.
   */
  commandId?: string;
  /** A digest of the request the command id was sent with; see `commandId`. */
  request?: string;
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

/** Events for one stream within an append to several streams. */
export interface StreamAppend<E extends AnyEvent = AnyEvent> {
  stream: string;
  events: readonly NewEvent<E>[];
  /** The stream's version the caller decided against (0 for a stream with no events yet). */
  expectedVersion?: number;
}

export interface EventStore<E extends AnyEvent = AnyEvent> {
  readonly database: LedgerDatabase;
  /** Appends events to a stream in one transaction; see the module comment. */
  append(stream: string, events: readonly NewEvent<E>[], options?: AppendOptions): AppendResult<E>;
  /**
   * Appends to several streams in one transaction: every stream's expected version is checked
   * and either all the events are recorded or none. A command id names the whole batch.
   */
  appendMany(appends: readonly StreamAppend<E>[], options?: Omit<AppendOptions, 'expectedVersion'>): AppendResult<E>[];
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

/**
 * A command id already used for another command: another stream, or other events on the same
 * stream. A repeat is recognised only when it is the same command; anything else is a mistake
 * (or a guess) that must not answer "already recorded". The HTTP API answers 409.
 */
export class CommandIdReusedError extends Error {
  constructor(
    readonly commandId: string,
    readonly stream: string,
    readonly usedFor: string,
    detail?: string,
  ) {
    super(
      usedFor === stream
        ? `command id ${commandId} was already used for another entry on ${stream}${detail ? ` (${detail})` : ''}, so it cannot record this one`
        : `command id ${commandId} was already used for ${usedFor}, so it cannot be used again for ${stream}`,
    );
  }
}

/**
 * The file cannot be written: the disk is full, the file or its folder is read-only, or the
 * storage failed. Nothing of the append was recorded; the HTTP API answers 503 with the reason.
 */
export class LedgerUnavailableError extends Error {
  constructor(
    readonly reason: string,
    readonly code: string,
  ) {
    super(`the ledger cannot record anything right now: ${reason}; nothing was recorded`);
  }
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

/** An append the store refuses before writing anything (a bad stream name, meta or position). */
export class AppendRefusedError extends Error {}

/** The stream names the store accepts. */
export const STREAM_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._:-]{0,199}$/;
/** The command ids the stores accept: 1 to 200 printable characters without spaces. */
export const COMMAND_ID_PATTERN = /^[\x21-\x7e]{1,200}$/;

/** An event checked against its type and serialised, ready to take its place in the chain. */
export interface PreparedEvent {
  type: string;
  schemaVersion: number;
  payload: unknown;
  payloadText: string;
  meta: EventMeta;
  metaText: string;
}

/** The prepared events of one stream of an append. */
export interface PreparedBatch {
  stream: string;
  prepared: PreparedEvent[];
  expectedVersion: number | undefined;
}

/** One stream's share of an append as stored: its rows, and the events as the caller gets them back. */
export interface WrittenBatch<E extends AnyEvent = AnyEvent> {
  rows: ChainedRow[];
  recorded: RecordedEvent<E>[];
}

/**
 * Checks an append before any lock is taken (the command id, each stream's name and expected
 * version, each payload against its registered type) and serialises its events, meta stamped
 * with `clock()`. Throws on the first thing wrong, so nothing is written unless all of it is good.
 */
export function prepareAppend<E extends AnyEvent>(
  registry: EventRegistry<E>,
  appends: readonly StreamAppend<E>[],
  options: Omit<AppendOptions, 'expectedVersion'>,
  clock: () => string,
): PreparedBatch[] {
  const { commandId = null, request = null } = options;
  if (commandId !== null && !COMMAND_ID_PATTERN.test(commandId)) {
    throw new AppendRefusedError(`command id '${commandId}' must be 1 to 200 printable characters without spaces`);
  }
  const seen = new Set<string>();
  for (const { stream, expectedVersion } of appends) {
    if (typeof stream !== 'string' || !STREAM_PATTERN.test(stream)) {
      throw new AppendRefusedError(`stream id '${stream}' must be letters, digits and . _ : - (such as game-7), at most 200 characters`);
    }
    if (seen.has(stream)) throw new AppendRefusedError(`stream ${stream} appears twice in one append; put its events in one list`);
    seen.add(stream);
    if (expectedVersion !== undefined && (!Number.isSafeInteger(expectedVersion) || expectedVersion < 0)) {
      throw new AppendRefusedError(`expected version ${expectedVersion} of ${stream} must be a whole number from 0`);
    }
  }
  const at = clock();
  const total = appends.reduce((n, a) => n + a.events.length, 0);
  let index = 0;
  return appends.map(({ stream, events, expectedVersion }) => ({
    stream,
    expectedVersion,
    prepared: events.map((event) => {
      const { schemaVersion, payload } = registry.validate(event.type, event.payload);
      const meta: EventMeta = { ...options.meta, ...event.meta, at };
      // The first event of a command says how many it recorded and what was asked, so a
      // repeat can answer with them all, and only a repeat of the same request does.
      if (commandId !== null && index === 0) {
        if (total > 1) meta.commandEvents = total;
        if (request !== null) meta.request = request;
      }
      index++;
      let payloadText: string;
      let metaText: string;
      try {
        payloadText = canonicalJson(payload, 'payload');
        metaText = canonicalJson(meta, 'meta');
      } catch (error) {
        throw new AppendRefusedError(`${event.type} for ${stream}: ${(error as Error).message}`);
      }
      return { type: event.type, schemaVersion, payload, payloadText, meta, metaText };
    }),
  }));
}

/** What an append answers, a result per stream in the order asked, from the batches it wrote (or found written). */
export function appendResults<E extends AnyEvent>(appends: readonly { stream: string }[], result: { written: WrittenBatch<E>[]; duplicate: boolean }): AppendResult<E>[] {
  return appends.map(({ stream }, i) => ({
    stream,
    positions: result.written[i]!.rows.map((row) => row.position),
    versions: result.written[i]!.rows.map((row) => row.version),
    events: result.written[i]!.recorded,
    duplicate: result.duplicate,
  }));
}

/**
 * Gives an append's prepared events their places in the chain after `head`: the next positions,
 * each stream's next versions (`versionOf` says where each stream stands, checked against its
 * expected version), the command id on the append's first event, and the hashes. Runs inside the
 * append's transaction; the caller stores the rows.
 */
export function chainAppend<E extends AnyEvent>(
  head: ChainHead,
  batches: readonly PreparedBatch[],
  versionOf: (stream: string) => number,
  commandId: string | null,
): { written: WrittenBatch<E>[]; head: ChainHead } {
  const written: WrittenBatch<E>[] = [];
  let first = true;
  for (const { stream, prepared, expectedVersion } of batches) {
    const actual = versionOf(stream);
    if (expectedVersion !== undefined && actual !== expectedVersion) {
      throw new VersionConflictError(stream, expectedVersion, actual);
    }
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
        command_id: first ? commandId : null,
      };
      first = false;
      const hash = chainHash(head.hash, columns);
      const row: ChainedRow = { ...columns, prev_hash: head.hash, hash };
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
    written.push({ rows, recorded });
  }
  return { written, head };
}

/** How many events the command whose first stored row this is recorded. */
export function commandEventCount(first: ChainedRow): number {
  return Number((JSON.parse(first.meta) as EventMeta).commandEvents ?? 1);
}

/**
 * Whether an append with a command id already stored repeats that command: `first` is the row
 * carrying the id and `rows` every row the command recorded. Returns each batch's share of those
 * rows, to answer with; throws CommandIdReusedError when the id was used for another command.
 */
export function repeatedCommand(
  commandId: string,
  batches: readonly PreparedBatch[],
  request: string | null,
  first: ChainedRow,
  rows: readonly ChainedRow[],
): ChainedRow[][] {
  const firstMeta = JSON.parse(first.meta) as EventMeta;
  const asked = batches.flatMap((b) => b.prepared.map((p) => ({ stream: b.stream, type: p.type, payload: p.payloadText })));
  const stream = batches[0]?.stream ?? first.stream;
  const streams = new Set(batches.map((b) => b.stream));
  if (!rows.every((row) => streams.has(row.stream)) || !streams.has(first.stream)) {
    throw new CommandIdReusedError(commandId, stream, first.stream);
  }
  if (request !== null && typeof firstMeta.request === 'string') {
    if (firstMeta.request !== request) throw new CommandIdReusedError(commandId, first.stream, first.stream, 'a different request');
  } else {
    const same = asked.length === rows.length && asked.every((e, i) => e.stream === rows[i]!.stream && e.type === rows[i]!.type && e.payload === rows[i]!.payload);
    if (!same) throw new CommandIdReusedError(commandId, first.stream, first.stream, `it recorded ${rows.map((r) => r.type).join(', ')} at position ${first.position}`);
  }
  return batches.map((b) => rows.filter((row) => row.stream === b.stream));
}

/** A stored row as an event, its payload brought up to the registry's current schema version. */
export function recordedEvent<E extends AnyEvent>(registry: EventRegistry<E>, row: ChainedRow): RecordedEvent<E> {
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
}

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

  const write = sqlite.transaction((batches: PreparedBatch[], commandId: string | null, request: string | null) => {
    if (commandId !== null) {
      const repeat = repeatOf(commandId, batches, request);
      if (repeat) return { written: repeat, duplicate: true };
    }
    const head: ChainHead = statements.head.get() ?? { position: 0, hash: GENESIS_HASH };
    const { written } = chainAppend<E>(head, batches, (stream) => statements.streamVersion.get(stream)?.version ?? 0, commandId);
    for (const { rows } of written) {
      for (const row of rows) {
        statements.insert.run(
          row.position, row.stream, row.version, row.type, row.schema_version,
          row.payload, row.meta, row.command_id, row.prev_hash, row.hash,
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
    return { written, duplicate: false };
  });

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
    const recorded = result.written.flatMap((w) => w.recorded);
    if (!result.duplicate && recorded.length > 0) {
      for (const listener of listeners) {
        try {
          listener(recorded);
        } catch (error) {
          onListenerError(error);
        }
      }
    }
    return appendResults(appends, result);
  };

  const append: EventStore<E>['append'] = (stream, events, appendOptions = {}) => {
    const { expectedVersion, ...rest } = appendOptions;
    return appendMany([{ stream, events, ...(expectedVersion !== undefined ? { expectedVersion } : {}) }], rest)[0]!;
  };

  return {
    database,
    append,
    appendMany,
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

/**
 * The ledger over one SQLite file, as the command line, the imports and the server's adapter
 * (served-ledger.ts) use it: the event store checked against the domain's event types, with every
 * read model kept folded up to the head, synchronously. Read models are snapshotted with their
 * checkpoint in one transaction, so a restart folds only what came after.
 */
import { type LedgerDatabase, type OpenDatabaseOptions, openDatabase } from './database.ts';
import { type SqliteServedLedger, servedLedger } from './served-ledger.ts';
import { domainEvents } from '../../domain-events.ts';
import { type AppendResult, type RecordedEvent, VersionConflictError } from '../append.ts';
import { type EventStore, type GroupOutcome, type GroupedAppend, createEventStore, ledgerHead, storageFaultOf } from './event-store.ts';
import { GENESIS_HASH } from '../../hash-chain.ts';
import { UnknownEventTypeError } from '../../event-types.ts';
import { readPagesAhead } from './pages-ahead.ts';
import { type Change, type ProjectedEvent, type ReadModels, applyEvent, emptyModels } from '../../projections.ts';
import {
  type ChangeListener,
  type CommandFound,
  type Decisions,
  type ExecuteOptions,
  type LedgerHealth,
  LedgerReadError,
  MODELS_VERSION,
  appendOptionsOf,
  decideAgain,
  decisionAppends,
  foldEvents,
  modelsBytes,
  snapshotDigest as digestOf,
} from '../served-ledger.ts';

// What both stores' ledgers share, so a caller of the file's ledger needs one import.
export * from '../served-ledger.ts';

export interface Ledger {
  readonly backend: 'sqlite';
  readonly store: EventStore;
  readonly database: LedgerDatabase;
  /** Read models folded up to the last position this process has read. */
  readonly models: ReadModels;
  /** The server's ledger over this file (served-ledger.ts): the same adapter every time. */
  readonly served: SqliteServedLedger;
  /**
   * Appends the decisions' events in one transaction, each stream expecting the version the
   * models hold for it: a decision made from a view of a stream that has since moved on is never
   * recorded on top. Given a function, first folds whatever any writer has appended and then
   * decides, and decides again should another writer record first (decideAgain); decisions
   * already made are refused with a VersionConflictError. Folds the result before returning.
   */
  execute(decisions: Decisions, options?: ExecuteOptions): AppendResult[];
  /**
   * Appends several commands already decided in one transaction (the event store's appendGroup),
   * each answered on its own, and folds what was recorded before returning. A storage fault
   * refuses them all and is thrown, as `execute` throws it, and the ledger reports it in `health`.
   */
  commitGroup(commands: readonly GroupedAppend[]): GroupOutcome[];
  /**
   * Folds the events any writer (this process, another server, the command line) has appended
   * since the models' position, in position order, and tells the change listeners. Cheap when
   * nothing changed: SQLite's data_version says whether another connection has committed.
   */
  sync(): number;
  /** Folds what others append every `intervalMs` until the returned function is called. */
  follow(intervalMs?: number): () => void;
  /** Folds what any writer appended, so the models stand at least at `position` if it exists. */
  syncTo(position: number): void;
  /** The first event recorded under a command id: its stream and the request digest it carried. */
  findCommand(commandId: string): CommandFound;
  /** Whether writes are being refused because of the storage (a full disk, a read-only file). */
  health(): LedgerHealth;
  /** Hears what each committed event changed in the read models. */
  onChange(listener: ChangeListener): () => void;
  /** Writes the read models and their checkpoint now. */
  snapshot(): void;
  /** Stores the models and closes the file; never throws (a fault is reported as a notice). */
  close(): void;
}

export interface OpenLedgerOptions extends OpenDatabaseOptions {
  clock?: () => string;
  /** Events between read-model snapshots. */
  snapshotEvery?: number;
  /** Called while folding at open: (done, total). */
  onProgress?: (done: number, total: number) => void;
  /** One line about something the ledger did by itself (a snapshot thrown away). Default: stderr. */
  onNotice?: (line: string) => void;
}

const SNAPSHOT_SCHEMA = `
CREATE TABLE IF NOT EXISTS read_models (
  name TEXT PRIMARY KEY,
  position INTEGER NOT NULL,
  state TEXT NOT NULL
) STRICT;
`;

const SYNC_PAGE = 1000;

/** What a row that cannot be read says of it. */
const OUTSIDE = '; the ledger was changed outside the app (`spades verify` checks the whole chain)';

/** Opens the ledger file and brings the read models up to its head. */
export function openLedger(options: OpenLedgerOptions = {}): Ledger {
  const database = openDatabase(options);
  const notice = options.onNotice ?? ((line: string) => process.stderr.write(`${line}\n`));
  if (!options.readonly) {
    // Under the file's write lock: two processes opening one new file at the same moment would
    // otherwise both find a column missing and both add it.
    database.sqlite
      .transaction(() => {
        database.sqlite.exec(SNAPSHOT_SCHEMA);
        addSnapshotColumns(database);
      })
      .immediate();
  }
  const store = createEventStore(database, { registry: domainEvents, ...(options.clock ? { clock: options.clock } : {}) }) as unknown as EventStore;
  const loaded = loadSnapshot(database);
  if (loaded.rejected) notice(`read models: ${loaded.rejected}; folding them again from the ledger`);
  const models = loaded.models ?? emptyModels();
  catchUp(store, models, options.onProgress);

  const listeners = new Set<ChangeListener>();
  const snapshotEvery = options.snapshotEvery ?? 2000;
  let sinceSnapshot = 0;
  let fault: { reason: string } | null = null;
  let unreadable: string | null = null;
  const dataVersion = database.sqlite.prepare('PRAGMA data_version').pluck();
  let seenDataVersion = dataVersion.get() as number;
  const commandRow = database.sqlite.prepare<[string], { position: number; stream: string; meta: string }>('SELECT position, stream, meta FROM events WHERE command_id = ?');

  const storeSnapshot = () => {
    try {
      writeSnapshot(database, models);
    } catch (error) {
      // A snapshot only saves folding time; the ledger itself is untouched by a failed one.
      const faultOf = storageFaultOf(error);
      if (!faultOf) throw error;
      notice(`read models: not stored at position ${models.position}: ${faultOf.reason}`);
    }
  };

  // Folds events read or committed, in position order; one that cannot be folded stops the ledger.
  const foldPage = (events: RecordedEvent[]) => {
    try {
      foldEvents(models, events, listeners);
    } catch (error) {
      if (error instanceof LedgerReadError) unreadable = error.message;
      throw error;
    }
    sinceSnapshot += events.length;
  };
  const snapshotWhenDue = () => {
    if (sinceSnapshot < snapshotEvery) return;
    sinceSnapshot = 0;
    storeSnapshot();
  };

  const fold = (force: boolean): number => {
    if (unreadable) throw new LedgerReadError(unreadable);
    const version = dataVersion.get() as number;
    if (!force && version === seenDataVersion) return 0;
    seenDataVersion = version;
    let folded = 0;
    for (;;) {
      let events: RecordedEvent[];
      try {
        events = store.readAll({ after: models.position, limit: SYNC_PAGE });
      } catch (error) {
        unreadable = `${(error as Error).message}${OUTSIDE}`;
        throw new LedgerReadError(unreadable);
      }
      foldPage(events);
      folded += events.length;
      if (events.length < SYNC_PAGE) break;
    }
    snapshotWhenDue();
    return folded;
  };

  /** Folds events just committed by this connection, if they follow the models' position with no gap. */
  const foldInHand = (events: RecordedEvent[]): boolean => {
    if (unreadable || events.length === 0 || events[0]!.position !== models.position + 1) return false;
    for (let i = 1; i < events.length; i++) if (events[i]!.position !== events[i - 1]!.position + 1) return false;
    foldPage(events);
    snapshotWhenDue();
    return true;
  };

  const executeOnce = (decisions: Decisions, opts: ExecuteOptions): AppendResult[] => {
    if (typeof decisions === 'function') {
      fold(false);
      decisions = decisions(models);
    }
    const list = Array.isArray(decisions) ? decisions : [decisions];
    if (list.length === 0) return [];
    let results: AppendResult[];
    try {
      results = store.appendMany(decisionAppends(list, models), appendOptionsOf(opts));
    } catch (error) {
      const faultOf = storageFaultOf(error);
      if (faultOf) fault = { reason: faultOf.reason };
      // A stale decision: fold what the others wrote, so the next one is made from the file.
      if (error instanceof VersionConflictError) fold(true);
      throw faultOf ?? error;
    }
    fault = null;
    fold(true);
    return results;
  };

  const ledger: Ledger = {
    backend: 'sqlite',
    store,
    database,
    models,
    get served() {
      return servedLedger(ledger);
    },
    execute(decisions, opts = {}) {
      // A command that loses its race to another writer is decided again from what it wrote.
      for (let attempt = 1; ; attempt++) {
        try {
          return executeOnce(decisions, opts);
        } catch (error) {
          if (!decideAgain(error, decisions, attempt)) throw error;
        }
      }
    },
    commitGroup(commands) {
      let outcomes: GroupOutcome[];
      try {
        outcomes = store.appendGroup(commands);
      } catch (error) {
        const faultOf = storageFaultOf(error);
        if (faultOf) fault = { reason: faultOf.reason };
        throw faultOf ?? error;
      }
      fault = null;
      // The group's events, in hand: folded as they are when nothing else was written before
      // them; otherwise what any writer recorded is read from the file and folded in order.
      const recorded = outcomes.flatMap((o) => ('results' in o && !o.results.some((r) => r.duplicate) ? o.results.flatMap((r) => r.events) : []));
      if (!foldInHand(recorded)) fold(true);
      return outcomes;
    },
    sync: () => fold(false),
    syncTo(position) {
      if (models.position < position) fold(true);
    },
    follow(intervalMs = 100) {
      const timer = setInterval(() => {
        try {
          fold(false);
        } catch (error) {
          if (!(error instanceof LedgerReadError)) throw error;
        }
      }, intervalMs);
      timer.unref();
      return () => clearInterval(timer);
    },
    findCommand(commandId) {
      const row = commandRow.get(commandId);
      if (!row) return null;
      const meta = JSON.parse(row.meta) as { request?: unknown };
      return { position: row.position, stream: row.stream, request: typeof meta.request === 'string' ? meta.request : null };
    },
    health() {
      if (unreadable) return { writable: false, reason: unreadable, position: models.position };
      return fault ? { writable: false, reason: fault.reason, position: models.position } : { writable: true, position: models.position };
    },
    onChange(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    snapshot: () => writeSnapshot(database, models),
    close() {
      // Closing twice (a command's own close, then its caller's) closes once.
      if (!database.sqlite.open) return;
      try {
        if (!options.readonly) storeSnapshot();
      } catch (error) {
        notice(`read models: not stored on close: ${(error as Error).message}`);
      } finally {
        database.close();
      }
    },
  };
  return ledger;
}

// Events per page. A page's text (some 100 KB) stays small enough for the engine's young space;
// pages five times larger each took fresh memory, which cost more than the calls they saved.
const PAGE = 1000;

// One page of rows as one JSON document, column by column: [[position, …], ["type", …],
// [schema version, …], [payload, …], ["stream", …], [version, …]], assembled by SQLite: a rebuild
// reads every row, and handing each row and each column to JavaScript on its own costs more
// than reading and parsing them, and six lists parse faster than a list of a thousand rows.
// SQLite's JSON functions write every column as a JSON value (texts quoted and escaped, the
// payload parsed and written again), so no stored text is ever spliced into the document: a row
// can only be read as the data it holds.
const PAGE_SQL = `
SELECT json_array(json_group_array(position), json_group_array(type), json_group_array(schema_version), json_group_array(json(payload)), json_group_array(stream), json_group_array(version)), max(position)
FROM (SELECT position, type, schema_version, payload, stream, version FROM events WHERE position > ? AND position <= ? ORDER BY position LIMIT ?)`;

type PageColumns = [positions: number[], types: string[], schemaVersions: number[], payloads: unknown[], streams: string[], versions: number[]];

/**
 * How a long fold reads: pages of `page` events; from `readAheadFrom` events left, the pages are
 * shared with a second thread that reads ahead while this one folds (pages-ahead.ts).
 */
export interface FoldReading {
  page: number;
  readAheadFrom: number;
}

export const FOLD_READING: FoldReading = { page: PAGE, readAheadFrom: 40_000 };

/**
 * Folds every event after the models' position, page by page. Reads only the columns the
 * projections need, straight from the file: a rebuild reads every row, so this is its hot path.
 */
export function catchUp(store: EventStore, models: ReadModels, onProgress?: (done: number, total: number) => void, reading: FoldReading = FOLD_READING): void {
  const total = store.head().position;
  const fold = pageFolder(store);
  const sqlite = store.database.sqlite;
  if (!sqlite.memory && total - models.position >= reading.readAheadFrom) {
    const ahead = readPagesAhead(sqlite.name, PAGE_SQL, models.position, total, reading.page);
    try {
      for (let page = ahead.next(); page !== null; page = ahead.next()) {
        if ('text' in page) fold.text(models, page.text);
        else {
          // A page the reader had not read is read here, as a fold on one thread reads.
          while (models.position < page.own.upTo && fold(models, page.own.upTo, reading.page) > 0) continue;
        }
        onProgress?.(models.position, total);
      }
    } finally {
      ahead.close();
    }
  }
  // What is left: all of a short fold, and what was appended since it began.
  while (fold(models, Number.MAX_SAFE_INTEGER, reading.page) > 0) onProgress?.(models.position, total);
}

/** Folds pages of stored events (pageFolder), or a page already read as text. */
export interface PageFolder {
  (models: ReadModels, upTo: number, limit: number): number;
  /** Folds a page read as PAGE_SQL answers it, after the models' position; says how many it folded. */
  text(models: ReadModels, text: string): number;
}

/**
 * Folds pages of stored events into `models`: each call folds the events after the models'
 * position, up to `upTo`, at most `limit` of them, and says how many it folded, keeping each
 * stream's version as of the models' position beside them.
 */
export function pageFolder(store: EventStore): PageFolder {
  const sqlite = store.database.sqlite;
  const page = sqlite.prepare(PAGE_SQL).raw(true);
  const metaAt = sqlite.prepare('SELECT meta FROM events WHERE position = ?').pluck();
  const metaOf = (position: number) => metaAt.get(position) as string;
  // What each event changed is not asked for here: one record of it serves the whole fold.
  let unheard: Change = { games: [], tournaments: [] };
  const foldText = (models: ReadModels, text: string): number => {
    const [positions, types, schemaVersions, payloads, streams, versions] = readPage(sqlite, text, models.position);
    for (let i = 0; i < positions.length; i++) {
      const position = positions[i]!;
      const type = types[i]!;
      const stream = streams[i]!;
      let event: StoredEvent;
      try {
        event = new StoredEvent(position, type, domainEvents.upcast(type, schemaVersions[i]!, payloads[i]), metaOf);
      } catch (error) {
        const problem = error instanceof UnknownEventTypeError ? `its type ${JSON.stringify(type)} is not an event type` : (error as Error).message;
        throw new LedgerReadError(`event ${position}: ${problem}${OUTSIDE}`);
      }
      try {
        applyEvent(models, event, unheard);
        // Let go now and then, not after every event: an emptied list is grown again from nothing.
        if (unheard.games.length + unheard.tournaments.length > 1024) unheard = { games: [], tournaments: [] };
      } catch (error) {
        throw new LedgerReadError(`event ${position} (${type}) cannot be folded: ${(error as Error).message}${OUTSIDE}`);
      }
      // Each stream's version as of the models' position: what the next decision on it expects.
      models.streams[stream] = versions[i]!;
    }
    return positions.length;
  };
  const folder = (models: ReadModels, upTo: number, limit: number): number => {
    let text: string;
    try {
      [text] = page.get(models.position, upTo, limit) as [string, number | null];
    } catch {
      // SQLite refuses a page whose payload is not JSON.
      throw new LedgerReadError(`${unreadableRow(sqlite, models.position)}${OUTSIDE}`);
    }
    return foldText(models, text);
  };
  return Object.assign(folder, { text: foldText });
}

function readPage(sqlite: LedgerDatabase['sqlite'], text: string, after: number): PageColumns {
  let columns: PageColumns;
  try {
    columns = JSON.parse(text) as PageColumns;
  } catch {
    throw new LedgerReadError(`${unreadableRow(sqlite, after)}${OUTSIDE}`);
  }
  // SQLite concatenates in the order the subquery gives, which is position order; should a
  // build ever do otherwise, the page is put back in order rather than folded out of it.
  const positions = columns[0];
  for (let i = 1; i < positions.length; i++) {
    if (positions[i]! < positions[i - 1]!) {
      const order = positions.map((_, j) => j).sort((a, b) => positions[a]! - positions[b]!);
      return columns.map((column) => order.map((j) => column[j])) as PageColumns;
    }
  }
  return columns;
}

/** The first row of a page that cannot be read: its payload is not JSON, or its type is not a name. */
function unreadableRow(sqlite: LedgerDatabase['sqlite'], after: number): string {
  const rows = sqlite.prepare(`SELECT position, type, payload FROM events WHERE position > ? ORDER BY position LIMIT ${PAGE}`).raw(true).all(after) as [number, string, string][];
  for (const [position, type, payload] of rows) {
    if (!/^[A-Za-z0-9]+$/.test(type)) return `event ${position}: its type ${JSON.stringify(type)} is not an event type`;
    try {
      JSON.parse(payload);
    } catch {
      return `event ${position}: its payload is not JSON`;
    }
  }
  return `the events after position ${after} cannot be read`;
}

// Meta is stored as canonical JSON (sorted keys, no spaces), so its `at` can be read without
// parsing the whole object.
const AT = /"at":"([^"]*)"/;

/**
 * A row as the projections read it. Few projections need the append time, so the row's meta
 * is read from the file only when one asks, while the event is being folded.
 */
class StoredEvent implements ProjectedEvent {
  constructor(
    readonly position: number,
    readonly type: string,
    readonly payload: unknown,
    private readonly metaOf: (position: number) => string,
  ) {}

  get at(): string {
    return AT.exec(this.metaOf(this.position))?.[1] ?? '';
  }
}

// Older files have a read_models table without the chain binding; the columns are added in place.
function addSnapshotColumns(database: LedgerDatabase): void {
  const columns = new Set((database.sqlite.prepare("SELECT name FROM pragma_table_info('read_models')").pluck().all() as string[]));
  if (!columns.has('hash')) database.sqlite.exec("ALTER TABLE read_models ADD COLUMN hash TEXT NOT NULL DEFAULT ''");
  if (!columns.has('digest')) database.sqlite.exec("ALTER TABLE read_models ADD COLUMN digest TEXT NOT NULL DEFAULT ''");
}

function hashAt(database: LedgerDatabase, position: number): string | null {
  if (position === 0) return GENESIS_HASH;
  const row = database.sqlite.prepare<[number], { hash: string }>('SELECT hash FROM events WHERE position = ?').get(position);
  return row?.hash ?? null;
}

/**
 * The stored read models, if they can be trusted: the snapshot names the position and the hash
 * of the event it was folded to, and a digest of its own bytes. A snapshot whose bytes were
 * changed, or that stands on a chain the file no longer holds, is refused with the reason.
 */
function loadSnapshot(database: LedgerDatabase): { models: ReadModels | null; rejected?: string } {
  let row: { position: number; state: string; hash: string; digest: string } | undefined;
  try {
    row = database.sqlite.prepare('SELECT position, state, hash, digest FROM read_models WHERE name = ?').get(MODELS_VERSION) as typeof row;
  } catch {
    return { models: null };
  }
  if (!row) return { models: null };
  const where = `the snapshot at position ${row.position}`;
  if (typeof row.state !== 'string' || digestOf(row.state) !== row.digest) return { models: null, rejected: `${where} does not match its digest (it was changed after it was written)` };
  const hash = hashAt(database, row.position);
  if (hash === null) return { models: null, rejected: `${where} stands past the ledger's head ${ledgerHead(database).position}` };
  if (hash !== row.hash) return { models: null, rejected: `${where} was folded from another chain (the event there now has hash ${hash.slice(0, 12)}…, not ${String(row.hash).slice(0, 12)}…)` };
  let models: ReadModels;
  try {
    models = JSON.parse(row.state) as ReadModels;
  } catch {
    return { models: null, rejected: `${where} is not JSON` };
  }
  if (typeof models !== 'object' || models === null || models.position !== row.position || typeof models.streams !== 'object') {
    return { models: null, rejected: `${where} does not hold read models at that position` };
  }
  return { models };
}

/** Writes the models, the position and hash they stand at, and a digest of their bytes, in one statement. */
export function writeSnapshot(database: LedgerDatabase, models: ReadModels): void {
  // Encoded once: the digest is of these bytes, and SQLite stores them as the text they are.
  const state = modelsBytes(models);
  const hash = hashAt(database, models.position) ?? '';
  database.sqlite
    .prepare(
      'INSERT INTO read_models (name, position, state, hash, digest) VALUES (?, ?, CAST(? AS TEXT), ?, ?) ON CONFLICT(name) DO UPDATE SET position = excluded.position, state = excluded.state, hash = excluded.hash, digest = excluded.digest',
    )
    .run(MODELS_VERSION, models.position, state, hash, digestOf(state));
}

/** Throws away the stored read models and folds the whole ledger again from position 0. */
export function rebuildModels(database: LedgerDatabase, store: EventStore, onProgress?: (done: number, total: number) => void): ReadModels {
  const models = emptyModels();
  catchUp(store, models, onProgress);
  database.sqlite.transaction(() => {
    // Snapshots of older model shapes go; the current one is written over in place.
    database.sqlite.prepare('DELETE FROM read_models WHERE name <> ?').run(MODELS_VERSION);
    writeSnapshot(database, models);
  })();
  return models;
}

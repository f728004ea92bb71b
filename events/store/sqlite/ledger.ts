/**
 * The ledger over one SQLite file, as the command line, the imports and the server's adapter
 * (served-ledger.ts) use it: the event store checked against the domain's event types, with every
 * read model kept folded up to the head, synchronously. Read models are snapshotted with their
 * checkpoint in one transaction, so a restart folds only what came after.
 */
import { type LedgerDatabase, type OpenDatabaseOptions, openDatabase } from './database.ts';
import { type SqliteServedLedger, servedLedger } from './served-ledger.ts';
import { domainEvents } from '../../event-catalogue.ts';
import { type AppendResult, type RecordedEvent, VersionConflictError } from '../append.ts';
import { type EventStore, type GroupOutcome, type GroupedAppend, createEventStore, storageFaultOf } from './event-store.ts';
import { type ReadModels, emptyModels } from '../../projections.ts';
import {
  type ChangeListener,
  type CommandFound,
  type Decisions,
  type ExecuteOptions,
  type LedgerHealth,
  LedgerReadError,
  appendOptionsOf,
  decideAgain,
  decisionAppends,
  foldEvents,
} from '../served-ledger.ts';
import { OUTSIDE, catchUp } from './page-fold.ts';
import { createSnapshotTable, loadSnapshot, writeSnapshot } from './snapshots.ts';

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

const SYNC_PAGE = 1000;

/** Opens the ledger file and brings the read models up to its head. */
export function openLedger(options: OpenLedgerOptions = {}): Ledger {
  const database = openDatabase(options);
  const notice = options.onNotice ?? ((line: string) => process.stderr.write(`${line}\n`));
  if (!options.readonly) {
    // Under the file's write lock: two processes opening one new file at the same moment would
    // otherwise both find a column missing and both add it.
    database.sqlite
      .transaction(() => {
        createSnapshotTable(database);
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
  const commandRow = database.sqlite.prepare<[string], { position: number; stream: string; meta: string }>(
    'SELECT position, stream, meta FROM events WHERE command_id = ?',
  );

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

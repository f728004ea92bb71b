/**
 * The ledger as the server uses it: the event store over one SQLite file, checked against the
 * domain's event types, with every read model kept folded up to the head. Read models are
 * snapshotted with their checkpoint in one transaction, so a restart folds only what came after.
 */
import { type LedgerDatabase, type OpenDatabaseOptions, openDatabase } from './database.ts';
import { domainEvents } from './domain-events.ts';
import { type AppendResult, type EventStore, type RecordedEvent, createEventStore } from './event-store.ts';
import type { AnyEvent } from './event-types.ts';
import { type Change, type ProjectedEvent, type ReadModels, applyEvent, emptyModels } from './projections.ts';

/** Events to append to one stream, as commands decide them. */
export interface Decision {
  stream: string;
  events: { type: string; payload: Record<string, unknown> }[];
}

export type ChangeListener = (change: Change, events: RecordedEvent[]) => void;

export interface Ledger {
  readonly store: EventStore;
  readonly database: LedgerDatabase;
  /** Read models folded up to the head. */
  readonly models: ReadModels;
  /** Appends each decision's events (expecting each stream where the decision found it). */
  execute(decisions: Decision | Decision[], options?: { commandId?: string; meta?: Record<string, unknown> }): AppendResult[];
  /** Hears what each committed event changed in the read models. */
  onChange(listener: ChangeListener): () => void;
  /** Writes the read models and their checkpoint now. */
  snapshot(): void;
  close(): void;
}

export interface OpenLedgerOptions extends OpenDatabaseOptions {
  clock?: () => string;
  /** Events between read-model snapshots. */
  snapshotEvery?: number;
  /** Called while folding at open: (done, total). */
  onProgress?: (done: number, total: number) => void;
}

const SNAPSHOT_SCHEMA = `
CREATE TABLE IF NOT EXISTS read_models (
  name TEXT PRIMARY KEY,
  position INTEGER NOT NULL,
  state TEXT NOT NULL
) STRICT;
`;
// Bumped whenever the shape of the read models changes, so an old snapshot is folded again
// from the ledger rather than trusted.
const MODELS_VERSION = 'models-4';

/** The event as the projections read it. */
export function projected(event: RecordedEvent): ProjectedEvent {
  return { position: event.position, type: event.type, payload: event.payload, at: String(event.meta.at) };
}

/** Opens the ledger file and brings the read models up to its head. */
export function openLedger(options: OpenLedgerOptions = {}): Ledger {
  const database = openDatabase(options);
  database.sqlite.exec(SNAPSHOT_SCHEMA);
  const store = createEventStore(database, { registry: domainEvents, ...(options.clock ? { clock: options.clock } : {}) }) as unknown as EventStore;
  const models = loadSnapshot(database) ?? emptyModels();
  catchUp(store, models, options.onProgress);

  const listeners = new Set<ChangeListener>();
  const snapshotEvery = options.snapshotEvery ?? 2000;
  let sinceSnapshot = 0;

  store.subscribe((events) => {
    for (const event of events) {
      const change = applyEvent(models, projected(event));
      for (const listener of listeners) listener(change, [event]);
    }
    sinceSnapshot += events.length;
    if (sinceSnapshot >= snapshotEvery) {
      sinceSnapshot = 0;
      writeSnapshot(database, models);
    }
  });

  return {
    store,
    database,
    models,
    execute(decisions, opts = {}) {
      const list = Array.isArray(decisions) ? decisions : [decisions];
      return list.map((decision, i) =>
        store.append(decision.stream, decision.events as AnyEvent[] as never, {
          expectedVersion: store.streamVersion(decision.stream),
          ...(opts.commandId ? { commandId: list.length > 1 ? `${opts.commandId}#${i}` : opts.commandId } : {}),
          ...(opts.meta ? { meta: opts.meta } : {}),
        }),
      );
    },
    onChange(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    snapshot: () => writeSnapshot(database, models),
    close() {
      writeSnapshot(database, models);
      database.close();
    },
  };
}

// Rows read at a time while folding.
const PAGE = 5000;

// One page of rows as one JSON document, [[position, "type", schema version, payload], …],
// assembled by SQLite: a rebuild reads every row, and handing each row and each column to
// JavaScript on its own cost more than reading and parsing them. Payloads are stored as JSON
// and types are plain names (the registry refuses any other), so the document is JSON.
const PAGE_SQL = `
SELECT '[' || group_concat('[' || position || ',"' || type || '",' || schema_version || ',' || payload || ']', ',') || ']'
FROM (SELECT position, type, schema_version, payload FROM events WHERE position > ? ORDER BY position LIMIT ${PAGE})`;

/** A stored row the fold cannot read at all: the file was changed by something other than the store. */
export class LedgerReadError extends Error {}

type PageRow = [position: number, type: string, schemaVersion: number, payload: unknown];

/**
 * Folds every event after the models' position, page by page. Reads only the columns the
 * projections need, straight from the file: a rebuild reads every row, so this is its hot path.
 */
export function catchUp(store: EventStore, models: ReadModels, onProgress?: (done: number, total: number) => void): void {
  const total = store.head().position;
  const sqlite = store.database.sqlite;
  const page = sqlite.prepare(PAGE_SQL).pluck();
  const metaAt = sqlite.prepare('SELECT meta FROM events WHERE position = ?').pluck();
  const metaOf = (position: number) => metaAt.get(position) as string;
  for (;;) {
    const text = page.get(models.position) as string | null;
    if (text === null) break;
    for (const [position, type, schemaVersion, payload] of readPage(sqlite, text, models.position)) {
      applyEvent(models, new StoredEvent(position, type, domainEvents.upcast(type, schemaVersion, payload), metaOf));
    }
    onProgress?.(models.position, total);
  }
}

function readPage(sqlite: LedgerDatabase['sqlite'], text: string, after: number): PageRow[] {
  let rows: PageRow[];
  try {
    rows = JSON.parse(text) as PageRow[];
  } catch {
    throw new LedgerReadError(`${unreadableRow(sqlite, after)}; the ledger was changed outside the app (\`spades verify\` checks the whole chain)`);
  }
  // SQLite concatenates in the order the subquery gives, which is position order; should a
  // build ever do otherwise, the page is put back in order rather than folded out of it.
  for (let i = 1; i < rows.length; i++) {
    if (rows[i]![0] < rows[i - 1]![0]) return rows.sort((a, b) => a[0] - b[0]);
  }
  return rows;
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

function loadSnapshot(database: LedgerDatabase): ReadModels | null {
  const row = database.sqlite.prepare('SELECT position, state FROM read_models WHERE name = ?').get(MODELS_VERSION) as
    | { position: number; state: string }
    | undefined;
  if (!row) return null;
  const models = JSON.parse(row.state) as ReadModels;
  return models.position === row.position ? models : null;
}

/** Writes the models and the position they stand at in one transaction. */
export function writeSnapshot(database: LedgerDatabase, models: ReadModels): void {
  database.sqlite
    .prepare('INSERT INTO read_models (name, position, state) VALUES (?, ?, ?) ON CONFLICT(name) DO UPDATE SET position = excluded.position, state = excluded.state')
    .run(MODELS_VERSION, models.position, JSON.stringify(models));
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

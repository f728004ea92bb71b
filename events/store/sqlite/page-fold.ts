/**
 * How the SQLite file's ledger folds its events into the read models: a page of rows at a time,
 * read as one JSON document SQLite assembles, and, for a long fold, with a second thread reading
 * the pages ahead (pages-ahead.ts). The ledger folds so at open, a rebuild and a snapshot check
 * fold so from nothing.
 */
import { domainEvents } from '../../event-catalogue.ts';
import { UnknownEventTypeError } from '../../event-registry.ts';
import { type Change, type ProjectedEvent, type ReadModels, applyEvent } from '../../projections.ts';
import { LedgerReadError } from '../served-ledger.ts';
import type { LedgerDatabase } from './database.ts';
import type { EventStore } from './event-store.ts';
import { readPagesAhead } from './pages-ahead.ts';

/** What a row that cannot be read says of it. */
export const OUTSIDE = '; the ledger was changed outside the app (`spades verify` checks the whole chain)';

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
          while (models.position < page.own.upTo && fold(models, page.own.upTo, reading.page) > 0);
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
  const rows = sqlite.prepare(`SELECT position, type, payload FROM events WHERE position > ? ORDER BY position LIMIT ${PAGE}`).raw(true).all(after) as [
    number,
    string,
    string,
  ][];
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

/**
 * The SQLite file's ledger tools, twins of ../postgres/ledger-tools.ts: its rows written out as
 * NDJSON and read back in (the lines of ../ledger-file.ts, every row of an import passing the same
 * checks), the imports recorded beside it, digests noted earlier checked against its chain, and
 * the read models folded again from nothing.
 */
import type { ChainReport } from '../../hash-chain.ts';
import { GENESIS_HASH, parseDigest } from '../../hash-chain.ts';
import type { DigestCheck } from '../append.ts';
import {
  type Backup,
  IMPORTS_TABLE_SQL,
  type ImportNote,
  LedgerImportError,
  type RecordedImport,
  type RowAdmission,
  checkedRows,
  exportHeader,
  exportLine,
  exportSummary,
  exportTrailer,
} from '../ledger-file.ts';
import type { LedgerDatabase } from './database.ts';
import { type EventStore, iterateRows, ledgerHead, verifyChain } from './event-store.ts';
import { type ReadModels, emptyModels } from '../../projections.ts';
import { MODELS_VERSION } from '../served-ledger.ts';
import { catchUp } from './page-fold.ts';
import { checkSnapshots, writeSnapshot } from './snapshots.ts';
import type { LedgerTools } from '../ledger-tools.ts';

/** The ledger's rows in position order, one NDJSON line each (with its newline), without the export's header and trailer. */
export function* exportLines(database: LedgerDatabase, options: { upTo?: number } = {}): Generator<string> {
  for (const row of iterateRows(database, options)) yield exportLine(row);
}

/**
 * The whole export of a ledger file: its header, its rows up to the head as it stood when the
 * export began (another process may append meanwhile), and its trailer.
 */
export function* exportLedger(database: LedgerDatabase): Generator<string> {
  const summary = exportSummary(ledgerHead(database));
  yield exportHeader(summary);
  yield* exportLines(database, { upTo: summary.head.position });
  yield exportTrailer(summary);
}

class ChainRefused extends Error {
  constructor(readonly report: ChainReport) {
    super('the imported chain does not verify');
  }
}

/** The imports recorded beside a ledger file, oldest first; none for a file that never took one. */
export function recordedImports(database: LedgerDatabase): RecordedImport[] {
  try {
    const rows = database.sqlite
      .prepare(
        'SELECT first_position AS first, last_position AS last, imported_by AS by, source, digest, imported_at AS at FROM ledger_imports ORDER BY first_position',
      )
      .all() as RecordedImport[];
    return rows;
  } catch {
    return [];
  }
}

/**
 * Reads NDJSON lines into an empty ledger and verifies the chain in the same transaction: when
 * the chain verifies and every row passes `checkedRows` the rows are committed, otherwise nothing
 * is. Returns the verification.
 */
export function importLedger(database: LedgerDatabase, source: string | Backup, admit?: RowAdmission, note?: ImportNote): ChainReport {
  const { sqlite } = database;
  const insert = sqlite.prepare(
    'INSERT INTO events (position, stream, version, type, schema_version, payload, meta, command_id, prev_hash, hash) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
  );
  const load = sqlite.transaction(() => {
    const existing = (sqlite.prepare('SELECT count(*) AS n FROM events').get() as { n: number }).n;
    if (existing > 0) {
      throw new LedgerImportError(`${database.path} already holds ${existing} events; a ledger can only be imported into an empty file`);
    }
    for (const { line, row } of checkedRows(source, admit)) {
      try {
        insert.run(row.position, row.stream, row.version, row.type, row.schema_version, row.payload, row.meta, row.command_id, row.prev_hash, row.hash);
      } catch (error) {
        throw new LedgerImportError(`line ${line}: position ${row.position} cannot be stored: ${(error as Error).message}`);
      }
    }
    const report = verifyChain(database);
    if (!report.ok) throw new ChainRefused(report);
    if (note && report.count > 0) {
      sqlite.exec(IMPORTS_TABLE_SQL);
      sqlite
        .prepare('INSERT INTO ledger_imports (first_position, last_position, imported_by, source, digest, imported_at) VALUES (?, ?, ?, ?, ?, ?)')
        .run(1, report.head.position, note.by, note.source, note.digest, note.at);
    }
    return report;
  });
  try {
    return load.immediate();
  } catch (error) {
    if (error instanceof ChainRefused) return error.report;
    throw error;
  }
}

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
  if (!row) return { ok: false, reason: `the ledger has no position ${noted.position} any more (its head is ${ledgerHead(database).position})` };
  if (row.hash !== noted.hash) return { ok: false, reason: `position ${noted.position} now has hash ${row.hash}, not the noted ${noted.hash}` };
  const report = verifyChain(database, { upTo: noted.position });
  if (!report.ok)
    return {
      ok: false,
      reason: `the chain up to position ${noted.position} does not verify: position ${report.firstBad!.position}: ${report.firstBad!.reason}`,
    };
  return { ok: true, head: noted };
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

/** The tools' view of a ledger file opened for reading (../ledger-tools.ts). */
export function fileLedgerTools(database: LedgerDatabase): LedgerTools {
  return {
    name: database.path,
    verify: async () => verifyChain(database),
    checkDigest: async (digest) => checkDigest(database, digest),
    snapshots: async () => checkSnapshots(database),
    imports: async () => recordedImports(database),
    exportLines: () => exportLedger(database),
  };
}

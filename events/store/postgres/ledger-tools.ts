/**
 * The ledger on PostgreSQL as the SQLite ledger's tools see theirs: read models folded from it,
 * its rows written out as NDJSON and read back in (the lines of `ledger-file.ts`, every row of an
 * import passing the same checks), and digests noted earlier checked against it. So a ledger can
 * move between the two stores and prove it arrived whole.
 */
import { sql } from 'kysely';
import type { DigestCheck, RecordedEvent } from '../append.ts';
import { LedgerUnavailableError } from '../append.ts';
import { type ChainReport, GENESIS_HASH, parseDigest } from '../../hash-chain.ts';
import {
  type Backup,
  IMPORTS_TABLE_SQL,
  type ImportNote,
  LedgerImportError,
  type ImportedRow,
  type RecordedImport,
  type RowAdmission,
  checkedRows,
  exportHeader,
  exportLine,
  exportSummary,
  exportTrailer,
} from '../ledger-file.ts';
import { LedgerReadError, projected } from '../served-ledger.ts';
import { type PgEventStore, connectionLost, lockHead, moveHead, pgRowPages, pgStorageFaultOf, walkPgChain } from './event-store.ts';
import { type ReadModels, applyEvent, emptyModels } from '../../projections.ts';
import type { LedgerTools } from '../ledger-tools.ts';
import { checkPgSnapshots } from './snapshots.ts';

// Events read at a time while folding, and rows per INSERT while importing.
const FOLD_PAGE = 5000;
const IMPORT_CHUNK = 1000;

const OUTSIDE = '; the ledger was changed outside the app (`spades verify` checks the whole chain)';

/**
 * Folds every event of a PostgreSQL ledger into fresh read models, a page at a time: the same
 * models `rebuildModels` folds from a SQLite ledger holding the same events. Throws
 * LedgerReadError naming the first event that cannot be read or folded.
 */
export async function foldPostgresModels(store: PgEventStore, onProgress?: (done: number, total: number) => void): Promise<ReadModels> {
  const models = emptyModels();
  const total = (await store.head()).position;
  for (;;) {
    let events: RecordedEvent[];
    try {
      events = await store.readAll({ after: models.position, limit: FOLD_PAGE });
    } catch (error) {
      const fault = pgStorageFaultOf(error);
      if (fault) throw fault;
      throw new LedgerReadError(`${(error as Error).message}${OUTSIDE}`);
    }
    for (const event of events) {
      try {
        applyEvent(models, projected(event));
      } catch (error) {
        throw new LedgerReadError(`event ${event.position} (${event.type}) cannot be folded: ${(error as Error).message}${OUTSIDE}`);
      }
    }
    if (events.length > 0) onProgress?.(models.position, total);
    if (events.length < FOLD_PAGE) return models;
  }
}

/**
 * The whole export of a PostgreSQL ledger, exactly as `exportLedger` writes a SQLite ledger's:
 * its header, its rows in position order, one NDJSON line each, and its trailer. Every page is
 * read in one snapshot, with the head the header names, so appends made meanwhile are left out
 * rather than half in.
 */
export async function* exportPostgresLedger(store: PgEventStore): AsyncGenerator<string> {
  const trx = await store.kysely.startTransaction().setIsolationLevel('repeatable read').setAccessMode('read only').execute();
  try {
    const last = await trx.selectFrom('events').select(['position', 'hash']).orderBy('position', 'desc').limit(1).executeTakeFirst();
    const summary = exportSummary(last ?? { position: 0, hash: GENESIS_HASH });
    yield exportHeader(summary);
    for await (const page of pgRowPages(trx, { upTo: summary.head.position })) {
      for (const row of page) yield exportLine(row);
    }
    yield exportTrailer(summary);
  } finally {
    // Nothing was written; ending the snapshot hands the connection back to the pool.
    await trx
      .rollback()
      .execute()
      .catch(() => undefined);
  }
}

/**
 * The connection was lost while an import was being committed, so whether it was recorded is not
 * known. `spades verify` on the database says which; importing again is refused if it was.
 */
export class ImportOutcomeUnknownError extends LedgerUnavailableError {
  constructor(reason: string, code: string) {
    super(reason, code);
    this.message = `the connection to the ledger was lost while the import was being committed (${reason}), so it may or may not have been recorded; spades verify on the database tells which`;
  }
}

class StoreRefused extends Error {
  constructor(
    readonly imported: ImportedRow,
    readonly refusal: unknown,
  ) {
    super(`position ${imported.row.position} cannot be stored`);
  }
}

/**
 * Reads NDJSON lines into an empty PostgreSQL ledger in one transaction, holding the head row's
 * lock throughout so no append can slip in: every row must pass `checkedRows` (the SQLite import's
 * checks), and the chain, read back as stored, must verify; otherwise nothing is kept. `name` is
 * how refusals name the database. Returns the verification.
 */
export async function importPostgresLedger(
  store: PgEventStore,
  source: string | Backup,
  name: string,
  admit?: RowAdmission,
  note?: ImportNote,
): Promise<ChainReport> {
  let commitSent = false;
  try {
    const trx = await store.kysely.startTransaction().execute();
    try {
      await lockHead(trx);
      const { rows } = await sql<{ n: number }>`SELECT count(*) AS n FROM events`.execute(trx);
      const existing = Number(rows[0]!.n);
      if (existing > 0) throw new LedgerImportError(`${name} already holds ${existing} events; a ledger can only be imported into an empty database`);
      let chunk: ImportedRow[] = [];
      const storeChunk = async () => {
        if (chunk.length === 0) return;
        // A chunk the database refuses (a position or a stream's version given twice, say) is
        // stored again row by row from before it, to name the line refused.
        await sql`SAVEPOINT chunk`.execute(trx);
        try {
          await trx
            .insertInto('events')
            .values(chunk.map((c) => c.row))
            .execute();
        } catch (error) {
          if (pgStorageFaultOf(error)) throw error;
          await sql`ROLLBACK TO SAVEPOINT chunk`.execute(trx);
          for (const imported of chunk) {
            try {
              await trx.insertInto('events').values(imported.row).execute();
            } catch (rowError) {
              throw new StoreRefused(imported, rowError);
            }
          }
          throw error;
        }
        chunk = [];
      };
      for (const imported of checkedRows(source, admit)) {
        chunk.push(imported);
        if (chunk.length === IMPORT_CHUNK) await storeChunk();
      }
      await storeChunk();
      const report = await walkPgChain(trx);
      if (!report.ok) {
        await trx.rollback().execute();
        return report;
      }
      if (report.count > 0) await moveHead(trx, report.head);
      if (note && report.count > 0) {
        await sql.raw(IMPORTS_TABLE_SQL).execute(trx);
        await sql`INSERT INTO ledger_imports (first_position, last_position, imported_by, source, digest, imported_at) VALUES (${1}, ${report.head.position}, ${note.by}, ${note.source}, ${note.digest}, ${note.at})`.execute(
          trx,
        );
      }
      commitSent = true;
      await trx.commit().execute();
      return report;
    } catch (error) {
      await trx
        .rollback()
        .execute()
        .catch(() => undefined);
      throw error;
    }
  } catch (error) {
    if (error instanceof StoreRefused) {
      const fault = pgStorageFaultOf(error.refusal);
      if (fault) throw fault;
      const { line, row } = error.imported;
      const detail = (error.refusal as { detail?: unknown }).detail;
      throw new LedgerImportError(
        `line ${line}: position ${row.position} cannot be stored: ${(error.refusal as Error).message}${typeof detail === 'string' ? ` (${detail})` : ''}`,
      );
    }
    const fault = pgStorageFaultOf(error);
    if (fault && commitSent && connectionLost(fault)) throw new ImportOutcomeUnknownError(fault.reason, fault.code);
    throw fault ?? error;
  }
}

/** The imports recorded beside a PostgreSQL ledger, oldest first. */
export async function recordedPostgresImports(store: PgEventStore): Promise<RecordedImport[]> {
  const exists = await sql<{ t: string | null }>`SELECT to_regclass('ledger_imports')::text AS t`.execute(store.kysely);
  if (!exists.rows[0]?.t) return [];
  const { rows } =
    await sql<RecordedImport>`SELECT first_position AS first, last_position AS last, imported_by AS by, source, digest, imported_at AS at FROM ledger_imports ORDER BY first_position`.execute(
      store.kysely,
    );
  return rows.map((r) => ({ ...r, first: Number(r.first), last: Number(r.last) }));
}

/**
 * Says whether a digest noted earlier (`position:hash`) is still part of a PostgreSQL ledger's
 * chain, in the words of `checkDigest` for a SQLite ledger. Throws `DigestFormatError` for text
 * that is not a digest.
 */
export async function checkPostgresDigest(store: PgEventStore, digest: string): Promise<DigestCheck> {
  const noted = parseDigest(digest);
  if (noted.position === 0) {
    return noted.hash === GENESIS_HASH
      ? { ok: true, head: noted }
      : { ok: false, reason: `digest ${digest} names position 0, whose hash is always ${GENESIS_HASH}` };
  }
  const row = await store.kysely.selectFrom('events').select('hash').where('position', '=', noted.position).executeTakeFirst();
  if (!row) return { ok: false, reason: `the ledger has no position ${noted.position} any more (its head is ${(await store.head()).position})` };
  if (row.hash !== noted.hash) return { ok: false, reason: `position ${noted.position} now has hash ${row.hash}, not the noted ${noted.hash}` };
  const report = await store.verifyChain({ upTo: noted.position });
  if (!report.ok)
    return {
      ok: false,
      reason: `the chain up to position ${noted.position} does not verify: position ${report.firstBad!.position}: ${report.firstBad!.reason}`,
    };
  return { ok: true, head: noted };
}

/** The tools' view of a PostgreSQL ledger (../ledger-tools.ts), named as `name` says (its URL without a password). */
export function postgresLedgerTools(store: PgEventStore, name: string): LedgerTools {
  return {
    name,
    verify: () => store.verifyChain(),
    checkDigest: (digest) => checkPostgresDigest(store, digest),
    snapshots: () => checkPgSnapshots(store),
    imports: () => recordedPostgresImports(store),
    exportLines: () => exportPostgresLedger(store),
  };
}

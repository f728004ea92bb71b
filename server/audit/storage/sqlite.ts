/**
 * The heavy reads' adapter for the ledger's SQLite file (storage/heavy-reads.ts): the reads that
 * walk the whole ledger, over a read-only connection of their own: the chain's
 * verification (carried on from where it stopped as the ledger grows, and walked again from
 * position 1 at most every `fullEveryMs` to catch a row edited in place), a tournament as it
 * stood at a past position (the models kept for the last positions asked for, and carried
 * forward from the nearest of them below the one asked), the position an
 * event was appended by a time, and the export a page at a time. Synchronous: the server runs
 * it on a worker thread of its own (../ledger-reader-worker.ts), so these walks never hold up the
 * tables' entries or the screens, nor their garbage collection.
 */
import { type LedgerDatabase, openDatabase } from '../../../events/store/sqlite/database.ts';
import type { DigestCheck } from '../../../events/store/append.ts';
import { createEventStore, ledgerHead } from '../../../events/store/sqlite/event-store.ts';
import { domainEvents } from '../../../events/event-catalogue.ts';
import { type ChainReport, type ChainVerifier, type ChainedRow, chainVerifier } from '../../../events/hash-chain.ts';
import { pageFolder } from '../../../events/store/sqlite/page-fold.ts';
import { exportLine } from '../../../events/store/ledger-file.ts';
import { type ExportPage, exportPageOf } from '../export-pages.ts';
import { type PastAnswer, type PastView, renderPast } from '../past-views.tsx';
import { type ReadModels, emptyModels } from '../../../events/projections.ts';
import { type ResourceAnswer, answerResource } from '../../api/api-registry.ts';
import { personLookup } from '../../../events/player-identity.ts';
import { tournamentStats } from '../../../events/tournament-stats.ts';
import type { ServedLedger } from '../../../events/store/served-ledger.ts';
import type { SqliteServedLedger } from '../../../events/store/sqlite/served-ledger.ts';
import { type ChainCheck, type PastTournament, type StoreReads, digestVerdict, notedDigest } from './heavy-reads.ts';

const COLUMNS = 'position, stream, version, type, schema_version, payload, meta, command_id, prev_hash, hash';
const PAGE = 5000;

export interface LedgerReaderOptions {
  fullEveryMs?: number;
  clock?: () => number;
  /** Past positions whose models are kept. */
  keep?: number;
}

export type LedgerReader = ReturnType<typeof createLedgerReader>;

export function createLedgerReader(database: LedgerDatabase, options: LedgerReaderOptions = {}) {
  const fullEveryMs = options.fullEveryMs ?? 30_000;
  const clock = options.clock ?? Date.now;
  const keep = options.keep ?? 1;
  const { sqlite } = database;
  const store = createEventStore(database, { registry: domainEvents });
  const rows = sqlite.prepare<[number, number, number], ChainedRow>(
    `SELECT ${COLUMNS} FROM events WHERE position > ? AND position <= ? ORDER BY position LIMIT ?`,
  );
  const countUpTo = sqlite.prepare<[number], number>('SELECT count(*) FROM events WHERE position <= ?').pluck();
  const metaAt = sqlite.prepare<[number], string>('SELECT meta FROM events WHERE position = ?').pluck();
  const metaPage = sqlite.prepare<[number, number], { position: number; meta: string }>(
    'SELECT position, meta FROM events WHERE position > ? ORDER BY position LIMIT ?',
  );
  const foldPage = pageFolder(store);
  let verifier: ChainVerifier | null = null;
  let walkedFrom = 0;
  const kept = new Map<number, ReadModels>();

  const modelsAt = (position: number): ReadModels => {
    const found = kept.get(position);
    if (found) {
      kept.delete(position);
      kept.set(position, found);
      return found;
    }
    // Carried forward from the nearest kept position below, when there is one (stepping
    // through the ledger, or a later position asked after an earlier one), else from position 0.
    let below: number | undefined;
    for (const at of kept.keys()) if (at < position && (below === undefined || at > below)) below = at;
    const models = below === undefined ? emptyModels() : kept.get(below)!;
    if (below !== undefined) kept.delete(below);
    while (models.position < position && foldPage(models, position, PAGE) > 0);
    kept.set(position, models);
    while (kept.size > keep) kept.delete(kept.keys().next().value!);
    return models;
  };

  const reader = {
    /**
     * The chain as it stands now: its head read once, and the walk and the count taken up to
     * that head, so the page's head, digest and count all belong to one moment however many
     * events are appended while the walk goes on.
     */
    check(): ChainCheck {
      if (verifier === null || clock() - walkedFrom >= fullEveryMs) {
        verifier = chainVerifier();
        walkedFrom = clock();
      }
      const stored = ledgerHead(database);
      for (;;) {
        const report = verifier.report();
        if (!report.ok || report.head.position >= stored.position) break;
        const page = rows.all(report.head.position, stored.position, PAGE);
        if (page.length === 0) break;
        for (const row of page) if (verifier.feed(row)) break;
      }
      return { report: verifier.report(), events: countUpTo.get(stored.position)!, stored };
    },

    /** A tournament as it stood at `position` (not past the head). */
    tournamentAt(tournamentId: string, position: number): PastTournament {
      const models = modelsAt(position);
      const state = Object.hasOwn(models.tournaments, tournamentId) ? models.tournaments[tournamentId]! : null;
      const meta = models.position > 0 ? metaAt.get(models.position) : undefined;
      return {
        position: models.position,
        at: meta ? String((JSON.parse(meta) as { at?: unknown }).at) : null,
        tournament: state
          ? {
              model: state.model,
              gamesToWin: state.format.gamesToWin,
              stats: tournamentStats(state, models.position, personLookup(models.circuit, tournamentId)),
            }
          : null,
      };
    },

    /** The tournament at `position` made into its as-of page or standings CSV, here rather than on the server's thread. */
    pastView(tournamentId: string, position: number, view: PastView): PastAnswer {
      return renderPast(tournamentId, reader.tournamentAt(tournamentId, position), view);
    },

    /** A resource of the read API as the ledger stood at `position`, answered from the models folded there. */
    pastResource(id: string, params: Readonly<Record<string, string>>, position: number): ResourceAnswer {
      return answerResource(modelsAt(position), id, params);
    },

    /** The last position whose event was appended at or before `ms`. */
    positionAt(ms: number): number {
      let after = 0;
      let found = 0;
      for (;;) {
        const page = metaPage.all(after, PAGE);
        if (page.length === 0) return found;
        for (const row of page) {
          if (Date.parse(String((JSON.parse(row.meta) as { at?: unknown }).at)) > ms) return found;
          found = row.position;
        }
        after = page[page.length - 1]!.position;
      }
    },

    /**
     * The next page of the export as NDJSON (empty at the end): written into `slot` when one is
     * given (memory shared with the server's thread), else as bytes whose buffer the worker
     * hands over without copying (export-pages.ts).
     */
    exportPage(after: number, upTo: number, limit = 1000, slot?: Uint8Array): ExportPage {
      return exportPageOf(rows.all(after, upTo, limit), exportLine, after, slot);
    },
  };
  return reader;
}

/**
 * Whether a digest noted earlier is part of the chain as a walk found it: the chain verifies up
 * to the noted position and the event there still has the noted hash. Throws DigestFormatError.
 */
export function digestAgainst(database: LedgerDatabase, report: ChainReport, digest: string): DigestCheck {
  const { noted, verdict } = notedDigest(digest);
  if (verdict) return verdict;
  const row = database.sqlite.prepare<[number], { hash: string }>('SELECT hash FROM events WHERE position = ?').get(noted.position);
  return digestVerdict(report, noted, row ? { hash: row.hash } : { head: ledgerHead(database).position });
}

/** The reader on a ledger file of its own, opened read-only: what the reader's worker thread runs. */
export function openSqliteReader(path: string): LedgerReader {
  return createLedgerReader(openDatabase({ path, readonly: true }));
}

/**
 * The server's heavy reads over its ledger file: on the worker thread, which opens the file
 * itself, or in this thread for a ledger held in memory.
 */
export function sqliteReads(served: ServedLedger): StoreReads {
  const { database } = (served as SqliteServedLedger).ledger;
  return {
    reader: database.path === ':memory:' ? { local: createLedgerReader(database) } : { source: { path: database.path } },
    digest: (report, text) => digestAgainst(database, report, text),
  };
}

/**
 * The heavy reads' adapter for a ledger in PostgreSQL (storage/heavy-reads.ts): the ledger-wide
 * reads (verification, the NDJSON export, a tournament as of a past position), run on the
 * reader's worker thread (../ledger-reader-worker.ts) over a small pool of its own, as the
 * SQLite reader (sqlite.ts) runs over a read-only connection of its own: the hashing and folding never hold up the tables or the screens. The
 * verification carries on from where the last one stopped and walks again from position 1 at
 * most every `fullEveryMs`, as the SQLite reader's does.
 */
import { sql } from 'kysely';
import type { DigestCheck } from '../../../events/store/append.ts';
import { type ChainReport, type ChainVerifier, chainVerifier } from '../../../events/hash-chain.ts';
import { exportLine } from '../../../events/store/ledger-file.ts';
import { type ServedLedger, foldEvents } from '../../../events/store/served-ledger.ts';
import { type PgEventStore, openPostgresStore } from '../../../events/store/postgres/event-store.ts';
import type { PostgresLedger } from '../../../events/store/postgres/served-ledger.ts';
import { type ReadModels, emptyModels } from '../../../events/projections.ts';
import { type ChainCheck, type PastTournament, type StoreReads, digestVerdict, notedDigest } from './heavy-reads.ts';
import { personLookup } from '../../../events/player-identity.ts';
import { tournamentStats } from '../../../events/tournament-stats.ts';
import { type ExportPage, exportPageOf } from '../export-pages.ts';
import { type PastAnswer, type PastView, renderPast } from '../past-views.tsx';
import { type ResourceAnswer, answerResource } from '../../api/api-registry.ts';

// Rows read at a time.
const PAGE = 1000;

export interface PgHeavyReadOptions {
  fullEveryMs?: number;
  clock?: () => number;
}

export type PgLedgerReader = ReturnType<typeof createPgLedgerReader>;

/**
 * The ledger-wide reads over a PostgreSQL ledger, the SQLite reader's (sqlite.ts) by
 * promise: run on the reader's worker thread, one at a time in the order asked, since the
 * verification and the past models carry on from where the last read left them.
 */
export function createPgLedgerReader(store: PgEventStore, options: PgHeavyReadOptions = {}) {
  const fullEveryMs = options.fullEveryMs ?? 30_000;
  const clock = options.clock ?? Date.now;
  let verifier: ChainVerifier | null = null;
  let walkedFrom = 0;
  let kept: ReadModels | null = null;
  let queue: Promise<unknown> = Promise.resolve();
  const inTurn = <T>(work: () => Promise<T>): Promise<T> => {
    const turn = queue.then(work, work);
    queue = turn.catch(() => undefined);
    return turn;
  };

  const modelsAt = async (position: number): Promise<ReadModels> => {
    const models = kept && kept.position <= position ? kept : emptyModels();
    while (models.position < position) {
      const events = await store.readAll({ after: models.position, limit: Math.min(PAGE, position - models.position) });
      if (events.length === 0) break;
      foldEvents(models, events, []);
    }
    kept = models;
    return models;
  };

  const reader = {
    /**
     * The chain as it stands now: its head read once, and the walk and the count taken up to
     * that head, so the page's head, digest and count all belong to one moment however many
     * events are appended while the walk goes on.
     */
    check: () =>
      inTurn(async (): Promise<ChainCheck> => {
        if (verifier === null || clock() - walkedFrom >= fullEveryMs) {
          verifier = chainVerifier();
          walkedFrom = clock();
        }
        const stored = await store.kysely.selectFrom('ledger_head').select(['position', 'hash']).executeTakeFirstOrThrow();
        for (;;) {
          const report = verifier.report();
          if (!report.ok || report.head.position >= Number(stored.position)) break;
          const page = await store.kysely
            .selectFrom('events')
            .selectAll()
            .where('position', '>', report.head.position)
            .where('position', '<=', Number(stored.position))
            .orderBy('position')
            .limit(PAGE)
            .execute();
          if (page.length === 0) break;
          for (const row of page) if (verifier.feed(row)) break;
        }
        const { rows } = await sql<{ n: string }>`SELECT count(*) AS n FROM events WHERE position <= ${Number(stored.position)}`.execute(store.kysely);
        return { report: verifier.report(), events: Number(rows[0]!.n), stored };
      }),

    /** A tournament as it stood at `position` (not past the head). */
    tournamentAt: (tournamentId: string, position: number) =>
      inTurn(async (): Promise<PastTournament> => {
        const models = await modelsAt(position);
        const state = Object.hasOwn(models.tournaments, tournamentId) ? models.tournaments[tournamentId]! : null;
        const meta =
          models.position > 0
            ? (await store.kysely.selectFrom('events').select('meta').where('position', '=', models.position).executeTakeFirst())?.meta
            : undefined;
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
      }),

    /** The tournament at `position` made into its as-of page or standings CSV, on the reader's thread. */
    pastView: async (tournamentId: string, position: number, view: PastView): Promise<PastAnswer> =>
      renderPast(tournamentId, await reader.tournamentAt(tournamentId, position), view),

    /** A resource of the read API as the ledger stood at `position`, answered from the models folded there. */
    pastResource: (id: string, params: Readonly<Record<string, string>>, position: number) =>
      inTurn(async (): Promise<ResourceAnswer> => answerResource(await modelsAt(position), id, params)),

    /** The last position whose event was appended at or before `ms`. */
    positionAt: (ms: number) =>
      inTurn(async (): Promise<number> => {
        let after = 0;
        let found = 0;
        for (;;) {
          const page = await store.kysely
            .selectFrom('events')
            .select(['position', 'meta'])
            .where('position', '>', after)
            .orderBy('position')
            .limit(PAGE)
            .execute();
          if (page.length === 0) return found;
          for (const row of page) {
            if (Date.parse(String((JSON.parse(row.meta) as { at?: unknown }).at)) > ms) return found;
            found = row.position;
          }
          after = found;
        }
      }),

    /** The next page of the export as NDJSON (empty at the end), into `slot` when one is given (export-pages.ts). */
    exportPage: (after: number, upTo: number, limit = 1000, slot?: Uint8Array) =>
      inTurn(async (): Promise<ExportPage> => {
        const rows = await store.kysely
          .selectFrom('events')
          .selectAll()
          .where('position', '>', after)
          .where('position', '<=', upTo)
          .orderBy('position')
          .limit(limit)
          .execute();
        return exportPageOf(rows, exportLine, after, slot);
      }),
  };
  return reader;
}

/**
 * Whether a digest noted earlier is part of a PostgreSQL ledger's chain as a walk found it, in
 * the words of `digestAgainst` for a file (heavy-reads.ts). Throws DigestFormatError for text that is no digest.
 */
export async function pgDigestAgainst(store: PgEventStore, report: ChainReport, digest: string): Promise<DigestCheck> {
  const { noted, verdict } = notedDigest(digest);
  if (verdict) return verdict;
  const row = await store.kysely.selectFrom('events').select('hash').where('position', '=', noted.position).executeTakeFirst();
  return digestVerdict(report, noted, row ? { hash: row.hash } : { head: (await store.head()).position });
}

/** The reader on a pool of its own to the database at `url`: what the reader's worker thread runs. */
export async function openPostgresReader(url: string): Promise<PgLedgerReader> {
  return createPgLedgerReader(await openPostgresStore({ url, existing: true, poolSize: 2 }));
}

/** The server's heavy reads over a PostgreSQL ledger: on the worker thread, which opens a pool of its own. */
export function postgresReads(served: ServedLedger): StoreReads {
  const { url, store } = served as PostgresLedger;
  return {
    reader: { source: { url } },
    digest: (report, text) => pgDigestAgainst(store, report, text),
  };
}

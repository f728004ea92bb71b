/**
 * The ledger-wide reads (verification, the NDJSON export, a tournament as of a past position)
 * when the ledger is in PostgreSQL. The database does the reading on its own connections; this
 * process only hashes and folds, a page at a time, waiting for each page, so the tables'
 * entries and the screens get their turns in between. The verification carries on from where
 * the last one stopped and walks again from position 1 at most every `fullEveryMs`, as the
 * SQLite reader does (ledger-reader.ts).
 */
import { sql } from 'kysely';
import type { DigestCheck } from '../events/event-store.ts';
import { type ChainReport, type ChainVerifier, GENESIS_HASH, chainVerifier, parseDigest } from '../events/hash-chain.ts';
import { exportLine } from '../events/ledger-file.ts';
import { LedgerReadError, projected } from '../events/ledger.ts';
import type { PgEventStore } from '../events/pg-event-store.ts';
import { type ReadModels, applyEvent, emptyModels } from '../events/projections.ts';
import type { HeavyReads } from './heavy-reads.ts';
import type { ChainCheck, PastTournament } from './ledger-reader.ts';

// Small pages: each is hashed or folded in one go on the server's own thread.
const PAGE = 1000;
const encoder = new TextEncoder();

export interface PgHeavyReadOptions {
  fullEveryMs?: number;
  clock?: () => number;
}

export function createPgHeavyReads(store: PgEventStore, options: PgHeavyReadOptions = {}): HeavyReads {
  const fullEveryMs = options.fullEveryMs ?? 30_000;
  const clock = options.clock ?? Date.now;
  let verifier: ChainVerifier | null = null;
  let walkedFrom = 0;
  let checking: Promise<ChainCheck> | null = null;
  let kept: ReadModels | null = null;

  const walk = async (): Promise<ChainCheck> => {
    if (verifier === null || clock() - walkedFrom >= fullEveryMs) {
      verifier = chainVerifier();
      walkedFrom = clock();
    }
    const stored = await store.kysely.selectFrom('ledger_head').select(['position', 'hash']).executeTakeFirstOrThrow();
    for (;;) {
      const report = verifier.report();
      if (!report.ok) break;
      // One page per turn: other requests run before the next is asked for.
      const page = await store.kysely.selectFrom('events').selectAll().where('position', '>', report.head.position).orderBy('position').limit(PAGE).execute();
      if (page.length === 0) break;
      for (const row of page) if (verifier.feed(row)) break;
    }
    const { rows } = await sql<{ n: string }>`SELECT count(*) AS n FROM events`.execute(store.kysely);
    return { report: verifier.report(), events: Number(rows[0]!.n), stored };
  };

  const modelsAt = async (position: number): Promise<ReadModels> => {
    const models = kept && kept.position <= position ? kept : emptyModels();
    while (models.position < position) {
      const events = await store.readAll({ after: models.position, limit: Math.min(PAGE, position - models.position) });
      if (events.length === 0) break;
      for (const event of events) {
        try {
          applyEvent(models, projected(event));
        } catch (error) {
          throw new LedgerReadError(`event ${event.position} (${event.type}) cannot be folded: ${(error as Error).message}`);
        }
      }
    }
    kept = models;
    // The kept models move on with the next answer: hand out what stood at this position.
    return structuredClone(models);
  };

  return {
    check() {
      checking ??= walk().finally(() => {
        checking = null;
      });
      return checking;
    },
    async digest(report: ChainReport, digest: string): Promise<DigestCheck> {
      const noted = parseDigest(digest);
      if (noted.position === 0) {
        return noted.hash === GENESIS_HASH ? { ok: true, head: noted } : { ok: false, reason: `digest ${digest} names position 0, whose hash is always ${GENESIS_HASH}` };
      }
      const row = await store.kysely.selectFrom('events').select('hash').where('position', '=', noted.position).executeTakeFirst();
      if (!row) return { ok: false, reason: `the ledger has no position ${noted.position} any more (its head is ${(await store.head()).position})` };
      if (row.hash !== noted.hash) return { ok: false, reason: `position ${noted.position} now has hash ${row.hash}, not the noted ${noted.hash}` };
      if (!report.ok && report.firstBad!.position <= noted.position) {
        return { ok: false, reason: `the chain up to position ${noted.position} does not verify: position ${report.firstBad!.position}: ${report.firstBad!.reason}` };
      }
      return { ok: true, head: noted };
    },
    async tournamentAt(tournamentId: string, position: number): Promise<PastTournament> {
      const models = await modelsAt(position);
      const state = Object.hasOwn(models.tournaments, tournamentId) ? models.tournaments[tournamentId]! : null;
      const meta = models.position > 0 ? (await store.kysely.selectFrom('events').select('meta').where('position', '=', models.position).executeTakeFirst())?.meta : undefined;
      return {
        position: models.position,
        at: meta ? String((JSON.parse(meta) as { at?: unknown }).at) : null,
        tournament: state ? { model: state.model, gamesToWin: state.format.gamesToWin } : null,
      };
    },
    async positionAt(ms: number): Promise<number> {
      let after = 0;
      let found = 0;
      for (;;) {
        const page = await store.kysely.selectFrom('events').select(['position', 'meta']).where('position', '>', after).orderBy('position').limit(PAGE).execute();
        if (page.length === 0) return found;
        for (const row of page) {
          if (Date.parse(String((JSON.parse(row.meta) as { at?: unknown }).at)) > ms) return found;
          found = row.position;
        }
        after = found;
      }
    },
    exportStream(upTo: number) {
      let after = 0;
      return new ReadableStream<Uint8Array>(
        {
          async pull(controller) {
            const rows = await store.kysely.selectFrom('events').selectAll().where('position', '>', after).where('position', '<=', upTo).orderBy('position').limit(PAGE).execute();
            if (rows.length === 0) {
              controller.close();
              return;
            }
            after = rows[rows.length - 1]!.position;
            controller.enqueue(encoder.encode(rows.map(exportLine).join('')));
          },
        },
        { highWaterMark: 2 },
      );
    },
  };
}

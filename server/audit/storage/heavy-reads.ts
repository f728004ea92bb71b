/**
 * The auditors' heavy reads (the chain's verification, the NDJSON export, a tournament as it
 * stood at a past position) apart from the store they walk. What runs them (the gate, the
 * reader's worker thread, the export's streams) is written once, in ../heavy-reads.ts and
 * ../ledger-reader-worker.ts, over these interfaces; each store has an adapter beside this
 * file that answers them over a connection of its own: the ledger's SQLite file (sqlite.ts) or
 * a PostgreSQL database (postgres.ts).
 */
import type { DigestCheck } from '../../../events/store/append.ts';
import { type ChainHead, type ChainReport, GENESIS_HASH, parseDigest } from '../../../events/hash-chain.ts';
import type { TournamentModel } from '../../../events/read-models.ts';
import type { TournamentStatsPayload } from '../../../events/stats-schema.ts';
import type { ResourceAnswer } from '../../api/api-registry.ts';
import type { ExportPage } from '../export-pages.ts';
import type { PastAnswer, PastView } from '../past-views.tsx';

export interface ChainCheck {
  report: ChainReport;
  /** The rows the ledger holds, counted (a row deleted from it shows here). */
  events: number;
  /** The head the ledger says it has. */
  stored: ChainHead;
}

/** A tournament as it stood at a past position: what the as-of page and the past CSV show. */
export interface PastTournament {
  /** The position folded to. */
  position: number;
  /** When the event at that position was appended (null at position 0). */
  at: string | null;
  tournament: { model: TournamentModel; gamesToWin: number; stats: TournamentStatsPayload } | null;
}

/** What the heavy reads of a server answer, each on the reader's thread. */
export interface HeavyReads {
  /** The chain as it stands now; callers at the same moment share one walk. */
  check(): Promise<ChainCheck>;
  /** Whether a digest noted earlier is part of the chain as `report` found it. Throws DigestFormatError. */
  digest(report: ChainReport, digest: string): DigestCheck | Promise<DigestCheck>;
  /** The tournament at a past position as its as-of page or standings CSV, made on the reader's thread. */
  pastView(tournamentId: string, position: number, view: PastView): Promise<PastAnswer>;
  /** A resource of the read API as the ledger stood at `position`, answered on the reader's thread. */
  pastResource(id: string, params: Readonly<Record<string, string>>, position: number): Promise<ResourceAnswer>;
  positionAt(ms: number): Promise<number>;
  /** A tournament's statistics as they stood at a past position (null before it was created), folded on the reader's thread. */
  pastStats(tournamentId: string, position: number): Promise<{ position: number; stats: TournamentStatsPayload | null }>;
  /**
   * The ledger as NDJSON up to `upTo`, a page at a time as the client takes it. Given the
   * server's response, the pages are written into it straight from memory shared with the reader.
   */
  exportStream(upTo: number, out?: ExportTarget): ReadableStream<Uint8Array>;
  /**
   * Ends the reader's thread, and with it its hold on the ledger (a file's last reader to let go
   * lets the writer fold the write-ahead log in); reads under way are refused. A read after it
   * starts another.
   */
  close(): Promise<void>;
}

/** The server's response to a client, as the export writes to it (node's ServerResponse). */
export interface ExportTarget {
  readonly headersSent: boolean;
  readonly destroyed: boolean;
  write(chunk: Uint8Array, callback: (error?: Error | null) => void): boolean;
  once(event: 'close', listener: () => void): unknown;
  off(event: 'close', listener: () => void): unknown;
}

/**
 * The walks a store's reader makes over a connection of its own, one at a time: the SQLite
 * reader answers at once, the PostgreSQL reader by promise.
 */
export interface LedgerReads {
  /** The chain as it stands now. */
  check(): ChainCheck | Promise<ChainCheck>;
  /** The tournament at `position` made into its as-of page or standings CSV. */
  pastView(tournamentId: string, position: number, view: PastView): PastAnswer | Promise<PastAnswer>;
  /** A resource of the read API as the ledger stood at `position`. */
  pastResource(id: string, params: Readonly<Record<string, string>>, position: number): ResourceAnswer | Promise<ResourceAnswer>;
  /** The last position whose event was appended at or before `ms`. */
  positionAt(ms: number): number | Promise<number>;
  /** The next page of the export as NDJSON (empty at the end), into `slot` when one is given (export-pages.ts). */
  exportPage(after: number, upTo: number, limit?: number, slot?: Uint8Array): ExportPage | Promise<ExportPage>;
}

/** The ledger the reader's worker thread opens a connection of its own to: a file by its path, or a PostgreSQL database by its URL. */
export type ReaderSource = { path: string } | { url: string };

/** A store's part in a server's heavy reads. */
export interface StoreReads {
  /**
   * Where its reader runs: on the worker thread, which opens `source` itself, or in this thread
   * (`local`) for a ledger held in memory, which no other thread can open.
   */
  reader: { source: ReaderSource } | { local: LedgerReads };
  /** Whether a digest noted earlier is part of the chain as `report` found it, read over the server's own connection. */
  digest(report: ChainReport, digest: string): DigestCheck | Promise<DigestCheck>;
}

/**
 * A digest noted earlier, with the verdict when it names position 0 (whose hash is fixed), so
 * the store need not be asked. Throws DigestFormatError for text that is no digest.
 */
export function notedDigest(digest: string): { noted: ChainHead; verdict: DigestCheck | null } {
  const noted = parseDigest(digest);
  if (noted.position !== 0) return { noted, verdict: null };
  return {
    noted,
    verdict:
      noted.hash === GENESIS_HASH
        ? { ok: true, head: noted }
        : { ok: false, reason: `digest ${digest} names position 0, whose hash is always ${GENESIS_HASH}` },
  };
}

/**
 * Whether a noted digest is part of the chain as a walk found it: the chain verifies up to the
 * noted position and the event there still has the noted hash. `found` is what the store holds
 * at that position: its hash, or (the row gone) the store's head position.
 */
export function digestVerdict(report: ChainReport, noted: ChainHead, found: { hash: string } | { head: number }): DigestCheck {
  if (!('hash' in found)) return { ok: false, reason: `the ledger has no position ${noted.position} any more (its head is ${found.head})` };
  if (found.hash !== noted.hash) return { ok: false, reason: `position ${noted.position} now has hash ${found.hash}, not the noted ${noted.hash}` };
  if (!report.ok && report.firstBad!.position <= noted.position) {
    return {
      ok: false,
      reason: `the chain up to position ${noted.position} does not verify: position ${report.firstBad!.position}: ${report.firstBad!.reason}`,
    };
  }
  return { ok: true, head: noted };
}

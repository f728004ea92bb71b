/**
 * The worker thread that runs the ledger-wide reads (ledger-reader.ts, or pg-heavy-reads.ts for
 * a ledger in PostgreSQL) over a connection of its own, answering one request at a time: its heap, its collections and its
 * CPU time are its own, so the main thread goes on answering tables and screens meanwhile.
 */
import { setPriority } from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import { openDatabase } from '../../events/store/sqlite/database.ts';
import { type LedgerReader, createLedgerReader } from './ledger-reader.ts';
import { openPostgresStore } from '../../events/store/postgres/event-store.ts';
import { type PgLedgerReader, createPgLedgerReader } from './pg-heavy-reads.ts';

export interface ReaderRequest {
  id: number;
  op: 'check' | 'digest' | 'pastView' | 'pastResource' | 'positionAt' | 'exportPage';
  args: unknown[];
}

export type ReaderAnswer = { id: number; value: unknown } | { id: number; error: { name: string; message: string } };

// When the cores are busy, the tables and screens come first. On Linux a thread's nice value is
// its own, so this lowers only the reader thread; elsewhere it may apply to nothing, or be refused.
try {
  setPriority(10);
} catch {
  // running at the normal priority is still correct, only less polite
}

/** The ledger to read: a file by its path, or a PostgreSQL database by its URL. */
export type ReaderSource = { path: string } | { url: string };

const source = workerData as ReaderSource;
const reader: Pick<LedgerReader, ReaderRequest['op']> | PgLedgerReader =
  'url' in source
    ? createPgLedgerReader(await openPostgresStore({ url: source.url, existing: true, poolSize: 2 }))
    : createLedgerReader(openDatabase({ path: source.path, readonly: true }));

parentPort!.on('message', async (request: ReaderRequest) => {
  let answer: ReaderAnswer;
  try {
    const method = (reader as Record<string, unknown>)[request.op] as (...args: unknown[]) => unknown;
    answer = { id: request.id, value: await method(...request.args) };
  } catch (error) {
    answer = { id: request.id, error: { name: (error as Error).constructor.name, message: (error as Error).message } };
  }
  // A page of bytes moves to the server's thread without a copy.
  const value = 'value' in answer ? (answer.value as { bytes?: unknown } | null) : null;
  const bytes = value && typeof value === 'object' && value.bytes instanceof Uint8Array ? value.bytes : null;
  parentPort!.postMessage(answer, bytes ? [bytes.buffer as ArrayBuffer] : []);
});

/**
 * The worker thread that runs the ledger-wide reads (storage/heavy-reads.ts, answered by the
 * store's adapter beside it) over a connection of its own, answering one request at a time: its heap, its collections and its
 * CPU time are its own, so the main thread goes on answering tables and screens meanwhile.
 */
import { setPriority } from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import type { LedgerReads, ReaderSource } from './storage/heavy-reads.ts';
import { openSqliteReader } from './storage/sqlite.ts';
import { openPostgresReader } from './storage/postgres.ts';

export interface ReaderRequest {
  id: number;
  op: keyof LedgerReads;
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

const source = workerData as ReaderSource;
const reader: LedgerReads = 'url' in source ? await openPostgresReader(source.url) : openSqliteReader(source.path);

parentPort!.on('message', async (request: ReaderRequest) => {
  let answer: ReaderAnswer;
  try {
    const method = reader[request.op] as (...args: unknown[]) => unknown;
    answer = { id: request.id, value: await method(...request.args) };
  } catch (error) {
    answer = { id: request.id, error: { name: (error as Error).constructor.name, message: (error as Error).message } };
  }
  // A page of bytes moves to the server's thread without a copy.
  const value = 'value' in answer ? (answer.value as { bytes?: unknown } | null) : null;
  const bytes = value && typeof value === 'object' && value.bytes instanceof Uint8Array ? value.bytes : null;
  parentPort!.postMessage(answer, bytes ? [bytes.buffer as ArrayBuffer] : []);
});

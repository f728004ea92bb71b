/**
 * The public reads that walk the whole ledger (the chain's verification, the NDJSON export, a
 * tournament as it stood at a past position) run on a worker thread with its own connection
 * (ledger-reader-worker.ts, over the store's adapter in storage/), so a room of clients looping
 * on them cannot stall the tables' entries or the screens. At most two such reads run at once,
 * one per address; the rest wait their turn, or are told to come back when too many wait. A
 * ledger in memory (tests) is read in this thread.
 */
import { Worker } from 'node:worker_threads';
import { type LedgerHandle, servedOf } from '../../events/store/served-ledger.ts';
import type { TournamentStatsPayload } from '../../events/stats-schema.ts';
import type { ReaderAnswer, ReaderRequest } from './ledger-reader-worker.ts';
import { readerWorkerFile } from './reader-worker-file.ts';
import { EXPORT_SLOT_BYTES, type ExportPage } from './export-pages.ts';
import type { PastAnswer, PastView } from './past-views.tsx';
import type { ResourceAnswer } from '../api/api-registry.ts';
import type { PastResource } from '../api/api-routes.ts';
import type { ChainCheck, ExportTarget, HeavyReads, LedgerReads, ReaderSource, StoreReads } from './storage/heavy-reads.ts';
import { sqliteReads } from './storage/sqlite.ts';
import { postgresReads } from './storage/postgres.ts';

export type { ExportTarget, HeavyReads } from './storage/heavy-reads.ts';

/** A heavy read refused because its address (or the room) already has its share running. */
export class BusyError extends Error {}

export interface HeavyReadLimits {
  /** Heavy reads running at once over all addresses. */
  concurrent?: number;
  /** Reads that may wait for a turn before more are turned away. */
  queue?: number;
  /** Reads one address may have running or waiting at once; past it, its next is turned away. */
  perAddress?: number;
}

/** The gate every heavy read of a server passes through. */
export type HeavyReadGate = ReturnType<typeof createHeavyReadGate>;

/**
 * Runs heavy reads at most `concurrent` at a time and one at a time per address: a page asking
 * for two at once (a tournament and its statistics) has the second wait for the first rather
 * than be refused, up to `perAddress` in all, so one address cannot fill the room's queue.
 */
export function createHeavyReadGate(limits: HeavyReadLimits = {}) {
  const concurrent = limits.concurrent ?? 2;
  const queueLimit = limits.queue ?? 16;
  const perAddress = limits.perAddress ?? 4;
  // Each address's reads, running or waiting; the last one's end, which its next read waits for.
  const held = new Map<string, { count: number; last: Promise<void> }>();
  const waiting: (() => void)[] = [];
  let running = 0;
  let pending = 0;
  /** The reads one address may have at once, and how many more it may ask for now. */
  const readsOf = (address: string) => ({ quota: perAddress, remaining: perAddress - (held.get(address)?.count ?? 0) });
  return Object.assign(run, { readsOf });
  async function run<T>(address: string, work: () => Promise<T>): Promise<T> {
    const mine = held.get(address);
    if (mine && mine.count >= perAddress)
      throw new BusyError(
        `at most ${perAddress} ledger-wide reads from one address at once, one running and the rest waiting their turn: wait for one to finish`,
      );
    if (pending >= concurrent + queueLimit) throw new BusyError('the server is busy with ledger-wide reads; try again in a few seconds');
    let finished!: () => void;
    const done = new Promise<void>((resolve) => (finished = resolve));
    const before = mine?.last ?? Promise.resolve();
    held.set(address, { count: (mine?.count ?? 0) + 1, last: done });
    pending++;
    try {
      await before;
      if (running >= concurrent) await new Promise<void>((resolve) => waiting.push(resolve));
      running++;
      try {
        return await work();
      } finally {
        running--;
        waiting.shift()?.();
      }
    } finally {
      pending--;
      finished();
      const now = held.get(address)!;
      if (now.count === 1) held.delete(address);
      else now.count--;
    }
  }
}

/** The read API's `?asOf=` answered on the reader's thread, through the gate; `busy` when it turns the read away. */
export function pastResources(reads: HeavyReads, gate: HeavyReadGate): PastResource {
  return async (address, id, params, position) => {
    try {
      return { answer: await gate(address, () => reads.pastResource(id, params, position)) };
    } catch (error) {
      if (error instanceof BusyError) return { busy: error.message };
      throw error;
    }
  };
}

/** An error the reader raised, with its name kept (a digest that is no digest is the caller's to answer). */
export class ReaderError extends Error {
  constructor(
    readonly kind: string,
    message: string,
  ) {
    super(message);
  }
}

type Call = (<R>(op: ReaderRequest['op'], ...args: unknown[]) => Promise<R>) & { close?: () => Promise<void> };

// A worker left idle this long is ended; the next heavy read starts another.
const IDLE_MS = 15_000;

/** Calls a reader on a worker thread, started on first use and ended when idle. */
function workerCalls(source: ReaderSource): Call {
  let worker: Worker | null = null;
  let next = 0;
  let idle: NodeJS.Timeout | null = null;
  const pending = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();
  const failAll = (error: Error) => {
    for (const { reject } of pending.values()) reject(error);
    pending.clear();
    worker = null;
  };
  // Compiled on the first heavy read, then shared by every worker this process starts.
  let file: Promise<URL> | null = null;
  const start = (entry: URL): Worker => {
    // Its heap is bounded: a walk that outgrows it ends the worker (that read answers 503) and
    // the next read starts a fresh one, while the server itself is untouched.
    const started = new Worker(entry, { workerData: source, resourceLimits: { maxOldGenerationSizeMb: 96, maxYoungGenerationSizeMb: 8 } });
    started.unref();
    started.on('message', (answer: ReaderAnswer) => {
      const waiter = pending.get(answer.id);
      if (!waiter) return;
      pending.delete(answer.id);
      if ('error' in answer) waiter.reject(new ReaderError(answer.error.name, answer.error.message));
      else waiter.resolve(answer.value);
      if (pending.size === 0) {
        idle = setTimeout(() => {
          if (pending.size === 0 && worker === started) {
            worker = null;
            void started.terminate();
          }
        }, IDLE_MS);
        idle.unref();
      }
    });
    started.on('error', (error) => failAll(new ReaderError('WorkerError', `the ledger reader failed: ${error.message}`)));
    started.on('exit', () => {
      if (worker === started) failAll(new ReaderError('WorkerError', 'the ledger reader stopped'));
    });
    return started;
  };
  const call: Call = async <R>(op: ReaderRequest['op'], ...args: unknown[]) => {
    const entry = await (file ??= readerWorkerFile());
    return new Promise<R>((resolve, reject) => {
      if (idle) clearTimeout(idle);
      worker ??= start(entry);
      const id = ++next;
      pending.set(id, { resolve: resolve as (value: unknown) => void, reject });
      worker.postMessage({ id, op, args } satisfies ReaderRequest);
    });
  };
  call.close = async () => {
    if (idle) clearTimeout(idle);
    const ending = worker;
    if (!ending) return;
    failAll(new ReaderError('WorkerError', 'the ledger reader stopped: the server is stopping'));
    await ending.terminate();
  };
  return call;
}

/** Calls a reader in this thread (a ledger held in memory has no file a worker could open). */
function localCalls(reader: LedgerReads): Call {
  return async <R>(op: ReaderRequest['op'], ...args: unknown[]) => {
    try {
      return (reader[op] as (...a: unknown[]) => unknown)(...args) as R;
    } catch (error) {
      throw new ReaderError((error as Error).constructor.name, (error as Error).message);
    }
  };
}

/**
 * The heavy reads over a ledger: on a worker thread for a file or a PostgreSQL database, in
 * this thread for a ledger held in memory.
 */
export function createHeavyReads(given: LedgerHandle, options: { exportSlotBytes?: number } = {}): HeavyReads {
  const served = servedOf(given);
  const store: StoreReads = served.backend === 'postgres' ? postgresReads(served) : sqliteReads(served);
  const call = 'local' in store.reader ? localCalls(store.reader.local) : workerCalls(store.reader.source);
  const { digest } = store;
  let checking: Promise<ChainCheck> | null = null;
  return {
    check() {
      checking ??= call<ChainCheck>('check').finally(() => {
        checking = null;
      });
      return checking;
    },
    digest,
    pastView: (tournamentId, position, view) => call<PastAnswer>('pastView', tournamentId, position, view),
    pastResource: (id, params, position) => call<ResourceAnswer>('pastResource', id, params, position),
    positionAt: (ms) => call<number>('positionAt', ms),
    pastStats: async (tournamentId, position) => {
      const answer = await call<PastAnswer>('pastView', tournamentId, position, { kind: 'stats' } satisfies PastView);
      return { position: answer.position, stats: JSON.parse(answer.body) as TournamentStatsPayload | null };
    },
    exportStream: (upTo, out) => (out ? directExport(call, upTo, out, options.exportSlotBytes ?? EXPORT_SLOT_BYTES) : pagedExport(call, upTo)),
    close: async () => call.close?.(),
  };
}

/** The export's pages as a stream, each in a buffer of its own: for a response read in this process. */
function pagedExport(call: Call, upTo: number): ReadableStream<Uint8Array> {
  let after = 0;
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        const page = await call<ExportPage>('exportPage', after, upTo, 1000);
        if (!page.bytes || page.bytes.byteLength === 0) {
          controller.close();
          return;
        }
        after = page.last;
        controller.enqueue(page.bytes);
      },
    },
    { highWaterMark: 2 },
  );
}

/**
 * The export written straight into the server's response, once the headers the app set have
 * gone out: the reader fills one of two slots of shared memory while the socket takes the other,
 * and a slot is filled again only once the socket has taken all of it (the write's callback), so
 * a slow client holds the reader back instead of filling memory. The stream itself carries no
 * bytes: it ends when the last page is written, and the server then ends the response.
 */
function directExport(call: Call, upTo: number, out: ExportTarget, slotBytes: number): ReadableStream<Uint8Array> {
  let stopped = false;
  let fallback: ReadableStreamDefaultReader<Uint8Array> | null = null;
  let started = false;
  // Made when the body is first read (never, for a HEAD request).
  let slots: readonly [Uint8Array, Uint8Array] = [new Uint8Array(0), new Uint8Array(0)];
  const fill = (after: number, slot: 0 | 1) => call<ExportPage>('exportPage', after, upTo, 1000, slots[slot]);
  const written = (chunk: Uint8Array) =>
    new Promise<void>((resolve) => {
      const done = () => {
        out.off('close', gone);
        resolve();
      };
      const gone = () => {
        stopped = true;
        done();
      };
      out.once('close', gone);
      out.write(chunk, (error) => {
        if (error) stopped = true;
        done();
      });
    });
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        if (!started) {
          started = true;
          // The server writes the head as soon as the handler answers, before it reads the body.
          for (let i = 0; i < 3 && !out.headersSent; i++) await new Promise((resolve) => setImmediate(resolve));
          if (!out.headersSent) fallback = pagedExport(call, upTo).getReader();
          else {
            const shared = new SharedArrayBuffer(2 * slotBytes);
            slots = [new Uint8Array(shared, 0, slotBytes), new Uint8Array(shared, slotBytes, slotBytes)];
          }
        }
        if (fallback) {
          const { done, value } = await fallback.read();
          if (done) controller.close();
          else controller.enqueue(value);
          return;
        }
        let slot: 0 | 1 = 0;
        let next = fill(0, slot);
        try {
          while (!stopped && !out.destroyed) {
            const page = await next;
            const chunk = page.bytes ?? slots[slot].subarray(0, page.written);
            if (chunk.byteLength === 0 || stopped || out.destroyed) break;
            const other: 0 | 1 = slot === 0 ? 1 : 0;
            next = fill(page.last, other);
            await written(chunk);
            slot = other;
          }
        } finally {
          next.catch(() => {});
        }
        try {
          controller.close();
        } catch {
          // the server cancelled the stream when the client went away
        }
      },
      cancel() {
        stopped = true;
        return fallback?.cancel();
      },
    },
    { highWaterMark: 0 },
  );
}

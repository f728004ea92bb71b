/**
 * Pages of a ledger file read ahead on a second thread, so a long fold (a rebuild, a start with
 * no snapshot) reads the next pages while this thread folds the last one. The fold stays
 * synchronous, and never stands idle for long: the range to fold is cut into pages of fixed
 * position ranges, and each page is claimed once, by the reader or by this thread, through a
 * shared counter. This thread takes each page in order: from the reader when it has read it;
 * read here when no one has claimed it yet (while the reader starts, or when it has fallen
 * behind); and read here too when the reader has held it a few milliseconds without handing it
 * over (on two cores the reader shares the second with this thread's garbage collector, and
 * with whatever else the machine runs). The reader keeps at most AHEAD pages ahead, so memory
 * stays bounded however long the ledger is.
 *
 * A page's text is written as UTF-8 into a slot of memory both threads share, and read back here
 * as a string: passing each page as a message cost this thread some 0.2 ms a page to take in,
 * against a few µs to read a slot. A page too large for its slot goes as a message instead.
 *
 * Anything the reader cannot do (the file cannot be opened, a page cannot be read, the thread
 * does not answer) leaves the pages to this thread, which reads them as a fold on one thread
 * does, and names a row that cannot be read.
 */
import { createRequire } from 'node:module';
import { MessageChannel, type MessagePort, Worker, receiveMessageOnPort } from 'node:worker_threads';

/** A page: its rows as the reader read them, or the range of positions this thread is to read itself. */
export type Page = { text: string } | { own: { after: number; upTo: number } };

export interface PagesAhead {
  /** The next page in position order; null once every page of the range has been given (or after close). */
  next(): Page | null;
  /** Stops the reader and lets its thread go. */
  close(): void;
}

// Slots of the shared counters: the next page not yet claimed, pages taken by the fold, and the stop asked for.
const CLAIMED = 0;
const TAKEN = 1;
const STOP = 2;

/** Pages the reader may be ahead of the fold. It falls behind for stretches on two cores, so it keeps a deep lead while it can. */
const AHEAD = 64;

/** Bytes of one page's slot (10 MB in all): a page of 1,000 cards played is about 110 KB. */
const SLOT_BYTES = 160 * 1024;

/** How long the fold waits for a page the reader holds before reading it itself. The reader takes about a millisecond a page. */
const STEAL_MS = 3;

// The reader, as CommonJS run from text: it needs only the SQLite driver, so it starts in
// milliseconds with nothing to compile. A slot's `ready` is page + 1 once the slot holds that
// page (its byte count in `bytes`, or -1 when it went as a message), or -(page + 1) when the
// reader could not read it and has stopped.
const READER = `
const { workerData } = require('node:worker_threads');
const { driver, file, sql, after, upTo, size, pages, port, counters, readiness, byteCounts, ring, slotBytes } = workerData;
const signals = new Int32Array(counters);
const ready = new Int32Array(readiness);
const bytes = new Int32Array(byteCounts);
const slots = Buffer.from(ring);
let db = null;
try {
  const Database = require(driver);
  db = new Database(file, { readonly: true, fileMustExist: true });
  const read = db.prepare(sql).raw(true);
  for (;;) {
    if (Atomics.load(signals, ${STOP}) !== 0) break;
    const page = Atomics.load(signals, ${CLAIMED});
    if (page >= pages) break;
    const taken = Atomics.load(signals, ${TAKEN});
    if (page - taken >= ${AHEAD}) {
      Atomics.wait(signals, ${TAKEN}, taken, 1000);
      continue;
    }
    if (Atomics.compareExchange(signals, ${CLAIMED}, page, page + 1) !== page) continue;
    const slot = page % ${AHEAD};
    const from = after + page * size;
    let text;
    try {
      [text] = read.get(from, Math.min(from + size, upTo), size);
    } catch {
      Atomics.store(ready, slot, -(page + 1));
      Atomics.notify(ready, slot);
      break;
    }
    let written = -1;
    if (Buffer.byteLength(text) <= slotBytes) written = slots.write(text, slot * slotBytes, slotBytes);
    else port.postMessage({ page, text });
    bytes[slot] = written;
    Atomics.store(ready, slot, page + 1);
    Atomics.notify(ready, slot);
  }
} catch {
  // The file cannot be opened here: the fold reads every page itself.
} finally {
  if (db) db.close();
  port.close();
}
`;

let driver: string | null | undefined;

/** Where the SQLite driver is, for the reader to load; null when it cannot be found from here. */
function driverPath(): string | null {
  if (driver === undefined) {
    try {
      driver = createRequire(import.meta.url).resolve('better-sqlite3');
    } catch {
      driver = null;
    }
  }
  return driver;
}

/**
 * Cuts the positions after `after` up to `upTo` into pages of `size` positions, and starts a
 * reader of them: `sql` takes a page's (after, upTo, limit) and answers [text, …]. Where no
 * reader can be started, every page is the fold's own to read.
 */
export function readPagesAhead(file: string, sql: string, after: number, upTo: number, size: number, slotBytes = SLOT_BYTES): PagesAhead {
  const pages = Math.max(0, Math.ceil((upTo - after) / size));
  const counters = new SharedArrayBuffer(4 * 3);
  const readiness = new SharedArrayBuffer(4 * AHEAD);
  const byteCounts = new SharedArrayBuffer(4 * AHEAD);
  const signals = new Int32Array(counters);
  const ready = new Int32Array(readiness);
  const bytes = new Int32Array(byteCounts);
  const { port1, port2 } = new MessageChannel();
  let worker: Worker | null = null;
  // A page's text from its slot or its message; null when it cannot be found (the fold then reads the page itself).
  let textOf: (page: number, slot: number) => string | null = () => null;
  const path = driverPath();
  if (path !== null && pages > 1) {
    const ring = new SharedArrayBuffer(AHEAD * slotBytes);
    try {
      worker = new Worker(READER, {
        eval: true,
        workerData: { driver: path, file, sql, after, upTo, size, pages, port: port2, counters, readiness, byteCounts, ring, slotBytes },
        transferList: [port2],
        resourceLimits: { maxOldGenerationSizeMb: 64, maxYoungGenerationSizeMb: 16 },
      });
      // A reader that fails leaves its pages to the fold; its error is not this process's.
      worker.on('error', () => {});
      worker.unref();
      const slots = Buffer.from(ring);
      textOf = (page, slot) => {
        const written = bytes[slot]!;
        if (written >= 0) return slots.toString('utf8', slot * slotBytes, slot * slotBytes + written);
        // Posted before its slot said so; a message for a page this thread read itself is passed over.
        for (let received = receiveMessageOnPort(port1 as MessagePort); received; received = receiveMessageOnPort(port1 as MessagePort)) {
          const message = received.message as { page: number; text: string };
          if (message.page === page) return message.text;
        }
        return null;
      };
    } catch {
      worker = null;
    }
  }
  let taken = 0;
  let done = false;
  const stop = () => {
    if (done) return;
    done = true;
    Atomics.store(signals, STOP, 1);
    Atomics.notify(signals, TAKEN);
    port1.close();
    void worker?.terminate();
    worker = null;
  };
  const take = (page: Page): Page => {
    taken++;
    Atomics.store(signals, TAKEN, taken);
    Atomics.notify(signals, TAKEN);
    return page;
  };
  const own = (page: number): Page => take({ own: { after: after + page * size, upTo: Math.min(after + (page + 1) * size, upTo) } });
  return {
    next() {
      if (done) return null;
      const page = taken;
      if (page >= pages) {
        stop();
        return null;
      }
      const slot = page % AHEAD;
      const since = Date.now();
      for (;;) {
        const state = Atomics.load(ready, slot);
        if (state === page + 1) {
          const text = textOf(page, slot);
          return text === null ? own(page) : take({ text });
        }
        // The reader could not read this page and has stopped: the rest are read here.
        if (state === -(page + 1)) return own(page);
        const claimed = Atomics.load(signals, CLAIMED);
        if (claimed <= page) {
          if (Atomics.compareExchange(signals, CLAIMED, claimed, page + 1) === claimed) return own(page);
          continue;
        }
        // The reader holds this page: a moment for it to land, then it is read here instead.
        if (worker === null || Date.now() - since >= STEAL_MS) return own(page);
        Atomics.wait(ready, slot, state, STEAL_MS);
      }
    },
    close: stop,
  };
}

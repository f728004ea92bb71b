/**
 * Pages of a ledger file read ahead on a second thread, so a long fold (a rebuild, a start with
 * no snapshot) reads the next page while this thread folds the last one. The fold stays
 * synchronous: this thread takes each page as it lands, and waits on a shared counter only when
 * the reader has not yet caught up. The reader keeps a few pages ahead at most, so memory stays
 * bounded however long the ledger is.
 *
 * A page's text is written as UTF-8 into a slot of memory both threads share, and read back here
 * as a string: passing each page as a message cost this thread some 0.2 ms a page to take in,
 * against a few µs to read a slot. A page too large for its slot goes as a message instead.
 *
 * Anything the reader cannot do (the file cannot be opened, a page cannot be read, the thread
 * does not answer) ends it, and the fold goes on reading on its own thread from where it stands;
 * that path names the row that cannot be read.
 */
import { createRequire } from 'node:module';
import { MessageChannel, type MessagePort, Worker, receiveMessageOnPort } from 'node:worker_threads';

/** A page as the reader sends it: the rows as one JSON text, and the last position in it (null: no rows). */
export interface PageText {
  text: string;
  last: number | null;
}

export interface PagesAhead {
  /** The next page, or null when the reader has stopped for any reason (read on from where the fold stands). */
  next(): PageText | null;
  /** Stops the reader and lets its thread go. */
  close(): void;
}

// Slots of the shared counters: pages sent, pages taken, and the stop asked for.
const SENT = 0;
const TAKEN = 1;
const STOP = 2;

/**
 * Pages the reader may be ahead of the fold. On two cores the reader shares the second with this
 * thread's garbage collector and falls behind for stretches, so it keeps a deep lead while it can.
 */
const AHEAD = 64;

/** Bytes of one page's slot (10 MB in all): a page of 1,000 cards played is about 110 KB. */
const SLOT_BYTES = 160 * 1024;

/** How long the fold waits for one page before reading on by itself. A page takes milliseconds. */
const PATIENCE_MS = 30_000;

// The reader, as CommonJS run from text: it needs only the SQLite driver, so it starts in
// milliseconds with nothing to compile.
const READER = `
const { workerData } = require('node:worker_threads');
const { driver, file, sql, after: first, upTo, limit, port, counters, ring, heads, slotBytes } = workerData;
const signals = new Int32Array(counters);
const slots = Buffer.from(ring);
const slotHeads = new Float64Array(heads);
let sent = 0;
// Each page goes to slot (sent % ${AHEAD}): its byte count and last position in the slot's head,
// or -1 bytes when it goes as a message (too large for the slot, or the reader's error).
const send = (message) => {
  const slot = sent % ${AHEAD};
  let bytes = -1;
  if (message.text !== undefined && Buffer.byteLength(message.text) <= slotBytes) bytes = slots.write(message.text, slot * slotBytes, slotBytes);
  slotHeads[2 * slot] = bytes;
  slotHeads[2 * slot + 1] = message.last ?? -1;
  if (bytes < 0) port.postMessage(message);
  sent++;
  Atomics.add(signals, ${SENT}, 1);
  Atomics.notify(signals, ${SENT});
};
let db = null;
try {
  const Database = require(driver);
  db = new Database(file, { readonly: true, fileMustExist: true });
  const page = db.prepare(sql).raw(true);
  let after = first;
  for (;;) {
    for (;;) {
      if (Atomics.load(signals, ${STOP}) !== 0) throw null;
      const taken = Atomics.load(signals, ${TAKEN});
      if (sent - taken < ${AHEAD}) break;
      Atomics.wait(signals, ${TAKEN}, taken, 1000);
    }
    const [text, last] = page.get(after, upTo, limit);
    send({ text, last });
    if (last === null) break;
    after = last;
  }
} catch (error) {
  if (error !== null) send({ error: String(error && error.message) });
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
 * Starts reading pages of `sql` (taking after, upTo and limit, and answering [text, last]) from
 * the file at `file`, after position `after`, up to `upTo`; null when no reader can be started
 * (the fold then reads on its own thread).
 */
export function readPagesAhead(file: string, sql: string, after: number, upTo: number, limit: number, slotBytes = SLOT_BYTES): PagesAhead | null {
  const driver = driverPath();
  if (driver === null) return null;
  const counters = new SharedArrayBuffer(4 * 3);
  const signals = new Int32Array(counters);
  const ring = new SharedArrayBuffer(AHEAD * slotBytes);
  const heads = new SharedArrayBuffer(8 * 2 * AHEAD);
  const slots = Buffer.from(ring);
  const slotHeads = new Float64Array(heads);
  const { port1, port2 } = new MessageChannel();
  let worker: Worker | null;
  try {
    worker = new Worker(READER, {
      eval: true,
      workerData: { driver, file, sql, after, upTo, limit, port: port2, counters, ring, heads, slotBytes },
      transferList: [port2],
      resourceLimits: { maxOldGenerationSizeMb: 64, maxYoungGenerationSizeMb: 16 },
    });
  } catch {
    port1.close();
    return null;
  }
  // A reader that fails is read on from by the fold itself; its error is not this process's.
  worker.on('error', () => {});
  worker.unref();
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
  let taken = 0;
  // The page in slot (taken % AHEAD), once the reader has sent it; undefined while it has not.
  const take = (): PageText | { error: string } | undefined => {
    if (Atomics.load(signals, SENT) <= taken) return undefined;
    const slot = taken % AHEAD;
    const bytes = slotHeads[2 * slot]!;
    let page: PageText | { error: string };
    if (bytes >= 0) {
      const last = slotHeads[2 * slot + 1]!;
      page = { text: slots.toString('utf8', slot * slotBytes, slot * slotBytes + bytes), last: last < 0 ? null : last };
    } else {
      // Posted before it was counted, so it is on the port by now.
      const received = receiveMessageOnPort(port1 as MessagePort);
      if (!received) return undefined;
      page = received.message as PageText | { error: string };
    }
    // The slot is free for the reader again once its text is a string here.
    taken++;
    Atomics.store(signals, TAKEN, taken);
    Atomics.notify(signals, TAKEN);
    return page;
  };
  return {
    next() {
      if (done) return null;
      const until = Date.now() + PATIENCE_MS;
      for (;;) {
        const sent = Atomics.load(signals, SENT);
        const page = take();
        if (page !== undefined) {
          if ('error' in page) {
            stop();
            return null;
          }
          if (page.last === null) stop();
          return page;
        }
        const left = until - Date.now();
        // A message counted but not yet on the port is looked for again in a moment.
        const wait = sent > taken ? Math.min(left, 1) : left;
        if (left <= 0 || (Atomics.wait(signals, SENT, sent, wait) === 'timed-out' && sent <= taken)) {
          stop();
          return null;
        }
      }
    },
    close: stop,
  };
}

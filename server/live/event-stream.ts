/**
 * The public event feed: `GET /api/events` (a page of events as JSON) and
 * `GET /api/events/stream` (every event as SSE, `id` = ledger position, resuming after
 * `Last-Event-ID` with nothing missed or repeated).
 */
import type { Broadcaster, SseSink } from './sse.ts';
import { encodeSse } from './sse.ts';

/** What the feed needs of the ledger. */
export interface FeedSource {
  /** Events after `after`, at most `limit`, in position order. */
  readAfter(after: number, limit: number): { position: number }[] | Promise<{ position: number }[]>;
  headPosition(): number;
}

export const EVENTS_CHANNEL = 'events';
const PAGE = 500;

/**
 * The SSE message for one event. An event fresh from an append holds its payload's keys in the
 * order the command wrote them, the same event read back from the store in sorted order; both
 * are written with nested keys sorted, so a client gets the same bytes live as on catch-up.
 */
export function eventMessage(event: { position: number }): Uint8Array {
  return encodeSse({ id: event.position, data: JSON.stringify(event, nestedKeysSorted) });
}

// A JSON.stringify replacer rather than a full canonical writer: catch-up encodes thousands of
// events in a row, and stored events already come back sorted, so most objects pass untouched.
function nestedKeysSorted(this: unknown, key: string, value: unknown): unknown {
  if (key === '' || value === null || typeof value !== 'object' || Array.isArray(value)) return value;
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record);
  let sorted = true;
  for (let i = 1; i < keys.length && sorted; i++) sorted = keys[i - 1]! < keys[i]!;
  if (sorted) return value;
  const copy: Record<string, unknown> = {};
  for (const k of keys.sort()) copy[k] = record[k];
  return copy;
}

/**
 * Sends what a client missed after `after`, then attaches it to the live channel. While
 * catching up it waits for the client whenever half its buffer is in use, so a long catch-up
 * paces itself to the reader instead of tripping the slow-client bound. The client is attached
 * only when what it was sent reaches the position the models stand at, checked in the same
 * turn as the attach: the models move and their events are broadcast together, so no event
 * can fall between the last one sent and the first one broadcast.
 */
export async function catchUpAndAttach(source: FeedSource, broadcaster: Broadcaster, sink: SseSink, after: number): Promise<void> {
  const pauseAt = broadcaster.maxBufferedBytes / 2;
  let cursor = after;
  let closed = false;
  sink.onClose(() => (closed = true));
  for (;;) {
    if (closed) return;
    const page = await source.readAfter(cursor, PAGE);
    if (closed) return;
    for (const event of page) {
      if (sink.buffered() > pauseAt) {
        // A client that stops reading while it catches up is dropped after the same wait as
        // one that stops reading once attached.
        if (!(await drainedWithin(sink, broadcaster.stallTimeoutMs))) {
          sink.close();
          return;
        }
        if (closed) return;
      }
      if (!sink.write(eventMessage(event))) {
        sink.close();
        return;
      }
      cursor = event.position;
    }
    if (cursor >= source.headPosition()) {
      broadcaster.attach(EVENTS_CHANNEL, sink);
      return;
    }
  }
}

/** Whether the client took its queued bytes within `ms`. */
async function drainedWithin(sink: SseSink, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
  });
  try {
    return await Promise.race([sink.drained().then(() => true as const), late]);
  } finally {
    clearTimeout(timer);
  }
}

/** Reads a resume point from `Last-Event-ID` or `?after=`; null with a reason when malformed. */
export function resumePoint(lastEventId: string | undefined, afterParam: string | undefined): number | { error: string } {
  const raw = lastEventId ?? afterParam;
  if (raw === undefined || raw === '') return 0;
  if (!/^\d+$/.test(raw)) {
    return { error: `${lastEventId !== undefined ? 'Last-Event-ID' : 'after'} must be a ledger position (a whole number ≥ 0), not '${raw}'` };
  }
  return Number(raw);
}

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
  readAfter(after: number, limit: number): { position: number }[];
  headPosition(): number;
}

export const EVENTS_CHANNEL = 'events';
const PAGE = 500;

/** The SSE message for one event. */
export function eventMessage(event: { position: number }): Uint8Array {
  return encodeSse({ id: event.position, data: JSON.stringify(event) });
}

/**
 * Sends what a client missed after `after`, page by page (waiting for the socket to drain
 * between pages), then attaches it to the live channel. The last read and the attach happen in
 * one synchronous step: appends and their broadcasts are synchronous too, so no event can fall
 * between them.
 */
export async function catchUpAndAttach(
  source: FeedSource,
  broadcaster: Broadcaster,
  sink: SseSink & { drained?: () => Promise<void> },
  after: number,
): Promise<void> {
  let cursor = after;
  for (;;) {
    const page = source.readAfter(cursor, PAGE);
    for (const event of page) {
      if (!sink.write(eventMessage(event))) {
        sink.close();
        return;
      }
      cursor = event.position;
    }
    if (page.length < PAGE) {
      broadcaster.attach(EVENTS_CHANNEL, sink);
      return;
    }
    if (sink.drained) await sink.drained();
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

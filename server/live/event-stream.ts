/**
 * The public event feed: `GET /api/events` (a page of events as JSON) and
 * `GET /api/events/stream` (every event as SSE, `id` = ledger position, resuming after
 * `Last-Event-ID` or `?after=` with nothing missed or repeated; a client that names neither
 * starts at the head).
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

/** The channel of one tournament's events: what `?tournament=` follows. */
export function tournamentChannel(tournamentId: string): string {
  return `${EVENTS_CHANNEL}:${tournamentId}`;
}

/**
 * The tournament an event belongs to: the one its payload names, or the one its game is played
 * in (a card, a bid, a claim name only their game); null for an event of no tournament.
 */
export function tournamentOfEvent(
  games: Readonly<Record<string, { tournamentId: string | null }>>,
  event: { position: number; payload?: unknown },
): string | null {
  const payload = event.payload as { tournamentId?: unknown; gameId?: unknown } | undefined;
  if (typeof payload?.tournamentId === 'string') return payload.tournamentId;
  if (typeof payload?.gameId === 'string' && Object.hasOwn(games, payload.gameId)) return games[payload.gameId]!.tournamentId;
  return null;
}
// Events read and written in one turn: about 80 KB of feed, a few milliseconds' work.
const PAGE = 200;

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

/** What a catch-up answers to besides its client: its share of the allowance, and the server's turns. */
export interface CatchUpPacing {
  /** Counts the bytes a page sent against the stream's allowance; resolves once it may send more. */
  spend(bytes: number): Promise<void>;
  /** Waits for the server's next catch-up turn; the function returned ends it. */
  turn(): Promise<() => void>;
}

const UNPACED: CatchUpPacing = { spend: () => Promise.resolve(), turn: () => Promise.resolve(() => {}) };

/**
 * Sends what a client missed after `after`, a page at a time, then attaches it to the live
 * channel. Each page is read and written in a turn of its own (one stream's page at a time over
 * the server, see feed-limits.ts) and counted against the stream's allowance. Whenever half the
 * client's buffer is in use it waits for the client, so a long catch-up paces itself to the
 * reader instead of tripping the slow-client bound. The client is attached only when what it
 * was sent reaches the position the models stand at, checked in the same turn as the attach:
 * the models move and their events are broadcast together, so no event can fall between the
 * last one sent and the first one broadcast.
 */
export async function catchUpAndAttach(
  source: FeedSource,
  broadcaster: Broadcaster,
  sink: SseSink,
  after: number,
  pacing: CatchUpPacing = UNPACED,
  only: { channel: string; keep: (event: { position: number }) => boolean } = { channel: EVENTS_CHANNEL, keep: () => true },
): Promise<void> {
  const channel = only.channel;
  const pauseAt = broadcaster.maxBufferedBytes / 2;
  let cursor = after;
  let closed = false;
  sink.onClose(() => (closed = true));
  // Nothing missed: attached at once, with no turn to wait for.
  if (cursor >= source.headPosition()) {
    broadcaster.attach(channel, sink);
    return;
  }
  for (;;) {
    if (closed) return;
    if (sink.buffered() > pauseAt) {
      // A client that stops reading while it catches up is dropped after the same wait as
      // one that stops reading once attached.
      if (!(await drainedWithin(sink, broadcaster.stallTimeoutMs))) {
        sink.close();
        return;
      }
      continue;
    }
    const endTurn = await pacing.turn();
    let sent = 0;
    try {
      if (closed) return;
      const page = await source.readAfter(cursor, PAGE);
      if (closed) return;
      for (const event of page) {
        // The rest of the page is read again in a later turn, once the client has taken some.
        if (sink.buffered() > pauseAt) break;
        // An event of another tournament is passed over, the client's place moving past it.
        if (!only.keep(event)) {
          cursor = event.position;
          continue;
        }
        const message = eventMessage(event);
        if (!sink.write(message)) {
          sink.close();
          return;
        }
        sent += message.byteLength;
        cursor = event.position;
      }
      if (cursor >= source.headPosition()) {
        broadcaster.attach(channel, sink);
        return;
      }
    } finally {
      endTurn();
    }
    await pacing.spend(sent);
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

/**
 * Reads a resume point from `Last-Event-ID` or `?after=` (`absent` when neither is given); an
 * error with a reason when malformed.
 */
export function resumePoint(lastEventId: string | undefined, afterParam: string | undefined, absent = 0): number | { error: string } {
  const raw = lastEventId ?? afterParam;
  if (raw === undefined || raw === '') return absent;
  if (!/^\d+$/.test(raw)) {
    return { error: `${lastEventId !== undefined ? 'Last-Event-ID' : 'after'} must be a ledger position (a whole number ≥ 0), not '${raw}'` };
  }
  return Number(raw);
}

/**
 * `GET /api/events/stream`: the public event feed, within the feed's limits (feed-limits.ts).
 * A client that names no resume point starts at the head: the whole ledger is for
 * `GET /api/events` to page through, not for every new connection to be sent. `?tournament=`
 * follows one tournament's events only. Any site may read it: an overlay's EventSource on
 * another origin is the feed's purpose.
 */
import type { HttpBindings } from '@hono/node-server';
import type { Context } from 'hono';
import type { ServedLedger } from '../../events/store/served-ledger.ts';
import { EVENTS_CHANNEL, catchUpAndAttach, resumePoint, tournamentChannel, tournamentOfEvent } from './event-stream.ts';
import { type FeedLimits, createCatchUpTurns } from './feed-limits.ts';
import { openStream } from './open-stream.ts';
import { RATE_LIMIT_EXPOSED, rateLimitHeaders } from './rate-limit-headers.ts';
import type { Broadcaster } from './sse.ts';

/** The headers that let any site read the feed, as the read API's answers. */
export const FEED_OPEN: Readonly<Record<string, string>> = {
  'access-control-allow-origin': '*',
  'access-control-expose-headers': `Retry-After, ${RATE_LIMIT_EXPOSED}`,
  'cross-origin-resource-policy': 'cross-origin',
};

export interface FeedRouteOptions {
  ledger: ServedLedger;
  broadcaster: Broadcaster;
  limits: FeedLimits;
  /** The address a request is counted under (the app's, which knows which proxies to believe). */
  addressOf: (c: Context) => string;
}

/** The feed's handler. */
export function eventFeedRoute({ ledger, broadcaster, limits, addressOf }: FeedRouteOptions) {
  const turn = createCatchUpTurns();
  return async (c: Context<{ Bindings: Partial<HttpBindings> }>) => {
    const after = resumePoint(c.req.header('last-event-id'), c.req.query('after'), ledger.models.position);
    if (typeof after !== 'number') return c.json({ error: after.error, code: 'invalid-parameter' }, 400);
    const tournamentId = c.req.query('tournament');
    if (tournamentId !== undefined && !Object.hasOwn(ledger.models.tournaments, tournamentId)) {
      // Echoed only when it could be an id at all: a refusal never carries back what it was sent.
      const named = /^[\w.:-]{1,80}$/.test(tournamentId) ? ` '${tournamentId}'` : ' by that id';
      return c.json({ error: `there is no tournament${named} to follow; the tournaments are listed at /api/v1/tournaments`, code: 'not-found' }, 404);
    }
    // A screen resuming from another process may be ahead of this one: fold up to its id first.
    await ledger.syncTo(after);
    const address = addressOf(c);
    const admitted = limits.admit(address, after < ledger.models.position);
    const streams = () => limits.streamsOf(address);
    const quota = () => rateLimitHeaders('feed-streams', streams().quota, streams().remaining);
    if ('refused' in admitted) {
      // The client is told to come back later: its connection is not kept waiting meanwhile.
      return c.json({ error: admitted.refused, code: 'too-many-streams' }, 429, {
        'retry-after': String(admitted.retryAfterSeconds),
        connection: 'close',
        ...quota(),
      });
    }
    const { ticket } = admitted;
    return openStream(
      c,
      broadcaster,
      (sink) => {
        sink.onClose(ticket.release);
        return catchUpAndAttach(
          // Only what the models have folded: anything after it reaches the client as the fold
          // broadcasts it, so nothing is sent twice or skipped.
          {
            readAfter: (from, limit) => ledger.read({ after: from, limit: Math.max(0, Math.min(limit, ledger.models.position - from)) }),
            headPosition: () => ledger.models.position,
          },
          broadcaster,
          sink,
          after,
          { spend: ticket.spend, turn },
          tournamentId === undefined
            ? { channel: EVENTS_CHANNEL, keep: () => true }
            : { channel: tournamentChannel(tournamentId), keep: (event) => tournamentOfEvent(ledger.models.games, event) === tournamentId },
        );
      },
      { ...FEED_OPEN, ...quota() },
    );
  };
}

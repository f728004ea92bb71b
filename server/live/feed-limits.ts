/**
 * What the public event feed lets one address, and everyone together, take from a server
 * process: streams open at once, and the bytes of catch-up (the events a stream missed, sent
 * before it joins the live channel) as an allowance that refills at a steady rate. A catch-up
 * that spends the allowance waits for it to refill rather than being cut short; a new stream
 * over a cap, or one that would catch up while the allowance is spent, is refused with the
 * seconds to wait. The per-address caps are generous enough for a venue behind one address
 * (every phone of a room's overlay or scoreboard), the server's caps above them, so one address
 * can neither lock the room out nor hold the server's memory or its time.
 */

export interface FeedLimitOptions {
  /** Feed streams open at once from one address. */
  streamsPerAddress?: number;
  /** Feed streams open at once over all addresses. */
  streams?: number;
  /** Catch-up bytes one address may be sent at once, before the refill rate holds it back. */
  catchUpBytesPerAddress?: number;
  /** Catch-up bytes a second an address's allowance refills by. */
  catchUpRatePerAddress?: number;
  /** Catch-up bytes the server sends at once over all addresses. */
  catchUpBytes?: number;
  /** Catch-up bytes a second the server's allowance refills by. */
  catchUpRate?: number;
  /** Seconds a refused client is told to wait for a stream to close (the stall timeout is a good value). */
  streamRetrySeconds?: number;
}

export const FEED_LIMIT_DEFAULTS = {
  streamsPerAddress: 48,
  streams: 1024,
  catchUpBytesPerAddress: 16 * 2 ** 20,
  catchUpRatePerAddress: 2 ** 20,
  catchUpBytes: 64 * 2 ** 20,
  catchUpRate: 4 * 2 ** 20,
  streamRetrySeconds: 30,
} as const satisfies Required<FeedLimitOptions>;

/** An admitted stream: it spends from its address's allowance and gives its place back when it ends. */
export interface FeedTicket {
  /** Counts bytes a catch-up sent; resolves once the allowances allow more (at once, unless spent). */
  spend(bytes: number): Promise<void>;
  /** Gives the stream's place back; later calls do nothing. */
  release(): void;
}

export type FeedAdmission = { ticket: FeedTicket } | { refused: string; retryAfterSeconds: number };

/** The feed's limits for one server process. */
export interface FeedLimits {
  /** Admits a stream from `address`, or says why not; `catchingUp` when it starts behind the head. */
  admit(address: string, catchingUp: boolean): FeedAdmission;
  /** Streams open now (for tests and health). */
  openStreams(): number;
  /** The streams one address may have open at once, and how many more it may open now. */
  streamsOf(address: string): { quota: number; remaining: number };
}

/** An allowance of bytes: at most `capacity`, refilled at `rate` a second, overdrawn by what was sent past it. */
interface Allowance {
  level: number;
  at: number;
}

// A catch-up is admitted only while its allowance holds at least this: about one page of events.
const ENOUGH_TO_START = 256 * 1024;
// Addresses with nothing open and a full allowance are forgotten this often.
const SWEEP_MS = 60_000;

const mib = (bytes: number) => `${Math.round((bytes / 2 ** 20) * 10) / 10} MiB`;

/** Creates the limits; `now` is the clock in milliseconds (Date.now unless a test steps it). */
export function createFeedLimits(options: FeedLimitOptions = {}, now: () => number = Date.now): FeedLimits {
  const limits = { ...FEED_LIMIT_DEFAULTS, ...options };
  const addresses = new Map<string, { streams: number; allowance: Allowance }>();
  const server: Allowance = { level: limits.catchUpBytes, at: now() };
  let streams = 0;
  let swept = now();

  const refill = (allowance: Allowance, capacity: number, rate: number): number => {
    const t = now();
    allowance.level = Math.min(capacity, allowance.level + ((t - allowance.at) / 1000) * rate);
    allowance.at = t;
    return allowance.level;
  };
  const addressLevel = (entry: { allowance: Allowance }) => refill(entry.allowance, limits.catchUpBytesPerAddress, limits.catchUpRatePerAddress);
  const serverLevel = () => refill(server, limits.catchUpBytes, limits.catchUpRate);

  function sweep(): void {
    if (now() - swept < SWEEP_MS) return;
    swept = now();
    for (const [address, entry] of addresses) {
      if (entry.streams === 0 && addressLevel(entry) >= limits.catchUpBytesPerAddress) addresses.delete(address);
    }
  }

  return {
    openStreams: () => streams,
    streamsOf: (address) => ({ quota: limits.streamsPerAddress, remaining: limits.streamsPerAddress - (addresses.get(address)?.streams ?? 0) }),
    admit(address, catchingUp) {
      sweep();
      let entry = addresses.get(address);
      if (!entry) addresses.set(address, (entry = { streams: 0, allowance: { level: limits.catchUpBytesPerAddress, at: now() } }));
      if (entry.streams >= limits.streamsPerAddress) {
        return {
          refused: `this address already has ${limits.streamsPerAddress} event feed connections open, the most one address may have at once; close one, or try again in ${limits.streamRetrySeconds} seconds`,
          retryAfterSeconds: limits.streamRetrySeconds,
        };
      }
      if (streams >= limits.streams) {
        return {
          refused: `the server already has ${limits.streams} event feed connections open, the most it serves at once; try again in ${limits.streamRetrySeconds} seconds`,
          retryAfterSeconds: limits.streamRetrySeconds,
        };
      }
      if (catchingUp) {
        const own = addressLevel(entry);
        if (own < ENOUGH_TO_START) {
          const wait = Math.max(1, Math.ceil((ENOUGH_TO_START - own) / limits.catchUpRatePerAddress));
          return {
            refused: `this address has been sent ${mib(limits.catchUpBytesPerAddress)} of missed events in a short time, the most it may catch up on at once (then ${mib(limits.catchUpRatePerAddress)} a second); try again in ${wait} seconds, or resume from a later event`,
            retryAfterSeconds: wait,
          };
        }
        const all = serverLevel();
        if (all < ENOUGH_TO_START) {
          const wait = Math.max(1, Math.ceil((ENOUGH_TO_START - all) / limits.catchUpRate));
          return {
            refused: `the server is busy sending missed events to other clients; try again in ${wait} seconds, or resume from a later event`,
            retryAfterSeconds: wait,
          };
        }
      }
      const held = entry;
      held.streams++;
      streams++;
      let released = false;
      return {
        ticket: {
          async spend(bytes) {
            held.allowance.level -= bytes;
            server.level -= bytes;
            for (;;) {
              const own = addressLevel(held);
              const all = serverLevel();
              if (own >= 0 && all >= 0) return;
              const ms = Math.max(-own / limits.catchUpRatePerAddress, -all / limits.catchUpRate) * 1000;
              await new Promise((resolve) => setTimeout(resolve, Math.max(10, Math.ceil(ms))));
              if (released) return;
            }
          },
          release() {
            if (released) return;
            released = true;
            held.streams--;
            streams--;
          },
        },
      };
    },
  };
}

/**
 * One page of catch-up at a time over the whole server, each in its own turn of the event loop:
 * however many streams catch up at once, a health check or a page request waits for at most one
 * page to be read and written, never for every stream's page in a row.
 */
export function createCatchUpTurns(): () => Promise<() => void> {
  const waiting: (() => void)[] = [];
  let busy = false;
  const next = () => {
    const resolve = waiting.shift();
    if (resolve) resolve();
    else busy = false;
  };
  return () =>
    new Promise<() => void>((resolve) => {
      let done = false;
      const release = () => {
        if (done) return;
        done = true;
        // The next page waits for the loop to see to sockets and timers first.
        setImmediate(next);
      };
      const grant = () => resolve(release);
      if (busy) waiting.push(grant);
      else {
        busy = true;
        grant();
      }
    });
}

/**
 * The stream caps an operator may set for a larger room: FEED_STREAMS_PER_ADDRESS and
 * FEED_STREAMS (whole numbers ≥ 1); the reason when one is not.
 */
export function feedLimitsFromEnv(env: NodeJS.ProcessEnv): FeedLimitOptions | { error: string } {
  const limits: FeedLimitOptions = {};
  for (const [name, key] of [
    ['FEED_STREAMS_PER_ADDRESS', 'streamsPerAddress'],
    ['FEED_STREAMS', 'streams'],
  ] as const) {
    const text = env[name];
    if (text === undefined || text === '') continue;
    if (!/^\d{1,7}$/.test(text) || Number(text) < 1)
      return { error: `${name} must be a whole number of event feed connections from 1 to 9999999, not '${text.slice(0, 20)}'` };
    limits[key] = Number(text);
  }
  return limits;
}

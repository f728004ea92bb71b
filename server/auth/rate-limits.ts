/**
 * Rate limits on guessing: table codes and passwords. Every attempt is counted before it is
 * checked, so parallel requests cannot slip past a limit while a check is under way, and a
 * success is taken off the count again. The counts are rows beside the ledger (storage/auth-storage.ts),
 * in its file or its PostgreSQL database, so every server process on it counts together; a
 * refused attempt costs one read and writes nothing.
 *
 * Table codes: 10 wrong a minute from one address, for the page that names a code's table and
 * the join itself alike. There is no count over the whole server: a code is one of 31^10, so a
 * per-address limit already makes guessing hopeless (README, Limits), and a server-wide cap
 * would let anyone on the venue's Wi-Fi lock every table's scorekeeper out with a few wrong tries.
 * Check-in codes: 10 wrong a minute from one phone and 60 naming one entrant (createCheckInLimiter);
 * public sign-ups: 96 in ten minutes from one address, a room behind a venue's Wi-Fi.
 * Passwords: 10 wrong a minute from one address; one check at a time for one name from one
 * address; and for one name from anywhere, after 10 wrong in 15 minutes, checks spaced by a
 * delay that doubles from 1 to 8 seconds. That last limit is a delay, not a wall: an attempt
 * waits for its turn (up to 30 seconds), and a browser the account has signed in from before
 * (it carries a signed device cookie naming the account) skips the queue, up to 10 wrong
 * passwords of its own in 15 minutes, so guessing from elsewhere cannot keep the owner out.
 */
import type { HitStore, HitView, NewHit } from './storage/auth-storage.ts';
import { memoryAuthStorage } from './storage/sqlite.ts';

export interface ThrottleOptions {
  /** Names the throttle's keys in the hit log. */
  name?: string;
  /** Hits a key may have within the window; the next is refused. */
  limit?: number;
  windowMs?: number;
  now?: () => number;
  /** Where hits are kept; a private in-memory file when not given. */
  log?: HitStore;
}

export type Throttle = ReturnType<typeof createThrottle>;

/** Hits counted per key over a sliding window; the limit-plus-first is refused. */
export function createThrottle(options: ThrottleOptions = {}) {
  const name = options.name ?? 'throttle';
  const limit = options.limit ?? 10;
  const windowMs = options.windowMs ?? 60_000;
  const now = options.now ?? Date.now;
  const log = options.log ?? memoryAuthStorage().hits;
  const logKey = (key: string) => `${name}:${key}`;
  /** The oldest hit the window still counts at `at`. */
  const since = (at: number) => at - windowMs + 1;
  /** Milliseconds until one more hit of `key` fits, as `view` has the hits, or 0. */
  const waitMs = (view: HitView, key: string, at: number): number => {
    const times = view.times(logKey(key), since(at));
    return times.length < limit ? 0 : times[times.length - limit]! + windowMs - at;
  };
  return {
    name,
    limit,
    windowMs,
    log,
    now,
    key: logKey,
    since,
    waitMs,
    /** Seconds until `key` may try again, or 0. */
    waitFor: async (key: string): Promise<number> => {
      const at = now();
      return seconds(waitMs(await log.read([logKey(key)], since(at)), key, at));
    },
    /** Counts a hit of `key` now. */
    fail: async (key: string): Promise<void> => void (await log.add(logKey(key), now())),
    /** A hit of `key` at `at`, for a step of the log to record. */
    hit: (key: string, at: number): NewHit => ({ key: logKey(key), at }),
    /** Whatever no limit here looks back to any more at `at`, whichever key it was counted under. */
    forgetBefore: (at: number): number => at - Math.max(windowMs, LOGIN_NAME_WINDOW_MS),
  };
}

/** Whole seconds to wait for `ms`, at least 1 when there is any wait. */
export function seconds(ms: number): number {
  return ms > 0 ? Math.max(1, Math.ceil(ms / 1000)) : 0;
}

export type Taken = { ok: true; ticket: number[] } | { ok: false; waitMs: number; throttle: Throttle };

/**
 * Counts one attempt against each throttle's key at once, or against none when any is full.
 * Checked first without the write lock, so a flood of refused attempts writes nothing.
 */
export async function takeAll(log: HitStore, at: number, checks: readonly [Throttle, string][]): Promise<Taken> {
  const keys = checks.map(([throttle, key]) => throttle.key(key));
  const since = Math.min(...checks.map(([throttle]) => throttle.since(at)));
  const full = (view: HitView): Taken | null => {
    for (const [throttle, key] of checks) {
      const wait = throttle.waitMs(view, key, at);
      if (wait > 0) return { ok: false, waitMs: wait, throttle };
    }
    return null;
  };
  const seen = full(await log.read(keys, since));
  if (seen) return seen;
  const taken = await log.take(keys, since, (view) => {
    const refusal = full(view);
    if (refusal) return { value: refusal, hits: [] };
    return {
      value: null,
      hits: checks.map(([throttle, key]) => throttle.hit(key, at)),
      forgetBefore: Math.min(...checks.map(([throttle]) => throttle.forgetBefore(at))),
    };
  });
  return taken.value ?? { ok: true, ticket: taken.ids };
}

/** What an attempt came to: the check's answer, a wrong guess (401), or a refusal with the wait (429). */
export type Attempt<T> = { ok: true; value: T } | { ok: false; status: 401 } | { ok: false; status: 429; waitSeconds: number; message: string };

const refused = (waitMs: number, message: (wait: number) => string): Attempt<never> => ({
  ok: false,
  status: 429,
  waitSeconds: seconds(waitMs),
  message: message(seconds(waitMs)),
});

/** Wrong table codes one address may try in a minute. */
export const JOIN_FAILURES_PER_MINUTE = 10;

/** The limits on trying table codes, for every route that checks one. */
export function createJoinLimiter(options: { log: HitStore; now: () => number }) {
  return createCodeLimiter({ ...options, name: 'join-address', what: 'table codes' });
}

/** Wrong check-in codes one phone (or, without a phone's cookie, one address) may try in a minute. */
export const CHECK_IN_FAILURES_PER_MINUTE = JOIN_FAILURES_PER_MINUTE;

/** Wrong check-in codes naming one entrant, from anywhere but its own phone, in a minute. */
export const CHECK_IN_FAILURES_PER_ENTRANT = 60;

/**
 * The limits on trying an entrant's check-in code. A wrong code counts against the phone that
 * sent it (its cookie; a request without one counts against its address) and against the entrant
 * it names, unless that phone is the entrant's own (the one it signed up with). So a room behind
 * one address checks in together, one person guessing locks out only their own phone, and no
 * code can be guessed faster than 10 tries a minute from anywhere (README, Limits).
 */
export function createCheckInLimiter(options: { log: HitStore; now: () => number }) {
  const { log, now } = options;
  const perPhone = createThrottle({ name: 'check-in-phone', limit: CHECK_IN_FAILURES_PER_MINUTE, windowMs: 60_000, log, now });
  const perEntrant = createThrottle({ name: 'check-in-entrant', limit: CHECK_IN_FAILURES_PER_ENTRANT, windowMs: 60_000, log, now });
  return {
    /**
     * Counts a try of a code for `entrant` from `phone` (a cookie's id, or `address:…`), then runs
     * `check`; a right code is taken off the counts. `own` says the phone signed this entrant up.
     */
    async attempt<T>(phone: string, entrant: string, own: boolean, check: () => T | null | Promise<T | null>): Promise<Attempt<T>> {
      const checks: [Throttle, string][] = [[perPhone, phone], ...(own ? [] : [[perEntrant, entrant] as [Throttle, string]])];
      const taken = await takeAll(log, now(), checks);
      if (!taken.ok) {
        const mine = taken.throttle === perPhone;
        return refused(taken.waitMs, (s) =>
          mine
            ? `this phone has tried ${CHECK_IN_FAILURES_PER_MINUTE} wrong check-in codes in the last minute; try again ${waitWords(s)}, or check in at the director's desk`
            : `many wrong check-in codes were tried for this entrant in the last minute; try again ${waitWords(s)}, or check in at the director's desk`,
        );
      }
      const value = await check();
      if (value === null) return { ok: false, status: 401 };
      await log.remove(taken.ticket);
      return { ok: true, value };
    },
  };
}

/** Sign-ups one address may make in ten minutes: a whole room behind a venue's Wi-Fi, not a flood. */
export const SIGN_UPS_PER_TEN_MINUTES = 96;

/** A wait in people's words: "in a minute", "in 10 minutes". */
export function waitWords(seconds: number): string {
  const minutes = Math.ceil(seconds / 60);
  return minutes <= 1 ? 'in a minute' : `in ${minutes} minutes`;
}

/**
 * The limit on public sign-ups: each one counts against its address, whatever the ledger answers
 * it; one the server could not record at all (the ledger busy or unwritable) is taken off again,
 * as the person's request was never answered.
 */
export function createSignUpLimiter(options: { log: HitStore; now: () => number }) {
  const { log, now } = options;
  const perAddress = createThrottle({ name: 'sign-up-address', limit: SIGN_UPS_PER_TEN_MINUTES, windowMs: 10 * 60_000, log, now });
  return {
    /**
     * Counts a sign-up from `address`, with how to take it off again; a refusal with the wait when
     * the address has had its share.
     */
    async attempt(address: string): Promise<{ ok: true; takeBack: () => Promise<void> } | { ok: false; waitSeconds: number; message: string }> {
      const taken = await takeAll(log, now(), [[perAddress, address]]);
      if (taken.ok) return { ok: true, takeBack: () => log.remove(taken.ticket) };
      const wait = seconds(taken.waitMs);
      return {
        ok: false,
        waitSeconds: wait,
        message: `${SIGN_UPS_PER_TEN_MINUTES} sign-ups have come from this network in the last ten minutes, more than a room makes; try again ${waitWords(wait)}, or sign up at the director's desk`,
      };
    },
  };
}

/** Codes tried from one address: 10 wrong a minute; a right one is taken off the count. */
function createCodeLimiter(options: { log: HitStore; now: () => number; name: string; what: string }) {
  const { log, now, what } = options;
  const perAddress = createThrottle({ name: options.name, limit: JOIN_FAILURES_PER_MINUTE, windowMs: 60_000, log, now });
  return {
    /** Counts a try of a code from `address`, then runs `check`; a right code is taken off the count. */
    async attempt<T>(address: string, check: () => T | null | Promise<T | null>): Promise<Attempt<T>> {
      const taken = await takeAll(log, now(), [[perAddress, address]]);
      if (!taken.ok) return refused(taken.waitMs, (s) => `too many wrong ${what} from this address in the last minute; try again in ${s} seconds`);
      const value = await check();
      if (value === null) return { ok: false, status: 401 };
      await log.remove(taken.ticket);
      return { ok: true, value };
    },
  };
}

export const LOGIN_FREE_FAILURES = 10;
export const LOGIN_NAME_WINDOW_MS = 15 * 60_000;
export const LOGIN_MAX_SPACING_MS = 8_000;
const LOGIN_MAX_HOLD_MS = 30_000;

/** The spacing between checks of one name after `failures` wrong passwords for it in the window. */
export function loginSpacingMs(failures: number): number {
  return failures < LOGIN_FREE_FAILURES ? 0 : Math.min(1000 * 2 ** (failures - LOGIN_FREE_FAILURES), LOGIN_MAX_SPACING_MS);
}

/** The limits on signing in with a password. */
export function createLoginLimiter(options: { log: HitStore; now: () => number; sleep?: (ms: number) => Promise<void> }) {
  const { log, now } = options;
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  const perAddress = createThrottle({ name: 'login-address', limit: 10, windowMs: 60_000, log, now });
  // One check at a time for a name from an address: the hit is taken off when the check ends,
  // and a crashed check's hit runs out with the window.
  const pending = createThrottle({ name: 'login-pending', limit: 1, windowMs: 60_000, log, now });
  const perName = createThrottle({ name: 'login-name', limit: Number.MAX_SAFE_INTEGER, windowMs: LOGIN_NAME_WINDOW_MS, log, now });
  const turns = createThrottle({ name: 'login-turn', limit: Number.MAX_SAFE_INTEGER, windowMs: LOGIN_NAME_WINDOW_MS, log, now });
  // A known device skips the name's queue only while its own wrong passwords stay few.
  const perDevice = createThrottle({ name: 'login-device', limit: LOGIN_FREE_FAILURES, windowMs: LOGIN_NAME_WINDOW_MS, log, now });

  /** An attempt let through: its turn, the hits taken off again on success, the name's turn, the check under way. */
  type Turn = { turn: number; counted: NewHit[]; queued: NewHit[]; pending: NewHit };
  type Stands = { refusal: Attempt<never> } | Turn;

  /** Where an attempt stands as `view` has the hits: refused, or its turn and the hits to record. */
  function step(view: HitView, who: string, label: string, address: string, device: string | null, at: number): Stands {
    const addressWait = perAddress.waitMs(view, address, at);
    if (addressWait > 0) return { refusal: refused(addressWait, (s) => `too many wrong passwords in the last minute; try again in ${s} seconds`) };
    const pendingWait = pending.waitMs(view, `${who}|${address}`, at);
    if (pendingWait > 0) return { refusal: refused(1000, () => `a sign-in as ${label} from this address is already being checked; wait for its answer`) };
    const known = device !== null && perDevice.waitMs(view, device, at) === 0;
    let turn = at;
    if (!known) {
      const failures = view.times(perName.key(who), at - LOGIN_NAME_WINDOW_MS + 1).length;
      const last = view.latest(turns.key(who));
      turn = last === null ? at : Math.max(at, last + loginSpacingMs(failures));
      if (turn - at > LOGIN_MAX_HOLD_MS) {
        return {
          refusal: refused(
            turn - at - LOGIN_MAX_HOLD_MS,
            (s) => `${label} has had many wrong passwords in the last 15 minutes, so its sign-ins are checked one at a time; try again in ${s} seconds`,
          ),
        };
      }
    }
    const counted = [perAddress.hit(address, at), perName.hit(who, at)];
    if (known) counted.push(perDevice.hit(device, at));
    return { turn, counted, queued: known ? [] : [turns.hit(who, turn)], pending: pending.hit(`${who}|${address}`, at) };
  }

  return {
    /**
     * Counts a sign-in attempt for `name` from `address` before anything is checked, waits for
     * the name's turn, then runs `check`; a right password is taken off the counts. `device` is
     * the id of the request's device cookie when it names this account.
     */
    async attempt<T>(name: string, address: string, check: () => Promise<T | null>, device: string | null = null): Promise<Attempt<T>> {
      const label = name.trim();
      const who = label.toLowerCase();
      const at = now();
      // Every hit a step reads lies within the longest window, the name's 15 minutes; a turn
      // older than that is long past, as a queue's turns are at most 8 seconds apart.
      const keys = [
        perAddress.key(address),
        pending.key(`${who}|${address}`),
        perName.key(who),
        turns.key(who),
        ...(device !== null ? [perDevice.key(device)] : []),
      ];
      const since = at - LOGIN_NAME_WINDOW_MS + 1;
      const first = step(await log.read(keys, since), who, label, address, device, at);
      if ('refusal' in first) return first.refusal;
      const { value: taken, ids } = await log.take<Stands>(keys, since, (view) => {
        const stands = step(view, who, label, address, device, at);
        if ('refusal' in stands) return { value: stands, hits: [] };
        return { value: stands, hits: [...stands.counted, ...stands.queued, stands.pending], forgetBefore: perName.forgetBefore(at) };
      });
      if ('refusal' in taken) return taken.refusal;
      const counted = ids.slice(0, taken.counted.length);
      const pendingId = ids.at(-1)!;
      try {
        if (taken.turn > at) await sleep(taken.turn - at);
        const value = await check();
        if (value === null) return { ok: false, status: 401 };
        await log.remove(counted);
        return { ok: true, value };
      } finally {
        await log.remove([pendingId]);
      }
    },
  };
}

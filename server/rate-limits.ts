/**
 * Rate limits on guessing: table codes and passwords. Every attempt is counted before it is
 * checked, so parallel requests cannot slip past a limit while a check is under way, and a
 * success is taken off the count again. The counts are rows in the ledger file, so every server
 * process on one file counts together; a refused attempt costs one read and writes nothing.
 *
 * Table codes: 10 wrong a minute from one address, 60 a minute over the whole server, for the
 * page that names a code's table and the join itself alike.
 * Passwords: 10 wrong a minute from one address; one check at a time for one name from one
 * address; and for one name from anywhere, after 10 wrong in 15 minutes, checks spaced by a
 * delay that doubles from 1 to 8 seconds. That last limit is a delay, not a wall: an attempt
 * waits for its turn (up to 30 seconds), and a browser the account has signed in from before
 * (it carries a signed device cookie naming the account) skips the queue, up to 10 wrong
 * passwords of its own in 15 minutes, so guessing from elsewhere cannot keep the owner out.
 */
import { sql } from 'kysely';
import { type LedgerDatabase, executeSync, openDatabase } from '../events/database.ts';

type HitsTable = { id: number; key: string; at: number };

/** Hits (attempts) by key and time: what every limit counts. */
export interface HitLog {
  /** Runs `step` with no other writer (thread or process) counting in between. */
  atomically<T>(step: () => T): T;
  /** Times of the hits of `key` at or after `since`, oldest first. */
  times(key: string, since: number): number[];
  /** The time of the latest hit of `key`, or null. */
  latest(key: string): number | null;
  /** Records a hit; its id takes it off again. */
  add(key: string, at: number): number;
  remove(ids: readonly number[]): void;
  /** Forgets every hit before `before`. */
  prune(before: number): void;
}

/** The hit log kept in a ledger file's `rate_limit_hits` table (created when missing). */
export function openHitLog(database: LedgerDatabase): HitLog {
  const db = database.kysely.withTables<{ rate_limit_hits: HitsTable }>();
  executeSync(
    database,
    db.schema
      .createTable('rate_limit_hits')
      .ifNotExists()
      .addColumn('id', 'integer', (c) => c.primaryKey())
      .addColumn('key', 'text', (c) => c.notNull())
      .addColumn('at', 'integer', (c) => c.notNull())
      .modifyEnd(sql`STRICT`),
  );
  executeSync(database, db.schema.createIndex('rate_limit_hits_key_at').ifNotExists().on('rate_limit_hits').columns(['key', 'at']));
  return {
    atomically: (step) => database.sqlite.transaction(step).immediate(),
    times: (key, since) => executeSync(database, db.selectFrom('rate_limit_hits').select('at').where('key', '=', key).where('at', '>=', since).orderBy('at')).map((r) => r.at),
    latest: (key) => executeSync(database, db.selectFrom('rate_limit_hits').select('at').where('key', '=', key).orderBy('at', 'desc').limit(1))[0]?.at ?? null,
    add: (key, at) => executeSync(database, db.insertInto('rate_limit_hits').values({ key, at } as HitsTable).returning('id'))[0]!.id,
    remove: (ids) => {
      if (ids.length) executeSync(database, db.deleteFrom('rate_limit_hits').where('id', 'in', [...ids]));
    },
    prune: (before) => executeSync(database, db.deleteFrom('rate_limit_hits').where('at', '<', before)),
  };
}

export interface ThrottleOptions {
  /** Names the throttle's keys in the hit log. */
  name?: string;
  /** Hits a key may have within the window; the next is refused. */
  limit?: number;
  windowMs?: number;
  now?: () => number;
  /** Where hits are kept; a private in-memory file when not given. */
  log?: HitLog;
}

export type Throttle = ReturnType<typeof createThrottle>;

/** Hits counted per key over a sliding window; the limit-plus-first is refused. */
export function createThrottle(options: ThrottleOptions = {}) {
  const name = options.name ?? 'throttle';
  const limit = options.limit ?? 10;
  const windowMs = options.windowMs ?? 60_000;
  const now = options.now ?? Date.now;
  const log = options.log ?? openHitLog(openDatabase({ path: ':memory:' }));
  const logKey = (key: string) => `${name}:${key}`;
  /** Milliseconds until one more hit of `key` fits, or 0. */
  const waitMs = (key: string, at: number): number => {
    const times = log.times(logKey(key), at - windowMs + 1);
    return times.length < limit ? 0 : times[times.length - limit]! + windowMs - at;
  };
  return {
    name,
    limit,
    windowMs,
    log,
    now,
    waitMs,
    /** Seconds until `key` may try again, or 0. */
    waitFor: (key: string): number => seconds(waitMs(key, now())),
    /** Counts a hit of `key` now. */
    fail: (key: string): void => void log.add(logKey(key), now()),
    /** Records a hit of `key` at `at` (inside a step of the log); its id takes it off again. */
    add: (key: string, at: number): number => {
      // Whatever no limit here looks back to any more goes, whichever key it was counted under.
      log.prune(at - Math.max(windowMs, LOGIN_NAME_WINDOW_MS));
      return log.add(logKey(key), at);
    },
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
export function takeAll(log: HitLog, at: number, checks: readonly [Throttle, string][]): Taken {
  const full = (): Taken | null => {
    for (const [throttle, key] of checks) {
      const wait = throttle.waitMs(key, at);
      if (wait > 0) return { ok: false, waitMs: wait, throttle };
    }
    return null;
  };
  return full() ?? log.atomically(() => full() ?? { ok: true, ticket: checks.map(([throttle, key]) => throttle.add(key, at)) });
}

/** What an attempt came to: the check's answer, a wrong guess (401), or a refusal with the wait (429). */
export type Attempt<T> = { ok: true; value: T } | { ok: false; status: 401 } | { ok: false; status: 429; waitSeconds: number; message: string };

const refused = (waitMs: number, message: (wait: number) => string): Attempt<never> => ({
  ok: false,
  status: 429,
  waitSeconds: seconds(waitMs),
  message: message(seconds(waitMs)),
});

/** The limits on trying table codes, for every route that checks one. */
export function createJoinLimiter(options: { log: HitLog; now: () => number }) {
  const { log, now } = options;
  const perAddress = createThrottle({ name: 'join-address', limit: 10, windowMs: 60_000, log, now });
  const overall = createThrottle({ name: 'join-all', limit: 60, windowMs: 60_000, log, now });
  return {
    /** Counts a try of a code from `address`, then runs `check`; a right code is taken off the count. */
    attempt<T>(address: string, check: () => T | null): Attempt<T> {
      const taken = takeAll(log, now(), [
        [perAddress, address],
        [overall, 'all'],
      ]);
      if (!taken.ok) {
        return taken.throttle === perAddress
          ? refused(taken.waitMs, (s) => `too many wrong table codes from this address in the last minute; try again in ${s} seconds`)
          : refused(taken.waitMs, (s) => `too many wrong table codes have been tried on this server in the last minute; try again in ${s} seconds`);
      }
      const value = check();
      if (value === null) return { ok: false, status: 401 };
      log.remove(taken.ticket);
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
export function createLoginLimiter(options: { log: HitLog; now: () => number; sleep?: (ms: number) => Promise<void> }) {
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

  type Step = { refusal: Attempt<never> } | { turn: number; ticket?: { counted: number[]; pending: number } };

  /** Where an attempt stands: refused, or the time of its turn; with `write`, its hits recorded. */
  function step(who: string, label: string, address: string, device: string | null, at: number, write: boolean): Step {
    const addressWait = perAddress.waitMs(address, at);
    if (addressWait > 0) return { refusal: refused(addressWait, (s) => `too many wrong passwords in the last minute; try again in ${s} seconds`) };
    const pendingWait = pending.waitMs(`${who}|${address}`, at);
    if (pendingWait > 0) return { refusal: refused(1000, () => `a sign-in as ${label} from this address is already being checked; wait for its answer`) };
    const known = device !== null && perDevice.waitMs(device, at) === 0;
    let turn = at;
    if (!known) {
      const failures = log.times(`${perName.name}:${who}`, at - LOGIN_NAME_WINDOW_MS + 1).length;
      const last = log.latest(`${turns.name}:${who}`);
      turn = last === null ? at : Math.max(at, last + loginSpacingMs(failures));
      if (turn - at > LOGIN_MAX_HOLD_MS) {
        return { refusal: refused(turn - at - LOGIN_MAX_HOLD_MS, (s) => `${label} has had many wrong passwords in the last 15 minutes, so its sign-ins are checked one at a time; try again in ${s} seconds`) };
      }
    }
    if (!write) return { turn };
    const counted = [perAddress.add(address, at), perName.add(who, at)];
    if (known) counted.push(perDevice.add(device, at));
    else turns.add(who, turn);
    return { turn, ticket: { counted, pending: pending.add(`${who}|${address}`, at) } };
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
      const first = step(who, label, address, device, at, false);
      if ('refusal' in first) return first.refusal;
      const taken = log.atomically(() => step(who, label, address, device, at, true));
      if ('refusal' in taken) return taken.refusal;
      const ticket = taken.ticket!;
      try {
        if (taken.turn > at) await sleep(taken.turn - at);
        const value = await check();
        if (value === null) return { ok: false, status: 401 };
        log.remove(ticket.counted);
        return { ok: true, value };
      } finally {
        log.remove([ticket.pending]);
      }
    },
  };
}

/**
 * Sessions that can be ended. The cookie (signed, HttpOnly, SameSite) carries only a session
 * id; the session itself is a row beside the accounts (storage/auth-storage.ts: in the ledger file or
 * a PostgreSQL database), so every server process sharing them sees it end. Each account has a
 * generation: signing out, a new password or a new role raises it, and every session started
 * under an earlier one is over. A session also ends after SESSION_IDLE_MINUTES without a
 * request, and SESSION_HOURS after it started.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Context, MiddlewareHandler } from 'hono';
import { deleteCookie, getSignedCookie, setSignedCookie } from 'hono/cookie';
import type { SessionStore, StoredSession } from './storage/auth-storage.ts';
import { cameOverHttps, clientAddress } from '../http/client-address.ts';
import { AccessError, refusalOf, refuse } from '../http/refusals.ts';
import { readInput } from '../http/request-input.ts';

export type Role = 'director' | 'judge' | 'scorekeeper';

/** A signed-in person: a director or judge by name, or the scorekeeper of one table. */
export interface Session {
  /** The id the cookie carries. */
  id: string;
  /** Whose session it is: `user:<name>` or `table:<tournament>:<table>`. */
  account: string;
  role: Role;
  /** The name rulings and ledger entries are signed with: the account's display name, never its sign-in name; "Table 3" for a scorekeeper. */
  name: string;
  /** The id ledger entries name the account by (accountIdOf): the same for every session of it, naming no sign-in. */
  accountId: string;
  tournamentId?: string;
  table?: number;
  /** The token every changing request of this session must carry. */
  csrf: string;
  /** Milliseconds since the epoch after which the session is over, however busy. */
  expires: number;
}

/** One of an account's sessions, as its owner sees it in a list. */
export interface SessionSummary {
  id: string;
  startedAt: number;
  seenAt: number;
  address: string;
  device: string;
  /** Whether it is the session the list was asked for from. */
  current: boolean;
}

export const SESSION_IDLE_MINUTES = 120;
export const SESSION_HOURS = 12;
const IDLE_MS = SESSION_IDLE_MINUTES * 60_000;
const LIFETIME_MS = SESSION_HOURS * 3600_000;
// A session's last request is written at most this often: a tap a second would be a write a second.
const SEEN_EVERY_MS = 60_000;
const COOKIE = 'spades_session';
// Names the account a browser has signed in to before, so the login limits can let it past
// the queue that guessing from elsewhere builds up (rate-limits.ts).
const DEVICE_COOKIE = 'spades_device';
const DEVICE_DAYS = 180;
const UNSAFE = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** The account key of a director's or judge's sessions. */
export function accountOfUser(name: string): string {
  return `user:${name.trim().toLowerCase()}`;
}

/**
 * The id an account's ledger entries carry: made from its session account key with the
 * storage's secret, so it is the same on every process and in every session of the account,
 * and says nothing of the name it signs in with.
 */
export function accountIdOf(secret: string, account: string): string {
  return `acct-${createHmac('sha256', secret).update(`account-id:${account}`).digest('base64url').slice(0, 16)}`;
}

/** Who a ledger entry is signed by: the role and display name, and the account's id (never a sign-in name). */
export function signedBy(session: Pick<Session, 'role' | 'name' | 'accountId'>): { by: string; account: string } {
  return { by: `${session.role}:${session.name}`, account: session.accountId };
}

/** The account key of the sessions of one table's scorekeepers. */
export function accountOfTable(tournamentId: string, table: number): string {
  return `table:${tournamentId}:${table}`;
}

export interface SessionsOptions {
  /** Where sessions and generations are kept. */
  store: SessionStore;
  /** Where that is, as a refusal names it (AuthStorage.place). */
  place: string;
  /** The key cookies are signed with. */
  secret: string;
  /** Milliseconds since the epoch. */
  now: () => number;
}

export type Sessions = ReturnType<typeof createSessions>;

/** Sessions over one storage: starting, finding, listing and ending them, and the role guard. */
export function createSessions(options: SessionsOptions) {
  const { store, place, secret, now } = options;
  const cache = new WeakMap<Request, Session | null>();

  function live(row: StoredSession, at: number): boolean {
    return row.generation === row.current && at - row.seenAt < IDLE_MS && at - row.startedAt < LIFETIME_MS;
  }

  /** The request's session, or null when it has none or it has ended. */
  async function sessionOf(c: Context): Promise<Session | null> {
    if (cache.has(c.req.raw)) return cache.get(c.req.raw)!;
    let session: Session | null = null;
    const id = await getSignedCookie(c, secret, COOKIE);
    if (id) {
      const at = now();
      const row = await store.find(id);
      if (row && live(row, at)) {
        session = {
          id: row.id,
          account: row.account,
          role: row.role as Role,
          name: row.name,
          accountId: accountIdOf(secret, row.account),
          ...(row.tournamentId !== null ? { tournamentId: row.tournamentId } : {}),
          ...(row.table !== null ? { table: row.table } : {}),
          csrf: row.csrf,
          expires: row.startedAt + LIFETIME_MS,
        };
        if (at - row.seenAt >= SEEN_EVERY_MS) {
          try {
            await store.touch(id, at);
          } catch {
            // Storage that takes no writes still lets a signed-in person read; the idle clock
            // then runs from the last request that was written.
          }
        }
      }
    }
    cache.set(c.req.raw, session);
    return session;
  }

  /** Starts a session for `who` and sets its cookie. */
  async function start(c: Context, who: Pick<Session, 'account' | 'role' | 'name' | 'tournamentId' | 'table'>): Promise<Session> {
    const at = now();
    const session: Session = {
      ...who,
      accountId: accountIdOf(secret, who.account),
      id: randomBytes(24).toString('base64url'),
      csrf: randomBytes(18).toString('base64url'),
      expires: at + LIFETIME_MS,
    };
    try {
      await store.start(
        {
          id: session.id,
          account: who.account,
          role: who.role,
          name: who.name,
          tournamentId: who.tournamentId ?? null,
          table: who.table ?? null,
          csrf: session.csrf,
          startedAt: at,
          seenAt: at,
          address: clientAddress(c),
          agent: (c.req.header('user-agent') ?? 'unknown').slice(0, 200),
        },
        { seenBy: at - IDLE_MS, startedBy: at - LIFETIME_MS },
      );
    } catch (error) {
      throw new AccessError(`the session cannot be recorded in ${place}: ${(error as Error).message}`, 503);
    }
    await setSignedCookie(c, COOKIE, session.id, secret, {
      httpOnly: true,
      sameSite: 'Lax',
      path: '/',
      secure: cameOverHttps(c),
      maxAge: LIFETIME_MS / 1000,
    });
    cache.set(c.req.raw, session);
    return session;
  }

  /** Marks the browser as one the account signs in from, for DEVICE_DAYS. */
  async function rememberDevice(c: Context, account: string): Promise<void> {
    const id = randomBytes(12).toString('base64url');
    await setSignedCookie(c, DEVICE_COOKIE, `${id}.${Buffer.from(account).toString('base64url')}`, secret, {
      httpOnly: true,
      sameSite: 'Lax',
      path: '/login',
      secure: cameOverHttps(c),
      maxAge: DEVICE_DAYS * 86_400,
    });
  }

  /** The id of the request's device cookie when it names `account`, otherwise null. */
  async function deviceOf(c: Context, account: string): Promise<string | null> {
    const value = await getSignedCookie(c, secret, DEVICE_COOKIE);
    if (!value) return null;
    const [id, named] = value.split('.');
    return id && named && Buffer.from(named, 'base64url').toString('utf8') === account ? id : null;
  }

  /** The live sessions of an account, the most recently used first. */
  async function list(account: string, currentId?: string): Promise<SessionSummary[]> {
    const at = now();
    return (await store.list(account))
      .filter((row) => live(row, at))
      .map((row) => ({ id: row.id, startedAt: row.startedAt, seenAt: row.seenAt, address: row.address, device: row.agent, current: row.id === currentId }));
  }

  /** Forgets the request's session cookie. */
  function forget(c: Context): void {
    deleteCookie(c, COOKIE, { path: '/' });
    cache.set(c.req.raw, null);
  }

  /** The session of a request a guard has let through. */
  function current(c: Context): Session {
    const session = cache.get(c.req.raw);
    if (!session) throw new AccessError('sign in first', 401);
    return session;
  }

  /**
   * Lets through only the given roles: no session is 401, another role 403. A changing request
   * must also carry the session's CSRF token (form field `_csrf` or header `x-csrf-token`).
   */
  function guard(roles: readonly Role[]): MiddlewareHandler {
    return async (c, next) => {
      const session = await sessionOf(c);
      const who = roles.map((r) => (r === 'scorekeeper' ? 'a table’s scorekeeper' : `a ${r}`)).join(' or ');
      if (!session) return refuse(c, 401, `sign in as ${who} to do this`);
      if (!roles.includes(session.role)) return refuse(c, 403, `${session.name} is signed in as ${session.role}; this is for ${who}`);
      if (UNSAFE.has(c.req.method)) {
        let input: Record<string, unknown>;
        try {
          input = await readInput(c);
        } catch (error) {
          const refusal = refusalOf(error)!;
          return refuse(c, refusal.status, refusal.message);
        }
        const token = c.req.header('x-csrf-token') ?? input._csrf;
        if (typeof token !== 'string' || !safeEqual(token, session.csrf)) {
          return refuse(c, 403, 'this form’s security token is missing or out of date; reload the page and try again');
        }
      }
      await next();
    };
  }

  return {
    sessionOf,
    start,
    current,
    guard,
    list,
    /** Ends one session of an account; false when the account has no such session. */
    endOne: (account: string, id: string): Promise<boolean> => store.endOne(account, id),
    /** Ends every session of an account but `keep`; how many were ended. */
    endOthers: (account: string, keep: string): Promise<number> => store.endOthers(account, keep),
    forget,
    rememberDevice,
    deviceOf,
    /** Ends every session of an account started until now. */
    endAll: (account: string): Promise<void> => store.endAccount(account),
  };
}

function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

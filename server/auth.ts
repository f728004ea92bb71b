/**
 * Who may write to the ledger. Directors and judges log in with a name and a password (scrypt
 * hashes in the `users` table of the ledger's own SQLite file); a scorekeeper joins one table
 * with the short code a director prints; everyone else reads. Sessions live in a signed,
 * HttpOnly, SameSite cookie that also carries the session's CSRF token. Every request that
 * changes anything must come from this site (Origin / Sec-Fetch-Site) and carry that token.
 */
import { createHmac, randomBytes, scrypt as scryptCallback, timingSafeEqual } from 'node:crypto';
import type { Context, MiddlewareHandler } from 'hono';
import { Hono } from 'hono';
import { deleteCookie, getSignedCookie, setSignedCookie } from 'hono/cookie';
import { type LedgerDatabase, executeSync } from '../events/database.ts';
import type { Decision, Ledger } from '../events/ledger.ts';
import { AppendRefusedError, CommandIdReusedError, VersionConflictError } from '../events/event-store.ts';
import { InvalidPayloadError } from '../events/event-types.ts';
import type { ReadModels } from '../events/projections.ts';
import type { GameModel } from '../events/read-models.ts';
import { CommandError } from './commands.ts';
import { JoinPage, LoginPage } from '../views/login.tsx';

export type Role = 'director' | 'judge' | 'scorekeeper';
export const PASSWORD_ROLES = ['director', 'judge'] as const;
export type PasswordRole = (typeof PASSWORD_ROLES)[number];

/** A signed-in person: a director or judge by name, or the scorekeeper of one table. */
export interface Session {
  role: Role;
  /** The name rulings are signed with; "Table 3" for a scorekeeper. */
  name: string;
  tournamentId?: string;
  table?: number;
  /** The token every changing request of this session must carry. */
  csrf: string;
  /** Milliseconds since the epoch after which the session is over. */
  expires: number;
}

/** A refusal of the request itself (who is asking, or how), answered with its status. */
export class AccessError extends Error {
  constructor(
    message: string,
    readonly status: 401 | 403 | 429,
  ) {
    super(message);
  }
}

// ---- users ----

type UsersTable = {
  name: string;
  role: string;
  password: string;
  created_at: string;
};
type AuthSettingsTable = {
  name: string;
  value: string;
};
type AuthTables = {
  users: UsersTable;
  auth_settings: AuthSettingsTable;
};

// The accounts live beside the ledger but outside it: a password change is not a tournament
// event, and the hash chain should not carry password hashes.
const USERS_SCHEMA = `
CREATE TABLE IF NOT EXISTS users (
  name TEXT PRIMARY KEY COLLATE NOCASE,
  role TEXT NOT NULL CHECK (role IN ('director', 'judge')),
  password TEXT NOT NULL,
  created_at TEXT NOT NULL
) STRICT;
CREATE TABLE IF NOT EXISTS auth_settings (
  name TEXT PRIMARY KEY,
  value TEXT NOT NULL
) STRICT;
`;

// scrypt at N = 2^14, r = 8: 16 MiB and tens of milliseconds per guess, within Node's default memory cap.
const SCRYPT = { N: 16384, r: 8, p: 1, keylen: 32 };

function scrypt(password: string, salt: Buffer, params: { N: number; r: number; p: number; keylen: number }): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scryptCallback(password.normalize('NFC'), salt, params.keylen, { N: params.N, r: params.r, p: params.p }, (error, key) =>
      error ? reject(error) : resolve(key),
    ),
  );
}

/** A password as stored: `scrypt$N$r$p$salt$hash`, so the cost can rise without breaking old accounts. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await scrypt(password, salt, SCRYPT);
  return ['scrypt', SCRYPT.N, SCRYPT.r, SCRYPT.p, salt.toString('base64url'), key.toString('base64url')].join('$');
}

/** Whether `password` matches a stored hash, compared in constant time. */
export async function checkPassword(password: string, stored: string): Promise<boolean> {
  const [kind, n, r, p, salt, hash] = stored.split('$');
  if (kind !== 'scrypt' || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64url');
  const key = await scrypt(password, Buffer.from(salt, 'base64url'), { N: Number(n), r: Number(r), p: Number(p), keylen: expected.length });
  return key.length === expected.length && timingSafeEqual(key, expected);
}

// A hash to check against when the name is unknown, so a wrong name costs as long as a wrong password.
const UNKNOWN_USER_HASH = `scrypt$${SCRYPT.N}$${SCRYPT.r}$${SCRYPT.p}$${Buffer.alloc(16).toString('base64url')}$${Buffer.alloc(32).toString('base64url')}`;

export interface Users {
  /** Adds an account, or sets a new password and role for an existing name. */
  add(name: string, role: PasswordRole, password: string): Promise<void>;
  /** The account when the password is right, otherwise null. */
  verify(name: string, password: string): Promise<{ name: string; role: PasswordRole } | null>;
  list(): { name: string; role: PasswordRole }[];
  /** The key sessions and table codes are signed with, made once per ledger file. */
  secret(): string;
}

/** The accounts of a ledger file; creates their tables on first use. */
export function openUsers(database: LedgerDatabase, clock: () => Date = () => new Date()): Users {
  database.sqlite.exec(USERS_SCHEMA);
  const db = database.kysely.withTables<AuthTables>();
  const find = (name: string) => executeSync(database, db.selectFrom('users').selectAll().where('name', '=', name))[0];
  let secret = executeSync(database, db.selectFrom('auth_settings').select('value').where('name', '=', 'session-secret'))[0]?.value;
  if (!secret) {
    const made = randomBytes(32).toString('base64url');
    executeSync(database, db.insertInto('auth_settings').values({ name: 'session-secret', value: made }).onConflict((oc) => oc.doNothing()));
    secret = executeSync(database, db.selectFrom('auth_settings').select('value').where('name', '=', 'session-secret'))[0]!.value;
  }
  const key = secret;
  return {
    async add(name, role, password) {
      const trimmed = name.trim();
      if (!/^[\p{L}\p{N}][\p{L}\p{N} .'-]{0,59}$/u.test(trimmed)) {
        throw new AccessError(`a user name is 1 to 60 letters, digits, spaces, dots, apostrophes or dashes, not '${name}'`, 403);
      }
      if (!PASSWORD_ROLES.includes(role)) throw new AccessError(`role must be director or judge, not '${String(role)}'`, 403);
      if (password.length < 8) throw new AccessError(`the password for ${trimmed} needs at least 8 characters`, 403);
      const hash = await hashPassword(password);
      executeSync(
        database,
        db
          .insertInto('users')
          .values({ name: trimmed, role, password: hash, created_at: clock().toISOString() })
          .onConflict((oc) => oc.column('name').doUpdateSet({ role, password: hash })),
      );
    },
    async verify(name, password) {
      const user = find(name.trim());
      const ok = await checkPassword(password, user?.password ?? UNKNOWN_USER_HASH);
      return ok && user ? { name: user.name, role: user.role as PasswordRole } : null;
    },
    list: () => executeSync(database, db.selectFrom('users').select(['name', 'role']).orderBy('name')).map((u) => ({ name: u.name, role: u.role as PasswordRole })),
    secret: () => key,
  };
}

// ---- throttling ----

/** Failures counted per key over a sliding window; the limit-plus-first attempt is refused. */
export function createThrottle(options: { limit?: number; windowMs?: number; now?: () => number } = {}) {
  const limit = options.limit ?? 10;
  const windowMs = options.windowMs ?? 60_000;
  const now = options.now ?? Date.now;
  const failures = new Map<string, number[]>();
  const recent = (key: string) => {
    const since = now() - windowMs;
    const list = (failures.get(key) ?? []).filter((t) => t > since);
    if (list.length) failures.set(key, list);
    else failures.delete(key);
    return list;
  };
  return {
    /** Seconds until `key` may try again, or 0. */
    waitFor(key: string): number {
      const list = recent(key);
      return list.length >= limit ? Math.max(1, Math.ceil((list[0]! + windowMs - now()) / 1000)) : 0;
    },
    fail(key: string): void {
      const list = recent(key);
      list.push(now());
      failures.set(key, list);
    },
  };
}

// ---- table codes ----

// No 0/O, 1/I/L: a code is read off paper and typed on a phone.
const CODE_ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';
const CODE_LENGTH = 6;

/** The join code of a tournament's table: derived from the ledger's secret, so printing twice gives the same code. */
export function tableCode(secret: string, tournamentId: string, table: number): string {
  const digest = createHmac('sha256', secret).update(`table:${tournamentId}:${table}`).digest();
  let code = '';
  for (let i = 0; i < CODE_LENGTH; i++) code += CODE_ALPHABET[digest[i]! % CODE_ALPHABET.length];
  return code;
}

/** How many tables a tournament uses: one per pair of teams, or more if a match was seated higher. */
export function tableCount(models: ReadModels, tournamentId: string): number {
  const tournament = models.tournaments[tournamentId]?.model;
  if (!tournament) return 0;
  const seated = Math.max(0, ...tournament.matches.map((m) => m.table ?? 0));
  return Math.max(seated, Math.ceil(tournament.teams.length / 2));
}

/** The table a code names, among the tournaments still being played. */
export function findTable(secret: string, models: ReadModels, code: string): { tournamentId: string; table: number } | null {
  const wanted = code.toUpperCase().replace(/[^A-Z0-9]/g, '');
  if (wanted.length !== CODE_LENGTH) return null;
  for (const state of Object.values(models.tournaments)) {
    if (state.model.status === 'finished') continue;
    const id = state.model.tournamentId;
    for (let table = 1; table <= tableCount(models, id); table++) {
      if (tableCode(secret, id, table) === wanted) return { tournamentId: id, table };
    }
  }
  return null;
}

/** The table a game is being played at, when it is one of a tournament's matches. */
export function tableOfGame(models: ReadModels, game: GameModel): number | null {
  if (!game.tournamentId || !game.matchId) return null;
  return models.tournaments[game.tournamentId]?.model.matches.find((m) => m.matchId === game.matchId)?.table ?? null;
}

// ---- requests ----

/** Whether the client asked for JSON (an API client) rather than a page or an htmx fragment. */
export function wantsJson(c: Context): boolean {
  const type = c.req.header('content-type') ?? '';
  if (type.includes('application/json')) return true;
  const accept = c.req.header('accept') ?? '';
  return accept.includes('application/json') && !accept.includes('text/html');
}

/** The status and sentence of a refused request, or null for an error that is the server's own fault. */
export function refusalOf(error: unknown): { status: 400 | 401 | 403 | 404 | 409 | 429; message: string } | null {
  if (error instanceof CommandError || error instanceof AccessError) return { status: error.status, message: error.message };
  if (error instanceof VersionConflictError || error instanceof CommandIdReusedError) return { status: 409, message: error.message };
  if (error instanceof InvalidPayloadError || error instanceof AppendRefusedError) return { status: 400, message: error.message };
  return null;
}

/**
 * The request's fields: a JSON object, or a form's fields. A body that is neither is refused
 * with a sentence rather than read as empty.
 */
export async function readInput(c: Context): Promise<Record<string, unknown>> {
  const type = c.req.header('content-type') ?? '';
  if (type.includes('application/json')) {
    let body: unknown;
    try {
      body = await c.req.json();
    } catch (error) {
      throw new CommandError(`the request body is not JSON: ${(error as Error).message}`);
    }
    if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new CommandError('the request body must be a JSON object of fields');
    return body as Record<string, unknown>;
  }
  if (type.includes('application/x-www-form-urlencoded') || type.includes('multipart/form-data')) {
    try {
      const form = await c.req.parseBody({ all: false });
      const fields: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(form)) fields[k] = typeof v === 'string' ? v : '';
      return fields;
    } catch (error) {
      throw new CommandError(`the form could not be read: ${(error as Error).message}`);
    }
  }
  if (c.req.method === 'GET' || c.req.method === 'HEAD') return {};
  const length = Number(c.req.header('content-length') ?? '0');
  if (!type && length === 0) return {};
  throw new CommandError(`send the fields as a form or as JSON, not as '${type || 'an unlabelled body'}'`);
}

/** A field that must be text. */
export function textField(input: Record<string, unknown>, name: string, options: { optional?: boolean; max?: number } = {}): string {
  const value = input[name];
  if (value === undefined || value === null || value === '') {
    if (options.optional) return '';
    throw new CommandError(`${name} is missing`);
  }
  if (typeof value !== 'string' && typeof value !== 'number') throw new CommandError(`${name} must be text, not ${Array.isArray(value) ? 'a list' : typeof value}`);
  const text = String(value).trim();
  if (text.length > (options.max ?? 500)) throw new CommandError(`${name} must have at most ${options.max ?? 500} characters`);
  return text;
}

/** A field that must be a whole number (a number in JSON, digits in a form). */
export function wholeField(input: Record<string, unknown>, name: string, options: { optional?: boolean; min?: number; max?: number } = {}): number | null {
  const value = input[name];
  if (value === undefined || value === null || value === '') {
    if (options.optional) return null;
    throw new CommandError(`${name} is missing`);
  }
  const n = typeof value === 'number' ? value : typeof value === 'string' && /^-?\d{1,9}$/.test(value.trim()) ? Number(value) : NaN;
  if (!Number.isSafeInteger(n)) throw new CommandError(`${name} must be a whole number, not ${JSON.stringify(value)}`);
  if (options.min !== undefined && n < options.min) throw new CommandError(`${name} must be at least ${options.min}, not ${n}`);
  if (options.max !== undefined && n > options.max) throw new CommandError(`${name} must be at most ${options.max}, not ${n}`);
  return n;
}

const COMMAND_ID = /^[A-Za-z0-9_-]{8,80}$/;

/** A fresh command id for a form: a double tap of the same form sends the same id. */
export function newCommandId(): string {
  return randomBytes(12).toString('base64url');
}

/**
 * The ledger command id for a request: the form's id, scoped to what the route does, so an id
 * sent again to the same route is recognised and never used for another kind of entry.
 */
export function commandIdOf(input: Record<string, unknown>, scope: string): string | undefined {
  const id = input.commandId;
  if (id === undefined || id === '') return undefined;
  if (typeof id !== 'string' || !COMMAND_ID.test(id)) throw new CommandError('commandId must be 8 to 80 letters, digits, - or _');
  return `${scope}:${id}`;
}

/** Whether a command id has already been recorded (a double tap or a retry). */
export function alreadyRecorded(ledger: Ledger, commandId: string | undefined): boolean {
  if (!commandId) return false;
  const db = ledger.database.kysely;
  return executeSync(ledger.database, db.selectFrom('events').select('position').where('command_id', 'in', [commandId, `${commandId}#0`]).limit(1)).length > 0;
}

// ---- sessions and guards ----

const COOKIE = 'spades_session';
const SESSION_HOURS = 14;
const UNSAFE = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

export interface AuthOptions {
  ledger: Ledger;
  /** Milliseconds since the epoch; sessions and the login throttle read it. */
  now?: () => number;
}

export type Auth = ReturnType<typeof createAuth>;

/** Sessions, guards, the login throttle and the login / join / logout routes over one ledger file. */
export function createAuth(options: AuthOptions) {
  const { ledger } = options;
  const now = options.now ?? Date.now;
  const users = openUsers(ledger.database, () => new Date(now()));
  const secret = users.secret();
  const throttle = createThrottle({ now });
  const sessions = new WeakMap<Request, Session | null>();

  async function sessionOf(c: Context): Promise<Session | null> {
    if (sessions.has(c.req.raw)) return sessions.get(c.req.raw)!;
    let session: Session | null = null;
    const value = await getSignedCookie(c, secret, COOKIE);
    if (value) {
      try {
        const parsed = JSON.parse(Buffer.from(value, 'base64url').toString('utf8')) as Session;
        if (parsed.expires > now()) session = parsed;
      } catch {
        session = null;
      }
    }
    sessions.set(c.req.raw, session);
    return session;
  }

  async function startSession(c: Context, who: Omit<Session, 'csrf' | 'expires'>): Promise<Session> {
    const session: Session = { ...who, csrf: randomBytes(18).toString('base64url'), expires: now() + SESSION_HOURS * 3600_000 };
    await setSignedCookie(c, COOKIE, Buffer.from(JSON.stringify(session)).toString('base64url'), secret, {
      httpOnly: true,
      sameSite: 'Lax',
      path: '/',
      secure: new URL(c.req.url).protocol === 'https:',
      maxAge: SESSION_HOURS * 3600,
    });
    sessions.set(c.req.raw, session);
    return session;
  }

  /** The session of a request a guard has let through. */
  function current(c: Context): Session {
    const session = sessions.get(c.req.raw);
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

  const routes = new Hono();

  routes.get('/login', async (c) => c.html(String(LoginPage({ session: await sessionOf(c) }))));
  routes.post('/login', async (c) => {
    let input: Record<string, unknown>;
    let name: string;
    let password: string;
    try {
      input = await readInput(c);
      name = textField(input, 'name', { max: 60 });
      password = textField(input, 'password', { max: 200 });
    } catch (error) {
      const refusal = refusalOf(error)!;
      return loginRefusal(c, refusal.status, refusal.message);
    }
    const keys = [`name:${name.toLowerCase()}`, `ip:${clientAddress(c)}`];
    const wait = Math.max(...keys.map((k) => throttle.waitFor(k)));
    if (wait > 0) {
      c.header('retry-after', String(wait));
      return loginRefusal(c, 429, `too many wrong passwords in the last minute; try again in ${wait} seconds`, name);
    }
    const user = await users.verify(name, password);
    if (!user) {
      for (const k of keys) throttle.fail(k);
      return loginRefusal(c, 401, 'that name and password do not match an account', name);
    }
    const session = await startSession(c, { role: user.role, name: user.name });
    const home = user.role === 'director' ? '/director' : '/judge';
    if (wantsJson(c)) return c.json({ ok: true, role: session.role, name: session.name, csrf: session.csrf, home });
    return c.redirect(home, 303);
  });

  routes.get('/join', async (c) => {
    const code = c.req.query('code') ?? '';
    const found = code ? findTable(secret, ledger.models, code) : null;
    return c.html(String(JoinPage({ code, found: found ? { ...found, name: ledger.models.tournaments[found.tournamentId]!.model.name } : null })));
  });
  routes.post('/join', async (c) => {
    let code: string;
    try {
      code = textField(await readInput(c), 'code', { max: 40 });
    } catch (error) {
      const refusal = refusalOf(error)!;
      return joinRefusal(c, refusal.status, refusal.message, '');
    }
    const key = `join:${clientAddress(c)}`;
    const wait = throttle.waitFor(key);
    if (wait > 0) {
      c.header('retry-after', String(wait));
      return joinRefusal(c, 429, `too many wrong table codes in the last minute; try again in ${wait} seconds`, code);
    }
    const found = findTable(secret, ledger.models, code);
    if (!found) {
      throttle.fail(key);
      return joinRefusal(c, 401, `'${code}' is not the code of a table in play; check the card on the table`, code);
    }
    const session = await startSession(c, { role: 'scorekeeper', name: `Table ${found.table}`, tournamentId: found.tournamentId, table: found.table });
    if (wantsJson(c)) return c.json({ ok: true, role: 'scorekeeper', tournamentId: found.tournamentId, table: found.table, csrf: session.csrf, home: '/entry' });
    return c.redirect('/entry', 303);
  });

  // Signing out needs no token: the worst a forged one does is sign someone out.
  routes.post('/logout', (c) => {
    deleteCookie(c, COOKIE, { path: '/' });
    if (wantsJson(c)) return c.json({ ok: true });
    return c.redirect('/', 303);
  });

  function loginRefusal(c: Context, status: 400 | 401 | 403 | 404 | 409 | 429, message: string, name = '') {
    if (wantsJson(c)) return c.json({ error: message }, status);
    return c.html(String(LoginPage({ session: null, error: message, name })), status);
  }
  function joinRefusal(c: Context, status: 400 | 401 | 403 | 404 | 409 | 429, message: string, code: string) {
    if (wantsJson(c)) return c.json({ error: message }, status);
    return c.html(String(JoinPage({ code, found: null, error: message })), status);
  }

  return {
    users,
    secret,
    routes,
    guard,
    current,
    sessionOf,
    /** The join code of a table. */
    tableCode: (tournamentId: string, table: number) => tableCode(secret, tournamentId, table),
  };
}

/**
 * Refuses a changing request sent from another site: a browser says so in Sec-Fetch-Site, or
 * an Origin that is not this host. Clients that send neither (scripts, tests) still need a
 * session's token for anything behind a guard.
 */
export function sameOriginOnly(): MiddlewareHandler {
  return async (c, next) => {
    if (UNSAFE.has(c.req.method)) {
      const site = c.req.header('sec-fetch-site');
      const origin = c.req.header('origin');
      const host = c.req.header('host') ?? new URL(c.req.url).host;
      // A browser's Sec-Fetch-Site cannot be set by a page, so it is believed when sent; Origin
      // is the check for browsers without it.
      let foreign = site !== undefined && site !== 'same-origin' && site !== 'none';
      if (site === undefined && origin !== undefined) {
        try {
          if (origin === 'null' || new URL(origin).host !== host) foreign = true;
        } catch {
          foreign = true;
        }
      }
      if (foreign) return refuse(c, 403, `a request from ${origin ?? 'another site'} may not change anything here; use the forms on this site`);
    }
    await next();
  };
}

/** Answers a refused request: JSON for API clients, a short page (or fragment) otherwise. */
export function refuse(c: Context, status: 400 | 401 | 403 | 404 | 409 | 429, message: string): Response {
  if (wantsJson(c)) return c.json({ error: message }, status);
  const signIn = status === 401 ? ' <a href="/login">Sign in</a> or <a href="/join">join a table</a>.' : '';
  return c.html(`<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>Refused</title><link rel="stylesheet" href="/static/app.css"></head><body><main class="page-main"><p class="notice notice--error" role="alert">${escapeHtml(message)}.${signIn}</p></main></body></html>`, status);
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[ch]!);
}

function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

function clientAddress(c: Context): string {
  const env = c.env as { incoming?: { socket?: { remoteAddress?: string } } } | undefined;
  return env?.incoming?.socket?.remoteAddress ?? 'local';
}

export interface CommandRequest {
  /** What the route does; scopes the form's command id. */
  scope: string;
  /** Decides from the request's fields; throws a refusal (CommandError, AccessError) to refuse. */
  decide: (input: Record<string, unknown>, session: Session) => { decision: Decision | Decision[]; done: string };
  /** Something to add to the confirmation once appended (a flagged card). */
  after?: () => string | null;
  /** The region an htmx request is answered with, showing the notice. */
  fragment: (notice: { error?: string; done?: string }) => string;
  /** The whole page, for a plain form that was refused. */
  page: (notice: { error?: string; done?: string }) => string;
  /** Where a plain form goes after it is recorded. */
  redirect: string;
  /** Reload the whole page after an htmx request (what the page shows has changed shape). */
  refresh?: boolean;
}

/**
 * Runs a command request the one way every writing route does: the command id first (a double
 * tap answers as the first tap did), then the decision and the append signed with who asked.
 * Answers JSON to API clients, the region to htmx, a redirect to a plain form; a refusal
 * answers the same way with its sentence and its 4xx status.
 */
export async function runCommand(c: Context, ledger: Ledger, session: Session, request: CommandRequest): Promise<Response> {
  try {
    const input = await readInput(c);
    const commandId = commandIdOf(input, request.scope);
    let done: string;
    let positions: number[] = [];
    let duplicate = false;
    if (alreadyRecorded(ledger, commandId)) {
      done = 'Already recorded.';
      duplicate = true;
    } else {
      const decided = request.decide(input, session);
      const results = ledger.execute(decided.decision, { ...(commandId ? { commandId } : {}), meta: { by: `${session.role}:${session.name}` } });
      positions = results.flatMap((r) => r.positions);
      duplicate = results.length > 0 && results.every((r) => r.duplicate);
      done = decided.done;
    }
    const flagged = duplicate ? null : (request.after?.() ?? null);
    if (flagged) done = `${done} Flagged: ${flagged}.`;
    if (wantsJson(c)) return c.json({ ok: true, done, positions, duplicate, ...(flagged ? { flagged } : {}) });
    if (c.req.header('hx-request')) {
      if (request.refresh) c.header('hx-refresh', 'true');
      return c.html(request.fragment({ done }));
    }
    return c.redirect(request.redirect, 303);
  } catch (error) {
    const refusal = refusalOf(error);
    if (!refusal) throw error;
    if (wantsJson(c)) return c.json({ error: refusal.message }, refusal.status);
    if (c.req.header('hx-request')) return c.html(request.fragment({ error: refusal.message }), refusal.status);
    return c.html(request.page({ error: refusal.message }), refusal.status);
  }
}

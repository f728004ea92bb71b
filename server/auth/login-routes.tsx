/**
 * Signing in and out: directors and judges with a name and password at /login, a table's
 * scorekeeper with its code at /join, /logout, and a director's or judge's own sessions at
 * /sessions. Every try of a password or a code goes through the limits of rate-limits.ts
 * before it is checked.
 */
import type { Context } from 'hono';
import { Hono } from 'hono';
import { tournamentById } from '../../events/lookup.ts';
import type { ReadModels } from '../../events/projections.ts';
import { Layout } from '../../views/layout.tsx';
import { JoinPage, LoginPage, SessionList, type SessionListProps } from '../../views/login.tsx';
import type { Users } from './accounts.ts';
import { clientAddress } from '../http/client-address.ts';
import type { Attempt } from './rate-limits.ts';
import { type RefusalStatus, refusalOf, refuse, wantsJson } from '../http/refusals.ts';
import { field, fields, readFields } from '../http/request-input.ts';
import { type Session, type Sessions, accountOfTable, accountOfUser } from './sessions.ts';

// What the sign-in forms send.
const LoginFields = fields({ name: field.text({ max: 60 }), password: field.text({ max: 200 }) });
const JoinFields = fields({ code: field.text({ max: 40 }) });
const EndSessionFields = fields({ session: field.text({ max: 100 }) });

export interface LoginRoutesOptions {
  /** The ledger's read models, for the name of a code's tournament. */
  ledger: { readonly models: ReadModels };
  users: Users;
  sessions: Sessions;
  /** Counts a password try, then checks it (see rate-limits.ts). */
  tryPassword: <T>(name: string, address: string, check: () => Promise<T | null>, device: string | null) => Promise<Attempt<T>>;
  /** Counts a table code try, then checks it. */
  tryCode: <T>(address: string, check: () => Promise<T | null>) => Promise<Attempt<T>>;
  /** The table a code names, among the tournaments in play. */
  findTable: (code: string) => Promise<{ tournamentId: string; table: number } | null>;
}

/** The list of an account's sessions as the judge's and director's pages show it. */
export async function sessionListProps(sessions: Sessions, session: Session): Promise<SessionListProps> {
  return {
    csrf: session.csrf,
    sessions: (await sessions.list(session.account, session.id)).map((s) => ({
      ...s,
      startedAt: new Date(s.startedAt).toISOString(),
      seenAt: new Date(s.seenAt).toISOString(),
    })),
  };
}

export function loginRoutes(options: LoginRoutesOptions) {
  const { ledger, users, sessions } = options;
  const routes = new Hono();

  routes.get('/login', async (c) => c.html(String(LoginPage({ session: await sessions.sessionOf(c) }))));
  routes.post('/login', async (c) => {
    let name: string;
    let password: string;
    try {
      ({ name, password } = await readFields(c, LoginFields));
    } catch (error) {
      const refusal = refusalOf(error)!;
      return loginRefusal(c, refusal.status, refusal.message);
    }
    const device = await sessions.deviceOf(c, accountOfUser(name));
    const attempt = await options.tryPassword(name, clientAddress(c), () => users.verify(name, password), device);
    if (!attempt.ok) {
      if (attempt.status === 429) {
        c.header('retry-after', String(attempt.waitSeconds));
        return loginRefusal(c, 429, attempt.message, name);
      }
      return loginRefusal(c, 401, 'that name and password do not match an account', name);
    }
    const user = attempt.value;
    // The session signs with the display name: the sign-in name stays between its owner and /login.
    const session = await sessions.start(c, { account: accountOfUser(user.name), role: user.role, name: user.displayName });
    if (!device) await sessions.rememberDevice(c, session.account);
    const home = user.role === 'director' ? '/director' : '/judge';
    if (wantsJson(c)) return c.json({ ok: true, role: session.role, name: session.name, csrf: session.csrf, home });
    return c.redirect(home, 303);
  });

  /** Tries a code under the join limits: the table it names, or the refusal to answer with. */
  const tryCode = async (c: Context, code: string) => {
    const attempt = await options.tryCode(clientAddress(c), () => options.findTable(code));
    if (attempt.ok) return attempt;
    if (attempt.status === 429) {
      c.header('retry-after', String(attempt.waitSeconds));
      return { ok: false as const, status: 429 as const, message: attempt.message };
    }
    return { ok: false as const, status: 401 as const, message: `'${code}' is not the code of a table in play; check the card on the table` };
  };

  // The QR link on a table's card: says which table the code is for, but only once the code
  // has passed the same limits as a join, so the page is no faster a way to guess.
  routes.get('/join', async (c) => {
    const code = (c.req.query('code') ?? '').slice(0, 40);
    if (!code) return c.html(String(JoinPage({ code, found: null })));
    const tried = await tryCode(c, code);
    if (!tried.ok) return joinRefusal(c, tried.status, tried.message, code);
    const found = tried.value;
    return c.html(String(JoinPage({ code, found: { ...found, name: tournamentById(ledger.models, found.tournamentId)!.model.name } })));
  });
  routes.post('/join', async (c) => {
    let code: string;
    try {
      ({ code } = await readFields(c, JoinFields));
    } catch (error) {
      const refusal = refusalOf(error)!;
      return joinRefusal(c, refusal.status, refusal.message, '');
    }
    const tried = await tryCode(c, code);
    if (!tried.ok) return joinRefusal(c, tried.status, tried.message, code);
    const found = tried.value;
    const session = await sessions.start(c, {
      account: accountOfTable(found.tournamentId, found.table),
      role: 'scorekeeper',
      name: `Table ${found.table}`,
      tournamentId: found.tournamentId,
      table: found.table,
    });
    if (wantsJson(c))
      return c.json({ ok: true, role: 'scorekeeper', tournamentId: found.tournamentId, table: found.table, csrf: session.csrf, home: '/entry' });
    return c.redirect('/entry', 303);
  });

  // Signing out needs no token: the worst a forged one does is sign someone out. A director or
  // judge signing out ends every session of the account, on every device; a scorekeeper ends
  // only this phone's, since a table's code is shared by everyone keeping its score.
  routes.post('/logout', async (c) => {
    const session = await sessions.sessionOf(c);
    if (session?.role === 'scorekeeper') await sessions.endOne(session.account, session.id);
    else if (session) await sessions.endAll(session.account);
    sessions.forget(c);
    if (wantsJson(c)) return c.json({ ok: true });
    return c.redirect('/', 303);
  });

  // A director's or judge's own sessions: listed, and ended one by one or all but this one.
  routes.use('/sessions', sessions.guard(['director', 'judge']));
  routes.use('/sessions/*', sessions.guard(['director', 'judge']));
  routes.get('/sessions', async (c) => {
    const list = await sessionListProps(sessions, sessions.current(c));
    if (wantsJson(c)) return c.json({ sessions: list.sessions });
    return c.html(
      String(
        <Layout title="Your sessions" signedIn={sessions.current(c).name}>
          <SessionList {...list} />
        </Layout>,
      ),
    );
  });
  routes.post('/sessions/end', async (c) => {
    const session = sessions.current(c);
    let which: string;
    try {
      ({ session: which } = await readFields(c, EndSessionFields));
    } catch (error) {
      const refusal = refusalOf(error)!;
      return refuse(c, refusal.status, refusal.message);
    }
    const home = session.role === 'director' ? '/director' : '/judge';
    let ended: number;
    if (which === 'others') {
      ended = await sessions.endOthers(session.account, session.id);
    } else {
      if (!(await sessions.endOne(session.account, which)))
        return refuse(c, 404, `${session.name} has no session '${which}' to end; it may have ended already`);
      ended = 1;
      if (which === session.id) sessions.forget(c);
    }
    if (wantsJson(c)) return c.json({ ok: true, ended });
    return c.redirect(which === session.id ? '/login' : home, 303);
  });

  function loginRefusal(c: Context, status: RefusalStatus, message: string, name = '') {
    if (wantsJson(c)) return c.json({ error: message }, status);
    return c.html(String(LoginPage({ session: null, error: message, name })), status);
  }
  function joinRefusal(c: Context, status: RefusalStatus, message: string, code: string) {
    if (wantsJson(c)) return c.json({ error: message }, status);
    return c.html(String(JoinPage({ code, found: null, error: message })), status);
  }

  return routes;
}

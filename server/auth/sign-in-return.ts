/**
 * Signing in on the way to a page: a browser without a session asking for a staff page is sent
 * to sign in (or to join a table) with the page it asked for, and comes back to it once signed
 * in, rather than meeting a bare "sign in first" refusal. API clients and event streams still
 * get the guards' 401 with its sentence.
 */
import type { MiddlewareHandler } from 'hono';
import type { Auth } from './auth.ts';

/** Sends a signed-out browser asking for a page here to `signIn`, saying where it was going. */
export function signInFirst(auth: Pick<Auth, 'sessionOf'>, signIn: '/login' | '/join'): MiddlewareHandler {
  return async (c, next) => {
    const page = (c.req.method === 'GET' || c.req.method === 'HEAD') && (c.req.header('accept') ?? '').includes('text/html') && !c.req.header('hx-request');
    if (page && !(await auth.sessionOf(c))) {
      const url = new URL(c.req.url);
      return c.redirect(`${signIn}?next=${encodeURIComponent(url.pathname + url.search)}`, 303);
    }
    await next();
  };
}

/**
 * After a sign-in form posted to `/login?next=…` (or `/join?next=…`) succeeds, goes to that page
 * instead of the role's home. Only a path on this site is followed.
 */
export function returnAfterSignIn(): MiddlewareHandler {
  return async (c, next) => {
    await next();
    if (c.req.method !== 'POST' || c.res.status !== 303) return;
    const target = returnPath(c.req.query('next'));
    if (target) c.res.headers.set('location', target);
  };
}

/** A `next` address that stays on this site: a path, never `//host` or a scheme. */
export function returnPath(next: string | undefined): string | null {
  if (!next || next.length > 500 || !next.startsWith('/') || next.startsWith('//') || next.includes('\\')) return null;
  if (/[\u0000-\u001f]/.test(next)) return null;
  return next;
}

/**
 * The phone a team signs up and checks in from, known by a signed cookie: a random id the
 * check-in limits count wrong codes against (so one person guessing at a venue stops only their
 * own phone, not the room behind the same address), and the entrants this phone signed up, so
 * their pages show the check-in code again to it, and its tries skip the entrant's own count.
 */
import { randomBytes } from 'node:crypto';
import type { Context } from 'hono';
import { getSignedCookie, setSignedCookie } from 'hono/cookie';
import { cameOverHttps, clientAddress } from '../http/client-address.ts';

const PHONE_COOKIE = 'spades_phone';
const PHONE_DAYS = 30;
/** Entrants one phone remembers, the latest kept: a team or two, a helper's handful. */
const REMEMBERED = 8;

export interface Phone {
  /** The cookie's id, or null when the request carried none. */
  id: string | null;
  /** The entrants signed up from this phone, as [tournament id, entrant id]. */
  entrants: [string, string][];
}

/** The request's phone as its cookie says; no id and no entrants when it has none (or a forged one). */
export async function phoneOf(c: Context, secret: string): Promise<Phone> {
  const value = await getSignedCookie(c, secret, PHONE_COOKIE);
  if (!value) return { id: null, entrants: [] };
  const [id, list] = value.split('.');
  try {
    const parsed: unknown = JSON.parse(Buffer.from(list ?? '', 'base64url').toString('utf8'));
    const entrants = Array.isArray(parsed)
      ? parsed.filter((e): e is [string, string] => Array.isArray(e) && e.length === 2 && e.every((x) => typeof x === 'string'))
      : [];
    return { id: id || null, entrants };
  } catch {
    return { id: id || null, entrants: [] };
  }
}

/** What the limits count a phone's wrong codes against: its cookie's id, else its address. */
export function phoneKey(c: Context, phone: Phone): string {
  return phone.id ? `phone:${phone.id}` : `address:${clientAddress(c)}`;
}

/** Whether this phone signed up the entrant. */
export function isOwnPhone(phone: Phone, tournamentId: string, entrantId: string): boolean {
  return phone.entrants.some(([t, e]) => t === tournamentId && e === entrantId);
}

/** Gives the phone its cookie (when it has none), adding an entrant it signed up when given. */
export async function keepPhone(c: Context, secret: string, phone: Phone, signedUp?: [string, string]): Promise<void> {
  if (phone.id && !signedUp) return;
  const id = phone.id ?? randomBytes(12).toString('base64url');
  const entrants = signedUp ? [...phone.entrants.filter(([t, e]) => !(t === signedUp[0] && e === signedUp[1])), signedUp].slice(-REMEMBERED) : phone.entrants;
  await setSignedCookie(c, PHONE_COOKIE, `${id}.${Buffer.from(JSON.stringify(entrants)).toString('base64url')}`, secret, {
    httpOnly: true,
    sameSite: 'Lax',
    path: '/tournaments',
    secure: cameOverHttps(c),
    maxAge: PHONE_DAYS * 86_400,
  });
}

/**
 * Directors' and judges' accounts: names with scrypt password hashes, kept beside the ledger
 * (storage/auth-storage.ts: in its file or a PostgreSQL database), and the key the sessions and table
 * codes kept there are signed with. A new password or a new role ends every session the
 * account had.
 */
import { randomBytes, scrypt as scryptCallback, timingSafeEqual } from 'node:crypto';
import type { AuthStorage } from './storage/auth-storage.ts';
import { AccessError } from '../http/refusals.ts';
import { accountOfUser } from './sessions.ts';
import { nameProblem, quoted } from '../../events/names.ts';

export const PASSWORD_ROLES = ['director', 'judge'] as const;
export type PasswordRole = (typeof PASSWORD_ROLES)[number];

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

/** An account as the rest of the server sees it: never its password. */
export interface Account {
  /** What its owner types at /login: never written into the ledger or shown to anyone else. */
  name: string;
  /** The name it is shown and signs entries with. */
  displayName: string;
  role: PasswordRole;
}

export interface Users {
  /**
   * Adds an account, or sets a new password, role or display name for an existing name; a
   * change of any ends every session the account had. Without a display name, a new account is
   * shown by its sign-in name and an existing one keeps the display name it has.
   */
  add(name: string, role: PasswordRole, password: string, displayName?: string): Promise<void>;
  /** The account when the password is right, otherwise null. */
  verify(name: string, password: string): Promise<Account | null>;
  list(): Promise<Account[]>;
  /** The key sessions and table codes are signed with, made once per ledger file or database. */
  secret(): string;
}

/** The accounts kept in `storage`. */
export function openUsers(storage: AuthStorage, clock: () => Date = () => new Date()): Users {
  const store = storage.accounts;
  return {
    async add(name, role, password, displayName) {
      const trimmed = name.trim();
      if (!/^[\p{L}\p{N}][\p{L}\p{N} .'-]{0,59}$/u.test(trimmed)) {
        throw new AccessError(`a user name is 1 to 60 letters, digits, spaces, dots, apostrophes or dashes, not '${quoted(name, 60)}'`, 403);
      }
      const shown = displayName?.trim();
      if (shown !== undefined) {
        if (shown === '') throw new AccessError(`the display name for ${trimmed} is empty; give the name the ledger and the pages should show`, 403);
        if (shown.length > 60) throw new AccessError(`a display name is at most 60 characters, and '${quoted(shown)}' has ${shown.length}`, 403);
        const unseen = nameProblem(shown, 'the display name');
        if (unseen) throw new AccessError(unseen, 403);
      }
      if (!PASSWORD_ROLES.includes(role)) throw new AccessError(`role must be director or judge, not '${quoted(String(role))}'`, 403);
      if (password.length < 8) throw new AccessError(`the password for ${trimmed} needs at least 8 characters`, 403);
      const before = await store.find(trimmed);
      const nextDisplay = shown ?? before?.displayName ?? trimmed;
      // The same password, role and display name again changes nothing, and ends no one's session.
      if (before && before.role === role && before.displayName === nextDisplay && (await checkPassword(password, before.password))) return;
      const hash = await hashPassword(password);
      await store.save(
        { name: trimmed, displayName: nextDisplay, role, password: hash, createdAt: clock().toISOString() },
        before ? accountOfUser(before.name) : null,
      );
    },
    async verify(name, password) {
      const user = await store.find(name.trim());
      const ok = await checkPassword(password, user?.password ?? UNKNOWN_USER_HASH);
      return ok && user ? { name: user.name, displayName: user.displayName, role: user.role as PasswordRole } : null;
    },
    list: async () => (await store.list()).map((u) => ({ name: u.name, displayName: u.displayName, role: u.role as PasswordRole })),
    secret: () => storage.secret,
  };
}

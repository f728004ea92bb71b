/**
 * Directors' and judges' accounts: names with scrypt password hashes in the `users` table of
 * the ledger's own file, and the key that file's sessions and table codes are signed with. A
 * new password or a new role ends every session the account had.
 */
import { randomBytes, scrypt as scryptCallback, timingSafeEqual } from 'node:crypto';
import { type LedgerDatabase, executeSync } from '../events/database.ts';
import { AccessError } from './refusals.ts';
import { accountOfUser, endAccountSessions } from './sessions.ts';

export const PASSWORD_ROLES = ['director', 'judge'] as const;
export type PasswordRole = (typeof PASSWORD_ROLES)[number];

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
type AccountTables = {
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
  /**
   * Adds an account, or sets a new password and role for an existing name; a change of either
   * ends every session the account had.
   */
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
  const db = database.kysely.withTables<AccountTables>();
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
      const before = find(trimmed);
      // The same password and role again changes nothing, and ends no one's session.
      if (before && before.role === role && (await checkPassword(password, before.password))) return;
      const hash = await hashPassword(password);
      database.sqlite.transaction(() => {
        executeSync(
          database,
          db
            .insertInto('users')
            .values({ name: trimmed, role, password: hash, created_at: clock().toISOString() })
            .onConflict((oc) => oc.column('name').doUpdateSet({ role, password: hash })),
        );
        if (before) endAccountSessions(database, accountOfUser(before.name));
      }).immediate();
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

/**
 * Who may write to the ledger, put together over one ledger file: the accounts (accounts.ts),
 * sessions and the role guard (sessions.ts), table codes (table-codes.ts), the limits on
 * guessing passwords and codes (rate-limits.ts), and the sign-in routes (login-routes.tsx).
 */
import type { Ledger } from '../events/ledger.ts';
import { openUsers } from './accounts.ts';
import { loginRoutes, sessionListProps } from './login-routes.tsx';
import { createJoinLimiter, createLoginLimiter, openHitLog } from './rate-limits.ts';
import { type Session, createSessions } from './sessions.ts';
import { openTableCodes } from './table-codes.ts';

export interface AuthOptions {
  ledger: Ledger;
  /** Milliseconds since the epoch; sessions and the limits read it. */
  now?: () => number;
  /** How an attempt waits for its turn under the login limits; a timer when not given. */
  sleep?: (ms: number) => Promise<void>;
}

export type Auth = ReturnType<typeof createAuth>;

/** Accounts, sessions, table codes, the limits on guessing and the sign-in routes over one ledger file. */
export function createAuth(options: AuthOptions) {
  const { ledger } = options;
  const now = options.now ?? Date.now;
  const database = ledger.database;
  const users = openUsers(database, () => new Date(now()));
  const secret = users.secret();
  const sessions = createSessions({ database, secret, now });
  const codes = openTableCodes(database, secret);
  const log = openHitLog(database);
  const logins = createLoginLimiter({ log, now, ...(options.sleep ? { sleep: options.sleep } : {}) });
  const joins = createJoinLimiter({ log, now });
  const routes = loginRoutes({
    ledger,
    users,
    sessions,
    tryPassword: (name, address, check, device) => logins.attempt(name, address, check, device),
    tryCode: (address, check) => joins.attempt(address, check),
    findTable: (code) => codes.find(ledger.models, code),
  });
  return {
    users,
    secret,
    sessions,
    routes,
    guard: sessions.guard,
    current: sessions.current,
    sessionOf: sessions.sessionOf,
    /** A director's or judge's own sessions, as their pages list them. */
    sessionList: (session: Session) => sessionListProps(sessions, session),
    /** The join code of a table, as printed now. */
    tableCode: (tournamentId: string, table: number) => codes.codeOf(tournamentId, table),
    /** Gives a table a new join code and signs out whoever joined with the old one. */
    rotateTableCode: (tournamentId: string, table: number) => codes.rotate(tournamentId, table),
  };
}

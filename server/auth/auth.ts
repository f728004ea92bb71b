/**
 * Who may write to the ledger, put together over one storage: the accounts (accounts.ts),
 * sessions and the role guard (sessions.ts), table codes (table-codes.ts), the limits on
 * guessing passwords and codes (rate-limits.ts), and the sign-in routes (login-routes.tsx).
 * The storage (storage/auth-storage.ts, an adapter per store beside it) is the ledger's own
 * SQLite file unless another is given: a PostgreSQL database (`postgresAuthStorage`) lets every
 * server process on it share the accounts, the sessions, the table codes and the counts of the
 * limits.
 */
import { type LedgerHandle, servedOf } from '../../events/store/served-ledger.ts';
import { openUsers } from './accounts.ts';
import type { AuthStorage } from './storage/auth-storage.ts';
import { ledgerFileStorage } from './storage/sqlite.ts';
import { loginRoutes, sessionListProps } from './login-routes.tsx';
import { createCheckInLimiter, createJoinLimiter, createLoginLimiter, createSignUpLimiter } from './rate-limits.ts';
import { type Session, createSessions } from './sessions.ts';

export { signedBy } from './sessions.ts';
import { checkInCode, isCheckInCode, openTableCodes } from './table-codes.ts';

export type { AuthStorage } from './storage/auth-storage.ts';
export { ledgerFileStorage, sqliteAuthStorage } from './storage/sqlite.ts';
export { postgresAuthStorage } from './storage/postgres.ts';

export interface AuthOptions {
  /** The ledger, for its read models (a code's tournament) and, unless `storage` says otherwise, its file. */
  ledger: LedgerHandle;
  /** Where accounts, sessions, table codes and the limits' counts are kept; the ledger's file when not given. */
  storage?: AuthStorage;
  /** Milliseconds since the epoch; sessions and the limits read it. */
  now?: () => number;
  /** How an attempt waits for its turn under the login limits; a timer when not given. */
  sleep?: (ms: number) => Promise<void>;
}

export type Auth = ReturnType<typeof createAuth>;

/** Accounts, sessions, table codes, the limits on guessing and the sign-in routes over one storage. */
export function createAuth(options: AuthOptions) {
  const ledger = servedOf(options.ledger);
  const now = options.now ?? Date.now;
  const storage = options.storage ?? ledgerFileStorage(ledger);
  const users = openUsers(storage, () => new Date(now()));
  const secret = storage.secret;
  const sessions = createSessions({ store: storage.sessions, place: storage.place, secret, now });
  const codes = openTableCodes(storage.tableCodes, secret);
  const log = storage.hits;
  const logins = createLoginLimiter({ log, now, ...(options.sleep ? { sleep: options.sleep } : {}) });
  const joins = createJoinLimiter({ log, now });
  const checkIns = createCheckInLimiter({ log, now });
  const signUps = createSignUpLimiter({ log, now });
  const routes = loginRoutes({
    ledger,
    users,
    sessions,
    tryPassword: (name, address, check, device) => logins.attempt(name, address, check, device),
    tryCode: (address, check) => joins.attempt(address, check),
    findTable: (code) => codes.find(ledger.models, code),
  });
  return {
    storage,
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
    /** The join codes of a tournament's tables 1 to `tables`, as printed now. */
    tableCodes: (tournamentId: string, tables: number) => codes.codesOf(tournamentId, tables),
    /** Gives a table a new join code and signs out whoever joined with the old one. */
    rotateTableCode: (tournamentId: string, table: number) => codes.rotate(tournamentId, table),
    /** An entrant's check-in code, from the seed its registration recorded. */
    checkInCode: (tournamentId: string, teamId: string, codeSeed: string | undefined) => checkInCode(secret, tournamentId, teamId, codeSeed),
    /**
     * Tries a typed check-in code under the limits on wrong codes: per phone (`phone`, its cookie
     * or its address) and per entrant, unless the phone is the entrant's own (`own`).
     */
    tryCheckInCode: (phone: string, own: boolean, tournamentId: string, teamId: string, codeSeed: string | undefined, typed: string) =>
      checkIns.attempt(phone, JSON.stringify([tournamentId, teamId]), own, () => (isCheckInCode(secret, tournamentId, teamId, codeSeed, typed) ? true : null)),
    /** Counts a public sign-up against its address. */
    trySignUp: (address: string) => signUps.attempt(address),
  };
}

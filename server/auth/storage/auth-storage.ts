/**
 * Where the sign-in state is kept, apart from what it means: accounts, sessions with their
 * generations, table code rotations and the rate limits' hit log. The rules (who may sign in,
 * when a session is over, what a limit allows) live in accounts.ts, sessions.ts, table-codes.ts
 * and rate-limits.ts; what they keep goes through these interfaces, with an adapter per store
 * beside this file: the ledger's SQLite file (sqlite.ts) or a PostgreSQL database that several
 * server processes share (postgres.ts).
 *
 * Every method is one atomic step and answers with a promise. A step is whole in itself: a rule
 * that needs to read and then write without another process in between is one method here (a
 * callback it takes, like `HitStore.take`'s, decides without waiting for anything), because
 * nothing may hold a SQLite transaction open across an await while the same connection appends
 * ledger events.
 */

/**
 * An account as stored: its sign-in name as first written, the name it is shown and signs
 * entries with (its sign-in name for an account made before it had one of its own), its role
 * and its password hash.
 */
export interface StoredUser {
  name: string;
  displayName: string;
  role: string;
  password: string;
}

export interface AccountStore {
  /** The account whose name matches `name` whatever its case, or null. */
  find(name: string): Promise<StoredUser | null>;
  /** Every account's name, display name and role, by name. */
  list(): Promise<{ name: string; displayName: string; role: string }[]>;
  /**
   * Adds an account, or gives the account of that name (whatever its case) the new role and
   * password; with `endSessionsOf`, ends that session account's sessions in the same step.
   */
  save(user: StoredUser & { createdAt: string }, endSessionsOf: string | null): Promise<void>;
}

/** A session as stored, with the generation its account is at now (`current`). */
export interface StoredSession {
  id: string;
  account: string;
  role: string;
  name: string;
  tournamentId: string | null;
  table: number | null;
  /** The account's generation when the session started. */
  generation: number;
  /** The account's generation now: the session is over when the two differ. */
  current: number;
  csrf: string;
  startedAt: number;
  seenAt: number;
  address: string;
  agent: string;
}

export type NewSession = Omit<StoredSession, 'generation' | 'current'>;

/** A `sessions` row as either database hands it over, with its account's current generation. */
export interface SessionRow<Time = number> {
  id: string;
  account: string;
  role: string;
  name: string;
  tournament_id: string | null;
  table_number: number | null;
  generation: number;
  csrf: string;
  started_at: Time;
  seen_at: Time;
  address: string;
  agent: string;
}

/** A stored session from its row (times may come as text from PostgreSQL's bigint columns). */
export function storedSession(row: SessionRow<number | string> & { current: number | null }): StoredSession {
  return {
    id: row.id,
    account: row.account,
    role: row.role,
    name: row.name,
    tournamentId: row.tournament_id,
    table: row.table_number,
    generation: row.generation,
    current: row.current ?? 0,
    csrf: row.csrf,
    startedAt: Number(row.started_at),
    seenAt: Number(row.seen_at),
    address: row.address,
    agent: row.agent,
  };
}

export interface SessionStore {
  /**
   * Forgets every session last seen at or before `expired.seenBy` or started at or before
   * `expired.startedBy`, then records `session` under its account's current generation.
   */
  start(session: NewSession, expired: { seenBy: number; startedBy: number }): Promise<void>;
  /** The session with this id, or null. */
  find(id: string): Promise<StoredSession | null>;
  /** Notes a request of the session at `at` (never moving its time back). */
  touch(id: string, at: number): Promise<void>;
  /** An account's sessions, the most recently seen first. */
  list(account: string): Promise<StoredSession[]>;
  /** Ends one session of an account; false when the account has no such session. */
  endOne(account: string, id: string): Promise<boolean>;
  /** Ends every session of an account but `keep`; how many were ended. */
  endOthers(account: string, keep: string): Promise<number>;
  /** Raises the account's generation and forgets its sessions: every session it had is over. */
  endAccount(account: string): Promise<void>;
}

/** How many times a table's code has been rotated (tables never rotated have no row). */
export interface TableRotation {
  tournamentId: string;
  table: number;
  rotation: number;
}

export interface TableCodeStore {
  /** The rotations of the tables of one tournament, or of every tournament. */
  rotations(tournamentId?: string): Promise<TableRotation[]>;
  /** Adds one to a table's rotation count and ends the sessions of `account`, in one step; the new count. */
  rotate(tournamentId: string, table: number, account: string): Promise<number>;
}

/** Some keys' hits (attempts) as read at one moment: what a limit decides from. */
export interface HitView {
  /** Times of the hits of `key` at or after `since`, oldest first. */
  times(key: string, since: number): number[];
  /** The time of the latest hit of `key` among those read, or null. */
  latest(key: string): number | null;
}

export interface NewHit {
  key: string;
  at: number;
}

/** What a step of the hit log decided: its answer, the hits to record, and what to forget first. */
export interface HitDecision<T> {
  value: T;
  /** Recorded in this order; none for a refusal. */
  hits: readonly NewHit[];
  /** When hits are recorded, every hit of any key before this time is forgotten first. */
  forgetBefore?: number;
}

/** Hits by key and time: what every limit counts. */
export interface HitStore {
  /** The hits of `keys` at or after `since`, read without taking any lock. */
  read(keys: readonly string[], since: number): Promise<HitView>;
  /**
   * Reads the hits of `keys` at or after `since`, and records the hits `decide` asks for, with no
   * other writer (thread or process) counting those keys in between. `decide` must not wait for
   * anything. Answers its value and the ids of the hits recorded, in the order asked.
   */
  take<T>(keys: readonly string[], since: number, decide: (view: HitView) => HitDecision<T>): Promise<{ value: T; ids: number[] }>;
  /** Records one hit outside any step; its id takes it off again. */
  add(key: string, at: number): Promise<number>;
  remove(ids: readonly number[]): Promise<void>;
}

/** Everything the sign-in state keeps, in one place. */
export interface AuthStorage {
  /** The key sessions and table codes are signed with, made once per ledger file or database. */
  readonly secret: string;
  /** Where the state is kept, as a refusal names it: "the ledger file", "the database". */
  readonly place: string;
  readonly accounts: AccountStore;
  readonly sessions: SessionStore;
  readonly tableCodes: TableCodeStore;
  readonly hits: HitStore;
}

/** A view over hits read as rows, oldest first. */
export function hitView(rows: Iterable<NewHit>): HitView {
  const byKey = new Map<string, number[]>();
  for (const { key, at } of rows) {
    const times = byKey.get(key);
    if (times) times.push(at);
    else byKey.set(key, [at]);
  }
  for (const times of byKey.values()) times.sort((a, b) => a - b);
  return {
    times: (key, since) => (byKey.get(key) ?? []).filter((at) => at >= since),
    latest: (key) => byKey.get(key)?.at(-1) ?? null,
  };
}

/**
 * The ledger as a server process uses it when the events live in PostgreSQL (`DATABASE_URL`):
 * the same read models and change listeners as the SQLite ledger (../sqlite/ledger.ts), folded from what
 * any process appended. Each commit's NOTIFY tells every process to fold; a slow timer folds too,
 * in case an announcement was lost with a connection. Folds and decisions take turns on one
 * queue, so the models never move while a command decides from them, and each decision is
 * appended expecting the stream versions it was made from: another process having moved a stream
 * meanwhile is never recorded on top; the command folds what it recorded and is decided again
 * (../served-ledger.ts, decideAgain). A command's turn ends once
 * its append is sent, so the next can decide while it commits and their appends share a commit
 * (group commit); a command whose streams have an append of this process still in flight waits
 * for it and decides again from the models with it folded.
 *
 * A process starts from the read models stored in the database (snapshots.ts) and folds only
 * what came after them; it stores them again every few thousand events and when it closes.
 */
import { sql } from 'kysely';
import pg from 'pg';
import { domainEvents } from '../../event-catalogue.ts';
import { type AppendResult, type LedgerUnavailableError, type RecordedEvent, VersionConflictError } from '../append.ts';
import type { ChangeListener, Decision, Decisions, ExecuteOptions, LedgerHealth, ServedLedger } from '../served-ledger.ts';
import { LedgerReadError, type StorageVerdict, appendDecidingAgain, appendOptionsOf, decisionAppends, foldEvents, healthChecks } from '../served-ledger.ts';
import { type PgEventStore, connectionLost, openPostgresStore, pgStorageFaultOf } from './event-store.ts';
import { type ReadModels, emptyModels } from '../../projections.ts';
import { loadPgSnapshot, storePgSnapshot } from './snapshots.ts';

export interface PostgresLedger extends ServedLedger {
  readonly backend: 'postgres';
  readonly store: PgEventStore;
  /** The database's connection string, for a worker that reads it over a pool of its own. */
  readonly url: string;
}

export interface OpenPostgresLedgerOptions {
  url: string;
  clock?: () => string;
  /** Called while folding at open: (done, total). */
  onProgress?: (done: number, total: number) => void;
  /** Connections the process keeps open at most. Default 10. */
  poolSize?: number;
  /** Events folded between stored snapshots of the read models. Default 2000. */
  snapshotEvery?: number;
  /** One line about something the ledger did by itself (a snapshot refused or not stored). Default: stderr. */
  onNotice?: (line: string) => void;
  /**
   * Take part in electing the process that commits for every server process, listening on this
   * address for the others while elected (writer-link.ts). Without it, this process appends directly.
   */
  writerHost?: string;
}

const FOLD_PAGE = 1000;
const OUTSIDE = '; the ledger was changed outside the app (`spades verify` checks the whole chain)';

/** Opens the ledger in PostgreSQL, folds it, and starts listening for every process's commits. */
export async function openPostgresLedger(options: OpenPostgresLedgerOptions): Promise<PostgresLedger> {
  const notice = options.onNotice ?? ((line: string) => process.stderr.write(`${line}\n`));
  const store = await openPostgresStore({
    url: options.url,
    registry: domainEvents,
    poolSize: options.poolSize ?? 10,
    ...(options.clock ? { clock: options.clock } : {}),
    ...(options.writerHost ? { writerLink: { host: options.writerHost, onNotice: notice } } : {}),
  });
  let loaded: Awaited<ReturnType<typeof loadPgSnapshot>>;
  try {
    loaded = await loadPgSnapshot(store);
  } catch (error) {
    // A snapshot only saves folding time: without one the models are folded from the start.
    loaded = { models: null, rejected: `not read (${(error as Error).message})` };
  }
  if (loaded.rejected) notice(`read models: ${loaded.rejected}; folding them again from the ledger`);
  const models: ReadModels = loaded.models ?? emptyModels();
  const snapshotEvery = options.snapshotEvery ?? 2000;
  let sinceSnapshot = 0;
  const listeners = new Set<ChangeListener>();
  let fault: LedgerUnavailableError | null = null;
  let unreadable: string | null = null;
  // The highest head any announcement named: a fold is owed while the models stand below it.
  let announced = 0;
  // Folds and decisions run one at a time, in the order they were asked for.
  let queue: Promise<unknown> = Promise.resolve();
  // The streams this process has appends in flight to, each with when its append settles.
  const inFlight = new Map<string, Promise<void>>();
  const inTurn = <T>(work: () => Promise<T>): Promise<T> => {
    const turn = queue.then(work, work);
    queue = turn.catch(() => undefined);
    return turn;
  };

  const foldNow = async (): Promise<number> => {
    if (unreadable) throw new LedgerReadError(unreadable);
    let folded = 0;
    for (;;) {
      let events: RecordedEvent[];
      try {
        events = await store.readAll({ after: models.position, limit: FOLD_PAGE });
      } catch (error) {
        const storage = pgStorageFaultOf(error);
        if (storage) throw storage;
        unreadable = `${(error as Error).message}${OUTSIDE}`;
        throw new LedgerReadError(unreadable);
      }
      try {
        foldEvents(models, events, listeners, OUTSIDE);
      } catch (error) {
        if (error instanceof LedgerReadError) unreadable = error.message;
        throw error;
      }
      folded += events.length;
      sinceSnapshot += events.length;
      if (events.length < FOLD_PAGE) break;
    }
    if (sinceSnapshot >= snapshotEvery) {
      sinceSnapshot = 0;
      // The models' bytes are taken at once; the writing does not hold up the turn.
      void storePgSnapshot(store, models).catch((error: unknown) =>
        notice(`read models: not stored at position ${models.position}: ${(error as Error).message}`),
      );
    }
    return folded;
  };
  const fold = () => inTurn(foldNow);

  // Before anything else: the models stand at the head when the ledger is handed out.
  const total = (await store.head()).position;
  while (models.position < total) {
    if ((await foldNow()) === 0) break;
    options.onProgress?.(models.position, total);
  }
  let closing: Promise<void> | null = null;
  const stopListening = await store.listen((position) => {
    announced = Math.max(announced, position);
    if (announced > models.position) void fold().catch(() => undefined);
  });

  // Health is asked on a connection of its own, so a pool busy with appends does not make a
  // healthy database look late.
  const healthClient = probeConnection(options.url);
  // The fault's reason without the driver's code in brackets: an operator reads it on /healthz.
  const unanswered = (error: unknown) =>
    `the database does not answer: ${(pgStorageFaultOf(error)?.reason ?? (error as Error).message).replace(/ \([^()]*\)$/, '')}`;
  const askDatabase = healthChecks(healthClient.ask, unanswered, 'the database does not answer within a second');

  // The races this process's commands lost, and the most tries one took.
  const races = { decidedAgain: 0, mostTries: 0 };
  // One try at a command.
  const appendOnce = async (decisions: Decisions, opts: ExecuteOptions): Promise<AppendResult[]> => {
    // In its turn a command folds, decides and sends its append; the commit is awaited after
    // the turn, so the next command decides meanwhile and their appends can share a commit.
    const appending = await inTurn(async () => {
      for (;;) {
        // Decided from the models brought up to what the database holds now.
        if (typeof decisions === 'function') await foldNow();
        const decided = typeof decisions === 'function' ? decisions(models) : decisions;
        const list: Decision[] = Array.isArray(decided) ? decided : [decided];
        if (list.length === 0) return null;
        // A stream with an append of this process still in flight is decided again once that
        // append is folded, as it would have been had it waited its turn.
        const waiting = list.flatMap((d) => inFlight.get(d.stream) ?? []);
        if (waiting.length > 0) {
          await Promise.allSettled(waiting);
          await foldNow();
          continue;
        }
        const sent = store.appendMany(decisionAppends(list, models), appendOptionsOf(opts));
        const settled = sent.then(
          () => undefined,
          () => undefined,
        );
        for (const { stream } of list) inFlight.set(stream, settled);
        void settled.then(() => {
          for (const { stream } of list) if (inFlight.get(stream) === settled) inFlight.delete(stream);
        });
        // Wrapped, so the turn ends now rather than when the commit does.
        return { sent };
      }
    });
    if (appending === null) return [];
    let results: AppendResult[];
    try {
      results = await appending.sent;
    } catch (error) {
      const storage = pgStorageFaultOf(error);
      if (storage) fault = storage;
      // A stale decision: fold what the others wrote, so the next one is made from the database.
      if (error instanceof VersionConflictError) await fold().catch(() => undefined);
      throw storage ?? error;
    }
    fault = null;
    await fold();
    return results;
  };

  const ledger: PostgresLedger = {
    backend: 'postgres',
    store,
    url: options.url,
    models,
    append: appendDecidingAgain(appendOnce, races),
    read: (options) => store.readAll(options),
    readStream: (stream, options) => store.readStream(stream, options),
    head: () => store.head(),
    verify: (options) => store.verifyChain(options),
    // In a turn of its own, so the models do not move while their bytes are taken.
    snapshot: () => inTurn(() => storePgSnapshot(store, models)),
    commitStats() {
      const { transactions, appends, largest } = store.commitStats();
      return { transactions, appends, largest, ...races };
    },
    // Cheap when nothing was announced: most requests only read.
    sync: () => (announced > models.position ? fold() : Promise.resolve(0)),
    async syncTo(position) {
      if (models.position < position) await fold();
    },
    follow(intervalMs = 1000) {
      const timer = setInterval(() => {
        void fold().catch(() => undefined);
      }, intervalMs);
      timer.unref();
      return () => clearInterval(timer);
    },
    async findCommand(commandId) {
      const row = await store.kysely.selectFrom('events').select(['position', 'stream', 'meta']).where('command_id', '=', commandId).executeTakeFirst();
      if (!row) return null;
      const meta = JSON.parse(row.meta) as { request?: unknown };
      return { position: Number(row.position), stream: row.stream, request: typeof meta.request === 'string' ? meta.request : null };
    },
    health(): LedgerHealth {
      if (unreadable) return { writable: false, reason: unreadable, position: models.position };
      return fault ? { writable: false, reason: fault.reason, position: models.position } : { writable: true, position: models.position };
    },
    async checkHealth(): Promise<LedgerHealth> {
      const verdict = await askDatabase();
      if (!verdict.writable) return { writable: false, reason: verdict.reason, position: models.position };
      // The database answers again: a lost connection an append met is mended; a full disk or a
      // read-only database is known mended only once an append goes through.
      if (fault && (connectionLost(fault) || fault.code.startsWith('57P'))) fault = null;
      return ledger.health();
    },
    onChange(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    close() {
      // Closing twice closes once; the second waits for the first.
      closing ??= (async () => {
        await stopListening().catch(() => undefined);
        await healthClient.close();
        await queue;
        // Stored on the way out, as the file's ledger stores its models, so the next start folds less.
        if (fault === null && unreadable === null) {
          await storePgSnapshot(store, models).catch((error: unknown) => notice(`read models: not stored on close: ${(error as Error).message}`));
        }
        await store.close();
      })();
      return closing;
    },
  };
  return ledger;
}

/**
 * A named lease in the database: which process does something only one of them should (the
 * demo's bots play its tables). Each call renews it for `forMs` if this holder has it, or takes
 * it if it ran out, and says whether the holder has it now; a holder killed outright loses it
 * once it runs out.
 */
export function lease(store: PgEventStore, name: string, holder: string, forMs: number): () => Promise<boolean> {
  let ready: Promise<unknown> | null = null;
  return async () => {
    ready ??= inSchemaLock(store, sql`CREATE TABLE IF NOT EXISTS leases (name text PRIMARY KEY, holder text NOT NULL, expires_at timestamptz NOT NULL)`).catch(
      (error: unknown) => {
        ready = null;
        throw error;
      },
    );
    await ready;
    const { rows } = await sql<{ holder: string }>`
      INSERT INTO leases (name, holder, expires_at) VALUES (${name}, ${holder}, now() + ${`${forMs} milliseconds`}::interval)
      ON CONFLICT (name) DO UPDATE SET holder = excluded.holder, expires_at = excluded.expires_at
        WHERE leases.holder = excluded.holder OR leases.expires_at < now()
      RETURNING holder`.execute(store.kysely);
    return rows.length === 1;
  };
}

// Two processes creating one table at the same moment can both try; the second waits for this lock.
const LEASE_SCHEMA_LOCK = 0x5_ba_de_6;

async function inSchemaLock(store: PgEventStore, statement: ReturnType<typeof sql>): Promise<void> {
  await store.kysely.transaction().execute(async (trx) => {
    await sql`SELECT pg_advisory_xact_lock(${LEASE_SCHEMA_LOCK})`.execute(trx);
    await statement.execute(trx);
  });
}

/**
 * One connection kept for asking the database whether the ledger can be read and written: the
 * head of the events (read), and whether the database takes writes (not a standby in recovery,
 * not read-only). A connection that failed is let go and a new one made at the next question.
 */
function probeConnection(url: string): { ask: () => Promise<StorageVerdict>; close: () => Promise<void> } {
  let client: Promise<pg.Client> | null = null;
  let closed = false;
  const connect = async () => {
    const made = new pg.Client({ connectionString: url, connectionTimeoutMillis: 1000, query_timeout: 1000 });
    // A connection the server drops while idle must not end the process; its next question fails.
    made.on('error', () => undefined);
    await made.connect();
    return made;
  };
  const letGo = () => {
    const gone = client;
    client = null;
    void gone?.then((c) => c.end()).catch(() => undefined);
  };
  return {
    async ask() {
      if (closed) return { writable: false, reason: 'the ledger is closing' };
      client ??= connect();
      try {
        const c = await client;
        const { rows } = await c.query<{ standby: boolean; read_only: string }>(
          "SELECT pg_is_in_recovery() AS standby, current_setting('transaction_read_only') AS read_only, (SELECT position FROM events ORDER BY position DESC LIMIT 1) AS head",
        );
        const row = rows[0]!;
        if (row.standby) return { writable: false, reason: 'the database is a standby, which takes no writes' };
        if (row.read_only === 'on') return { writable: false, reason: 'the database is read-only' };
        return { writable: true };
      } catch (error) {
        letGo();
        throw error;
      }
    },
    async close() {
      closed = true;
      letGo();
    },
  };
}

/**
 * Group commit for the ledger on PostgreSQL. Appends that arrive while a commit is in flight
 * wait for the next one and go together: one transaction, one lock of the head row, one flush of
 * the log. Inside that transaction each command is still decided on its own, in arrival order:
 * its command id looked up (a repeat answers the first result, from an earlier transaction or an
 * earlier command of the same one), each stream's version checked against the one it was decided
 * from (counting the events the earlier commands of the batch put on that stream), and its events
 * chained after the ones before it. A command refused (a version conflict, a command id reused)
 * is answered with that refusal alone; the others commit. Every command is answered only after
 * the commit that recorded it came back, that is once its log is on the disk.
 *
 * A transaction takes two round trips: the first opens it, locks the head row and reads the
 * batch's stream versions and command ids (one message of several statements, each reading after
 * the lock is held, as each statement of a READ COMMITTED transaction takes a snapshot of its
 * own); the second inserts the rows, moves the head, announces it and commits. A command id met
 * again costs a third, to read what the first command recorded.
 *
 * A process that has been writing alone takes one: it remembers the head it left and the stream
 * versions it knew then, decides from those, and sends one statement that moves the head only
 * from where it left it (so nothing else was written since, and what it knew still holds),
 * inserts the rows only if it did, and commits. Anything in doubt (the head moved, a command id
 * found recorded, a stream it has not seen, a command it would refuse) takes the long way.
 *
 * That one statement is prepared once on each connection for each number of rows up to 64, every
 * value a parameter of its own, and once for larger batches, their rows passed as arrays. The long
 * way's messages travel as plain text (several statements go in one message only so), their
 * values written as SQL literals: stream names and numbers are checked before they get here,
 * and every text goes through `escapeLiteral`.
 *
 * Across processes nothing changes: the head row's lock still puts each process's batch after
 * the other's, so the batch is what one process brings to the lock.
 */
import pg from 'pg';
import type { AnyEvent } from '../../event-types.ts';
import {
  type PreparedBatch,
  type RecordedEvent,
  type WrittenBatch,
  chainAppend,
  commandEventCount,
  repeatedCommand,
} from '../append.ts';
import type { ChainHead, ChainedRow } from '../../hash-chain.ts';

/** One command waiting for a commit: its prepared events and what it is answered with. */
export interface PendingAppend<E extends AnyEvent> {
  batches: PreparedBatch[];
  commandId: string | null;
  request: string | null;
  resolve(result: { written: WrittenBatch<E>[]; duplicate: boolean }): void;
  reject(error: unknown): void;
}

/** How many transactions the committer ran and how many commands they answered. */
export interface GroupCommitStats {
  /** Transactions opened, each locking the head once. */
  transactions: number;
  /** Commands answered by them (recorded, repeats and refusals alike). */
  appends: number;
  /** The most commands one transaction answered. */
  largest: number;
  /** Transactions that took one round trip: the process had been writing alone since its last. */
  oneTrip: number;
  /**
   * Milliseconds spent in each step, summed over the transactions: waiting for a connection,
   * opening the transaction with the head locked and the batch's versions and command ids read,
   * deciding and chaining the commands, and writing the rows with the commit.
   */
  steps: { connect: number; lock: number; decide: number; write: number };
}

export interface GroupCommitOptions<E extends AnyEvent> {
  pool: pg.Pool;
  /** The channel the new head is announced on. */
  channel: string;
  toRecorded(row: ChainedRow): RecordedEvent<E>;
  /**
   * What a command is answered with when its transaction failed: `commitSent` says whether the
   * commit had gone out when it did.
   */
  failure(error: unknown, commitSent: boolean): unknown;
  /** Whether the failure is the database's or the network's fault rather than the batch's. */
  isFault(error: unknown): boolean;
  /** Commands one transaction takes at most. Default 500. */
  maxBatch?: number;
}

export interface GroupCommitter<E extends AnyEvent> {
  /** Queues a command for the next commit; settles once it is answered. */
  submit(batches: PreparedBatch[], commandId: string | null, request: string | null): Promise<{ written: WrittenBatch<E>[]; duplicate: boolean }>;
  stats(): GroupCommitStats;
  /** Settles once every command queued so far has been answered. */
  idle(): Promise<void>;
}

const COLUMNS = ['position', 'stream', 'version', 'type', 'schema_version', 'payload', 'meta', 'command_id', 'prev_hash', 'hash'] as const;
const COLUMN_LIST = COLUMNS.join(', ');
// Rows per INSERT statement of the commit's message.
const INSERT_CHUNK = 1000;

/** A value as an SQL literal: numbers as digits, text quoted and escaped, null as NULL. */
function literal(value: string | number | null): string {
  if (value === null) return 'NULL';
  if (typeof value === 'number') {
    if (!Number.isSafeInteger(value)) throw new Error(`${value} is not a whole number the ledger can store`);
    return String(value);
  }
  return pg.escapeLiteral(value);
}

const list = (values: Iterable<string>) => [...values].map(literal).join(', ');

/** The first message: open the transaction, lock the head, read the batch's versions and command ids. */
function lockMessage(streams: Set<string>, commandIds: Set<string>): string {
  const statements = [
    'BEGIN',
    // set_config(…, true) is SET LOCAL: the commit waits for its log to reach the disk whatever
    // the connection, role or database says.
    "SELECT set_config('synchronous_commit', 'on', true) AS synchronous_commit, position, hash FROM ledger_head WHERE id FOR UPDATE",
  ];
  if (streams.size > 0) statements.push(`SELECT stream, max(version) AS version FROM events WHERE stream IN (${list(streams)}) GROUP BY stream`);
  if (commandIds.size > 0) statements.push(`SELECT ${COLUMN_LIST} FROM events WHERE command_id IN (${list(commandIds)})`);
  return statements.join(';\n');
}

/** The second message: the rows, the head moved and announced, the commit. */
function commitMessage(rows: readonly ChainedRow[], head: ChainHead, channel: string): string {
  const statements: string[] = [];
  for (let i = 0; i < rows.length; i += INSERT_CHUNK) {
    const values = rows.slice(i, i + INSERT_CHUNK).map((row) => `(${COLUMNS.map((c) => literal(row[c])).join(', ')})`);
    statements.push(`INSERT INTO events (${COLUMN_LIST}) VALUES ${values.join(',\n')}`);
  }
  // The announcement is queued now and sent only if, and when, the transaction commits.
  statements.push(`WITH moved AS (UPDATE ledger_head SET position = ${literal(head.position)}, hash = ${literal(head.hash)} WHERE id RETURNING position)
    SELECT pg_notify(${literal(channel)}, position::text) FROM moved`);
  statements.push('COMMIT');
  return statements.join(';\n');
}

type Answer<E extends AnyEvent> = { ok: true; value: { written: WrittenBatch<E>[]; duplicate: boolean } } | { ok: false; error: unknown };

/** A command id recorded, with every row its command recorded. */
type Recorded = Map<string, { first: ChainedRow; rows: ChainedRow[] }>;

interface Decided<E extends AnyEvent> {
  answers: Answer<E>[];
  rows: ChainedRow[];
  head: ChainHead;
  /** The versions the batch's rows move their streams to. */
  moved: Map<string, number>;
  /** A command with an id was refused without its id having been looked up in the ledger, where it may be recorded. */
  unsure: boolean;
}

/**
 * Decides a batch's commands in arrival order against the ledger standing at `head` with the
 * streams at `versions`, each against the ledger as the commands before it left it: a command id
 * in `recorded` (or recorded by an earlier command of the batch) answers the first result; any
 * other command is checked against its streams' versions and chained after the rows before it.
 */
function decide<E extends AnyEvent>(batch: readonly PendingAppend<E>[], start: ChainHead, versions: ReadonlyMap<string, number>, lookedUp: Recorded | null, toRecorded: (row: ChainedRow) => RecordedEvent<E>): Decided<E> {
  const moved = new Map<string, number>();
  const recorded: Recorded = new Map(lookedUp ?? []);
  const answers: Answer<E>[] = [];
  const rows: ChainedRow[] = [];
  let head = start;
  let unsure = false;
  for (const { batches, commandId, request } of batch) {
    const earlier = commandId === null ? undefined : recorded.get(commandId);
    try {
      if (commandId !== null && earlier) {
        const mine = repeatedCommand(commandId, batches, request, earlier.first, earlier.rows);
        answers.push({ ok: true, value: { written: mine.map((r) => ({ rows: r, recorded: r.map(toRecorded) })), duplicate: true } });
        continue;
      }
      const chained = chainAppend<E>(head, batches, (stream) => moved.get(stream) ?? versions.get(stream) ?? 0, commandId);
      const mine = chained.written.flatMap((w) => w.rows);
      head = chained.head;
      for (const row of mine) moved.set(row.stream, row.version);
      rows.push(...mine);
      // A later command of this batch with the same id is a repeat of this one.
      if (commandId !== null && mine.length > 0) recorded.set(commandId, { first: mine[0]!, rows: mine });
      answers.push({ ok: true, value: { written: chained.written, duplicate: false } });
    } catch (error) {
      // Refused before its id was looked up: had it been recorded, the answer is the first result.
      if (commandId !== null && !earlier && lookedUp === null) unsure = true;
      answers.push({ ok: false, error });
    }
  }
  return { answers, rows, head, moved, unsure };
}

// Rows the one-statement commit carries at most; a larger batch takes the long way.
const ONE_TRIP_ROWS = 5000;

// Up to this many rows, the one-statement commit passes each value as a parameter of its own,
// with a statement prepared for that number of rows; past it, one array a column. Parameters are
// read by the server with no parsing of array text, which a batch of one or a few rows notices.
const ROWS_AS_PARAMETERS = 64;
const COLUMN_TYPES = ['bigint', 'text', 'integer', 'text', 'integer', 'text', 'text', 'text', 'text', 'text'] as const;

/** The rows of the one-statement commit, their parameters starting at `$first`. */
function rowsSource(count: number, first: number): string {
  if (count > ROWS_AS_PARAMETERS) {
    return `unnest(${COLUMN_TYPES.map((type, i) => `$${first + i}::${type}[]`).join(', ')})`;
  }
  const rows = Array.from({ length: count }, (_, r) =>
    `(${COLUMN_TYPES.map((type, i) => `$${first + r * COLUMN_TYPES.length + i}::${type}`).join(', ')})`);
  return `(VALUES ${rows.join(',\n  ')})`;
}

/**
 * The whole transaction as one statement, for a process that knows where the ledger stands: it
 * moves the head only from where this process left it (waiting for the row's lock, and checking
 * again once it has it), so nothing else was written since and the stream versions it knew then
 * still hold; the rows go in only if the head moved; the new head is announced; and the statement
 * commits on its own, with `synchronous_commit` on. It answers one row when it wrote, none when
 * the head was not where this process left it (then it wrote nothing). Prepared once on each
 * connection for each number of rows up to ROWS_AS_PARAMETERS and once for any more, so the
 * server parses and plans each shape once.
 */
function oneTripQuery(known: ChainHead, rows: readonly ChainedRow[], head: ChainHead, channel: string): pg.QueryConfig {
  const asParameters = rows.length <= ROWS_AS_PARAMETERS;
  const values = asParameters ? rows.flatMap((row) => COLUMNS.map((c) => row[c])) : COLUMNS.map((c) => rows.map((row) => row[c]));
  return {
    name: `spades_ledger_one_trip_${asParameters ? rows.length : 'arrays'}`,
    text: `WITH moved AS (
  UPDATE ledger_head SET position = $1, hash = $2 WHERE id AND position = $3 AND hash = $4
  RETURNING position, set_config('synchronous_commit', 'on', true) AS synchronous_commit
), inserted AS (
  INSERT INTO events (${COLUMN_LIST})
  SELECT * FROM ${rowsSource(rows.length, 6)} AS row (${COLUMN_LIST})
  WHERE EXISTS (SELECT 1 FROM moved)
  RETURNING position
)
SELECT pg_notify($5, moved.position::text) AS notified, (SELECT count(*) FROM inserted) AS inserted FROM moved`,
    values: [head.position, head.hash, known.position, known.hash, channel, ...values],
  };
}

/** The batch's transaction failed as a whole, for a reason that is none of the database's faults. */
class BatchRefused extends Error {
  constructor(readonly refusal: unknown) {
    super('the batch was refused');
  }
}

// Streams whose versions a process remembers at most; past that it starts again from none.
const KNOWN_STREAMS = 10_000;

export function groupCommitter<E extends AnyEvent>(options: GroupCommitOptions<E>): GroupCommitter<E> {
  const { pool, channel, toRecorded, failure, isFault } = options;
  const maxBatch = options.maxBatch ?? 500;
  const queue: PendingAppend<E>[] = [];
  const stats: GroupCommitStats = { transactions: 0, appends: 0, largest: 0, oneTrip: 0, steps: { connect: 0, lock: 0, decide: 0, write: 0 } };
  let running: Promise<void> | null = null;
  // The connection commits go over, held while commands keep coming.
  let client: pg.PoolClient | null = null;
  // Where this process left the ledger when it last held the head lock, and whether someone else
  // had written since the time before: a process writing alone commits in one round trip.
  let known: { head: ChainHead; versions: Map<string, number> } | null = null;
  let contended = true;

  /**
   * Runs one batch's transaction and answers each of its commands. Throws BatchRefused when the
   * database refused the commit for a reason of the batch's own (nothing was recorded), so the
   * commands can be tried again one at a time; answers every command with the fault otherwise.
   */
  const commit = async (batch: PendingAppend<E>[]): Promise<void> => {
    stats.transactions++;
    stats.appends += batch.length;
    stats.largest = Math.max(stats.largest, batch.length);
    const streams = new Set(batch.flatMap((p) => p.batches.map((b) => b.stream)));
    const commandIds = new Set(batch.flatMap((p) => (p.commandId === null ? [] : [p.commandId])));
    let commitSent = false;
    let open = false;
    let decided: Decided<E> | null = null;
    // The stream versions the batch was decided from, as they stood at the head it was decided after.
    let base: Map<string, number> | null = null;
    let mark = performance.now();
    const step = (name: keyof GroupCommitStats['steps']) => {
      const now = performance.now();
      stats.steps[name] += now - mark;
      mark = now;
    };
    try {
      client ??= await pool.connect();
      step('connect');
      // Alone on the ledger since this process last wrote: decided from what it knows, checked by
      // the head, all in one statement. A refusal is only sure once the head is checked, and an
      // id only once looked up, so a batch with either goes the long way.
      if (known && !contended && [...streams].every((s) => known!.versions.has(s))) {
        const guess = decide(batch, known.head, known.versions, null, toRecorded);
        const alone = guess.rows.length > 0 && guess.rows.length <= ONE_TRIP_ROWS && !guess.unsure && guess.answers.every((a) => a.ok);
        step('decide');
        if (alone) {
          commitSent = true;
          try {
            const { rows } = await client.query(oneTripQuery(known.head, guess.rows, guess.head, channel));
            if (rows.length === 1) {
              decided = guess;
              base = known.versions;
              stats.oneTrip++;
            }
          } catch (error) {
            // No answer, or a fault: as for any commit. The server refusing (a command id already
            // recorded, say) wrote nothing: the long way from here.
            if (!(error instanceof pg.DatabaseError) || isFault(error)) throw error;
          }
          // Not written (the head had moved): the long way, deciding again from the database.
          if (!decided) {
            commitSent = false;
            contended = true;
          }
        }
      }
      if (!decided) {
        open = true;
        const results = (await client.query(lockMessage(streams, commandIds))) as unknown as pg.QueryResult[];
        const heads = results[1]!.rows as ChainHead[];
        if (heads.length === 0) throw new Error('the ledger_head row is missing, so no append can take its place in the chain');
        const locked: ChainHead = { position: heads[0]!.position, hash: heads[0]!.hash };
        // What this process knew still holds if no one wrote since; what it read holds now.
        const unmoved = known !== null && known.head.position === locked.position && known.head.hash === locked.hash;
        contended = !unmoved;
        const versions = unmoved && known!.versions.size < KNOWN_STREAMS ? known!.versions : new Map<string, number>();
        for (const stream of streams) versions.set(stream, 0);
        let next = 2;
        if (streams.size > 0) for (const { stream, version } of results[next++]!.rows as { stream: string; version: number }[]) versions.set(stream, Number(version));
        known = null;
        const lookedUp: Recorded = new Map();
        if (commandIds.size > 0) {
          const firsts = results[next++]!.rows as ChainedRow[];
          if (firsts.length > 0) {
            const ranges = firsts.map((f) => `position BETWEEN ${literal(f.position)} AND ${literal(f.position + commandEventCount(f) - 1)}`);
            const { rows } = await client.query<ChainedRow>(`SELECT ${COLUMN_LIST} FROM events WHERE ${ranges.join(' OR ')} ORDER BY position`);
            for (const first of firsts) {
              const last = first.position + commandEventCount(first) - 1;
              lookedUp.set(first.command_id!, { first, rows: rows.filter((r) => r.position >= first.position && r.position <= last) });
            }
          }
        }
        step('lock');
        base = versions;
        decided = decide(batch, locked, versions, lookedUp, toRecorded);
        step('decide');
        if (decided.rows.length > 0) {
          commitSent = true;
          await client.query(commitMessage(decided.rows, decided.head, channel));
        } else {
          // Nothing to record: the lock is let go without a flush.
          await client.query('ROLLBACK');
        }
      }
      step('write');
      open = false;
      // What the long way read, or what this process knew, moved on by what the batch wrote.
      for (const [stream, version] of decided.moved) base!.set(stream, version);
      known = { head: decided.head, versions: base! };
    } catch (error) {
      known = null;
      contended = true;
      if (client) {
        // Rolling back ends what the failure left open; on a connection that is gone it fails,
        // and the connection is dropped.
        const back = client;
        client = null;
        if (open) {
          await back.query('ROLLBACK').then(() => back.release(), (lost: Error) => back.release(lost));
        } else {
          back.release();
        }
      }
      // An answer to the commit, even an error, means it did not commit. Whatever the database
      // refused for the batch's own reasons is tried again command by command; a fault answers all.
      if (!isFault(error) && batch.length > 1) throw new BatchRefused(error);
      const answer = failure(error, commitSent);
      for (const pending of batch) pending.reject(answer);
      return;
    }
    batch.forEach((pending, i) => {
      const answer = decided!.answers[i]!;
      if (answer.ok) pending.resolve(answer.value);
      else pending.reject(answer.error);
    });
  };

  const drain = async (): Promise<void> => {
    for (;;) {
      // Whatever was sent while the last commit was in flight, and in this turn of the event loop.
      await new Promise((resolve) => setImmediate(resolve));
      if (queue.length === 0) {
        // In the same turn as the check, so a command queued from here on starts a new drain.
        running = null;
        client?.release();
        client = null;
        return;
      }
      const batch = queue.splice(0, maxBatch);
      try {
        await commit(batch);
      } catch (error) {
        if (!(error instanceof BatchRefused)) {
          for (const pending of batch) pending.reject(error);
          continue;
        }
        // One command of the batch made the database refuse it all: each alone, in the same order,
        // so only that one is refused.
        for (const pending of batch) {
          try {
            await commit([pending]);
          } catch (alone) {
            pending.reject(alone instanceof BatchRefused ? failure(alone.refusal, false) : alone);
          }
        }
      }
    }
  };

  return {
    submit(batches, commandId, request) {
      return new Promise((resolve, reject) => {
        queue.push({ batches, commandId, request, resolve, reject });
        running ??= drain();
      });
    },
    stats: () => ({ ...stats, steps: { ...stats.steps } }),
    async idle() {
      while (running) await running;
    },
  };
}

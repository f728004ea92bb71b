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
 * again costs a third, to read what the first command recorded. The statements travel as plain
 * text, their values written as SQL literals: stream names and positions are checked by the store
 * before they get here, and every text goes through `escapeLiteral`.
 *
 * Across processes nothing changes: the head row's lock still puts each process's batch after
 * the other's, so the batch is what one process brings to the lock.
 */
import pg from 'pg';
import type { AnyEvent } from './event-types.ts';
import {
  type PreparedBatch,
  type RecordedEvent,
  type WrittenBatch,
  chainAppend,
  commandEventCount,
  repeatedCommand,
} from './event-store.ts';
import type { ChainHead, ChainedRow } from './hash-chain.ts';

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

/** The batch's transaction failed as a whole, for a reason that is none of the database's faults. */
class BatchRefused extends Error {
  constructor(readonly refusal: unknown) {
    super('the batch was refused');
  }
}

export function groupCommitter<E extends AnyEvent>(options: GroupCommitOptions<E>): GroupCommitter<E> {
  const { pool, channel, toRecorded, failure, isFault } = options;
  const maxBatch = options.maxBatch ?? 500;
  const queue: PendingAppend<E>[] = [];
  const stats: GroupCommitStats = { transactions: 0, appends: 0, largest: 0, steps: { connect: 0, lock: 0, decide: 0, write: 0 } };
  let running: Promise<void> | null = null;

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
    let client: pg.PoolClient | null = null;
    let commitSent = false;
    let open = false;
    const answers: Answer<E>[] = [];
    let mark = performance.now();
    const step = (name: keyof GroupCommitStats['steps']) => {
      const now = performance.now();
      stats.steps[name] += now - mark;
      mark = now;
    };
    try {
      client = await pool.connect();
      step('connect');
      open = true;
      const results = (await client.query(lockMessage(streams, commandIds))) as unknown as pg.QueryResult[];
      const heads = results[1]!.rows as ChainHead[];
      if (heads.length === 0) throw new Error('the ledger_head row is missing, so no append can take its place in the chain');
      let head: ChainHead = { position: heads[0]!.position, hash: heads[0]!.hash };
      const versions = new Map<string, number>();
      let next = 2;
      if (streams.size > 0) for (const { stream, version } of results[next++]!.rows as { stream: string; version: number }[]) versions.set(stream, Number(version));
      // Each command id already recorded, with every row its command recorded.
      const recordedCommands = new Map<string, { first: ChainedRow; rows: ChainedRow[] }>();
      if (commandIds.size > 0) {
        const firsts = results[next++]!.rows as ChainedRow[];
        if (firsts.length > 0) {
          const ranges = firsts.map((f) => `position BETWEEN ${literal(f.position)} AND ${literal(f.position + commandEventCount(f) - 1)}`);
          const { rows } = await client.query<ChainedRow>(`SELECT ${COLUMN_LIST} FROM events WHERE ${ranges.join(' OR ')} ORDER BY position`);
          for (const first of firsts) {
            const last = first.position + commandEventCount(first) - 1;
            recordedCommands.set(first.command_id!, { first, rows: rows.filter((r) => r.position >= first.position && r.position <= last) });
          }
        }
      }
      step('lock');

      // Each command in arrival order, against the ledger as the commands before it left it.
      const rows: ChainedRow[] = [];
      for (const pending of batch) {
        try {
          const { batches, commandId, request } = pending;
          const earlier = commandId === null ? undefined : recordedCommands.get(commandId);
          if (commandId !== null && earlier) {
            const mine = repeatedCommand(commandId, batches, request, earlier.first, earlier.rows);
            answers.push({ ok: true, value: { written: mine.map((r) => ({ rows: r, recorded: r.map(toRecorded) })), duplicate: true } });
            continue;
          }
          const chained = chainAppend<E>(head, batches, (stream) => versions.get(stream) ?? 0, commandId);
          const mine = chained.written.flatMap((w) => w.rows);
          head = chained.head;
          for (const row of mine) versions.set(row.stream, row.version);
          rows.push(...mine);
          // A later command of this batch with the same id is a repeat of this one.
          if (commandId !== null && mine.length > 0) recordedCommands.set(commandId, { first: mine[0]!, rows: mine });
          answers.push({ ok: true, value: { written: chained.written, duplicate: false } });
        } catch (error) {
          answers.push({ ok: false, error });
        }
      }

      step('decide');
      if (rows.length > 0) {
        commitSent = true;
        await client.query(commitMessage(rows, head, channel));
      } else {
        // Nothing to record: the lock is let go without a flush.
        await client.query('ROLLBACK');
      }
      step('write');
      open = false;
      client.release();
      client = null;
    } catch (error) {
      if (client) {
        // Rolling back is what hands the connection back; on one that is gone it fails, and the
        // connection is dropped instead.
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
      const answer = answers[i]!;
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

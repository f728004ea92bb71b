/**
 * Group commit for the ledger on PostgreSQL, within a process and across processes. Appends that
 * arrive while a commit is in flight wait for the next one and go together: one transaction, one
 * lock of the head row, one flush of the log. Inside that transaction each command is still
 * decided on its own, in order: its command id looked up (a repeat answers the first result,
 * from an earlier transaction or an earlier command of the same one), each stream's version
 * checked against the one it was decided from (counting the events the earlier commands of the
 * batch put on that stream), and its events chained after the ones before it. A command refused
 * (a version conflict, a command id reused) is answered with that refusal alone; the others
 * commit. Every command is answered only after the commit that chained it came back, that is
 * once its log is on the disk.
 *
 * Across processes, a batch whose process finds the head row locked by another does not queue on
 * the lock: it leaves its commands in `ledger_intake` (one row each, undecided, committed without
 * waiting for the disk) and then waits for the head. Whoever holds the head chains, in the same
 * transaction as its own commands, every command waiting in the intake, in the order they came,
 * each decided as above against the ledger as it then stands; it deletes them from the intake and
 * leaves each other process's answer in `ledger_outcomes` (the positions it recorded, or the
 * refusal), all in the one commit. The process that left them, once it holds the head in turn,
 * reads its answers there (or finds its commands still waiting and chains them itself, with any
 * others come since). So a commit carries what every process sent while the one before was in
 * flight, and the chain stays one line: only the holder of the head row writes events, and a
 * command is decided only by it, against the chain it is added to. The intake is no promise: a
 * command in it is recorded or refused only when chained, and answered only after that commit is
 * on the disk, whose flush carries the intake's row with it; a process killed meanwhile leaves
 * its commands to be decided by the next holder of the head, as a commit sent by a process killed
 * before the answer may or may not have landed.
 *
 * A transaction takes two round trips: the first opens it, takes the head row's lock if it is free
 * (or says it is not), reads the commands waiting in the intake, and the versions and command ids
 * of every stream and command it may decide (one message of several statements, each reading
 * after the lock is held, as each statement of a READ COMMITTED transaction takes a snapshot of
 * its own); the second inserts the rows, clears the intake, leaves the answers, moves the head,
 * announces it and commits. A command id met again costs a third, to read what the first command
 * recorded. A batch that finds the head held goes into the intake in the first message's last
 * statement, and the next message commits it and waits for the holder's commit (sharing an
 * advisory lock the holder holds, so that waiting leaves the head row free) and reads the answers.
 * While others are writing, a process's next batch goes into the intake straight away, in the
 * same message that then tries for the head: the first process back after a commit takes the
 * head, looks at the intake up to twice more for what the others send meanwhile, and chains it all.
 *
 * A process that has been writing alone takes one: it remembers the head it left and the stream
 * versions it knew then, decides from those, and sends one statement that moves the head only
 * from where it left it and while the intake is empty (so nothing else was written or is waiting
 * since, and what it knew still holds), inserts the rows only if it did, and commits. Anything in
 * doubt (the head moved, a command id found recorded, a stream it has not seen, a command it
 * would refuse) takes the long way.
 *
 * That one statement is prepared once on each connection for each number of rows up to 64, every
 * value a parameter of its own, and once for larger batches, their rows passed as arrays. The long
 * way's messages travel as plain text (several statements go in one message only so), their
 * values written as SQL literals: stream names and numbers are checked before they get here,
 * and every text goes through `escapeLiteral`.
 */
import pg from 'pg';
import type { AnyEvent } from '../../event-registry.ts';
import {
  AppendRefusedError,
  CommandIdReusedError,
  type PreparedBatch,
  type RecordedEvent,
  VersionConflictError,
  type WrittenBatch,
  chainAppend,
  commandEventCount,
  repeatedCommand,
} from '../append.ts';
import type { ChainHead, ChainedRow } from '../../hash-chain.ts';
import { type FramedBatch, batchesAsText, batchesFromText } from './writer-frames.ts';

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
  /** Commands this process left in the intake, the head being held by another. */
  queued: number;
  /** Commands of other processes this process chained from the intake. */
  forOthers: number;
  /**
   * Commands decided (checked and chained) while the committer waited to gather others before
   * a commit, rather than once the commit began; the commit used those decisions.
   */
  decidedAhead: number;
  /**
   * Milliseconds spent in each step, summed over the transactions: waiting for a connection,
   * opening the transaction with the head locked and the batch's versions and command ids read
   * (for a batch left in the intake, leaving it there and waiting for the head too), deciding
   * and chaining the commands, and writing the rows with the commit.
   */
  steps: { connect: number; lock: number; decide: number; write: number };
}

/** Commit counts before the first commit: every figure at zero. */
export function noCommits(): GroupCommitStats {
  return { transactions: 0, appends: 0, largest: 0, oneTrip: 0, queued: 0, forOthers: 0, decidedAhead: 0, steps: { connect: 0, lock: 0, decide: 0, write: 0 } };
}

export interface GroupCommitOptions<E extends AnyEvent> {
  pool: pg.Pool;
  /** The channel the new head is announced on. */
  channel: string;
  toRecorded(row: ChainedRow): RecordedEvent<E>;
  /**
   * What a command is answered with when its transaction failed: `commitSent` says whether the
   * commit had gone out when it did, `queued` whether the command had been left in the intake,
   * where whoever holds the head next decides it.
   */
  failure(error: unknown, commitSent: boolean, queued: boolean): unknown;
  /** Whether the failure is the database's or the network's fault rather than the batch's. */
  isFault(error: unknown): boolean;
  /** Commands one transaction takes at most. Default 500. */
  maxBatch?: number;
  /**
   * Called before each commit with commands waiting, with how long the one before took; the
   * commit starts once it settles. The writer process waits here, briefly, for the appends of
   * other processes it has just answered to come back (writer-link.ts).
   */
  gather?: (lastCommitMs: number) => Promise<void>;
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

const list = (values: Iterable<string | number>) => [...values].map(literal).join(', ');
const textArray = (values: Iterable<string>) => `ARRAY[${list(values)}]::text[]`;

/**
 * A command as a commit decides it: one of this committer's (`local`), or one another process
 * left in the intake (`intake` its row there, `local` null), or one of this committer's it left
 * there itself.
 */
interface Command<E extends AnyEvent> {
  batches: PreparedBatch[];
  commandId: string | null;
  request: string | null;
  intake: number | null;
  local: PendingAppend<E> | null;
  /** Whether `local` has been answered. */
  settled?: boolean;
}

/** A command of this committer's queue, not yet anywhere in the database. */
function localCommand<E extends AnyEvent>(pending: PendingAppend<E>): Command<E> {
  return { batches: pending.batches, commandId: pending.commandId, request: pending.request, intake: null, local: pending };
}

/** Answers a command of this committer (once). */
function settle<E extends AnyEvent>(command: Command<E>, answer: Answer<E>): void {
  if (!command.local || command.settled) return;
  command.settled = true;
  if (answer.ok) command.local.resolve(answer.value);
  else command.local.reject(answer.error);
}

/** A command as it waits in the intake: what deciding it needs, its events as stored. */
interface IntakeText {
  request: string | null;
  batches: FramedBatch[];
}

function intakeText(command: Command<AnyEvent>): string {
  const text: IntakeText = {
    request: command.request,
    batches: batchesAsText(command.batches),
  };
  return JSON.stringify(text);
}

/**
 * Another process's command read from the intake. Only its rows are made from it here (the
 * process that sent it answers its caller from the rows), so its events' payload and meta stay text.
 */
function intakeCommand<E extends AnyEvent>(row: { id: number; command_id: string | null; command: string }): Command<E> {
  const text = JSON.parse(row.command) as IntakeText;
  return {
    commandId: row.command_id,
    request: text.request,
    intake: Number(row.id),
    local: null,
    batches: batchesFromText(text.batches),
  };
}

/** A refusal as left in `ledger_outcomes` for the process whose command it was. */
export function refusalText(error: unknown): string {
  if (error instanceof VersionConflictError) return JSON.stringify({ kind: 'version', stream: error.stream, expected: error.expected, actual: error.actual });
  if (error instanceof CommandIdReusedError) {
    return JSON.stringify({ kind: 'reused', commandId: error.commandId, stream: error.stream, usedFor: error.usedFor, message: error.message });
  }
  return JSON.stringify({ kind: error instanceof AppendRefusedError ? 'refused' : 'error', message: (error as Error)?.message ?? String(error) });
}

/** The refusal left in `ledger_outcomes`, as the error the caller would have met deciding it itself. */
export function refusalOf(text: string): Error {
  const r = JSON.parse(text) as { kind: string; stream: string; expected: number; actual: number; commandId: string; usedFor: string; message: string };
  if (r.kind === 'version') return new VersionConflictError(r.stream, r.expected, r.actual);
  if (r.kind === 'reused') {
    const error = new CommandIdReusedError(r.commandId, r.stream, r.usedFor);
    error.message = r.message;
    return error;
  }
  return r.kind === 'refused' ? new AppendRefusedError(r.message) : new Error(r.message);
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
 * Decides a batch's commands in order against the ledger standing at `head` with the streams at
 * `versions`, each against the ledger as the commands before it left it: a command id in
 * `recorded` (or recorded by an earlier command of the batch) answers the first result; any
 * other command is checked against its streams' versions and chained after the rows before it.
 */
function decide<E extends AnyEvent>(
  batch: readonly Pick<Command<E>, 'batches' | 'commandId' | 'request'>[],
  start: ChainHead,
  versions: ReadonlyMap<string, number>,
  lookedUp: Recorded | null,
  toRecorded: (row: ChainedRow) => RecordedEvent<E>,
): Decided<E> {
  const deciding = decider(start, versions, lookedUp, toRecorded);
  for (const command of batch) deciding.add(command);
  return deciding.decided;
}

/** `decide`, a command at a time: each added is decided against the ledger as those before it left it. */
interface Decider<E extends AnyEvent> {
  add(command: Pick<Command<E>, 'batches' | 'commandId' | 'request'>): void;
  readonly decided: Decided<E>;
}

function decider<E extends AnyEvent>(
  start: ChainHead,
  versions: ReadonlyMap<string, number>,
  lookedUp: Recorded | null,
  toRecorded: (row: ChainedRow) => RecordedEvent<E>,
): Decider<E> {
  const recorded: Recorded = new Map(lookedUp ?? []);
  const decided: Decided<E> = { answers: [], rows: [], head: start, moved: new Map(), unsure: false };
  const { answers, rows, moved } = decided;
  return {
    decided,
    add({ batches, commandId, request }) {
      const earlier = commandId === null ? undefined : recorded.get(commandId);
      try {
        if (commandId !== null && earlier) {
          const mine = repeatedCommand(commandId, batches, request, earlier.first, earlier.rows);
          answers.push({ ok: true, value: { written: mine.map((r) => ({ rows: r, recorded: r.map(toRecorded) })), duplicate: true } });
          return;
        }
        const chained = chainAppend<E>(decided.head, batches, (stream) => moved.get(stream) ?? versions.get(stream) ?? 0, commandId);
        const mine = chained.written.flatMap((w) => w.rows);
        decided.head = chained.head;
        for (const row of mine) moved.set(row.stream, row.version);
        rows.push(...mine);
        // A later command of this batch with the same id is a repeat of this one.
        if (commandId !== null && mine.length > 0) recorded.set(commandId, { first: mine[0]!, rows: mine });
        answers.push({ ok: true, value: { written: chained.written, duplicate: false } });
      } catch (error) {
        // Refused before its id was looked up: had it been recorded, the answer is the first result.
        if (commandId !== null && !earlier && lookedUp === null) decided.unsure = true;
        answers.push({ ok: false, error });
      }
    },
  };
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
  const rows = Array.from({ length: count }, (_, r) => `(${COLUMN_TYPES.map((type, i) => `$${first + r * COLUMN_TYPES.length + i}::${type}`).join(', ')})`);
  return `(VALUES ${rows.join(',\n  ')})`;
}

// Each shape's statement text, written once (the server parses it once on each connection).
const oneTripTexts = new Map<string, string>();

/**
 * The whole transaction as one statement, for a process that knows where the ledger stands: it
 * moves the head only from where this process left it and while no command waits in the intake
 * (waiting for the row's lock, and checking the head again once it has it), so nothing else was
 * written since and the stream versions it knew then still hold; the rows go in only if the head
 * moved; the new head is announced; and the statement commits on its own, with
 * `synchronous_commit` on. It answers one row when it wrote, none when it did not (then it wrote
 * nothing). Prepared once on each connection for each number of rows up to ROWS_AS_PARAMETERS and
 * once for any more, so the server parses and plans each shape once.
 */
function oneTripQuery(known: ChainHead, rows: readonly ChainedRow[], head: ChainHead, channel: string): pg.QueryConfig {
  const asParameters = rows.length <= ROWS_AS_PARAMETERS;
  const values = asParameters ? rows.flatMap((row) => COLUMNS.map((c) => row[c])) : COLUMNS.map((c) => rows.map((row) => row[c]));
  const name = `spades_ledger_one_trip_${asParameters ? rows.length : 'arrays'}`;
  let text = oneTripTexts.get(name);
  if (text === undefined) {
    text = `WITH moved AS (
  UPDATE ledger_head SET position = $1, hash = $2 WHERE id AND position = $3 AND hash = $4
    AND NOT EXISTS (SELECT 1 FROM ledger_intake)
  RETURNING position, set_config('synchronous_commit', 'on', true) AS synchronous_commit
), inserted AS (
  INSERT INTO events (${COLUMN_LIST})
  SELECT * FROM ${rowsSource(rows.length, 6)} AS row (${COLUMN_LIST})
  WHERE EXISTS (SELECT 1 FROM moved)
  RETURNING position
)
SELECT pg_notify($5, moved.position::text) AS notified, (SELECT count(*) FROM inserted) AS inserted FROM moved`;
    oneTripTexts.set(name, text);
  }
  return { name, text, values: [head.position, head.hash, known.position, known.hash, channel, ...values] };
}

// Commands of the intake one transaction takes at most; the rest wait for the next.
const INTAKE_BATCH = 2000;
// Answers left for a process that never came back for them (it was killed) are cleared after this.
const OUTCOME_KEPT = "interval '1 hour'";

/**
 * The first message of the long way: open the transaction, lock the head (or, with `skipLocked`,
 * only if no one holds it), and with the head held read the commands waiting in the intake (at
 * most `intakeLimit`), the answers left for this committer's commands `mine`, and the versions and
 * command ids of every stream and command of the batch and the intake. With `orLeave`, if another
 * holds the head, those commands go into the intake instead (its last statement answers their ids).
 */
function lockMessage(
  streams: Set<string>,
  commandIds: Set<string>,
  mine: readonly number[] | string,
  skipLocked: boolean,
  intakeLimit: number,
  orLeave: readonly Command<AnyEvent>[] | null,
): string {
  const statements = [
    'BEGIN',
    // set_config(…, true) is SET LOCAL: the commit waits for its log to reach the disk whatever
    // the connection, role or database says.
    "SELECT set_config('synchronous_commit', 'on', true) AS synchronous_commit",
    `SELECT position, hash FROM ledger_head WHERE id FOR UPDATE${skipLocked ? ' SKIP LOCKED' : ''}`,
    // This transaction holds the head by now or not at all; locked again, it answers only to its
    // holder, who takes the chaining lock that processes waiting for its commit wait on.
    `WITH held AS (SELECT 1 FROM ledger_head WHERE id FOR UPDATE SKIP LOCKED) SELECT pg_advisory_xact_lock(${CHAINING_LOCK}) FROM held`,
    `WITH held AS (SELECT 1 FROM ledger_head WHERE id FOR UPDATE SKIP LOCKED)
     SELECT id, command_id, command FROM ledger_intake WHERE EXISTS (SELECT 1 FROM held) ORDER BY id LIMIT ${literal(intakeLimit)}`,
    // Read after the intake, so they cover every command it answered with, and then some.
    `SELECT stream, max(version) AS version FROM events
     WHERE stream = ANY(${textArray(streams)} || ARRAY(SELECT unnest(streams) FROM ledger_intake)) GROUP BY stream`,
    `SELECT ${COLUMN_LIST} FROM events
     WHERE command_id = ANY(${textArray(commandIds)} || ARRAY(SELECT command_id FROM ledger_intake WHERE command_id IS NOT NULL))`,
  ];
  if (mine.length > 0) statements.push(outcomesQuery(mine));
  if (orLeave) {
    const values = orLeave.map((c) => `(${textArray(c.batches.map((b) => b.stream))}, ${literal(c.commandId)}, ${literal(intakeText(c))})`);
    statements.push(`WITH held AS (SELECT 1 FROM ledger_head WHERE id FOR UPDATE SKIP LOCKED)
      INSERT INTO ledger_intake (streams, command_id, command)
      SELECT * FROM (VALUES ${values.join(',\n')}) AS command (streams, command_id, command) WHERE NOT EXISTS (SELECT 1 FROM held)
      RETURNING id`);
  }
  return statements.join(';\n');
}

/** The answers left for the intake rows `mine` (ids, or a query answering them), each with the rows it names. */
function outcomesQuery(mine: readonly number[] | string): string {
  return `SELECT o.id, o.duplicate, o.refusal, ${COLUMNS.map((c) => `e.${c}`).join(', ')}
    FROM ledger_outcomes o LEFT JOIN events e ON e.position BETWEEN o.first_position AND o.last_position
    WHERE o.id IN (${typeof mine === 'string' ? mine : list(mine)}) ORDER BY o.id, e.position`;
}

type Outcome = { duplicate: boolean; refusal: string | null; rows: ChainedRow[] };

/** The answers read by `outcomesQuery`, by intake row. */
function outcomesOf(result: pg.QueryResult): Map<number, Outcome> {
  const outcomes = new Map<number, Outcome>();
  for (const row of result.rows as (ChainedRow & { id: string; duplicate: boolean; refusal: string | null })[]) {
    const id = Number(row.id);
    let outcome = outcomes.get(id);
    if (!outcome) outcomes.set(id, (outcome = { duplicate: row.duplicate, refusal: row.refusal, rows: [] }));
    if (row.position !== null) {
      const { position, stream, version, type, schema_version, payload, meta, command_id, prev_hash, hash } = row;
      outcome.rows.push({ position, stream, version, type, schema_version, payload, meta, command_id, prev_hash, hash });
    }
  }
  return outcomes;
}

// Held by the holder of the head from its first round trip to its commit, so that processes
// waiting for that commit wait on this lock, shared, and leave the head row free for the next
// holder to take without queueing (a lock on the row itself would make it look taken).
const CHAINING_LOCK = 0x5_ba_de_c;

/**
 * Waits for whoever holds the head to commit (sharing the chaining lock, which many waiters hold
 * at once), then reads the answers left for `mine`; it writes nothing, so it costs no flush.
 */
function awaitMessage(mine: readonly number[], first: 'rollback' | { commit: readonly number[] } | null): string {
  const before =
    first === null
      ? []
      : first === 'rollback'
        ? ['ROLLBACK']
        : [
            // The commands just left in the intake: committed without waiting for the disk, as the
            // commit that chains them will wait for it, and the answers taken cleared with them.
            "SELECT set_config('synchronous_commit', 'off', true)",
            ...(first.commit.length > 0 ? [`DELETE FROM ledger_outcomes WHERE id IN (${list(first.commit)})`] : []),
            'COMMIT',
          ];
  return [...before, 'BEGIN', `SELECT pg_advisory_xact_lock_shared(${CHAINING_LOCK})`, outcomesQuery(mine), 'ROLLBACK'].join(';\n');
}

/**
 * For a process whose commands have been going through the intake: leaves the batch there
 * straight away, committed without waiting for the disk (the commit that chains them will), with
 * the answers it took cleared; the lock message that follows then tries for the head. The second
 * statement answers the batch's ids; `LEFT` reads them back in later statements.
 */
function leaveStatements(commands: readonly Command<AnyEvent>[], taken: readonly number[]): string[] {
  const values = commands.map((c) => `(${textArray(c.batches.map((b) => b.stream))}, ${literal(c.commandId)}, ${literal(intakeText(c))})`);
  return [
    'BEGIN',
    `WITH left_ AS (INSERT INTO ledger_intake (streams, command_id, command) VALUES ${values.join(',\n')} RETURNING id)
     SELECT id, set_config('spades.left', (SELECT string_agg(id::text, ',') FROM left_), false) FROM left_`,
    "SELECT set_config('synchronous_commit', 'off', true)",
    ...(taken.length > 0 ? [`DELETE FROM ledger_outcomes WHERE id IN (${list(taken)})`] : []),
    'COMMIT',
  ];
}
const LEFT = "SELECT unnest(string_to_array(current_setting('spades.left'), ','))::bigint";

/**
 * Read again by the holder of the head before it decides, while other processes are writing:
 * the commands left in the intake since its first look (after row `after`), and the versions and
 * command ids they need. Those answered by the commit before come back with their next commands
 * in about a round trip; read now, they join this commit rather than wait for the next.
 */
function rereadMessage(after: number, limit: number): string {
  const since = `FROM ledger_intake WHERE id > ${literal(after)}`;
  return [
    `SELECT id, command_id, command ${since} ORDER BY id LIMIT ${literal(limit)}`,
    `SELECT stream, max(version) AS version FROM events WHERE stream = ANY(ARRAY(SELECT unnest(streams) ${since})) GROUP BY stream`,
    `SELECT ${COLUMN_LIST} FROM events WHERE command_id = ANY(ARRAY(SELECT command_id ${since} AND command_id IS NOT NULL))`,
  ].join(';\n');
}

// Looks again at the intake at most this many times before deciding, while others are writing.
const REREADS = 2;

// Times a command left in the intake waits for a holder's commit and tries for the head itself,
// before it queues for the head: a try fails while another waiter holds its shared lock.
const AWAIT_TRIES = 4;

interface Closing {
  rows: readonly ChainedRow[];
  head: ChainHead | null;
  /** Intake rows chained or refused by this transaction. */
  cleared: readonly number[];
  /** Answers for other processes: an intake row and its outcome. */
  outcomes: readonly { id: number; answer: Answer<AnyEvent> }[];
  /** Answers for this committer, read and done with. */
  taken: readonly number[];
}

/** The second message: the rows, the intake cleared, the answers left, the head moved and announced, the commit. */
function commitMessage(closing: Closing, channel: string): string {
  const statements: string[] = [];
  const { rows, head, cleared, outcomes, taken } = closing;
  // Only answers taken and nothing chained or decided: nothing anyone waits on needs the disk.
  if (rows.length === 0 && cleared.length === 0) statements.push("SELECT set_config('synchronous_commit', 'off', true)");
  for (let i = 0; i < rows.length; i += INSERT_CHUNK) {
    const values = rows.slice(i, i + INSERT_CHUNK).map((row) => `(${COLUMNS.map((c) => literal(row[c])).join(', ')})`);
    statements.push(`INSERT INTO events (${COLUMN_LIST}) VALUES ${values.join(',\n')}`);
  }
  if (cleared.length > 0) statements.push(`DELETE FROM ledger_intake WHERE id IN (${list(cleared)})`);
  if (outcomes.length > 0) {
    const values = outcomes.map(({ id, answer }) => {
      if (!answer.ok) return `(${literal(id)}, false, 0, -1, ${literal(refusalText(answer.error))})`;
      const positions = answer.value.written.flatMap((w) => w.rows.map((r) => r.position));
      const first = positions.length > 0 ? Math.min(...positions) : 0;
      const last = positions.length > 0 ? Math.max(...positions) : -1;
      return `(${literal(id)}, ${answer.value.duplicate}, ${literal(first)}, ${literal(last)}, NULL)`;
    });
    statements.push(`INSERT INTO ledger_outcomes (id, duplicate, first_position, last_position, refusal) VALUES ${values.join(', ')}`);
    statements.push(`DELETE FROM ledger_outcomes WHERE at < now() - ${OUTCOME_KEPT}`);
  }
  if (taken.length > 0) statements.push(`DELETE FROM ledger_outcomes WHERE id IN (${list(taken)})`);
  if (head && rows.length > 0) {
    // The announcement is queued now and sent only if, and when, the transaction commits.
    statements.push(`WITH moved AS (UPDATE ledger_head SET position = ${literal(head.position)}, hash = ${literal(head.hash)} WHERE id RETURNING position)
      SELECT pg_notify(${literal(channel)}, position::text) FROM moved`);
  }
  statements.push('COMMIT');
  return statements.join(';\n');
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
  const stats = noCommits();
  let running: Promise<void> | null = null;
  // The connection commits go over, held while commands keep coming.
  let client: pg.PoolClient | null = null;
  // Where this process left the ledger when it last held the head lock, and whether someone else
  // had written since the time before: a process writing alone commits in one round trip.
  let known: { head: ChainHead; versions: Map<string, number> } | null = null;
  let contended = true;
  // Whether this process's commands have lately been going through the intake, other processes
  // writing: then its next batch goes there straight away.
  let crowded = false;
  // Answers this committer read without the head, to be cleared by its next commit.
  let forget: number[] = [];
  // The commands queued while the committer waits to gather them (see `gather`), each decided as
  // it comes against where this process left the ledger, so the commit after the wait need not
  // chain them all then: the hashing is done while the others' appends are on their way.
  let ahead: { from: { head: ChainHead; versions: Map<string, number> }; deciding: Decider<E>; commands: PendingAppend<E>[] } | null = null;
  const decideAhead = (pending: PendingAppend<E>) => {
    if (!ahead) return;
    // Past one commit's worth, or a stream this process does not know: decided at the commit.
    if (ahead.commands.length >= maxBatch || !pending.batches.every((b) => ahead!.from.versions.has(b.stream))) {
      ahead = null;
      return;
    }
    ahead.deciding.add(pending);
    ahead.commands.push(pending);
  };

  /** A command of this committer, answered from the outcome another process left for it. */
  const answerFromOutcome = (command: Command<E>, outcome: { duplicate: boolean; refusal: string | null; rows: ChainedRow[] }) => {
    if (outcome.refusal !== null) {
      settle(command, { ok: false, error: refusalOf(outcome.refusal) });
      return;
    }
    const written = command.batches.map((b) => {
      const rows = outcome.rows.filter((r) => r.stream === b.stream);
      return { rows, recorded: rows.map(toRecorded) };
    });
    settle(command, { ok: true, value: { written, duplicate: outcome.duplicate } });
  };

  /**
   * Runs one transaction and answers each of its commands: this committer's `commands`, and with
   * the head held, the commands waiting in the intake (at most `intakeLimit`). Throws BatchRefused
   * when the database refused the commit for a reason of its commands' own (nothing was
   * recorded), so they can be tried again one at a time; answers every command with the fault
   * otherwise. With `alone`, commands that find the head held wait for it rather than go into the
   * intake. Answers how many commands of the intake it took.
   */
  const commit = async (commands: Command<E>[], intakeLimit = INTAKE_BATCH, alone = false, decidedAhead: Decided<E> | null = null): Promise<number> => {
    stats.transactions++;
    stats.appends += commands.length;
    stats.largest = Math.max(stats.largest, commands.length);
    let inTransaction = commands.length;
    let fromIntake = 0;
    let commitSent = false;
    let open = false;
    // Answered already, from the one-statement commit or from outcomes left by another process.
    let done = false;
    let mark = performance.now();
    const step = (name: keyof GroupCommitStats['steps']) => {
      const now = performance.now();
      stats.steps[name] += now - mark;
      mark = now;
    };
    try {
      client ??= await pool.connect();
      step('connect');
      const streams = new Set(commands.flatMap((c) => c.batches.map((b) => b.stream)));
      // Alone on the ledger since this process last wrote: decided from what it knows, checked by
      // the head, all in one statement. A refusal is only sure once the head is checked, and an
      // id only once looked up, so a batch with either goes the long way.
      if (known && !contended && commands.length > 0 && [...streams].every((s) => known!.versions.has(s))) {
        const guess = decidedAhead ?? decide(commands, known.head, known.versions, null, toRecorded);
        const fits = guess.rows.length > 0 && guess.rows.length <= ONE_TRIP_ROWS && !guess.unsure && guess.answers.every((a) => a.ok);
        step('decide');
        if (fits) {
          commitSent = true;
          try {
            const { rows } = await client.query(oneTripQuery(known.head, guess.rows, guess.head, channel));
            if (rows.length === 1) {
              for (const [stream, version] of guess.moved) known.versions.set(stream, version);
              known = { head: guess.head, versions: known.versions };
              stats.oneTrip++;
              step('write');
              commands.forEach((command, i) => settle(command, guess.answers[i]!));
              done = true;
            }
          } catch (error) {
            // No answer, or a fault: as for any commit. The server refusing (a command id already
            // recorded, say) wrote nothing: the long way from here.
            if (!(error instanceof pg.DatabaseError) || isFault(error)) throw error;
          }
          // Not written (the head had moved, or commands wait in the intake): the long way,
          // deciding again from the database.
          if (!done) {
            commitSent = false;
            contended = true;
          }
        }
      }
      // The long way: once with the head if it is free; otherwise the batch goes into the intake
      // and the second time waits for the head.
      // 'free': take the head if no one holds it, else leave the batch in the intake; 'await':
      // wait for the holder's commit and look for the answers; 'try': take the head if free
      // again, else wait for its new holder; 'block': queue for the head, after a few tries.
      let phase: 'free' | 'leave' | 'await' | 'try' | 'block' = alone ? 'block' : crowded && commands.length > 0 ? 'leave' : 'free';
      let tries = 0;
      let first: 'rollback' | { commit: readonly number[] } | null = null;
      while (!done) {
        let mine = commands.flatMap((c) => (c.intake === null || c.settled ? [] : [c.intake]));
        if (phase === 'leave') {
          // Into the intake, then for the head in the same message: the first process back
          // after a commit takes it and chains what the others leave meanwhile.
          phase = 'try';
          tries++;
        }
        if (phase === 'await') {
          // Left in the intake: most likely the holder of the head chains them in the commit it
          // is making, so wait for that commit and look, holding no lock of one's own.
          open = true;
          const results = (await client.query(awaitMessage(mine, first))) as unknown as pg.QueryResult[];
          open = false;
          const cleared = first !== null && first !== 'rollback' ? new Set(first.commit) : null;
          if (cleared) forget = forget.filter((id) => !cleared.has(id));
          first = null;
          const outcomes = outcomesOf(results.at(-2)!);
          for (const command of commands) {
            const outcome = command.intake === null || command.settled ? undefined : outcomes.get(command.intake);
            if (!outcome) continue;
            answerFromOutcome(command, outcome);
            forget.push(command.intake!);
          }
          if (commands.every((c) => c.settled)) {
            step('lock');
            done = true;
            continue;
          }
          phase = ++tries > AWAIT_TRIES ? 'block' : 'try';
          mine = commands.flatMap((c) => (c.intake === null || c.settled ? [] : [c.intake]));
        }
        let fresh = commands.filter((c) => c.intake === null);
        const commandIds = new Set(fresh.flatMap((c) => (c.commandId === null ? [] : [c.commandId])));
        open = true;
        const leave = phase === 'free' && commands.length > 0 ? (commands as Command<AnyEvent>[]) : null;
        const leaving = phase === 'try' && fresh.length > 0 ? leaveStatements(commands as Command<AnyEvent>[], forget) : [];
        const message = lockMessage(
          leaving.length > 0 ? new Set() : streams,
          commandIds,
          leaving.length > 0 ? LEFT : mine,
          phase !== 'block',
          intakeLimit,
          leave,
        );
        const all = (await client.query(leaving.length > 0 ? `${leaving.join(';\n')};\n${message}` : message)) as unknown as pg.QueryResult[];
        if (leaving.length > 0) {
          forget = [];
          const sorted = (all[1]!.rows as { id: string }[]).map((r) => Number(r.id)).sort((a, b) => a - b);
          commands.forEach((c, i) => (c.intake = sorted[i]!));
          stats.queued += commands.length;
          mine = [...sorted];
          fresh = [];
        }
        const results = all.slice(leaving.length);
        const heads = results[2]!.rows as ChainHead[];
        if (heads.length === 0) {
          if (phase === 'block') throw new Error('the ledger_head row is missing, so no append can take its place in the chain');
          if (commands.length === 0 || phase === 'try') {
            // Nothing of this committer's to leave, or its commands wait in the intake already:
            // another process holds the head, so wait for its commit.
            first = 'rollback';
            phase = 'await';
            if (commands.length === 0) {
              await client.query('ROLLBACK');
              open = false;
              done = true;
            }
            continue;
          }
          // Another process holds the head: the batch went into the intake for it, to be
          // committed with the next message, which then waits for the holder's commit.
          const ids = results.at(-1)!.rows as { id: string }[];
          if (ids.length === 0) {
            // The head came free between the statements, and the insert's own try took it:
            // nothing was read under it, so start again.
            await client.query('ROLLBACK');
            open = false;
            continue;
          }
          first = { commit: forget };
          // Ids are handed out in the order the rows were inserted.
          const sorted = ids.map((r) => Number(r.id)).sort((a, b) => a - b);
          commands.forEach((c, i) => (c.intake = sorted[i]!));
          stats.queued += commands.length;
          contended = true;
          crowded = true;
          phase = 'await';
          continue;
        }
        const locked: ChainHead = { position: heads[0]!.position, hash: heads[0]!.hash };
        // What this process knew still holds if no one wrote since; what it read holds now.
        const unmoved = known !== null && known.head.position === locked.position && known.head.hash === locked.hash;
        contended = !unmoved;
        const ownIntake = new Map(commands.flatMap((c) => (c.intake === null ? [] : [[c.intake, c] as const])));
        type IntakeRow = { id: string; command_id: string | null; command: string };
        const fromRows = (rows: IntakeRow[]) => rows.map((row) => ownIntake.get(Number(row.id)) ?? intakeCommand<E>({ ...row, id: Number(row.id) }));
        const waiting = fromRows(results[4]!.rows as IntakeRow[]);
        const versionRows = [...(results[5]!.rows as { stream: string; version: number }[])];
        const firsts = [...(results[6]!.rows as ChainedRow[])];
        // Others writing: look again for what they send in answer to the commit before.
        crowded = waiting.some((c) => c.local === null);
        for (let i = 0; (crowded || phase !== 'free') && i < REREADS && waiting.length < intakeLimit; i++) {
          const after = waiting.reduce((top, c) => Math.max(top, c.intake!), 0);
          const again = (await client.query(rereadMessage(after, intakeLimit - waiting.length))) as unknown as pg.QueryResult[];
          if (again[0]!.rows.length === 0) break;
          waiting.push(...fromRows(again[0]!.rows as IntakeRow[]));
          versionRows.push(...(again[1]!.rows as { stream: string; version: number }[]));
          firsts.push(...(again[2]!.rows as ChainedRow[]));
        }
        if (waiting.some((c) => c.local === null)) contended = true;
        // This committer's commands another process chained (or refused) already.
        const taken: number[] = [];
        if (mine.length > 0) {
          const outcomes = outcomesOf(results[7]!);
          const queuedNow = new Set(waiting.map((c) => c.intake));
          for (const command of commands) {
            if (command.intake === null || command.settled) continue;
            const outcome = outcomes.get(command.intake);
            if (outcome) {
              answerFromOutcome(command, outcome);
              taken.push(command.intake!);
            } else if (!queuedNow.has(command.intake) && !command.settled && command.intake !== null) {
              // Neither chained nor waiting: only possible if the intake was cleared by hand.
              settle(command, {
                ok: false,
                error: new Error(
                  "an append left for the ledger's writer was neither recorded nor refused, and is no longer waiting; send it again with the same command id",
                ),
              });
            }
          }
        }
        const deciding = [...waiting, ...fresh];
        inTransaction = deciding.length;
        fromIntake = waiting.length;
        const versions = unmoved && known!.versions.size < KNOWN_STREAMS ? known!.versions : new Map<string, number>();
        for (const command of deciding) for (const b of command.batches) versions.set(b.stream, 0);
        for (const { stream, version } of versionRows) versions.set(stream, Number(version));
        known = null;
        const lookedUp: Recorded = new Map();
        if (firsts.length > 0) {
          const ranges = firsts.map((f) => `position BETWEEN ${literal(f.position)} AND ${literal(f.position + commandEventCount(f) - 1)}`);
          const { rows } = await client.query<ChainedRow>(`SELECT ${COLUMN_LIST} FROM events WHERE ${ranges.join(' OR ')} ORDER BY position`);
          for (const first of firsts) {
            const last = first.position + commandEventCount(first) - 1;
            lookedUp.set(first.command_id!, { first, rows: rows.filter((r) => r.position >= first.position && r.position <= last) });
          }
        }
        step('lock');
        const decided = decide(deciding, locked, versions, lookedUp, toRecorded);
        step('decide');
        const closing: Closing = {
          rows: decided.rows,
          head: decided.head,
          cleared: waiting.map((c) => c.intake!),
          outcomes: waiting.flatMap((c, i) => (c.local === null ? [{ id: c.intake!, answer: decided.answers[i]! as Answer<AnyEvent> }] : [])),
          taken: [...forget, ...taken],
        };
        if (decided.rows.length > 0 || closing.cleared.length > 0 || closing.taken.length > 0) {
          if (decided.rows.length > 0 || closing.cleared.length > 0) commitSent = true;
          await client.query(commitMessage(closing, channel));
          forget = [];
        } else {
          // Nothing to record: the lock is let go without a flush.
          await client.query('ROLLBACK');
        }
        step('write');
        open = false;
        stats.forOthers += closing.outcomes.length;
        // What the long way read, or what this process knew, moved on by what the batch wrote.
        for (const [stream, version] of decided.moved) versions.set(stream, version);
        known = { head: decided.head, versions };
        deciding.forEach((command, i) => settle(command, decided.answers[i]!));
        done = true;
      }
    } catch (error) {
      known = null;
      contended = true;
      if (client) {
        // Rolling back ends what the failure left open; on a connection that is gone it fails,
        // and the connection is dropped.
        const back = client;
        client = null;
        if (open) {
          await back.query('ROLLBACK').then(
            () => back.release(),
            (lost: Error) => back.release(lost),
          );
        } else {
          back.release();
        }
      }
      // Left in the intake, the commands are decided by whoever holds the head next: their
      // outcome is not known here.
      const queued = commands.some((c) => c.intake !== null && !c.settled);
      // An answer to the commit, even an error, means it did not commit. Whatever the database
      // refused for its commands' own reasons is tried again command by command; a fault answers all.
      if (!isFault(error) && (queued || inTransaction > 1)) throw new BatchRefused(error);
      const answer = failure(error, commitSent, queued);
      for (const command of commands) settle(command, { ok: false, error: answer });
    }
    return fromIntake;
  };

  /**
   * After the database refused a whole transaction for a reason of one of its commands: the
   * intake's commands chained one a transaction until it is empty, each refused alone if the
   * database refuses it (this committer's among them, answered as they are decided), then this
   * committer's others, one a transaction.
   */
  const oneByOne = async (commands: Command<E>[]): Promise<void> => {
    for (let more = true; more; ) {
      const queued = commands.filter((c) => c.intake !== null && !c.settled);
      try {
        more = (await commit(queued, 1, true)) > 0;
      } catch (error) {
        if (!(error instanceof BatchRefused)) throw error;
        more = await refuseFirstWaiting(error.refusal);
      }
    }
    for (const command of commands) {
      if (command.settled) continue;
      try {
        await commit([command], 0, true);
      } catch (alone) {
        settle(command, { ok: false, error: alone instanceof BatchRefused ? failure(alone.refusal, false, false) : alone });
      }
    }
  };

  /** Refuses the first command waiting in the intake with the database's refusal of it; false when none waits. */
  const refuseFirstWaiting = async (refusal: unknown): Promise<boolean> => {
    client ??= await pool.connect();
    try {
      const results = (await client.query(`BEGIN;
        SELECT position FROM ledger_head WHERE id FOR UPDATE;
        WITH first AS (DELETE FROM ledger_intake WHERE id = (SELECT min(id) FROM ledger_intake) RETURNING id)
        INSERT INTO ledger_outcomes (id, duplicate, first_position, last_position, refusal)
          SELECT id, false, 0, -1, ${literal(refusalText(refusal))} FROM first;
        COMMIT`)) as unknown as pg.QueryResult[];
      return (results[2]!.rowCount ?? 0) > 0;
    } catch (error) {
      // Whatever it left open goes with the connection: no lock of the head outlives the failure.
      const back = client;
      client = null;
      back.release(error as Error);
      throw error;
    }
  };

  let lastCommitMs = 0;
  const drain = async (): Promise<void> => {
    for (;;) {
      // Whatever was sent while the last commit was in flight, and in this turn of the event loop.
      await new Promise((resolve) => setImmediate(resolve));
      if (queue.length === 0 && forget.length > 0 && client) {
        // Answers read without the head: cleared before going idle, with no flush to wait for.
        const taken = forget;
        forget = [];
        await client
          .query(`BEGIN; SELECT set_config('synchronous_commit', 'off', true); DELETE FROM ledger_outcomes WHERE id IN (${list(taken)}); COMMIT`)
          .catch((error: Error) => {
            // Left for the hourly clearing; the connection goes, with whatever the failure left open.
            client?.release(error);
            client = null;
          });
        continue;
      }
      if (queue.length === 0) {
        // In the same turn as the check, so a command queued from here on starts a new drain.
        running = null;
        client?.release();
        client = null;
        return;
      }
      let decided: Decided<E> | null = null;
      if (options.gather) {
        if (known && !contended) {
          ahead = { from: known, deciding: decider(known.head, known.versions, null, toRecorded), commands: [] };
          for (const pending of queue) decideAhead(pending);
        }
        await options.gather(lastCommitMs);
        // Good for this commit only if it takes exactly the commands decided, from where they were decided.
        const took = ahead;
        ahead = null;
        if (took && took.from === known && took.commands.length === Math.min(queue.length, maxBatch) && took.commands.every((c, i) => c === queue[i])) {
          decided = took.deciding.decided;
          stats.decidedAhead += took.commands.length;
        }
      }
      const commands = queue.splice(0, maxBatch).map(localCommand);
      const began = performance.now();
      try {
        await commit(commands, INTAKE_BATCH, false, decided);
        lastCommitMs = performance.now() - began;
      } catch (error) {
        if (!(error instanceof BatchRefused)) {
          for (const command of commands) settle(command, { ok: false, error });
          continue;
        }
        // One command made the database refuse the whole transaction: each alone, in the same
        // order, so only that one is refused.
        try {
          await oneByOne(commands);
        } catch (fault) {
          const queued = commands.some((c) => c.intake !== null && !c.settled);
          for (const command of commands) settle(command, { ok: false, error: failure(fault, false, queued) });
        }
      }
    }
  };

  return {
    submit(batches, commandId, request) {
      return new Promise((resolve, reject) => {
        const pending: PendingAppend<E> = { batches, commandId, request, resolve, reject };
        queue.push(pending);
        decideAhead(pending);
        running ??= drain();
      });
    },
    stats: () => ({ ...stats, steps: { ...stats.steps } }),
    async idle() {
      while (running) await running;
    },
  };
}

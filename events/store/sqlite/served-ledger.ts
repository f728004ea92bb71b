/**
 * The SQLite file's ledger behind the server's one asynchronous interface (../served-ledger.ts),
 * with group commit: commands decide from the read models one after another as they arrive, and
 * their appends wait for the end of the event loop's turn, then go to the file together, in one
 * transaction and one flush to the disk. Each is still checked against the stream versions it was
 * decided from, in arrival order, and answered on its own (a conflict refuses that command alone).
 * While the file is flushing one group the process does nothing else, so the requests that arrive
 * meanwhile are read in the next turn and make up the next group: the busier the server, the more
 * appends a flush carries.
 *
 * A command whose streams have an append of this process waiting for its commit waits for that
 * commit and decides again from the models with it folded, as it would have had it come later:
 * an entry at a table is never refused for following another entry at the same table. One that
 * loses its race to another process writing to the same file is decided again the same way
 * (../served-ledger.ts, decideAgain).
 *
 * One adapter per open ledger: everything in the process that appends (the routes, the table
 * drivers, sign-in) shares its groups, whichever way it was handed the ledger.
 */
import type { AppendResult } from '../append.ts';
import type { ChangeListener, CommitStats, Decision, Decisions, ExecuteOptions, LedgerHealth, ServedLedger } from '../served-ledger.ts';
import { type StorageVerdict, appendDecidingAgain, appendOptionsOf, decisionAppends } from '../served-ledger.ts';
import { type GroupOutcome, type GroupedAppend, storageFaultOf } from './event-store.ts';
import type { Ledger } from './ledger.ts';

export interface SqliteServedLedger extends ServedLedger {
  readonly backend: 'sqlite';
  /** The file's ledger underneath, for what only a file has (its path, the reader thread's own connection). */
  readonly ledger: Ledger;
}

const adapters = new WeakMap<Ledger, SqliteServedLedger>();

// The end of the event loop's turn, as the process had it when this module loaded (a test's
// pretend clock replaces the global one, and appends must still commit under it).
const afterThisTurn = globalThis.setImmediate;

/** The server's ledger over an open file: the same adapter every time for the same ledger. */
export function servedLedger(ledger: Ledger): SqliteServedLedger {
  let served = adapters.get(ledger);
  if (!served) {
    served = createServedLedger(ledger);
    adapters.set(ledger, served);
  }
  return served;
}

/** The served ledger, given either it or an open file's ledger (as the command line and tests hold them). */
export function asServed<L extends ServedLedger>(ledger: Ledger | L): L | SqliteServedLedger {
  return 'database' in ledger ? servedLedger(ledger) : ledger;
}

interface Waiting {
  command: GroupedAppend;
  resolve: (results: AppendResult[]) => void;
  reject: (error: unknown) => void;
}

interface Group {
  waiting: Waiting[];
  streams: Set<string>;
  /** Settles once every command of the group is answered and the models hold what it recorded. */
  done: Promise<void>;
  finish: () => void;
}

function newGroup(): Group {
  let finish!: () => void;
  const done = new Promise<void>((resolve) => {
    finish = resolve;
  });
  return { waiting: [], streams: new Set(), done, finish };
}

function createServedLedger(ledger: Ledger): SqliteServedLedger {
  // The group taking appends now; null until the first append of the turn.
  let open: Group | null = null;
  const stats: CommitStats = { transactions: 0, appends: 0, largest: 0, decidedAgain: 0, mostTries: 0 };

  const commit = () => {
    const group = open;
    open = null;
    if (!group) return;
    let outcomes: GroupOutcome[] | null = null;
    let failure: unknown = null;
    try {
      // Every caller reads its own write when answered (and one refused for a stale decision
      // finds the models moved on): the ledger folds what was recorded before this returns.
      outcomes = ledger.commitGroup(group.waiting.map((w) => w.command));
      stats.transactions++;
      stats.appends += group.waiting.length;
      stats.largest = Math.max(stats.largest, group.waiting.length);
    } catch (error) {
      failure = error;
    }
    group.waiting.forEach((w, i) => {
      const outcome = outcomes?.[i];
      if (failure !== null || !outcome) w.reject(failure);
      else if ('error' in outcome) w.reject(outcome.error);
      else w.resolve(outcome.results);
    });
    group.finish();
  };

  // Whether the file can still be read (its head) and written (not opened read-only, not made
  // so): asked afresh each time, as it costs a read of one row. A write the disk refuses shows in
  // the ledger's own health once an append meets it.
  const askFile = (): StorageVerdict => {
    try {
      ledger.store.head();
    } catch (error) {
      return { writable: false, reason: `the ledger file cannot be read: ${storageFaultOf(error)?.reason ?? (error as Error).message}` };
    }
    const { sqlite } = ledger.database;
    if (sqlite.readonly || sqlite.pragma('query_only', { simple: true })) return { writable: false, reason: 'the ledger file is read-only' };
    return { writable: true };
  };

  // The group a stream has an append waiting in, if any.
  const groupOf = (stream: string): Group | null => (open?.streams.has(stream) ? open : null);

  // One try at a command: decided in this turn, or after the commit of an append of this
  // process it follows on one of its streams.
  const appendOnce = async (decisions: Decisions, options: ExecuteOptions): Promise<AppendResult[]> => {
    for (;;) {
      // Decided from the models brought up to what the file holds now.
      if (typeof decisions === 'function') ledger.sync();
      const decided = typeof decisions === 'function' ? decisions(ledger.models) : decisions;
      const list: Decision[] = Array.isArray(decided) ? decided : [decided];
      if (list.length === 0) return [];
      const waitingFor = list.map((d) => groupOf(d.stream)).find((g) => g !== null);
      if (waitingFor) {
        await waitingFor.done;
        continue;
      }
      const group = (open ??= newGroup());
      if (group.waiting.length === 0) afterThisTurn(commit);
      for (const { stream } of list) group.streams.add(stream);
      return new Promise<AppendResult[]>((resolve, reject) => {
        group.waiting.push({ command: { appends: decisionAppends(list, ledger.models), options: appendOptionsOf(options) }, resolve, reject });
      });
    }
  };

  const served: SqliteServedLedger = {
    backend: 'sqlite',
    ledger,
    models: ledger.models,
    append: appendDecidingAgain(appendOnce, stats),
    read: async (options) => ledger.store.readAll(options),
    readStream: async (stream, options) => ledger.store.readStream(stream, options),
    head: async () => ledger.store.head(),
    sync: async () => ledger.sync(),
    syncTo: async (position) => ledger.syncTo(position),
    follow: (intervalMs) => ledger.follow(intervalMs),
    verify: async (options) => ledger.store.verifyChain(options),
    snapshot: async () => ledger.snapshot(),
    findCommand: async (commandId) => ledger.findCommand(commandId),
    health: (): LedgerHealth => ledger.health(),
    async checkHealth(): Promise<LedgerHealth> {
      const verdict = askFile();
      return verdict.writable ? ledger.health() : { writable: false, reason: verdict.reason, position: ledger.models.position };
    },
    onChange: (listener: ChangeListener) => ledger.onChange(listener),
    commitStats: () => ({ ...stats }),
    async close() {
      // Appends already taken are committed and answered before the file closes.
      commit();
      ledger.close();
    },
  };
  return served;
}

/**
 * The ledger as a server process uses it, on either store: one asynchronous interface, so the
 * routes, the live streams, the table drivers and sign-in are written once. Each store has its
 * adapter: the SQLite file's (sqlite/served-ledger.ts) and PostgreSQL's (postgres/served-ledger.ts).
 * Both fold every event any process appends into the same read models, check each decision against
 * the stream versions it was made from, and commit appends that arrive together in one transaction
 * (group commit), each still answered on its own.
 */
import { createHash } from 'node:crypto';
import type { AnyEvent } from '../event-registry.ts';
import type { ChainHead, ChainReport } from '../hash-chain.ts';
import { type Change, type ProjectedEvent, type ReadModels, applyEvent } from '../projections.ts';
import { type AppendOptions, type AppendResult, type RecordedEvent, type StreamAppend, VersionConflictError } from './append.ts';

/** Events to append to one stream, as commands decide them. */
export interface Decision {
  stream: string;
  events: { type: string; payload: Record<string, unknown> }[];
}

export type ChangeListener = (change: Change, events: RecordedEvent[]) => void;

/** Decisions, or a command that decides them from the models brought up to the ledger's head. */
export type Decisions = Decision | Decision[] | ((models: ReadModels) => Decision | Decision[]);

export interface ExecuteOptions {
  commandId?: string;
  /** A digest of the request behind the command id: a repeat answers only for the same request. */
  request?: string;
  meta?: Record<string, unknown>;
}

/** Whether the ledger can take writes, and why not. */
export interface LedgerHealth {
  writable: boolean;
  /** Why writes are refused, when they are. */
  reason?: string;
  /** The position the read models stand at. */
  position: number;
}

/** The first event recorded under a command id: its stream and the request digest it carried. */
export type CommandFound = { position: number; stream: string; request: string | null } | null;

/**
 * How this process's appends were committed: transactions, the appends they carried, the most in
 * one; and the races lost: how many times a command was decided again, and the most tries one took.
 */
export interface CommitStats {
  transactions: number;
  appends: number;
  largest: number;
  decidedAgain: number;
  mostTries: number;
}

/** The ledger as a server process uses it; see the module comment. */
export interface ServedLedger {
  readonly backend: 'sqlite' | 'postgres';
  /** Read models folded up to the last position this process has read. */
  readonly models: ReadModels;
  /**
   * Appends the decisions' events, each stream expecting the version the models hold for it: a
   * decision made from a view of a stream that has since moved on is never recorded on top.
   * Given a function, first folds whatever any writer has appended and then decides; should
   * another writer record on one of its streams first, it folds that and decides again
   * (decideAgain), so a lost race ends in the answer the command gets on the ledger as it now
   * stands. Given decisions already made, a stream that moved on refuses them with a
   * VersionConflictError. Appends arriving while a commit is in flight share the next one; the
   * answer comes once the commit is durable and its events are folded.
   */
  append(decisions: Decisions, options?: ExecuteOptions): Promise<AppendResult[]>;
  /** Events after position `after` (default 0) in position order, at most `limit`. */
  read(options?: { after?: number; limit?: number }): Promise<RecordedEvent[]>;
  /** A stream's events in version order, after version `after` (default 0). */
  readStream(stream: string, options?: { after?: number }): Promise<RecordedEvent[]>;
  head(): Promise<ChainHead>;
  /** Folds what any writer appended since the models' position; says how many events it folded. */
  sync(): Promise<number>;
  /** Folds at least up to `position` (or the head, if that is further than it stands). */
  syncTo(position: number): Promise<void>;
  /** Folds what others append every `intervalMs` until the returned function is called. */
  follow(intervalMs?: number): () => void;
  /** Walks the chain (or up to `upTo`): every hash, link, position and stream version. */
  verify(options?: { upTo?: number }): Promise<ChainReport>;
  /** Stores the read models with the position and hash they stand at, so a restart folds only what came after. */
  snapshot(): Promise<void>;
  findCommand(commandId: string): Promise<CommandFound>;
  /** Whether writes are refused, as the last append and fold found. */
  health(): LedgerHealth;
  /**
   * Whether the ledger can be read and written, asking the storage itself (see healthChecks):
   * what `/healthz` answers, so a balancer stops sending the room to a process that cannot serve it.
   */
  checkHealth(): Promise<LedgerHealth>;
  /** Hears what each committed event changed in the read models. */
  onChange(listener: ChangeListener): () => void;
  commitStats(): CommitStats;
  close(): Promise<void>;
}

/**
 * What a server is handed to serve: the served ledger, or a store's own handle on an open ledger
 * that knows the adapter serving it (an open file's `Ledger`, as the command line and the tests
 * hold one). Whoever serves it needs to know no store.
 */
export type LedgerHandle = ServedLedger | { readonly served: ServedLedger };

/** The served ledger behind a handle: the same adapter every time for the same open ledger. */
export function servedOf(handle: LedgerHandle): ServedLedger {
  return 'served' in handle ? handle.served : handle;
}

// Bumped whenever the shape of the read models changes, so an old snapshot is folded again
// from the ledger rather than trusted.
export const MODELS_VERSION = 'models-14';

/** The digest a stored snapshot carries of its own bytes (its UTF-8 text). */
export function snapshotDigest(state: string | Uint8Array): string {
  return createHash('sha256')
    .update(typeof state === 'string' ? snapshotBytes(state) : state)
    .digest('hex');
}

// A stored snapshot read back as text (some MB) is hashed from its UTF-8 bytes, encoded into one
// buffer kept for the purpose: the engine's encoder is fast, while a fresh buffer of that size,
// and the hash's own encoding of a text holding any character past Latin-1 (a curly quote in a
// team's name), each cost many times more. A text too large to keep a buffer for is encoded into
// one of its own. Snapshots written from the models are encoded by modelsBytes.
const KEPT_ENCODING_BYTES = 64 * 2 ** 20;
let encoded = new Uint8Array(0);
const encoder = new TextEncoder();

/**
 * A snapshot's text as UTF-8 bytes. The bytes may live in a buffer the next call writes over:
 * use them (hash them) before encoding another.
 */
function snapshotBytes(state: string): Buffer {
  // Mostly ASCII: room for the text plus a little; a text that does not fit is encoded again with room for the worst case.
  let room = Math.ceil(state.length * 1.1) + 1024;
  for (;;) {
    const into = room <= encoded.length ? encoded : new Uint8Array(room);
    if (into !== encoded && room <= KEPT_ENCODING_BYTES) encoded = into;
    const { read, written } = encoder.encodeInto(state, into);
    if (read === state.length) return Buffer.from(into.buffer, into.byteOffset, written);
    room = state.length * 3;
  }
}

// The models' text as one buffer is built piece by piece: each game, and each tournament, is
// written as its own JSON text. The engine makes a long text out of pieces and must copy them
// into one string before it can be encoded; for some MB that copy into fresh memory cost more
// than writing the text, and one character past Latin-1 anywhere (an en dash in a result)
// doubled it. Small texts are copied in memory already at hand.
let modelsBuffer = Buffer.alloc(0);

/**
 * The models' JSON text (exactly JSON.stringify's) as UTF-8 bytes. The bytes may live in a buffer
 * the next call writes over: use them (hash them, hand them to the store) before encoding again.
 */
export function modelsBytes(models: ReadModels): Buffer {
  if (modelsBuffer.length > KEPT_ENCODING_BYTES) modelsBuffer = Buffer.alloc(0);
  let length = 0;
  const put = (text: string) => {
    // A UTF-16 unit becomes at most three bytes.
    if (length + 3 * text.length > modelsBuffer.length) {
      const grown = Buffer.allocUnsafeSlow(Math.max(2 * modelsBuffer.length, length + 3 * text.length, 1 << 20));
      modelsBuffer.copy(grown, 0, 0, length);
      modelsBuffer = grown;
    }
    length += modelsBuffer.write(text, length);
  };
  let first = true;
  for (const [key, value] of Object.entries(models)) {
    const whole = key === 'games' || key === 'tournaments' ? null : JSON.stringify(value);
    if (whole === undefined) continue;
    put(`${first ? '{' : ','}${JSON.stringify(key)}:`);
    first = false;
    if (whole !== null) {
      put(whole);
      continue;
    }
    let none = true;
    for (const [id, entry] of Object.entries(value as Record<string, unknown>)) {
      const text = JSON.stringify(entry);
      if (text === undefined) continue;
      put(`${none ? '{' : ','}${JSON.stringify(id)}:`);
      put(text);
      none = false;
    }
    put(none ? '{}' : '}');
  }
  put(first ? '{}' : '}');
  return modelsBuffer.subarray(0, length);
}

/** The event as the projections read it. */
export function projected(event: RecordedEvent): ProjectedEvent {
  return { position: event.position, type: event.type, payload: event.payload, at: String(event.meta.at), stream: event.stream, version: event.version };
}

/**
 * Folds events into the models in position order, telling each listener what each changed.
 * Throws LedgerReadError, naming the event and ending with `suffix`, for one that cannot be folded.
 */
export function foldEvents(models: ReadModels, events: readonly RecordedEvent[], listeners: Iterable<ChangeListener>, suffix = ''): void {
  for (const event of events) {
    let change: Change;
    try {
      change = applyEvent(models, projected(event));
    } catch (error) {
      throw new LedgerReadError(`event ${event.position} (${event.type}) cannot be folded: ${(error as Error).message}${suffix}`);
    }
    for (const listener of listeners) listener(change, [event]);
  }
}

/** What decisions append: each stream's events, expecting the version the models hold for it. */
export function decisionAppends<E extends AnyEvent>(decisions: readonly Decision[], models: ReadModels): StreamAppend<E>[] {
  // The store checks every event against its registry before anything is written.
  return decisions.map((decision) => ({ stream: decision.stream, events: decision.events as never, expectedVersion: models.streams[decision.stream] ?? 0 }));
}

/** The store's append options for a command's. */
export function appendOptionsOf(options: ExecuteOptions): Omit<AppendOptions, 'expectedVersion'> {
  return {
    ...(options.commandId ? { commandId: options.commandId } : {}),
    ...(options.request ? { request: options.request } : {}),
    ...(options.meta ? { meta: options.meta } : {}),
  };
}

/** A stored row the fold cannot read at all: the file was changed by something other than the store. */
export class LedgerReadError extends Error {}

/**
 * How many times a command is decided and appended before a race it keeps losing is given up.
 * Each loss means another writer recorded on one of its streams first, and each writer takes its
 * own commands on a stream one at a time, so losing this many in a row takes a burst on one
 * stream far beyond a room's.
 */
export const DECISION_ATTEMPTS = 40;

/**
 * A command that lost its race for the ledger every time it was decided (DECISION_ATTEMPTS).
 * Nothing of it was recorded; it is the server's trouble, not the request's, so the HTTP API
 * answers 503 and no limit counts it against the person.
 */
export class LedgerBusyError extends Error {
  constructor() {
    super('so many entries reached the ledger at the same moment that this one could not be recorded; nothing of it was recorded');
  }
}

/**
 * Whether a command whose append failed with `error` at its `attempt`-th try is decided again:
 * yes for a lost race (a VersionConflictError) of a command that decides from the models, which
 * the adapter has brought up to what the other writer recorded; no for anything else, which is
 * the command's answer. Past DECISION_ATTEMPTS, throws LedgerBusyError: the store's words about
 * streams and versions never reach a person.
 */
export function decideAgain(error: unknown, decisions: Decisions, attempt: number): boolean {
  if (!(error instanceof VersionConflictError) || typeof decisions !== 'function') return false;
  if (attempt >= DECISION_ATTEMPTS) throw new LedgerBusyError();
  return true;
}

/** What an adapter's one try at a command does: fold, decide, append, answer. */
export type AppendOnce = (decisions: Decisions, options: ExecuteOptions) => Promise<AppendResult[]>;

/**
 * A served ledger's `append`: each try through `once`, deciding again after every lost race (see
 * decideAgain), counted into `stats`. Shared by both adapters, so every caller (routes, table
 * drivers, sign-in, the demo) gets the same answer whichever store serves it.
 */
export function appendDecidingAgain(once: AppendOnce, stats: Pick<CommitStats, 'decidedAgain' | 'mostTries'>) {
  return async (decisions: Decisions, options: ExecuteOptions = {}): Promise<AppendResult[]> => {
    for (let attempt = 1; ; attempt++) {
      try {
        const results = await once(decisions, options);
        stats.mostTries = Math.max(stats.mostTries, attempt);
        return results;
      } catch (error) {
        if (!decideAgain(error, decisions, attempt)) throw error;
        stats.decidedAgain++;
      }
    }
  };
}

/** What the storage said when asked whether it can be read and written. */
export type StorageVerdict = { writable: true } | { writable: false; reason: string };

/** How long a storage's answer on its health is reused: a balancer asking often costs it little. */
export const HEALTH_MAX_AGE_MS = 1000;
/** How long the storage is given to answer whether it is healthy. */
export const HEALTH_TIMEOUT_MS = 800;

/**
 * Asks the storage whether it can be read and written, through `probe`: at most one question at a
 * time, each answer reused for HEALTH_MAX_AGE_MS, and a probe that fails or takes longer than
 * HEALTH_TIMEOUT_MS an answer that it cannot (in `failed`'s words for the error, or `late`).
 */
export function healthChecks(probe: () => Promise<StorageVerdict>, failed: (error: unknown) => string, late: string): () => Promise<StorageVerdict> {
  let kept: { at: number; verdict: StorageVerdict } | null = null;
  let asking: Promise<StorageVerdict> | null = null;
  const ask = async (): Promise<StorageVerdict> => {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<StorageVerdict>((resolve) => {
      timer = setTimeout(() => resolve({ writable: false, reason: late }), HEALTH_TIMEOUT_MS);
      timer.unref();
    });
    try {
      return await Promise.race([probe().catch((error: unknown): StorageVerdict => ({ writable: false, reason: failed(error) })), timeout]);
    } finally {
      clearTimeout(timer);
    }
  };
  return () => {
    if (kept && Date.now() - kept.at < HEALTH_MAX_AGE_MS) return Promise.resolve(kept.verdict);
    asking ??= ask().then((verdict) => {
      kept = { at: Date.now(), verdict };
      asking = null;
      return verdict;
    });
    return asking;
  };
}

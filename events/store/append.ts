/**
 * What both stores share about an append: the events as given and as recorded, the checks made
 * before any lock is taken, how an append's events take their places in the chain, how a repeated
 * command id is recognised, and the refusals a caller can meet. The SQLite file
 * (sqlite/event-store.ts) and PostgreSQL (postgres/event-store.ts) differ only in how they lock
 * the head, store the rows and make them durable.
 */
import type { AnyEvent, EventRegistry } from '../event-registry.ts';
import { type ChainHead, type ChainedRow, canonicalJson, chainHash } from '../hash-chain.ts';

/** Who and when, recorded with each event. `at` comes from the store's clock. */
export interface EventMeta {
  at: string;
  [key: string]: unknown;
}

/** An event to append: its type, payload, and any meta of its own (merged over the append's). */
export type NewEvent<E extends AnyEvent = AnyEvent> = E extends AnyEvent ? E & { meta?: Record<string, unknown> } : never;

/** An event as recorded, its payload brought up to the current schema version. */
export type RecordedEvent<E extends AnyEvent = AnyEvent> = E extends AnyEvent
  ? E & {
      position: number;
      stream: string;
      version: number;
      /** The schema version of `payload` as given here (the current one; the stored row keeps its own). */
      schemaVersion: number;
      meta: EventMeta;
      commandId: string | null;
      prevHash: string;
      hash: string;
    }
  : never;

export interface AppendOptions {
  /** The stream's version the caller decided against (0 for a stream with no events yet). */
  expectedVersion?: number;
  /**
   * An id for the command these events carry out; appending the same command again returns the
   * first result. "The same" means the same request when `request` is given (a digest of what
   * was asked, recorded with the first event), otherwise the same streams and events.
   */
  commandId?: string;
  /** A digest of the request the command id was sent with; see `commandId`. */
  request?: string;
  /** Meta for every event of this append, such as `{ by: 'judge:ana' }`. */
  meta?: Record<string, unknown>;
}

export interface AppendResult<E extends AnyEvent = AnyEvent> {
  stream: string;
  /** The positions given to the events (empty when there were none to append). */
  positions: number[];
  /** Their versions within the stream. */
  versions: number[];
  events: RecordedEvent<E>[];
  /** True when the command id had been seen, and this is the first append's result. */
  duplicate: boolean;
}

/** Events for one stream within an append to several streams. */
export interface StreamAppend<E extends AnyEvent = AnyEvent> {
  stream: string;
  events: readonly NewEvent<E>[];
  /** The stream's version the caller decided against (0 for a stream with no events yet). */
  expectedVersion?: number;
}
/** The stream moved on since the caller read it; the HTTP API answers 409. */
export class VersionConflictError extends Error {
  constructor(
    readonly stream: string,
    readonly expected: number,
    readonly actual: number,
  ) {
    super(`${stream} is at version ${actual}, not ${expected} as expected: someone else recorded something first; reload and try again`);
  }
}

/**
 * A command id already used for another command: another stream, or other events on the same
 * stream. A repeat is recognised only when it is the same command; anything else is a mistake
 * (or a guess) that must not answer "already recorded". The HTTP API answers 409.
 */
export class CommandIdReusedError extends Error {
  constructor(
    readonly commandId: string,
    readonly stream: string,
    readonly usedFor: string,
    detail?: string,
  ) {
    super(
      usedFor === stream
        ? `command id ${commandId} was already used for another entry on ${stream}${detail ? ` (${detail})` : ''}, so it cannot record this one`
        : `command id ${commandId} was already used for ${usedFor}, so it cannot be used again for ${stream}`,
    );
  }
}

/**
 * The file cannot be written: the disk is full, the file or its folder is read-only, or the
 * storage failed. Nothing of the append was recorded; the HTTP API answers 503 with the reason.
 */
export class LedgerUnavailableError extends Error {
  constructor(
    readonly reason: string,
    readonly code: string,
  ) {
    super(`the ledger cannot record anything right now: ${reason}; nothing was recorded`);
  }
}

/** An append the store refuses before writing anything (a bad stream name, meta or position). */
export class AppendRefusedError extends Error {}

/** The stream names the store accepts. */
export const STREAM_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._:-]{0,199}$/;
/** The command ids the stores accept: 1 to 200 printable characters without spaces. */
export const COMMAND_ID_PATTERN = /^[\x21-\x7e]{1,200}$/;

/** An event checked against its type and serialised, ready to take its place in the chain. */
export interface PreparedEvent {
  type: string;
  schemaVersion: number;
  payload: unknown;
  payloadText: string;
  meta: EventMeta;
  metaText: string;
}

/** The prepared events of one stream of an append. */
export interface PreparedBatch {
  stream: string;
  prepared: PreparedEvent[];
  expectedVersion: number | undefined;
}

/** One stream's share of an append as stored: its rows, and the events as the caller gets them back. */
export interface WrittenBatch<E extends AnyEvent = AnyEvent> {
  rows: ChainedRow[];
  recorded: RecordedEvent<E>[];
}

/**
 * Checks an append before any lock is taken (the command id, each stream's name and expected
 * version, each payload against its registered type) and serialises its events, meta stamped
 * with `clock()`. Throws on the first thing wrong, so nothing is written unless all of it is good.
 */
export function prepareAppend<E extends AnyEvent>(
  registry: EventRegistry<E>,
  appends: readonly StreamAppend<E>[],
  options: Omit<AppendOptions, 'expectedVersion'>,
  clock: () => string,
): PreparedBatch[] {
  const { commandId = null, request = null } = options;
  if (commandId !== null && !COMMAND_ID_PATTERN.test(commandId)) {
    throw new AppendRefusedError(`command id '${commandId}' must be 1 to 200 printable characters without spaces`);
  }
  const seen = new Set<string>();
  for (const { stream, expectedVersion } of appends) {
    if (typeof stream !== 'string' || !STREAM_PATTERN.test(stream)) {
      throw new AppendRefusedError(`stream id '${stream}' must be letters, digits and . _ : - (such as game-7), at most 200 characters`);
    }
    if (seen.has(stream)) throw new AppendRefusedError(`stream ${stream} appears twice in one append; put its events in one list`);
    seen.add(stream);
    if (expectedVersion !== undefined && (!Number.isSafeInteger(expectedVersion) || expectedVersion < 0)) {
      throw new AppendRefusedError(`expected version ${expectedVersion} of ${stream} must be a whole number from 0`);
    }
  }
  const at = clock();
  const total = appends.reduce((n, a) => n + a.events.length, 0);
  let index = 0;
  return appends.map(({ stream, events, expectedVersion }) => ({
    stream,
    expectedVersion,
    prepared: events.map((event) => {
      const { schemaVersion, payload } = registry.validate(event.type, event.payload);
      const meta: EventMeta = { ...options.meta, ...event.meta, at };
      // The first event of a command says how many it recorded and what was asked, so a
      // repeat can answer with them all, and only a repeat of the same request does.
      if (commandId !== null && index === 0) {
        if (total > 1) meta.commandEvents = total;
        if (request !== null) meta.request = request;
      }
      index++;
      let payloadText: string;
      let metaText: string;
      try {
        payloadText = canonicalJson(payload, 'payload');
        metaText = canonicalJson(meta, 'meta');
      } catch (error) {
        throw new AppendRefusedError(`${event.type} for ${stream}: ${(error as Error).message}`);
      }
      return { type: event.type, schemaVersion, payload, payloadText, meta, metaText };
    }),
  }));
}

/** What an append answers, a result per stream in the order asked, from the batches it wrote (or found written). */
export function appendResults<E extends AnyEvent>(
  appends: readonly { stream: string }[],
  result: { written: WrittenBatch<E>[]; duplicate: boolean },
): AppendResult<E>[] {
  return appends.map(({ stream }, i) => ({
    stream,
    positions: result.written[i]!.rows.map((row) => row.position),
    versions: result.written[i]!.rows.map((row) => row.version),
    events: result.written[i]!.recorded,
    duplicate: result.duplicate,
  }));
}

/**
 * Gives an append's prepared events their places in the chain after `head`: the next positions,
 * each stream's next versions (`versionOf` says where each stream stands, checked against its
 * expected version), the command id on the append's first event, and the hashes. Runs inside the
 * append's transaction; the caller stores the rows.
 */
export function chainAppend<E extends AnyEvent>(
  head: ChainHead,
  batches: readonly PreparedBatch[],
  versionOf: (stream: string) => number,
  commandId: string | null,
): { written: WrittenBatch<E>[]; head: ChainHead } {
  const written: WrittenBatch<E>[] = [];
  let first = true;
  for (const { stream, prepared, expectedVersion } of batches) {
    const actual = versionOf(stream);
    if (expectedVersion !== undefined && actual !== expectedVersion) {
      throw new VersionConflictError(stream, expectedVersion, actual);
    }
    const rows: ChainedRow[] = [];
    const recorded: RecordedEvent<E>[] = [];
    prepared.forEach((event, i) => {
      const columns = {
        position: head.position + 1,
        stream,
        version: actual + i + 1,
        type: event.type,
        schema_version: event.schemaVersion,
        payload: event.payloadText,
        meta: event.metaText,
        command_id: first ? commandId : null,
      };
      first = false;
      const hash = chainHash(head.hash, columns);
      const row: ChainedRow = { ...columns, prev_hash: head.hash, hash };
      rows.push(row);
      recorded.push({
        type: event.type,
        payload: event.payload,
        position: row.position,
        stream,
        version: row.version,
        schemaVersion: event.schemaVersion,
        meta: event.meta,
        commandId: row.command_id,
        prevHash: row.prev_hash,
        hash,
      } as RecordedEvent<E>);
      head = { position: row.position, hash };
    });
    written.push({ rows, recorded });
  }
  return { written, head };
}

/** How many events the command whose first stored row this is recorded. */
export function commandEventCount(first: ChainedRow): number {
  return Number((JSON.parse(first.meta) as EventMeta).commandEvents ?? 1);
}

/**
 * Whether an append with a command id already stored repeats that command: `first` is the row
 * carrying the id and `rows` every row the command recorded. Returns each batch's share of those
 * rows, to answer with; throws CommandIdReusedError when the id was used for another command.
 */
export function repeatedCommand(
  commandId: string,
  batches: readonly PreparedBatch[],
  request: string | null,
  first: ChainedRow,
  rows: readonly ChainedRow[],
): ChainedRow[][] {
  const firstMeta = JSON.parse(first.meta) as EventMeta;
  const asked = batches.flatMap((b) => b.prepared.map((p) => ({ stream: b.stream, type: p.type, payload: p.payloadText })));
  const stream = batches[0]?.stream ?? first.stream;
  const streams = new Set(batches.map((b) => b.stream));
  if (!rows.every((row) => streams.has(row.stream)) || !streams.has(first.stream)) {
    throw new CommandIdReusedError(commandId, stream, first.stream);
  }
  if (request !== null && typeof firstMeta.request === 'string') {
    if (firstMeta.request !== request) throw new CommandIdReusedError(commandId, first.stream, first.stream, 'a different request');
  } else {
    const same =
      asked.length === rows.length && asked.every((e, i) => e.stream === rows[i]!.stream && e.type === rows[i]!.type && e.payload === rows[i]!.payload);
    if (!same)
      throw new CommandIdReusedError(commandId, first.stream, first.stream, `it recorded ${rows.map((r) => r.type).join(', ')} at position ${first.position}`);
  }
  return batches.map((b) => rows.filter((row) => row.stream === b.stream));
}

/** A stored row as an event, its payload brought up to the registry's current schema version. */
export function recordedEvent<E extends AnyEvent>(registry: EventRegistry<E>, row: ChainedRow): RecordedEvent<E> {
  let payload: unknown;
  try {
    payload = registry.upcast(row.type, row.schema_version, JSON.parse(row.payload));
  } catch (error) {
    throw new Error(`position ${row.position} (${row.stream} version ${row.version}): ${(error as Error).message}`);
  }
  const definition = registry.definition(row.type);
  return {
    type: row.type,
    payload,
    position: row.position,
    stream: row.stream,
    version: row.version,
    schemaVersion: definition?.version ?? row.schema_version,
    meta: JSON.parse(row.meta) as EventMeta,
    commandId: row.command_id,
    prevHash: row.prev_hash,
    hash: row.hash,
  } as RecordedEvent<E>;
}

export type DigestCheck = { ok: true; head: ChainHead } | { ok: false; reason: string };

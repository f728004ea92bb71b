/**
 * The ledger's hash chain. Every event's hash covers the hash before it and the event's
 * canonical bytes, so changing, removing or reordering any stored event breaks every link after
 * it, and a head hash written down by an auditor pins down the whole history behind it.
 *
 * Pure: no database here. The store feeds rows in; `verifyRows` says where the chain breaks.
 */
import { createHash } from 'node:crypto';

/** The previous hash of the first event: 64 zeros. */
export const GENESIS_HASH = '0'.repeat(64);

/** One ledger row exactly as stored: the unit the chain is computed over. */
export interface ChainedRow {
  position: number;
  stream: string;
  version: number;
  type: string;
  schema_version: number;
  /** Canonical JSON text. */
  payload: string;
  /** Canonical JSON text. */
  meta: string;
  command_id: string | null;
  prev_hash: string;
  hash: string;
}

/** The columns an event's own hash covers (its link to the previous event is chained in separately). */
export type HashedColumns = Omit<ChainedRow, 'prev_hash' | 'hash'>;

/** Where a chain stands: the last position and its hash (position 0 and the genesis hash when empty). */
export interface ChainHead {
  position: number;
  hash: string;
}

export interface ChainReport {
  /** True when every row checked links up and matches its hash. */
  ok: boolean;
  /** How many rows verified (when not ok: the rows before the first bad one). */
  count: number;
  /** The last row that verified. */
  head: ChainHead;
  /** The first position that does not verify, and why. */
  firstBad?: { position: number; reason: string };
}

/** A value that cannot be part of the ledger because JSON cannot carry it faithfully. */
export class NotJsonError extends Error {
  constructor(
    readonly path: string,
    what: string,
  ) {
    super(`${path} is ${what}, which the ledger cannot record as JSON`);
  }
}

/** Serialises a JSON value with object keys sorted at every depth, so equal values give equal text. */
export function canonicalJson(value: unknown, path = 'value'): string {
  if (value === null) return 'null';
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return JSON.stringify(value);
    case 'number':
      if (!Number.isFinite(value)) throw new NotJsonError(path, String(value));
      // -0 would come back from JSON as 0; write it as 0 so the text is what a reader gets back.
      return JSON.stringify(Object.is(value, -0) ? 0 : value);
    case 'object': {
      if (Array.isArray(value)) {
        return `[${value
          .map((item, i) => {
            if (item === undefined) throw new NotJsonError(`${path}[${i}]`, 'undefined');
            return canonicalJson(item, `${path}[${i}]`);
          })
          .join(',')}]`;
      }
      const proto = Object.getPrototypeOf(value);
      if (proto !== Object.prototype && proto !== null) {
        throw new NotJsonError(path, `a ${proto?.constructor?.name ?? 'non-plain'} object`);
      }
      const record = value as Record<string, unknown>;
      const parts: string[] = [];
      for (const key of Object.keys(record).sort()) {
        // Like JSON.stringify: an absent optional field and one set to undefined read back the same.
        if (record[key] === undefined) continue;
        parts.push(`${JSON.stringify(key)}:${canonicalJson(record[key], `${path}.${key}`)}`);
      }
      return `{${parts.join(',')}}`;
    }
    default:
      throw new NotJsonError(path, `a ${typeof value}`);
  }
}

/**
 * The bytes an event's hash covers: its hashed columns as canonical JSON. Payload and meta go in
 * as their stored text (a JSON string inside), so any byte changed in the column changes the
 * bytes, and no text moved from one column to another can give the same bytes.
 */
export function canonicalBytes(row: HashedColumns): Buffer {
  return Buffer.from(canonicalText(row), 'utf8');
}

// canonicalJson of the columns, written out in sorted key order by hand: this runs once per
// event on every append and every verification, and the general function is several times slower.
function canonicalText(row: HashedColumns): string {
  const number = (value: number, name: string): string => {
    if (!Number.isFinite(value)) throw new NotJsonError(name, String(value));
    return JSON.stringify(Object.is(value, -0) ? 0 : value);
  };
  return (
    `{"command_id":${row.command_id === null ? 'null' : JSON.stringify(row.command_id)}` +
    `,"meta":${JSON.stringify(row.meta)}` +
    `,"payload":${JSON.stringify(row.payload)}` +
    `,"position":${number(row.position, 'position')}` +
    `,"schema_version":${number(row.schema_version, 'schema_version')}` +
    `,"stream":${JSON.stringify(row.stream)}` +
    `,"type":${JSON.stringify(row.type)}` +
    `,"version":${number(row.version, 'version')}}`
  );
}

/** SHA-256 over the previous hash (as its 64 hex characters) then the event's canonical bytes, as lowercase hex. */
export function chainHash(prevHash: string, row: HashedColumns): string {
  return createHash('sha256').update(prevHash, 'utf8').update(canonicalText(row), 'utf8').digest('hex');
}

/** A walk along the chain that can be fed rows a page at a time and carried on as the ledger grows. */
export interface ChainVerifier {
  /** Checks the next row; returns the report when it is the first bad one, otherwise null. */
  feed(row: ChainedRow): ChainReport | null;
  /** Where the walk stands: ok with the rows verified so far, or the first bad row. */
  report(): ChainReport;
}

/**
 * A walk from position 1: each row fed must be the next position, link to the hash before it,
 * match its own hash, and follow the last version of its stream. Once a row fails, the walk
 * stays at that failure.
 */
export function chainVerifier(): ChainVerifier {
  let head: ChainHead = { position: 0, hash: GENESIS_HASH };
  let count = 0;
  let failed: ChainReport | null = null;
  const versions = new Map<string, number>();
  const bad = (position: number, reason: string): ChainReport => (failed = { ok: false, count, head, firstBad: { position, reason } });
  return {
    feed(row) {
      if (failed) return failed;
      const expected = head.position + 1;
      if (!Number.isSafeInteger(row.position) || row.position < 1) {
        return bad(row.position, `position ${row.position} is not a position: they count from 1`);
      }
      if (row.position !== expected) {
        return row.position > expected
          ? bad(expected, `position ${expected} is missing (the row after position ${head.position} is position ${row.position})`)
          : bad(expected, `position ${row.position} appears again after position ${head.position}`);
      }
      if (row.prev_hash !== head.hash) {
        return bad(row.position, `its prev_hash does not link to the hash of position ${head.position}`);
      }
      if (chainHash(head.hash, row) !== row.hash) {
        return bad(row.position, 'its hash does not match its contents');
      }
      const last = versions.get(row.stream) ?? 0;
      if (row.version !== last + 1) {
        return bad(row.position, `stream ${row.stream} goes from version ${last} to version ${row.version}`);
      }
      versions.set(row.stream, row.version);
      head = { position: row.position, hash: row.hash };
      count++;
      return null;
    },
    report: () => failed ?? { ok: true, count, head },
  };
}

/**
 * Walks rows in position order (as read from the store) and reports the first that breaks the
 * chain: a missing or repeated position, a prev_hash that does not link to the row before, a hash
 * that does not match the row's contents, or a stream version that does not follow the last.
 * With `upTo`, stops after that position.
 */
export function verifyRows(rows: Iterable<ChainedRow>, options: { upTo?: number } = {}): ChainReport {
  const verifier = chainVerifier();
  for (const row of rows) {
    if (options.upTo !== undefined && row.position > options.upTo) break;
    const failed = verifier.feed(row);
    if (failed) return failed;
  }
  return verifier.report();
}

/** The text an auditor writes down to pin a chain head: `position:hash`. */
export function formatDigest(head: ChainHead): string {
  return `${head.position}:${head.hash}`;
}

/** A digest that is not `position:hash`. */
export class DigestFormatError extends Error {}

/** Reads a digest written by `formatDigest`. */
export function parseDigest(text: string): ChainHead {
  const match = /^(\d+):([0-9a-fA-F]{64})$/.exec(text.trim());
  if (!match) {
    throw new DigestFormatError(`digest '${text}' is not of the form POSITION:HASH (a position, a colon and 64 hex digits)`);
  }
  return { position: Number(match[1]), hash: match[2]!.toLowerCase() };
}

/**
 * The ledger as a file of NDJSON, one stored row a line, for backups, audits and moving a
 * tournament between machines. The hashes travel with the rows, so an import proves itself:
 * it is accepted only when the chain it carries verifies.
 */
import type { LedgerDatabase } from './database.ts';
import { type ChainReport, type ChainedRow, canonicalJson } from './hash-chain.ts';
import { iterateRows, verifyChain } from './event-store.ts';

/** One exported line: the stored columns, with payload and meta as JSON values rather than text. */
export interface LedgerLine {
  position: number;
  stream: string;
  version: number;
  type: string;
  schema_version: number;
  payload: unknown;
  meta: Record<string, unknown>;
  command_id: string | null;
  prev_hash: string;
  hash: string;
}

/** An import that cannot start or a line that is not a ledger row; the message names the line. */
export class LedgerImportError extends Error {}

/** The ledger's rows in position order, one NDJSON line each (with its newline). */
export function* exportLines(database: LedgerDatabase): Generator<string> {
  for (const row of iterateRows(database)) {
    // Payload and meta are stored as canonical JSON, so parsing them here and writing them with
    // canonicalJson on import gives back the very bytes that were hashed.
    const line: LedgerLine = { ...row, payload: JSON.parse(row.payload), meta: JSON.parse(row.meta) };
    yield `${JSON.stringify(line)}\n`;
  }
}

const HASH = /^[0-9a-f]{64}$/;

function parseLine(text: string, lineNumber: number): ChainedRow {
  const where = `line ${lineNumber}`;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new LedgerImportError(`${where}: not JSON (${(error as Error).message})`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new LedgerImportError(`${where}: expected an object with the ledger's columns`);
  }
  const line = value as Record<string, unknown>;
  const need = (key: string, ok: boolean, what: string): void => {
    if (!ok) throw new LedgerImportError(`${where}: ${key} must be ${what}, not ${JSON.stringify(line[key]) ?? 'missing'}`);
  };
  const whole = (key: string): boolean => Number.isSafeInteger(line[key]) && (line[key] as number) >= 1;
  need('position', whole('position'), 'a whole number from 1');
  need('stream', typeof line.stream === 'string' && line.stream !== '', 'a stream id');
  need('version', whole('version'), 'a whole number from 1');
  need('type', typeof line.type === 'string' && line.type !== '', 'an event type');
  need('schema_version', whole('schema_version'), 'a whole number from 1');
  need('payload', line.payload !== undefined, 'a JSON value');
  need('meta', typeof line.meta === 'object' && line.meta !== null && !Array.isArray(line.meta), 'an object');
  need('command_id', line.command_id === null || line.command_id === undefined || typeof line.command_id === 'string', 'a string or null');
  need('prev_hash', typeof line.prev_hash === 'string' && HASH.test(line.prev_hash), '64 lowercase hex digits');
  need('hash', typeof line.hash === 'string' && HASH.test(line.hash), '64 lowercase hex digits');
  let payload: string;
  let meta: string;
  try {
    payload = canonicalJson(line.payload, 'payload');
    meta = canonicalJson(line.meta, 'meta');
  } catch (error) {
    throw new LedgerImportError(`${where}: ${(error as Error).message}`);
  }
  return {
    position: line.position as number,
    stream: line.stream as string,
    version: line.version as number,
    type: line.type as string,
    schema_version: line.schema_version as number,
    payload,
    meta,
    command_id: (line.command_id as string | null | undefined) ?? null,
    prev_hash: line.prev_hash as string,
    hash: line.hash as string,
  };
}

class ChainRefused extends Error {
  constructor(readonly report: ChainReport) {
    super('the imported chain does not verify');
  }
}

/**
 * Reads NDJSON lines into an empty ledger and verifies the chain in the same transaction: when
 * the chain verifies the rows are committed, otherwise nothing is. Returns the verification.
 */
export function importLedger(database: LedgerDatabase, text: string): ChainReport {
  const { sqlite } = database;
  const insert = sqlite.prepare(
    'INSERT INTO events (position, stream, version, type, schema_version, payload, meta, command_id, prev_hash, hash) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
  );
  const load = sqlite.transaction(() => {
    const existing = (sqlite.prepare('SELECT count(*) AS n FROM events').get() as { n: number }).n;
    if (existing > 0) {
      throw new LedgerImportError(`${database.path} already holds ${existing} events; a ledger can only be imported into an empty file`);
    }
    const lines = text.split('\n');
    lines.forEach((raw, i) => {
      if (raw.trim() === '') return;
      const row = parseLine(raw, i + 1);
      try {
        insert.run(row.position, row.stream, row.version, row.type, row.schema_version, row.payload, row.meta, row.command_id, row.prev_hash, row.hash);
      } catch (error) {
        throw new LedgerImportError(`line ${i + 1}: position ${row.position} cannot be stored: ${(error as Error).message}`);
      }
    });
    const report = verifyChain(database);
    if (!report.ok) throw new ChainRefused(report);
    return report;
  });
  try {
    return load.immediate();
  } catch (error) {
    if (error instanceof ChainRefused) return error.report;
    throw error;
  }
}

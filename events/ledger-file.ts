/**
 * The ledger as a file of NDJSON, one stored row a line, for backups, audits and moving a
 * tournament between machines. The hashes travel with the rows, so an import proves itself:
 * it is accepted only when the chain it carries verifies.
 */
import type { LedgerDatabase } from './store/sqlite/database.ts';
import { type ChainReport, type ChainedRow, canonicalJson } from './hash-chain.ts';
import { iterateRows, verifyChain } from './store/sqlite/event-store.ts';
import { domainEvents } from './domain-events.ts';
import { type ReadModels, applyEvent, emptyModels } from './projections.ts';
import { storedEventProblem } from './stored-event-check.ts';

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
  for (const row of iterateRows(database)) yield exportLine(row);
}

/** One stored row as an exported NDJSON line (with its newline), whichever store it comes from. */
export function exportLine(row: ChainedRow): string {
  // Payload and meta are stored as canonical JSON, so parsing them here and writing them with
  // canonicalJson on import gives back the very bytes that were hashed.
  const line: LedgerLine = { ...row, payload: JSON.parse(row.payload), meta: JSON.parse(row.meta) };
  return `${JSON.stringify(line)}\n`;
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

/**
 * A further check of each imported row against the read models folded from the rows before it
 * (server/commands/replay-check.ts: what the live commands decide); a sentence refuses the row.
 */
export type RowAdmission = (models: ReadModels, row: { stream: string; type: string; payload: Record<string, unknown> }) => string | null;

/** A row of an NDJSON ledger, and the number of the line it came from. */
export interface ImportedRow {
  line: number;
  row: ChainedRow;
}

/**
 * The rows of an NDJSON ledger in file order, blank lines skipped, each yielded only once it is
 * known to be one a live append could have written: it is checked against the read models folded
 * from the rows before it, as a command would have been. Throws LedgerImportError naming the line
 * and position of the first row refused. Every store's import takes its rows from here.
 */
export function* checkedRows(text: string, admit?: RowAdmission): Generator<ImportedRow> {
  const lines = text.split('\n');
  const models = emptyModels();
  for (let i = 0; i < lines.length; i++) {
    const raw = lines[i]!;
    if (raw.trim() === '') continue;
    const row = parseLine(raw, i + 1);
    const where = `line ${i + 1} (position ${row.position})`;
    const payload = JSON.parse(row.payload) as unknown;
    const meta = JSON.parse(row.meta) as Record<string, unknown>;
    const problem = storedEventProblem(models, { stream: row.stream, type: row.type, schema_version: row.schema_version, payload, meta });
    if (problem) throw new LedgerImportError(`${where}: ${problem}; nothing was imported`);
    const current = domainEvents.upcast(row.type, row.schema_version, payload);
    const refusal = admit?.(models, { stream: row.stream, type: row.type, payload: domainEvents.validate(row.type, current).payload as Record<string, unknown> });
    if (refusal) throw new LedgerImportError(`${where}: ${refusal}; nothing was imported`);
    try {
      applyEvent(models, { position: row.position, type: row.type, payload: current, at: String(meta.at), stream: row.stream, version: row.version });
    } catch (error) {
      throw new LedgerImportError(`${where}: ${row.type} cannot be folded: ${(error as Error).message}; nothing was imported`);
    }
    yield { line: i + 1, row };
  }
}

class ChainRefused extends Error {
  constructor(readonly report: ChainReport) {
    super('the imported chain does not verify');
  }
}

/**
 * Reads NDJSON lines into an empty ledger and verifies the chain in the same transaction: when
 * the chain verifies and every row passes `checkedRows` the rows are committed, otherwise nothing
 * is. Returns the verification.
 */
/**
 * Who brought a ledger in, and from what: kept beside the ledger (not in its chain, so a moved
 * ledger keeps its head digest), so an auditor sees which positions came in by import.
 */
export interface ImportNote {
  /** The account on the machine that ran the import. */
  by: string;
  /** The file read, or `-` for standard input. */
  source: string;
  /** SHA-256 of the file's bytes, hex. */
  digest: string;
  /** When the import ran (ISO). */
  at: string;
}

/** A recorded import, with the positions it brought in. */
export interface RecordedImport extends ImportNote {
  first: number;
  last: number;
}

export const IMPORTS_TABLE_SQL = `CREATE TABLE IF NOT EXISTS ledger_imports (
  first_position INTEGER NOT NULL,
  last_position INTEGER NOT NULL,
  imported_by TEXT NOT NULL,
  source TEXT NOT NULL,
  digest TEXT NOT NULL,
  imported_at TEXT NOT NULL
)`;

/** The imports recorded beside a ledger file, oldest first; none for a file that never took one. */
export function recordedImports(database: LedgerDatabase): RecordedImport[] {
  try {
    const rows = database.sqlite
      .prepare('SELECT first_position AS first, last_position AS last, imported_by AS by, source, digest, imported_at AS at FROM ledger_imports ORDER BY first_position')
      .all() as RecordedImport[];
    return rows;
  } catch {
    return [];
  }
}

export function importLedger(database: LedgerDatabase, text: string, admit?: RowAdmission, note?: ImportNote): ChainReport {
  const { sqlite } = database;
  const insert = sqlite.prepare(
    'INSERT INTO events (position, stream, version, type, schema_version, payload, meta, command_id, prev_hash, hash) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
  );
  const load = sqlite.transaction(() => {
    const existing = (sqlite.prepare('SELECT count(*) AS n FROM events').get() as { n: number }).n;
    if (existing > 0) {
      throw new LedgerImportError(`${database.path} already holds ${existing} events; a ledger can only be imported into an empty file`);
    }
    for (const { line, row } of checkedRows(text, admit)) {
      try {
        insert.run(row.position, row.stream, row.version, row.type, row.schema_version, row.payload, row.meta, row.command_id, row.prev_hash, row.hash);
      } catch (error) {
        throw new LedgerImportError(`line ${line}: position ${row.position} cannot be stored: ${(error as Error).message}`);
      }
    }
    const report = verifyChain(database);
    if (!report.ok) throw new ChainRefused(report);
    if (note && report.count > 0) {
      sqlite.exec(IMPORTS_TABLE_SQL);
      sqlite
        .prepare('INSERT INTO ledger_imports (first_position, last_position, imported_by, source, digest, imported_at) VALUES (?, ?, ?, ?, ?, ?)')
        .run(1, report.head.position, note.by, note.source, note.digest, note.at);
    }
    return report;
  });
  try {
    return load.immediate();
  } catch (error) {
    if (error instanceof ChainRefused) return error.report;
    throw error;
  }
}

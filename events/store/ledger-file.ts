/**
 * The ledger as a file of NDJSON, one stored row a line, for backups, audits and moving a
 * tournament between machines. The hashes travel with the rows, so an import proves itself:
 * it is accepted only when the chain it carries verifies. A header line before the rows and a
 * trailer line after them say how many events the export holds and where its head is, so a
 * backup cut short (a full disk, a copy stopped midway) is told from a whole one.
 *
 * The format is every store's: each writes and reads these lines with its own tools
 * (sqlite/ledger-tools.ts, postgres/ledger-tools.ts), so a ledger moves between them.
 */
import { type ChainHead, type ChainedRow, GENESIS_HASH, canonicalJson } from '../hash-chain.ts';
import { domainEvents } from '../event-catalogue.ts';
import { type ReadModels, applyEvent, emptyModels } from '../projections.ts';
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

/** What an export's header and trailer say: how many events it holds, and its last one's position and hash. */
export interface ExportSummary {
  events: number;
  head: ChainHead;
}

/** The export's format, named by its header and trailer lines. */
export const EXPORT_FORMAT = 'spades-ledger/1';

/** The summary of an export up to `head`: positions are gapless from 1, so it holds `head.position` events. */
export function exportSummary(head: ChainHead): ExportSummary {
  return { events: head.position, head: { position: head.position, hash: head.hash } };
}

/** The export's first line (with its newline): `{"header":"spades-ledger/1","events":…,"head":{…}}`. */
export function exportHeader(summary: ExportSummary): string {
  return `${JSON.stringify({ header: EXPORT_FORMAT, events: summary.events, head: summary.head })}\n`;
}

/** The export's last line (with its newline): `{"trailer":"spades-ledger/1","events":…,"head":{…}}`. */
export function exportTrailer(summary: ExportSummary): string {
  return `${JSON.stringify({ trailer: EXPORT_FORMAT, events: summary.events, head: summary.head })}\n`;
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

/** A number as an operator reads it in a sentence: 9,340. */
const counted = (n: number): string => n.toLocaleString('en-US');

/** One event line of a backup, and its number in the file. */
export interface BackupLine {
  line: number;
  text: string;
}

/**
 * A backup as read before its rows are checked: its event lines, and what its header and trailer
 * say it holds. Read whole or, with `prefix`, as the first events of a ledger taken on purpose.
 */
export interface Backup {
  rows: BackupLine[];
  /** What the header line announces; null in an export from before header and trailer lines. */
  header: ExportSummary | null;
  /** What the trailer line says; null when the file ends without one. */
  trailer: ExportSummary | null;
  /** Taken as a prefix on purpose: it need not end with its trailer. */
  prefix: boolean;
  /** The number of a last line cut midway, left out of a prefix. */
  cutLine: number | null;
}

/** The header's or trailer's summary, when `value` is one: `key` names which. */
function summaryLine(value: unknown, key: 'header' | 'trailer', lineNumber: number): ExportSummary | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value) || !Object.hasOwn(value, key)) return null;
  const line = value as Record<string, unknown>;
  const where = `line ${lineNumber}, the ${key}`;
  if (line[key] !== EXPORT_FORMAT)
    throw new LedgerImportError(`${where}, names the format ${JSON.stringify(line[key])}, and this build reads ${EXPORT_FORMAT}; nothing was imported`);
  const head = line.head as Record<string, unknown> | null | undefined;
  const whole = (n: unknown): n is number => Number.isSafeInteger(n) && (n as number) >= 0;
  if (!whole(line.events) || typeof head !== 'object' || head === null || !whole(head.position) || typeof head.hash !== 'string' || !HASH.test(head.hash)) {
    throw new LedgerImportError(
      `${where}, must be {"${key}":"${EXPORT_FORMAT}","events":N,"head":{"position":N,"hash":"64 hex digits"}}; nothing was imported`,
    );
  }
  return { events: line.events, head: { position: head.position, hash: head.hash } };
}

function parsedOrNull(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/**
 * Reads a backup's shape: its header, its event lines and its trailer. Refuses, naming what is
 * wrong and that nothing was imported, an empty file, a backup cut short (with how many of its
 * events it holds), and an export without a header and trailer (from before they were written)
 * unless it is taken as a prefix on purpose.
 */
export function readBackup(text: string, options: { prefix?: boolean } = {}): Backup {
  const prefix = options.prefix ?? false;
  const lines = text.split('\n');
  const filled: number[] = [];
  for (let i = 0; i < lines.length; i++) if (lines[i]!.trim() !== '') filled.push(i);
  if (filled.length === 0) throw new LedgerImportError('the file is empty: a backup holds at least its header and trailer lines; nothing was imported');
  const first = filled[0]!;
  const last = filled[filled.length - 1]!;
  const header = summaryLine(parsedOrNull(lines[first]!), 'header', first + 1);
  const lastValue = parsedOrNull(lines[last]!);
  const trailer = last === first ? null : summaryLine(lastValue, 'trailer', last + 1);
  // A last line that is not JSON and has no newline after it is one the copy stopped inside.
  const cutLine = lastValue === undefined && !text.endsWith('\n') && last === lines.length - 1 ? last + 1 : null;
  const rows: BackupLine[] = [];
  for (const i of filled) {
    if ((i === first && header) || (i === last && (trailer || cutLine !== null))) continue;
    rows.push({ line: i + 1, text: lines[i]! });
  }
  const whole = `${counted(rows.length)} whole event${rows.length === 1 ? '' : 's'}`;
  if (prefix) {
    if (header && rows.length > header.events) {
      throw new LedgerImportError(
        `the backup holds ${counted(rows.length)} events, more than the ${counted(header.events)} its header announces; nothing was imported`,
      );
    }
    if (rows.length === 0)
      throw new LedgerImportError(
        `the backup holds no whole event to import${header ? ` of the ${counted(header.events)} its header announces` : ''}; nothing was imported`,
      );
    return { rows, header, trailer, prefix, cutLine };
  }
  if (!header && !trailer) {
    const cut = cutLine !== null ? ` (its line ${cutLine} is cut midway)` : '';
    throw new LedgerImportError(
      `the file has no header or trailer line${cut}: it is an export from before they were written, or a part of one, so whether it holds the whole ledger cannot be told; nothing was imported (--prefix imports the ${whole} it holds as the start of a ledger)`,
    );
  }
  if (!header) throw new LedgerImportError(`the backup is cut at its start: line ${first + 1} is not its header line; nothing was imported`);
  if (!trailer) {
    // A trailer before the last line: lines were added after the export ended, not cut from it.
    const end = rows.findIndex((row) => summaryLine(parsedOrNull(row.text), 'trailer', row.line) !== null);
    if (end >= 0) {
      const named = summaryLine(parsedOrNull(rows[end]!.text), 'trailer', rows[end]!.line)!;
      const after = rows.length - end - 1 + (cutLine !== null ? 1 : 0);
      throw new LedgerImportError(
        `the backup goes on after its trailer: it holds ${counted(end)} events up to its trailer in line ${counted(rows[end]!.line)}, which names ${counted(named.events)}, and then ${counted(after)} more line${after === 1 ? '' : 's'} added after it; nothing was imported`,
      );
    }
    const where = cutLine !== null ? ` in line ${cutLine}` : '';
    throw new LedgerImportError(
      `the backup is cut short${where}: it holds ${counted(rows.length)} of ${counted(header.events)} events, and no trailer line; nothing was imported (--prefix imports those ${counted(rows.length)} on purpose)`,
    );
  }
  if (header.events !== trailer.events || header.head.position !== trailer.head.position || header.head.hash !== trailer.head.hash) {
    throw new LedgerImportError(
      `the backup's header and trailer disagree: ${counted(header.events)} events to ${header.head.position}:${header.head.hash}, then ${counted(trailer.events)} to ${trailer.head.position}:${trailer.head.hash}; nothing was imported`,
    );
  }
  if (rows.length !== trailer.events) {
    const held =
      rows.length < trailer.events
        ? `it holds ${counted(rows.length)} of the ${counted(trailer.events)} events its trailer names (lines are missing from it)`
        : `it holds ${counted(rows.length)} lines between its header and trailer, which name ${counted(trailer.events)} events (lines were added to it)`;
    throw new LedgerImportError(`the backup is not whole: ${held}; nothing was imported`);
  }
  return { rows, header, trailer, prefix, cutLine };
}

/**
 * The rows of a backup (its text, read whole, or as `readBackup` read it) in file order, each
 * yielded only once it is known to be one a live append could have written: it is checked
 * against the read models folded from the rows before it, as a command would have been. Throws
 * LedgerImportError naming the line and position of the first row refused, or, once every row is
 * read, a last event that is not the head its trailer names. Every store's import takes its rows
 * from here.
 */
export function* checkedRows(source: string | Backup, admit?: RowAdmission): Generator<ImportedRow> {
  const backup = typeof source === 'string' ? readBackup(source) : source;
  const models = emptyModels();
  let last: ChainHead = { position: 0, hash: GENESIS_HASH };
  for (const { line: lineNumber, text: raw } of backup.rows) {
    let row: ChainedRow;
    try {
      row = parseLine(raw, lineNumber);
    } catch (error) {
      // Said in the backup's words when the line is another export's header or trailer.
      const value = parsedOrNull(raw);
      for (const key of ['header', 'trailer'] as const) {
        if (summaryLine(value, key, lineNumber))
          throw new LedgerImportError(`line ${lineNumber}: a ${key} line amid the events: the file holds more than one export; nothing was imported`);
      }
      throw error;
    }
    const where = `line ${lineNumber} (position ${row.position})`;
    const payload = JSON.parse(row.payload) as unknown;
    const meta = JSON.parse(row.meta) as Record<string, unknown>;
    const problem = storedEventProblem(models, { stream: row.stream, type: row.type, schema_version: row.schema_version, payload, meta });
    if (problem) throw new LedgerImportError(`${where}: ${problem}; nothing was imported`);
    const current = domainEvents.upcast(row.type, row.schema_version, payload);
    const refusal = admit?.(models, {
      stream: row.stream,
      type: row.type,
      payload: domainEvents.validate(row.type, current).payload as Record<string, unknown>,
    });
    if (refusal) throw new LedgerImportError(`${where}: ${refusal}; nothing was imported`);
    try {
      applyEvent(models, { position: row.position, type: row.type, payload: current, at: String(meta.at), stream: row.stream, version: row.version });
    } catch (error) {
      throw new LedgerImportError(`${where}: ${row.type} cannot be folded: ${(error as Error).message}; nothing was imported`);
    }
    last = { position: row.position, hash: row.hash };
    yield { line: lineNumber, row };
  }
  const named = backup.prefix ? null : backup.trailer;
  if (named && (last.position !== named.head.position || last.hash !== named.head.hash)) {
    throw new LedgerImportError(
      `the backup's last event is ${last.position}:${last.hash}, not the head ${named.head.position}:${named.head.hash} its trailer names; nothing was imported`,
    );
  }
}

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

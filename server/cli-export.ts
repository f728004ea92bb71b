/**
 * `spades export [--db FILE|URL]` writes the whole ledger as NDJSON to standard output;
 * `spades import-ledger FILE|- [--db FILE|URL]` reads one into an empty ledger, and keeps it only if
 * its hash chain verifies (exit 1 naming the first bad position otherwise, with nothing written).
 * Either works on a SQLite file or a PostgreSQL database (`cli-ledger-target.ts`), line for line alike.
 */
import { readFileSync, existsSync } from 'node:fs';
import { type CliIo, UsageError } from './cli.ts';
import { openLedgerForReading, parseFlags } from './cli-verify.ts';
import { ledgerTarget, withPostgresLedger } from './cli-ledger-target.ts';
import { LedgerFileError, defaultDatabasePath, openDatabase } from '../events/database.ts';
import { LedgerImportError, exportLines, importLedger } from '../events/ledger-file.ts';
import { exportPostgresLines, importPostgresLedger } from '../events/pg-ledger.ts';
import { type ChainReport, formatDigest } from '../events/hash-chain.ts';

// Writing a line at a time would make a large export crawl; a chunk keeps memory small too.
const CHUNK_LINES = 1000;

async function writeLines(io: CliIo, lines: Iterable<string> | AsyncIterable<string>): Promise<number> {
  let chunk: string[] = [];
  for await (const line of lines) {
    chunk.push(line);
    if (chunk.length === CHUNK_LINES) {
      io.stdout(chunk.join(''));
      chunk = [];
    }
  }
  if (chunk.length > 0) io.stdout(chunk.join(''));
  return 0;
}

export async function run(args: string[], io: CliIo): Promise<number> {
  const { flags, positional } = parseFlags('export', args, ['db']);
  if (positional.length > 0) throw new UsageError(`spades export: unexpected argument '${positional[0]}'; usage: spades export [--db FILE|URL]`);
  const target = ledgerTarget('export', flags.db);
  if (target.kind === 'postgres') return withPostgresLedger('export', target, { existing: true }, (store) => writeLines(io, exportPostgresLines(store)));
  const database = openLedgerForReading('export', target.path);
  try {
    return await writeLines(io, exportLines(database));
  } finally {
    database.close();
  }
}

function importIntoFile(path: string | undefined, text: string): { name: string; report: ChainReport } {
  let database;
  try {
    database = openDatabase({ path: path ?? defaultDatabasePath() });
  } catch (error) {
    if (error instanceof LedgerFileError) throw new UsageError(`spades import-ledger: ${error.message}`);
    throw error;
  }
  try {
    return { name: database.path, report: importLedger(database, text) };
  } finally {
    database.close();
  }
}

export async function runImport(args: string[], io: CliIo): Promise<number> {
  const { flags, positional } = parseFlags('import-ledger', args, ['db']);
  if (positional.length !== 1) throw new UsageError('spades import-ledger: usage: spades import-ledger FILE|- [--db FILE|URL]');
  const source = positional[0]!;
  const target = ledgerTarget('import-ledger', flags.db);
  if (source !== '-' && !existsSync(source)) throw new UsageError(`spades import-ledger: no file at ${source}`);
  const text = source === '-' ? await io.stdin() : readFileSync(source, 'utf8');
  try {
    const { name, report } = target.kind === 'postgres'
      ? await withPostgresLedger('import-ledger', target, { existing: false }, async (store) => ({ name: target.name, report: await importPostgresLedger(store, text, target.name) }))
      : importIntoFile(target.path, text);
    if (!report.ok) {
      const bad = report.firstBad!;
      io.stdout(`nothing imported: position ${bad.position} does not verify: ${bad.reason}\n`);
      return 1;
    }
    io.stdout(`imported ${report.count} events into ${name}\nhead ${formatDigest(report.head)}\n`);
    return 0;
  } catch (error) {
    if (error instanceof LedgerImportError) throw new UsageError(`spades import-ledger: ${source}: ${error.message}`);
    throw error;
  }
}

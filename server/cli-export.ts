/**
 * `spades export [--db FILE]` writes the whole ledger as NDJSON to standard output;
 * `spades import-ledger FILE|- [--db FILE]` reads one into an empty ledger, and keeps it only if
 * its hash chain verifies (exit 1 naming the first bad position otherwise, with nothing written).
 */
import { readFileSync, existsSync } from 'node:fs';
import { type CliIo, UsageError } from './cli.ts';
import { openLedgerForReading, parseFlags } from './cli-verify.ts';
import { LedgerFileError, defaultDatabasePath, openDatabase } from '../events/database.ts';
import { LedgerImportError, exportLines, importLedger } from '../events/ledger-file.ts';
import { formatDigest } from '../events/hash-chain.ts';

// Writing a line at a time would make a large export crawl; a chunk keeps memory small too.
const CHUNK_LINES = 1000;

export async function run(args: string[], io: CliIo): Promise<number> {
  const { flags, positional } = parseFlags('export', args, ['db']);
  if (positional.length > 0) throw new UsageError(`spades export: unexpected argument '${positional[0]}'; usage: spades export [--db FILE]`);
  const database = openLedgerForReading('export', flags.db);
  try {
    let chunk: string[] = [];
    for (const line of exportLines(database)) {
      chunk.push(line);
      if (chunk.length === CHUNK_LINES) {
        io.stdout(chunk.join(''));
        chunk = [];
      }
    }
    if (chunk.length > 0) io.stdout(chunk.join(''));
    return 0;
  } finally {
    database.close();
  }
}

export async function runImport(args: string[], io: CliIo): Promise<number> {
  const { flags, positional } = parseFlags('import-ledger', args, ['db']);
  if (positional.length !== 1) throw new UsageError('spades import-ledger: usage: spades import-ledger FILE|- [--db FILE]');
  const source = positional[0]!;
  if (source !== '-' && !existsSync(source)) throw new UsageError(`spades import-ledger: no file at ${source}`);
  const text = source === '-' ? await io.stdin() : readFileSync(source, 'utf8');
  let database;
  try {
    database = openDatabase({ path: flags.db ?? defaultDatabasePath() });
  } catch (error) {
    if (error instanceof LedgerFileError) throw new UsageError(`spades import-ledger: ${error.message}`);
    throw error;
  }
  try {
    const report = importLedger(database, text);
    if (!report.ok) {
      const bad = report.firstBad!;
      io.stdout(`nothing imported: position ${bad.position} does not verify: ${bad.reason}\n`);
      return 1;
    }
    io.stdout(`imported ${report.count} events into ${database.path}\nhead ${formatDigest(report.head)}\n`);
    return 0;
  } catch (error) {
    if (error instanceof LedgerImportError) throw new UsageError(`spades import-ledger: ${source}: ${error.message}`);
    throw error;
  } finally {
    database.close();
  }
}

/**
 * `spades import-ledger FILE|- [--db FILE|postgres://…]` reads an NDJSON ledger (what `spades
 * export` writes) into an empty SQLite file or PostgreSQL database (`ledger-target.ts`), and keeps
 * it only if its hash chain verifies: exit 1 naming the first bad position otherwise, with
 * nothing written.
 */
import { readFileSync, existsSync } from 'node:fs';
import { type CliIo, UsageError } from './io.ts';
import { ledgerTarget, withPostgresLedger } from './ledger-target.ts';
import { LedgerFileError, defaultDatabasePath, openDatabase } from '../../events/store/sqlite/database.ts';
import { type ImportNote, LedgerImportError, importLedger } from '../../events/ledger-file.ts';
import { createHash } from 'node:crypto';
import { userInfo } from 'node:os';
import { importPostgresLedger } from '../../events/store/postgres/ledger-tools.ts';
import { type ChainReport, formatDigest } from '../../events/hash-chain.ts';
import { replayProblem } from '../commands/replay-check.ts';

function importIntoFile(path: string | undefined, text: string, note: ImportNote): { name: string; report: ChainReport } {
  let database;
  try {
    database = openDatabase({ path: path ?? defaultDatabasePath() });
  } catch (error) {
    if (error instanceof LedgerFileError) throw new UsageError(`spades import-ledger: ${error.message}`);
    throw error;
  }
  try {
    return { name: database.path, report: importLedger(database, text, replayProblem, note) };
  } finally {
    database.close();
  }
}

export async function run({ values, positionals, usage }: { values: { db?: string }; positionals: string[]; usage: string }, io: CliIo): Promise<number> {
  if (positionals.length !== 1) throw new UsageError(`spades import-ledger: ${usage}`);
  const source = positionals[0]!;
  const target = ledgerTarget('import-ledger', values.db);
  if (source !== '-' && !existsSync(source)) throw new UsageError(`spades import-ledger: no file at ${source}`);
  const text = source === '-' ? await io.stdin() : readFileSync(source, 'utf8');
  // Kept beside the ledger, so an auditor sees which positions came in by import, from what.
  const note: ImportNote = { by: importer(), source, digest: createHash('sha256').update(text).digest('hex'), at: new Date().toISOString() };
  try {
    const { name, report } = target.kind === 'postgres'
      ? await withPostgresLedger('import-ledger', target, { existing: false }, async (store) => ({ name: target.name, report: await importPostgresLedger(store, text, target.name, replayProblem, note) }))
      : importIntoFile(target.path, text, note);
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

/** The machine account running the import. */
function importer(): string {
  try {
    return userInfo().username || 'unknown';
  } catch {
    return 'unknown';
  }
}

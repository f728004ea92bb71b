/**
 * `spades import-ledger FILE|- [--db FILE|postgres://…] [--prefix]` reads an NDJSON ledger (what
 * `spades export` writes) into an empty SQLite file or PostgreSQL database (`ledger-target.ts`),
 * and keeps it only if it is whole (its header and trailer lines agree with the events it holds)
 * and its hash chain verifies: otherwise exit 1 naming the first bad position, or 2 naming what
 * is wrong with the file, with nothing written. `--prefix` takes the events of a backup that is
 * not whole (cut short, or from before exports had a trailer) on purpose, as the start of a ledger.
 *
 * A new ledger file is written beside its place and moved there only once it is complete, so an
 * import refused or killed midway leaves no ledger behind; on PostgreSQL the rows go in one
 * transaction.
 */
import { closeSync, existsSync, fsyncSync, linkSync, openSync, readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { type CliIo, UsageError } from './io.ts';
import { ledgerTarget, withPostgresLedger } from './ledger-target.ts';
import { LedgerFileError, defaultDatabasePath, openDatabase } from '../../events/store/sqlite/database.ts';
import { type Backup, type ImportNote, LedgerImportError, readBackup } from '../../events/store/ledger-file.ts';
import { importLedger } from '../../events/store/sqlite/ledger-tools.ts';
import { createHash } from 'node:crypto';
import { userInfo } from 'node:os';
import { importPostgresLedger } from '../../events/store/postgres/ledger-tools.ts';
import { type ChainReport, formatDigest } from '../../events/hash-chain.ts';
import { replayProblem } from '../commands/replay-check.ts';
import { buildingPath, removeAbandonedBuilds, removeFile } from './import-builds.ts';

function openFile(path: string) {
  try {
    return openDatabase({ path });
  } catch (error) {
    if (error instanceof LedgerFileError) throw new UsageError(`spades import-ledger: ${error.message}`);
    throw error;
  }
}

/** Imports into a file that is already there, in one transaction (nothing is kept unless all is). */
function importInPlace(path: string, backup: Backup, note: ImportNote): ChainReport {
  const database = openFile(path);
  try {
    return importLedger(database, backup, replayProblem, note);
  } finally {
    database.close();
  }
}

/**
 * Imports into a new file: built beside `path` and linked there only when the import is complete
 * and verified (a link, unlike a rename, never replaces a file another process made meanwhile).
 * A refused import removes what it built; a killed one leaves only the build, which the next
 * import into `path`, or the next server started on it, removes.
 */
function importAsNewFile(path: string, backup: Backup, note: ImportNote): ChainReport {
  const building = buildingPath(path, process.pid);
  removeFile(building);
  try {
    const database = openFile(building);
    let report: ChainReport;
    try {
      report = importLedger(database, backup, replayProblem, note);
    } finally {
      // Closing the last connection folds the WAL into the file and removes it, so the file alone is the ledger.
      database.close();
    }
    if (!report.ok) return report;
    try {
      linkSync(building, path);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EEXIST')
        throw new UsageError(`spades import-ledger: ${path} was created by another process while the import ran; nothing was imported into it`);
      throw error;
    }
    syncDirectory(dirname(path));
    return report;
  } finally {
    removeFile(building);
  }
}

/** Makes the new name durable: a power cut after the import answered still finds the file. */
function syncDirectory(dir: string): void {
  let fd: number | undefined;
  try {
    fd = openSync(dir, 'r');
    fsyncSync(fd);
  } catch {
    // Not every file system lets a directory be synced; the file's own contents were synced by SQLite.
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

function importIntoFile(given: string | undefined, backup: Backup, note: ImportNote): { name: string; report: ChainReport } {
  const path = given ?? defaultDatabasePath();
  // Whatever killed imports into this file left beside it goes first, whether the file is there yet or not.
  removeAbandonedBuilds(path);
  const report = existsSync(path) ? importInPlace(path, backup, note) : importAsNewFile(path, backup, note);
  return { name: path, report };
}

/** What an import taken as a prefix says of the ledger it is the start of. */
function prefixLines(backup: Backup, imported: number): string[] {
  const lines: string[] = [];
  if (backup.header) lines.push(`a prefix: ${imported} of the ${backup.header.events} events the backup's header announces`);
  else lines.push(`a prefix: the backup has no header or trailer to say how many events the ledger held`);
  if (backup.cutLine !== null) lines.push(`line ${backup.cutLine}, cut midway, was left out`);
  return lines;
}

export async function run(
  { values, positionals, usage }: { values: { db?: string; prefix?: boolean }; positionals: string[]; usage: string },
  io: CliIo,
): Promise<number> {
  if (positionals.length !== 1) throw new UsageError(`spades import-ledger: ${usage}`);
  const source = positionals[0]!;
  const target = ledgerTarget('import-ledger', values.db);
  if (source !== '-' && !existsSync(source)) throw new UsageError(`spades import-ledger: no file at ${source}`);
  const text = source === '-' ? await io.stdin() : readFileSync(source, 'utf8');
  // Kept beside the ledger, so an auditor sees which positions came in by import, from what.
  const note: ImportNote = { by: importer(), source, digest: createHash('sha256').update(text).digest('hex'), at: new Date().toISOString() };
  try {
    // Whether the file is whole is known before any ledger is opened or made.
    const backup = readBackup(text, { prefix: values.prefix === true });
    const { name, report } =
      target.kind === 'postgres'
        ? await withPostgresLedger('import-ledger', target, { existing: false }, async (store) => ({
            name: target.name,
            report: await importPostgresLedger(store, backup, target.name, replayProblem, note),
          }))
        : importIntoFile(target.path, backup, note);
    if (!report.ok) {
      const bad = report.firstBad!;
      io.stdout(`nothing imported: position ${bad.position} does not verify: ${bad.reason}\n`);
      return 1;
    }
    const lines = [`imported ${report.count} events into ${name}`, `head ${formatDigest(report.head)}`];
    if (backup.prefix) lines.push(...prefixLines(backup, report.count));
    io.stdout(`${lines.join('\n')}\n`);
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

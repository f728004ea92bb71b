/**
 * `spades rebuild [--db FILE] [--force]`: throws the stored read models away and folds the whole
 * ledger again from position 0, with a progress bar on stderr. The ledger itself is only read.
 * A chain that does not verify is refused (models folded from tampered events would look
 * trustworthy) unless `--force` says to fold it all the same.
 */
import { existsSync } from 'node:fs';
import { defaultDatabasePath } from '../../events/store/sqlite/database.ts';
import { verifyChain } from '../../events/store/sqlite/event-store.ts';
import { LedgerReadError } from '../../events/store/served-ledger.ts';
import { openLedger } from '../../events/store/sqlite/ledger.ts';
import { rebuildModels } from '../../events/store/sqlite/ledger-tools.ts';
import { type CliIo, UsageError } from './io.ts';
import { openLedgerForReading } from './ledger-target.ts';

/** A one-line progress bar redrawn in place: `[#####.....] 52% 81,000/156,000 events`. */
export function progressBar(done: number, total: number, width = 30): string {
  const share = total === 0 ? 1 : Math.min(1, done / total);
  const filled = Math.round(share * width);
  return `[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${Math.floor(share * 100)}% ${done.toLocaleString('en-US')}/${total.toLocaleString('en-US')} events`;
}

export async function run({ values }: { values: { db?: string; force?: boolean } }, io: CliIo): Promise<number> {
  const force = values.force === true;
  const path = values.db ?? defaultDatabasePath();
  if (!existsSync(path)) throw new UsageError(`spades rebuild: no ledger at ${path}`);
  if (!force) {
    const database = openLedgerForReading('rebuild', path);
    try {
      const report = verifyChain(database);
      if (!report.ok) {
        const bad = report.firstBad!;
        throw new UsageError(
          `spades rebuild: ${path}: the chain does not verify at position ${bad.position} (${bad.reason}); nothing was rebuilt (--force folds it all the same)`,
        );
      }
    } finally {
      database.close();
    }
  }
  const started = process.hrtime.bigint();
  let drawn = false;
  const progress = (done: number, total: number) => {
    drawn = true;
    io.stderr(`\r${progressBar(done, total)}`);
  };
  try {
    return rebuild(path, started, progress, io);
  } catch (error) {
    if (!(error instanceof LedgerReadError)) throw error;
    // The refusal goes on a line of its own, below the bar drawn so far.
    if (drawn) io.stderr('\n');
    throw new UsageError(`spades rebuild: ${path}: ${error.message}`);
  }
}

function rebuild(path: string, started: bigint, progress: (done: number, total: number) => void, io: CliIo): number {
  // Opening folds from the last snapshot; the rebuild below starts again from nothing.
  const ledger = openLedger({ path });
  try {
    const models = rebuildModels(ledger.database, ledger.store, progress);
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    io.stderr('\n');
    const games = Object.keys(models.games).length;
    const tournaments = Object.keys(models.tournaments).length;
    io.stdout(`rebuilt read models from ${models.position} events (${tournaments} tournaments, ${games} games) in ${seconds.toFixed(2)} s\n`);
    return 0;
  } finally {
    // Closing the ledger would store the models it opened with over the ones just rebuilt.
    ledger.database.close();
  }
}

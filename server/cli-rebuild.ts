/**
 * `spades rebuild [--db FILE]`: throws the stored read models away and folds the whole ledger
 * again from position 0, with a progress bar on stderr. The ledger itself is only read.
 */
import { existsSync } from 'node:fs';
import { defaultDatabasePath } from '../events/database.ts';
import { openLedger, rebuildModels } from '../events/ledger.ts';
import { type CliIo, UsageError } from './cli.ts';
import { parseFlags } from './cli-verify.ts';

/** A one-line progress bar redrawn in place: `[#####.....] 52% 81,000/156,000 events`. */
export function progressBar(done: number, total: number, width = 30): string {
  const share = total === 0 ? 1 : Math.min(1, done / total);
  const filled = Math.round(share * width);
  return `[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${Math.floor(share * 100)}% ${done.toLocaleString('en-US')}/${total.toLocaleString('en-US')} events`;
}

export async function run(args: string[], io: CliIo): Promise<number> {
  const { flags, positional } = parseFlags('rebuild', args, ['db']);
  if (positional.length > 0) throw new UsageError(`spades rebuild: unexpected argument '${positional[0]}'; usage: spades rebuild [--db FILE]`);
  const path = flags.db ?? defaultDatabasePath();
  if (!existsSync(path)) throw new UsageError(`spades rebuild: no ledger at ${path}`);
  const started = process.hrtime.bigint();
  // Opening folds from the last snapshot; the rebuild below starts again from nothing.
  const ledger = openLedger({ path });
  try {
    const models = rebuildModels(ledger.database, ledger.store, (done, total) => io.stderr(`\r${progressBar(done, total)}`));
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    io.stderr('\n');
    const games = Object.keys(models.games).length;
    const tournaments = Object.keys(models.tournaments).length;
    io.stdout(`rebuilt read models from ${models.position} events (${tournaments} tournaments, ${games} games) in ${seconds.toFixed(2)} s\n`);
    return 0;
  } finally {
    ledger.close();
  }
}

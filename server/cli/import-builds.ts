/**
 * The files an import of a whole ledger builds beside the ledger file (`spades.db.import-<pid>`),
 * and clearing those a killed import left: each import into a file, and each server started on
 * one, clears them first, so they never outlive the next start in that folder.
 */
import { readdirSync, rmSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

/** The files SQLite keeps beside a database while it is open. */
const COMPANIONS = ['', '-wal', '-shm', '-journal'];

/** Where a new ledger file is built before it is moved to `path`: beside it, so the move is a rename on one disk. */
export const buildingPath = (path: string, pid: number) => `${path}.import-${pid}`;

export function removeFile(path: string): void {
  for (const suffix of COMPANIONS) rmSync(`${path}${suffix}`, { force: true });
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Removes what imports into `path` killed before they finished left beside it: each build whose
 * process is gone, with SQLite's companions. A build whose process still runs is left alone.
 */
export function removeAbandonedBuilds(path: string): void {
  const pattern = new RegExp(`^${basename(path).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\.import-(\\d+)(?:-wal|-shm|-journal)?$`);
  let names: string[];
  try {
    names = readdirSync(dirname(path));
  } catch {
    return;
  }
  for (const name of names) {
    const pid = Number(pattern.exec(name)?.[1] ?? NaN);
    if (Number.isSafeInteger(pid) && pid !== process.pid && !processAlive(pid)) removeFile(buildingPath(join(dirname(path), basename(path)), pid));
  }
}

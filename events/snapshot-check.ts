/**
 * Whether the stored read-model snapshots say what the chain says. A snapshot is trusted at start
 * when its digest and the chain hash it names still match, and both are plain SHA-256 over what
 * the file holds: someone who can write the file can recompute them. So an audit folds the chain
 * again from nothing up to each snapshot's position and compares the result with what is stored.
 */
import { isDeepStrictEqual } from 'node:util';
import { type SnapshotReport, firstDifference } from './snapshot-difference.ts';

export type { SnapshotReport };
import type { LedgerDatabase } from './store/sqlite/database.ts';
import { domainEvents } from './domain-events.ts';
import { type EventStore, createEventStore } from './store/sqlite/event-store.ts';
import { MODELS_VERSION, pageFolder } from './store/sqlite/ledger.ts';
import { emptyModels } from './projections.ts';


/** Every stored snapshot, checked against the chain folded again up to its position. */
export function checkSnapshots(database: LedgerDatabase, onProgress?: (done: number, total: number) => void): SnapshotReport[] {
  let rows: { name: string; position: number; state: string }[];
  try {
    rows = database.sqlite.prepare('SELECT name, position, state FROM read_models ORDER BY position').all() as typeof rows;
  } catch {
    return [];
  }
  const store = createEventStore(database, { registry: domainEvents }) as unknown as EventStore;
  const fold = pageFolder(store);
  const models = emptyModels();
  return rows.map((row) => {
    const inUse = row.name === MODELS_VERSION;
    const report = { name: row.name, position: row.position, inUse };
    // Older shapes are not what this program folds to; they are only named.
    if (!inUse) return { ...report, ok: true };
    while (models.position < row.position && fold(models, row.position, 5000) > 0) onProgress?.(models.position, row.position);
    if (models.position !== row.position) return { ...report, ok: false, difference: `it stands at position ${row.position}, past the ledger's head ${models.position}` };
    let stored: unknown;
    try {
      stored = JSON.parse(row.state);
    } catch {
      return { ...report, ok: false, difference: 'it is not JSON' };
    }
    const folded = JSON.parse(JSON.stringify(models)) as unknown;
    if (isDeepStrictEqual(stored, folded)) return { ...report, ok: true };
    return { ...report, ok: false, difference: firstDifference(folded, stored, '') ?? 'its contents' };
  });
}

/**
 * The SQLite file's stored read models, twin of ../postgres/snapshots.ts: written with the
 * position and hash they stand at and a digest of their bytes, so a restart folds only what came
 * after them, and loaded only when both still match.
 *
 * Whether the stored snapshots say what the chain says: a snapshot is trusted at start when its
 * digest and the chain hash it names still match, and both are plain SHA-256 over what the file
 * holds: someone who can write the file can recompute them. So an audit folds the chain again
 * from nothing up to each snapshot's position and compares the result with what is stored.
 */
import { isDeepStrictEqual } from 'node:util';
import { domainEvents } from '../../event-catalogue.ts';
import { GENESIS_HASH } from '../../hash-chain.ts';
import { type ReadModels, emptyModels } from '../../projections.ts';
import { type SnapshotReport, firstDifference } from '../../snapshot-difference.ts';
import { MODELS_VERSION, modelsBytes, snapshotDigest as digestOf } from '../served-ledger.ts';
import type { LedgerDatabase } from './database.ts';
import { type EventStore, createEventStore, ledgerHead } from './event-store.ts';
import { pageFolder } from './page-fold.ts';

export type { SnapshotReport };

const SNAPSHOT_SCHEMA = `
CREATE TABLE IF NOT EXISTS read_models (
  name TEXT PRIMARY KEY,
  position INTEGER NOT NULL,
  state TEXT NOT NULL
) STRICT;
`;

/** Makes the snapshots' table, or adds the columns an older file's lacks; run it under the file's write lock. */
export function createSnapshotTable(database: LedgerDatabase): void {
  database.sqlite.exec(SNAPSHOT_SCHEMA);
  addSnapshotColumns(database);
}

// Older files have a read_models table without the chain binding; the columns are added in place.
function addSnapshotColumns(database: LedgerDatabase): void {
  const columns = new Set(database.sqlite.prepare("SELECT name FROM pragma_table_info('read_models')").pluck().all() as string[]);
  if (!columns.has('hash')) database.sqlite.exec("ALTER TABLE read_models ADD COLUMN hash TEXT NOT NULL DEFAULT ''");
  if (!columns.has('digest')) database.sqlite.exec("ALTER TABLE read_models ADD COLUMN digest TEXT NOT NULL DEFAULT ''");
}

function hashAt(database: LedgerDatabase, position: number): string | null {
  if (position === 0) return GENESIS_HASH;
  const row = database.sqlite.prepare<[number], { hash: string }>('SELECT hash FROM events WHERE position = ?').get(position);
  return row?.hash ?? null;
}

/**
 * The stored read models, if they can be trusted: the snapshot names the position and the hash
 * of the event it was folded to, and a digest of its own bytes. A snapshot whose bytes were
 * changed, or that stands on a chain the file no longer holds, is refused with the reason.
 */
export function loadSnapshot(database: LedgerDatabase): { models: ReadModels | null; rejected?: string } {
  let row: { position: number; state: string; hash: string; digest: string } | undefined;
  try {
    row = database.sqlite.prepare('SELECT position, state, hash, digest FROM read_models WHERE name = ?').get(MODELS_VERSION) as typeof row;
  } catch {
    return { models: null };
  }
  if (!row) return { models: null };
  const where = `the snapshot at position ${row.position}`;
  if (typeof row.state !== 'string' || digestOf(row.state) !== row.digest)
    return { models: null, rejected: `${where} does not match its digest (it was changed after it was written)` };
  const hash = hashAt(database, row.position);
  if (hash === null) return { models: null, rejected: `${where} stands past the ledger's head ${ledgerHead(database).position}` };
  if (hash !== row.hash)
    return {
      models: null,
      rejected: `${where} was folded from another chain (the event there now has hash ${hash.slice(0, 12)}…, not ${String(row.hash).slice(0, 12)}…)`,
    };
  let models: ReadModels;
  try {
    models = JSON.parse(row.state) as ReadModels;
  } catch {
    return { models: null, rejected: `${where} is not JSON` };
  }
  if (typeof models !== 'object' || models === null || models.position !== row.position || typeof models.streams !== 'object') {
    return { models: null, rejected: `${where} does not hold read models at that position` };
  }
  return { models };
}

/** Writes the models, the position and hash they stand at, and a digest of their bytes, in one statement. */
export function writeSnapshot(database: LedgerDatabase, models: ReadModels): void {
  // Encoded once: the digest is of these bytes, and SQLite stores them as the text they are.
  const state = modelsBytes(models);
  const hash = hashAt(database, models.position) ?? '';
  database.sqlite
    .prepare(
      'INSERT INTO read_models (name, position, state, hash, digest) VALUES (?, ?, CAST(? AS TEXT), ?, ?) ON CONFLICT(name) DO UPDATE SET position = excluded.position, state = excluded.state, hash = excluded.hash, digest = excluded.digest',
    )
    .run(MODELS_VERSION, models.position, state, hash, digestOf(state));
}

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
    if (models.position !== row.position)
      return { ...report, ok: false, difference: `it stands at position ${row.position}, past the ledger's head ${models.position}` };
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

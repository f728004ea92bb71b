/**
 * Read models stored beside the events in PostgreSQL, as the SQLite file stores them: the models'
 * JSON, the position and hash of the event they were folded to, and a digest of their own bytes.
 * A process starting folds only what came after the stored position. A snapshot whose bytes were
 * changed, or that stands on a chain the database no longer holds, is refused with the reason and
 * the models are folded from the start. Any process may store one; a snapshot never replaces one
 * further along.
 */
import { sql } from 'kysely';
import { type ReadModels, applyEvent, emptyModels } from '../../projections.ts';
import { type SnapshotReport, firstDifference } from '../../snapshot-difference.ts';
import { MODELS_VERSION, projected, snapshotDigest } from '../served-ledger.ts';
import { GENESIS_HASH } from '../../hash-chain.ts';
import type { PgEventStore } from './event-store.ts';

// Two processes creating the table at the same moment: the second waits for this lock.
const SNAPSHOT_SCHEMA_LOCK = 0x5_ba_de_7;

const ready = new WeakMap<PgEventStore, Promise<void>>();

/** Creates the snapshot table where it is missing (once per store). */
function snapshotTable(store: PgEventStore): Promise<void> {
  let made = ready.get(store);
  if (!made) {
    made = store.kysely.transaction().execute(async (trx) => {
      await sql`SELECT pg_advisory_xact_lock(${SNAPSHOT_SCHEMA_LOCK})`.execute(trx);
      await sql`CREATE TABLE IF NOT EXISTS read_models (name text PRIMARY KEY, position bigint NOT NULL, state text NOT NULL, hash text NOT NULL, digest text NOT NULL)`.execute(
        trx,
      );
    });
    made.catch(() => ready.delete(store));
    ready.set(store, made);
  }
  return made;
}

async function hashAt(store: PgEventStore, position: number): Promise<string | null> {
  if (position === 0) return GENESIS_HASH;
  const { rows } = await sql<{ hash: string }>`SELECT hash FROM events WHERE position = ${position}`.execute(store.kysely);
  return rows[0]?.hash ?? null;
}

/** The stored read models, if they can be trusted; otherwise null, with why when one was there. */
export async function loadPgSnapshot(store: PgEventStore): Promise<{ models: ReadModels | null; rejected?: string }> {
  await snapshotTable(store);
  const { rows } = await sql<{ position: string; state: string; hash: string; digest: string }>`
    SELECT position, state, hash, digest FROM read_models WHERE name = ${MODELS_VERSION}`.execute(store.kysely);
  const row = rows[0];
  if (!row) return { models: null };
  const position = Number(row.position);
  const where = `the snapshot at position ${position}`;
  if (snapshotDigest(row.state) !== row.digest) return { models: null, rejected: `${where} does not match its digest (it was changed after it was written)` };
  const hash = await hashAt(store, position);
  if (hash === null) return { models: null, rejected: `${where} stands past the ledger's head ${(await store.head()).position}` };
  if (hash !== row.hash)
    return {
      models: null,
      rejected: `${where} was folded from another chain (the event there now has hash ${hash.slice(0, 12)}…, not ${row.hash.slice(0, 12)}…)`,
    };
  let models: ReadModels;
  try {
    models = JSON.parse(row.state) as ReadModels;
  } catch {
    return { models: null, rejected: `${where} is not JSON` };
  }
  if (typeof models !== 'object' || models === null || models.position !== position || typeof models.streams !== 'object') {
    return { models: null, rejected: `${where} does not hold read models at that position` };
  }
  return { models };
}

/** Stores the models with the position and hash they stand at, unless a snapshot further along is stored. */
export async function storePgSnapshot(store: PgEventStore, models: ReadModels): Promise<void> {
  // Taken before any await, so the bytes are the models at one position however they move on.
  const state = JSON.stringify(models);
  const position = models.position;
  await snapshotTable(store);
  const hash = (await hashAt(store, position)) ?? '';
  await sql`
    INSERT INTO read_models (name, position, state, hash, digest) VALUES (${MODELS_VERSION}, ${position}, ${state}, ${hash}, ${snapshotDigest(state)})
    ON CONFLICT (name) DO UPDATE SET position = excluded.position, state = excluded.state, hash = excluded.hash, digest = excluded.digest
      WHERE read_models.position <= excluded.position`.execute(store.kysely);
}

/**
 * Every snapshot stored in the database, checked against the chain folded again from nothing up
 * to its position: its digest and chain hash can be recomputed by whoever can write the
 * database, so an audit compares what it holds with what the chain says.
 */
export async function checkPgSnapshots(store: PgEventStore): Promise<SnapshotReport[]> {
  const { rows: present } = await sql<{ found: string | null }>`SELECT to_regclass('read_models')::text AS found`.execute(store.kysely);
  if (!present[0]?.found) return [];
  const { rows } = await sql<{ name: string; position: string; state: string }>`SELECT name, position, state FROM read_models ORDER BY position`.execute(
    store.kysely,
  );
  const models = emptyModels();
  const reports: SnapshotReport[] = [];
  for (const row of rows) {
    const position = Number(row.position);
    const report = { name: row.name, position, inUse: row.name === MODELS_VERSION };
    // Older shapes are not what this program folds to; they are only named.
    if (!report.inUse) {
      reports.push({ ...report, ok: true });
      continue;
    }
    while (models.position < position) {
      const events = await store.readAll({ after: models.position, limit: Math.min(5000, position - models.position) });
      if (events.length === 0) break;
      for (const event of events) applyEvent(models, projected(event));
    }
    if (models.position !== position) {
      reports.push({ ...report, ok: false, difference: `it stands at position ${position}, past the ledger's head ${models.position}` });
      continue;
    }
    let stored: unknown;
    try {
      stored = JSON.parse(row.state);
    } catch {
      reports.push({ ...report, ok: false, difference: 'it is not JSON' });
      continue;
    }
    const folded = JSON.parse(JSON.stringify(models)) as unknown;
    const difference = firstDifference(folded, stored, '');
    reports.push(difference === null ? { ...report, ok: true } : { ...report, ok: false, difference });
  }
  return reports;
}

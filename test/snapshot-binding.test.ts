/**
 * The stored read models are bound to the chain: a snapshot names the position and hash it was
 * folded to and carries a digest of its own bytes. Any edit of the stored row is found when the
 * ledger opens, said in one line, and the models are folded again from the events, so what the
 * screens show always equals a rebuild.
 */
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MODELS_VERSION, snapshotDigest } from '../events/store/served-ledger.ts';
import { openLedger } from '../events/store/sqlite/ledger.ts';
import { projected } from '../events/store/served-ledger.ts';
import { rebuildModels } from '../events/store/sqlite/ledger-tools.ts';
import { type ReadModels, foldEvents } from '../events/projections.ts';
import { playTournament } from './fixtures/audit-ledger.ts';

let dir: string;
let played: string;
let rebuilt: ReadModels;

const plain = (models: ReadModels) => JSON.parse(JSON.stringify(models)) as unknown;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'spades-snapshot-'));
  played = join(dir, 'played.db');
  const ledger = openLedger({ path: played, synchronous: 'NORMAL', snapshotEvery: 100_000 });
  await playTournament(ledger, { stopAt: 700 });
  ledger.close();
  const again = openLedger({ path: played, onNotice: () => {} });
  rebuilt = plain(rebuildModels(again.database, again.store)) as ReadModels;
  again.database.close();
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let copies = 0;
function copyOfPlayed(): string {
  const path = join(dir, `copy-${copies++}.db`);
  copyFileSync(played, path);
  return path;
}

function openNoting(path: string): { models: ReadModels; notices: string[] } {
  const notices: string[] = [];
  const ledger = openLedger({ path, onNotice: (line) => notices.push(line) });
  const models = structuredClone(ledger.models);
  ledger.database.close();
  return { models, notices };
}

type Edit =
  | { column: 'state'; at: number; text: string }
  | { column: 'points'; team: number; points: number }
  | { column: 'position'; delta: number }
  | { column: 'hash' | 'digest'; hex: string };

const edits: fc.Arbitrary<Edit> = fc.oneof(
  fc.record({ column: fc.constant('state' as const), at: fc.nat(), text: fc.string({ minLength: 1, maxLength: 6 }) }),
  fc.record({ column: fc.constant('points' as const), team: fc.nat(), points: fc.integer({ min: -500, max: 9999 }) }),
  fc.record({ column: fc.constant('position' as const), delta: fc.integer({ min: -50, max: 50 }).filter((d) => d !== 0) }),
  fc.record({ column: fc.constantFrom('hash' as const, 'digest' as const), hex: fc.stringMatching(/^[0-9a-f]{64}$/) }),
);

/** Applies an edit to the stored snapshot; says whether the row's bytes changed. */
function applyEdit(path: string, edit: Edit): boolean {
  const db = new BetterSqlite3(path);
  try {
    const row = db.prepare("SELECT name, position, state, hash, digest FROM read_models WHERE name LIKE 'models-%'").get() as {
      name: string;
      position: number;
      state: string;
      hash: string;
      digest: string;
    };
    let { position, state, hash, digest } = row;
    switch (edit.column) {
      case 'state': {
        const at = edit.at % state.length;
        state = state.slice(0, at) + edit.text + state.slice(at + edit.text.length);
        break;
      }
      case 'points': {
        // The edit an insider would make: a team's points on the screens, the JSON still valid.
        const models = JSON.parse(state) as ReadModels;
        const tournament = Object.values(models.tournaments)[0]!;
        const rows = tournament.model.teams;
        rows[edit.team % rows.length]!.points = edit.points;
        state = JSON.stringify(models);
        break;
      }
      case 'position':
        position = Math.max(0, position + edit.delta);
        break;
      case 'hash':
        hash = edit.hex;
        break;
      case 'digest':
        digest = edit.hex;
        break;
      default: {
        const _exhaustive: never = edit;
        return _exhaustive;
      }
    }
    db.prepare('UPDATE read_models SET position = ?, state = ?, hash = ?, digest = ? WHERE name = ?').run(position, state, hash, digest, row.name);
    return position !== row.position || state !== row.state || hash !== row.hash || digest !== row.digest;
  } finally {
    db.close();
  }
}

describe('a read-model snapshot', () => {
  it("holds each stream's version as the live fold does, event by event", () => {
    const ledger = openLedger({ path: copyOfPlayed(), onNotice: () => {} });
    const live = plain(foldEvents(ledger.store.readAll().map(projected))) as ReadModels;
    ledger.database.close();
    expect(Object.keys(rebuilt.streams).length).toBeGreaterThan(3);
    expect(rebuilt.streams).toEqual(live.streams);
    expect(rebuilt).toEqual(live);
  });

  it('is used as stored when untouched: no notice, and the models equal a rebuild', () => {
    const { models, notices } = openNoting(copyOfPlayed());
    expect(notices).toEqual([]);
    expect(plain(models)).toEqual(rebuilt);
  });

  it('edited in any way is found at open, in one line, and the models are folded again to equal a rebuild', () => {
    fc.assert(
      fc.property(edits, (edit) => {
        const path = copyOfPlayed();
        const changed = applyEdit(path, edit);
        const { models, notices } = openNoting(path);
        expect(notices).toHaveLength(changed ? 1 : 0);
        if (changed) expect(notices[0]).toMatch(/^read models: the snapshot at position \d+ .+; folding them again from the ledger$/);
        expect(plain(models)).toEqual(rebuilt);
        rmSync(path);
      }),
      { numRuns: 60 },
    );
  });

  it('standing on events the file no longer holds is refused', () => {
    const path = copyOfPlayed();
    const db = new BetterSqlite3(path);
    // The snapshot claims a position past the head, as if events had been cut off the end.
    const row = db.prepare("SELECT position, state FROM read_models WHERE name LIKE 'models-%'").get() as { position: number; state: string };
    db.prepare('UPDATE read_models SET position = ?').run(row.position + 10);
    db.close();
    const { models, notices } = openNoting(path);
    expect(notices).toEqual([expect.stringMatching(/stands past the ledger's head/)]);
    expect(plain(models)).toEqual(rebuilt);
  });

  it('closed twice, by a command and then by its caller, stores the models once and reports nothing', () => {
    const path = copyOfPlayed();
    const notices: string[] = [];
    const ledger = openLedger({ path, onNotice: (line) => notices.push(line) });
    ledger.close();
    expect(() => ledger.close()).not.toThrow();
    expect(notices).toEqual([]);
    expect(openNoting(path)).toEqual({ models: rebuilt, notices: [] });
  });

  it('written for an older shape of the models is not trusted, but folded again from the ledger, without a notice', () => {
    const path = copyOfPlayed();
    const db = new BetterSqlite3(path);
    const row = db.prepare('SELECT position, state, hash FROM read_models WHERE name = ?').get(MODELS_VERSION) as {
      position: number;
      state: string;
      hash: string;
    };
    // As the models were stored before the fold stopped filling in what older shapes lacked.
    const old = JSON.parse(row.state) as { tournaments: Record<string, Record<string, unknown>> };
    expect(Object.keys(old.tournaments).length).toBeGreaterThan(0);
    for (const tournament of Object.values(old.tournaments))
      for (const field of ['roundDraws', 'lateClaims', 'voided', 'causes', 'reopened']) delete tournament[field];
    const state = JSON.stringify(old);
    db.prepare('DELETE FROM read_models').run();
    db.prepare('INSERT INTO read_models (name, position, state, hash, digest) VALUES (?, ?, ?, ?, ?)').run(
      'models-11',
      row.position,
      state,
      row.hash,
      snapshotDigest(state),
    );
    db.close();
    expect(openNoting(path)).toEqual({ models: rebuilt, notices: [] });
  });
});

/**
 * The snapshot's bytes are written game by game and tournament by tournament, and must be
 * exactly the UTF-8 of the models' JSON text: that is what the digest covers and what a later
 * start parses back.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ReadModels } from '../events/projections.ts';
import { modelsBytes } from '../events/store/served-ledger.ts';
import { openLedger } from '../events/store/sqlite/ledger.ts';
import { playTournament } from './fixtures/audit-ledger.ts';

const text = fc.string({ unit: fc.constantFrom('a', 'Z', '"', '\\', '\n', 'é', '–', '😀', '\ud800', '\u0000') });
const entries = fc.dictionary(text, fc.jsonValue());

const models: fc.Arbitrary<ReadModels> = fc.record({
  position: fc.nat(),
  games: entries,
  tournaments: entries,
  currentTournament: fc.option(text),
  screenDefault: fc.option(text),
  streams: fc.dictionary(text, fc.nat()),
}) as unknown as fc.Arbitrary<ReadModels>;

describe('the models as snapshot bytes', () => {
  it('are the UTF-8 of JSON.stringify, whatever the models hold', () => {
    fc.assert(
      fc.property(models, (m) => {
        expect(modelsBytes(m).toString('utf8')).toBe(JSON.stringify(m));
        expect(Buffer.compare(modelsBytes(m), Buffer.from(JSON.stringify(m), 'utf8'))).toBe(0);
      }),
      { numRuns: 300 },
    );
  });

  it('leave out what JSON leaves out, and write empty maps as {}', () => {
    const odd = {
      position: 3,
      games: {},
      tournaments: { t: undefined, u: { a: 1 } },
      currentTournament: null,
      screenDefault: undefined,
      streams: {},
    } as unknown as ReadModels;
    expect(modelsBytes(odd).toString('utf8')).toBe(JSON.stringify(odd));
    expect(modelsBytes({} as ReadModels).toString('utf8')).toBe('{}');
  });

  it('grow past the buffer already kept and still equal the text', () => {
    const small = { position: 1, games: { g: 'x' }, tournaments: {}, currentTournament: null, screenDefault: null, streams: {} } as unknown as ReadModels;
    expect(modelsBytes(small).toString('utf8')).toBe(JSON.stringify(small));
    const big = { ...small, games: Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`g${i}`, 'é–'.repeat(20_000)])) } as unknown as ReadModels;
    expect(modelsBytes(big).toString('utf8')).toBe(JSON.stringify(big));
  });

  it('are what a played ledger stores as its snapshot', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'spades-models-bytes-'));
    try {
      const path = join(dir, 'played.db');
      const ledger = openLedger({ path, synchronous: 'NORMAL', snapshotEvery: 100_000 });
      await playTournament(ledger, { stopAt: 400 });
      const expected = JSON.stringify(ledger.models);
      ledger.close();
      const db = new BetterSqlite3(path, { readonly: true });
      const stored = db.prepare('SELECT state FROM read_models').pluck().get() as string;
      db.close();
      expect(stored).toBe(expected);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

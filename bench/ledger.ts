/**
 * Ledger benchmark: appending one event per transaction beside a raw better-sqlite3 insert of the
 * same row into the same table, both on a temp file with synchronous=FULL, so the ratio shows
 * what the store adds (checks, canonical JSON, hashing, the version and head lookups) over the
 * fsync every commit pays anyway. Then batched appends, and verifying the chain.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { openDatabase } from '../events/store/sqlite/database.ts';
import { createEventStore, verifyChain } from '../events/store/sqlite/event-store.ts';
import { check, defineEvent, eventRegistry } from '../events/event-registry.ts';
import { canonicalJson } from '../events/hash-chain.ts';
import { type Benchmark, type Figure, measureRate, percentile, rateFigure, withGoal } from './harness.ts';

function ratePerSecond(units: number, work: () => void): number {
  const start = process.hrtime.bigint();
  work();
  return units / (Number(process.hrtime.bigint() - start) / 1e9);
}

// A payload the size of a real entry (a card played: game, hand, seat, card), shared with the PostgreSQL bench.
const CardPlayed = defineEvent({
  type: 'CardPlayed',
  version: 1,
  validate: check.object({
    gameId: check.text({ min: 1 }),
    hand: check.integer({ min: 1 }),
    seat: check.oneOf(['N', 'E', 'S', 'W']),
    card: check.text({ min: 2, max: 3 }),
  }),
});
export const registry = eventRegistry(CardPlayed);
export type BenchEvent = { type: 'CardPlayed'; payload: { gameId: string; hand: number; seat: 'N' | 'E' | 'S' | 'W'; card: string } };
export const event: BenchEvent = { type: 'CardPlayed', payload: { gameId: 'game-7', hand: 3, seat: 'N', card: '10H' } };

const SINGLE = 25;
const BATCH = 200;
const BATCHES = 5;

export const ledgerBench: Benchmark = {
  group: 'ledger',
  run(): Figure[] {
    const dir = mkdtempSync(join(tmpdir(), 'spades-ledger-bench-'));
    try {
      const raw = openDatabase({ path: join(dir, 'raw.db'), synchronous: 'FULL' });
      const ledger = openDatabase({ path: join(dir, 'ledger.db'), synchronous: 'FULL' });
      const store = createEventStore(ledger, { registry, clock: () => '2026-01-01T00:00:00.000Z' });

      const insert = raw.sqlite.prepare(
        'INSERT INTO events (position, stream, version, type, schema_version, payload, meta, command_id, prev_hash, hash) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
      );
      const payload = canonicalJson(event.payload);
      const meta = canonicalJson({ at: '2026-01-01T00:00:00.000Z' });
      const hash = 'ab'.repeat(32);
      let position = 0;
      const rawBatch = () => {
        for (let i = 0; i < SINGLE; i++) {
          position++;
          insert.run(position, 'game-7', position, 'CardPlayed', 1, payload, meta, null, hash, hash);
        }
      };
      const appendBatch = () => {
        for (let i = 0; i < SINGLE; i++) store.append('game-7', [event]);
      };
      // Interleaved, so both sides see the same disk: fsync times drift by the second on a
      // shared machine, and measuring one side after the other would put the drift in the ratio.
      const rawRates: number[] = [];
      const appendRates: number[] = [];
      rawBatch();
      appendBatch();
      const ratios: number[] = [];
      for (let i = 0; i < 21; i++) {
        rawRates.push(ratePerSecond(SINGLE, rawBatch));
        appendRates.push(ratePerSecond(SINGLE, appendBatch));
        ratios.push(appendRates[i]! / rawRates[i]!);
      }
      const rawInsert = rateFigure('raw better-sqlite3 insert of the same row, one per transaction', 'rows/s', rawRates);
      const single = rateFigure('append, one event per transaction (synchronous=FULL)', 'events/s', appendRates);
      // The ratio is the median of each pair's ratio rather than of the two medians: a pair ran
      // back to back, so a slow patch of the disk slows both sides of it alike.
      const ratio = percentile(ratios, 50);
      const appendFigure: Figure = {
        ...single,
        comparedTo: { name: rawInsert.name, ratio },
        goal: '>= 0.5 x raw insert',
        met: ratio >= 0.5,
      };

      const batch = Array.from({ length: BATCH }, () => event);
      const batched = measureRate(
        `append in batches of ${BATCH} events (synchronous=FULL)`,
        'events/s',
        BATCH * BATCHES,
        () => {
          for (let i = 0; i < BATCHES; i++) store.append('game-8', batch);
        },
        7,
      );

      const events = store.head().position;
      const verify = withGoal(
        measureRate(
          `verify the chain (${events} events)`,
          'events/s',
          events,
          () => {
            if (!verifyChain(ledger).ok) throw new Error('the benchmark ledger does not verify');
          },
          5,
        ),
        { atLeast: 50_000 },
      );
      raw.close();
      ledger.close();
      return [appendFigure, rawInsert, batched, verify];
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  },
};

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  for (const figure of await ledgerBench.run()) console.log(JSON.stringify(figure));
}

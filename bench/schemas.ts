/**
 * Payload schemas: the event catalogue's zod schemas checking every payload of a played ledger,
 * the three commonest shapes (a card, a bid, a deal) checked by zod and by valibot side by side
 * (the measurement zod was chosen on: the same throughput, and JSON Schema built in), and a
 * whole ledger imported with every row checked.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as v from 'valibot';
import { z } from 'zod';
import { openDatabase } from '../events/store/sqlite/database.ts';
import { domainEvents } from '../events/event-catalogue.ts';
import { exportLedger, importLedger } from '../events/store/sqlite/ledger-tools.ts';
import { openLedger } from '../events/store/sqlite/ledger.ts';
import { playTournament } from '../test/fixtures/audit-ledger.ts';
import { type Benchmark, comparedTo, measureRate } from './harness.ts';

const SEATS = ['N', 'E', 'S', 'W'] as const;
const zodShapes = {
  CardPlayed: z.strictObject({ gameId: z.string().min(1).max(120), hand: z.int().min(1), seat: z.enum(SEATS), card: z.string().min(2).max(3) }),
  BidMade: z.strictObject({
    gameId: z.string().min(1).max(120),
    hand: z.int().min(1),
    seat: z.enum(SEATS),
    bid: z.union([z.int().min(0).max(13), z.string().min(3).max(10)]),
  }),
  HandDealt: z.strictObject({
    gameId: z.string().min(1).max(120),
    hand: z.int().min(1),
    dealer: z.enum(SEATS),
    seed: z.string().min(1).max(200).optional(),
    deal: z.strictObject(Object.fromEntries(SEATS.map((s) => [s, z.array(z.string().min(2).max(3)).length(13)]))).optional(),
  }),
};
const text = (min: number, max: number) => v.pipe(v.string(), v.minLength(min), v.maxLength(max));
const whole = (min: number) => v.pipe(v.number(), v.integer(), v.minValue(min));
const valibotShapes = {
  CardPlayed: v.strictObject({ gameId: text(1, 120), hand: whole(1), seat: v.picklist(SEATS), card: text(2, 3) }),
  BidMade: v.strictObject({
    gameId: text(1, 120),
    hand: whole(1),
    seat: v.picklist(SEATS),
    bid: v.union([v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(13)), text(3, 10)]),
  }),
  HandDealt: v.strictObject({
    gameId: text(1, 120),
    hand: whole(1),
    dealer: v.picklist(SEATS),
    seed: v.optional(text(1, 200)),
    deal: v.optional(v.strictObject(Object.fromEntries(SEATS.map((s) => [s, v.pipe(v.array(text(2, 3)), v.length(13))])))),
  }),
};

export const schemasBench: Benchmark = {
  group: 'schemas',
  async run() {
    const dir = mkdtempSync(join(tmpdir(), 'spades-schemas-'));
    try {
      const ledger = openLedger({ path: join(dir, 'played.db'), synchronous: 'NORMAL' });
      await playTournament(ledger, { format: 'pitt-boss', teams: 8, renegeChance: 0.02, stopAt: 6000 });
      const events = ledger.store.readAll().map((e) => ({ type: e.type, payload: e.payload }));
      const ndjson = [...exportLedger(ledger.database)].join('');
      ledger.close();
      const common = events.filter((e): e is { type: keyof typeof zodShapes; payload: unknown } => e.type in zodShapes);

      const catalogue = measureRate(`payloads of a played ledger checked by the event catalogue (${events.length} events)`, 'events/s', events.length, () => {
        for (const e of events) domainEvents.validate(e.type, e.payload);
      });
      const byValibot = measureRate('cards, bids and deals checked by valibot', 'events/s', common.length, () => {
        for (const e of common) v.parse(valibotShapes[e.type] as v.GenericSchema, e.payload);
      });
      const byZod = comparedTo(
        measureRate('cards, bids and deals checked by zod', 'events/s', common.length, () => {
          for (const e of common) zodShapes[e.type].parse(e.payload);
        }),
        byValibot,
      );
      let imported = 0;
      const importing = measureRate(
        `import-ledger of the played ledger, every row checked (${events.length} events)`,
        'events/s',
        events.length,
        () => {
          const database = openDatabase({ path: join(dir, `import-${imported++}.db`), synchronous: 'NORMAL' });
          const report = importLedger(database, ndjson);
          database.close();
          if (!report.ok) throw new Error('the played ledger did not import');
        },
        5,
      );
      return [catalogue, byZod, byValibot, importing];
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  },
};

/**
 * The ledger's promises, held to the same assertions on both back ends, SQLite and PostgreSQL:
 * an append gets gapless positions and stream versions, is chained and stored as hashed, is
 * refused whole for a stale version or bad input, and is read back (and upcast) as written; a
 * writer process killed with SIGKILL loses nothing it acknowledged and doubles nothing (on
 * PostgreSQL while its appends commit in groups); writer processes racing on one stream never
 * share a version and every loser is told so; a command id answers a repeat with the first
 * result and refuses reuse; whatever is changed in the stored table behind the append-only
 * triggers, verification (the store's and `spades verify`'s) names the position; a fold from
 * the store equals the models the appends produced; and a game entered from a record scores as
 * `spades score` scores that record. The PostgreSQL cases run on a throwaway cluster and skip
 * without one.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createRandom } from '../engine/random.ts';
import { scoreRecord } from '../engine/record.ts';
import { AppendRefusedError, CommandIdReusedError, type AppendResult, VersionConflictError } from '../events/store/append.ts';
import { type AnyEvent, InvalidPayloadError, UnknownEventTypeError, check, defineEvent, eventRegistry } from '../events/event-registry.ts';
import { type ChainedRow, GENESIS_HASH, chainHash } from '../events/hash-chain.ts';
import { gameRecord } from '../events/game-projection.ts';
import { type Decision, type Decisions, type ExecuteOptions, projected } from '../events/store/served-ledger.ts';
import { openLedger } from '../events/store/sqlite/ledger.ts';
import { type ReadModels, applyEvent, emptyModels } from '../events/projections.ts';
import { importRecord } from '../events/record-import.ts';
import { driveTables } from '../server/serve/table-driver.ts';
import { createTournament, registerTeam, startTournament } from '../server/commands/tournament-commands.ts';
import { buildLedgerChild, crashCycle, startChild } from './fixtures/ledger-child-process.ts';
import { type LedgerTestEvent, counter, ledgerTestRegistry } from './fixtures/ledger-events.ts';
import { type Backend, type StoreUnderTest, ledgerBackends } from './fixtures/ledger-backends.ts';
import { noteMissingPostgres } from './fixtures/postgres.ts';
import { fullGameRecord } from './record-builders.ts';
import { spadesProcess } from './fixtures/spades-process.ts';

noteMissingPostgres('ledger-backends (the PostgreSQL half)');

const clock = () => '2025-03-01T19:00:00.000Z';

interface Outcome {
  attempt: number;
  ok?: true;
  version?: number;
  position?: number;
  conflict?: true;
  expected?: number;
  actual?: number;
  error?: string;
}

/** What a tournament's play appended, append by append: the decisions, the options and the time. */
interface Step {
  decisions: Decision[];
  options: ExecuteOptions;
  at: string;
}

/**
 * Plays a small tournament with the table bots on a SQLite ledger (one writer: the driver decides
 * from the models as they stand), noting every append it made; returns those and the models the ledger held.
 */
async function playedSteps(): Promise<{ steps: Step[]; live: ReadModels }> {
  const dir = mkdtempSync(join(tmpdir(), 'spades-backends-play-'));
  let tick = 0;
  const ledger = openLedger({ path: join(dir, 'ledger.db'), synchronous: 'NORMAL', clock: () => new Date(Date.UTC(2026, 0, 1) + tick++ * 1000).toISOString() });
  try {
    const steps: Step[] = [];
    const note = (list: Decision[], options: ExecuteOptions, results: AppendResult[]) => {
      const at = results.flatMap((r) => r.events)[0]?.meta.at;
      if (at !== undefined) steps.push({ decisions: structuredClone(list), options: structuredClone(options), at });
      return results;
    };
    const decided = (decisions: Decisions) => {
      // The driver decides against the models as they are; one writer, so nothing to fold first.
      const made = typeof decisions === 'function' ? decisions(ledger.models) : decisions;
      return Array.isArray(made) ? made : [made];
    };
    const recording = {
      execute: (decisions: Decisions, options: ExecuteOptions = {}) => {
        const list = decided(decisions);
        return note(list, options, ledger.execute(list, options));
      },
      // The table driver's appends, through the ledger the server serves.
      served: {
        ...ledger.served,
        append: async (decisions: Decisions, options: ExecuteOptions = {}) => {
          const list = decided(decisions);
          return note(list, options, await ledger.served.append(list, options));
        },
      },
    };
    const m = ledger.models;
    recording.execute(createTournament(m, { tournamentId: 't1', name: 'Both Back Ends Cup', format: 'unc-intramural' }));
    for (const i of [1, 2, 3]) recording.execute(registerTeam(m, { tournamentId: 't1', teamId: `team${i}`, name: `Team ${i}`, players: [`P${i}a`, `P${i}b`] }));
    recording.execute(startTournament(m, { tournamentId: 't1', seed: 'backends' }));
    for (
      let step = 0;
      (await driveTables(recording, { tournamentId: 't1', seed: 'backends', renegeChance: 0.05, now: () => '2026-01-01T10:00:00.000Z' })) > 0;
      step++
    ) {
      if (step > 100_000) throw new Error('the tournament did not finish');
    }
    return { steps, live: structuredClone(ledger.models) };
  } finally {
    ledger.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Appends decisions as `Ledger.execute` does (each stream expecting the version the models hold
 * for it) and folds what the append recorded into `models`, the live models.
 */
async function execute(store: StoreUnderTest, models: ReadModels, decisions: Decision[], options: ExecuteOptions = {}): Promise<AppendResult[]> {
  const results = await store.appendMany(
    decisions.map((d) => ({ stream: d.stream, events: d.events as AnyEvent[] as never, expectedVersion: models.streams[d.stream] ?? 0 })),
    options,
  );
  for (const event of results.flatMap((r) => r.events)) applyEvent(models, projected(event));
  return results;
}

async function spadesScore(file: string): Promise<unknown> {
  const { code, stdout, stderr } = await spadesProcess(['score', file]);
  expect(stderr).toBe('');
  expect(code).toBe(0);
  return JSON.parse(stdout);
}

const TAMPER_COLUMNS = ['position', 'stream', 'version', 'type', 'schema_version', 'payload', 'meta', 'command_id', 'prev_hash', 'hash'] as const;
type Column = (typeof TAMPER_COLUMNS)[number];
const INTEGER_COLUMNS: readonly Column[] = ['position', 'version', 'schema_version'];
type Mutation =
  | { kind: 'change'; row: number; column: Column; at: number; replacement: number; delta: number }
  | { kind: 'delete'; row: number }
  | { kind: 'swap'; row: number; other: number };

const mutations = (size: number): fc.Arbitrary<Mutation> =>
  fc.oneof(
    fc.record({
      kind: fc.constant('change' as const),
      row: fc.integer({ min: 1, max: size }),
      column: fc.constantFrom(...TAMPER_COLUMNS),
      at: fc.nat(),
      replacement: fc.nat(),
      delta: fc.oneof(fc.integer({ min: -3, max: -1 }), fc.integer({ min: 1, max: 3 })),
    }),
    // The head itself can be cut off without breaking any link; a noted digest catches that.
    fc.record({ kind: fc.constant('delete' as const), row: fc.integer({ min: 1, max: size - 1 }) }),
    fc
      .record({ row: fc.integer({ min: 1, max: size }), other: fc.integer({ min: 1, max: size }) })
      .filter(({ row, other }) => row !== other)
      .map(({ row, other }) => ({ kind: 'swap' as const, row, other })),
  );

/** Makes one mutation to the stored table directly; returns the position verification must name. */
async function tamper(backend: Backend, location: string, mutation: Mutation, size: number): Promise<number> {
  const sql = (text: string, params: unknown[] = []) => backend.sql(location, text, params);
  const get = async (position: number) => (await sql(`SELECT ${TAMPER_COLUMNS.join(', ')} FROM events WHERE position = ?`, [position]))[0]!;
  switch (mutation.kind) {
    case 'delete':
      await sql('DELETE FROM events WHERE position = ?', [mutation.row]);
      return mutation.row;
    case 'swap': {
      const [low, high] = [Math.min(mutation.row, mutation.other), Math.max(mutation.row, mutation.other)];
      const a = await get(low);
      const b = await get(high);
      const rest = TAMPER_COLUMNS.slice(1);
      const set = (row: Record<string, unknown>, position: number) =>
        sql(`UPDATE events SET ${rest.map((c) => `${c} = ?`).join(', ')} WHERE position = ?`, [...rest.map((c) => row[c]), position]);
      // Park one row first so the unique stream/version and command id never clash midway.
      await sql("UPDATE events SET stream = 'parked', command_id = NULL WHERE position = ?", [low]);
      await set(a, high);
      await set(b, low);
      return low;
    }
    case 'change': {
      const { row, column } = mutation;
      const original = (await get(row))[column] as string | number | null;
      // Some changes would clash with a unique column or a check of the table (another stream's
      // version, another command id, a taken position); the next candidate is as much a change.
      for (let attempt = 0; attempt < 200; attempt++) {
        let value: string | number;
        if (INTEGER_COLUMNS.includes(column)) {
          value = Number(original) + (column === 'position' ? size : 0) + mutation.delta + attempt;
        } else if (original === null) {
          value = String.fromCharCode(0x21 + ((mutation.replacement + attempt) % 94));
        } else {
          const text = original as string;
          const at = mutation.at % text.length;
          let code = 0x20 + ((mutation.replacement + attempt) % 95);
          if (code === text.charCodeAt(at)) code = code === 0x7e ? 0x20 : code + 1;
          value = text.slice(0, at) + String.fromCharCode(code) + text.slice(at + 1);
        }
        if (value === original || value === Number(original)) continue;
        try {
          await sql(`UPDATE events SET ${column} = ? WHERE position = ?`, [value, row]);
          return row;
        } catch (error) {
          if (!backend.isConstraintError(error)) throw error;
        }
      }
      throw new Error(`no change of ${column} at ${row} could be stored`);
    }
  }
}

let played: { steps: Step[]; live: ReadModels } | null = null;
/** The tournament both back ends replay, played once for the whole file. */
const tournamentSteps = async () => (played ??= await playedSteps());

for (const backend of ledgerBackends()) {
  describe.skipIf(!backend.available)(`the ledger on ${backend.name}`, () => {
    let child: { path: string; remove: () => void };
    beforeAll(async () => {
      await backend.start();
      child = buildLedgerChild();
    });
    afterAll(async () => {
      child?.remove();
      await backend.stop();
    });

    /** Opens a store over the ledger's test events on `location`, noting it to close after the test. */
    const opened: StoreUnderTest<LedgerTestEvent>[] = [];
    const open = async (location: string, options: { clock?: () => string } = { clock }) => {
      const store = await backend.open(location, ledgerTestRegistry, options);
      opened.push(store);
      return store;
    };
    const closeAll = () => Promise.all(opened.splice(0).map((s) => s.close()));
    const rows = async (location: string) =>
      (await backend.sql(location, 'SELECT position, stream, version, command_id FROM events ORDER BY position')).map((r) => ({
        ...r,
        position: Number(r.position),
      }));

    describe('an append', () => {
      let location: string;
      let store: StoreUnderTest<LedgerTestEvent>;
      // Each test on a new, empty ledger.
      beforeEach(async () => {
        location = await backend.create();
        store = await open(location);
      });
      afterEach(closeAll);
      const rowCount = async () => Number((await backend.sql(location, 'SELECT count(*) AS n FROM events'))[0]!.n);
      const stored = async () =>
        (await backend.sql(location, 'SELECT * FROM events ORDER BY position')).map((r) => ({ ...r, position: Number(r.position) }) as unknown as ChainedRow);

      it('gives gapless positions across streams and versions within each stream', async () => {
        // given events on two streams
        await store.append('game-1', [counter('a', 1), counter('a', 2)]);
        await store.append('match-3', [counter('b', 1)]);
        // when a third append lands on the first stream
        const result = await store.append('game-1', [counter('a', 3)]);
        // then positions run on and the stream's version follows its own count
        expect(result).toMatchObject({ stream: 'game-1', positions: [4], versions: [3], duplicate: false });
        expect((await store.readAll()).map((e) => [e.position, e.stream, e.version])).toEqual([
          [1, 'game-1', 1],
          [2, 'game-1', 2],
          [3, 'match-3', 1],
          [4, 'game-1', 3],
        ]);
      });

      it('records meta with the time from the store clock, the append meta and the event meta', async () => {
        const [event] = (await store.append('game-1', [{ ...counter('a', 1), meta: { seat: 'N' } }], { meta: { by: 'director:ana' } })).events;
        expect(event!.meta).toEqual({ at: '2025-03-01T19:00:00.000Z', by: 'director:ana', seat: 'N' });
        expect((await store.readStream('game-1'))[0]!.meta).toEqual(event!.meta);
      });

      it('chains each event to the one before, the first to 64 zeros, and stores payload and meta as the text hashed', async () => {
        const { events } = await store.append('game-1', [counter('a', 1), counter('a', 2)]);
        expect(events[0]!.prevHash).toBe(GENESIS_HASH);
        expect(events[1]!.prevHash).toBe(events[0]!.hash);
        const [first, second] = await stored();
        expect(first!.payload).toBe('{"attempt":1,"by":"a"}');
        expect(first!.meta).toBe('{"at":"2025-03-01T19:00:00.000Z"}');
        expect(chainHash(GENESIS_HASH, first!)).toBe(events[0]!.hash);
        expect(chainHash(events[0]!.hash, second!)).toBe(events[1]!.hash);
        expect(await store.head()).toEqual({ position: 2, hash: events[1]!.hash });
      });

      it('refuses an expected version the stream has moved past, naming both, and writes nothing', async () => {
        // given game-1 at version 2
        await store.append('game-1', [counter('a', 1), counter('a', 2)]);
        // when someone decided against version 1, then a conflict the API can answer 409 with
        const attempt = store.append('game-1', [counter('b', 1)], { expectedVersion: 1 });
        await expect(attempt).rejects.toThrow(VersionConflictError);
        await expect(attempt).rejects.toMatchObject({
          stream: 'game-1',
          expected: 1,
          actual: 2,
          message: expect.stringMatching(/game-1 is at version 2, not 1/),
        });
        expect(await rowCount()).toBe(2);
        expect((await store.head()).position).toBe(2);
      });

      it('takes expected version 0 as "this stream has no events yet"', async () => {
        expect((await store.append('game-9', [counter('a', 1)], { expectedVersion: 0 })).versions).toEqual([1]);
        await expect(store.append('game-9', [counter('a', 2)], { expectedVersion: 0 })).rejects.toThrow(VersionConflictError);
      });

      it('refuses bad input naming what was wrong and where, writing nothing of the batch', async () => {
        // a payload field out of range, in the second event of a batch
        const bad = { type: 'CounterIncremented' as const, payload: { by: 'a', attempt: -1 } };
        const attempt = store.append('game-1', [counter('a', 1), bad]);
        await expect(attempt).rejects.toThrow(InvalidPayloadError);
        await expect(attempt).rejects.toMatchObject({
          type: 'CounterIncremented',
          field: 'payload.attempt',
          message: 'CounterIncremented (version 1): payload.attempt must be at least 0, not -1',
        });
        // a field the event type does not have
        const extra = { type: 'CounterIncremented', payload: { by: 'a', attempt: 1, score: 5 } } as unknown as LedgerTestEvent;
        await expect(store.append('game-1', [extra as never])).rejects.toThrow(/payload\.score is not a field of this event/);
        // an event type nobody registered
        const unknown = { type: 'TrickStolen', payload: {} } as unknown as LedgerTestEvent;
        await expect(store.append('game-1', [unknown as never])).rejects.toThrow(UnknownEventTypeError);
        // a stream id that is not a plain name
        await expect(store.append('game 1', [counter('a', 1)])).rejects.toThrow(AppendRefusedError);
        await expect(store.append('', [counter('a', 1)])).rejects.toThrow(/stream id/);
        // meta JSON cannot carry, and a command id that is not a plain name
        await expect(store.append('game-1', [counter('a', 1)], { meta: { when: new Date(0) } })).rejects.toThrow(/meta\.when is a Date object/);
        await expect(store.append('game-1', [counter('a', 1)], { commandId: 'has space' })).rejects.toThrow(AppendRefusedError);
        expect(await rowCount()).toBe(0);
      });

      it('to several streams at once is one transaction: one stream behind its expected version writes nothing', async () => {
        await store.append('match-1', [counter('m', 1)]);
        const attempt = store.appendMany([
          { stream: 'game-1', events: [counter('a', 1), counter('a', 2)], expectedVersion: 0 },
          { stream: 'match-1', events: [counter('m', 2)], expectedVersion: 0 },
        ]);
        await expect(attempt).rejects.toMatchObject({ stream: 'match-1', expected: 0, actual: 1 });
        expect(await rowCount()).toBe(1);
        const results = await store.appendMany([
          { stream: 'game-1', events: [counter('a', 1), counter('a', 2)], expectedVersion: 0 },
          { stream: 'match-1', events: [counter('m', 2)], expectedVersion: 1 },
        ]);
        expect(results.map((r) => [r.stream, r.positions, r.versions])).toEqual([
          ['game-1', [2, 3], [1, 2]],
          ['match-1', [4], [2]],
        ]);
      });

      it('is read back after a position with a limit, and by stream after a version', async () => {
        for (let i = 1; i <= 6; i++) await store.append(i % 2 ? 'game-1' : 'game-2', [counter('a', i)]);
        expect((await store.readAll({ after: 2, limit: 3 })).map((e) => e.position)).toEqual([3, 4, 5]);
        expect((await store.readAll()).map((e) => e.position)).toEqual([1, 2, 3, 4, 5, 6]);
        expect((await store.readStream('game-2')).map((e) => e.version)).toEqual([1, 2, 3]);
        expect((await store.readStream('game-2', { after: 1 })).map((e) => e.position)).toEqual([4, 6]);
        expect(await store.readStream('game-404')).toEqual([]);
        expect(await store.streamVersion('game-1')).toBe(3);
        expect(await store.streamVersion('game-404')).toBe(0);
      });

      it('of an older payload version is upcast as it is read, the stored row and its hash left alone', async () => {
        // given a NoteTaken written at version 1, before notes had an author
        const old = eventRegistry(defineEvent({ type: 'NoteTaken', version: 1, validate: check.object({ text: check.text() }) }));
        const oldStore = await backend.open(location, old, { clock });
        const [written] = (await oldStore.append('tournament-1', [{ type: 'NoteTaken', payload: { text: 'table 4 late' } }])).events;
        await oldStore.close();
        // when today's store reads it
        const [read] = await store.readStream('tournament-1');
        // then it comes up to version 2, and the ledger still holds what was written
        expect(read).toMatchObject({ type: 'NoteTaken', schemaVersion: 2, payload: { text: 'table 4 late', author: 'director' } });
        expect(await backend.sql(location, 'SELECT schema_version, payload, hash FROM events')).toEqual([
          { schema_version: 1, payload: '{"text":"table 4 late"}', hash: written!.hash },
        ]);
        expect(await store.verifyChain()).toMatchObject({ ok: true, count: 1 });
      });
    });

    describe('a writer process killed with SIGKILL', () => {
      const cycles = backend.scale.kills;
      it(`keeps every acknowledged event, gapless and chained, across ${cycles} kills`, async () => {
        // given two ledgers, each reused by every cycle of its lane: the lanes' kills run side
        // by side, so one lane's writer starts while the other's ledger is checked
        const seed = Date.now() >>> 0;
        let acked = 0;
        let killedWhileAppending = 0;
        const lane = async (laneNo: number, location: string) => {
          const random = createRandom(seed + laneNo).float;
          let lastHead = 0;
          for (let cycle = 1; cycle <= cycles / 2; cycle++) {
            // when a writer (two, every fifth cycle) is killed at a random moment and the ledger opened again
            const result = await crashCycle(backend, location, child.path, random, cycle % 5 === 0 ? 2 : 1);
            // then nothing acknowledged is lost and the ledger holds
            expect(result.problems, `lane ${laneNo}, cycle ${cycle} (seed ${seed + laneNo})`).toEqual([]);
            expect(result.head).toBeGreaterThanOrEqual(lastHead);
            lastHead = result.head;
            acked += result.acked;
            if (!result.killedAtStart && result.acked > 0) killedWhileAppending++;
          }
        };
        const locations = [await backend.create(), await backend.create()];
        await Promise.all(locations.map((location, i) => lane(i, location)));
        // and most kills really did land while appends were under way
        expect(killedWhileAppending).toBeGreaterThan(cycles / 2);
        expect(acked).toBeGreaterThanOrEqual(killedWhileAppending);
        if (backend.name === 'PostgreSQL') {
          // in groups: rows of one transaction share its xmin, and many carry several commands
          for (const location of locations) {
            const [grouped] = await backend.sql(
              location,
              'SELECT count(*) AS commands, count(DISTINCT xmin::text) AS transactions FROM events WHERE command_id IS NOT NULL',
            );
            expect(Number(grouped!.transactions)).toBeLessThan(Number(grouped!.commands) * 0.8);
          }
        }
      }, 300_000);
    });

    describe('writer processes appending to the same stream', () => {
      const WRITERS = ['alpha', 'beta', 'gamma'];
      const ATTEMPTS = 150;
      it(`${WRITERS.length} never share a version; every loser gets the conflict; successes equal the final version`, async () => {
        // given the writers ready on one ledger
        const location = await backend.create();
        const writers = WRITERS.map((name) => startChild(child.path, ['contend', location, name, String(ATTEMPTS), 'game-7']));
        await Promise.all(writers.map((w) => w.ready));
        // when all go at once
        for (const w of writers) w.child.stdin!.end('go\n');
        const exits = await Promise.all(writers.map((w) => w.closed));
        expect(exits.map((e) => [e.code, e.stderr])).toEqual(WRITERS.map(() => [0, '']));
        const outcomes = writers.map((w) => w.lines.map((line) => JSON.parse(line) as Outcome & { done?: true }).filter((o) => !o.done) as Outcome[]);

        // then each attempt ended in a success or a conflict, nothing else
        for (const list of outcomes) {
          expect(list).toHaveLength(ATTEMPTS);
          expect(list.filter((o) => o.error)).toEqual([]);
          for (const o of list.filter((o) => o.conflict)) expect(o.actual!).toBeGreaterThan(o.expected!);
        }
        const successes = outcomes.flat().filter((o) => o.ok);
        const conflicts = outcomes.flat().filter((o) => o.conflict);
        expect(successes.length + conflicts.length).toBe(WRITERS.length * ATTEMPTS);
        // and the race was real: every writer lost some and won some
        for (const list of outcomes) {
          expect(list.some((o) => o.ok)).toBe(true);
          expect(list.some((o) => o.conflict)).toBe(true);
        }
        // no version was given twice
        expect(new Set(successes.map((o) => o.version)).size).toBe(successes.length);

        const store = await open(location);
        try {
          const events = await store.readStream('game-7');
          // the stream's versions are 1…n with no repeats, n being the number of successes
          expect(await store.streamVersion('game-7')).toBe(successes.length);
          expect(events.map((e) => e.version)).toEqual(successes.map((_, i) => i + 1));
          // and each success is the event the ledger holds at the version it was told
          const byVersion = new Map(events.map((e) => [e.version, e]));
          outcomes.forEach((list, i) => {
            for (const o of list.filter((o) => o.ok)) {
              expect(byVersion.get(o.version!)).toMatchObject({ position: o.position, payload: { by: WRITERS[i], attempt: o.attempt } });
            }
          });
          expect(await store.verifyChain()).toMatchObject({ ok: true, count: successes.length });
          expect(await backend.storageProblems(location)).toEqual([]);
        } finally {
          await closeAll();
        }
      }, 90_000);
    });

    describe('a command id', () => {
      let location: string;
      let store: StoreUnderTest<LedgerTestEvent>;
      const fresh = async () => {
        await closeAll();
        location = await backend.create();
        store = await open(location);
      };
      afterAll(closeAll);

      it('appended three times gives one event, and the first answer each time', async () => {
        await fresh();
        const first = await store.append('game-1', [counter('N', 1)], { commandId: 'bid-17', expectedVersion: 0 });
        const second = await store.append('game-1', [counter('N', 1)], { commandId: 'bid-17', expectedVersion: 0 });
        const third = await store.append('game-1', [counter('N', 1)], { commandId: 'bid-17', expectedVersion: 0 });
        expect(await rows(location)).toEqual([{ position: 1, stream: 'game-1', version: 1, command_id: 'bid-17' }]);
        expect(first.duplicate).toBe(false);
        for (const retry of [second, third]) {
          expect(retry.duplicate).toBe(true);
          expect({ ...retry, duplicate: false }).toEqual(first);
        }
      });

      it('sent with the same request answers with the first result; with another request it is refused as reused', async () => {
        await fresh();
        const first = await store.append('game-1', [counter('N', 1)], { commandId: 'bid-18', request: 'sha256:aaa' });
        await store.append('game-1', [counter('E', 2)]);
        // the same request, even decided against a stream that has moved on since: the first result
        const again = await store.append('game-1', [counter('N', 1)], { commandId: 'bid-18', request: 'sha256:aaa', expectedVersion: 0 });
        expect(again).toEqual({ ...first, duplicate: true });
        // another request under the same id: refused, naming it, and nothing written
        const other = store.append('game-1', [counter('N', 1)], { commandId: 'bid-18', request: 'sha256:bbb' });
        await expect(other).rejects.toThrow(CommandIdReusedError);
        await expect(other).rejects.toThrow(
          'command id bid-18 was already used for another entry on game-1 (a different request), so it cannot record this one',
        );
        // other events under the same id, without a request: refused too, naming what it recorded
        const otherEvents = store.append('game-1', [counter('N', 9)], { commandId: 'bid-18' });
        await expect(otherEvents).rejects.toThrow(CommandIdReusedError);
        await expect(otherEvents).rejects.toThrow(/already used for another entry on game-1 \(it recorded CounterIncremented at position 1\)/);
        // and another stream under the same id
        await expect(store.append('game-2', [counter('N', 1)], { commandId: 'bid-18', request: 'sha256:aaa' })).rejects.toThrow(
          'command id bid-18 was already used for game-1, so it cannot be used again for game-2',
        );
        expect(await rows(location)).toHaveLength(2);
      });

      it('is remembered after other appends, and by a store opened on the ledger later', async () => {
        await fresh();
        await store.append('game-1', [counter('N', 1)], { commandId: 'bid-17' });
        await store.append('game-1', [counter('E', 2)], { commandId: 'bid-18' });
        await closeAll();
        const reopened = await open(location);
        // the stream is at version 2 now, yet the retry is no conflict: it was already done
        const retry = await reopened.append('game-1', [counter('N', 1)], { commandId: 'bid-17', expectedVersion: 0 });
        expect(retry).toMatchObject({ duplicate: true, positions: [1], versions: [1] });
        expect(await rows(location)).toHaveLength(2);
      });

      it('for a command that recorded several events on several streams answers with all of them', async () => {
        await fresh();
        await store.append('game-2', [counter('x', 0)]);
        const batch = [
          { stream: 'game-1', events: [counter('N', 1), counter('N', 2)] },
          { stream: 'match-1', events: [counter('N', 3)] },
        ];
        const first = await store.appendMany(batch, { commandId: 'hand-3-close' });
        // the id is stored on the command's first event, with how many events the command recorded
        const recorded = await backend.sql(location, 'SELECT command_id, meta FROM events WHERE position > 1 ORDER BY position');
        expect(recorded.map((r) => r.command_id)).toEqual(['hand-3-close', null, null]);
        expect(JSON.parse(recorded[0]!.meta as string)).toEqual({ at: clock(), commandEvents: 3 });
        await store.append('game-1', [counter('S', 4)]);
        const retry = await store.appendMany(batch, { commandId: 'hand-3-close' });
        expect(retry).toEqual(first.map((r) => ({ ...r, duplicate: true })));
        expect(retry.map((r) => r.positions)).toEqual([[2, 3], [4]]);
        // a part of the batch alone is another command
        await expect(store.appendMany([batch[0]!], { commandId: 'hand-3-close' })).rejects.toThrow(CommandIdReusedError);
        expect(await rows(location)).toHaveLength(5);
      });

      it('sent over six connections at once is recorded once, and every one answers with it', async () => {
        await fresh();
        const stores = await Promise.all(Array.from({ length: 6 }, () => open(location)));
        const results = await Promise.all(stores.map((s) => s.append('game-1', [counter('a', 1), counter('a', 2)], { commandId: 'tap-1' })));
        expect(results.filter((r) => !r.duplicate)).toHaveLength(1);
        for (const r of results) expect(r.positions).toEqual([1, 2]);
        expect(await rows(location)).toHaveLength(2);
      });
    });

    describe('a ledger changed behind the append-only triggers', () => {
      let template: string;
      let size: number;
      let intactHead: string;
      beforeAll(async () => {
        template = await backend.create();
        const store = await backend.open(template, ledgerTestRegistry, { clock });
        for (let i = 0; i < 12; i++) {
          const stream = ['game-1', 'game-2', 'match-1'][i % 3]!;
          if (i % 4 === 3) {
            await store.append(stream, [{ type: 'NoteTaken', payload: { text: `Zoë's table, note ${i}`, author: 'judge' } }], { meta: { by: 'judge:zoë' } });
          } else {
            await store.append(stream, [counter('N', i), counter('S', i)], { commandId: `cmd-${i}` });
          }
        }
        size = (await store.head()).position;
        intactHead = await store.digest();
        await store.close();
      });

      /** A copy of the intact ledger with its triggers off, as someone editing the storage would have it. */
      const tamperable = async () => {
        const location = await backend.copy(template);
        await backend.dropGuards(location);
        return location;
      };

      it('is intact before anyone touches it', async () => {
        const store = await open(await tamperable());
        expect(await store.verifyChain()).toMatchObject({ ok: true, count: size });
        await closeAll();
      });

      it('fails verification at the position that was changed, deleted or swapped', async () => {
        await fc.assert(
          fc.asyncProperty(mutations(size), async (mutation) => {
            // given an intact ledger, when one mutation is made to its table
            const location = await tamperable();
            const expected = await tamper(backend, location, mutation, size);
            // then verification fails and names that position
            const store = await open(location);
            const report = await store.verifyChain();
            await closeAll();
            expect(report.ok).toBe(false);
            expect(report.firstBad?.position).toBe(expected);
            expect(report.count).toBe(expected - 1);
          }),
          { numRuns: backend.scale.tamperings },
        );
      }, 90_000);

      it('fails `spades verify` with exit status 1, naming the position', async () => {
        await fc.assert(
          fc.asyncProperty(mutations(size), async (mutation) => {
            const location = await tamperable();
            const expected = await tamper(backend, location, mutation, size);
            const outcome = await spadesProcess(['verify', '--db', location]);
            expect(outcome.code).toBe(1);
            expect(outcome.stdout).toContain(`position ${expected} does not verify`);
          }),
          { numRuns: 3 },
        );
      }, 60_000);

      it('cut off at the head still verifies on its own, but no longer holds a digest noted before', async () => {
        const location = await tamperable();
        await backend.sql(location, 'DELETE FROM events WHERE position = ?', [size]);
        const store = await open(location);
        expect(await store.verifyChain()).toMatchObject({ ok: true, count: size - 1 });
        expect(await store.checkDigest(intactHead)).toMatchObject({ ok: false, reason: expect.stringContaining(`no position ${size}`) });
        await closeAll();
        // and `spades verify` given the noted digest says so, exiting 1
        const outcome = await spadesProcess(['verify', '--db', location, '--digest', intactHead]);
        expect(outcome).toMatchObject({ code: 1, stdout: expect.stringContaining(`digest ${intactHead} is not part of this chain`) });
      }, 30_000);
    });

    describe('read models folded from the store', () => {
      it('equal the models the appends produced, for a tournament played card by card', async () => {
        // given the appends of a tournament the bots played, made again on this back end
        const { steps, live: played } = await tournamentSteps();
        let at = '';
        const store = await backend.open(await backend.create(), undefined, { clock: () => at });
        try {
          const live = emptyModels();
          for (const step of steps) {
            at = step.at;
            await execute(store, live, step.decisions, step.options);
          }
          // the live models are the ones the SQLite ledger held as it played
          expect(live).toEqual(played);
          expect(live.tournaments.t1!.model.status).toBe('finished');
          // when the models are folded again from position 0, they are the live ones
          const rebuilt = await store.fold();
          expect(rebuilt).toEqual(live);
          expect(rebuilt.position).toBe((await store.head()).position);
          expect(await store.verifyChain()).toMatchObject({ ok: true, count: rebuilt.position });
          // and every game of it, written out as a record, scores as its model shows
          for (const game of Object.values(rebuilt.games)) {
            const result = scoreRecord(JSON.parse(JSON.stringify(gameRecord(game))));
            expect(result.final).toEqual(game.score);
            expect(result.winner).toBe(game.winner);
          }
        } finally {
          await store.close();
        }
      }, 120_000);
    });

    describe('a game entered from its record', () => {
      it('scores, folded from the store, as `spades score` scores the record', async () => {
        const dir = mkdtempSync(join(tmpdir(), 'spades-backends-record-'));
        const store = await backend.open(await backend.create(), undefined, { clock });
        try {
          // given a paper record: a renege upheld, a misdeal, a hand by tricks, a hand to the target
          const record = fullGameRecord();
          const recordFile = join(dir, 'paper.json');
          writeFileSync(recordFile, JSON.stringify(record));
          // when it is entered through the ledger, and the models folded again from the store
          const live = emptyModels();
          const decision = importRecord(live, record, { gameId: 'paper-1', teams: { NS: 'Ana & Cy', EW: 'Ben & Dee' } }, clock());
          await execute(store, live, [decision], { commandId: 'import-paper-1' });
          const game = (await store.fold()).games['paper-1']!;
          // then the game scores as `spades score` scores the record, hand by hand
          const printed = (await spadesScore(recordFile)) as ReturnType<typeof scoreRecord>;
          expect(printed).toEqual(JSON.parse(JSON.stringify(scoreRecord(record))));
          expect(game.problem).toBeUndefined();
          expect(game.score).toEqual(printed.final);
          expect(game.winner).toBe(printed.winner);
          expect(game.rows.map((r) => ({ NS: r.NS, EW: r.EW, reneges: r.reneges, illegalLeads: r.illegalLeads }))).toEqual(printed.hands);
          // and the game written back out as a record scores the same through the command
          const backFile = join(dir, 'back.json');
          writeFileSync(backFile, JSON.stringify(gameRecord(game)));
          expect(await spadesScore(backFile)).toEqual(printed);
        } finally {
          await store.close();
          rmSync(dir, { recursive: true, force: true });
        }
      }, 60_000);
    });
  });
}

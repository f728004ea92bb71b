/**
 * Two processes appending to one stream, each deciding against the version it just read: the
 * ledger never gives a version twice, every loser of a race is told so with a conflict, and the
 * stream's final version is exactly the number of appends that succeeded.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../events/store/sqlite/database.ts';
import { createEventStore } from '../events/store/sqlite/event-store.ts';
import { buildLedgerChild, startChild } from './fixtures/ledger-child-process.ts';
import { ledgerTestRegistry } from './fixtures/ledger-events.ts';

const ATTEMPTS = 300;

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

describe('two processes appending to the same stream', () => {
  let dir: string;
  let child: { path: string; remove: () => void };
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'spades-race-'));
    child = buildLedgerChild();
  });
  afterAll(() => {
    child?.remove();
    rmSync(dir, { recursive: true, force: true });
  });

  it('never share a version; every loser gets the conflict; successes equal the final version', async () => {
    // given two writers ready on one file
    const file = join(dir, 'ledger.db');
    openDatabase({ path: file }).close();
    const writers = ['alpha', 'beta'].map((name) => startChild(child.path, ['contend', file, name, String(ATTEMPTS), 'game-7']));
    await Promise.all(writers.map((w) => w.ready));
    // when both go at once
    for (const w of writers) w.child.stdin!.end('go\n');
    const exits = await Promise.all(writers.map((w) => w.closed));
    expect(exits.map((e) => [e.code, e.stderr])).toEqual([[0, ''], [0, '']]);
    const outcomes = writers.map((w) => w.lines.map((line) => JSON.parse(line) as Outcome & { done?: true }).filter((o) => !o.done) as Outcome[]);

    // then each attempt ended in a success or a conflict, nothing else
    for (const list of outcomes) {
      expect(list).toHaveLength(ATTEMPTS);
      expect(list.filter((o) => o.error)).toEqual([]);
      for (const o of list.filter((o) => o.conflict)) expect(o.actual!).toBeGreaterThan(o.expected!);
    }
    const successes = outcomes.flat().filter((o) => o.ok);
    const conflicts = outcomes.flat().filter((o) => o.conflict);
    expect(successes.length + conflicts.length).toBe(2 * ATTEMPTS);
    // and the race was real: both writers lost some and won some
    for (const list of outcomes) {
      expect(list.some((o) => o.ok)).toBe(true);
      expect(list.some((o) => o.conflict)).toBe(true);
    }

    const database = openDatabase({ path: file });
    const store = createEventStore(database, { registry: ledgerTestRegistry });
    const events = store.readStream('game-7');
    // the stream's versions are 1…n with no repeats, n being the number of successes
    expect(store.streamVersion('game-7')).toBe(successes.length);
    expect(events.map((e) => e.version)).toEqual(successes.map((_, i) => i + 1));
    // and each success is the event the ledger holds at the version it was told
    const byVersion = new Map(events.map((e) => [e.version, e]));
    outcomes.forEach((list, i) => {
      for (const o of list.filter((o) => o.ok)) {
        expect(byVersion.get(o.version!)).toMatchObject({ position: o.position, payload: { by: ['alpha', 'beta'][i], attempt: o.attempt } });
      }
    });
    expect(store.verifyChain()).toMatchObject({ ok: true, count: successes.length });
    database.close();
  }, 60_000);

  it('and eight opening one new file at the same moment: each opens it, and its tables are set up once', async () => {
    for (let round = 0; round < 4; round++) {
      const file = join(dir, `opening-${round}.db`);
      openDatabase({ path: file }).close();
      const openers = Array.from({ length: 8 }, () => startChild(child.path, ['open-ledger', file]));
      await Promise.all(openers.map((o) => o.ready));
      for (const o of openers) o.child.stdin!.end('go\n');
      const exits = await Promise.all(openers.map((o) => o.closed));
      expect(exits.map((e) => [e.code, e.stderr.split('\n').find((line) => /Error/.test(line)) ?? '']), `round ${round}`).toEqual(openers.map(() => [0, '']));
      expect(openers.every((o) => o.lines.includes('opened'))).toBe(true);
    }
  });
});

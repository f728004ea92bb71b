/**
 * Crash safety: a writer killed with SIGKILL at any moment never takes an acknowledged append
 * with it, and never leaves the file torn. Each cycle starts a real writer process on the same
 * file, kills it mid-stride, and reopens the file the way the server would after a crash.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRandom } from '../engine/random.ts';
import { buildLedgerChild, crashCycle } from './fixtures/ledger-child-process.ts';

const CYCLES = 200;

describe('a ledger writer killed with SIGKILL', () => {
  let dir: string;
  let child: { path: string; remove: () => void };

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'spades-crash-'));
    child = buildLedgerChild();
  });
  afterAll(() => {
    child?.remove();
    rmSync(dir, { recursive: true, force: true });
  });

  it(`keeps every acknowledged event, gapless and chained, across ${CYCLES} kills`, async () => {
    // given one ledger file reused by every cycle
    const file = join(dir, 'ledger.db');
    const seed = Date.now() >>> 0;
    const random = createRandom(seed).float;
    let acked = 0;
    let killedWhileAppending = 0;
    let lastHead = 0;
    for (let cycle = 1; cycle <= CYCLES; cycle++) {
      // when a writer (two, every fifth cycle) is killed at a random moment and the file reopened
      const result = await crashCycle(file, child.path, random, cycle % 5 === 0 ? 2 : 1);
      // then nothing acknowledged is lost and the file holds
      expect(result.problems, `cycle ${cycle} (seed ${seed})`).toEqual([]);
      expect(result.head).toBeGreaterThanOrEqual(lastHead);
      lastHead = result.head;
      acked += result.acked;
      if (!result.killedAtStart && result.acked > 0) killedWhileAppending++;
    }
    // and most kills really did land while appends were under way
    expect(killedWhileAppending).toBeGreaterThan(CYCLES / 2);
    expect(acked).toBeGreaterThanOrEqual(killedWhileAppending);
  }, 300_000);
});

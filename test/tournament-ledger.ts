/**
 * What the tournament tests share: a ledger in a temp directory with a ticking clock, the
 * ledger's events of one type, and driving the tables with bots until nothing is left to do.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect } from 'vitest';
import { type Ledger, openLedger } from '../events/store/sqlite/ledger.ts';
import { projected } from '../events/store/served-ledger.ts';
import { rebuildModels } from '../events/store/sqlite/ledger-tools.ts';
import { applyEvent, emptyModels } from '../events/projections.ts';
import { refresh } from '../events/tournament-projection.ts';
import { CommandError } from '../server/commands/command-error.ts';
import { driveTables } from '../server/serve/table-driver.ts';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A ledger in its own temp directory, removed after the test. */
export function tempLedger(): Ledger {
  const dir = mkdtempSync(join(tmpdir(), 'spades-tournament-'));
  dirs.push(dir);
  let tick = 0;
  return openLedger({ path: join(dir, 'ledger.db'), synchronous: 'NORMAL', clock: () => new Date(Date.UTC(2026, 0, 1) + tick++ * 1000).toISOString() });
}

/** Every recorded event of a type, in ledger order, with its payload typed as the test reads it. */
export function eventsOf<P = Record<string, any>>(ledger: Ledger, type: string): P[] {
  return ledger.store
    .readAll()
    .filter((e) => e.type === type)
    .map((e) => e.payload as P);
}

/**
 * Drives every table with bots until nothing is left to do. `minutesPerStep` moves the
 * director's clock on by that much per step, so match clocks run out and time gets called.
 */
export async function driveToEnd(ledger: Ledger, tournamentId: string, seed: string, minutesPerStep = 0): Promise<number> {
  let step = 0;
  const start = Date.parse('2026-01-01T10:00:00.000Z');
  const now = () => new Date(start + step * minutesPerStep * 60_000).toISOString();
  while ((await driveTables(ledger, { tournamentId, seed, now })) > 0) {
    step++;
    if (step > 200_000) throw new Error(`tournament ${tournamentId} did not finish`);
  }
  return step;
}

/**
 * The ledger's chain verifies, a rebuild from position 0 gives the very read models the live
 * ledger holds, and every update the fold made to a tournament left it as a whole derivation would.
 */
export function expectRebuildEqualsLive(ledger: Ledger): void {
  expect(ledger.store.verifyChain().ok).toBe(true);
  const live = structuredClone(ledger.models);
  const rebuilt = rebuildModels(ledger.database, ledger.store);
  expect(rebuilt).toEqual(live);
  expectUpdatesEqualDerivation(ledger);
}

/**
 * Folds the ledger again event by event; after each event that touched a tournament, its
 * matches, standings and placings equal what deriving them all again from its bracket and
 * games gives. A hand scored or a game started updates one match and two rows in place, so a
 * wrong difference would otherwise stand until the next whole derivation hides it.
 */
export function expectUpdatesEqualDerivation(ledger: Ledger): void {
  const models = emptyModels();
  for (const event of ledger.store.readAll()) {
    const change = applyEvent(models, projected(event));
    for (const id of new Set(change.tournaments)) {
      const state = models.tournaments[id]!;
      const derived = structuredClone(state);
      refresh(derived, models.games);
      expect(state.model, `tournament ${id} after position ${event.position} (${event.type})`).toEqual(derived.model);
      expect(state.tally, `tournament ${id} tally after position ${event.position}`).toEqual(derived.tally);
    }
  }
}

/** The refusal a command answers with; fails the test when the command is not refused. */
export function refusal(decide: () => unknown): CommandError {
  try {
    decide();
  } catch (error) {
    if (error instanceof CommandError) return error;
    throw error;
  }
  throw new Error('the command was not refused');
}

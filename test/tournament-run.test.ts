import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { FormatId } from '../engine/formats.ts';
import { type Ledger, openLedger } from '../events/store/sqlite/ledger.ts';
import { rebuildModels } from '../events/store/sqlite/ledger-tools.ts';
import { gameRecord } from '../events/game-projection.ts';
import { scoreRecord } from '../engine/record.ts';
import { createTournament, registerTeam, startTournament } from '../server/commands/tournament-commands.ts';
import { driveTables } from '../server/serve/table-driver.ts';
import { expectUpdatesEqualDerivation } from './tournament-ledger.ts';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function tempLedger(): Ledger {
  const dir = mkdtempSync(join(tmpdir(), 'spades-run-'));
  dirs.push(dir);
  let tick = 0;
  return openLedger({ path: join(dir, 'ledger.db'), synchronous: 'NORMAL', clock: () => new Date(Date.UTC(2026, 0, 1) + tick++ * 1000).toISOString() });
}

/** Sets up a tournament of `teams` teams and drives every table with bots until nothing is left to do. */
async function runTournament(ledger: Ledger, format: FormatId, teams: number, seed: string) {
  const tournamentId = 't1';
  ledger.execute(createTournament(ledger.models, { tournamentId, name: `${format} test`, format }));
  for (let i = 1; i <= teams; i++) {
    ledger.execute(registerTeam(ledger.models, { tournamentId, teamId: `team${i}`, name: `Team ${i}`, players: [`P${i}a`, `P${i}b`] }));
  }
  ledger.execute(startTournament(ledger.models, { tournamentId, seed }));
  let steps = 0;
  while ((await driveTables(ledger, { tournamentId, seed, now: () => '2026-01-01T10:00:00.000Z' })) > 0) {
    steps++;
    if (steps > 200_000) throw new Error('the tournament did not finish');
  }
  return ledger.models.tournaments[tournamentId]!.model;
}

describe('a whole simulated tournament through the ledger', () => {
  for (const [format, teams] of [
    ['pitt-boss', 16],
    ['blp-2024', 7],
    ['unc-intramural', 6],
    ['asher-theatre', 8],
  ] as const) {
    it(`${format} with ${teams} teams finishes with a champion, and the ledger verifies`, async () => {
      const ledger = tempLedger();
      const model = await runTournament(ledger, format, teams, `seed-${format}`);
      expect(model.status).toBe('finished');
      expect(model.placings[0]?.place).toBe(1);
      expect(model.teams.filter((t) => t.status === 'champion')).toHaveLength(1);
      expect(ledger.store.verifyChain().ok).toBe(true);

      // Rebuild equals live: folding from position 0 gives deep-equal read models.
      const live = structuredClone(ledger.models);
      const rebuilt = rebuildModels(ledger.database, ledger.store);
      expect(rebuilt).toEqual(live);
      expectUpdatesEqualDerivation(ledger);

      // The ledger and the record agree: every game, exported and scored, gives the scores shown.
      for (const game of Object.values(ledger.models.games)) {
        const result = scoreRecord(JSON.parse(JSON.stringify(gameRecord(game))));
        expect(result.final).toEqual(game.score);
        expect(result.winner).toBe(game.winner);
      }
      ledger.close();
    });
  }
});

describe('read models are folds', () => {
  it('over random small tournaments a rebuild equals the live models, and applying every event again changes nothing', async () => {
    const fc = await import('fast-check');
    const { applyEvent } = await import('../events/projections.ts');
    const { projected } = await import('../events/store/served-ledger.ts');
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom<FormatId>('pitt-boss', 'blp-2024', 'unc-intramural', 'asher-theatre'),
        fc.integer({ min: 3, max: 5 }),
        fc.string({ minLength: 1, maxLength: 8 }),
        async (format, teams, seed) => {
          const ledger = tempLedger();
          try {
            await runTournament(ledger, format, teams, seed);
            const live = structuredClone(ledger.models);
            for (const event of ledger.store.readAll()) applyEvent(ledger.models, projected(event));
            expect(ledger.models).toEqual(live);
            expect(rebuildModels(ledger.database, ledger.store)).toEqual(live);
            expectUpdatesEqualDerivation(ledger);
          } finally {
            ledger.close();
          }
        },
      ),
      { numRuns: 6 },
    );
  });
});

describe('starting a tournament', () => {
  it('refuses a field its format cannot take, before anything is recorded', () => {
    const ledger = tempLedger();
    ledger.execute(createTournament(ledger.models, { tournamentId: 't1', name: 'Two teams', format: 'pitt-boss' }));
    for (const i of [1, 2]) ledger.execute(registerTeam(ledger.models, { tournamentId: 't1', teamId: `team${i}`, name: `Team ${i}`, players: ['A', 'B'] }));
    const head = ledger.store.head().position;
    expect(() => startTournament(ledger.models, { tournamentId: 't1', seed: 'x' })).toThrow(/t1: .*first-round-losers needs at least 3 teams/);
    expect(ledger.store.head().position).toBe(head);
    ledger.close();
  });
});

describe('the ledger and the record agree through the real command', () => {
  it('a game exported as a record and scored by `spades score` gives the scores its read model shows', async () => {
    const { execFileSync } = await import('node:child_process');
    const { writeFileSync } = await import('node:fs');
    const ledger = tempLedger();
    await runTournament(ledger, 'unc-intramural', 3, 'record-check');
    const games = Object.values(ledger.models.games).filter((g) => g.winner);
    expect(games.length).toBeGreaterThan(0);
    for (const game of games) {
      const file = join(dirs[dirs.length - 1]!, `${game.gameId}.json`);
      writeFileSync(file, JSON.stringify(gameRecord(game)));
      const printed = JSON.parse(execFileSync(process.execPath, ['bin/spades.js', 'score', file], { encoding: 'utf8' }));
      expect(printed.final).toEqual(game.score);
      expect(printed.winner).toBe(game.winner);
      expect(printed.hands.map((h: { NS: { score: number }; EW: { score: number } }) => [h.NS.score, h.EW.score])).toEqual(
        game.rows.map((r) => [r.NS.score, r.EW.score]),
      );
    }
    ledger.close();
  });
});

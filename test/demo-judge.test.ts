/**
 * The demo keeps moving: its bots renege now and then and the other team claims each renege; a
 * claim holds its match until it is ruled on, so the demo's judge rules every claim within a
 * minute of demo time, recorded as the demo judge. Demo time here is an injected clock moved one
 * pace (a second) per step of the tables: nothing waits for real.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openLedger } from '../events/store/sqlite/ledger.ts';
import { DEMO_JUDGE, driveTables } from '../server/serve/table-driver.ts';
import { createTournament, registerTeam, startTournament } from '../server/commands/tournament-commands.ts';
import { expectRebuildEqualsLive } from './tournament-ledger.ts';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const PACE_MS = 1000;

describe('the demo judge', () => {
  it('rules every bot claim within a minute of demo time, under its own name, and the event plays to the end', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'spades-demo-judge-'));
    dirs.push(dir);
    let clock = Date.parse('2026-03-01T18:00:00.000Z');
    const now = () => new Date(clock).toISOString();
    const ledger = openLedger({ path: join(dir, 'ledger.db'), synchronous: 'NORMAL', clock: now });
    ledger.execute(createTournament(ledger.models, { tournamentId: 'demo', name: 'Pitt Boss Spades (demo)', format: 'pitt-boss' }));
    for (let i = 1; i <= 4; i++)
      ledger.execute(registerTeam(ledger.models, { tournamentId: 'demo', teamId: `team-${i}`, name: `Team ${i}`, players: [`P${i}a`, `P${i}b`] }));
    ledger.execute(startTournament(ledger.models, { tournamentId: 'demo', seed: 'demo-judge' }));

    let held = 0;
    const waiting = () => Object.values(ledger.models.games).some((g) => g.claims.some((c) => !c.ruling));
    for (let tick = 0; ; tick++) {
      if (tick > 200_000) throw new Error('the demo never finished');
      const made = await driveTables(ledger, { tournamentId: 'demo', seed: 'demo-judge', renegeChance: 0.03, now });
      if (ledger.models.tournaments.demo!.model.matches.some((m) => m.awaitingRuling)) held++;
      clock += PACE_MS;
      if (made === 0 && !waiting()) break;
    }

    expect(ledger.models.tournaments.demo!.model.status).toBe('finished');
    const claims = Object.values(ledger.models.games).flatMap((g) => g.claims);
    expect(claims.length).toBeGreaterThan(2);
    // While each claim waited, its match was held.
    expect(held).toBeGreaterThan(0);
    for (const claim of claims) {
      expect(claim.ruling, claim.claimId).toBeDefined();
      const waited = Date.parse(claim.ruling!.at) - Date.parse(claim.at);
      expect(waited, claim.claimId).toBeLessThanOrEqual(60_000);
      expect(waited, claim.claimId).toBeGreaterThanOrEqual(20_000);
      expect(claim.ruling!.judge).toBe('Demo judge');
      // The bots claim only what the plays show, so the judge upholds them.
      expect(claim.ruling!.upheld).toBe(true);
    }
    const rulings = ledger.store.readAll().filter((e) => e.type === 'RulingGiven');
    expect(rulings).toHaveLength(claims.length);
    for (const e of rulings) expect(e.meta.by).toBe(DEMO_JUDGE.by);
    expectRebuildEqualsLive(ledger);
    ledger.close();
  });
});

/**
 * `spades import FILE --tournament T --match R2-T3`, run as its own process: a progressive
 * table's paper score sheet for a round entered into the game the round started at that table,
 * or refused with exit 2 and one line, writing nothing.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openLedger } from '../events/store/sqlite/ledger.ts';
import { checkedRecordImport } from '../server/commands/replay-check.ts';
import { startRound } from '../server/commands/match-commands.ts';
import { createTournament, registerPlayer, startTournament } from '../server/commands/tournament-commands.ts';
import { spadesProcess } from './fixtures/spades-process.ts';

// NS bid 7 and take 8, EW bid 5 and take 5: NS 71, EW 50 each hand.
const HAND = { bids: { N: 4, E: 3, S: 3, W: 2 }, tricks: { N: 5, E: 3, S: 3, W: 2 } };
const sheet = (hands: number) => ({ format: 'spades-game/1', rules: 'tournament-spades', hands: Array.from({ length: hands }, () => HAND) });

let dir: string;
let db: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'spades-cli-import-'));
  db = join(dir, 'ledger.db');
  // An evening of eight whose round 1 was entered from its sheets, and round 2 just seated.
  const ledger = openLedger({ path: db });
  const m = ledger.models;
  ledger.execute(createTournament(m, { tournamentId: 'eve', name: 'Friday tables', format: 'tournament-spades', options: { rounds: 3 } }));
  ['Ada', 'Ben', 'Cy', 'Dee', 'Eve', 'Fay', 'Gus', 'Hal'].forEach((name) =>
    ledger.execute(registerPlayer(m, { tournamentId: 'eve', playerId: name.toLowerCase(), name })),
  );
  ledger.execute(startTournament(m, { tournamentId: 'eve', seed: 'cli' }));
  ledger.execute(startRound(m, { tournamentId: 'eve', seed: 'cli-1' }));
  for (const matchId of ['R1-T1', 'R1-T2'])
    ledger.execute((models) => checkedRecordImport(models, sheet(4), { tournamentId: 'eve', matchId }, '2026-03-01T20:00:00.000Z'));
  ledger.execute(startRound(m, { tournamentId: 'eve', seed: 'cli-2' }));
  ledger.close();
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('spades import of a progressive round’s score sheet', () => {
  it('enters the sheet into the game round 2 started at table 1 and says where', async () => {
    const file = join(dir, 'r2-t1.json');
    writeFileSync(file, JSON.stringify(sheet(4)));
    const result = await spadesProcess(['import', file, '--tournament', 'eve', '--match', 'R2-T1', '--db', db]);
    const ledger = openLedger({ path: db, readonly: true });
    try {
      const head = ledger.store.head();
      // Four hands: a deal, four bids and the tricks each, into the game that was already there.
      expect(result).toEqual({
        code: 0,
        stdout: `game eve-R2-T1: 24 events at positions ${head.position - 23}–${head.position}\nhead ${ledger.store.digest()}\n`,
        stderr: '',
      });
      const game = ledger.models.games['eve-R2-T1']!;
      expect([game.hands.length, game.score, game.winner]).toEqual([4, { NS: 284, EW: 200 }, 'NS']);
      expect(ledger.store.readStream('game-eve-R2-T1').filter((e) => e.type === 'GameStarted')).toHaveLength(1);
    } finally {
      ledger.close();
    }
  });

  it('refuses a sheet that leaves the round unfinished with exit 2 and one line, writing nothing', async () => {
    const before = openLedger({ path: db, readonly: true });
    const head = before.store.digest();
    before.close();
    const file = join(dir, 'r2-t2.json');
    writeFileSync(file, JSON.stringify(sheet(3)));
    const result = await spadesProcess(['import', file, '--tournament', 'eve', '--match', 'R2-T2', '--db', db]);
    expect(result).toEqual({
      code: 2,
      stdout: '',
      stderr: `spades import: ${file}: record: hands: round 2 at table 2 is 4 hands (one more while the sides are tied), and the sheet has 3 hands; enter the whole round (NS 213, EW 150 so far); nothing was imported\n`,
    });
    const after = openLedger({ path: db, readonly: true });
    expect(after.store.digest()).toBe(head);
    after.close();
  });
});

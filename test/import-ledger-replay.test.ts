/**
 * `spades import-ledger` replays each row through its live command over whole played events of
 * every kind: a blp bracket drawn round by round with its byes, an Asher challenge with its toss
 * and a clock per game, and a progressive evening of 13 players with its sit-outs and a change
 * of rounds. Each imports as exported; a forged bye or a forged change refuses the row. A Pitt
 * Boss event recorded under the rulebook's first reading (blind bids in turn) imports as played.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { isDeepStrictEqual } from 'node:util';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LedgerLine } from '../events/store/ledger-file.ts';
import { exportLines } from '../events/store/sqlite/ledger-tools.ts';
import { type Ledger, openLedger } from '../events/store/sqlite/ledger.ts';
import { driveTables } from '../server/serve/table-driver.ts';
import { changeRounds, createTournament, registerPlayer, registerTeam, startTournament } from '../server/commands/tournament-commands.ts';
import { cli } from './fixtures/cli.ts';
import { keepPlaying, playTournament } from './fixtures/audit-ledger.ts';
import { rechained } from './fixtures/rechain.ts';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'spades-import-replay-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function played(name: string, play: (ledger: Ledger) => Promise<unknown>): Promise<LedgerLine[]> {
  const ledger = openLedger({ path: join(dir, `${name}.db`), synchronous: 'NORMAL' });
  try {
    await play(ledger);
    return [...exportLines(ledger.database)].map((text) => JSON.parse(text) as LedgerLine);
  } finally {
    ledger.close();
  }
}

const importInto = (name: string, text: string) => cli(['import-ledger', '-', '--db', join(dir, `${name}.db`)], text);

describe('import-ledger over whole played events', () => {
  it('takes a blp bracket of 7 teams drawn round by round, and refuses a bye forged to a lower card', async () => {
    const lines = await played('blp7', (ledger) => playTournament(ledger, { teams: 7, seed: 'odd', renegeChance: 0.02 }));
    const draws = lines.filter((l) => l.type === 'BracketRoundDrawn');
    expect(draws.length).toBeGreaterThan(2);
    expect(await importInto('blp7-copy', rechained(lines))).toMatchObject({ code: 0 });

    const forged = draws.find((l) => (l.payload as { draws: unknown[] }).draws.length > 0)!;
    const draw = (forged.payload as { draws: { teams: string[]; bye: string }[] }).draws[0]!;
    const other = draw.teams.find((t) => t !== draw.bye)!;
    const result = await importInto(
      'blp7-forged',
      rechained(lines, (ls) => void ((ls[forged.position - 1]!.payload as { draws: { bye: string }[] }).draws[0]!.bye = other)),
    );
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(new RegExp(`^spades import-ledger: -: line ${forged.position + 1} \\(position ${forged.position}\\): `));
  });

  it('takes an Asher challenge with its coin toss and a clock per game', async () => {
    const lines = await played('asher', (ledger) => playTournament(ledger, { format: 'asher-theatre', teams: 4, seed: 'toss', renegeChance: 0 }));
    expect(lines.some((l) => l.type === 'MatchStarted' && (l.payload as { firstDealer?: { method: string } }).firstDealer?.method === 'coin-toss')).toBe(true);
    expect(await importInto('asher-copy', rechained(lines))).toMatchObject({ code: 0 });
  });

  it('takes a progressive evening of 13 with its sit-outs, and refuses a change of rounds once the last round has started', async () => {
    const lines = await played('evening', async (ledger) => {
      const m = () => ledger.models;
      ledger.execute(createTournament(m(), { tournamentId: 'eve', name: 'Evening', format: 'tournament-spades', options: { rounds: 2 } }));
      for (let i = 1; i <= 13; i++) ledger.execute(registerPlayer(m(), { tournamentId: 'eve', playerId: `p${i}`, name: `Player ${i}` }));
      ledger.execute(startTournament(m(), { tournamentId: 'eve', seed: 'eve' }));
      ledger.execute(changeRounds(m(), { tournamentId: 'eve', rounds: 3 }));
      for (let step = 0; step < 5000 && (await driveTables(ledger, { tournamentId: 'eve', seed: 'eve', now: () => '2026-01-01T20:00:00.000Z' })) > 0; step++);
      expect(m().tournaments.eve!.model.status).toBe('finished');
    });
    expect(lines.filter((l) => l.type === 'ProgressiveRoundStarted')).toHaveLength(3);
    expect(await importInto('evening-copy', rechained(lines))).toMatchObject({ code: 0 });

    const change = lines.find((l) => l.type === 'ProgressiveRoundsChanged')!;
    const last = lines.filter((l) => l.type === 'ProgressiveRoundStarted').at(-1)!;
    // The change moved to just after the last round started: no director could have made it then.
    const moved = (ls: LedgerLine[]) => {
      const [row] = ls.splice(change.position - 1, 1);
      ls.splice(last.position - 1, 0, row!);
      ls.forEach((l, i) => (l.position = i + 1));
    };
    const result = await importInto('evening-forged', rechained(lines, moved));
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/rounds/);
  });
  it('takes a Pitt Boss event recorded when its blind bids were made in turn, and folds it as it was played', async () => {
    // Played under the first reading of the rulebook, then written back as that reading's rows
    // were: version 1 of the event and its games, naming the preset alone.
    const first = { preset: 'pitt-boss', blindBidDeclared: 'in-turn', afterMisdeal: 'next-dealer' };
    let scores: Record<string, unknown> = {};
    const lines = await played('pitt-first', async (ledger) => {
      const m = () => ledger.models;
      ledger.execute(createTournament(m(), { tournamentId: 'pb', name: 'Pitt Boss', format: 'pitt-boss', options: { rules: first, finalRules: first } }));
      for (let i = 1; i <= 4; i++)
        ledger.execute(registerTeam(m(), { tournamentId: 'pb', teamId: `team${i}`, name: `Team ${i}`, players: [`P${i}a`, `P${i}b`] }));
      ledger.execute(startTournament(m(), { tournamentId: 'pb', seed: 'first-read' }));
      await keepPlaying(ledger, { tournamentId: 'pb', seed: 'first-read', renegeChance: 0, stopAt: 3000 });
      scores = Object.fromEntries(Object.values(m().games).map((g) => [g.gameId, { score: g.score, winner: g.winner, hands: g.hands.length }]));
    });
    const inTurn = lines.filter((l) => l.type === 'BidMade' && /blind/.test(String((l.payload as { bid: unknown }).bid)));
    expect(inTurn.length).toBeGreaterThan(0);
    const sameAsFirst = (rules: unknown) => isDeepStrictEqual(rules, first);
    let games = 0;
    const asFirstWritten = (ls: LedgerLine[]) => {
      for (const line of ls) {
        const payload = line.payload as { rules?: unknown; options?: Record<string, unknown> };
        if (line.type === 'GameStarted' && sameAsFirst(payload.rules)) {
          games++;
          line.schema_version = 1;
          payload.rules = 'pitt-boss';
        }
        if (line.type === 'TournamentCreated') {
          line.schema_version = 1;
          for (const key of ['rules', 'firstRoundRules', 'finalRules']) if (sameAsFirst(payload.options![key])) payload.options![key] = 'pitt-boss';
        }
      }
    };
    const text = rechained(lines, asFirstWritten);
    expect(games).toBe(lines.filter((l) => l.type === 'GameStarted').length);
    expect(await importInto('pitt-first-copy', text)).toMatchObject({ code: 0 });
    const copy = openLedger({ path: join(dir, 'pitt-first-copy.db'), synchronous: 'NORMAL' });
    try {
      const folded = Object.fromEntries(Object.values(copy.models.games).map((g) => [g.gameId, { score: g.score, winner: g.winner, hands: g.hands.length }]));
      expect(folded).toEqual(scores);
    } finally {
      copy.close();
    }
  });
});

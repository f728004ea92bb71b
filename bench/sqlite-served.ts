/**
 * Table entries through one server's ledger on the SQLite file (synchronous=FULL): each entry is
 * the whole command path short of HTTP (fold what the file holds, decide the next deal, bid or
 * card at a table as its scorekeeper would, append expecting the versions decided from, answer
 * once committed and folded), made through the served ledger the server uses, which commits the
 * appends that arrive together in one transaction (events/store/sqlite/served-ledger.ts).
 *
 *   1 writer      one table's entry after another, each waiting for its answer
 *   32 at once    32 tables each entering as soon as its last entry was answered, as 32
 *                 scorekeepers at a busy event do
 *
 * The two are run back to back in each round and compared as the median of their ratios, with the
 * mean number of appends each transaction carried beside them. The tournament (64 teams, 32 tables
 * of round 1) is set up with the same commands the director's desk uses.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openLedger } from '../events/store/sqlite/ledger.ts';
import { servedLedger } from '../events/store/sqlite/served-ledger.ts';
import { createTournament, registerTeam, startTournament } from '../server/commands/tournament-commands.ts';
import { driveServedTables, driveTables, nextEntry } from '../server/serve/table-driver.ts';
import { type Figure, percentile, rateFigure, withGoal } from './harness.ts';

const TABLES = 32;
const ROUNDS = 5;
// Entries per round: by the single writer, and by each of the 32 tables.
const SINGLE = 120;
const EACH = 20;
const TOURNAMENT = 'bench-cup';
const SEED = 'bench-entries';

export async function sqliteServedFigures(): Promise<Figure[]> {
  const dir = mkdtempSync(join(tmpdir(), 'spades-served-bench-'));
  const ledger = openLedger({ path: join(dir, 'ledger.db'), synchronous: 'FULL', onNotice: () => {} });
  const served = servedLedger(ledger);
  try {
    ledger.execute((m) => createTournament(m, { tournamentId: TOURNAMENT, name: 'Bench Cup', format: 'pitt-boss' }));
    for (let i = 1; i <= TABLES * 2; i++) {
      ledger.execute((m) => registerTeam(m, { tournamentId: TOURNAMENT, teamId: `team-${i}`, name: `Team ${i}`, players: [`P${i}a`, `P${i}b`] }));
    }
    ledger.execute((m) => startTournament(m, { tournamentId: TOURNAMENT, seed: SEED }));
    // The director seats every table and the first deals are made.
    for (let i = 0; i < 3; i++) driveTables(ledger, { tournamentId: TOURNAMENT, seed: SEED });
    const games = () => Object.values(ledger.models.games).filter((g) => g.tournamentId === TOURNAMENT && !g.winner).map((g) => g.gameId);
    const playing = games().length;
    if (playing < TABLES) throw new Error(`only ${playing} of ${TABLES} tables are playing`);

    /** The next entry at a table, through the served ledger; false when the table has none to make. */
    const enter = async (gameId: string): Promise<boolean> => {
      let made = false;
      await served.append((models) => {
        const game = models.games[gameId];
        const decision = game && !game.winner ? nextEntry(served, game, { seed: SEED }) : null;
        made = decision !== null;
        return decision ?? [];
      }, { meta: { by: 'bench' } });
      return made;
    };
    // Each writer enters at a table of its own; a table whose game is over gives way to another.
    const claimed = new Set<string>();
    const claim = async (): Promise<string | null> => {
      let free = games().find((g) => !claimed.has(g));
      if (!free) {
        // Every playing table is taken: the director starts the next games.
        await driveServedTables(served, { tournamentId: TOURNAMENT, seed: SEED });
        free = games().find((g) => !claimed.has(g));
      }
      if (free) claimed.add(free);
      return free ?? null;
    };
    /** `count` entries, one after another, each waiting for its answer. */
    const writer = async (count: number): Promise<void> => {
      let table = await claim();
      try {
        for (let done = 0; done < count; ) {
          if (!table) throw new Error('the tournament ran out of tables to enter at');
          if (await enter(table)) done++;
          else {
            claimed.delete(table);
            table = await claim();
          }
        }
      } finally {
        if (table) claimed.delete(table);
      }
    };
    const sides = {
      one: () => writer(SINGLE),
      many: () => Promise.all(Array.from({ length: TABLES }, () => writer(EACH))),
    };
    const entries = { one: SINGLE, many: TABLES * EACH };
    const rates: Record<keyof typeof sides, number[]> = { one: [], many: [] };
    const batches: Record<keyof typeof sides, number[]> = { one: [], many: [] };
    // A round unmeasured first: statements prepared, caches warmed.
    await sides.one();
    await sides.many();
    for (let round = 0; round < ROUNDS; round++) {
      for (const side of ['one', 'many'] as const) {
        const before = served.commitStats();
        const start = process.hrtime.bigint();
        await sides[side]();
        const seconds = Number(process.hrtime.bigint() - start) / 1e9;
        const after = served.commitStats();
        rates[side].push(entries[side] / seconds);
        batches[side].push((after.appends - before.appends) / (after.transactions - before.transactions));
      }
    }
    if (!(await served.verify()).ok) throw new Error('the SQLite benchmark ledger does not verify');
    const oneName = 'SQLite: table entries through one server, 1 writer (fold, decide, append, synchronous=FULL)';
    const manyName = `SQLite: table entries through one server, ${TABLES} tables at once`;
    const ratios = rates.many.map((rate, i) => rate / rates.one[i]!);
    const batch = (side: keyof typeof sides, name: string): Figure => ({
      name: `mean batch: appends per transaction, ${name.replace(/^SQLite: /, 'SQLite, ')}`,
      unit: 'appends/transaction',
      median: percentile(batches[side], 50),
      p99: percentile(batches[side], 99),
      samples: batches[side].length,
    });
    return [
      rateFigure(oneName, 'entries/s', rates.one),
      batch('one', oneName),
      { ...rateFigure(manyName, 'entries/s', rates.many), comparedTo: { name: oneName, ratio: percentile(ratios, 50) } },
      batch('many', manyName),
      withGoal({ name: `SQLite: ${TABLES} table entries at once within one process against 1 writer`, unit: '×', median: percentile(ratios, 50), p99: percentile(ratios, 1), samples: ratios.length }, { atLeast: 5 }),
    ];
  } finally {
    await served.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

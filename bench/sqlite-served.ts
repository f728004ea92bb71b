/**
 * Table entries through one server's ledger on the SQLite file (synchronous=FULL): each entry is
 * the server's whole command path short of HTTP (fold what the file holds, run the entry's
 * command, dealHand, makeBid or playCard, against the models, append expecting the versions it
 * was decided from, answer once committed and folded), made through the served ledger the server
 * uses, which commits the appends that arrive together in one transaction
 * (events/store/sqlite/served-ledger.ts). What each scorekeeper enters (the bots' deals, bids and
 * cards) is worked out before the clock starts, on a copy of the ledger, as a scorekeeper's
 * choice is made at the table and not by the server.
 *
 *   1 writer      one table's entry after another, each waiting for its answer
 *   32 at once    32 tables each entering as soon as its last entry was answered, as 32
 *                 scorekeepers at a busy event do
 *
 * The two are run back to back in each round and compared as the median of their ratios, with the
 * mean number of appends each transaction carried beside them. The tournament (64 teams, 32 tables
 * of round 1) is set up with the same commands the director's desk uses.
 */
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openLedger } from '../events/store/sqlite/ledger.ts';
import { servedLedger } from '../events/store/sqlite/served-ledger.ts';
import { createTournament, registerTeam, startTournament } from '../server/commands/tournament-commands.ts';
import { driveTables, nextEntry } from '../server/serve/table-driver.ts';
import { dealHand, makeBid, playCard } from '../server/commands/game-commands.ts';
import type { Seat } from '../engine/cards.ts';
import type { Decision } from '../events/store/served-ledger.ts';
import type { ReadModels } from '../events/projections.ts';
import { type Figure, percentile, rateFigure, withGoal } from './harness.ts';

const TABLES = 32;
const ROUNDS = 5;
// Entries per round: by the single writer, and by each of the 32 tables.
const SINGLE = 4 * TABLES;
const EACH = 20;
const TOURNAMENT = 'bench-cup';
const SEED = 'bench-entries';

/** One scorekeeper's entry, as the server's command for it runs against the models. */
type Entry = (models: ReadModels) => Decision;

/** The entry a bot's decision stands for: the same command a scorekeeper's request runs. */
function entryOf(gameId: string, decision: Decision): Entry {
  const [event] = decision.events;
  const p = event!.payload as Record<string, unknown>;
  switch (event!.type) {
    case 'HandDealt':
      // A team far behind may declare its blind bids with the deal (Pitt Boss): entered with it.
      return (m) => dealHand(m, { gameId, seed: p.seed as string, ...(p.blind ? { blind: p.blind as Partial<Record<Seat, number>> } : {}) });
    case 'BidMade':
      return (m) => makeBid(m, { gameId, seat: p.seat as string, bid: p.bid });
    case 'CardPlayed':
      return (m) => playCard(m, { gameId, seat: p.seat as string, card: p.card as string });
    default:
      throw new Error(`a table entry of type ${event!.type} was not expected`);
  }
}

export async function sqliteServedFigures(): Promise<Figure[]> {
  const dir = mkdtempSync(join(tmpdir(), 'spades-served-bench-'));
  try {
    return await measure(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function measure(dir: string): Promise<Figure[]> {
  const path = join(dir, 'ledger.db');
  const ledger = openLedger({ path, synchronous: 'FULL', onNotice: () => {} });
  try {
    ledger.execute((m) => createTournament(m, { tournamentId: TOURNAMENT, name: 'Bench Cup', format: 'pitt-boss' }));
    for (let i = 1; i <= TABLES * 2; i++) {
      ledger.execute((m) => registerTeam(m, { tournamentId: TOURNAMENT, teamId: `team-${i}`, name: `Team ${i}`, players: [`P${i}a`, `P${i}b`] }));
    }
    ledger.execute((m) => startTournament(m, { tournamentId: TOURNAMENT, seed: SEED }));
    // The director seats every table.
    await driveTables(ledger, { tournamentId: TOURNAMENT, seed: SEED });
    const tables = Object.values(ledger.models.games)
      .filter((g) => g.tournamentId === TOURNAMENT && !g.winner)
      .map((g) => g.gameId);
    if (tables.length < TABLES) throw new Error(`only ${tables.length} of ${TABLES} tables are playing`);
    ledger.snapshot();
  } finally {
    ledger.close();
  }

  // Each table's entries for every round, worked out by the bots on a copy of the ledger; the
  // tables are apart (a stream each), so each table's list holds whatever order they come in.
  const scratchPath = join(dir, 'scratch.db');
  copyFileSync(path, scratchPath);
  const scratch = openLedger({ path: scratchPath, synchronous: 'NORMAL', onNotice: () => {} });
  const perTable = (ROUNDS + 1) * (EACH + SINGLE / TABLES);
  const queues = new Map<string, Entry[]>();
  try {
    for (const game of Object.values(scratch.models.games)) {
      if (game.tournamentId !== TOURNAMENT || game.winner) continue;
      const entries: Entry[] = [];
      for (let i = 0; i < perTable; i++) {
        const decision = nextEntry(scratch, scratch.models.games[game.gameId]!, { seed: SEED });
        if (!decision) throw new Error(`table ${game.gameId} ran out of entries after ${i}`);
        scratch.execute(decision);
        entries.push(entryOf(game.gameId, decision));
      }
      queues.set(game.gameId, entries);
    }
  } finally {
    scratch.close();
  }

  const served = servedLedger(openLedger({ path, synchronous: 'FULL', onNotice: () => {} }));
  try {
    const tables = [...queues.keys()].slice(0, TABLES);
    /** The next entry at a table, through the served ledger as the entry routes make it. */
    const enter = (gameId: string) => served.append(queues.get(gameId)!.shift()!, { meta: { by: 'bench' } });
    const sides = {
      // One scorekeeper after another, going round the tables.
      one: async () => {
        for (let i = 0; i < SINGLE; i++) await enter(tables[i % TABLES]!);
      },
      // Every table at once, each entering as soon as its last entry was answered.
      many: () =>
        Promise.all(
          tables.map(async (gameId) => {
            for (let i = 0; i < EACH; i++) await enter(gameId);
          }),
        ),
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
      withGoal(
        {
          name: `SQLite: ${TABLES} table entries at once within one process against 1 writer`,
          unit: '×',
          median: percentile(ratios, 50),
          p99: percentile(ratios, 1),
          samples: ratios.length,
        },
        { atLeast: 5 },
      ),
    ];
  } finally {
    await served.close();
  }
}

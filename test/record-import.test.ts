/**
 * Entering a game played on paper: a spades-game/1 record becomes the events a live table
 * would have recorded, and the game folded from them scores exactly as the record does.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openLedger } from '../events/store/sqlite/ledger.ts';
import { openDatabase } from '../events/store/sqlite/database.ts';
import { exportLedger, importLedger } from '../events/store/sqlite/ledger-tools.ts';
import { replayProblem } from '../server/commands/replay-check.ts';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { main } from '../server/cli/main.ts';
import { scoreRecord } from '../engine/record.ts';
import { gameRecord } from '../events/game-projection.ts';
import type { Ledger } from '../events/store/sqlite/ledger.ts';
import { PAPER_JUDGE, RecordImportError, importRecord } from '../events/record-import.ts';
import { gameStream } from '../events/streams.ts';
import { createTournament, registerTeam, startTournament } from '../server/commands/tournament-commands.ts';
import { type AuditLedger, playTournament, tempLedger } from './fixtures/audit-ledger.ts';
import { dealFor, dealNames, fullGameRecord, names, playOut } from './record-builders.ts';

const open: AuditLedger[] = [];
afterEach(() => {
  for (const l of open.splice(0)) l.remove();
});
function ledger(): Ledger {
  const l = tempLedger();
  open.push(l);
  return l.ledger;
}

const AT = '2026-03-01T12:00:00.000Z';

function refusal(run: () => unknown): RecordImportError {
  try {
    run();
  } catch (error) {
    if (error instanceof RecordImportError) return error;
    throw error;
  }
  throw new Error('expected the import to be refused');
}

describe('a record entered as a game of its own', () => {
  it('appends GameStarted, the deal, the bids in bidding order, each card, the misdeal, the tricks, and the claim with its ruling', () => {
    // given the whole-game record: plays with a renege upheld, a misdeal, a hand by tricks, a hand to the target
    const record = fullGameRecord();
    const l = ledger();
    // when it is entered
    const decision = importRecord(l.models, record, { gameId: 'paper-1', teams: { NS: 'Ana & Cy', EW: 'Ben & Dee' } }, AT);
    l.execute(decision);
    // then the stream is the game's, in the order a table would have recorded it
    expect(decision.stream).toBe(gameStream('paper-1'));
    const types = l.store.readStream('game-paper-1').map((e) => e.type);
    expect(types.slice(0, 6)).toEqual(['GameStarted', 'HandDealt', 'BidMade', 'BidMade', 'BidMade', 'BidMade']);
    expect(types.filter((t) => t === 'CardPlayed')).toHaveLength(104);
    expect(types.filter((t) => t === 'HandDealt')).toHaveLength(4);
    expect(types.filter((t) => t === 'MisdealCalled')).toHaveLength(1);
    expect(types.filter((t) => t === 'TricksRecorded')).toHaveLength(1);
    const bids = l.store.readStream('game-paper-1').filter((e) => e.type === 'BidMade' && (e.payload as { hand: number }).hand === 1);
    // unc-300 bids the non-dealing team first: N deals, so E, then W, then S, then N
    expect(bids.map((e) => (e.payload as { seat: string }).seat)).toEqual(['E', 'W', 'S', 'N']);
    const ruling = l.store.readStream('game-paper-1').find((e) => e.type === 'RulingGiven')!;
    expect(ruling.payload).toMatchObject({ upheld: true, judge: PAPER_JUDGE });

    // and the folded game scores as the record does, hand by hand
    const game = l.models.games['paper-1']!;
    const expected = scoreRecord(record);
    expect(game.problem).toBeUndefined();
    expect(game.score).toEqual(expected.final);
    expect(game.winner).toBe(expected.winner);
    expect(game.rows.map((r) => ({ NS: r.NS, EW: r.EW, reneges: r.reneges, illegalLeads: r.illegalLeads }))).toEqual(expected.hands);
    expect(game.seats).toEqual(record.seats);
    expect(game.teams).toEqual({ NS: 'Ana & Cy', EW: 'Ben & Dee' });
  });

  it('exported again, the game is the same record: entering that gives the same game', () => {
    const first = ledger();
    first.execute(importRecord(first.models, fullGameRecord(), { gameId: 'paper-1' }, AT));
    const exported = JSON.parse(JSON.stringify(gameRecord(first.models.games['paper-1']!)));
    const second = ledger();
    second.execute(importRecord(second.models, exported, { gameId: 'paper-1' }, AT));
    expect(gameRecord(second.models.games['paper-1']!)).toEqual(exported);
    expect(second.models.games['paper-1']!.rows.map(({ position: _, ...row }) => row)).toEqual(
      first.models.games['paper-1']!.rows.map(({ position: _, ...row }) => row),
    );
  });

  it('reads cards and bids in any case and writes them as the ledger does', () => {
    const deal = dealFor('unc-300', 'N', 5);
    const plays = names(playOut('unc-300', 'N', deal)).map((t) => t.map((c) => c.toLowerCase().replace('10', 't')));
    const record = { format: 'spades-game/1', rules: 'unc-300', hands: [{ bids: { N: 'NIL', E: 4, S: 4, W: 4 }, plays }] };
    const l = ledger();
    l.execute(importRecord(l.models, record, { gameId: 'lower' }, AT));
    const events = l.store.readStream('game-lower');
    expect(events.find((e) => e.type === 'BidMade' && (e.payload as { seat: string }).seat === 'N')!.payload).toMatchObject({ bid: 'nil' });
    const first = events.find((e) => e.type === 'CardPlayed')!.payload as { card: string };
    expect(first.card).toBe(names(playOut('unc-300', 'N', deal))[0]![0]);
    expect(l.models.games.lower!.score).toEqual(scoreRecord(record).final);
  });

  it('keeps a deal given with the record, so the replay shows the hands as dealt', () => {
    const deal = dealFor('unc-300', 'E', 9);
    const record = {
      format: 'spades-game/1',
      rules: 'unc-300',
      dealer: 'E',
      hands: [{ deal: dealNames(deal), bids: { N: 3, E: 3, S: 3, W: 3 }, plays: names(playOut('unc-300', 'E', deal)) }],
    };
    const l = ledger();
    l.execute(importRecord(l.models, record, { gameId: 'dealt' }, AT));
    const dealt = l.store.readStream('game-dealt').find((e) => e.type === 'HandDealt')!.payload;
    expect(dealt).toEqual({ gameId: 'dealt', hand: 1, dealer: 'E', deal: dealNames(deal) });
  });
});

describe('records and targets the import refuses, with nothing appended', () => {
  it('a record the scorer refuses, naming the hand', () => {
    const l = ledger();
    const record = { format: 'spades-game/1', rules: 'unc-300', hands: [{ bids: { N: 3, E: 3, S: 3, W: 3 }, tricks: { N: 3, E: 3, S: 3, W: 3 } }] };
    const error = refusal(() => importRecord(l.models, record, { gameId: 'bad' }, AT));
    expect(error.status).toBe(400);
    expect(error.message).toBe('record: hand 1: tricks add up to 12 (N 3, E 3, S 3, W 3); a hand has 13');
    expect(l.store.head().position).toBe(0);
  });

  it('a game id already taken', () => {
    const l = ledger();
    l.execute(importRecord(l.models, fullGameRecord(), { gameId: 'paper-1' }, AT));
    const error = refusal(() => importRecord(l.models, fullGameRecord(), { gameId: 'paper-1' }, AT));
    expect([error.status, error.message]).toEqual([409, 'game paper-1 already exists']);
  });

  it('a time call without a match to call it in', () => {
    const l = ledger();
    const error = refusal(() => importRecord(l.models, { ...fullGameRecord(), timeCalled: 4 }, { gameId: 'timed' }, AT));
    expect(error.message).toBe('record: timeCalled needs a match to be imported into; game timed would have no match clock to call time on');
  });

  it('a match that does not exist, that is over, or that plays under other rules', async () => {
    const l = ledger();
    const tournamentId = await playTournament(l, { renegeChance: 0 });
    const done = l.models.tournaments[tournamentId]!.model.matches.find((m) => m.status === 'done')!;
    expect(refusal(() => importRecord(l.models, fullGameRecord(), { tournamentId, matchId: 'nope' }, AT)).status).toBe(404);
    const over = refusal(() => importRecord(l.models, fullGameRecord(), { tournamentId, matchId: done.matchId }, AT));
    expect([over.status, over.message]).toEqual([
      409,
      `tournament ${tournamentId} match ${done.matchId} is done; a game can be entered only into a match that is ready or being played`,
    ]);

    const fresh = ledger();
    fresh.execute(createTournament(fresh.models, { tournamentId: 't2', name: 'Paper cup', format: 'blp-2024' }));
    fresh.execute(registerTeam(fresh.models, { tournamentId: 't2', teamId: 'a', name: 'A', players: ['A1', 'A2'] }));
    fresh.execute(registerTeam(fresh.models, { tournamentId: 't2', teamId: 'b', name: 'B', players: ['B1', 'B2'] }));
    fresh.execute(startTournament(fresh.models, { tournamentId: 't2', order: ['a', 'b'] }));
    const matchId = fresh.models.tournaments.t2!.model.matches.find((m) => m.status === 'ready')!.matchId;
    const rules = refusal(() => importRecord(fresh.models, fullGameRecord(), { tournamentId: 't2', matchId }, AT));
    expect(rules.message).toBe(
      `tournament t2 match ${matchId} plays under this event’s rules, not the record’s: Points to win a game is 200 here and 300 in the record; Cards taken out is none here and 2H 2D in the record; Jokers is no here and yes in the record; and 11 more`,
    );
  });
});

describe('a record entered into a match', () => {
  it('takes the match teams, its players as seats and the next game number, and decides the match', () => {
    // given a four-team unc-intramural event, whose first round plays unc-300
    const l = ledger();
    l.execute(createTournament(l.models, { tournamentId: 't2', name: 'Paper cup', format: 'unc-intramural' }));
    for (const id of ['a', 'b', 'c', 'd']) {
      const name = id.toUpperCase();
      l.execute(registerTeam(l.models, { tournamentId: 't2', teamId: id, name, players: [`${name}1`, `${name}2`] }));
    }
    l.execute(startTournament(l.models, { tournamentId: 't2', order: ['a', 'b', 'c', 'd'] }));
    const match = l.models.tournaments.t2!.model.matches.find((m) => m.status === 'ready' && m.teams.includes('a'))!;
    const players = (teamId: string) => l.models.tournaments.t2!.model.teams.find((t) => t.teamId === teamId)!.players;
    const record = { ...fullGameRecord(), timeCalled: 4 };
    delete (record as { seats?: unknown }).seats;
    l.execute(importRecord(l.models, record, { tournamentId: 't2', matchId: match.matchId }, AT));
    const gameId = `t2-${match.matchId}-g1`;
    const game = l.models.games[gameId]!;
    expect(game.teams).toEqual({ NS: match.teams[0], EW: match.teams[1] });
    const [ns, ew] = [players(match.teams[0]!), players(match.teams[1]!)];
    expect(game.seats).toEqual({ N: ns[0], E: ew[0], S: ns[1], W: ew[1] });
    expect(game.timeCalled).toBe(4);
    expect(game.score).toEqual(scoreRecord(record).final);
    const after = l.models.tournaments.t2!.model;
    expect(after.matches.find((m) => m.matchId === match.matchId)).toMatchObject({ status: 'done', winner: game.teams[game.winner!], games: [gameId] });
    // and the winner goes on to the final, which is now ready or waiting for the other semi-final
    expect(after.teams.find((t) => t.teamId === game.teams[game.winner!])).toMatchObject({ wins: 1, status: 'alive' });
    // and the ledger, exported, imports again row by row through the live commands' replay
    const copy = openDatabase({ path: join(mkdtempSync(join(tmpdir(), 'spades-paper-')), 'copy.db') });
    try {
      expect(importLedger(copy, [...exportLedger(l.database)].join(''), replayProblem).ok).toBe(true);
    } finally {
      copy.close();
    }
  });
});

describe('spades import', () => {
  const io = () => {
    const out = { stdout: '', stderr: '' };
    return { out, io: { stdout: (t: string) => void (out.stdout += t), stderr: (t: string) => void (out.stderr += t), stdin: async () => '' } };
  };

  it('enters a record from a file into the ledger named by --db, and says where', async () => {
    const l = tempLedger();
    open.push(l);
    l.ledger.close();
    const file = join(l.dir, 'paper.json');
    writeFileSync(file, JSON.stringify(fullGameRecord()));
    const { out, io: cli } = io();
    expect(await main(['import', file, '--game', 'paper-cli', '--db', l.path], cli)).toBe(0);
    const reopened = openLedger({ path: l.path });
    try {
      const game = reopened.models.games['paper-cli']!;
      expect(game.score).toEqual(scoreRecord(fullGameRecord()).final);
      const head = reopened.store.head();
      expect(out.stdout).toBe(`game paper-cli: ${head.position} events at positions 1–${head.position}\nhead ${reopened.store.digest()}\n`);
    } finally {
      reopened.close();
    }
  });

  it('refuses a record the scorer refuses with exit 2 and one line, writing nothing', async () => {
    const l = tempLedger();
    open.push(l);
    l.ledger.close();
    const file = join(l.dir, 'bad.json');
    writeFileSync(
      file,
      JSON.stringify({ format: 'spades-game/1', rules: 'unc-300', hands: [{ bids: { N: 3, E: 3, S: 3, W: 3 }, tricks: { N: 3, E: 3, S: 3, W: 3 } }] }),
    );
    const { out, io: cli } = io();
    expect(await main(['import', file, '--game', 'bad', '--db', l.path], cli)).toBe(2);
    expect(out.stderr).toBe(`spades import: ${file}: record: hand 1: tricks add up to 12 (N 3, E 3, S 3, W 3); a hand has 13; nothing was imported\n`);
    const { out: out2, io: cli2 } = io();
    expect(await main(['import', file, '--db', l.path], cli2)).toBe(2);
    expect(out2.stderr).toBe(
      'spades import: say where the game goes; usage: spades import FILE|- (--tournament ID --match ID | --game ID) [--by NAME] [--db FILE]\n',
    );
    const reopened = openLedger({ path: l.path });
    expect(reopened.store.head().position).toBe(0);
    reopened.close();
  });

  it('says what is wrong in the record\'s words: its field, never an event, and "record:" once', async () => {
    const l = tempLedger();
    open.push(l);
    l.ledger.close();
    const refusal = async (name: string, text: string, args: string[] = ['--game', 'words']) => {
      const file = join(l.dir, name);
      writeFileSync(file, text);
      const { out, io: cli } = io();
      const code = await main(['import', file, ...args, '--db', l.path], cli);
      expect(code).toBe(2);
      expect(out.stdout).toBe('');
      expect(out.stderr.split('\n')).toHaveLength(2);
      expect(out.stderr).not.toMatch(/GameStarted|HandDealt|BidMade|version 1|payload/);
      expect(out.stderr).not.toMatch(/record: record:/);
      expect(out.stderr).toMatch(/; nothing was imported\n$/);
      return out.stderr.replace(`spades import: ${file}`, 'FILE');
    };
    const record = fullGameRecord();
    const long = 'A'.repeat(121);
    expect(await refusal('long-seat.json', JSON.stringify({ ...record, seats: { ...record.seats, E: long } }))).toBe(
      'FILE: record: seats.E: at most 120 characters, not 121; nothing was imported\n',
    );
    expect(await refusal('empty-seat.json', JSON.stringify({ ...record, seats: { N: '' } }))).toMatch(/^FILE: record: seats\.N: an empty name/);
    expect(await refusal('list.json', '[1]')).toBe('FILE: record: expected a JSON object, got a list; nothing was imported\n');
    expect(await refusal('stray.json', JSON.stringify({ ...record, bogus: 1 }))).toMatch(/^FILE: record: unknown field 'bogus'/);
    expect(await refusal('long-id.json', JSON.stringify(record), ['--game', 'g'.repeat(121)])).toMatch(
      /^FILE: the game id 'g+…' is 121 characters long; a game id is at most 120; nothing/,
    );
    // A file cut short says so, and that nothing was imported.
    const text = JSON.stringify(record);
    expect(await refusal('cut.json', text.slice(0, text.length / 2))).toBe('FILE is cut short: the record ends before its JSON closes; nothing was imported\n');
    expect(await refusal('empty.json', '')).toMatch(/^FILE is empty: .*nothing was imported\n$/);
    // A name of 120 characters is a name.
    writeFileSync(join(l.dir, 'ok.json'), JSON.stringify({ ...record, seats: { ...record.seats, E: long.slice(1) } }));
    const { io: cli } = io();
    expect(await main(['import', join(l.dir, 'ok.json'), '--game', 'words', '--db', l.path], cli)).toBe(0);
  });
});

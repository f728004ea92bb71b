/**
 * A claim holds what it could change: while a renege claim in a match's deciding game waits for
 * a ruling, the game goes on at the table but its result, and so its match, is not decided; the
 * next round is not seated for those two teams, and no further game is started. Once ruled on,
 * the match is decided as the record then says. A claim made after its match was decided holds
 * nothing (a ruling on it is a reopening).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { formatOptions } from '../engine/formats.ts';
import { rulesSheet } from '../engine/rules-sheet.ts';
import type { Ledger } from '../events/store/sqlite/ledger.ts';
import type { MatchModel } from '../events/read-models.ts';
import { waitedWords, waitingLine } from '../events/ruling-wait.ts';
import { driveTables } from '../server/serve/table-driver.ts';
import { claimRenege, giveRuling } from '../server/commands/game-commands.ts';
import { startNextGame } from '../server/commands/match-commands.ts';
import { PROGRESSIVE_DEMO, createDemo } from '../server/serve/serve.ts';
import { createTournament, registerTeam, startTournament } from '../server/commands/tournament-commands.ts';
import { eventsOf, expectRebuildEqualsLive, refusal, tempLedger } from './tournament-ledger.ts';

const NOW = () => '2026-01-01T10:00:00.000Z';
const SEED = 'hold';

function asherEvent(ledger: Ledger): void {
  ledger.execute(createTournament(ledger.models, { tournamentId: 'a', name: 'Asher Cup', format: 'asher-theatre' }));
  for (let i = 1; i <= 4; i++)
    ledger.execute(registerTeam(ledger.models, { tournamentId: 'a', teamId: `t${i}`, name: `Team ${i}`, players: [`P${i}a`, `P${i}b`] }));
  ledger.execute(startTournament(ledger.models, { tournamentId: 'a', order: ['t1', 't2', 't3', 't4'] }));
}

const matchesOf = (ledger: Ledger) => ledger.models.tournaments.a!.model.matches;
const match = (ledger: Ledger, id: string): MatchModel => matchesOf(ledger).find((m) => m.matchId === id)!;
// No judge at these tables: the claims wait until the test rules on them.
const step = (ledger: Ledger) => driveTables(ledger, { tournamentId: 'a', seed: SEED, now: NOW, judge: false });

async function driveUntil(ledger: Ledger, done: () => boolean): Promise<void> {
  for (let n = 0; !done(); n++) {
    if ((await step(ledger)) === 0 || n > 50_000) throw new Error('the state was never reached');
  }
}

async function driveAll(ledger: Ledger): Promise<void> {
  for (let n = 0; (await step(ledger)) > 0; n++) if (n > 50_000) throw new Error('the tables never stopped');
}

/** The first round-1 match, how it went when nobody claimed anything: its deciding game, that game's hands, its winner. */
async function playedOut(): Promise<{ matchId: string; deciding: string; hands: number; winner: string; games: number; next: string }> {
  const ledger = tempLedger();
  asherEvent(ledger);
  await driveAll(ledger);
  expect(ledger.models.tournaments.a!.model.status).toBe('finished');
  const first = matchesOf(ledger).find((m) => m.round === 1)!;
  const deciding = first.games.at(-1)!;
  const next = matchesOf(ledger).find((m) => m.round === 2 && m.teams.includes(first.winner))!;
  return {
    matchId: first.matchId,
    deciding,
    hands: ledger.models.games[deciding]!.hands.length,
    winner: first.winner!,
    games: first.games.length,
    next: next.matchId,
  };
}

describe('a claim waiting for a ruling', () => {
  it('in the last hand of a match’s deciding game holds the match and the next round until the ruling', async () => {
    const plain = await playedOut();
    const ledger = tempLedger();
    asherEvent(ledger);
    // The same tables, up to the second trick of the deciding game's last hand: the opponents claim a renege.
    await driveUntil(ledger, () => {
      const current = ledger.models.games[plain.deciding]?.current;
      return current?.number === plain.hands && current.plays.length >= 2;
    });
    const game = () => ledger.models.games[plain.deciding]!;
    const accused = game().teams.NS === plain.winner ? 'N' : 'E';
    ledger.execute(claimRenege(ledger.models, { gameId: plain.deciding, claimId: 'c1', seat: accused, trick: 1 }));
    const claimedAt = game().claims[0]!.at;
    expect(match(ledger, plain.matchId).awaitingRuling).toEqual({ since: claimedAt, claims: 1 });

    // The game goes on at the table and ends as it did before; everything else plays on until nothing can.
    await driveAll(ledger);
    expect(game().winner).not.toBeNull();
    expect(game().teams[game().winner!]).toBe(plain.winner);
    const held = match(ledger, plain.matchId);
    expect(held).toMatchObject({ status: 'live', winner: null, awaitingRuling: { since: claimedAt, claims: 1 } });
    // The held game counts for nobody yet; no further game was started.
    expect(held.games).toHaveLength(plain.games);
    expect(held.gamesWon.reduce((a, b) => a + b)).toBe(plain.games - 1);
    const refused = refusal(() => startNextGame(ledger.models, { tournamentId: 'a', matchId: plain.matchId, at: NOW() }));
    expect(refused.status).toBe(409);
    expect(refused.message).toContain('waits for a ruling on table');
    // The next round is not seated for those two teams: its slot stays open.
    const next = match(ledger, plain.next);
    expect(next.status).toBe('waiting');
    expect(next.teams).toContain(null);
    expect(eventsOf(ledger, 'MatchStarted').some((e) => e.matchId === plain.next)).toBe(false);
    expect(ledger.models.tournaments.a!.model.status).toBe('running');
    expect(ledger.models.tournaments.a!.model.teams.find((t) => t.teamId === plain.winner)!.wins).toBe(0);
    // Said in people's words, timed from the claim's recorded time to the clock passed in.
    const later = new Date(Date.parse(claimedAt) + 4 * 60_000 + 20_000).toISOString();
    expect(waitingLine(held, later)).toBe(`Waiting for a ruling on table ${held.table} for 4 minutes`);

    // Denied: the result stands as played, the match is decided and the next round goes on.
    ledger.execute(giveRuling(ledger.models, { gameId: plain.deciding, claimId: 'c1', upheld: false, note: 'followed suit', judge: 'Judge Ray' }));
    const decided = match(ledger, plain.matchId);
    expect(decided).toMatchObject({ status: 'done', winner: plain.winner });
    expect(decided.awaitingRuling).toBeUndefined();
    expect(waitingLine(decided, later)).toBeNull();
    expect(match(ledger, plain.next).teams).toContain(plain.winner);
    await driveAll(ledger);
    expect(ledger.models.tournaments.a!.model.status).toBe('finished');
    expectRebuildEqualsLive(ledger);
  });

  it('made after its match was decided holds nothing', async () => {
    const plain = await playedOut();
    const ledger = tempLedger();
    asherEvent(ledger);
    await driveUntil(ledger, () => match(ledger, plain.matchId).status === 'done');
    ledger.execute(claimRenege(ledger.models, { gameId: plain.deciding, claimId: 'late', hand: plain.hands, seat: 'N', trick: 1 }));
    expect(match(ledger, plain.matchId)).toMatchObject({ status: 'done', winner: plain.winner });
    expect(match(ledger, plain.matchId).awaitingRuling).toBeUndefined();
    expectRebuildEqualsLive(ledger);
  });

  it('in an earlier game holds the match even when later games would decide it', async () => {
    const plain = await playedOut();
    const ledger = tempLedger();
    asherEvent(ledger);
    const firstGame = () => ledger.models.games[match(ledger, plain.matchId).games[0]!];
    await driveUntil(ledger, () => (firstGame()?.current?.plays.length ?? 0) >= 3);
    ledger.execute(claimRenege(ledger.models, { gameId: firstGame()!.gameId, claimId: 'early', seat: 'W', trick: 2 }));
    await driveAll(ledger);
    expect(match(ledger, plain.matchId)).toMatchObject({ status: 'live', winner: null });
    expect(match(ledger, plain.matchId).games).toHaveLength(plain.games);
    ledger.execute(giveRuling(ledger.models, { gameId: firstGame()!.gameId, claimId: 'early', upheld: false, note: 'not proven', judge: 'Judge Ray' }));
    expect(match(ledger, plain.matchId)).toMatchObject({ status: 'done', winner: plain.winner });
    expect(match(ledger, plain.matchId).awaitingRuling).toBeUndefined();
    expectRebuildEqualsLive(ledger);
  });
});

describe('how long a ruling has waited, in words', () => {
  it('counts whole minutes and hours from the claim to now', () => {
    const at = '2026-01-01T10:00:00.000Z';
    const plus = (ms: number) => new Date(Date.parse(at) + ms).toISOString();
    expect(waitedWords(at, plus(59_000))).toBe('for less than a minute');
    expect(waitedWords(at, plus(-5_000))).toBe('for less than a minute');
    expect(waitedWords(at, plus(60_000))).toBe('for 1 minute');
    expect(waitedWords(at, plus(11 * 60_000 + 59_000))).toBe('for 11 minutes');
    expect(waitedWords(at, plus(60 * 60_000))).toBe('for 1 hour');
    expect(waitedWords(at, plus(125 * 60_000))).toBe('for 2 hours 5 minutes');
    expect(waitingLine({ table: null, label: 'Round 1', awaitingRuling: { since: at, claims: 2 } }, plus(3 * 60_000))).toBe(
      'Waiting for a ruling on Round 1 for 3 minutes',
    );
  });

  it('are the words static/clock.js keeps ticking on the pages', () => {
    const at = '2026-01-01T10:00:00.000Z';
    const now = Date.parse(at) + 125 * 60_000;
    const waits = [0, 59_000, 60_000, 11 * 60_000 + 59_000, 60 * 60_000, 125 * 60_000].map((ms) => new Date(now - ms).toISOString());
    const elements = waits.map((since) => ({ textContent: '', getAttribute: (name: string) => (name === 'data-waited-since' ? since : null) }));
    const listeners: Record<string, () => void> = {};
    const document = {
      querySelectorAll: (selector: string) => (selector === '[data-waited-since]' ? elements : []),
      addEventListener: (type: string, listener: () => void) => void (listeners[type] = listener),
    };
    runInNewContext(readFileSync(join(import.meta.dirname, '..', 'static', 'clock.js'), 'utf8'), {
      document,
      setInterval: () => 0,
      Date: { now: () => now, parse: Date.parse },
    });
    listeners.DOMContentLoaded!();
    expect(elements.map((e) => e.textContent)).toEqual(waits.map((since) => waitedWords(since, new Date(now).toISOString())));
    expect(elements.map((e) => e.textContent)).toContain('for 2 hours 5 minutes');
  });
});

describe('the window for a claim, as the rules sheet and the docs say it', () => {
  const ASHER = 'Any protest or rule clarification must be decided by the designated Judge before the next trick is played';
  it('is on every event’s rules sheet, quoting the Asher Theatre rulebook, and is no house rule', () => {
    for (const id of ['blp-2024', 'unc-intramural', 'pitt-boss', 'asher-theatre', 'tournament-spades'] as const) {
      const lines = rulesSheet(id, formatOptions(id)).parts.flatMap((p) => p.lines);
      const claims = lines.filter((l) => l.key === 'claims');
      expect(claims, id).toHaveLength(1);
      expect(claims[0]!.text, id).toContain(`“${ASHER}”`);
      expect(claims[0]!.text, id).toContain('at any time later in that hand');
      expect(claims[0]!.house, id).toBe(false);
    }
  });

  it('is written out in docs/claims-and-rulings.md with the rulebook’s own sentences', () => {
    const doc = readFileSync(join(import.meta.dirname, '..', 'docs', 'claims-and-rulings.md'), 'utf8').replace(/\s+/g, ' ');
    expect(doc).toContain(`"${ASHER}."`);
    expect(doc).toContain(
      '"A renege may be identified immediately or at any time later in the hand when the player that reneged shows a card of a suit led previously."',
    );
    expect(doc).toContain('Waiting for a ruling on table 6 for 4 minutes');
  });
});

describe('a claim waiting for a ruling at a progressive table', () => {
  it('holds that table’s result, so the round is not over and the next round is not seated until the ruling', async () => {
    const ledger = tempLedger();
    await createDemo(ledger, 'progressive');
    const id = PROGRESSIVE_DEMO;
    const state = () => ledger.models.tournaments[id]!;
    const drive = () => driveTables(ledger, { tournamentId: id, seed: 'held-table', judge: false });
    const gameAt = () => ledger.models.games[Object.values(state().progressive!.rounds[0]?.games ?? {})[0] ?? ''];
    for (let n = 0; !((gameAt()?.current?.plays.length ?? 0) >= 2); n++) if ((await drive()) === 0 || n > 5000) throw new Error('no trick was played');
    const game = gameAt()!;
    ledger.execute(claimRenege(ledger.models, { gameId: game.gameId, claimId: 'p1', seat: 'E', trick: 1 }));
    for (let n = 0; (await drive()) > 0; n++) if (n > 20_000) throw new Error('the tables never stopped');
    // Every game of round 1 is over at its table, but the held one decides nothing yet.
    expect(Object.values(state().progressive!.rounds[0]!.games).every((g) => ledger.models.games[g]!.winner !== null)).toBe(true);
    expect(state().progressive!.rounds[0]!.results).toBeNull();
    expect(state().progressive!.nextSeating).toBeNull();
    expect(state().progressive!.rounds).toHaveLength(1);
    const table = state().model.matches.find((m) => m.games.includes(game.gameId))!;
    expect(table).toMatchObject({ status: 'live', winner: null, awaitingRuling: { claims: 1 } });
    expect(waitingLine(table, game.claims[0]!.at)).toBe(`Waiting for a ruling on table ${table.table} for less than a minute`);
    ledger.execute(giveRuling(ledger.models, { gameId: game.gameId, claimId: 'p1', upheld: false, note: 'not proven', judge: 'Judge Ray' }));
    expect(state().progressive!.rounds[0]!.results).not.toBeNull();
    expect(state().model.matches.find((m) => m.games.includes(game.gameId))).toMatchObject({ status: 'done' });
    for (let n = 0; (await drive()) > 0; n++) if (n > 50_000) throw new Error('the evening never finished');
    expect(state().model.status).toBe('finished');
    expectRebuildEqualsLive(ledger);
  }, 120_000);
});

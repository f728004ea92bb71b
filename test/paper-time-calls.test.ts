/**
 * Time called in a game played on paper, entered through `POST /api/games/import` as a judge
 * would. asher-theatre: "Each challenge game is played to 350 points or the 1-hour time limit",
 * so time ends that game only and the challenge stays best of 3, the deal keeping its rotation
 * ("The deal will keep this rotation throughout the entire challenge"). pitt-boss: "the team
 * ahead in points at the "stop" time will be declared the winner" of the match.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Fixture, copyOf, makeFixture, send } from './routes-fixture.ts';
import { expectRebuildEqualsLive } from './tournament-ledger.ts';
import type { Seat } from '../engine/cards.ts';
import { nextBidder } from '../events/game-projection.ts';
import { dealHand, makeBid, recordTricks } from '../server/commands/game-commands.ts';
import { newsText } from '../views/news.ts';

let fixture: Fixture;
beforeAll(async () => {
  fixture = await makeFixture();
});
afterAll(() => fixture?.close());

type App = ReturnType<typeof copyOf>['app'];

async function asDirector(app: App, path: string, json: Record<string, unknown>): Promise<void> {
  const res = await send(app, fixture.clients.director, 'POST', path, { json });
  expect(res.status, await res.clone().text()).toBe(200);
}

async function importAsJudge(app: App, json: Record<string, unknown>): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await send(app, fixture.clients.judge, 'POST', '/api/games/import', { json });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

const TEAMS = [
  { teamId: 'aces', name: 'Aces', player1: 'Ann', player2: 'Sam' },
  { teamId: 'kings', name: 'Kings', player1: 'Eli', player2: 'Wes' },
  { teamId: 'queens', name: 'Queens', player1: 'Una', player2: 'Viv' },
  { teamId: 'jacks', name: 'Jacks', player1: 'Kai', player2: 'Lev' },
];

/** An event of `format` for `count` teams seeded in order; the id of its match of Aces (seed 1) v Kings (last seed). */
async function event(app: App, ledger: ReturnType<typeof copyOf>['ledger'], id: string, format: string, count: number): Promise<string> {
  await asDirector(app, '/director/tournaments', { tournamentId: id, name: `${format} on paper`, format });
  const teams = [TEAMS[0]!, ...TEAMS.slice(2, count), TEAMS[1]!];
  for (const team of teams) await asDirector(app, `/director/tournaments/${id}/teams`, team);
  await asDirector(app, `/director/tournaments/${id}/start`, { order: teams.map((t) => t.teamId).join('\n') });
  const match = ledger.models.tournaments[id]!.model.matches.find((m) => m.status === 'ready' && m.teams[0] === 'aces')!;
  expect(match.teams).toEqual(['aces', 'kings']);
  return match.matchId;
}

// NS (Aces) bid 5 and take 7, EW (Kings) bid 4 and take 6: asher credits only what was bid, 50 to 40.
const AHEAD_NS = { bids: { N: 3, E: 2, S: 2, W: 2 }, tricks: { N: 4, E: 3, S: 3, W: 3 } };
// The other way round: EW bid 5 and take 7, NS bid 4 and take 6.
const AHEAD_EW = { bids: { N: 2, E: 3, S: 2, W: 2 }, tricks: { N: 3, E: 4, S: 3, W: 3 } };

describe('an asher challenge with time called on paper in game 1', () => {
  it('ends game 1 only; games 2 and 3 enter the same challenge, which ends 2–1', async () => {
    const { app, ledger } = copyOf(fixture);
    const matchId = await event(app, ledger, 'asher', 'asher-theatre', 2);
    const match = () => ledger.models.tournaments.asher!.model.matches.find((m) => m.matchId === matchId)!;

    // Game 1: N deals; time is called during hand 2, with the Aces ahead 100 to 80 when it is played out.
    const game1 = await importAsJudge(app, {
      tournamentId: 'asher',
      matchId,
      record: { format: 'spades-game/1', rules: 'asher', dealer: 'N', timeCalled: 2, hands: [AHEAD_NS, AHEAD_NS] },
    });
    expect(game1.status, JSON.stringify(game1.body)).toBe(201);
    const g1 = ledger.models.games[game1.body.gameId as string]!;
    expect([g1.winner, g1.reason, g1.score]).toEqual(['NS', 'time', { NS: 100, EW: 80 }]);
    // The challenge is not over: one game each is needed of three.
    expect(match()).toMatchObject({ status: 'ready', winner: null, gamesWon: [1, 0], games: [g1.gameId] });
    expect(ledger.models.tournaments.asher!.model.status).toBe('running');
    const asher = ledger.models.tournaments.asher!.model;
    expect(asher.latest[0]).toMatchObject({ kind: 'time-called', game: 1, hand: 2 });
    expect(newsText(asher.latest[0]!, asher)).toBe('Time called in Final, game 1, during hand 2');

    // Game 2 carries the deal on: N and E dealt game 1, so S deals first. A record saying N is refused.
    const before = ledger.models.position;
    const wrongDealer = await importAsJudge(app, {
      tournamentId: 'asher',
      matchId,
      record: { format: 'spades-game/1', rules: 'asher', dealer: 'N', timeCalled: 1, hands: [AHEAD_EW] },
    });
    expect(wrongDealer).toEqual({
      status: 400,
      body: {
        error: `record: dealer: the deal keeps its rotation through the whole challenge; game 1 of tournament asher match ${matchId} left the deal to S, so S deals first in game 2, not N`,
      },
    });
    expect(ledger.models.position).toBe(before);
    const game2 = await importAsJudge(app, {
      tournamentId: 'asher',
      matchId,
      record: { format: 'spades-game/1', rules: 'asher', timeCalled: 1, hands: [AHEAD_EW] },
    });
    expect(game2.status, JSON.stringify(game2.body)).toBe(201);
    const g2 = ledger.models.games[game2.body.gameId as string]!;
    expect([g2.number, g2.dealer, g2.winner, g2.reason, g2.score]).toEqual([2, 'S', 'EW', 'time', { NS: 40, EW: 50 }]);
    expect(match()).toMatchObject({ status: 'ready', winner: null, gamesWon: [1, 1] });

    // Game 3, from W (S dealt game 2's only hand): the Aces take all 13 books, a Boston, and the challenge.
    const boston = { bids: { N: 7, E: 2, S: 6, W: 2 }, tricks: { N: 7, E: 0, S: 6, W: 0 } };
    const game3 = await importAsJudge(app, {
      tournamentId: 'asher',
      matchId,
      record: { format: 'spades-game/1', rules: 'asher', dealer: 'W', hands: [boston] },
    });
    expect(game3.status, JSON.stringify(game3.body)).toBe(201);
    const g3 = ledger.models.games[game3.body.gameId as string]!;
    expect([g3.number, g3.winner, g3.reason]).toEqual([3, 'NS', 'boston']);
    expect(match()).toMatchObject({ status: 'done', winner: 'aces', gamesWon: [2, 1], games: [g1.gameId, g2.gameId, g3.gameId] });
    const model = ledger.models.tournaments.asher!.model;
    expect(model.status).toBe('finished');
    expect(model.latest.map((l) => newsText(l, model))).toContain('Aces beat Kings 2–1');
    expect(model.placings).toEqual([
      { place: 1, teamId: 'aces' },
      { place: 2, teamId: 'kings' },
    ]);
    expectRebuildEqualsLive(ledger);
    ledger.close();
  });
});

describe('an asher challenge whose game 1 was played on paper, played on at the table', () => {
  /** One hand entered at the table in quick mode: the deal, each bid in the rules' order, the tricks. */
  function hand(ledger: ReturnType<typeof copyOf>['ledger'], gameId: string, h: { bids: Record<Seat, number>; tricks: Record<Seat, number> }): void {
    ledger.execute(dealHand(ledger.models, { gameId }));
    for (let seat = nextBidder(ledger.models.games[gameId]!); seat; seat = nextBidder(ledger.models.games[gameId]!)) {
      ledger.execute(makeBid(ledger.models, { gameId, seat, bid: h.bids[seat] }));
    }
    ledger.execute(recordTricks(ledger.models, { gameId, tricks: h.tricks }));
  }

  it('seats the challenge with the deal carried on from the paper game, and plays games 2 and 3 to 2–1', async () => {
    const { app, ledger } = copyOf(fixture);
    const matchId = await event(app, ledger, 'asher', 'asher-theatre', 2);
    const game1 = await importAsJudge(app, {
      tournamentId: 'asher',
      matchId,
      record: { format: 'spades-game/1', rules: 'asher', dealer: 'N', timeCalled: 2, hands: [AHEAD_NS, AHEAD_NS] },
    });
    expect(game1.status, JSON.stringify(game1.body)).toBe(201);
    // No toss again: N and E dealt game 1, so S deals first in game 2, and the seating form says so.
    const desk = await (await send(app, fixture.clients.director, 'GET', '/director/tournaments/asher')).text();
    expect(desk).toContain('The deal keeps its rotation from game 1: South (Aces) deals first.');
    await asDirector(app, `/director/tournaments/asher/matches/${matchId}/start`, { table: 1 });
    const match = () => ledger.models.tournaments.asher!.model.matches.find((m) => m.matchId === matchId)!;
    const g2 = match().games[1]!;
    expect(ledger.models.games[g2]).toMatchObject({ number: 2, dealer: 'S' });
    // Game 2 has its own hour on the clock.
    expect(match().clock).toMatchObject({ minutes: 60, gameId: g2, calledAt: null });
    // Game 2: the Kings take all 13 books, a Boston.
    hand(ledger, g2, { bids: { N: 2, E: 7, S: 2, W: 6 }, tricks: { N: 0, E: 7, S: 0, W: 6 } });
    expect([ledger.models.games[g2]!.winner, match().gamesWon, match().status]).toEqual(['EW', [1, 1], 'live']);
    const next = await send(app, fixture.clients.director, 'POST', '/entry/tables/asher/1/start', { json: { matchId } });
    expect(next.status, await next.clone().text()).toBe(200);
    const g3 = match().games[2]!;
    // S dealt game 2's only hand, so W deals first in game 3.
    expect(ledger.models.games[g3]).toMatchObject({ number: 3, dealer: 'W' });
    hand(ledger, g3, { bids: { N: 7, E: 2, S: 6, W: 2 }, tricks: { N: 7, E: 0, S: 6, W: 0 } });
    expect(match()).toMatchObject({ status: 'done', winner: 'aces', gamesWon: [2, 1] });
    expectRebuildEqualsLive(ledger);
    ledger.close();
  });
});

describe('a pitt-boss match with time called on paper', () => {
  it('still ends the match: the team ahead when time is called wins it', async () => {
    const { app, ledger } = copyOf(fixture);
    const matchId = await event(app, ledger, 'pitt', 'pitt-boss', 4);
    // pitt-boss scores overtricks: NS 52, EW 42.
    const game = await importAsJudge(app, {
      tournamentId: 'pitt',
      matchId,
      record: { format: 'spades-game/1', rules: 'pitt-boss', timeCalled: 1, hands: [AHEAD_NS] },
    });
    expect(game.status, JSON.stringify(game.body)).toBe(201);
    const g1 = ledger.models.games[game.body.gameId as string]!;
    expect([g1.winner, g1.reason, g1.score]).toEqual(['NS', 'time', { NS: 52, EW: 42 }]);
    const match = ledger.models.tournaments.pitt!.model.matches.find((m) => m.matchId === matchId)!;
    expect(match).toMatchObject({ status: 'done', winner: 'aces', gamesWon: [1, 0] });
    // No second game goes into a match time has decided.
    const after = await importAsJudge(app, { tournamentId: 'pitt', matchId, record: { format: 'spades-game/1', rules: 'pitt-boss', hands: [AHEAD_EW] } });
    expect(after).toEqual({
      status: 409,
      body: { error: `tournament pitt match ${matchId} is done; a game can be entered only into a match that is ready or being played` },
    });
    expectRebuildEqualsLive(ledger);
    ledger.close();
  });
});

/**
 * Seating matches through HTTP, as a director and the tables' scorekeepers do it: the first
 * dealer by the rulebook's own procedure (rules.md "Misdeals and the deal"), the clocks where
 * the rulebooks put them (rules.md "Ending a game" and "Tournament formats"), and what a director
 * chooses on the create form.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Seat } from '../engine/cards.ts';
import { nextBidder } from '../events/game-projection.ts';
import type { Ledger } from '../events/store/sqlite/ledger.ts';
import { type Client, type Fixture, copyOf, finishGame, makeFixture, send } from './routes-fixture.ts';
import { eventsOf, expectRebuildEqualsLive } from './tournament-ledger.ts';
import { newsText } from '../views/news.ts';

let fixture: Fixture;
beforeAll(async () => {
  fixture = await makeFixture();
});
afterAll(() => fixture?.close());

const START = '2026-03-01T10:00:00.000Z';
const after = (minutes: number) => new Date(Date.parse(START) + minutes * 60_000).toISOString();

type App = ReturnType<typeof copyOf>['app'];

/** A copy of the fixture whose routes record the time `clock.now` says. */
function withClock() {
  const clock = { now: START };
  return { clock, ...copyOf(fixture, () => clock.now) };
}

async function json(res: Response): Promise<Record<string, unknown>> {
  return (await res.json()) as Record<string, unknown>;
}

/** Creates an event through the director's form, registers its teams and seeds them in order. */
async function setUp(app: App, tournamentId: string, format: string, teams: string[]): Promise<void> {
  const director = fixture.clients.director;
  const created = await send(app, director, 'POST', '/director/tournaments', { json: { tournamentId, name: `${format} day`, format } });
  expect(created.status, await created.clone().text()).toBe(200);
  for (const name of teams) {
    const res = await send(app, director, 'POST', `/director/tournaments/${tournamentId}/teams`, {
      json: { name, player1: `${name} One`, player2: `${name} Two`, teamId: name.toLowerCase() },
    });
    expect(res.status).toBe(200);
  }
  const started = await send(app, director, 'POST', `/director/tournaments/${tournamentId}/start`, { json: { order: teams.map((t) => t.toLowerCase()) } });
  expect(started.status).toBe(200);
}

/** The scorekeeper of a table of an event, signed in with its code. */
async function scorekeeper(app: App, auth: ReturnType<typeof copyOf>['auth'], tournamentId: string, table: number): Promise<Client> {
  const res = await app.request('/join', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ code: await auth.tableCode(tournamentId, table) }),
  });
  expect(res.status).toBe(200);
  return { cookie: (res.headers.get('set-cookie') ?? '').split(';')[0]!, csrf: ((await res.json()) as { csrf: string }).csrf };
}

/** Deals a hand from the system's shuffle and enters the bids in the preset's order, as the table's phone does. */
async function dealAndBid(app: App, ledger: Ledger, client: Client, gameId: string, bids: Record<Seat, number>): Promise<void> {
  expect((await send(app, client, 'POST', `/entry/games/${gameId}/deal`, { json: { shuffle: 'system' } })).status).toBe(200);
  for (let seat = nextBidder(ledger.models.games[gameId]!); seat; seat = nextBidder(ledger.models.games[gameId]!)) {
    const res = await send(app, client, 'POST', `/entry/games/${gameId}/bid`, { json: { seat, bid: bids[seat] } });
    expect(res.status, await res.clone().text()).toBe(200);
  }
}

async function tricks(app: App, client: Client, gameId: string, taken: Record<Seat, number>): Promise<void> {
  const res = await send(app, client, 'POST', `/entry/games/${gameId}/tricks`, { json: taken });
  expect(res.status, await res.clone().text()).toBe(200);
}

const matchOf = (ledger: Ledger, tournamentId: string, matchId: string) =>
  ledger.models.tournaments[tournamentId]!.model.matches.find((m) => m.matchId === matchId)!;

describe('the first dealer, the rulebook’s way', () => {
  it('asher: the team with the lower seed number calls the toss at the table, its winner chooses the dealer, and the deal rotates across the challenge', async () => {
    // asher-theatre: "A coin toss will determine who will deal first. The lowest seeded(number)
    // team will call heads or tails. The winner of the coin toss will choose the dealer."
    const { app, ledger, auth, clock } = withClock();
    await setUp(app, 'asher', 'asher-theatre', ['Aces', 'Kings']);
    const table = await scorekeeper(app, auth, 'asher', 1);

    // The phone offers the toss in plain words, the lower seed as the caller.
    const page = await (await send(app, table, 'GET', '/entry/tables/asher/1')).text();
    expect(page).toContain('data-method="coin-toss"');
    expect(page).toContain('Aces (seed 1) has the lower seed number, so it calls heads or tails.');
    expect(page).not.toContain('name="cardN"');

    const before = ledger.store.head();
    const wrong = await send(app, table, 'POST', '/entry/tables/asher/1/start', {
      json: { matchId: 'F', caller: 'kings', call: 'heads', result: 'tails', choice: 'E' },
    });
    expect(wrong.status).toBe(400);
    expect(await json(wrong)).toEqual({ error: "match F: coin toss: 'aces' has the lower seed number (1), so it calls the toss, not 'kings'" });
    const drawn = await send(app, table, 'POST', '/entry/tables/asher/1/start', { json: { matchId: 'F', cardN: 'AS', cardE: 'KD', cardS: '4C', cardW: '9H' } });
    expect(drawn.status).toBe(400);
    expect((await json(drawn)).error).toBe('match F: the first dealer is chosen by a coin toss in this event, not by a draw for high card');
    const none = await send(app, table, 'POST', '/entry/tables/asher/1/start', { json: { matchId: 'F' } });
    expect((await json(none)).error).toBe(
      'match F: the first dealer is chosen by a coin toss in this event; record the toss: who called it, the call, how it came down and the dealer its winner chose',
    );
    const named = await send(app, table, 'POST', '/entry/tables/asher/1/start', { json: { matchId: 'F', firstDealer: 'N', namedBecause: 'we forgot' } });
    expect(named.status).toBe(403);
    expect(ledger.store.head()).toEqual(before);

    // Aces call heads, the coin comes down tails: Kings win the toss and choose East to deal.
    const right = await send(
      app,
      table,
      'POST',
      '/entry/tables/asher/1/start',
      { form: { matchId: 'F', caller: 'aces', call: 'heads', result: 'tails', choice: 'E' } },
      { 'hx-request': 'true' },
    );
    expect(right.status).toBe(200);
    expect(await right.text()).toContain('Started Final at table 1; Kings won the toss and chose East to deal first.');
    expect(eventsOf(ledger, 'MatchStarted')).toEqual([
      {
        tournamentId: 'asher',
        matchId: 'F',
        teams: ['aces', 'kings'],
        table: 1,
        firstDealer: { method: 'coin-toss', caller: 'aces', call: 'heads', toss: 'tails', choice: 'E', dealer: 'E', winner: 'kings' },
        clock: { per: 'game', minutes: 60 },
      },
    ]);
    expect(ledger.models.games['asher-F-g1']!.dealer).toBe('E');
    const director = await (await send(app, fixture.clients.director, 'GET', '/director/tournaments/asher')).text();
    expect(director).toContain('Final: Aces vs Kings · live · table 1 · Kings won the toss and chose East to deal first');

    // Two hands in game 1, dealt by East then South ("The deal will rotate left").
    clock.now = after(20);
    await dealAndBid(app, ledger, table, 'asher-F-g1', { N: 2, S: 2, E: 3, W: 2 });
    await tricks(app, table, 'asher-F-g1', { N: 2, S: 2, E: 5, W: 4 });
    await dealAndBid(app, ledger, table, 'asher-F-g1', { N: 2, S: 2, E: 3, W: 2 });
    await tricks(app, table, 'asher-F-g1', { N: 2, S: 2, E: 5, W: 4 });
    expect(ledger.models.games['asher-F-g1']!.rows.map((r) => r.dealer)).toEqual(['E', 'S']);
    // Game 1 is then ended by a judge's ruling on the clock (below); the rotation carries on into game 2.
    await dealAndBid(app, ledger, table, 'asher-F-g1', { N: 2, S: 2, E: 3, W: 2 });
    clock.now = after(60);
    expect((await send(app, fixture.clients.judge, 'POST', '/judge/time', { json: { tournamentId: 'asher', matchId: 'F' } })).status).toBe(200);
    await tricks(app, table, 'asher-F-g1', { N: 2, S: 2, E: 5, W: 4 });
    expect(ledger.models.games['asher-F-g1']!.rows.map((r) => r.dealer)).toEqual(['E', 'S', 'W']);

    clock.now = after(62);
    const next = await send(app, table, 'POST', '/entry/tables/asher/1/start', { json: { matchId: 'F' } });
    expect(next.status, await next.clone().text()).toBe(200);
    // "the player to the left of the player that dealt the last hand of the prior game will start the deal of the new game"
    expect(ledger.models.games['asher-F-g2']!.dealer).toBe('N');
    expectRebuildEqualsLive(ledger);
    ledger.close();
  });

  it('a draw for high card: the cards recorded with their redraws, a named dealer that did not draw highest refused, another event’s method refused', async () => {
    // blp-2024: "The JUDGE will spread the cards. Each player picks a card. The first dealer is chosen by a draw for high card"
    const { app, ledger } = withClock();
    await setUp(app, 'blp', 'blp-2024', ['Aces', 'Kings']);
    const director = fixture.clients.director;
    const page = await (await send(app, director, 'GET', '/director/tournaments/blp')).text();
    expect(page).toContain('data-method="high-card"');
    expect(page).toContain('North (Aces) drew');
    expect(page).toContain('name="clockMinutes" class="narrow" value="none"');

    const seat = (body: Record<string, unknown>) =>
      send(app, director, 'POST', '/director/tournaments/blp/matches/W1-1/start', { json: { table: 1, ...body } });
    const before = ledger.store.head();
    const notHighest = await seat({ cardN: 'QS', cardE: 'KD', cardS: '4C', cardW: '9H', firstDealer: 'N' });
    expect(notHighest.status).toBe(400);
    expect((await json(notHighest)).error).toBe('match W1-1: E drew the highest card, so E deals first, not N');
    const toss = await seat({ caller: 'aces', call: 'heads', result: 'heads', choice: 'N' });
    expect((await json(toss)).error).toBe('match W1-1: the first dealer is chosen by a draw for high card in this event, not by a coin toss');
    const tied = await seat({ cardN: 'KS', cardE: 'KD', cardS: '4C', cardW: '9H' });
    expect((await json(tied)).error).toBe('match W1-1: first-dealer draw: N, E are tied for the highest card; they draw again');
    const notTied = await seat({ cardN: 'KS 3D', cardE: 'KD 10C', cardS: '4C 2H', cardW: '9H' });
    expect((await json(notTied)).error).toBe(
      'match W1-1: first-dealer draw, redraw 1: S was not tied for the highest card, so S does not draw again (N, E do)',
    );
    const twice = await seat({ cardN: 'AS', cardE: 'as', cardS: '4C', cardW: '9H' });
    expect((await json(twice)).error).toBe('match W1-1: first-dealer draw: N and E both drew AS; one deck has one of each card');
    const short = await seat({ cardN: 'AS', cardE: 'KD', cardW: '9H' });
    expect((await json(short)).error).toBe('match W1-1: first-dealer draw: no card for S, who draws with the others');
    const unnamed = await seat({ firstDealer: 'W' });
    expect((await json(unnamed)).error).toBe(
      'match W1-1: a first dealer named without a draw for high card needs a reason (for example, the draw was made on paper before the match was entered)',
    );
    expect(ledger.store.head()).toEqual(before);

    // North and East tie on kings and draw again: East's 10♣ beats North's 3♦.
    const seated = await seat({ cardN: ['KS', '3D'], cardE: ['KD', '10C'], cardS: '4C', cardW: ['9H'], firstDealer: 'E' });
    expect(seated.status, await seated.clone().text()).toBe(200);
    // The desk hears the match by its round and teams, not its id.
    const done = String((await json(seated.clone())).done);
    expect(done).toMatch(/^Seated Round 1, (Aces against Kings|Kings against Aces) at table 1; /);
    expect(done).not.toContain('W1-1');
    expect(eventsOf(ledger, 'MatchStarted')[0]!.firstDealer).toEqual({
      method: 'high-card',
      rounds: [
        { N: 'KS', E: 'KD', S: '4C', W: '9H' },
        { N: '3D', E: '10C' },
      ],
      dealer: 'E',
    });
    expect(ledger.models.games['blp-W1-1-g1']!.dealer).toBe('E');
    // blp-2024 sets no clock outside the final, and none was imposed here.
    expect(eventsOf(ledger, 'ClockStarted')).toEqual([]);
    const noClock = await send(app, fixture.clients.judge, 'POST', '/judge/time', { json: { tournamentId: 'blp', matchId: 'W1-1' } });
    expect([noClock.status, (await json(noClock)).error]).toEqual([409, 'match W1-1 has no clock: no time limit was set for it when it was seated']);
    ledger.close();
  });

  it('a dealer named without a draw only by the director, with the reason recorded', async () => {
    const { app, ledger } = withClock();
    // The seating form of a toss event sends its selects' values too; a named dealer with a reason replaces them.
    await setUp(app, 'asher', 'asher-theatre', ['Aces', 'Kings']);
    const asher = await send(app, fixture.clients.director, 'POST', '/director/tournaments/asher/matches/F/start', {
      form: {
        table: '1',
        caller: 'aces',
        call: 'heads',
        result: 'heads',
        choice: 'N',
        clockMinutes: '60',
        firstDealer: 'S',
        namedBecause: 'tossed before the match was entered',
      },
    });
    expect(asher.status).toBe(303);
    expect(eventsOf(ledger, 'MatchStarted')[0]!.firstDealer).toEqual({ method: 'named', dealer: 'S', because: 'tossed before the match was entered' });
    const noSeat = await send(app, fixture.clients.director, 'POST', `/director/tournaments/t1/matches/${fixture.matchId}/start`, {
      json: { table: 2, namedBecause: 'drawn on paper' },
    });
    expect([noSeat.status, (await json(noSeat)).error]).toEqual([400, 'name the first dealer (N, E, S or W) beside the reason there was no draw']);

    const res = await send(app, fixture.clients.director, 'POST', `/director/tournaments/t1/matches/${fixture.matchId}/start`, {
      form: { table: '2', firstDealer: 'W', namedBecause: 'drawn on paper before the match was entered' },
    });
    expect(res.status).toBe(303);
    expect(eventsOf(ledger, 'MatchStarted')[1]!.firstDealer).toEqual({ method: 'named', dealer: 'W', because: 'drawn on paper before the match was entered' });
    ledger.close();
  });
});

describe('the seating form', () => {
  it('offers each ready match the free table a table’s phone would start it at', async () => {
    const { app, ledger } = withClock();
    await setUp(app, 'open8', 'pitt-boss', ['Aces', 'Kings', 'Queens', 'Jacks', 'Tens', 'Nines', 'Eights', 'Sevens']);
    const director = fixture.clients.director;
    /** The table each seat form starts with, by match. */
    const offered = async () => {
      const page = await (await send(app, director, 'GET', '/director/tournaments/open8')).text();
      return Object.fromEntries(
        [...page.matchAll(/<form[^>]*action="\/director\/tournaments\/open8\/matches\/([^/"]+)\/start"[\s\S]*?(<input name="table"[^>]*>)/g)].map((m) => [
          m[1]!,
          / value="(\d+)"/.exec(m[2]!)?.[1] ?? '',
        ]),
      );
    };
    const ready = ledger.models.tournaments.open8!.model.matches.filter((m) => m.status === 'ready').map((m) => m.matchId);
    expect(ready).toHaveLength(4);
    expect(await offered()).toEqual({ [ready[0]!]: '1', [ready[1]!]: '2', [ready[2]!]: '3', [ready[3]!]: '4' });
    // Table 2 taken out of order: the rest go to the free tables in number order.
    const seated = await send(app, director, 'POST', `/director/tournaments/open8/matches/${ready[2]}/start`, {
      json: { table: 2, cardN: 'AS', cardE: 'KD', cardS: '4C', cardW: '9H' },
    });
    expect(seated.status, await seated.clone().text()).toBe(200);
    expect(await offered()).toEqual({ [ready[0]!]: '1', [ready[1]!]: '3', [ready[3]!]: '4' });
    ledger.close();
  });
});

describe('clocks where the rulebook puts them', () => {
  it('blp final: a clock imposed when it is seated, and time ends the game once the hand in progress is played out', async () => {
    // blp-2024 Final Round: "If this game starts after 4 pm, a time limit may be imposed."
    const { app, ledger, auth, clock } = withClock();
    await setUp(app, 'blp', 'blp-2024', ['Aces', 'Kings']);
    const director = fixture.clients.director;
    const seated = await send(app, director, 'POST', '/director/tournaments/blp/matches/W1-1/start', {
      json: { table: 1, cardN: 'AS', cardE: 'KD', cardS: '4C', cardW: '9H' },
    });
    expect(seated.status).toBe(200);
    finishGame(ledger, 'blp-W1-1-g1');
    // Drawn round by round: one unbeaten and one one-loss team left play the final.
    const drawn = await send(app, director, 'POST', '/director/tournaments/blp/rounds/draw', { json: { round: 2, confirm: 'yes' } });
    expect(drawn.status).toBe(200);
    expect(matchOf(ledger, 'blp', 'F').status).toBe('ready');

    const impossible = await send(app, director, 'POST', '/director/tournaments/blp/matches/F/start', {
      json: { table: 1, cardN: 'AS', cardE: 'KD', cardS: '4C', cardW: '9H', clockMinutes: 601 },
    });
    expect([impossible.status, (await json(impossible)).error]).toEqual([400, 'the time limit must be whole minutes from 1 to 600, or none, not 601']);

    clock.now = after(360); // 4 pm
    const final = await send(app, director, 'POST', '/director/tournaments/blp/matches/F/start', {
      form: { table: '1', cardN: '2S', cardE: 'JD', cardS: '4C', cardW: '9H', clockMinutes: '30' },
    });
    expect(final.status).toBe(303);
    expect(eventsOf(ledger, 'ClockStarted')).toEqual([{ tournamentId: 'blp', matchId: 'F', at: after(360), minutes: 30 }]);
    expect(matchOf(ledger, 'blp', 'F').clock).toEqual({ startedAt: after(360), minutes: 30, calledAt: null });

    const table = await scorekeeper(app, auth, 'blp', 1);
    const gameId = matchOf(ledger, 'blp', 'F').games[0]!;
    expect(ledger.models.games[gameId]!.rules).toBe('blp-final');
    const tablePage = await (await send(app, null, 'GET', `/tournaments/blp/games/${gameId}`)).text();
    expect(tablePage).toContain(`data-deadline="${after(390)}" data-clock-scope="the match"`);
    await dealAndBid(app, ledger, table, gameId, { N: 2, S: 2, E: 2, W: 2 });
    await tricks(app, table, gameId, { N: 3, S: 2, E: 4, W: 4 }); // NS 41, EW 44
    await dealAndBid(app, ledger, table, gameId, { N: 2, S: 2, E: 2, W: 2 });

    clock.now = after(389);
    const early = await send(app, fixture.clients.judge, 'POST', '/judge/time', { json: { tournamentId: 'blp', matchId: 'F' } });
    expect(early.status).toBe(409);
    clock.now = after(390);
    expect((await send(app, fixture.clients.judge, 'POST', '/judge/time', { json: { tournamentId: 'blp', matchId: 'F' } })).status).toBe(200);
    expect(ledger.models.games[gameId]!.winner).toBeNull(); // the hand in progress is played out
    await tricks(app, table, gameId, { N: 3, S: 2, E: 4, W: 4 }); // NS 82, EW 88
    const game = ledger.models.games[gameId]!;
    expect([game.winner, game.reason]).toEqual(['EW', 'time']);
    expect(matchOf(ledger, 'blp', 'F')).toMatchObject({ status: 'done', winner: game.teams.EW });
    expect(ledger.models.tournaments.blp!.model.status).toBe('finished');
    expectRebuildEqualsLive(ledger);
    ledger.close();
  });

  it('asher: each game of a challenge has its own 1-hour clock; time in game 1 ends game 1 only, and game 2 starts with its own clock', async () => {
    // asher-theatre: "Each challenge game is played to 350 points or the 1-hour time limit."
    const { app, ledger, auth, clock } = withClock();
    await setUp(app, 'asher', 'asher-theatre', ['Aces', 'Kings']);
    const table = await scorekeeper(app, auth, 'asher', 1);
    const start = await send(app, table, 'POST', '/entry/tables/asher/1/start', {
      json: { matchId: 'F', caller: 'aces', call: 'tails', result: 'tails', choice: 'N' },
    });
    expect(start.status).toBe(200);
    expect(eventsOf(ledger, 'ClockStarted')).toEqual([{ tournamentId: 'asher', matchId: 'F', at: START, minutes: 60, gameId: 'asher-F-g1' }]);

    await dealAndBid(app, ledger, table, 'asher-F-g1', { N: 2, S: 2, E: 3, W: 2 });
    await tricks(app, table, 'asher-F-g1', { N: 2, S: 2, E: 5, W: 4 }); // NS 40, EW 50
    clock.now = after(60);
    const called = await send(app, fixture.clients.judge, 'POST', '/judge/time', { json: { tournamentId: 'asher', matchId: 'F' } });
    expect(called.status).toBe(200);
    expect(eventsOf(ledger, 'TimeCalled')).toEqual([{ tournamentId: 'asher', matchId: 'F', gameId: 'asher-F-g1', at: after(60), hand: 1 }]);
    const game1 = ledger.models.games['asher-F-g1']!;
    expect([game1.winner, game1.reason]).toEqual(['EW', 'time']);
    // Game 1 to Kings; the challenge is best of 3 and goes on.
    expect(matchOf(ledger, 'asher', 'F')).toMatchObject({ status: 'live', winner: null, gamesWon: [0, 1] });
    expect(ledger.models.tournaments.asher!.model.status).toBe('running');
    expect(newsText(ledger.models.tournaments.asher!.model.latest[0]!, ledger.models.tournaments.asher!.model)).toBe(
      'Time called in Final, game 1, during hand 1',
    );

    clock.now = after(63);
    expect((await send(app, table, 'POST', '/entry/tables/asher/1/start', { json: { matchId: 'F' } })).status).toBe(200);
    expect(eventsOf(ledger, 'ClockStarted').at(-1)).toEqual({ tournamentId: 'asher', matchId: 'F', at: after(63), minutes: 60, gameId: 'asher-F-g2' });
    expect(matchOf(ledger, 'asher', 'F').clock).toEqual({ startedAt: after(63), minutes: 60, calledAt: null, gameId: 'asher-F-g2' });
    clock.now = after(100);
    const early = await send(app, fixture.clients.judge, 'POST', '/judge/time', { json: { tournamentId: 'asher', matchId: 'F' } });
    expect([early.status, (await json(early)).error]).toEqual([
      409,
      `game 2 of match F: its 60-minute clock started at ${after(63)} and runs out at ${after(123)}; time cannot be called at ${after(100)}`,
    ]);

    // The table page shows the running game's clock; game 1's page no longer shows a clock.
    const page2 = await (await send(app, null, 'GET', '/tournaments/asher/games/asher-F-g2')).text();
    expect(page2).toContain(`data-deadline="${after(123)}" data-clock-scope="game 2"`);
    expect(page2).toContain('Time left in game 2');
    const page1 = await (await send(app, null, 'GET', '/tournaments/asher/games/asher-F-g1')).text();
    expect(page1).not.toContain('data-deadline');
    const console = await (await send(app, fixture.clients.judge, 'GET', '/judge')).text();
    expect(console).toContain('23:00 left in game 2');

    // Time in game 2 ends game 2 only as well: 1–1, and game 3 starts with a clock of its own.
    await dealAndBid(app, ledger, table, 'asher-F-g2', { N: 2, S: 3, E: 2, W: 2 });
    clock.now = after(123);
    expect((await send(app, fixture.clients.judge, 'POST', '/judge/time', { json: { tournamentId: 'asher', matchId: 'F' } })).status).toBe(200);
    await tricks(app, table, 'asher-F-g2', { N: 3, S: 3, E: 4, W: 3 }); // NS 50, EW 40
    expect([ledger.models.games['asher-F-g2']!.winner, ledger.models.games['asher-F-g2']!.reason]).toEqual(['NS', 'time']);
    expect(matchOf(ledger, 'asher', 'F')).toMatchObject({ status: 'live', gamesWon: [1, 1] });
    clock.now = after(125);
    expect((await send(app, table, 'POST', '/entry/tables/asher/1/start', { json: { matchId: 'F' } })).status).toBe(200);
    expect(matchOf(ledger, 'asher', 'F').clock).toEqual({ startedAt: after(125), minutes: 60, calledAt: null, gameId: 'asher-F-g3' });
    expectRebuildEqualsLive(ledger);
    ledger.close();
  });
});

describe('what the director chooses on the create form', () => {
  const create = (app: App, body: Record<string, string>) =>
    send(app, fixture.clients.director, 'POST', '/director/tournaments', { form: { tournamentId: 'open', name: 'Open', format: 'pitt-boss', ...body } });

  it('shows the rulebook’s own values and records the choices', async () => {
    const { app, ledger } = copyOf(fixture);
    const home = await (await send(app, fixture.clients.director, 'GET', '/director')).text();
    expect(home).toMatch(
      /<li data-format="asher-theatre"><strong>Asher Theatre<\/strong>: <span class="format-description">[^<]+ <\/span>best of 3 · 60 min on each game<\/li>/,
    );
    expect(home).toMatch(
      /<li data-format="pitt-boss"><strong>Pitt Boss<\/strong>: <span class="format-description">[^<]+ <\/span>best of 3 · 45 min on the match<\/li>/,
    );
    expect(home).toMatch(
      /<li data-format="unc-intramural"><strong>UNC intramural<\/strong>: <span class="format-description">[^<]+ <\/span>one game a match · 30 min on the match \(final: 45 min\)<\/li>/,
    );
    expect(home).toContain('name="ruleOverrides"');

    const res = await create(app, {
      gamesToWin: '3',
      clockMinutes: '50',
      finalClockMinutes: 'none',
      clockPer: 'game',
      ruleOverrides: 'target = 400\nbagLimit = 6\nbiddingOrder = non-dealing-team-first',
    });
    expect(res.status, await res.clone().text()).toBe(303);
    const format = ledger.models.tournaments.open!.format;
    expect(format).toMatchObject({ gamesToWin: 3, clockMinutes: 50, finalClockMinutes: null, clockPer: 'game', elimination: 'first-round-losers' });
    expect(format.rules).toEqual({ preset: 'pitt-boss', target: 400, bagLimit: 6, biddingOrder: 'non-dealing-team-first' });

    // Left empty, every value is the rulebook's.
    const plain = await send(app, fixture.clients.director, 'POST', '/director/tournaments', {
      json: { tournamentId: 'plain', name: 'Plain', format: 'asher-theatre' },
    });
    expect(plain.status).toBe(200);
    expect(ledger.models.tournaments.plain!.format).toMatchObject({
      gamesToWin: 2,
      clockMinutes: 60,
      clockPer: 'game',
      rules: 'asher',
      firstDealer: 'coin-toss',
    });
    ledger.close();
  });

  it('reads the override lines in the notation the options table shows, as well as JSON', async () => {
    const { app, ledger } = copyOf(fixture);
    const written = {
      letters: 'removed = 2H 2C\npromoted = 2D 2S',
      symbols: 'removed = 2♥, 2♣\npromoted = 2♦ 2♠',
      json: 'removed = ["2H", "2C"]\npromoted = ["2D", "2S"]',
    };
    for (const [id, lines] of Object.entries(written)) {
      const res = await create(app, { tournamentId: id, ruleOverrides: lines });
      expect(res.status, await res.clone().text()).toBe(303);
      expect(ledger.models.tournaments[id]!.format.rules, id).toEqual({ preset: 'pitt-boss', removed: ['2H', '2C'], promoted: ['2D', '2S'] });
    }
    // The other values the table shows as words: an object's fields, a list of reasons, none.
    const res = await create(app, {
      tournamentId: 'words',
      ruleOverrides: 'blindBid = deficit 100, strict false, minimumTeam 4\nmisdealReasons = card-flipped wrong-card-count no-trumps\nbigBid = null',
    });
    expect(res.status, await res.clone().text()).toBe(303);
    expect(ledger.models.tournaments.words!.format.rules).toEqual({
      preset: 'pitt-boss',
      blindBid: { deficit: 100, strict: false, minimumTeam: 4 },
      misdealReasons: ['card-flipped', 'wrong-card-count', 'no-trumps'],
      bigBid: null,
    });
    const bad = await send(app, fixture.clients.director, 'POST', '/director/tournaments', {
      json: { tournamentId: 'bad', name: 'Bad', format: 'pitt-boss', ruleOverrides: 'promoted = 2D 2X' },
    });
    expect([bad.status, (await json(bad)).error]).toEqual([
      400,
      'the rules of Bad: Trumps above the ace of spades must be natural cards as players write them, such as 2H 2C (or 2♥ 2♣), or none, got "2D 2X"',
    ]);
    ledger.close();
  });

  it('refuses a bad choice with a sentence naming it, and records nothing', async () => {
    const { app, ledger } = copyOf(fixture);
    const before = ledger.store.head();
    const cases: [Record<string, string>, string][] = [
      [{ gamesToWin: '0' }, 'tournament open: games to win a match must be 1 to 4 (1 = one game, 2 = best of 3), not 0'],
      [{ gamesToWin: 'three' }, 'games to win a match must be a whole number from 1 to 4 (1 = one game, 2 = best of 3), not "three"'],
      [{ clockMinutes: '0' }, 'tournament open: the clock must be whole minutes from 1 to 600, or none, not 0'],
      [{ clockMinutes: '601' }, 'tournament open: the clock must be whole minutes from 1 to 600, or none, not 601'],
      [{ finalClockMinutes: 'soon' }, 'the final’s clock must be whole minutes from 1 to 600, or none, not "soon"'],
      [{ clockPer: 'hand' }, "a clock times the whole 'match' or each 'game', not 'hand'"],
      [
        { ruleOverrides: 'colour = red' },
        "the rules of Open: 'colour' is not a rule option; see the rule options at /help/rule-options (docs/rule-options.md)",
      ],
      [{ ruleOverrides: 'bagLimit = many' }, 'the rules of Open: Bags before a penalty must be a whole number 1 or more, or none (no bag penalty), got "many"'],
      [{ ruleOverrides: 'just words' }, "rule overrides, line 1: 'just words' is not option = value (such as bagLimit = 6)"],
    ];
    for (const [body, error] of cases) {
      const res = await send(app, fixture.clients.director, 'POST', '/director/tournaments', {
        json: { tournamentId: 'open', name: 'Open', format: 'pitt-boss', ...body },
      });
      expect([res.status, (await json(res)).error], JSON.stringify(body)).toEqual([400, error]);
    }
    // A form post answers with the page and the same sentence.
    const form = await create(app, { clockMinutes: '0' });
    expect(form.status).toBe(400);
    expect(await form.text()).toContain('the clock must be whole minutes from 1 to 600, or none, not 0');
    expect(ledger.store.head()).toEqual(before);
    ledger.close();
  });
});

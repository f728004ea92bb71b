/**
 * Ratings from every decided game: the library's own documented example gives its documented
 * values; over played events the winners of a game never lose rating from it; a rebuild from the
 * ledger, and the models folded to a past position, give the same ratings as the live ones then;
 * a progressive evening's round games are rated; and the read API documents and answers them.
 */
import { rate, rating } from 'openskill';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { foldEvents } from '../events/projections.ts';
import { projected } from '../events/store/served-ledger.ts';
import { rebuildModels } from '../events/store/sqlite/ledger-tools.ts';
import { ratedGames, rateGames, ratingsOf } from '../events/rating-projection.ts';
import { driveTables } from '../server/serve/table-driver.ts';
import { startTournament } from '../server/commands/tournament-commands.ts';
import { documentChecked } from './fixtures/api-document.ts';
import { playEvent, progressiveEvent, teamEvent } from './fixtures/circuit-season.ts';
import { type Fixture, copyOf, makeFixture, send } from './routes-fixture.ts';
import type { PlayerRating } from '../events/rating-projection.ts';

/** The names of the highest and the lowest rated of the players, as registered. */
const byValue = (rated: Map<string, PlayerRating>) =>
  [...rated.values()].filter((r) => !r.playerId.includes('-one') && !r.playerId.includes('-two')).sort((a, b) => b.mu - 3 * b.sigma - (a.mu - 3 * a.sigma));
const nameOf = (playerId: string) =>
  playerId
    .split('-')
    .map((w) => w[0]!.toUpperCase() + w.slice(1))
    .join(' ');
const high = (rated: Map<string, PlayerRating>) => nameOf(byValue(rated)[0]!.playerId);
const low = (rated: Map<string, PlayerRating>) => nameOf(byValue(rated).at(-1)!.playerId);

let fixture: Fixture;
beforeAll(async () => {
  fixture = await makeFixture();
});
afterAll(() => fixture?.close());

describe('the rating method', () => {
  it('gives the values of the library’s documented example (README, "Usage")', () => {
    // a1 and a2 on a team win against b1 and b2.
    const a1 = rating();
    const a2 = rating({ mu: 32.444, sigma: 5.123 });
    const b1 = rating({ mu: 43.381, sigma: 2.421 });
    const b2 = rating({ mu: 25.188, sigma: 6.211 });
    const [[x1, x2], [y1, y2]] = rate([
      [a1, a2],
      [b1, b2],
    ]) as [[typeof a1, typeof a1], [typeof a1, typeof a1]];
    const near = (r: { mu: number; sigma: number }, mu: number, sigma: number) => {
      expect(r.mu).toBeCloseTo(mu, 2);
      expect(r.sigma).toBeCloseTo(sigma, 2);
    };
    near(x1, 28.67, 8.07);
    near(x2, 33.83, 5.06);
    near(y1, 43.07, 2.42);
    near(y2, 23.15, 6.14);
    // The projection's own rating of the same game, from the same starting values, agrees.
    const rated = rateGames([{ gameId: 'g', tournamentId: 't', position: 1, sides: [['a1'], ['b1']], winner: 0 }]);
    expect(rated.get('a1')!.mu).toBeGreaterThan(25);
    expect(rated.get('b1')!.mu).toBeLessThan(25);
    expect(rated.get('a1')!.sigma).toBeLessThan(25 / 3);
  });
});

describe('ratings from a played season', () => {
  it('never take rating from a game’s winners, rebuild to the same values, and stand as of any position', { timeout: 120_000 }, async () => {
    const copy = copyOf(fixture);
    const { ledger, app } = copy;
    teamEvent(ledger, 'r1', 'Ratings week 1', [
      { name: 'Aces', players: ['Ana Lopez', 'Ben Ortiz'] },
      { name: 'Kings', players: ['Cy Diaz', 'Dee Park'] },
      { name: 'Queens', players: ['Eve Moss', 'Fay Wu'] },
      { name: 'Jacks', players: ['Gus Roy', 'Hal Kim'] },
    ]);
    await playEvent(ledger, 'r1', 'ratings-1');
    const midway = ledger.models.position;
    const live = structuredClone([...ratingsOf(ledger.models).entries()]);
    teamEvent(ledger, 'r2', 'Ratings week 2', [
      { name: 'Mixed', players: ['Ana Lopez', 'Cy Diaz'] },
      { name: 'Other', players: ['Ben Ortiz', 'Dee Park'] },
    ]);
    await playEvent(ledger, 'r2', 'ratings-2');

    const games = ratedGames(ledger.models);
    const rated = ratingsOf(ledger.models);
    // Every decided game of both events is rated, in the order played.
    const decided = ['r1', 'r2'].flatMap((t) =>
      ledger.models.tournaments[t]!.model.matches.flatMap((m) => m.games.filter((g) => ledger.models.games[g]!.winner !== null)),
    );
    expect(
      games
        .filter((g) => g.tournamentId !== 't1')
        .map((g) => g.gameId)
        .sort(),
    ).toEqual(decided.sort());
    // The winners of each game never lose rating from it, and the losers never gain.
    for (const [playerId, r] of rated) {
      let before = 25;
      for (const step of r.history) {
        if (step.result === 'won') expect(step.mu, `${playerId} after ${step.gameId}`).toBeGreaterThanOrEqual(before);
        if (step.result === 'lost') expect(step.mu, `${playerId} after ${step.gameId}`).toBeLessThanOrEqual(before);
        before = step.mu;
      }
      expect(r.games).toBe(r.history.length);
    }
    // A rebuild from the ledger gives the same ratings.
    const rebuilt = rebuildModels(ledger.database, ledger.store);
    expect([...ratingsOf(rebuilt).entries()]).toEqual([...rated.entries()]);
    // Folded to the position after week 1, the ratings are those the live ledger held then.
    const past = foldEvents(ledger.store.readAll().map(projected), midway);
    expect([...ratingsOf(past).entries()]).toEqual(live);

    // The read API gives each player's rating and history, as the document says, now and as of then.
    const { api } = await documentChecked(app);
    const now = await api('/api/v1/players/ana-lopez', '/api/v1/players/{playerId}');
    const ana = rated.get('ana-lopez')!;
    expect(now.body!.rating).toEqual({ mu: ana.mu, sigma: ana.sigma, games: ana.games, history: ana.history });
    const then = await api(`/api/v1/players/ana-lopez?asOf=${midway}`, '/api/v1/players/{playerId}');
    const anaThen = new Map(live).get('ana-lopez')!;
    expect((then.body!.rating as { mu: number }).mu).toBe(anaThen.mu);
    // Seeding by rating is a choice on the desk: the entrants by their players' mean conservative rating.
    teamEvent(ledger, 'r3', 'Ratings week 3', [
      { name: 'Low', players: [low(rated), 'New Player'] },
      { name: 'High', players: [high(rated), 'Other New'] },
      { name: 'Fresh', players: ['Fresh One', 'Fresh Two'] },
    ]);
    // A player not yet rated counts at the start's conservative value, 25 − 3 × 25/3 = 0.
    const strength = (players: string[]) =>
      players.map((name) => rated.get(name.toLowerCase().replace(/ /g, '-'))).reduce((sum, r) => sum + (r ? r.mu - 3 * r.sigma : 0), 0) / players.length;
    const expected = ledger.models.tournaments
      .r3!.model.teams.map((t) => ({ teamId: t.teamId, value: strength(t.players) }))
      .sort((a, b) => b.value - a.value)
      .map((t) => t.teamId);
    const started = await send(app, fixture.clients.director, 'POST', '/director/tournaments/r3/start', { json: { byRating: 'yes' } });
    expect(started.status, await started.clone().text()).toBe(200);
    expect(
      ledger.models.tournaments
        .r3!.model.teams.filter((t) => t.seed !== null)
        .sort((a, b) => a.seed! - b.seed!)
        .map((t) => t.teamId),
    ).toEqual(expected);
    expect(expected[0]).toBe('team2');
    const list = await api('/api/v1/players', '/api/v1/players');
    const order = (list.body!.players as { mu: number; sigma: number }[]).map((p) => p.mu - 3 * p.sigma);
    expect(order).toEqual([...order].sort((a, b) => b - a));
    ledger.close();
  });

  it('rates each round’s games of a progressive evening', { timeout: 120_000 }, async () => {
    const copy = copyOf(fixture);
    const { ledger } = copy;
    progressiveEvent(ledger, 'pe', 'Progressive night', ['Ana Lopez', 'Ben Ortiz', 'Cy Diaz', 'Dee Park', 'Eve Moss', 'Fay Wu', 'Gus Roy', 'Hal Kim']);
    ledger.execute(startTournament(ledger.models, { tournamentId: 'pe', seed: 'pe' }));
    for (let i = 0; i < 400 && (await driveTables(ledger, { tournamentId: 'pe', seed: 'pe-play' })) > 0; i++);
    const progressive = ledger.models.tournaments.pe!.progressive!;
    const overRounds = progressive.rounds.filter((r) => r.results !== null);
    expect(overRounds.length).toBeGreaterThan(0);
    const games = ratedGames(ledger.models).filter((g) => g.tournamentId === 'pe');
    expect(games.map((g) => g.gameId).sort()).toEqual(overRounds.flatMap((r) => Object.values(r.games)).sort());
    for (const game of games) expect(game.sides.map((s) => s.length)).toEqual([2, 2]);
    ledger.close();
  });
});

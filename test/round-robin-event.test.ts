/**
 * A round robin played to its end as a director, a judge and the room see it: created, filled
 * and started through the director's routes, every game entered on paper into its match, the
 * standings and placings read back from the read API and the pages and checked against counts
 * made here from the games themselves.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRandom } from '../engine/random.ts';
import { answer, type Fixture, copyOf, makeFixture, send } from './routes-fixture.ts';
import { importWin } from './paper-records.ts';
import { expectRebuildEqualsLive } from './tournament-ledger.ts';
import { disqualifyTeam } from '../server/commands/ruling-commands.ts';

let fixture: Fixture;
beforeAll(async () => {
  fixture = await makeFixture();
}, 60_000);
afterAll(() => fixture.close());

type App = ReturnType<typeof copyOf>['app'];

interface Row {
  teamId: string;
  place: number | null;
  placeLabel: string;
  record: { matches: { won: number; lost: number }; games: { won: number; lost: number } };
  tiebreaks: {
    shared: boolean;
    separatedBy: string | null;
    matchWins: number;
    gamesWon: number;
    pointsDifference: number;
    headToHead: number | null;
    opponentsWinShare: number | null;
  } | null;
}

async function create(app: App, id: string, json: Record<string, unknown>, teams: number): Promise<void> {
  const director = fixture.clients.director;
  await answer(
    send(app, director, 'POST', '/director/tournaments', { json: { tournamentId: id, name: `League ${id}`, format: 'round-robin', rules: 'blp-r1', ...json } }),
  );
  for (let i = 1; i <= teams; i++) {
    await answer(
      send(app, director, 'POST', `/director/tournaments/${id}/teams`, { json: { teamId: `t${i}`, name: `Team ${i}`, player1: `P${i}a`, player2: `P${i}b` } }),
    );
  }
}

describe('a round robin through the HTTP routes and paper records', () => {
  it('plays everyone against everyone, once, byes turning, and ranks by wins, games, points difference, then head-to-head', async () => {
    const { app, ledger } = copyOf(fixture);
    const id = 'league';
    const director = fixture.clients.director;
    await create(app, id, {}, 5);
    const started = await answer(send(app, director, 'POST', `/director/tournaments/${id}/start`, { json: { order: ['t1', 't2', 't3', 't4', 't5'] } }));
    expect(started.done).toBe('Seeded in the order given and drew every round.');
    // Every round is drawn at the start: there is none to draw later.
    const none = await answer(send(app, director, 'POST', `/director/tournaments/${id}/rounds/draw`, { json: { confirm: 'yes' } }), 409);
    expect(none.error).toBe(`tournament ${id} draws its whole schedule at the start; it has no rounds to draw`);
    const model = () => ledger.models.tournaments[id]!.model;
    // 5 teams: 5 rounds of 2 matches and a bye each.
    expect(model().matches).toHaveLength(15);
    expect(
      model()
        .matches.filter((m) => m.status === 'bye')
        .map((m) => m.teams[0])
        .sort(),
    ).toEqual(['t1', 't2', 't3', 't4', 't5']);
    expect(model().matches.filter((m) => m.status === 'ready')).toHaveLength(10);
    expect(model().teams.every((t) => t.status === 'alive')).toBe(true);

    const random = createRandom('league-results');
    // Counted here from what is entered: wins, games, and points from the folded games.
    const wins = new Map<string, number>();
    const beat = new Set<string>();
    let n = 0;
    for (const match of model().matches.filter((m) => m.status === 'ready')) {
      const winner = match.teams[random.int(2)]!;
      await importWin(app, fixture.clients.judge, id, match, winner, 'blp-r1', `league-${n++}`);
      wins.set(winner, (wins.get(winner) ?? 0) + 1);
      beat.add(`${winner}>${match.teams[0] === winner ? match.teams[1] : match.teams[0]}`);
      // Nobody goes out in a round robin.
      expect(model().teams.every((t) => t.status === 'alive' || t.status === 'champion')).toBe(true);
    }
    expect(model().status).toBe('finished');

    const points = new Map<string, number>();
    const games = new Map<string, number>();
    for (const match of model().matches) {
      for (const gameId of match.games) {
        const game = ledger.models.games[gameId]!;
        for (const [side, other] of [
          ['NS', 'EW'],
          ['EW', 'NS'],
        ] as const) {
          const team = game.teams[side];
          points.set(team, (points.get(team) ?? 0) + game.score[side] - game.score[other]);
          if (game.winner === side) games.set(team, (games.get(team) ?? 0) + 1);
        }
      }
    }

    const resource = await answer(app.request(`/api/v1/tournaments/${id}`));
    const rows = resource.standings as Row[];
    expect(rows).toHaveLength(5);
    const key = (t: string) => [wins.get(t) ?? 0, games.get(t) ?? 0, points.get(t) ?? 0] as const;
    for (const row of rows) {
      const [w, g, d] = key(row.teamId);
      expect(row.tiebreaks).toMatchObject({ matchWins: w, gamesWon: g, pointsDifference: d });
      expect(row.record.matches).toEqual({ won: w, lost: 4 - w });
    }
    // Each row below the one above by the first tiebreak that differs, or by head-to-head, or level.
    const words = ['matches won', 'games won', 'points scored minus points conceded'];
    for (let i = 1; i < rows.length; i++) {
      const [above, below] = [key(rows[i - 1]!.teamId), key(rows[i]!.teamId)];
      const differs = [0, 1, 2].find((k) => above[k] !== below[k]);
      if (differs !== undefined) {
        expect(above[differs]!).toBeGreaterThan(below[differs]!);
        expect(rows[i]!.tiebreaks!.separatedBy).toBe(words[differs]);
        expect(rows[i]!.place).toBe(i + 1);
      } else if (rows[i]!.place === rows[i - 1]!.place) {
        expect(rows[i]!.tiebreaks!.shared).toBe(true);
      } else {
        expect(rows[i]!.tiebreaks!.separatedBy).toBe('matches won between the teams still level');
        expect(rows[i - 1]!.tiebreaks!.headToHead!).toBeGreaterThan(rows[i]!.tiebreaks!.headToHead!);
      }
    }
    // The placings are the standings' places, and the champion the one team placed first alone.
    expect(model().placings.map((p) => [p.teamId, p.place])).toEqual(rows.map((r) => [r.teamId, r.place]));
    const first = rows.filter((r) => r.place === 1);
    if (first.length === 1) expect(model().teams.find((t) => t.status === 'champion')!.teamId).toBe(first[0]!.teamId);

    // The standings page says the tiebreaks in words.
    const page = await (await app.request(`/tournaments/${id}/leaderboard`)).text();
    expect(page).toContain('points scored minus points conceded');
    expect(page).toContain('Round robin');
    // The rules sheet says how the event is played and ranked.
    const rules = await (await app.request(`/tournaments/${id}/rules`)).text();
    expect(rules).toContain('every team plays every other team once, nobody is out');
    expect(rules).toContain('Standings: matches won, then games won, then points scored minus points conceded, then matches won between the teams still level');
    expectRebuildEqualsLive(ledger);
  });

  it('states a tie at the top that no tiebreak breaks', async () => {
    const { app, ledger } = copyOf(fixture);
    const id = 'three-way';
    await create(app, id, {}, 3);
    await answer(send(app, fixture.clients.director, 'POST', `/director/tournaments/${id}/start`, { json: { order: ['t1', 't2', 't3'] } }));
    // t1 beats t2, t2 beats t3, t3 beats t1, each by the same record: level on everything.
    const beats: Record<string, string> = { t1: 't2', t2: 't3', t3: 't1' };
    for (const match of ledger.models.tournaments[id]!.model.matches.filter((m) => m.status === 'ready')) {
      const [a, b] = match.teams as [string, string];
      const winner = beats[a] === b ? a : b;
      await importWin(app, fixture.clients.judge, id, match, winner, 'blp-r1', 'same');
    }
    const rows = (await answer(app.request(`/api/v1/tournaments/${id}`))).standings as Row[];
    expect(rows.map((r) => r.place)).toEqual([1, 1, 1]);
    expect(rows.every((r) => r.tiebreaks!.shared && r.tiebreaks!.headToHead === 1)).toBe(true);
    const page = await (await app.request(`/tournaments/${id}/leaderboard`)).text();
    expect(page).toMatch(/Tied for 1st: Team 1, Team 2 and Team 3/);
  });

  it('plays a second cycle with rounds: 2, and refuses a third', async () => {
    const { app, ledger } = copyOf(fixture);
    await create(app, 'twice', { rounds: 2 }, 4);
    await answer(send(app, fixture.clients.director, 'POST', '/director/tournaments/twice/start', { json: { order: ['t1', 't2', 't3', 't4'] } }));
    expect(ledger.models.tournaments.twice!.model.matches).toHaveLength(12);
    const refused = await answer(
      send(app, fixture.clients.director, 'POST', '/director/tournaments', {
        json: { tournamentId: 'thrice', name: 'Thrice', format: 'round-robin', rounds: 3 },
      }),
      400,
    );
    expect(refused.error).toBe('tournament thrice: a round robin is played once or twice through, so rounds must be 1 or 2, not 3');
    expect(ledger.models.tournaments.thrice).toBeUndefined();
  });

  it('forfeits a disqualified team’s remaining matches to its opponents, who are counted a win with no games', async () => {
    const { app, ledger } = copyOf(fixture);
    const id = 'forfeits';
    await create(app, id, {}, 4);
    await answer(send(app, fixture.clients.director, 'POST', `/director/tournaments/${id}/start`, { json: { order: ['t1', 't2', 't3', 't4'] } }));
    const model = () => ledger.models.tournaments[id]!.model;
    // Round 1: the first-named team of each match wins.
    for (const match of model().matches.filter((m) => m.round === 1))
      await importWin(app, fixture.clients.judge, id, match, match.teams[0]!, 'blp-r1', match.matchId);
    ledger.execute(disqualifyTeam(ledger.models, { tournamentId: id, teamId: 't4', reason: 'left the venue' }));
    const left = model().matches.filter((m) => m.round > 1 && m.teams.includes('t4'));
    expect(left.map((m) => m.status)).toEqual(['forfeit', 'forfeit']);
    for (const match of model().matches.filter((m) => m.status === 'ready'))
      await importWin(app, fixture.clients.judge, id, match, match.teams[0]!, 'blp-r1', match.matchId);
    expect(model().status).toBe('finished');
    const rows = (await answer(app.request(`/api/v1/tournaments/${id}`))).standings as Row[];
    const t4 = rows.find((r) => r.teamId === 't4')!;
    expect(t4.placeLabel).toBe('Disqualified');
    // Each opponent of t4 after round 1 has one more match won and no more games for it.
    for (const match of left) {
      const opponent = match.teams[0] === 't4' ? match.teams[1]! : match.teams[0]!;
      const played = model().matches.filter((m) => m.status === 'done' && m.teams.includes(opponent));
      const row = rows.find((r) => r.teamId === opponent)!;
      expect(row.tiebreaks!.matchWins).toBe(played.filter((m) => m.winner === opponent).length + 1);
      expect(row.tiebreaks!.gamesWon).toBe(played.filter((m) => m.winner === opponent).length);
    }
    expectRebuildEqualsLive(ledger);
  });
});

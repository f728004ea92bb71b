/**
 * Pools into a playoff played to its end as a director, a judge and the room see it: created,
 * filled, checked in and started through the director's routes, pool play entered on paper
 * into its matches, the playoff drawn at the desk from the pools' standings and played on paper
 * too, and the pools' standings, the playoff's seeding and the final placings read back from the
 * read API and checked against counts made here from the games themselves.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRandom } from '../engine/random.ts';
import { snakePools } from '../engine/pools.ts';
import type { MatchModel } from '../events/read-models.ts';
import { answer, type Fixture, copyOf, makeFixture, send } from './routes-fixture.ts';
import { importWin } from './paper-records.ts';
import { eventsOf, expectRebuildEqualsLive } from './tournament-ledger.ts';
import { correctGameResult, disqualifyTeam } from '../server/commands/ruling-commands.ts';
import { applyEvent, emptyModels } from '../events/projections.ts';
import { projected } from '../events/store/served-ledger.ts';
import { replayProblem } from '../server/commands/replay-check.ts';

let fixture: Fixture;
beforeAll(async () => {
  fixture = await makeFixture();
}, 60_000);
afterAll(() => fixture.close());

type App = ReturnType<typeof copyOf>['app'];

interface Tiebreaks {
  shared: boolean;
  separatedBy: string | null;
  matchWins: number;
  gamesWon: number;
  pointsDifference: number;
  headToHead: number | null;
}
interface Pool {
  name: string;
  teams: string[];
  standings: { teamId: string; place: number; record: { matches: { won: number; lost: number } }; tiebreaks: Tiebreaks }[];
  goingOn: string[] | null;
}

const teamIds = (n: number) => Array.from({ length: n }, (_, i) => `t${i + 1}`);

async function createAndStart(app: App, id: string, options: Record<string, unknown>, teams: number): Promise<void> {
  const director = fixture.clients.director;
  await answer(
    send(app, director, 'POST', '/director/tournaments', {
      json: { tournamentId: id, name: `Pools ${id}`, format: 'pools', rules: 'blp-r1', gamesToWin: 1, ...options },
    }),
  );
  for (const teamId of teamIds(teams)) {
    const n = teamId.slice(1);
    await answer(
      send(app, director, 'POST', `/director/tournaments/${id}/teams`, { json: { teamId, name: `Team ${n}`, player1: `P${n}a`, player2: `P${n}b` } }),
    );
    await answer(send(app, director, 'POST', `/director/tournaments/${id}/check-in`, { json: { teamId } }));
  }
  await answer(send(app, director, 'POST', `/director/tournaments/${id}/start`, { json: { order: teamIds(teams) } }));
}

/** Points difference and games won by team, counted from the folded games of `matches`. */
function countGames(ledger: ReturnType<typeof copyOf>['ledger'], matches: readonly MatchModel[]) {
  const diff = new Map<string, number>();
  const games = new Map<string, number>();
  for (const match of matches) {
    for (const gameId of match.games) {
      const game = ledger.models.games[gameId]!;
      for (const [side, other] of [
        ['NS', 'EW'],
        ['EW', 'NS'],
      ] as const) {
        const team = game.teams[side];
        diff.set(team, (diff.get(team) ?? 0) + game.score[side] - game.score[other]);
        if (game.winner === side) games.set(team, (games.get(team) ?? 0) + 1);
      }
    }
  }
  return { diff, games };
}

const SEATS = ['N', 'E', 'S', 'W'] as const;

/** Plays a seated game at its table as the director enters it: North–South bid 5 and 4 and take 9 every hand, East–West 2 and 2 and take 4, until the game ends. */
async function playAtTable(app: App, ledger: ReturnType<typeof copyOf>['ledger'], gameId: string): Promise<void> {
  const director = fixture.clients.director;
  for (let hand = 0; hand < 10 && !ledger.models.games[gameId]!.winner; hand++) {
    await answer(send(app, director, 'POST', `/entry/games/${gameId}/deal`, { json: { shuffle: 'system' } }));
    const dealer = ledger.models.games[gameId]!.current!.dealer;
    // blp-r1 bids by team: the dealer's left, that seat's partner, the dealer's partner, the dealer.
    for (const k of [1, 3, 2, 4]) {
      const seat = SEATS[(SEATS.indexOf(dealer) + k) % 4]!;
      await answer(send(app, director, 'POST', `/entry/games/${gameId}/bid`, { json: { seat, bid: { N: 5, E: 2, S: 4, W: 2 }[seat] } }));
    }
    await answer(send(app, director, 'POST', `/entry/games/${gameId}/tricks`, { json: { N: 5, E: 2, S: 4, W: 2 } }));
  }
  expect(ledger.models.games[gameId]!.winner).toBe('NS');
}

describe('pools into a playoff through the HTTP routes and paper records', () => {
  it('spreads the teams in a snake, ranks each pool by its tiebreaks, seeds the playoff from them, and places everyone', async () => {
    const { app, ledger } = copyOf(fixture);
    const id = 'pools';
    const director = fixture.clients.director;
    await createAndStart(app, id, { pools: 3, advance: 2, playoff: 'single' }, 10);
    const model = () => ledger.models.tournaments[id]!.model;
    const expectedPools = snakePools(teamIds(10), 3);
    expect(expectedPools).toEqual([
      ['t1', 't6', 't7'],
      ['t2', 't5', 't8'],
      ['t3', 't4', 't9', 't10'],
    ]);
    // Pools A and B hold 3 teams, C 4: 3 + 3 + 6 matches, every pair of a pool once (and a bye a round in A and B).
    const poolMatches = model().matches.filter((m) => m.side === 'pool');
    expect(poolMatches.filter((m) => m.status !== 'bye')).toHaveLength(12);
    const poolOf = (team: string) => expectedPools.findIndex((p) => p.includes(team));
    for (const m of poolMatches.filter((x) => x.status !== 'bye')) expect(poolOf(m.teams[0]!)).toBe(poolOf(m.teams[1]!));
    expect(poolMatches[0]!.label).toMatch(/^Pool A, round 1$/);

    // The rules sheet says how it is played and ranked.
    const rules = await (await app.request(`/tournaments/${id}/rules`)).text();
    expect(rules).toContain('spread over 3 pools by seed, in a snake');
    expect(rules).toContain('The top 2 teams of each pool go on to a single elimination (out after one loss) playoff');

    // Too early: the playoff is refused while pool play is open.
    const early = await answer(send(app, director, 'POST', `/director/tournaments/${id}/rounds/draw`, { json: { round: 4, confirm: 'yes' } }), 409);
    expect(early.error).toMatch(/^tournament pools: pool play is not over: 12 matches still to be decided \(pool A, round 1; /);

    // One pool match seated at a table first: the team page names the pool and round.
    const seated = poolMatches.find((m) => m.status === 'ready' && m.matchId.startsWith('B-'))!;
    await answer(
      send(app, director, 'POST', `/director/tournaments/${id}/matches/${seated.matchId}/start`, {
        json: { table: 5, cardN: 'AS', cardE: 'KD', cardS: '4C', cardW: '9H' },
      }),
    );
    const teamPage = await (await app.request(`/tournaments/${id}/teams/${seated.teams[0]}`)).text();
    const opponent = `Team ${seated.teams[1]!.slice(1)}`;
    expect(teamPage).toContain(`Pool B, round ${seated.round}: table 5 against ${opponent}, now`);
    // Its game entered hand by hand at the table, North–South winning it.
    await playAtTable(app, ledger, model().matches.find((m) => m.matchId === seated.matchId)!.games[0]!);
    expect(model().matches.find((m) => m.matchId === seated.matchId)!.status).toBe('done');

    // Pool play: every game entered on paper, winners drawn from a seed.
    const random = createRandom('pool-results');
    let n = 0;
    for (const match of model().matches.filter((m) => m.side === 'pool' && (m.status === 'ready' || m.status === 'live'))) {
      await importWin(app, fixture.clients.judge, id, match, match.teams[random.int(2)]!, 'blp-r1', `pool-${n++}`);
    }
    expect(model().status).toBe('running');

    // Counted here: each pool's wins, games and points difference from the games themselves.
    const played = model().matches.filter((m) => m.side === 'pool');
    const wins = new Map<string, number>();
    for (const m of played) if (m.status === 'done') wins.set(m.winner!, (wins.get(m.winner!) ?? 0) + 1);
    const { diff, games } = countGames(ledger, played);
    const resource = await answer(app.request(`/api/v1/tournaments/${id}`));
    const pools = resource.pools as Pool[];
    expect(pools.map((p) => p.name)).toEqual(['Pool A', 'Pool B', 'Pool C']);
    // The league's rounds are pool play's, each pairing naming its pool.
    const rounds = (resource.league as { rounds: { pairings: { matchId: string; pool: string | null }[] }[] }).rounds;
    expect(rounds.flatMap((r) => r.pairings).every((p) => p.pool === p.matchId[0])).toBe(true);
    expect(rounds.flatMap((r) => r.pairings)).toHaveLength(12);
    expect(pools.map((p) => p.teams)).toEqual(expectedPools);
    const words = ['matches won', 'games won', 'points scored minus points conceded'];
    for (const pool of pools) {
      const key = (t: string) => [wins.get(t) ?? 0, games.get(t) ?? 0, diff.get(t) ?? 0] as const;
      expect(pool.standings.map((r) => r.teamId).sort()).toEqual([...pool.teams].sort());
      for (const row of pool.standings) {
        const [w, g, d] = key(row.teamId);
        expect(row.tiebreaks).toMatchObject({ matchWins: w, gamesWon: g, pointsDifference: d });
        expect(row.record.matches).toEqual({ won: w, lost: pool.teams.length - 1 - w });
      }
      expect(pool.standings[0]!.place).toBe(1);
      for (let i = 1; i < pool.standings.length; i++) {
        const [above, below] = [key(pool.standings[i - 1]!.teamId), key(pool.standings[i]!.teamId)];
        const differs = [0, 1, 2].find((k) => above[k] !== below[k]);
        const row = pool.standings[i]!;
        if (differs !== undefined) {
          expect(above[differs]!).toBeGreaterThan(below[differs]!);
          expect(row.tiebreaks.separatedBy).toBe(words[differs]);
          expect(row.place).toBe(i + 1);
        } else if (row.place === pool.standings[i - 1]!.place) expect(row.tiebreaks.shared).toBe(true);
        else expect(row.tiebreaks.separatedBy).toBe('matches won between the teams still level');
      }
      expect(pool.goingOn).toBeNull();
    }

    // The desk offers the playoff; it is drawn from the pools' standings.
    const desk = await (await send(app, director, 'GET', `/director/tournaments/${id}`)).text();
    expect(desk).toContain('Draw the playoff');
    const drawn = await answer(send(app, director, 'POST', `/director/tournaments/${id}/rounds/draw`, { json: { round: 4, confirm: 'yes' } }));
    expect(drawn.ok).toBe(true);
    const recorded = eventsOf(ledger, 'BracketRoundDrawn').filter((e) => e.tournamentId === id);
    expect(recorded).toHaveLength(1);
    // Pool winners first, then runners-up: the top 2 of each pool, as the standings ranked them.
    const seeds = recorded[0]!.playoff as string[];
    const top = pools.map((p) => p.standings.slice(0, 2).map((r) => r.teamId));
    expect(seeds.slice(0, 3).sort()).toEqual(top.map((t) => t[0]!).sort());
    expect(seeds.slice(3).sort()).toEqual(top.map((t) => t[1]!).sort());
    expect(model().latest[0]).toMatchObject({ kind: 'round-drawn', playoff: true });
    expect(await (await app.request(`/tournaments/${id}`)).text()).toContain('Playoff drawn');
    const after = (await answer(app.request(`/api/v1/tournaments/${id}`))).pools as Pool[];
    expect(after.map((p) => p.goingOn)).toEqual(top);
    // Teams not going on are out; pool mates do not meet in the playoff's first round.
    for (const team of model().teams) expect(team.status).toBe(seeds.includes(team.teamId) ? 'alive' : 'out');
    const playoff = () => model().matches.filter((m) => m.side !== 'pool');
    const firstRound = playoff().filter((m) => m.round === 1 && m.status === 'ready');
    expect(firstRound).toHaveLength(2);
    for (const m of firstRound) expect(poolOf(m.teams[0]!)).not.toBe(poolOf(m.teams[1]!));
    expect(firstRound[0]!.label).toBe('Playoff round 1');
    const again = await answer(send(app, director, 'POST', `/director/tournaments/${id}/rounds/draw`, { json: { round: 5, confirm: 'yes' } }), 409);
    expect(again.error).toBe(`tournament ${id}: the playoff is drawn; there is no round after it`);

    // The playoff on paper: the better seed wins every match but the final.
    const lostIn = new Map<string, number>();
    let final: MatchModel | undefined;
    for (let guard = 0; guard < 10; guard++) {
      const ready = playoff().filter((m) => m.status === 'ready');
      if (ready.length === 0) break;
      for (const match of ready) {
        const [a, b] = match.teams as [string, string];
        const better = seeds.indexOf(a) < seeds.indexOf(b) ? a : b;
        const winner = match.side === 'final' ? (better === a ? b : a) : better;
        await importWin(app, fixture.clients.judge, id, match, winner, 'blp-r1', `playoff-${n++}`);
        lostIn.set(winner === a ? b : a, match.side === 'final' ? 99 : match.round);
        if (match.side === 'final') final = match;
      }
    }
    expect(model().status).toBe('finished');
    expect(final).toBeDefined();

    // Placings counted here: the final's winner and loser, then the playoff's losers by the
    // round they went out in (latest first, sharing), then the rest by their pool place.
    const expected: [string, number][] = [];
    const finalLoser = [...lostIn].find(([, r]) => r === 99)![0];
    const champion = seeds.find((t) => !lostIn.has(t))!;
    expected.push([champion, 1], [finalLoser, 2]);
    let taken = 2;
    for (const round of [...new Set([...lostIn.values()].filter((r) => r !== 99))].sort((x, y) => y - x)) {
      const out = [...lostIn].filter(([, r]) => r === round).map(([t]) => t);
      for (const t of out) expected.push([t, taken + 1]);
      taken += out.length;
    }
    const rest = after.flatMap((p) => p.standings.filter((r) => !seeds.includes(r.teamId)));
    for (const place of [...new Set(rest.map((r) => r.place))].sort((x, y) => x - y)) {
      const these = rest.filter((r) => r.place === place);
      for (const r of these) expected.push([r.teamId, taken + 1]);
      taken += these.length;
    }
    const sortPairs = (pairs: [string, number][]) => [...pairs].sort((x, y) => x[1] - y[1] || x[0].localeCompare(y[0]));
    expect(sortPairs(model().placings.map((p) => [p.teamId, p.place]))).toEqual(sortPairs(expected));
    expect(model().teams.find((t) => t.status === 'champion')!.teamId).toBe(champion);
    const standings = (await answer(app.request(`/api/v1/tournaments/${id}`))).standings as { teamId: string; place: number }[];
    expect(standings.map((r) => r.place)).toEqual([...standings.map((r) => r.place)].sort((x, y) => x - y));
    // Every page and resource of the event answers, the room's and the director's alike.
    const links = resource.links as Record<string, string>;
    for (const path of [links.page, links.standings, links.bracket, links.screen, links.standingsCsv, links.embedBracket, links.embedStandings, links.matches])
      expect((await app.request(path!)).status, path).toBe(200);
    expect((await app.request(`/tournaments/${id}/teams/${champion}`)).status).toBe(200);
    expect((await send(app, director, 'GET', `/director/tournaments/${id}`)).status).toBe(200);
    const bracketPage = await (await app.request(links.bracket!)).text();
    expect(bracketPage).toContain('Playoff');
    expect(bracketPage).not.toContain('Pool A, round 1');
    expectRebuildEqualsLive(ledger);
  });

  it('refuses, in words, fewer than 3 teams a pool, more advancing than a pool holds, and a playoff that is neither', async () => {
    const { app, ledger } = copyOf(fixture);
    const director = fixture.clients.director;
    // The create form offers the structure and its three choices in words.
    const form = await (await send(app, director, 'GET', '/director')).text();
    for (const words of ['Pools into a playoff', 'Number of pools', 'Teams going on from each pool', 'Double elimination']) expect(form).toContain(words);
    // The rules sheet the form previews follows the pools typed, and says what is wrong with them.
    const preview = (fields: Record<string, string>) =>
      send(app, director, 'POST', '/director/rules-preview', { form: { format: 'pools', rules: 'blp-r1', ...fields } }).then((r) => r.text());
    const typed = await preview({ pools: '4', advance: '1', playoff: 'double' });
    expect(typed).toContain('spread over 4 pools by seed');
    expect(typed).toContain('The top team of each pool goes on to a double elimination (out after two losses) playoff');
    expect(await preview({ pools: '1' })).toContain('the number of pools must be a whole number from 2 to 16, not 1');
    const create = (tournamentId: string, options: Record<string, unknown>) =>
      answer(
        send(app, director, 'POST', '/director/tournaments', { json: { tournamentId, name: 'Pools', format: 'pools', rules: 'blp-r1', ...options } }),
        400,
      );
    expect((await create('p1', { pools: 1 })).error).toBe('tournament p1: the number of pools must be a whole number from 2 to 16, not 1');
    expect((await create('p2', { pools: 2, advance: 0 })).error).toBe(
      'tournament p2: the teams advancing from each pool must be a whole number from 1 to 16, not 0',
    );
    expect((await create('p3', { playoff: 'triple' })).error).toBe("tournament p3: the playoff is single or double elimination, not 'triple'");
    expect((await create('p4', { pools: 4, teams: 10 })).error).toBe('tournament p4: 10 teams in 4 pools make fewer than 3 teams a pool; choose fewer pools');
    expect((await create('p5', { pools: 2, advance: 4, teams: 7 })).error).toBe(
      'tournament p5: 4 teams advancing from each pool is more than a pool of 3 holds (7 teams in 2 pools)',
    );
    for (const p of ['p1', 'p2', 'p3', 'p4', 'p5']) expect(ledger.models.tournaments[p]).toBeUndefined();

    // At the start, with the teams there: too few for the pools, or for the advancing.
    await answer(send(app, director, 'POST', '/director/tournaments', { json: { tournamentId: 'few', name: 'Few', format: 'pools', pools: 3 } }));
    for (const teamId of teamIds(8)) {
      const n = teamId.slice(1);
      await answer(
        send(app, director, 'POST', '/director/tournaments/few/teams', { json: { teamId, name: `Team ${n}`, player1: `P${n}a`, player2: `P${n}b` } }),
      );
      await answer(send(app, director, 'POST', '/director/tournaments/few/check-in', { json: { teamId } }));
    }
    const refused = await answer(send(app, director, 'POST', '/director/tournaments/few/start', { json: { order: teamIds(8) } }), 400);
    expect(refused.error).toBe('tournament few: 8 teams in 3 pools make fewer than 3 teams a pool; choose fewer pools or register more teams');
    expect(ledger.models.tournaments.few!.model.status).toBe('registration');
  });

  it('states a tie at the top of a pool, forfeits a disqualified team’s pool matches, follows a corrected pool result, and places everyone', async () => {
    const { app, ledger } = copyOf(fixture);
    const id = 'pool-rulings';
    const director = fixture.clients.director;
    // 6 teams, 2 pools of 3 (A: t1 t4 t5, B: t2 t3 t6), each pool's winner going on to a final.
    await createAndStart(app, id, { pools: 2, advance: 1, playoff: 'single' }, 6);
    const model = () => ledger.models.tournaments[id]!.model;
    const pool = (letter: string) => model().matches.filter((m) => m.side === 'pool' && m.matchId.startsWith(`${letter}-`) && m.status === 'ready');
    // Pool A: t1 beats t4, t4 beats t5, t5 beats t1, each by the same record: level on every tiebreak.
    const beats: Record<string, string> = { t1: 't4', t4: 't5', t5: 't1' };
    for (const match of pool('A')) {
      const [a, b] = match.teams as [string, string];
      await importWin(app, fixture.clients.judge, id, match, beats[a] === b ? a : b, 'blp-r1', 'same');
    }
    // Pool B: t6 is disqualified before it plays; t2 beats t3 on paper, and a judge corrects it to t3.
    ledger.execute(disqualifyTeam(ledger.models, { tournamentId: id, teamId: 't6', reason: 'left the venue' }));
    expect(
      model()
        .matches.filter((m) => m.side === 'pool' && m.teams.includes('t6') && m.teams[1] !== null)
        .map((m) => m.status),
    ).toEqual(['forfeit', 'forfeit']);
    const [b] = pool('B');
    expect(b!.teams.slice().sort()).toEqual(['t2', 't3']);
    await importWin(app, fixture.clients.judge, id, b!, 't2', 'blp-r1', 'b');
    const game = model().matches.find((m) => m.matchId === b!.matchId)!.games[0]!;
    ledger.execute(correctGameResult(ledger.models, { tournamentId: id, gameId: game, winner: 't3', reason: 'tricks miscounted', judge: 'Judge Ray' }));

    const pools = (await answer(app.request(`/api/v1/tournaments/${id}`))).pools as (Pool & { tiedAtTop: string[] })[];
    expect(pools[0]!.standings.map((r) => [r.teamId, r.place, r.tiebreaks.shared, r.tiebreaks.headToHead])).toEqual([
      ['t1', 1, true, 1],
      ['t4', 1, true, 1],
      ['t5', 1, true, 1],
    ]);
    expect(pools[0]!.tiedAtTop).toEqual(['t1', 't4', 't5']);
    // t3 won on the correction, and a match by forfeit; t2 one by forfeit; t6 none.
    expect(pools[1]!.standings.map((r) => [r.teamId, r.place, r.tiebreaks.matchWins])).toEqual([
      ['t3', 1, 2],
      ['t2', 2, 1],
      ['t6', 3, 0],
    ]);
    expect(pools[1]!.tiedAtTop).toEqual([]);
    const page = await (await app.request(`/tournaments/${id}/leaderboard`)).text();
    expect(page).toContain('Tied for 1st in Pool A: Team 1, Team 4 and Team 5.');
    // Pool play's rounds under the tables name each pairing's pool, forfeits included.
    expect(page.match(/<span class="pairing-pool">Pool A<\/span>/g)).toHaveLength(3);
    expect(page.match(/<span class="pairing-pool">Pool B<\/span>/g)).toHaveLength(3);

    // Level on everything, Pool A's teams go on in seed order: t1 meets t3 in the final.
    await answer(send(app, director, 'POST', `/director/tournaments/${id}/rounds/draw`, { json: { round: 4, confirm: 'yes' } }));
    const final = model().matches.find((m) => m.side === 'final')!;
    expect(final.teams).toEqual(['t1', 't3']);
    expect(final.label).toBe('Final');
    await importWin(app, fixture.clients.judge, id, final, 't3', 'blp-r1', 'final');
    expect(model().status).toBe('finished');
    // The final's two, then Pool A's others sharing their pool place (1st), then Pool B's by theirs.
    expect(model().placings.map((p) => [p.teamId, p.place])).toEqual([
      ['t3', 1],
      ['t1', 2],
      ['t4', 3],
      ['t5', 3],
      ['t2', 5],
      ['t6', 6],
    ]);
    const standings = (await answer(app.request(`/api/v1/tournaments/${id}`))).standings as { teamId: string; placeLabel: string }[];
    expect(standings.find((r) => r.teamId === 't6')!.placeLabel).toBe('Disqualified');
    // The recorded playoff is what the draw makes at that point of the ledger; one seeded otherwise is not.
    const models = emptyModels();
    let checked: (string | null)[] = [];
    for (const row of ledger.store.readAll({})) {
      const payload = row.payload as Record<string, unknown>;
      if (row.type === 'BracketRoundDrawn' && payload.tournamentId === id) {
        const forged = { ...payload, playoff: [...(payload.playoff as string[])].reverse() };
        checked = [
          replayProblem(models, { stream: row.stream, type: row.type, payload }),
          replayProblem(models, { stream: row.stream, type: row.type, payload: forged }),
        ];
      }
      applyEvent(models, projected(row));
    }
    expect(checked[0]).toBeNull();
    expect(checked[1]).toBe('BracketRoundDrawn records playoff ["t3","t1"], but at this point of the ledger it would be ["t1","t3"]');
    expectRebuildEqualsLive(ledger);
  });
});

/**
 * A second-chance bracket on single elimination (`consolation: 'first-round'`): the first round's
 * losers play their own single elimination for places of their own, while the main bracket plays
 * on as before; over many field sizes in the engine, and one event through the routes and paper
 * records.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildBracket, consolationPlacings, isFinished, matchViews, placings, recordResult, startBracket } from '../engine/bracket.ts';
import { createRandom } from '../engine/random.ts';
import { importWin } from './paper-records.ts';
import { type Fixture, copyOf, makeFixture, send } from './routes-fixture.ts';
import { expectRebuildEqualsLive } from './tournament-ledger.ts';

const teamsOf = (n: number): string[] => Array.from({ length: n }, (_, i) => `T${i + 1}`);

describe('a second-chance bracket in the engine', () => {
  it('takes exactly the first round’s losers, places them apart, and leaves the main bracket’s placings whole', () => {
    for (let seed = 0; seed < 40; seed++) {
      const random = createRandom(`second-${seed}`);
      const n = 4 + random.int(29);
      let state = startBracket(buildBracket(teamsOf(n), { format: 'single', consolation: true }));
      const firstRoundLosers = new Set<string>();
      for (let guard = 0; !isFinished(state); guard++) {
        expect(guard).toBeLessThan(200);
        const ready = matchViews(state).find((v) => v.status === 'ready')!;
        // Only first-round losers ever play in the second chance.
        if (ready.side === 'consolation') for (const team of ready.teams) expect(firstRoundLosers.has(team!)).toBe(true);
        state = recordResult(state, ready.id, ready.teams[random.int(2)]!);
        const decided = matchViews(state).find((v) => v.id === ready.id)!;
        if (ready.side === 'winners' && ready.round === 1) firstRoundLosers.add(decided.loser!);
      }
      const main = placings(state);
      // Every team has a place in the main event; its champion and runner-up are the final's.
      expect(main.flatMap((p) => p.teams).sort()).toEqual(teamsOf(n).sort());
      const second = consolationPlacings(state);
      expect(second.flatMap((p) => p.teams).sort()).toEqual([...firstRoundLosers].sort());
      if (firstRoundLosers.size >= 2) {
        expect(second[0]!.teams).toHaveLength(1);
        // The second-chance champion never lost in it.
        const lostThere = matchViews(state)
          .filter((v) => v.side === 'consolation')
          .map((v) => v.loser);
        expect(lostThere).not.toContain(second[0]!.teams[0]);
      }
    }
  });

  it('is refused on any structure but single elimination, and with fewer than 4 teams', () => {
    expect(() => buildBracket(teamsOf(8), { format: 'double', consolation: true })).toThrow(/option of single elimination, not 'double'/);
    expect(() => buildBracket(teamsOf(3), { format: 'single', consolation: true })).toThrow(/at least 4 teams/);
  });
});

let fixture: Fixture;
beforeAll(async () => {
  fixture = await makeFixture();
}, 60_000);
afterAll(() => fixture.close());

describe('a second-chance bracket through the routes', () => {
  it('plays the first round’s losers for their own places and gives them in the read API', async () => {
    const { app, ledger } = copyOf(fixture);
    const director = fixture.clients.director;
    const id = 'second';
    const created = await send(app, director, 'POST', '/director/tournaments', {
      json: { tournamentId: id, name: 'Second chance', format: 'single-elimination', rules: 'blp-r1', consolation: 'first-round' },
    });
    expect(created.status, await created.clone().text()).toBe(200);
    for (let i = 1; i <= 8; i++) {
      const res = await send(app, director, 'POST', `/director/tournaments/${id}/teams`, {
        json: { teamId: `t${i}`, name: `Team ${i}`, player1: `P${i}a`, player2: `P${i}b` },
      });
      expect(res.status).toBe(200);
    }
    expect(
      (await send(app, director, 'POST', `/director/tournaments/${id}/start`, { json: { order: ['t1', 't2', 't3', 't4', 't5', 't6', 't7', 't8'] } })).status,
    ).toBe(200);
    const model = () => ledger.models.tournaments[id]!.model;
    expect(
      model()
        .matches.filter((m) => m.side === 'consolation')
        .map((m) => m.label),
    ).toEqual(['Second chance round 1', 'Second chance round 1', 'Second chance round 2']);
    // The better seed (first named) always wins.
    for (let guard = 0; model().status !== 'finished'; guard++) {
      expect(guard).toBeLessThan(20);
      const match = model().matches.find((m) => m.status === 'ready')!;
      await importWin(app, fixture.clients.judge, id, match, match.teams[0]!, 'blp-r1', match.matchId);
    }
    // Counted here: round 1 is 1 v 8, 4 v 5, 2 v 7, 3 v 6; its losers 8, 5, 7, 6 meet 8 v 5 and 7 v 6, then 8 v 7.
    const resource = (await (await app.request(`/api/v1/tournaments/${id}`)).json()) as { secondChance: { place: number; teamId: string }[] };
    expect(resource.secondChance).toEqual([
      { place: 1, teamId: 't8' },
      { place: 2, teamId: 't7' },
      { place: 3, teamId: 't5' },
      { place: 3, teamId: 't6' },
    ]);
    expect(model().placings.slice(0, 2)).toEqual([
      { place: 1, teamId: 't1' },
      { place: 2, teamId: 't2' },
    ]);
    // First-round losers share the main bracket's last place.
    expect(
      model()
        .placings.filter((p) => p.place === 5)
        .map((p) => p.teamId)
        .sort(),
    ).toEqual(['t5', 't6', 't7', 't8']);
    const refused = await send(app, director, 'POST', '/director/tournaments', {
      json: { tournamentId: 'nope', name: 'Nope', format: 'double-elimination', consolation: 'first-round' },
    });
    expect(refused.status).toBe(400);
    expect(((await refused.json()) as { error: string }).error).toBe(
      'tournament nope: a second-chance bracket for the first round’s losers is an option of single elimination',
    );
    expectRebuildEqualsLive(ledger);
  });
});

/**
 * A Swiss event played to its end as a director, a judge and the room see it: created, filled
 * and started through the director's routes, each round drawn at the desk once the last is over,
 * every game entered on paper into its match, and the pairings, standings and placings read back
 * and checked against counts made here from the games themselves.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRandom } from '../engine/random.ts';
import { answer, type Fixture, copyOf, makeFixture, send } from './routes-fixture.ts';
import { importWin } from './paper-records.ts';
import { eventsOf, expectRebuildEqualsLive } from './tournament-ledger.ts';

let fixture: Fixture;
beforeAll(async () => {
  fixture = await makeFixture();
}, 60_000);
afterAll(() => fixture.close());

interface Row {
  teamId: string;
  place: number | null;
  tiebreaks: { shared: boolean; separatedBy: string | null; matchWins: number; pointsDifference: number; opponentsWinShare: number | null } | null;
}

const pair = (a: string, b: string) => [a, b].sort().join(' ');

describe('a Swiss event through the HTTP routes and paper records', () => {
  it('pairs by match wins without rematches, gives the bye once each, and ranks by wins, opponents’ wins, then points', async () => {
    const { app, ledger } = copyOf(fixture);
    const id = 'swiss';
    const director = fixture.clients.director;
    const teams = 7;
    const rounds = 4;
    await answer(
      send(app, director, 'POST', '/director/tournaments', { json: { tournamentId: id, name: 'Swiss night', format: 'swiss', rules: 'blp-r1', rounds } }),
    );
    for (let i = 1; i <= teams; i++) {
      await answer(
        send(app, director, 'POST', `/director/tournaments/${id}/teams`, {
          json: { teamId: `t${i}`, name: `Team ${i}`, player1: `P${i}a`, player2: `P${i}b` },
        }),
      );
    }
    const started = await answer(
      send(app, director, 'POST', `/director/tournaments/${id}/start`, { json: { order: ['t1', 't2', 't3', 't4', 't5', 't6', 't7'] } }),
    );
    expect(started.done).toBe('Seeded in the order given and paired round 1.');
    const model = () => ledger.models.tournaments[id]!.model;
    // Round 1 at the start: top half v bottom half, the last seed on the bye.
    expect(model().matches.map((m) => [m.matchId, m.teams])).toEqual([
      ['R1-1', ['t1', 't4']],
      ['R1-2', ['t2', 't5']],
      ['R1-3', ['t3', 't6']],
      ['R1-4', ['t7', null]],
    ]);

    const random = createRandom('swiss-results');
    const wins = new Map<string, number>([['t7', 1]]);
    const met = new Set<string>();
    const byes = ['t7'];
    let n = 0;
    for (let round = 1; round <= rounds; round++) {
      if (round > 1) {
        // Too early: the round is refused while a match is open; then drawn.
        // The last round is drawn without its number: the next one is meant.
        const json = round === rounds ? { confirm: 'yes' } : { round, confirm: 'yes' };
        const drawn = await answer(send(app, director, 'POST', `/director/tournaments/${id}/rounds/draw`, { json }));
        expect(drawn.done).toBe(`Drew round ${round}.`);
        const these = model().matches.filter((m) => m.round === round);
        for (const m of these) {
          if (m.teams[1] === null) {
            byes.push(m.teams[0]!);
            wins.set(m.teams[0]!, (wins.get(m.teams[0]!) ?? 0) + 1);
            continue;
          }
          const [a, b] = m.teams as [string, string];
          // No rematch, and within one match win (these counts are this test's own).
          expect(met.has(pair(a, b)), `${a} v ${b} again in round ${round}`).toBe(false);
          expect(Math.abs((wins.get(a) ?? 0) - (wins.get(b) ?? 0)), `${a} v ${b} in round ${round}`).toBeLessThanOrEqual(1);
        }
      }
      const ready = model().matches.filter((m) => m.round === round && m.status === 'ready');
      expect(ready).toHaveLength(3);
      for (const match of ready) {
        met.add(pair(match.teams[0]!, match.teams[1]!));
        const winner = match.teams[random.int(2)]!;
        await importWin(app, fixture.clients.judge, id, match, winner, 'blp-r1', `swiss-${n++}`);
        wins.set(winner, (wins.get(winner) ?? 0) + 1);
      }
      if (round < rounds) {
        expect(model().status).toBe('running');
        // The desk offers the next round, paired from the standings with no cards to draw.
        const desk = await (await send(app, director, 'GET', `/director/tournaments/${id}`)).text();
        expect(desk).toContain(`Pair round ${round + 1}`);
        expect(desk).not.toContain('The cards are drawn');
      }
    }
    expect(model().status).toBe('finished');
    // Each bye to a different team.
    expect(new Set(byes).size).toBe(rounds);
    const more = await answer(send(app, director, 'POST', `/director/tournaments/${id}/rounds/draw`, { json: { round: 5, confirm: 'yes' } }), 409);
    expect(more.error).toBe(`tournament ${id} is finished; there is no round to draw`);

    // Counted here: points difference from the folded games, opponents from the matches.
    const diff = new Map<string, number>();
    const opponents = new Map<string, string[]>();
    for (const match of model().matches) {
      if (match.teams[1] === null) continue;
      for (const [me, them] of [
        [match.teams[0]!, match.teams[1]!],
        [match.teams[1]!, match.teams[0]!],
      ])
        opponents.set(me, [...(opponents.get(me) ?? []), them]);
      for (const gameId of match.games) {
        const game = ledger.models.games[gameId]!;
        diff.set(game.teams.NS, (diff.get(game.teams.NS) ?? 0) + game.score.NS - game.score.EW);
        diff.set(game.teams.EW, (diff.get(game.teams.EW) ?? 0) + game.score.EW - game.score.NS);
      }
    }
    const share = (t: string) => (wins.get(t) ?? 0) / rounds;
    const oppShare = (t: string) =>
      Math.round(
        (1000 *
          opponents
            .get(t)!
            .map(share)
            .reduce((a, b) => a + b, 0)) /
          opponents.get(t)!.length,
      );

    const rows = (await answer(app.request(`/api/v1/tournaments/${id}`))).standings as Row[];
    expect(rows).toHaveLength(teams);
    for (const row of rows)
      expect(row.tiebreaks).toMatchObject({
        matchWins: wins.get(row.teamId) ?? 0,
        opponentsWinShare: oppShare(row.teamId),
        pointsDifference: diff.get(row.teamId) ?? 0,
      });
    const key = (t: string) => [wins.get(t) ?? 0, oppShare(t), diff.get(t) ?? 0];
    const words = ['matches won', 'the share of matches won by the teams played', 'points scored minus points conceded'];
    for (let i = 1; i < rows.length; i++) {
      const [above, below] = [key(rows[i - 1]!.teamId), key(rows[i]!.teamId)];
      const differs = [0, 1, 2].find((k) => above[k] !== below[k]);
      if (differs === undefined) expect(rows[i]!.place).toBe(rows[i - 1]!.place);
      else {
        expect(above[differs]!).toBeGreaterThan(below[differs]!);
        expect(rows[i]!.tiebreaks!.separatedBy).toBe(words[differs]);
      }
    }
    expect(model().placings.map((p) => [p.teamId, p.place])).toEqual(rows.map((r) => [r.teamId, r.place]));
    // The standings CSV carries the same table: each tiebreak's value and the one that placed a team.
    const [header, ...lines] = (await (await app.request(`/tournaments/${id}/standings.csv`)).text()).trim().split('\r\n');
    const columns = header!.split(',');
    const csv = lines.map((line) => Object.fromEntries(line.split(',').map((cell, i) => [columns[i]!, cell])));
    const ids = ['match-wins', 'opponents-match-wins', 'points-difference'];
    expect(csv.map((c) => c.team_id)).toEqual(rows.map((r) => r.teamId));
    for (const [i, c] of csv.entries()) {
      const t = c.team_id!;
      expect([c.rank, c.wins, c.points_difference, c.opponents_match_win_share]).toEqual([
        String(rows[i]!.place),
        String(wins.get(t) ?? 0),
        String(diff.get(t) ?? 0),
        (oppShare(t) / 1000).toFixed(3),
      ]);
      if (i > 0) {
        const differs = [0, 1, 2].find((k) => key(rows[i - 1]!.teamId)[k] !== key(t)[k]);
        expect([c.placed_by, c.place_shared]).toEqual(differs === undefined ? ['', 'yes'] : [ids[differs], 'no']);
      }
    }
    // Every later round is a recorded event, and folding the ledger again gives the same rounds.
    expect(
      eventsOf(ledger, 'BracketRoundDrawn')
        .filter((e) => e.tournamentId === id)
        .map((e) => e.round),
    ).toEqual([2, 3, 4]);
    expectRebuildEqualsLive(ledger);
  });

  it('refuses a round drawn before the last one is over, and more rounds than the teams allow', async () => {
    const { app, ledger } = copyOf(fixture);
    const director = fixture.clients.director;
    await answer(
      send(app, director, 'POST', '/director/tournaments', { json: { tournamentId: 'early', name: 'Early', format: 'swiss', rules: 'blp-r1', rounds: 4 } }),
    );
    for (let i = 1; i <= 4; i++)
      await answer(
        send(app, director, 'POST', '/director/tournaments/early/teams', {
          json: { teamId: `t${i}`, name: `Team ${i}`, player1: `P${i}a`, player2: `P${i}b` },
        }),
      );
    const tooMany = await answer(send(app, director, 'POST', '/director/tournaments/early/start', { json: { order: ['t1', 't2', 't3', 't4'] } }), 400);
    expect(tooMany.error).toBe('tournament early: a Swiss event of 4 teams plays at most 3 rounds, so that no two teams need meet twice; it is set to 4');
    await answer(
      send(app, director, 'POST', '/director/tournaments', { json: { tournamentId: 'early2', name: 'Early', format: 'swiss', rules: 'blp-r1', rounds: 2 } }),
    );
    for (let i = 1; i <= 4; i++)
      await answer(
        send(app, director, 'POST', '/director/tournaments/early2/teams', {
          json: { teamId: `t${i}`, name: `Team ${i}`, player1: `P${i}a`, player2: `P${i}b` },
        }),
      );
    await answer(send(app, director, 'POST', '/director/tournaments/early2/start', { json: { order: ['t1', 't2', 't3', 't4'] } }));
    const early = await answer(send(app, director, 'POST', '/director/tournaments/early2/rounds/draw', { json: { round: 2, confirm: 'yes' } }), 409);
    expect(early.error).toMatch(/^tournament early2: round 1 is not over: /);
    const tooLong = await answer(
      send(app, director, 'POST', '/director/tournaments', { json: { tournamentId: 'long', name: 'Long', format: 'swiss', rounds: 21 } }),
      400,
    );
    expect(tooLong.error).toBe('tournament long: a Swiss event needs its number of rounds, 1 to 20, not 21');
    // Left out, a Swiss event plays 3 rounds.
    await answer(send(app, director, 'POST', '/director/tournaments', { json: { tournamentId: 'three', name: 'Three', format: 'swiss' } }));
    expect(ledger.models.tournaments.three!.format.rounds).toBe(3);
  });
});

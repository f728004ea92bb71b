import { describe, expect, it } from 'vitest';
import { isFinished, matchViews, recordResult, startBracket } from '../engine/bracket.ts';
import { type DecidedMatch, leagueTable, tiedAtTop } from '../engine/league-table.ts';
import { createRandom } from '../engine/random.ts';
import { ROUND_ROBIN_TIEBREAKS, roundRobinBracket, roundRobinRounds } from '../engine/round-robin.ts';
import { type MatchPlay, PLAYS } from '../engine/format-play.ts';

const teamsOf = (n: number): string[] => Array.from({ length: n }, (_, i) => `T${i + 1}`);
const key = (a: string, b: string) => (a < b ? `${a} ${b}` : `${b} ${a}`);

describe('round robin schedule', () => {
  it('pairs every two teams exactly once a cycle, over many team counts and seeds', () => {
    for (let seed = 0; seed < 60; seed++) {
      const random = createRandom(`rr-${seed}`);
      const n = 2 + random.int(15);
      const cycles = (1 + random.int(2)) as 1 | 2;
      // A random seeding, so the property is not one of the seed order.
      const seeds = teamsOf(n).sort(() => random.float() - 0.5);
      const rounds = roundRobinRounds(seeds, cycles);
      const perCycle = n % 2 === 0 ? n - 1 : n;
      expect(rounds).toHaveLength(perCycle * cycles);
      for (let c = 0; c < cycles; c++) {
        const met = new Map<string, number>();
        const byes = new Map<string, number>();
        for (const round of rounds.slice(c * perCycle, (c + 1) * perCycle)) {
          const inRound = round.flatMap(([a, b]) => (b === null ? [a] : [a, b]));
          // Everyone is in every round once: playing or on the bye.
          expect(new Set(inRound).size).toBe(n);
          expect(inRound).toHaveLength(n);
          for (const [a, b] of round) {
            if (b === null) byes.set(a, (byes.get(a) ?? 0) + 1);
            else met.set(key(a, b), (met.get(key(a, b)) ?? 0) + 1);
          }
        }
        expect(met.size).toBe((n * (n - 1)) / 2);
        expect([...met.values()].every((count) => count === 1)).toBe(true);
        // Byes rotate: with an odd count each team sits out exactly once a cycle.
        if (n % 2 === 1) expect([...byes.values()].sort()).toEqual(Array(n).fill(1));
        else expect(byes.size).toBe(0);
      }
    }
  });

  it('plays the second cycle with the sides swapped', () => {
    const rounds = roundRobinRounds(teamsOf(4), 2);
    expect(rounds[3]).toEqual(rounds[0]!.map(([a, b]) => [b, a]));
  });

  it('opens with the top seed against the last', () => {
    expect(roundRobinRounds(teamsOf(6))[0]).toContainEqual(['T1', 'T6']);
  });

  it('refuses a third cycle', () => {
    expect(() => roundRobinRounds(teamsOf(4), 3 as 2)).toThrow(/once or twice, not 3/);
  });

  it('is over once every match is decided, and nobody is out along the way', () => {
    const rr = PLAYS['round-robin'] as MatchPlay;
    let state = startBracket(roundRobinBracket(teamsOf(5)));
    const matches = state.bracket.matches;
    expect(matches.filter((m) => m.slots[1].kind === 'bye')).toHaveLength(5);
    for (const match of matches) {
      const views = matchViews(state);
      expect(rr.finished(state, {} as never, views)).toBe(!views.some((v) => v.status === 'ready'));
      if (match.slots[1].kind === 'bye') continue;
      const a = (match.slots[0] as { team: string }).team;
      state = recordResult(state, match.id, a);
      expect(rr.lossPutsOut(match, state.bracket, 99)).toBe(false);
    }
    expect(rr.finished(state, {} as never, matchViews(state))).toBe(true);
    expect(isFinished(state)).toBe(true);
  });
});

describe('round robin standings', () => {
  const m = (a: string, b: string, winner: string, games: [number, number], points: [number, number]): DecidedMatch => ({
    teams: [a, b],
    winner,
    games,
    points,
  });
  const table = (teams: string[], matches: DecidedMatch[]) => leagueTable(teams, matches, [], { tiebreaks: ROUND_ROBIN_TIEBREAKS, byeIsWin: false });

  it('ranks by match wins, then games won, then points difference, then head-to-head, and says which separated each', () => {
    // A, B, C each win 2; A and B 4 games each, C 3; A and B +100 each; A beat B.
    const matches = [
      m('A', 'B', 'A', [2, 1], [900, 800]),
      m('B', 'C', 'B', [2, 0], [700, 600]),
      m('C', 'A', 'C', [2, 1], [750, 650]),
      m('A', 'D', 'A', [1, 0], [500, 350]),
      m('B', 'D', 'B', [1, 0], [500, 300]),
      m('C', 'D', 'C', [1, 0], [500, 400]),
    ];
    const rows = table(['A', 'B', 'C', 'D'], matches);
    // Counted here: A games 2+1+1=4, points 900+650+500=2050 for, 800+750+350=1900 against: +150.
    // B games 1+2+1=4, points 800+700+500=2000 for, 900+600+300=1800 against: +200.
    // C games 0+2+1=3, points 600+750+500=1850 for, 700+650+400=1750 against: +100. D: 1050 for, 1500 against.
    expect(rows.map((r) => [r.teamId, r.place, r.wins, r.gamesWon, r.difference])).toEqual([
      ['B', 1, 2, 4, 200],
      ['A', 2, 2, 4, 150],
      ['C', 3, 2, 3, 100],
      ['D', 4, 0, 0, -450],
    ]);
    expect(rows.map((r) => r.separatedBy)).toEqual([null, 'points-difference', 'games-won', 'match-wins']);
    expect(tiedAtTop(rows)).toEqual([]);
  });

  it('uses head-to-head only among the teams still level, and states a tie at the top it cannot break', () => {
    // A and B level on wins, games and points; A beat B: A first by head-to-head.
    const rows = table(['A', 'B', 'C'], [m('A', 'B', 'A', [1, 0], [400, 300]), m('B', 'C', 'B', [1, 0], [400, 300]), m('C', 'A', 'C', [1, 0], [400, 300])]);
    // All three: 1 win, 1 game, +0, and head-to-head 1 each: level on everything, first place shared.
    expect(rows.every((r) => r.place === 1 && r.shared && r.headToHead === 1)).toBe(true);
    expect(tiedAtTop(rows)).toEqual(['A', 'B', 'C']);
    const two = table(['A', 'B', 'C', 'D'], [m('A', 'B', 'A', [1, 0], [400, 300]), m('B', 'C', 'B', [1, 0], [500, 300]), m('A', 'D', 'D', [0, 1], [300, 400])]);
    // A: 1 win, 1 game, 700-700; B: 1 win, 1 game, 800-700; D: 1 win, 1 game, 400-300. B and D
    // are ahead of A on points, and never met: level on head-to-head too, so they share first.
    expect(two.map((r) => [r.teamId, r.place, r.separatedBy])).toEqual([
      ['B', 1, null],
      ['D', 1, null],
      ['A', 3, 'points-difference'],
      ['C', 4, 'match-wins'],
    ]);
    expect(tiedAtTop(two)).toEqual(['B', 'D']);
    const h2h = table(['A', 'B'], [m('A', 'B', 'B', [0, 1], [300, 400]), m('B', 'A', 'A', [0, 1], [300, 400])]);
    // One win each, one game each, +0 each, head-to-head 1 each: shared.
    expect(h2h.every((r) => r.place === 1)).toBe(true);
    const broken = table(['A', 'B', 'C'], [m('A', 'B', 'A', [1, 0], [400, 300]), m('C', 'B', 'C', [1, 0], [400, 300])]);
    // A and C level on 1 win, 1 game, +100; they never met: head-to-head 0 each, shared first.
    expect(broken.slice(0, 2).map((r) => [r.teamId, r.place, r.headToHead])).toEqual([
      ['A', 1, 0],
      ['C', 1, 0],
    ]);
  });
});

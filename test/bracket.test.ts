import { describe, expect, it } from 'vitest';
import {
  type Bracket,
  type BracketOptions,
  type BracketState,
  type MatchView,
  buildBracket,
  correctResult,
  forfeitTeam,
  isFinished,
  matchViews,
  placings,
  playableMatches,
  recordResult,
  seedPositions,
  startBracket,
} from '../engine/bracket.ts';
import { createRandom } from '../engine/random.ts';

const teamsOf = (n: number): string[] => Array.from({ length: n }, (_, i) => `T${i + 1}`);
const view = (state: BracketState, id: string): MatchView => matchViews(state).find((v) => v.id === id)!;

interface Run {
  state: BracketState;
  played: number;
  losses: Map<string, number>;
  met: Set<string>;
}

/** Plays the bracket to the end with seeded random winners, checking every move on the way. */
function simulate(bracket: Bracket, seed: number): Run {
  const random = createRandom(seed);
  const byId = new Map(bracket.matches.map((m) => [m.id, m]));
  let state = startBracket(bracket);
  const losses = new Map(bracket.teams.map((t) => [t, 0]));
  const met = new Set<string>();
  let played = 0;
  for (;;) {
    const open = playableMatches(state);
    if (open.length === 0) break;
    const match = open[random.int(open.length)]!;
    const [a, b] = match.teams as [string, string];
    const winner = random.int(2) === 0 ? a : b;
    const loser = winner === a ? b : a;
    state = recordResult(state, match.id, winner);
    played++;
    losses.set(loser, losses.get(loser)! + 1);
    met.add(`${match.id}:${[a, b].sort().join('|')}`);

    // The winner and loser turn up exactly where the match says they go.
    const m = byId.get(match.id)!;
    if (m.winnerTo) {
      const next = view(state, m.winnerTo.match);
      if (next.status !== 'not-needed') expect(next.teams[m.winnerTo.slot]).toBe(winner);
    }
    if (m.loserTo) {
      const next = view(state, m.loserTo.match);
      if (next.status !== 'not-needed') expect(next.teams[m.loserTo.slot]).toBe(loser);
    }
  }
  return { state, played, losses, met };
}

function checkStructure(bracket: Bracket): void {
  const byId = new Map(bracket.matches.map((m) => [m.id, m]));
  const index = new Map(bracket.matches.map((m, i) => [m.id, i]));
  for (const [i, m] of bracket.matches.entries()) {
    const byes = m.slots.filter((s) => s.kind === 'bye').length;
    // No bye meets a bye, and only a first-round winners-bracket match holds one.
    expect(byes).toBeLessThan(2);
    if (byes > 0) expect(m.side === 'winners' && m.round === 1).toBe(true);
    m.slots.forEach((slot, s) => {
      if (slot.kind !== 'winner' && slot.kind !== 'loser') return;
      const from = byId.get(slot.match)!;
      expect(index.get(from.id)!).toBeLessThan(i);
      expect(slot.kind === 'winner' ? from.winnerTo : from.loserTo).toEqual({ match: m.id, slot: s });
    });
    for (const [route, kind] of [
      [m.winnerTo, 'winner'],
      [m.loserTo, 'loser'],
    ] as const) {
      if (route) expect(byId.get(route.match)!.slots[route.slot]).toEqual({ kind, match: m.id });
    }
  }
  // Every seed is placed once; a bye only where the count runs short of the power of two.
  const seeds = bracket.matches.flatMap((m) => m.slots.filter((s) => s.kind === 'team').map((s) => (s as { team: string }).team));
  expect(seeds.sort()).toEqual([...bracket.teams].sort());
}

describe('seed placement', () => {
  it('puts 1 v 16, 8 v 9 and so on, the top two seeds in opposite halves', () => {
    expect(seedPositions(8)).toEqual([1, 8, 4, 5, 2, 7, 3, 6]);
    expect(seedPositions(16)).toEqual([1, 16, 8, 9, 4, 13, 5, 12, 2, 15, 7, 10, 3, 14, 6, 11]);
  });

  it('gives the byes to the top seeds', () => {
    const bracket = buildBracket(teamsOf(5), { format: 'single' });
    const byeTeams = bracket.matches
      .filter((m) => m.slots.some((s) => s.kind === 'bye'))
      .map((m) => m.slots.find((s) => s.kind === 'team')!)
      .map((s) => (s as { team: string }).team);
    expect(byeTeams.sort()).toEqual(['T1', 'T2', 'T3']);
    expect(bracket.matches.find((m) => m.id === 'W1-2')!.slots).toEqual([
      { kind: 'team', team: 'T4', seed: 4 },
      { kind: 'team', team: 'T5', seed: 5 },
    ]);
  });
});

describe('single elimination, 2 to 64 teams', () => {
  for (let n = 2; n <= 64; n++) {
    it(`${n} teams: n - 1 matches, everyone but the champion loses once`, () => {
      const bracket = buildBracket(teamsOf(n), { format: 'single' });
      checkStructure(bracket);
      const { state, played, losses } = simulate(bracket, n);
      expect(isFinished(state)).toBe(true);
      expect(played).toBe(n - 1);
      const places = placings(state);
      const champion = places[0]!.teams[0]!;
      for (const [team, lost] of losses) expect(lost).toBe(team === champion ? 0 : 1);
      expect(places.flatMap((p) => p.teams).sort()).toEqual([...bracket.teams].sort());
      expect(places[1]!.teams).toEqual([view(state, 'F').loser]);
      // Winner routing: round r winners go to round r + 1, match ⌈i/2⌉.
      for (const m of bracket.matches.filter((x) => x.side === 'winners')) {
        const i = Number(m.id.split('-')[1]);
        const to = m.winnerTo!;
        if (to.match !== 'F') expect(to).toEqual({ match: `W${m.round + 1}-${Math.ceil(i / 2)}`, slot: (i - 1) % 2 });
        expect(m.loserTo).toBeNull();
      }
    });
  }

  it('plays for 3rd place when asked', () => {
    const bracket = buildBracket(teamsOf(8), { format: 'single', thirdPlace: true });
    checkStructure(bracket);
    const { state, played } = simulate(bracket, 3);
    expect(played).toBe(8);
    const third = view(state, 'P3');
    expect(placings(state).slice(2, 4)).toEqual([
      { place: 3, teams: [third.winner] },
      { place: 4, teams: [third.loser] },
    ]);
  });
});

describe('double elimination, 2 to 64 teams', () => {
  for (const reset of [false, true]) {
    for (let n = 2; n <= 64; n++) {
      it(`${n} teams, ${reset ? 'with' : 'without'} a reset`, () => {
        const bracket = buildBracket(teamsOf(n), { format: 'double', reset });
        checkStructure(bracket);
        const rounds = Math.ceil(Math.log2(n));
        const byId = new Map(bracket.matches.map((m) => [m.id, m]));

        // Losers of winners round r drop into losers round 2(r − 1) (round 1 for r = 1), or
        // a later one when byes emptied that match; the winners-bracket final loser meets the
        // losers-bracket finalist (or, with two teams, goes straight to the grand final).
        for (const m of bracket.matches.filter((x) => x.side === 'winners')) {
          if (m.slots.some((s) => s.kind === 'bye')) {
            expect(m.loserTo).toBeNull();
            continue;
          }
          const to = byId.get(m.loserTo!.match)!;
          if (n === 2) expect(to.id).toBe('GF');
          else {
            expect(to.side).toBe('losers');
            const expected = m.round === 1 ? 1 : 2 * (m.round - 1);
            if ((n & (n - 1)) === 0) expect(to.round).toBe(expected);
            else expect(to.round).toBeGreaterThanOrEqual(expected);
          }
          if (m.round === rounds && n > 2) expect(to.id).toBe(`L${2 * (rounds - 1)}-1`);
        }
        for (const m of bracket.matches.filter((x) => x.side === 'losers')) expect(m.loserTo).toBeNull();
        expect(byId.get('GF')!.winnerTo).toEqual(reset ? { match: 'GF2', slot: 0 } : null);

        const { state, played, losses, met } = simulate(bracket, 1000 + n);
        expect(isFinished(state)).toBe(true);
        const gf = view(state, 'GF');
        const replay = reset ? view(state, 'GF2') : null;
        const resetPlayed = replay !== null && replay.status === 'played';
        expect(played).toBe(2 * n - 2 + (resetPlayed ? 1 : 0));

        const places = placings(state);
        const champion = places[0]!.teams[0]!;
        const runnerUp = places[1]!.teams[0]!;
        const unbeaten = gf.teams[0]!;
        for (const [team, lost] of losses) {
          if (team !== champion && team !== runnerUp) expect(lost, team).toBe(2);
        }
        if (reset) {
          // With a reset every team but the champion loses exactly twice. The champion has
          // one loss exactly when the reset was played (the unbeaten team lost the grand final,
          // whoever then won the reset), and none otherwise.
          expect(losses.get(runnerUp)).toBe(2);
          expect(resetPlayed).toBe(gf.winner !== unbeaten);
          expect(losses.get(champion)).toBe(resetPlayed ? 1 : 0);
        } else if (champion === unbeaten) {
          expect([losses.get(champion), losses.get(runnerUp)]).toEqual([0, 2]);
        } else {
          // No reset and the losers-bracket team wins: the unbeaten team goes out on its one loss.
          expect([losses.get(champion), losses.get(runnerUp)]).toEqual([1, 1]);
        }
        expect(places.flatMap((p) => p.teams).sort()).toEqual([...bracket.teams].sort());

        // The first drop-down is arranged so that no team meets again the team it just beat.
        if (n >= 5) {
          const firstRound = [...met].filter((k) => k.startsWith('W1-')).map((k) => k.split(':')[1]);
          const dropRound = [...met].filter((k) => k.startsWith('L2-')).map((k) => k.split(':')[1]);
          for (const pair of dropRound) expect(firstRound).not.toContain(pair);
        }
      });
    }
  }

  it('blp-2024: a final with no reset; the team from the losers bracket wins it outright', () => {
    const bracket = buildBracket(teamsOf(4), { format: 'double', reset: false });
    let state = startBracket(bracket);
    for (const [id, winner] of [
      ['W1-1', 'T1'],
      ['W1-2', 'T2'],
      ['W2-1', 'T1'],
      ['L1-1', 'T3'],
      ['L2-1', 'T2'],
      ['GF', 'T2'],
    ] as const) {
      state = recordResult(state, id, winner);
    }
    expect(bracket.matches.map((m) => m.id)).not.toContain('GF2');
    expect(isFinished(state)).toBe(true);
    expect(placings(state)).toEqual([
      { place: 1, teams: ['T2'] },
      { place: 2, teams: ['T1'] },
      { place: 3, teams: ['T3'] },
      { place: 4, teams: ['T4'] },
    ]);
  });

  it('with a reset, the grand final is replayed only when the unbeaten team loses it', () => {
    const bracket = buildBracket(teamsOf(2), { format: 'double', reset: true });
    let state = recordResult(startBracket(bracket), 'W1-1', 'T1');
    state = recordResult(state, 'GF', 'T1');
    expect(view(state, 'GF2').status).toBe('not-needed');
    expect(placings(state)[0]).toEqual({ place: 1, teams: ['T1'] });

    let other = recordResult(startBracket(bracket), 'W1-1', 'T1');
    other = recordResult(other, 'GF', 'T2');
    expect(playableMatches(other).map((v) => v.id)).toEqual(['GF2']);
    other = recordResult(other, 'GF2', 'T2');
    expect(placings(other)[0]).toEqual({ place: 1, teams: ['T2'] });
  });
});

describe('pitt-boss: only first-round losers get a second chance', () => {
  // "Teams eliminated during the first round will enter loser bracket and still have a chance
  // to win the third prize of $50.00. A second loss will eliminate you from tournament completely."
  const bracket = buildBracket(teamsOf(16), { format: 'first-round-losers' });

  it('routes first-round losers to the losers bracket and puts later losers out', () => {
    checkStructure(bracket);
    const byId = new Map(bracket.matches.map((m) => [m.id, m]));
    for (const m of bracket.matches) {
      if (m.side === 'winners' && m.round === 1) expect(byId.get(m.loserTo!.match)!.id).toBe(`L1-${Math.ceil(Number(m.id.split('-')[1]) / 2)}`);
      else expect(m.loserTo).toBeNull();
    }
    expect(bracket.matches.filter((m) => m.side === 'losers')).toHaveLength(7);
    expect(bracket.matches.filter((m) => m.side !== 'losers')).toHaveLength(15);
  });

  it('places 1st the winners-bracket champion, 2nd the final loser, 3rd the losers-bracket winner', () => {
    // The better seed wins every match, except that T16 (seeded last) beats everyone but T3,
    // and T3 beats T2 in the semi-final.
    let state = startBracket(bracket);
    const better = (v: MatchView): string => {
      const [a, b] = v.teams as [string, string];
      if (v.teams.includes('T16') && !v.teams.includes('T3')) return 'T16';
      if (v.teams.includes('T2') && v.teams.includes('T3')) return 'T3';
      return Number(a.slice(1)) < Number(b.slice(1)) ? a : b;
    };
    for (let open = playableMatches(state); open.length > 0; open = playableMatches(state)) {
      state = recordResult(state, open[0]!.id, better(open[0]!));
    }
    const losses = new Map<string, number>();
    for (const v of matchViews(state)) if (v.loser) losses.set(v.loser, (losses.get(v.loser) ?? 0) + 1);
    expect(losses.get('T9')).toBe(2); // lost to T8 in round 1, then to T1 in the losers bracket
    expect(losses.get('T8')).toBe(1); // lost to T16 in round 2: out after one loss
    expect(losses.get('T2')).toBe(1); // lost the semi-final to T3: out after one loss
    expect(losses.get('T1')).toBe(1); // upset in round 1, then won the losers bracket
    expect(view(state, 'F').teams).toEqual(['T16', 'T3']);
    expect(view(state, 'L3-1').teams).toEqual(['T1', 'T10']);
    expect(placings(state)).toEqual([
      { place: 1, teams: ['T3'] },
      { place: 2, teams: ['T16'] },
      { place: 3, teams: ['T1'] },
    ]);
    expect(matchViews(state).filter((v) => v.status === 'played')).toHaveLength(22);
  });

  it('every team loses at most twice and only first-round losers lose twice (random results)', () => {
    for (let seed = 0; seed < 20; seed++) {
      const { state, losses } = simulate(bracket, seed);
      const firstRoundLosers = new Set(
        matchViews(state)
          .filter((v) => v.side === 'winners' && v.round === 1)
          .map((v) => v.loser),
      );
      const [first, second, third] = placings(state);
      for (const [team, lost] of losses) {
        if (team === first!.teams[0]) expect(lost).toBe(0);
        else if (team === third!.teams[0]) expect(lost).toBe(1);
        else expect(lost).toBe(firstRoundLosers.has(team) ? 2 : 1);
      }
      expect(firstRoundLosers.has(second!.teams[0])).toBe(false);
      expect(firstRoundLosers.has(third!.teams[0])).toBe(true);
    }
  });
});

describe('results, forfeits and corrections', () => {
  it('refuses results for matches that cannot take one, saying why', () => {
    const state = startBracket(buildBracket(teamsOf(8), { format: 'single' }));
    expect(() => recordResult(state, 'W2-1', 'T1')).toThrow('match W2-1: cannot record a result, the match is still waiting for its teams');
    expect(() => recordResult(state, 'W1-1', 'T2')).toThrow("match W1-1: 'T2' is not playing in it (T1 v T8)");
    expect(() => recordResult(state, 'X9', 'T1')).toThrow("match 'X9' is not in this bracket");
    const once = recordResult(state, 'W1-1', 'T1');
    expect(() => recordResult(once, 'W1-1', 'T8')).toThrow("already played (won by 'T1')");
  });

  it('advances byes without a result', () => {
    const state = startBracket(buildBracket(teamsOf(6), { format: 'single' }));
    expect(view(state, 'W1-1')).toMatchObject({ status: 'bye', winner: 'T1', loser: null });
    expect(view(state, 'W2-1').teams).toEqual(['T1', null]);
  });

  it('a disqualified team forfeits its pending match and every later one, and the bracket moves on', () => {
    const bracket = buildBracket(teamsOf(8), { format: 'double' });
    let state = startBracket(bracket);
    for (const v of playableMatches(state)) state = recordResult(state, v.id, v.teams[0]!);
    // W2-1 is T1 v T4, pending. T4 is disqualified.
    expect(view(state, 'W2-1').teams).toEqual(['T1', 'T4']);
    state = forfeitTeam(state, 'T4');
    expect(view(state, 'W2-1')).toMatchObject({ status: 'forfeit', winner: 'T1', loser: 'T4' });
    expect(playableMatches(state).some((v) => v.teams.includes('T4'))).toBe(false);
    // It dropped into losers round 2 and forfeits there too as soon as its opponent is known.
    const drop = bracket.matches.find((m) => m.id === 'W2-1')!.loserTo!;
    expect(view(state, drop.match)).toMatchObject({ status: 'waiting' });
    const feeder = view(state, 'L1-2');
    state = recordResult(state, 'L1-2', feeder.teams[0]!);
    expect(view(state, drop.match)).toMatchObject({ status: 'forfeit', loser: 'T4', winner: feeder.teams[0] });
    expect(() => forfeitTeam(state, 'T4')).toThrow("forfeit: team 'T4' is already withdrawn");
    expect(() => forfeitTeam(state, 'T99')).toThrow("forfeit: team 'T99' is not in this bracket");

    // The rest plays out; T4 lost twice without playing again.
    for (let open = playableMatches(state); open.length > 0; open = playableMatches(state)) {
      state = recordResult(state, open[0]!.id, open[0]!.teams[1]!);
    }
    expect(isFinished(state)).toBe(true);
    expect(
      matchViews(state)
        .filter((v) => v.loser === 'T4')
        .map((v) => v.status),
    ).toEqual(['forfeit', 'forfeit']);
    expect(matchViews(state).filter((v) => v.winner === 'T4')).toHaveLength(1);
  });

  it('a team withdrawn while waiting for its opponent forfeits once the opponent is known', () => {
    let state = startBracket(buildBracket(teamsOf(4), { format: 'single' }));
    state = recordResult(state, 'W1-1', 'T1');
    state = forfeitTeam(state, 'T1');
    expect(view(state, 'F').status).toBe('waiting');
    state = recordResult(state, 'W1-2', 'T3');
    expect(view(state, 'F')).toMatchObject({ status: 'forfeit', winner: 'T3' });
    expect(placings(state).slice(0, 2)).toEqual([
      { place: 1, teams: ['T3'] },
      { place: 2, teams: ['T1'] },
    ]);
  });

  it('a correction of an early result reports the later played matches it touches', () => {
    const bracket = buildBracket(teamsOf(8), { format: 'double' });
    let state = startBracket(bracket);
    const play = (id: string, winner: string): void => {
      state = recordResult(state, id, winner);
    };
    play('W1-1', 'T1'); // T1 v T8
    play('W1-2', 'T4'); // T4 v T5
    play('W1-3', 'T2'); // T2 v T7
    play('W1-4', 'T3'); // T3 v T6
    play('W2-1', 'T1'); // T1 v T4
    play('L1-1', 'T8'); // T8 v T5
    play('L1-2', 'T7'); // T7 v T6
    // W1-1 was really won by T8.
    const { state: corrected, affected } = correctResult(state, 'W1-1', 'T8');
    expect(affected.sort()).toEqual(['L1-1', 'W2-1']);
    expect(view(corrected, 'W2-1')).toMatchObject({ status: 'under-review', teams: ['T8', 'T4'] });
    expect(view(corrected, 'L1-1')).toMatchObject({ status: 'under-review', teams: ['T1', 'T5'] });
    expect(view(corrected, 'L1-2').status).toBe('played');
    // The earlier results are kept, not erased.
    expect(corrected.results['W2-1']).toEqual({ winner: 'T1', loser: 'T4' });
    // A new result settles an affected match.
    const replayed = recordResult(corrected, 'W2-1', 'T4');
    expect(view(replayed, 'W2-1')).toMatchObject({ status: 'played', winner: 'T4' });
    expect(() => correctResult(state, 'W1-1', 'T1')).toThrow("match W1-1: 'T1' is already the recorded winner; nothing to correct");
    expect(() => correctResult(state, 'W3-1', 'T1')).toThrow('only a played match can be corrected');
  });

  it('reports matches further down that depended on an affected one', () => {
    let state = startBracket(buildBracket(teamsOf(8), { format: 'single' }));
    for (const [id, w] of [
      ['W1-1', 'T1'],
      ['W1-2', 'T4'],
      ['W1-3', 'T2'],
      ['W1-4', 'T3'],
      ['W2-1', 'T1'],
      ['W2-2', 'T2'],
      ['F', 'T1'],
    ] as const) {
      state = recordResult(state, id, w);
    }
    const { state: corrected, affected } = correctResult(state, 'W1-2', 'T5');
    expect(affected.sort()).toEqual(['F', 'W2-1']);
    expect(view(corrected, 'F').status).toBe('under-review');
    expect(() => placings(corrected)).toThrow('placings: the bracket is not finished; still open: W2-1 (under-review), F (under-review)');
  });
});

describe('building refuses what it cannot seed', () => {
  it.each([
    [[], { format: 'single' }, 'bracket: 0 teams; a bracket holds 2 to 64'],
    [teamsOf(65), { format: 'double' }, 'bracket: 65 teams; a bracket holds 2 to 64'],
    [['A', 'B', 'A'], { format: 'single' }, "bracket: team 'A' is seeded twice"],
    [teamsOf(4), { format: 'single', reset: true }, 'a reset match exists only in double elimination'],
    [teamsOf(2), { format: 'first-round-losers' }, 'first-round-losers needs at least 3 teams'],
  ] as [string[], BracketOptions, string][])('%j %j', (teams, options, message) => {
    expect(() => buildBracket(teams, options)).toThrow(message);
  });
});

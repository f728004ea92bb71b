import { describe, expect, it } from 'vitest';
import { type BracketState, matchViews, recordResult, startBracket } from '../engine/bracket.ts';
import { appendRound } from '../engine/bracket-rounds.ts';
import { type DecidedMatch, leagueTable } from '../engine/league-table.ts';
import { createRandom } from '../engine/random.ts';
import { type MatchPlay, PLAYS } from '../engine/format-play.ts';
import { SWISS_TIEBREAKS, pairKey, pairSwiss, swissFirstBracket } from '../engine/swiss.ts';

const teamsOf = (n: number): string[] => Array.from({ length: n }, (_, i) => `T${i + 1}`);
const swiss = PLAYS.swiss as MatchPlay;

/** Whether the teams can all be paired with every pair allowed (a plain search, independent of the engine's). */
function canPair(teams: string[], allowed: (a: string, b: string) => boolean): boolean {
  if (teams.length === 0) return true;
  const [first, ...rest] = teams;
  return rest.some((partner, i) => allowed(first!, partner) && canPair([...rest.slice(0, i), ...rest.slice(i + 1)], allowed));
}

/** The standings of a Swiss bracket from its views, each match won 1–0 with random points. */
function standingsOf(state: BracketState, points: Map<string, [number, number]>) {
  const decided: DecidedMatch[] = [];
  const byes: string[] = [];
  for (const v of matchViews(state)) {
    if (v.status === 'bye') byes.push(v.winner!);
    if (v.status === 'played')
      decided.push({ teams: [v.teams[0]!, v.teams[1]!], winner: v.winner!, games: v.winner === v.teams[0] ? [1, 0] : [0, 1], points: points.get(v.id)! });
  }
  return leagueTable(state.bracket.teams, decided, byes, { tiebreaks: SWISS_TIEBREAKS, byeIsWin: true });
}

describe('Swiss pairing', () => {
  it('round 1 pairs the top half against the bottom half, the last seed on the bye', () => {
    const bracket = swissFirstBracket(teamsOf(7));
    expect(bracket.matches.map((m) => m.slots.map((s) => (s.kind === 'team' ? s.team : 'bye')))).toEqual([
      ['T1', 'T4'],
      ['T2', 'T5'],
      ['T3', 'T6'],
      ['T7', 'bye'],
    ]);
  });

  it('over many seeds: no rematch while another pairing exists, every pair within a score group or one step, the bye to the lowest-ranked team without one', () => {
    let checkedGaps = 0;
    for (let seed = 0; seed < 80; seed++) {
      const random = createRandom(`swiss-${seed}`);
      const n = 3 + random.int(14);
      const rounds = Math.min(n - 1, 2 + random.int(4));
      let state = startBracket(swissFirstBracket(teamsOf(n)));
      const points = new Map<string, [number, number]>();
      const format = { rounds } as never;
      for (let round = 1; round <= rounds; round++) {
        for (const v of matchViews(state)) {
          if (v.status !== 'ready') continue;
          const winner = v.teams[random.int(2)]!;
          state = recordResult(state, v.id, winner);
          const high = 300 + random.int(200);
          const low = random.int(300);
          points.set(v.id, winner === v.teams[0] ? [high, low] : [low, high]);
        }
        const standings = standingsOf(state, points);
        if (round === rounds) {
          expect(swiss.finished(state, format, matchViews(state))).toBe(true);
          expect(() => swiss.nextRound(state, standings, format, { seed: 'x' })).toThrow(/all \d+ rounds are drawn/);
          break;
        }
        expect(swiss.finished(state, format, matchViews(state))).toBe(false);
        const views = matchViews(state);
        const met = new Set(views.filter((v) => v.status === 'played').map((v) => pairKey(v.teams[0]!, v.teams[1]!)));
        const hadBye = new Set(views.filter((v) => v.status === 'bye').map((v) => v.winner!));
        const wins = new Map(standings.map((r) => [r.teamId, r.wins]));
        const drawn = swiss.nextRound(state, standings, format, { seed: 'x' });
        expect(drawn.round).toBe(round + 1);
        const pairs = drawn.matches.filter((m) => m.slots[1].kind !== 'bye').map((m) => m.slots.map((s) => (s as { team: string }).team) as [string, string]);
        const bye = drawn.matches.find((m) => m.slots[1].kind === 'bye');
        const byeTeam = bye ? (bye.slots[0] as { team: string }).team : null;
        expect(new Set([...pairs.flat(), ...(byeTeam ? [byeTeam] : [])]).size).toBe(n);
        const ranked = standings.map((r) => r.teamId);
        const rest = ranked.filter((t) => t !== byeTeam);
        const strict = (a: string, b: string) => !met.has(pairKey(a, b)) && Math.abs(wins.get(a)! - wins.get(b)!) <= 1;
        // A rematch only when no pairing of these teams avoids one.
        if (pairs.some(([a, b]) => met.has(pairKey(a, b)))) {
          expect(canPair(rest, (a, b) => !met.has(pairKey(a, b)))).toBe(false);
        }
        // A pair more than one win apart only when no pairing keeps every pair within one step without rematches.
        if (pairs.some(([a, b]) => Math.abs(wins.get(a)! - wins.get(b)!) > 1)) {
          expect(canPair(rest, strict)).toBe(false);
        } else checkedGaps++;
        if (byeTeam !== null) {
          // Lower-ranked teams without a bye could not take it: the others could not be paired as strictly.
          const lower = ranked.slice(ranked.indexOf(byeTeam) + 1).filter((t) => !hadBye.has(t));
          for (const t of lower)
            expect(
              canPair(
                ranked.filter((x) => x !== t),
                strict,
              ),
            ).toBe(false);
        }
        state = { ...state, bracket: appendRound(state.bracket, drawn) };
      }
    }
    expect(checkedGaps).toBeGreaterThan(100);
  });

  it('pairs within the score group, mirror first (1 v 3, 2 v 4 in a group of four)', () => {
    const wins = new Map([
      ['A', 1],
      ['B', 1],
      ['C', 1],
      ['D', 1],
      ['E', 0],
      ['F', 0],
    ]);
    const result = pairSwiss({ ranked: ['A', 'B', 'C', 'D', 'E', 'F'], wins, met: new Set(), hadBye: new Set() });
    expect(result).toEqual({
      pairs: [
        ['A', 'C'],
        ['B', 'D'],
        ['E', 'F'],
      ],
      bye: null,
      level: 'strict',
    });
  });

  it('avoids a rematch by moving a pairing within the group (A met C, so A v D and B v C)', () => {
    const wins = new Map(['A', 'B', 'C', 'D'].map((t) => [t, 1]));
    const result = pairSwiss({ ranked: ['A', 'B', 'C', 'D'], wins, met: new Set([pairKey('A', 'C')]), hadBye: new Set() });
    expect(result.pairs).toEqual([
      ['A', 'D'],
      ['B', 'C'],
    ]);
  });

  it('gives the bye to the lowest-ranked team that has not had one', () => {
    const wins = new Map(['A', 'B', 'C', 'D', 'E'].map((t) => [t, 0]));
    expect(pairSwiss({ ranked: ['A', 'B', 'C', 'D', 'E'], wins, met: new Set(), hadBye: new Set(['E']) }).bye).toBe('D');
  });

  it('pairs 64 teams over six rounds quickly enough to draw at the desk', () => {
    let state = startBracket(swissFirstBracket(teamsOf(64)));
    const points = new Map<string, [number, number]>();
    const random = createRandom('big');
    for (let round = 1; round < 6; round++) {
      for (const v of matchViews(state)) {
        if (v.status !== 'ready') continue;
        const winner = v.teams[random.int(2)]!;
        state = recordResult(state, v.id, winner);
        points.set(v.id, winner === v.teams[0] ? [400, 200] : [200, 400]);
      }
      const drawn = swiss.nextRound(state, standingsOf(state, points), { rounds: 6 } as never, { seed: 'x' });
      state = { ...state, bracket: appendRound(state.bracket, drawn) };
    }
    expect(state.bracket.matches.filter((m) => m.round === 6)).toHaveLength(32);
  });
});

describe('Swiss standings', () => {
  it('rank by match wins (a bye counts as one), then opponents’ share of matches won, then points difference', () => {
    const m = (a: string, b: string, winner: string, points: [number, number]): DecidedMatch => ({
      teams: [a, b],
      winner,
      games: winner === a ? [1, 0] : [0, 1],
      points,
    });
    // Round 1: A beat B, C beat D, E bye. Round 2: A beat C, E beat B, D bye.
    const rows = leagueTable(
      ['A', 'B', 'C', 'D', 'E'],
      [m('A', 'B', 'A', [400, 300]), m('C', 'D', 'C', [400, 200]), m('A', 'C', 'A', [400, 350]), m('E', 'B', 'E', [400, 100])],
      ['E', 'D'],
      {
        tiebreaks: SWISS_TIEBREAKS,
        byeIsWin: true,
      },
    );
    // Counted here: A 2 wins, E 2 wins (bye + B). A's opponents B (0/2) and C (1/2): 250‰; E's opponent B: 0‰.
    // C 1 win, opponents D (1/2: its bye) and A (2/2): 750‰; D 1 win (bye), opponent C 1/2: 500‰. B 0 wins, opponents A and E 2/2: 1000‰.
    expect(rows.map((r) => [r.teamId, r.place, r.wins, r.opponentsWinShare, r.separatedBy])).toEqual([
      ['A', 1, 2, 250, null],
      ['E', 2, 2, 0, 'opponents-match-wins'],
      ['C', 3, 1, 750, 'match-wins'],
      ['D', 4, 1, 500, 'opponents-match-wins'],
      ['B', 5, 0, 1000, 'match-wins'],
    ]);
    expect(rows.find((r) => r.teamId === 'E')!.played).toBe(1);
  });
});

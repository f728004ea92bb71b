import { describe, expect, it } from 'vitest';
import { type BracketState, buildBracket, matchViews, recordResult, seedPositions, startBracket } from '../engine/bracket.ts';
import { PLAYS, type MatchPlay, standingsOf } from '../engine/format-play.ts';
import { type FormatOptions, formatOptions } from '../engine/formats.ts';
import type { DecidedMatch } from '../engine/league-table.ts';
import { playoffSeeds, snakePools } from '../engine/pools.ts';
import { byeCount } from '../engine/seeding.ts';
import { createRandom } from '../engine/random.ts';
import { roundRobinRounds } from '../engine/round-robin.ts';

const teamsOf = (n: number): string[] => Array.from({ length: n }, (_, i) => `T${i + 1}`);

describe('pools into a playoff', () => {
  it('spreads the seeds over the pools in a snake', () => {
    expect(snakePools(teamsOf(12), 4)).toEqual([
      ['T1', 'T8', 'T9'],
      ['T2', 'T7', 'T10'],
      ['T3', 'T6', 'T11'],
      ['T4', 'T5', 'T12'],
    ]);
  });

  it('over many seeds: each pool a round robin, the top advance of each pool in the playoff, pool mates apart in its first round', () => {
    for (let s = 0; s < 150; s++) {
      const random = createRandom(`pools-${s}`);
      const count = 2 + random.int(7);
      const perPool = 4 + random.int(4);
      const n = count * perPool - random.int(count);
      const advance = 1 + random.int(Math.min(3, perPool - 1));
      const pools = snakePools(teamsOf(n), count);
      // Snake: pool sizes differ by at most one, every team in one pool.
      expect(pools.flat().sort()).toEqual(teamsOf(n).sort());
      expect(Math.max(...pools.map((p) => p.length)) - Math.min(...pools.map((p) => p.length))).toBeLessThanOrEqual(1);
      // Each pool's round robin pairs every two of its teams once.
      for (const pool of pools)
        expect(
          roundRobinRounds(pool)
            .flat()
            .filter(([, b]) => b !== null),
        ).toHaveLength((pool.length * (pool.length - 1)) / 2);
      // Standings: each pool's teams in a random finishing order.
      const standings = pools.map((pool) => [...pool].sort(() => random.float() - 0.5));
      const seeds = playoffSeeds(standings, advance);
      expect(seeds.sort()).toEqual(standings.flatMap((pool) => pool.slice(0, advance)).sort());
      const ordered = playoffSeeds(standings, advance);
      // Every pool winner is seeded ahead of every runner-up, and so on down.
      ordered.forEach((team, i) => expect(standings.find((pool) => pool.includes(team))!.indexOf(team)).toBe(Math.floor(i / count)));
      const poolOf = (team: string) => pools.findIndex((pool) => pool.includes(team));
      const firstRound = matchViews(startBracket(buildBracket(ordered, { format: 'single' }))).filter((v) => v.round === 1 && v.status === 'ready');
      // Two pools of more than half the field each cannot be kept apart; otherwise no pool mates meet first.
      if (count > 2 || advance === 1)
        for (const v of firstRound) expect(poolOf(v.teams[0]!), `seed ${s}: ${v.teams.join(' v ')}`).not.toBe(poolOf(v.teams[1]!));
    }
  });

  it('refuses fewer than 3 teams a pool, and more advancing than a pool holds', () => {
    expect(() => snakePools(teamsOf(5), 2)).toThrow('pools: 5 teams make fewer than 3 a pool in 2 pools');
    expect(() =>
      playoffSeeds(
        [
          ['a', 'b'],
          ['c', 'd', 'e'],
        ],
        3,
      ),
    ).toThrow('pools: pool A has 2 teams, fewer than the 3 that advance');
  });

  it('over many seeds and field sizes, played through the format interface: snake sizes within one, every pool’s top in the playoff, pool mates apart in its first round whenever they can be', () => {
    const pools = PLAYS.pools as MatchPlay;
    let apartChecked = 0;
    for (let s = 0; s < 300; s++) {
      const random = createRandom(`pools-play-${s}`);
      const count = 2 + random.int(6);
      const n = Math.min(64, 3 * count + random.int(4 * count));
      const smallest = Math.floor(n / count);
      const advance = 1 + random.int(Math.min(4, smallest));
      const playoff = random.int(2) === 0 ? 'single' : 'double';
      const format: FormatOptions = { ...formatOptions('custom'), elimination: 'pools', pools: count, advance, playoff };
      const seeds = teamsOf(n);
      let state: BracketState = startBracket(pools.start(seeds, format, null));
      const groups = state.bracket.pools!.teams;
      expect(groups.flat().sort()).toEqual([...seeds].sort());
      expect(Math.max(...groups.map((g) => g.length)) - Math.min(...groups.map((g) => g.length)), `seed ${s}`).toBeLessThanOrEqual(1);
      // Pool play: random winners, points and games recorded for the standings.
      const decided: DecidedMatch[] = [];
      const byes: string[] = [];
      for (const view of matchViews(state)) {
        if (view.status === 'bye') {
          byes.push(view.winner!);
          continue;
        }
        const [a, b] = view.teams as [string, string];
        const winner = random.int(2) === 0 ? a : b;
        state = recordResult(state, view.id, winner);
        const margin = 10 + random.int(200);
        decided.push({ teams: [a, b], winner, games: winner === a ? [1, 0] : [0, 1], points: winner === a ? [200, 200 - margin] : [200 - margin, 200] });
      }
      expect(() => pools.nextRound(state, [], format, { seed: 'x' })).not.toThrow(/not over/);
      const standings = standingsOf(pools, state.bracket, decided, byes);
      const drawn = pools.nextRound(state, standings, format, { seed: 'x' });
      state = { ...state, bracket: pools.appendRound(state.bracket, drawn) };
      const going = drawn.playoff!;
      // Every pool's top `advance`, as its standings rank them, and nobody else.
      const top = groups.map((g) =>
        standings
          .filter((r) => g.includes(r.teamId))
          .slice(0, advance)
          .map((r) => r.teamId),
      );
      expect([...going].sort()).toEqual(top.flat().sort());
      const poolOf = (team: string) => groups.findIndex((g) => g.includes(team));
      const firstRound = matchViews(state).filter((v) => v.side === 'winners' && v.round === 1 && v.status === 'ready');
      const possible = canKeepApart(going.map(poolOf), count);
      if (possible) {
        apartChecked++;
        for (const v of firstRound) expect(poolOf(v.teams[0]!), `seed ${s}: ${v.teams.join(' v ')}`).not.toBe(poolOf(v.teams[1]!));
      }
      // The playoff to its end: the better seed wins; then every team is placed once, the playoff's first.
      for (let guard = 0; guard < 300 && !pools.finished(state, format, matchViews(state)); guard++) {
        const ready = matchViews(state).find((v) => v.status === 'ready')!;
        state = recordResult(state, ready.id, going.indexOf(ready.teams[0]!) < going.indexOf(ready.teams[1]!) ? ready.teams[0]! : ready.teams[1]!);
      }
      expect(pools.finished(state, format, matchViews(state))).toBe(true);
      const placed = pools.placings(state, standings);
      expect(placed.flatMap((p) => p.teams).sort()).toEqual([...seeds].sort());
      expect(placed[0]!.teams).toEqual([going[0]]);
      const rest = placed.findIndex((p) => p.teams.some((t) => !going.includes(t)));
      expect(new Set(placed.slice(0, rest < 0 ? placed.length : rest).flatMap((p) => p.teams))).toEqual(new Set(going));
    }
    // Most fields can keep pool mates apart; the check above ran on them.
    expect(apartChecked).toBeGreaterThan(200);
  });
});

/**
 * Whether some seeding of the playoff, tier by tier as playoffSeeds seeds it (every pool's 1st,
 * then every pool's 2nd, …), keeps pool mates apart in the first round: an exhaustive search
 * over which pool each seed comes from. `poolOfSeed` gives the pools in one such seeding; only
 * how many teams of each pool each tier holds matters.
 */
function canKeepApart(poolOfSeed: readonly number[], count: number): boolean {
  const n = poolOfSeed.length;
  const positions = seedPositions(n + byeCount(n));
  const opponent = new Map<number, number>();
  for (let i = 0; i < positions.length; i += 2) {
    const [a, b] = [positions[i]!, positions[i + 1]!];
    if (a <= n && b <= n) {
      opponent.set(a, b);
      opponent.set(b, a);
    }
  }
  // Each tier of `count` seeds holds one team of each pool (a pool's k-th team).
  const chosen: number[] = [];
  const search = (seed: number): boolean => {
    if (seed > n) return true;
    const tier = Math.floor((seed - 1) / count);
    const used = new Set(chosen.slice(tier * count));
    for (let pool = 0; pool < count; pool++) {
      if (used.has(pool)) continue;
      const other = opponent.get(seed);
      if (other !== undefined && other < seed && chosen[other - 1] === pool) continue;
      chosen.push(pool);
      if (search(seed + 1)) return true;
      chosen.pop();
    }
    return false;
  };
  return search(1);
}

import { describe, expect, it } from 'vitest';
import { buildBracket, matchViews, startBracket } from '../engine/bracket.ts';
import { playoffSeeds, snakePools } from '../engine/pools.ts';
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
});

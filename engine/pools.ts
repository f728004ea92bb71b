/**
 * Pools into a playoff (the engine's part): entrants spread over pools by seed in a snake (1, 2,
 * 3, 4 into pools A–D, then 5 into D, 6 into C, …), a round robin in each pool
 * (engine/round-robin.ts), and the top `advance` of each pool seeded into a single or double
 * elimination playoff (engine/bracket.ts): every pool's winner ahead of every runner-up, and so
 * on down, each tier's pools turned so that no two teams of one pool meet in the playoff's first
 * round.
 */
import { seedPositions } from './bracket.ts';
import { byeCount } from './seeding.ts';

/** The seeds spread over `count` pools in a snake, each pool in seed order. */
export function snakePools(seeds: readonly string[], count: number): string[][] {
  if (!Number.isInteger(count) || count < 2) throw new Error(`pools: at least 2 pools, not ${String(count)}`);
  if (seeds.length < 3 * count) throw new Error(`pools: ${seeds.length} teams make fewer than 3 a pool in ${count} pools`);
  const pools: string[][] = Array.from({ length: count }, () => []);
  seeds.forEach((team, i) => {
    const lap = Math.floor(i / count);
    const at = i % count;
    pools[lap % 2 === 0 ? at : count - 1 - at]!.push(team);
  });
  return pools;
}

/** The pool each team plays in, by team id. */
function poolIndex(pools: readonly (readonly string[])[]): Map<string, number> {
  return new Map(pools.flatMap((pool, p) => pool.map((team) => [team, p] as const)));
}

/**
 * The playoff's seeds from each pool's final standings (best first): tier by tier (every pool's
 * 1st, then every pool's 2nd, …), each tier's pools in an order turned so that no first-round
 * match of a bracket seeded this way puts two teams of one pool together. Throws when `advance`
 * is more than a pool holds.
 */
export function playoffSeeds(standings: readonly (readonly string[])[], advance: number): string[] {
  if (!Number.isInteger(advance) || advance < 1) throw new Error(`pools: the top 1 or more of each pool advance, not ${String(advance)}`);
  const short = standings.findIndex((pool) => pool.length < advance);
  if (short >= 0)
    throw new Error(`pools: pool ${String.fromCharCode(65 + short)} has ${standings[short]!.length} teams, fewer than the ${advance} that advance`);
  const count = standings.length;
  const pool = poolIndex(standings);
  const size = count * advance;
  const positions = seedPositions(size + byeCount(size));
  // Seed s meets the seed beside it in bracket order in round 1 (a seed past the field is a bye).
  const firstRound: [number, number][] = [];
  for (let i = 0; i < positions.length; i += 2) firstRound.push([positions[i]!, positions[i + 1]!]);
  const seedsFor = (turns: readonly number[]): string[] =>
    turns.flatMap((turn, tier) => Array.from({ length: count }, (_, k) => standings[(k + turn) % count]![tier]!));
  const apart = (seeds: readonly string[]): boolean =>
    firstRound.every(([a, b]) => a > seeds.length || b > seeds.length || pool.get(seeds[a - 1]!) !== pool.get(seeds[b - 1]!));
  // Every combination of turns, the pool winners' tier never turned, fewest turns first.
  const turns = new Array<number>(advance).fill(0);
  const total = count ** (advance - 1);
  for (let n = 0; n < total; n++) {
    let rest = n;
    for (let tier = 1; tier < advance; tier++) {
      turns[tier] = rest % count;
      rest = Math.floor(rest / count);
    }
    const seeds = seedsFor(turns);
    if (apart(seeds)) return seeds;
  }
  // Two pools sending more than half the field cannot be kept apart: the plain tier order.
  return seedsFor(new Array<number>(advance).fill(0));
}

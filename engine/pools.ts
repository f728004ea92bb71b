/**
 * Pools into a playoff (the engine's part): entrants spread over pools by seed in a snake (1, 2,
 * 3, 4 into pools A–D, then 5 into D, 6 into C, …), a round robin in each pool
 * (engine/round-robin.ts), and the top `advance` of each pool seeded into a single or double
 * elimination playoff (engine/bracket.ts): every pool's winner ahead of every runner-up, and so
 * on down, each tier's pools turned so that no two teams of one pool meet in the playoff's first
 * round.
 */
import {
  type Bracket,
  type BracketMatch,
  type BracketState,
  type Placing,
  buildBracket,
  checkTeams,
  linkRoutes,
  placings as bracketPlacings,
  seedPositions,
} from './bracket.ts';
import type { DrawnRound, RoundMatch } from './bracket-rounds.ts';
import type { StandingRow } from './league-table.ts';
import { roundRobinRounds } from './round-robin.ts';
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

/** A pool's letter: A for the first. */
export function poolLetter(index: number): string {
  return String.fromCharCode(65 + index);
}

/** The letter of the pool a pool match (`B-R2-1`) is played in; null for a playoff match. */
export function poolOfMatch(matchId: string): string | null {
  return /^([A-Z])-R\d+-\d+$/.exec(matchId)?.[1] ?? null;
}

/**
 * Pool play as a bracket (engine/bracket.ts terms): the seeds spread over `count` pools in a snake,
 * each pool a round robin (engine/round-robin.ts), its matches `A-R1-1` (pool A, round 1, match
 * 1) on side `pool`, listed round by round across the pools so a round's matches come together
 * on the desk. The playoff is added once pool play is over (appendPlayoff). Throws, in the
 * director's words, when a pool would hold fewer than 3 teams or fewer than advance from it.
 */
export function poolsBracket(seeds: readonly string[], count: number, advance: number, playoff: 'single' | 'double'): Bracket {
  checkTeams([...seeds]);
  if (seeds.length < 3 * count)
    throw new Error(`${seeds.length} teams in ${count} pools make fewer than 3 teams a pool; choose fewer pools or register more teams`);
  const pools = snakePools(seeds, count);
  const smallest = Math.min(...pools.map((pool) => pool.length));
  if (smallest < advance)
    throw new Error(`${advance} teams advancing from each pool is more than a pool of ${smallest} holds (${seeds.length} teams in ${count} pools)`);
  const seedOf = new Map(seeds.map((team, i) => [team, i + 1]));
  const schedules = pools.map((pool) => roundRobinRounds(pool));
  const rounds = Math.max(...schedules.map((s) => s.length));
  const matches: BracketMatch[] = [];
  for (let r = 0; r < rounds; r++) {
    schedules.forEach((schedule, p) =>
      (schedule[r] ?? []).forEach(([a, b], i) =>
        matches.push({
          id: `${poolLetter(p)}-R${r + 1}-${i + 1}`,
          side: 'pool',
          round: r + 1,
          slots: [{ kind: 'team', team: a, seed: seedOf.get(a)! }, b === null ? { kind: 'bye' } : { kind: 'team', team: b, seed: seedOf.get(b)! }],
          winnerTo: null,
          loserTo: null,
        }),
      ),
    );
  }
  linkRoutes(matches);
  return { format: 'pools', teams: [...seeds], reset: false, thirdPlace: false, matches, pools: { teams: pools, advance, playoff } };
}

/** The last round of pool play. */
function lastPoolRound(bracket: Bracket): number {
  return Math.max(...bracket.matches.filter((m) => m.side === 'pool').map((m) => m.round));
}

/** The playoff's bracket built from its seeds. */
function playoffBracket(seeds: readonly string[], playoff: 'single' | 'double'): Bracket {
  return buildBracket(seeds, { format: playoff });
}

/** The playoff's matches that name their teams from the start (its first round and byes), as a drawn round records them. */
function openingMatches(bracket: Bracket): RoundMatch[] {
  return bracket.matches
    .filter((m) => m.slots.every((slot) => slot.kind === 'team' || slot.kind === 'bye'))
    .map((m) => ({ id: m.id, side: m.side as RoundMatch['side'], slots: [m.slots[0], m.slots[1]] }));
}

/**
 * The playoff, drawn from each pool's teams best first (the pools' standings, withdrawn teams
 * left out): seeded by playoffSeeds, so pool mates meet as late as can be. Recorded as a round
 * after the pools' last: its opening matches and the seeds its whole bracket is built from.
 */
export function playoffRound(bracket: Bracket, ranked: readonly (readonly string[])[]): DrawnRound & { playoff: string[] } {
  const pools = bracket.pools;
  if (!pools) throw new Error('this event has no pools');
  if (pools.seeds) throw new Error('the playoff is drawn; there is no round after it');
  const short = ranked.findIndex((teams) => teams.length < pools.advance);
  if (short >= 0)
    throw new Error(`pool ${poolLetter(short)} has ${ranked[short]!.length} teams still playing, fewer than the ${pools.advance} that go on to the playoff`);
  const seeds = playoffSeeds(ranked, pools.advance);
  return { round: lastPoolRound(bracket) + 1, draws: [], matches: openingMatches(playoffBracket(seeds, pools.playoff)), playoff: seeds };
}

/**
 * The bracket with its playoff added: every match of a single or double elimination built from
 * the recorded seeds, after the pools' matches. Throws when the playoff is drawn already, when
 * the seeds are not each pool's top teams, or when the recorded matches are not the ones the
 * seeds make.
 */
export function appendPlayoff(bracket: Bracket, round: DrawnRound): Bracket {
  const pools = bracket.pools;
  if (!pools) throw new Error('this event has no pools');
  if (pools.seeds) throw new Error('the playoff is drawn already');
  const seeds = round.playoff;
  if (!seeds) throw new Error('a playoff is drawn with its seeds');
  if (round.round !== lastPoolRound(bracket) + 1) throw new Error(`the playoff follows round ${lastPoolRound(bracket)}, not round ${round.round - 1}`);
  for (const [p, pool] of pools.teams.entries()) {
    const going = seeds.filter((team) => pool.includes(team)).length;
    if (going !== pools.advance) throw new Error(`the playoff takes ${pools.advance} teams of pool ${poolLetter(p)}, not ${going}`);
  }
  const built = playoffBracket(seeds, pools.playoff);
  const said = (matches: readonly RoundMatch[]) =>
    matches.map((m) => `${m.id} ${m.side} ${m.slots.map((slot) => (slot.kind === 'team' ? slot.team : slot.kind)).join(' ')}`).join(', ');
  if (said(openingMatches(built)) !== said(round.matches)) throw new Error('the playoff’s recorded matches are not the ones its seeds make');
  const matches = [...bracket.matches, ...built.matches].map((m) => ({ ...m, winnerTo: null, loserTo: null }));
  linkRoutes(matches);
  return { ...bracket, matches, pools: { ...pools, seeds: [...seeds] } };
}

/** The playoff alone, as a bracket of its own with the event's results; null before it is drawn. */
export function playoffState(state: BracketState): BracketState | null {
  const pools = state.bracket.pools;
  if (!pools?.seeds) return null;
  const matches = state.bracket.matches.filter((m) => m.side !== 'pool');
  return { ...state, bracket: { format: pools.playoff, teams: [...pools.seeds], reset: false, thirdPlace: false, matches } };
}

/**
 * Final placings of pools into a playoff: the playoff's own placings first; then the teams that
 * did not go on, by their place in their pool: every pool's next team shares the next place,
 * and so on down (teams level in a pool share it too). The event must be finished.
 */
export function poolsPlacings(state: BracketState, standings: readonly StandingRow[]): Placing[] {
  const playoff = playoffState(state);
  if (!playoff) throw new Error('placings: the playoff is not drawn yet');
  const result = bracketPlacings(playoff);
  const going = new Set(playoff.bracket.teams);
  const byPlace = new Map<number, string[]>();
  for (const row of standings) {
    if (going.has(row.teamId)) continue;
    byPlace.set(row.place, [...(byPlace.get(row.place) ?? []), row.teamId]);
  }
  let taken = result.reduce((n, p) => n + p.teams.length, 0);
  for (const place of [...byPlace.keys()].sort((a, b) => a - b)) {
    const teams = byPlace.get(place)!;
    result.push({ place: taken + 1, teams });
    taken += teams.length;
  }
  return result;
}

/** Each pool's standings (rows of that pool's teams, best first) from the event's rows, pools in order. */
export function poolRows(pools: readonly (readonly string[])[], standings: readonly StandingRow[]): StandingRow[][] {
  return pools.map((pool) => standings.filter((row) => pool.includes(row.teamId)));
}

/**
 * Round robin: everyone plays everyone once (or twice, `cycles: 2`). The schedule is the circle
 * method over the seeds: seed 1 stays put and the others turn one place a round, so round 1 is
 * seed 1 v the last seed, 2 v the second-to-last, and so on. With an odd count a bye takes the
 * missing place and turns with the others, so each team sits out exactly once a cycle. A second
 * cycle plays the first again with the two sides swapped.
 *
 * The whole schedule is known from the seeds, so it is made once at the start; matches are
 * `R<round>-<n>`, a bye a match with one bye slot. Standings: match wins, then games won, then
 * points for minus against, then head-to-head among the teams still level (engine/league-table.ts).
 */
import type { Bracket, BracketMatch } from './bracket.ts';
import { checkTeams, linkRoutes } from './bracket.ts';
import type { Tiebreak } from './league-table.ts';

export const ROUND_ROBIN_TIEBREAKS: readonly Tiebreak[] = ['match-wins', 'games-won', 'points-difference', 'head-to-head'];

/** The pairings of each round, round 1 first: two teams, or a team and null for its bye. */
export function roundRobinRounds(seeds: readonly string[], cycles: 1 | 2 = 1): [string, string | null][][] {
  checkTeams([...seeds]);
  if (cycles !== 1 && cycles !== 2) throw new Error(`round robin: everyone plays everyone once or twice, not ${String(cycles)} times`);
  const circle: (string | null)[] = [...seeds];
  if (circle.length % 2 === 1) circle.push(null);
  const size = circle.length;
  const rounds: [string, string | null][][] = [];
  for (let r = 0; r < size - 1; r++) {
    const round: [string, string | null][] = [];
    for (let i = 0; i < size / 2; i++) {
      const a = circle[i]!;
      const b = circle[size - 1 - i]!;
      if (a === null) round.push([b!, null]);
      else round.push([a, b]);
    }
    // Byes last, so a round's played matches come first on the desk.
    round.sort((x, y) => Number(x[1] === null) - Number(y[1] === null));
    rounds.push(round);
    // Seed 1 stays; the rest turn one place.
    circle.splice(1, 0, circle.pop()!);
  }
  if (cycles === 2) {
    for (const round of rounds.slice()) rounds.push(round.map(([a, b]) => (b === null ? [a, null] : [b, a])));
  }
  return rounds;
}

/** The round robin as a bracket of rounds (engine/bracket.ts terms): every match has its two teams from the start. */
export function roundRobinBracket(seeds: readonly string[], cycles: 1 | 2 = 1): Bracket {
  const rounds = roundRobinRounds(seeds, cycles);
  const seedOf = new Map(seeds.map((team, i) => [team, i + 1]));
  const matches: BracketMatch[] = rounds.flatMap((pairs, r) =>
    pairs.map(
      ([a, b], i): BracketMatch => ({
        id: `R${r + 1}-${i + 1}`,
        side: 'winners',
        round: r + 1,
        slots: [{ kind: 'team', team: a, seed: seedOf.get(a)! }, b === null ? { kind: 'bye' } : { kind: 'team', team: b, seed: seedOf.get(b)! }],
        winnerTo: null,
        loserTo: null,
      }),
    ),
  );
  linkRoutes(matches);
  return { format: 'round-robin', teams: [...seeds], reset: false, thirdPlace: false, matches };
}

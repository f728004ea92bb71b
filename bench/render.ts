/**
 * Render benchmarks: what the server pays, once per ledger event, to turn a read model into the
 * HTML every screen of a channel receives. The standings of a 64-team event are the largest
 * region a phone's page re-renders on each result.
 */
import type { TeamRow, TournamentModel } from '../events/read-models.ts';
import { Leaderboard } from '../views/leaderboard.tsx';
import { type Benchmark, measureTime, withGoal } from './harness.ts';

const STATUSES: TeamRow['status'][] = ['alive', 'alive', 'alive', 'out', 'alive', 'withdrawn', 'alive', 'out'];

/** Standings part-way through a 64-team event: records, bags and sets spread as play leaves them. */
function standings(teams: number): Pick<TournamentModel, 'name' | 'teams' | 'placings'> {
  return {
    name: 'Bench Open',
    placings: [],
    teams: Array.from({ length: teams }, (_, i): TeamRow => {
      const wins = (i * 7) % 5;
      const losses = (i * 3) % 3;
      return {
        teamId: `team-${i + 1}`,
        name: `Team ${i + 1} ${['Aces', 'Bags', 'Books', 'Nils', 'Sets', 'Trumps', 'Jokers', 'Deuces'][i % 8]} & Co`,
        players: [`Player ${2 * i + 1}`, `Player ${2 * i + 2}`],
        seed: i + 1,
        wins,
        losses,
        gamesWon: wins * 2,
        gamesLost: losses * 2 + (i % 2),
        points: 300 + ((i * 137) % 700),
        bags: (i * 11) % 14,
        sets: i % 4,
        status: STATUSES[i % STATUSES.length]!,
      };
    }),
  };
}

export const renderBench: Benchmark = {
  group: 'render',
  run() {
    const tournament = standings(64);
    let bytes = 0;
    // Warm up as a running server is: the renderer has drawn many pages before the one timed.
    for (let i = 0; i < 300; i++) String(Leaderboard({ tournament }));
    const figure = withGoal(
      measureTime(
        'render the standings of 64 teams',
        () => {
          bytes = String(Leaderboard({ tournament })).length;
        },
        500,
      ),
      { atMost: 1 },
    );
    if (bytes < 64 * 200) throw new Error(`the standings rendered only ${bytes} characters for 64 teams`);
    return [figure];
  },
};

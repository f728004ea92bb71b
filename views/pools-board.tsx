/**
 * Pools into a playoff's standings as the room reads them: a table for each pool, each with its
 * places, matches and every tiebreak's value (views/league-table.tsx draws each), then in words
 * how the pools are ranked, how many of each go on, and, once the playoff is drawn, who went on.
 * The standings page, the venue screen and its stream render this same component.
 */
import { TIEBREAK_WORDS, tiedAtTop } from '../engine/league-table.ts';
import type { TournamentModel } from '../events/read-models.ts';
import { listed } from '../events/tournament-state.ts';
import { LeagueBoard } from './league-table.tsx';

export interface PoolsBoardProps {
  tournament: Pick<TournamentModel, 'name' | 'teams' | 'league'> & Partial<Pick<TournamentModel, 'tournamentId' | 'status'>>;
  /** The venue screen: the pools side by side, in type read across the room. */
  screen?: boolean;
  /** The region the page's stream replaces. */
  id: string;
}

export function PoolsBoard({ tournament, screen = false, id }: PoolsBoardProps) {
  const league = tournament.league!;
  const pools = league.pools ?? [];
  const name = (teamId: string) => tournament.teams.find((t) => t.teamId === teamId)?.name ?? teamId;
  const going = league.playoff ?? null;
  const perPool = going && pools.length > 0 ? going.length / pools.length : null;
  return (
    <div id={id} class={`pools-board pools-board--${pools.length}${screen ? ' pools-board--screen' : ''}`}>
      <div class="pools-board-pools">
        {pools.map((pool, i) => (
          <LeagueBoard
            tournament={{ ...tournament, league: { ...league, rows: league.rows.filter((row) => pool.teams.includes(row.teamId)) } }}
            id={`pool-${i + 1}`}
            title={pool.name}
            notes={false}
            screen={screen}
          />
        ))}
      </div>
      <div class="league-notes pools-notes">
        <p>
          Pools into a playoff: each pool ranked by {league.tiebreaks.map((t) => TIEBREAK_WORDS[t]).join(', then ')}
          {perPool !== null ? `; the top ${perPool} of each went on to the playoff.` : '; its top teams go on to the playoff once every pool match is decided.'}
        </p>
        {pools.map((pool) => {
          const tied = tiedAtTop(league.rows.filter((row) => pool.teams.includes(row.teamId)));
          return tied.length > 0 ? (
            <p class="league-tie">
              Tied for 1st in {pool.name}: {listed(tied.map(name))}.
            </p>
          ) : null;
        })}
        {going ? <p class="pools-going">In the playoff, by seed: {listed(going.map(name))}.</p> : null}
      </div>
    </div>
  );
}

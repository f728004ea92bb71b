/**
 * The standings. Rendered whole for the leaderboard page, the venue screen and the SSE
 * fragment alike, so every copy of the table in the room shows the same order.
 */
import { html } from 'hono/html';
import type { TeamRow, TournamentModel } from '../events/read-models.ts';

export const LEADERBOARD_ID = 'leaderboard';

const STATUS_LABELS: Record<TeamRow['status'], string> = {
  registered: 'Registered',
  alive: 'Playing',
  out: 'Out',
  withdrawn: 'Withdrawn',
  disqualified: 'Disqualified',
  champion: 'Champion',
};

/** Teams whose run is over: shown dimmed so the room's eye goes to the teams still playing. */
const FINISHED_STATUSES: ReadonlySet<TeamRow['status']> = new Set(['out', 'withdrawn', 'disqualified']);

/**
 * Teams in standing order: decided places first, then wins (most first), losses (fewest
 * first) and points (most first). Places come first because in a double-elimination event the
 * runner-up out of the losers' bracket can hold more wins than the champion.
 */
export function rankTeams(tournament: Pick<TournamentModel, 'teams' | 'placings'>): TeamRow[] {
  const place = new Map(tournament.placings.map((p) => [p.teamId, p.place]));
  return [...tournament.teams].sort(
    (a, b) =>
      (place.get(a.teamId) ?? Infinity) - (place.get(b.teamId) ?? Infinity) ||
      b.wins - a.wins ||
      a.losses - b.losses ||
      b.points - a.points ||
      (a.seed ?? Infinity) - (b.seed ?? Infinity) ||
      a.name.localeCompare(b.name),
  );
}

export interface LeaderboardProps {
  tournament: Pick<TournamentModel, 'name' | 'teams' | 'placings'> & Partial<Pick<TournamentModel, 'format'>>;
}

/** The standings table, ranked, with the champion marked and finished teams dimmed. */
export function Leaderboard({ tournament }: LeaderboardProps) {
  const rows = rankTeams(tournament);
  // Progressive tables keep individual running totals: each row is a player, its points the total.
  const individual = tournament.format === 'tournament-spades';
  return (
    <section id={LEADERBOARD_ID} class="leaderboard" aria-labelledby="leaderboard-title">
      <h2 id="leaderboard-title">{individual ? 'Individual totals' : 'Standings'}</h2>
      {rows.length === 0 ? (
        <p class="empty">{individual ? 'No players have registered yet.' : 'No teams have registered yet.'}</p>
      ) : (
        // A region with a tab stop, so a keyboard user can scroll the table on a narrow phone.
        <div class="table-scroll" role="region" aria-labelledby="leaderboard-title" tabindex={0}>
          <table class="standings">
            <thead>
              <tr>
                <th scope="col" class="num">
                  <abbr title="Rank">#</abbr>
                </th>
                <th scope="col" class="team-col">
                  {individual ? 'Player' : 'Team'}
                </th>
                <th scope="col" class="num">
                  <abbr title="Matches won">W</abbr>
                </th>
                <th scope="col" class="num">
                  <abbr title="Matches lost">L</abbr>
                </th>
                <th scope="col" class="num">
                  <abbr title="Points">Pts</abbr>
                </th>
                <th scope="col" class="num">
                  Bags
                </th>
                <th scope="col" class="num">
                  Sets
                </th>
                <th scope="col">Status</th>
              </tr>
            </thead>
            <tbody>
              {standingsRows(rows)}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

/**
 * The body rows, written with hono's html template rather than JSX: the standings are the largest
 * region re-rendered on each result, and the template renders them several times faster. Every
 * value is escaped by the template just as JSX escapes it.
 */
function standingsRows(rows: readonly TeamRow[]) {
  return rows.map((team, i) => {
    const classes = rowClass(team);
    const crown = team.status === 'champion' ? html`<span class="crown" aria-hidden="true">★ </span>` : '';
    const players = team.players.length > 0 ? html`<span class="players">${team.players.join(' & ')}</span>` : '';
    return html`<tr${classes ? html` class="${classes}"` : ''} data-team="${team.teamId}"><td class="num rank">${i + 1}</td><th scope="row" class="team-col"><span class="team-name">${crown}${team.name}</span>${players}</th><td class="num">${team.wins}</td><td class="num">${team.losses}</td><td class="num">${team.points}</td><td class="num">${team.bags}</td><td class="num">${team.sets}</td><td class="status"><span class="badge badge--${team.status}">${STATUS_LABELS[team.status]}</span></td></tr>`;
  });
}

function rowClass(team: TeamRow): string | undefined {
  if (team.status === 'champion') return 'is-champion';
  if (FINISHED_STATUSES.has(team.status)) return 'is-finished';
  return undefined;
}

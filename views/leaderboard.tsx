/**
 * The standings. Rendered whole for the leaderboard page, the venue screen and the SSE
 * fragment alike, so every copy of the table in the room shows the same order.
 */
import { html } from 'hono/html';
import type { TeamRow, TournamentModel } from '../events/read-models.ts';
import { type Standing, record, teamStandings } from './team-standing.ts';

export const LEADERBOARD_ID = 'leaderboard';

/** Teams whose run is over: shown dimmed so the room's eye goes to the teams still playing. */
const FINISHED_STATUSES: ReadonlySet<TeamRow['status']> = new Set(['out', 'withdrawn', 'disqualified']);

/**
 * Teams in standing order: decided places first, then matches won (most first), matches lost
 * (fewest first), games won and lost the same way, and points (most first). Places come first
 * because in a double-elimination event the runner-up out of the losers' bracket can hold more
 * wins than the champion.
 */
export function rankTeams(tournament: Pick<TournamentModel, 'teams' | 'placings'>): TeamRow[] {
  const place = new Map(tournament.placings.map((p) => [p.teamId, p.place]));
  return [...tournament.teams].sort(
    (a, b) =>
      (place.get(a.teamId) ?? Infinity) - (place.get(b.teamId) ?? Infinity) ||
      b.wins - a.wins ||
      a.losses - b.losses ||
      b.gamesWon - a.gamesWon ||
      a.gamesLost - b.gamesLost ||
      b.points - a.points ||
      (a.seed ?? Infinity) - (b.seed ?? Infinity) ||
      a.name.localeCompare(b.name),
  );
}

export interface LeaderboardProps {
  tournament: Pick<TournamentModel, 'name' | 'teams' | 'placings'> & Partial<Pick<TournamentModel, 'format' | 'matches' | 'status'>>;
  /**
   * The venue screen's layout: the ranked teams split into this many side-by-side tables of
   * the columns a room reads from afar (rank, team, games, points, standing).
   */
  columns?: number;
}

/** The standings table, ranked, with each team's standing in the competition and finished teams dimmed. */
export function Leaderboard({ tournament, columns }: LeaderboardProps) {
  const rows = rankTeams(tournament);
  const standings = teamStandings({ teams: tournament.teams, placings: tournament.placings, matches: tournament.matches ?? [], status: tournament.status ?? 'running' });
  // Progressive tables keep individual running totals: each row is a player, its points the total.
  const individual = tournament.format === 'tournament-spades';
  const compact = columns !== undefined;
  const parts = compact ? split(rows, Math.max(1, columns)) : [{ rows, from: 0 }];
  return (
    <section id={LEADERBOARD_ID} class={compact ? `leaderboard leaderboard--columns leaderboard--columns-${parts.length}` : 'leaderboard'} aria-labelledby="leaderboard-title">
      <h2 id="leaderboard-title">{individual ? 'Individual totals' : 'Standings'}</h2>
      {rows.length === 0 ? (
        <p class="empty">{individual ? 'No players have registered yet.' : 'No teams have registered yet.'}</p>
      ) : (
        <div class="standings-columns">
          {parts.map((part) => (
            // A region with a tab stop, so a keyboard user can scroll the table on a narrow phone.
            <div class="table-scroll" role="region" aria-labelledby="leaderboard-title" tabindex={0}>
              <table class={compact ? 'standings standings--compact' : 'standings'}>
                <thead>
                  <tr>
                    <th scope="col" class="num">
                      <abbr title="Rank">#</abbr>
                    </th>
                    <th scope="col" class="team-col">
                      {individual ? 'Player' : 'Team'}
                    </th>
                    {compact || individual ? null : (
                      <th scope="col" class="num">
                        <abbr title="Matches won–lost">Matches</abbr>
                      </th>
                    )}
                    {individual ? null : (
                      <th scope="col" class="num">
                        <abbr title="Games won–lost">Games</abbr>
                      </th>
                    )}
                    <th scope="col" class="num">
                      <abbr title="Points">Pts</abbr>
                    </th>
                    {compact || individual ? null : (
                      <>
                        <th scope="col" class="num">
                          Bags
                        </th>
                        <th scope="col" class="num">
                          Sets
                        </th>
                      </>
                    )}
                    <th scope="col">Standing</th>
                  </tr>
                </thead>
                <tbody>{standingsRows(part.rows, part.from, standings, { compact, individual, short: parts.length > 1 })}</tbody>
              </table>
            </div>
          ))}
        </div>
      )}
    </section>
  );
}

/** The ranked rows cut into `count` nearly equal runs, each remembering the rank it starts at. */
function split(rows: readonly TeamRow[], count: number): { rows: TeamRow[]; from: number }[] {
  const size = Math.ceil(rows.length / count) || 1;
  const parts: { rows: TeamRow[]; from: number }[] = [];
  for (let i = 0; i < rows.length; i += size) parts.push({ rows: rows.slice(i, i + size), from: i });
  return parts.length > 0 ? parts : [{ rows: [], from: 0 }];
}

/**
 * The body rows, written with hono's html template rather than JSX: the standings are the largest
 * region re-rendered on each result, and the template renders them several times faster. Every
 * value is escaped by the template just as JSX escapes it.
 */
function standingsRows(rows: readonly TeamRow[], from: number, standings: ReadonlyMap<string, Standing>, shape: { compact: boolean; individual: boolean; short: boolean }) {
  return rows.map((team, i) => {
    const classes = rowClass(team);
    const crown = team.status === 'champion' ? html`<span class="crown" aria-hidden="true">★ </span>` : '';
    const players = team.players.length > 0 && !shape.individual ? html`<span class="players">${team.players.join(' & ')}</span>` : '';
    const standing = standings.get(team.teamId) ?? { label: 'Playing', short: 'Playing', tone: 'playing' };
    const matches = shape.compact || shape.individual ? '' : html`<td class="num">${record(team.wins, team.losses)}</td>`;
    const games = shape.individual ? '' : html`<td class="num">${record(team.gamesWon, team.gamesLost)}</td>`;
    // A player's total is the sum of round scores: a player keeps no bags or sets of their own.
    const extra = shape.compact || shape.individual ? '' : html`<td class="num">${team.bags}</td><td class="num">${team.sets}</td>`;
    return html`<tr${classes ? html` class="${classes}"` : ''} data-team="${team.teamId}"><td class="num rank">${from + i + 1}</td><th scope="row" class="team-col"><span class="team-name">${crown}${team.name}</span>${players}</th>${matches}${games}<td class="num">${team.points}</td>${extra}<td class="status"><span class="badge badge--${standing.tone}" data-standing="${standing.tone}"${shape.short ? html` title="${standing.label}"` : ''}>${shape.short ? standing.short : standing.label}</span></td></tr>`;
  });
}

function rowClass(team: TeamRow): string | undefined {
  if (team.status === 'champion') return 'is-champion';
  if (FINISHED_STATUSES.has(team.status)) return 'is-finished';
  return undefined;
}

/**
 * The standings. Rendered whole for the leaderboard page, the venue screen and the SSE
 * fragment alike, so every copy of the table in the room shows the same order: the order and
 * each team's standing are events/standings.ts's, which the read API lists too.
 */
import { html } from 'hono/html';
import type { TeamRow, TournamentModel } from '../events/read-models.ts';
import { reachText, record } from './team-standing.ts';
import { type BracketReach, type Standing, isIndividual, knockoutReach, rankedTeams, teamStandings } from '../events/standings.ts';
import { playerLink, teamLink } from '../events/addresses.ts';
import { LeagueBoard } from './league-table.tsx';
import { PoolsBoard } from './pools-board.tsx';

export const LEADERBOARD_ID = 'leaderboard';

/** Teams whose run is over: shown dimmed so the room's eye goes to the teams still playing. */
const FINISHED_STATUSES: ReadonlySet<TeamRow['status']> = new Set(['out', 'withdrawn', 'disqualified']);

export interface LeaderboardProps {
  tournament: Pick<TournamentModel, 'name' | 'teams' | 'placings'> &
    Partial<Pick<TournamentModel, 'format' | 'matches' | 'status' | 'tournamentId' | 'league'>>;
  /**
   * The venue screen's layout: the ranked teams split into this many side-by-side tables of
   * the columns a room reads from afar (rank, team, games, points, standing).
   */
  columns?: number;
  /** Each player's standing in a progressive evening (where they sit, or rest), by id, in place of the bracket's words. */
  standings?: ReadonlyMap<string, Standing>;
}

/** The standings table, ranked, with each team's standing in the competition and finished teams dimmed. */
export function Leaderboard({ tournament, columns, standings: given }: LeaderboardProps) {
  // Pools into a playoff: a table for each pool (views/pools-board.tsx).
  if (tournament.league?.pools) return <PoolsBoard tournament={tournament} screen={columns !== undefined} id={LEADERBOARD_ID} />;
  // A league's standings are its table, each tiebreak's value beside the matches won.
  if (tournament.league)
    return <LeagueBoard tournament={tournament} screen={columns !== undefined} id={LEADERBOARD_ID} {...(columns !== undefined ? { columns } : {})} />;
  const rows = rankedTeams(tournament);
  const reach = isIndividual(tournament) ? null : knockoutReach(tournament);
  const standings = teamStandings({
    teams: tournament.teams,
    placings: tournament.placings,
    matches: tournament.matches ?? [],
    status: tournament.status ?? 'running',
  });
  for (const [id, standing] of given ?? []) standings.set(id, standing);
  // Progressive tables keep individual running totals: each row is a player, its points the total.
  const individual = isIndividual(tournament);
  const compact = columns !== undefined;
  const parts = compact ? split(rows, Math.max(1, columns)) : [{ rows, from: 0 }];
  return (
    <section
      id={LEADERBOARD_ID}
      class={compact ? `leaderboard leaderboard--columns leaderboard--columns-${parts.length}` : 'leaderboard'}
      aria-labelledby="leaderboard-title"
    >
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
                  {/* A space between the header cells, so the row read as text (copied, or by a text reader) keeps "Points, tiebreak" and "Standing" apart. */}
                  <tr>
                    <th scope="col" class="num">
                      <abbr title="Rank">#</abbr>
                    </th>{' '}
                    <th scope="col" class="team-col">
                      {individual ? 'Player' : 'Team'}
                    </th>
                    {compact || individual ? null : (
                      <>
                        {' '}
                        <th scope="col" class="num minor">
                          <abbr title="Matches won–lost">Matches</abbr>
                        </th>
                      </>
                    )}
                    {individual ? null : (
                      <>
                        {' '}
                        <th scope="col" class={compact ? 'num' : 'num minor'}>
                          <abbr title="Games won–lost">Games</abbr>
                        </th>
                      </>
                    )}{' '}
                    <th scope="col" class={reach ? 'num tiebreak' : 'num'}>
                      {reach ? <abbr title="Points: only a tiebreak in a knockout">Points, tiebreak</abbr> : <abbr title="Points">Pts</abbr>}
                    </th>
                    {compact || individual ? null : (
                      <>
                        {' '}
                        <th scope="col" class="num minor">
                          Bags
                        </th>{' '}
                        <th scope="col" class="num minor">
                          Sets
                        </th>
                      </>
                    )}{' '}
                    <th scope="col">Standing</th>
                  </tr>
                </thead>
                <tbody>
                  {standingsRows(part.rows, standings, reach, { compact, individual, short: parts.length > 1, link: pageLink(tournament, compact) })}
                </tbody>
              </table>
            </div>
          ))}
        </div>
      )}
    </section>
  );
}

/** The ranked rows cut into `count` nearly equal runs, each remembering the rank it starts at. */
function split<T>(rows: readonly T[], count: number): { rows: T[]; from: number }[] {
  const size = Math.ceil(rows.length / count) || 1;
  const parts: { rows: T[]; from: number }[] = [];
  for (let i = 0; i < rows.length; i += size) parts.push({ rows: rows.slice(i, i + size), from: i });
  return parts.length > 0 ? parts : [{ rows: [], from: 0 }];
}

/**
 * The body rows, written with hono's html template rather than JSX: the standings are the largest
 * region re-rendered on each result, and the template renders them several times faster. Every
 * value is escaped by the template just as JSX escapes it.
 */
function standingsRows(
  rows: readonly { team: TeamRow; place: number | null }[],
  standings: ReadonlyMap<string, Standing>,
  reach: ReadonlyMap<string, BracketReach> | null,
  shape: { compact: boolean; individual: boolean; short: boolean; link: ((teamId: string) => string) | null },
) {
  return rows.map(({ team, place }) => {
    const classes = rowClass(team);
    const crown = team.status === 'champion' ? html`<span class="crown" aria-hidden="true">★ </span>` : '';
    const players = team.players.length > 0 && !shape.individual ? html`<span class="players">${team.players.join(' & ')}</span>` : '';
    const standing = standings.get(team.teamId) ?? { label: 'Playing', short: 'Playing', tone: 'playing' };
    // In a knockout the badge adds the round a team has reached, or the one it went out in (in
    // the TV's two or three narrow columns as "R3": their badge has room for a word and that).
    const round = reach ? reachText(reach.get(team.teamId)) : null;
    // The TV's columns take the short words with the round; a page has room for the full ones.
    const words = shape.short || (round !== null && shape.compact) ? standing.short : standing.label;
    // Words that already name the round ("Playing round 1") are not followed by it again.
    const namesRound = round !== null && words.toLowerCase().endsWith(round);
    const badge = shape.short
      ? shortBadge(words, round, standing.tone)
      : round === null || namesRound
        ? words
        : round.startsWith('out') && standing.tone === 'out'
          ? `${shape.compact ? 'Out' : 'Eliminated'} ${round.slice(4)}`
          : `${words}, ${round}`;
    const matches = shape.compact || shape.individual ? '' : html`<td class="num minor">${record(team.wins, team.losses)}</td>`;
    const games = shape.individual ? '' : html`<td class="num${shape.compact ? '' : ' minor'}">${record(team.gamesWon, team.gamesLost)}</td>`;
    // A player's total is the sum of round scores: a player keeps no bags or sets of their own.
    const extra = shape.compact || shape.individual ? '' : html`<td class="num minor">${team.bags}</td><td class="num minor">${team.sets}</td>`;
    return html`<tr${classes ? html` class="${classes}"` : ''} data-team="${team.teamId}"><td class="num rank">${place ?? '—'}</td><th scope="row" class="team-col"><span class="team-name">${crown}${shape.link ? html`<a class="team-link" href="${shape.link(team.teamId)}">${team.name}</a>` : team.name}</span>${players}</th>${matches}${games}<td class="num">${team.points}</td>${extra}<td class="status"><span class="badge badge--${standing.tone}" data-standing="${standing.tone}"${shape.short ? html` title="${standing.label}"` : ''}>${badge}</span></td></tr>`;
  });
}

/** Each row's own page (a team's, or a progressive player's); none on the venue screen, which nobody taps. */
function pageLink(tournament: LeaderboardProps['tournament'], compact: boolean): ((teamId: string) => string) | null {
  const id = tournament.tournamentId;
  if (compact || id === undefined) return null;
  return isIndividual(tournament) ? (teamId) => playerLink(id, teamId) : (teamId) => teamLink(id, teamId);
}

/**
 * A badge for the TV's narrow columns: the short word and the round in a few letters ("Out R2",
 * "Winners R3", "Losers LR2", "Out in final"); a word that already names the round ("Round 3")
 * stands alone.
 */
function shortBadge(words: string, round: string | null, tone: string): string {
  if (round === null) return words;
  const out = round.startsWith('out in ');
  const where = (out ? round.slice(7) : round)
    .replace(/^losers round (\d+)$/, 'LR$1')
    .replace(/^round (\d+)$/, 'R$1')
    .replace(/^the /, '');
  if (out) return tone === 'out' ? `Out ${where}` : `${words} ${where}`;
  return /^Round \d/.test(words) ? words : `${words} ${where}`;
}

function rowClass(team: TeamRow): string | undefined {
  if (team.status === 'champion') return 'is-champion';
  if (FINISHED_STATUSES.has(team.status)) return 'is-finished';
  return undefined;
}

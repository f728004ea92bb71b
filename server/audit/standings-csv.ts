/**
 * A tournament's standings as a CSV file (RFC 4180), ranked as the leaderboard ranks them: built
 * on the server's thread for the standings as they stand, on the reader's thread for a past position.
 */
import type { TeamRow, TournamentModel } from '../../events/read-models.ts';
import { csvText } from '../http/csv-text.ts';

const CSV_COLUMNS = ['rank', 'team_id', 'team', 'players', 'seed', 'status', 'wins', 'losses', 'games_won', 'games_lost', 'points', 'bags', 'sets'];

// A league's table adds what ranks it: each tiebreak's value and the one that placed a team below the one above.
const LEAGUE_COLUMNS = ['points_for', 'points_against', 'points_difference', 'head_to_head', 'opponents_match_win_share', 'placed_by', 'place_shared'];

/**
 * Standings as CSV (RFC 4180), ranked and placed as the leaderboard places them (a shared place
 * repeats its rank). A round robin's, Swiss or pools event's rows also carry its table's values
 * (`league`: the model's), with the pool in front where there are pools.
 */
export function standingsCsv(rows: readonly { team: TeamRow; place: number | null }[], league?: TournamentModel['league']): string {
  const table = new Map((league?.rows ?? []).map((row) => [row.teamId, row]));
  const poolOf = new Map((league?.pools ?? []).flatMap((pool) => pool.teams.map((team) => [team, pool.name] as const)));
  const lines = [[...(poolOf.size > 0 ? ['pool'] : []), ...CSV_COLUMNS, ...(league ? LEAGUE_COLUMNS : [])].join(',')];
  rows.forEach(({ team: row, place }) => {
    const cells = [
      place === null ? '' : String(place),
      csvText(row.teamId),
      csvText(row.name),
      csvText(row.players.join(' & ')),
      row.seed === null ? '' : String(row.seed),
      row.status,
      String(row.wins),
      String(row.losses),
      String(row.gamesWon),
      String(row.gamesLost),
      String(row.points),
      String(row.bags),
      String(row.sets),
    ];
    if (poolOf.size > 0) cells.unshift(csvText(poolOf.get(row.teamId) ?? ''));
    if (league) {
      const standing = table.get(row.teamId);
      cells.push(
        ...(standing
          ? [
              String(standing.pointsFor),
              String(standing.pointsAgainst),
              String(standing.difference),
              standing.headToHead === null ? '' : String(standing.headToHead),
              standing.opponentsWinShare === null ? '' : (standing.opponentsWinShare / 1000).toFixed(3),
              standing.separatedBy ?? '',
              standing.shared ? 'yes' : 'no',
            ]
          : LEAGUE_COLUMNS.map(() => '')),
      );
    }
    lines.push(cells.join(','));
  });
  return `${lines.join('\r\n')}\r\n`;
}

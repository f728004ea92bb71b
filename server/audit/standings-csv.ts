/**
 * A tournament's standings as a CSV file (RFC 4180), ranked as the leaderboard ranks them: built
 * on the server's thread for the standings as they stand, on the reader's thread for a past position.
 */
import type { TeamRow } from '../../events/read-models.ts';
import { csvText } from '../http/csv-text.ts';

const CSV_COLUMNS = ['rank', 'team_id', 'team', 'players', 'seed', 'status', 'wins', 'losses', 'games_won', 'games_lost', 'points', 'bags', 'sets'];

/** Standings as CSV (RFC 4180), ranked and placed as the leaderboard places them (a shared place repeats its rank). */
export function standingsCsv(rows: readonly { team: TeamRow; place: number | null }[]): string {
  const lines = [CSV_COLUMNS.join(',')];
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
    lines.push(cells.join(','));
  });
  return `${lines.join('\r\n')}\r\n`;
}

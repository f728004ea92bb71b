/**
 * A tournament's statistics as a CSV file (RFC 4180), beside the standings': a row for each team
 * and then one for each player, with the columns a player has no figure for left empty.
 */
import type { TournamentStatsPayload } from '../../events/stats-schema.ts';
import { csvText } from '../http/csv-text.ts';

const CSV_COLUMNS = [
  'kind',
  'team_id',
  'player_id',
  'name',
  'hands',
  'bid',
  'taken',
  'contracts_made',
  'contracts_set',
  'nils_bid',
  'nils_made',
  'blind_nils_bid',
  'blind_nils_made',
  'bostons',
  'bags',
  'bag_penalties',
  'reneges_claimed',
  'reneges_upheld',
  'best_hand',
];

/** The statistics as CSV: teams first, in the order they registered, then players. */
export function statsCsv(stats: TournamentStatsPayload | null): string {
  const lines = [CSV_COLUMNS.join(',')];
  for (const t of stats?.stats.teams ?? []) {
    const figures = [
      t.hands,
      t.bid,
      t.taken,
      t.contractsMade,
      t.contractsSet,
      t.nilsBid,
      t.nilsMade,
      t.blindNilsBid,
      t.blindNilsMade,
      t.bostons,
      t.bags,
      t.bagPenalties,
      t.renegesClaimed,
      t.renegesUpheld,
    ];
    lines.push(['team', csvText(t.teamId), '', csvText(t.name), ...figures.map(String), t.bestHand === null ? '' : String(t.bestHand)].join(','));
  }
  for (const p of stats?.stats.players ?? []) {
    const figures = [p.hands, p.bid, p.taken, '', '', p.nilsBid, p.nilsMade, p.blindNilsBid, p.blindNilsMade, '', '', '', '', '', ''];
    lines.push(['player', csvText(p.teamId ?? ''), csvText(p.playerId ?? ''), csvText(p.name), ...figures.map(String)].join(','));
  }
  return `${lines.join('\r\n')}\r\n`;
}

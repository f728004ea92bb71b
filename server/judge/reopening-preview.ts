/**
 * A reopening in the console's words: the consequences events/reopening.ts folded, turned into
 * the lists the confirmation shows. The standings after are the standings page's own ranking
 * and labels, read from the tournament as it would be.
 */
import type { Reopening } from '../../events/reopening.ts';
import { whereTeamStands } from '../../events/reopening.ts';
import type { StatsTotals } from '../../events/stats-schema.ts';
import type { PendingReopening } from '../../views/judge-console.tsx';
import { rankTeams, teamStandings } from '../../events/standings.ts';
import { record } from '../../views/team-standing.ts';

const COUNTED: [keyof StatsTotals, string][] = [
  ['games', 'Games counted'],
  ['hands', 'Hands counted'],
  ['contractsSet', 'Contracts set'],
  ['nilsMade', 'Nils made'],
  ['bostons', 'Bostons'],
  ['renegesUpheld', 'Reneges upheld'],
];

/** The confirmation of a reopening: what was asked, where the form posts again, and everything it changes. */
export function reopeningPreview(reopening: Reopening, asked: string, action: string, fields: Record<string, string>): PendingReopening {
  const after = reopening.after;
  const labels = teamStandings(after.model);
  const { before, after: now } = reopening.stats;
  return {
    asked,
    action,
    fields,
    reopened: reopening.reopened.map((r) => `${r.name}: was ${r.was}; now ${r.now}.`),
    voided: reopening.voided.map((v) => `${v.where}: ${v.result}.`),
    replayed: reopening.replayed.map((r) => `${r.name}, between the teams the bracket now puts there.`),
    moved: reopening.moved.map((m) => `${m.name}: ${m.from}, then ${m.to}.`),
    standings: rankTeams(after.model)
      .filter((row) => row.status !== 'withdrawn')
      .map((row) => ({
        name: row.name,
        record: record(row.wins, row.losses),
        stands: `${labels.get(row.teamId)?.label ?? 'Playing'}, ${whereTeamStands(after, row)}`,
      })),
    stats: COUNTED.map(([key, words]) => {
      const was = before[key] as number;
      const is = now[key] as number;
      return was === is ? `${words}: ${is}, unchanged` : `${words}: ${is}, was ${was}`;
    }),
  };
}

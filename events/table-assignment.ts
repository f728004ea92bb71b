/**
 * Which table a ready match starts at. The team's page, the table's phone, the director's desk
 * and the demo's table bots all seat a ready match by this one rule.
 */
import type { MatchModel } from './read-models.ts';

/**
 * The table each ready match is to be started at: the ready matches in the bracket's order go to
 * the free tables in number order (the first to the lowest-numbered table not playing a match,
 * and so on), as a table's phone may start them and the director's seating page would seat them.
 */
export function readyTables(matches: readonly MatchModel[]): Map<string, number> {
  const busy = new Set(matches.filter((m) => m.status === 'live').map((m) => m.table));
  const assigned = new Map<string, number>();
  let table = 1;
  for (const m of matches) {
    if (m.status !== 'ready') continue;
    while (busy.has(table)) table++;
    assigned.set(m.matchId, table++);
  }
  return assigned;
}

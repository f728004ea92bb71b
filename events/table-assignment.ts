/**
 * Which table a ready match starts at. The team's page, the table's phone, the director's desk
 * and the demo's table bots all seat a ready match by this one rule.
 */
import type { MatchModel } from './read-models.ts';

/**
 * The table each ready match is to be started at: the ready matches in the bracket's order go to
 * the free tables in number order (the first to the lowest-numbered table not playing a match,
 * and so on), as a table's phone may start them and the director's seating page would seat them.
 * A team plays one match at a time: a ready match of a team already playing, or already given a
 * table, waits for it (a round robin's later rounds are all ready from the start, and are seated
 * as their teams come free).
 */
export function readyTables(matches: readonly MatchModel[]): Map<string, number> {
  const live = matches.filter((m) => m.status === 'live');
  const busy = new Set(live.map((m) => m.table));
  const seated = new Set(live.flatMap((m) => m.teams));
  const assigned = new Map<string, number>();
  let table = 1;
  for (const m of matches) {
    if (m.status !== 'ready' || m.teams.some((t) => t !== null && seated.has(t))) continue;
    while (busy.has(table)) table++;
    assigned.set(m.matchId, table++);
    for (const t of m.teams) if (t !== null) seated.add(t);
  }
  return assigned;
}

/**
 * The standings' numbers as the room writes them: points with a true minus sign, a win–loss
 * pair, and the round a team's standing adds in a knockout. Where a team stands is decided in
 * events/standings.ts; these only word it.
 */
import type { BracketReach } from '../events/standings.ts';

/** Points as printed: a score below zero with a true minus sign ("−20", not "-20"). */
export function pointsText(points: number): string {
  return points < 0 ? `−${-points}` : String(points);
}

/** Two teams' points side by side: "100 to −20" (a dash between them read "100–-20"). */
export function pointsPair(a: number, b: number): string {
  return `${pointsText(a)} to ${pointsText(b)}`;
}

/** A win–loss pair as the room writes it: "2–1". */
export function record(won: number, lost: number): string {
  return `${won}–${lost}`;
}

/** The round a team's standing adds in a knockout: "round 3" while it plays, "out in round 2" once out. */
export function reachText(reach: BracketReach | undefined): string | null {
  if (!reach?.round) return null;
  // The badge already names the losers' bracket: its round number is enough beside it.
  if (reach.tier === 1) return reach.round.replace(/^losers /, '');
  if (reach.tier === 3) return `out in ${reach.round}`;
  return null;
}

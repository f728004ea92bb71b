/**
 * How a match held by a claim waiting for a ruling is told: "Waiting for a ruling on table 6 for
 * 4 minutes". The hold itself is the tournament projection's (MatchModel.awaitingRuling); how long
 * it has waited is counted from the claim's recorded time to the `now` the caller passes in.
 */
import type { MatchModel } from './read-models.ts';

/** How long from `since` to `now`, in words: "for less than a minute", "for 4 minutes", "for 1 hour 5 minutes". */
export function waitedWords(since: string, now: string): string {
  const minutes = Math.floor(Math.max(0, Date.parse(now) - Date.parse(since)) / 60_000);
  if (!Number.isFinite(minutes) || minutes < 1) return 'for less than a minute';
  const m = minutes % 60;
  const h = Math.floor(minutes / 60);
  const part = (n: number, unit: string) => `${n} ${unit}${n === 1 ? '' : 's'}`;
  if (h === 0) return `for ${part(m, 'minute')}`;
  return `for ${part(h, 'hour')}${m > 0 ? ` ${part(m, 'minute')}` : ''}`;
}

/** Where the match is played, as people name it: "table 6", or the match itself before it is seated. */
function whereOf(match: Pick<MatchModel, 'table' | 'label'>): string {
  return match.table !== null ? `table ${match.table}` : match.label;
}

/**
 * The waiting line in its parts, so a page can keep the time ticking (static/clock.js writes
 * `waited` again from `since` as waitedWords does): "Waiting for a ruling on table 6", the
 * claim's recorded time, "for 4 minutes". Null when nothing waits.
 */
export interface WaitingParts {
  lead: string;
  since: string;
  waited: string;
}

export function waitingParts(match: Pick<MatchModel, 'table' | 'label' | 'awaitingRuling'>, now: string): WaitingParts | null {
  const awaiting = match.awaitingRuling;
  if (!awaiting) return null;
  return { lead: `Waiting for a ruling on ${whereOf(match)}`, since: awaiting.since, waited: waitedWords(awaiting.since, now) };
}

/**
 * The line every page shows for a match whose result waits for a ruling, or null when nothing
 * waits: "Waiting for a ruling on table 6 for 4 minutes".
 */
export function waitingLine(match: Pick<MatchModel, 'table' | 'label' | 'awaitingRuling'>, now: string): string | null {
  const parts = waitingParts(match, now);
  return parts ? `${parts.lead} ${parts.waited}` : null;
}

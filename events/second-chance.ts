/**
 * A second-chance bracket (single elimination with `consolation: 'first-round'`) as the standings
 * page tells it, apart from the main bracket: the first round's losers in it, who is still in,
 * and once the event is over its own places with their prizes.
 */
import type { TournamentModel } from './read-models.ts';

export interface SecondChance {
  /** The teams in it so far, in the order they came into it. */
  teams: string[];
  /** The teams in it not yet beaten there. */
  stillIn: string[];
  /** Its own places once the event is finished, best first, each with its prize; empty before. */
  places: { place: number; teams: string[]; prize: string | null }[];
}

/** The tournament's second-chance bracket; null when it has none. */
export function secondChanceOf(model: Pick<TournamentModel, 'matches' | 'secondChance' | 'secondChancePrizes'>): SecondChance | null {
  const matches = model.matches.filter((m) => m.side === 'consolation');
  if (matches.length === 0) return null;
  const teams: string[] = [];
  const beaten = new Set<string>();
  for (const m of matches) {
    for (const t of m.teams) if (t !== null && !teams.includes(t)) teams.push(t);
    if ((m.status === 'done' || m.status === 'forfeit') && m.winner !== null) for (const t of m.teams) if (t !== null && t !== m.winner) beaten.add(t);
  }
  const places: SecondChance['places'] = [];
  for (const { place, teamId } of model.secondChance ?? []) {
    const at = places.find((p) => p.place === place);
    if (at) at.teams.push(teamId);
    else places.push({ place, teams: [teamId], prize: model.secondChancePrizes?.find((p) => p.place === place)?.prize ?? null });
  }
  return { teams, stillIn: teams.filter((t) => !beaten.has(t)), places };
}

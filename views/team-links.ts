/** The addresses of a team's own page and a progressive player's, and the names that go on them, for every view that links them. */
import type { TournamentModel } from '../events/read-models.ts';

/** A team's own page. */
export function teamLink(tournamentId: string, teamId: string): string {
  return `/tournaments/${encodeURIComponent(tournamentId)}/teams/${encodeURIComponent(teamId)}`;
}

/** A player's own page in a progressive evening. */
export function playerLink(tournamentId: string, playerId: string): string {
  return `/tournaments/${encodeURIComponent(tournamentId)}/players/${encodeURIComponent(playerId)}`;
}

/**
 * Each team's name by its id, for the components that print a game's teams. It answers only to
 * the ids it holds: a game of its own names its sides with whatever its import gave, and a side
 * called `constructor` or `__proto__` must find no name here rather than an object's machinery.
 */
export function teamNames(tournament: TournamentModel | undefined): Record<string, string> {
  const names = Object.create(null) as Record<string, string>;
  for (const t of tournament?.teams ?? []) names[t.teamId] = t.name;
  // A progressive table's sides are pairs of players for one round, `a+b`: named by their players.
  for (const match of tournament?.matches ?? []) {
    for (const id of match.teams) if (id && id.includes('+') && !names[id]) names[id] = id.split('+').map((p) => names[p] ?? p).join(' & ');
  }
  return names;
}

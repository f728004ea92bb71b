/** The addresses of a team's own page and a progressive player's, for every view that links them. */

/** A team's own page. */
export function teamLink(tournamentId: string, teamId: string): string {
  return `/tournaments/${encodeURIComponent(tournamentId)}/teams/${encodeURIComponent(teamId)}`;
}

/** A player's own page in a progressive evening. */
export function playerLink(tournamentId: string, playerId: string): string {
  return `/tournaments/${encodeURIComponent(tournamentId)}/players/${encodeURIComponent(playerId)}`;
}

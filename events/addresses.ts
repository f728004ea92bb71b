/**
 * The addresses of the pages the read models are shown at: a tournament's pages, a team's and a
 * progressive player's own page, and a hand's replay. In one place below both the pages and the
 * read API, so a link on a page, a link in the API and the route that answers it agree.
 */

/** The addresses of a tournament's pages, in one place so links and routes agree. */
export function tournamentLinks(tournamentId: string) {
  const base = `/tournaments/${encodeURIComponent(tournamentId)}`;
  return {
    home: base,
    leaderboard: `${base}/leaderboard`,
    bracket: `${base}/bracket`,
    screen: `${base}/screen`,
    rules: `${base}/rules`,
    /** A game's own page: its table as the room sees it (seats, bids, the trick, the score pad). */
    game: (gameId: string) => `${base}/games/${encodeURIComponent(gameId)}`,
  };
}

/** A team's own page. */
export function teamLink(tournamentId: string, teamId: string): string {
  return `/tournaments/${encodeURIComponent(tournamentId)}/teams/${encodeURIComponent(teamId)}`;
}

/** A player's own page in a progressive evening. */
export function playerLink(tournamentId: string, playerId: string): string {
  return `/tournaments/${encodeURIComponent(tournamentId)}/players/${encodeURIComponent(playerId)}`;
}

/** The address of a hand's replay, at a step (the deal and bids when not given). */
export function replayLink(gameId: string, hand: number, step?: number): string {
  return `/games/${encodeURIComponent(gameId)}/hands/${hand}/replay${step === undefined ? '' : `?step=${step}`}`;
}

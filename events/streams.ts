/**
 * How the ledger's streams and game ids are named: one stream per tournament, per match and per
 * game. Every writer names them here, so a game entered at a table and one imported from a
 * paper record land in the same stream.
 */

/** The stream of a tournament's set-up, registration and officiating. */
export function tournamentStream(tournamentId: string): string {
  return `tournament-${tournamentId}`;
}

/** The stream of a bracket match: its seating, clock and time calls. */
export function matchStream(tournamentId: string, matchId: string): string {
  return `match-${tournamentId}-${matchId}`;
}

/** The stream a game's deals, bids, cards, claims and rulings live in. */
export function gameStream(gameId: string): string {
  return `game-${gameId}`;
}

/** The id of game `number` (1-based) of a tournament's match. */
export function matchGameId(tournamentId: string, matchId: string, number: number): string {
  return `${tournamentId}-${matchId}-g${number}`;
}

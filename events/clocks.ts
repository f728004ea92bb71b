/**
 * Which clock times a game. A match may be timed as a whole or each of its games on its own
 * (asher); the pages, the read API and the entry phone all ask the same question here.
 */

export interface MatchClock {
  /** ISO time the clock started. */
  startedAt: string;
  minutes: number;
  /** ISO time time was called; null while the clock runs. */
  calledAt: string | null;
  /** The game the clock times when each game has its own (asher); absent for a match clock. */
  gameId?: string;
}

/**
 * The clock that times a game: the match's clock, or the game's own. A game's own clock belongs
 * to that game alone, so an earlier game's page shows none once the next game's clock runs.
 */
export function clockOfGame(clock: MatchClock | null | undefined, gameId: string): MatchClock | null {
  if (!clock) return null;
  return clock.gameId === undefined || clock.gameId === gameId ? clock : null;
}

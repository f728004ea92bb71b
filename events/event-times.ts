/**
 * When a tournament, its matches and its games were created, started and completed, from the
 * ledger's own times (each event's `at`, as it was appended): a results archive's dates. Noted
 * after each event is folded, from what the fold made of it, so the times follow the rules the
 * projections already apply (a match is started once seated or played, completed once decided)
 * and a reopened match or game is completed again only when it is decided again.
 */
import type { GameModel, MatchModel } from './read-models.ts';
import type { TournamentState } from './tournament-state.ts';

/** When something started and completed; null until it has (and again while it is reopened). */
export interface Span {
  startedAt: string | null;
  completedAt: string | null;
}

/** A tournament's times, and each of its matches' by match id. */
export interface TournamentTimes extends Span {
  createdAt: string;
  matches: Record<string, Span>;
}

const DECIDED = new Set<MatchModel['status']>(['done', 'forfeit']);

/**
 * Notes what the event appended at `at()` started or completed in the tournament. The time is
 * asked for only when something takes it: reading it can cost a read of the stored row.
 */
export function noteTournamentTimes(state: TournamentState, at: () => string): void {
  const times = (state.times ??= { createdAt: at(), startedAt: null, completedAt: null, matches: {} });
  const status = state.model.status;
  if (status !== 'registration') times.startedAt ??= at();
  times.completedAt = status === 'finished' ? (times.completedAt ?? at()) : null;
  for (const match of state.model.matches) {
    const span = (times.matches[match.matchId] ??= { startedAt: null, completedAt: null });
    if (match.status === 'live' || match.games.length > 0) span.startedAt ??= at();
    span.completedAt = DECIDED.has(match.status) ? (span.completedAt ?? at()) : null;
  }
}

/** Notes what the event appended at `at()` started or completed in the game; true when it completed or reopened it. */
export function noteGameTimes(game: GameModel, at: () => string): boolean {
  const times = (game.times ??= { startedAt: at(), completedAt: null });
  const before = times.completedAt;
  times.completedAt = game.winner !== null || game.abandoned ? (times.completedAt ?? at()) : null;
  return times.completedAt !== before;
}

/**
 * Entries within a hand: they start no match (its game started it) and decide none unless they
 * end their game, so after one that ends no game no tournament's times can have moved.
 */
export const WITHIN_A_HAND: ReadonlySet<string> = new Set(['HandDealt', 'BidMade', 'CardPlayed', 'TricksRecorded', 'MisdealCalled']);

/** A match's times, as noted; both null for a match not seen yet. */
export function matchTimes(state: TournamentState, matchId: string): Span {
  const span = state.times?.matches[matchId];
  return { startedAt: span?.startedAt ?? null, completedAt: span?.completedAt ?? null };
}

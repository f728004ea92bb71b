/**
 * Which tournament the venue's `/screen` address shows: the one a director pinned last
 * (ScreenPinned, folded into each tournament's state), or, until a director pins one, the
 * newest tournament.
 */
import type { ReadModels } from './projections.ts';

/** The id of the tournament `/screen` shows, or null when there is none. */
export function pinnedTournament(models: Pick<ReadModels, 'tournaments' | 'currentTournament'>): string | null {
  let pinned: string | null = null;
  let at = 0;
  for (const [id, state] of Object.entries(models.tournaments)) {
    if ((state.screenPinnedAt ?? 0) > at) {
      at = state.screenPinnedAt!;
      pinned = id;
    }
  }
  return pinned ?? models.currentTournament;
}

/** Whether a director has pinned a tournament to `/screen` (rather than it following the newest). */
export function screenIsPinned(models: Pick<ReadModels, 'tournaments'>): boolean {
  return Object.values(models.tournaments).some((state) => (state.screenPinnedAt ?? 0) > 0);
}

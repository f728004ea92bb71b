/**
 * Which tournament the venue's `/screen` address shows: the one a director pinned last
 * (ScreenPinned, folded into each tournament's state), or, until a director pins one, the
 * tournament being played (`screenDefault`: the first created, then the first to start; never
 * one merely created later).
 */
import type { ReadModels } from './projections.ts';

/** The id of the tournament `/screen` shows, or null when there is none. */
export function pinnedTournament(models: Pick<ReadModels, 'tournaments' | 'screenDefault'>): string | null {
  let pinned: string | null = null;
  let at = 0;
  for (const [id, state] of Object.entries(models.tournaments)) {
    if ((state.screenPinnedAt ?? 0) > at) {
      at = state.screenPinnedAt!;
      pinned = id;
    }
  }
  return pinned ?? models.screenDefault;
}

/** Whether a director has pinned a tournament to `/screen` (rather than it showing the one being played). */
export function screenIsPinned(models: Pick<ReadModels, 'tournaments'>): boolean {
  return Object.values(models.tournaments).some((state) => (state.screenPinnedAt ?? 0) > 0);
}

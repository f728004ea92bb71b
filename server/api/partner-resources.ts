/**
 * Drawn partners as the read API gives them: what an odd player does, and the draw once made,
 * each player named as the person across events beside the id they registered under here.
 */
import type { PersonOf } from '../../events/player-ids.ts';
import type { TournamentState } from '../../events/tournament-state.ts';

/** The tournament resource's `partners`: null when teams register together. */
export function partnersOf(state: TournamentState, personOf: PersonOf) {
  const partners = state.partners;
  if (!partners) return null;
  const draw = partners.draw;
  const nameOf = (id: string) => partners.players.find((p) => p.teamId === id)?.name ?? id;
  const player = (id: string) => ({ playerId: personOf(id), entrantId: id, name: nameOf(id) });
  return {
    drawn: draw !== null,
    seed: draw?.seed ?? null,
    odd: draw?.odd ?? state.format.oddPlayer ?? 'sit-out',
    teams: (draw?.teams ?? []).map((t) => ({ teamId: t.teamId, name: t.name, players: t.players.map(player) })),
    sittingOut: draw?.sittingOut ? player(draw.sittingOut) : null,
    twice: draw?.twice ? player(draw.twice) : null,
  };
}

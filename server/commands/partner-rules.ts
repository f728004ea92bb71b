/**
 * What a drawn-partner event takes at each moment: before the draw, players alone (never a team)
 * and their check-ins; after it, no registration or check-in, since the teams are made; and no
 * start until partners are drawn. Asked by registration, check-in and the start alike.
 */
import type { TournamentState } from '../../events/tournament-projection.ts';

/** Why a drawn-partner event cannot take a team, a check-in or a start now; null where it can. */
export function drawnPartnersProblem(
  tournament: TournamentState,
  doing: 'register a team' | 'check in' | 'undo a check-in' | 'register' | 'start',
): string | null {
  const partners = tournament.partners;
  if (!partners) return null;
  const name = tournament.model.name;
  if (doing === 'register a team') {
    return `players register alone for ${name}, and partners are drawn once check-in closes; register each player on their own`;
  }
  if (!partners.draw) {
    return doing === 'start' ? `partners for ${name} are not drawn yet; once check-in closes, draw partners, then start` : null;
  }
  if (doing === 'start') return null;
  if (doing === 'register') return `partners for ${name} are drawn, so registration is closed`;
  return `partners for ${name} are drawn from the players checked in, so check-in is closed`;
}

/**
 * A player's own page in an event whose partners are drawn: before the draw, that they are
 * registered and what happens next; after it, who their drawn partner is and what their team
 * does next (a player left over by an odd count plays on two teams, each said, or sits out).
 * The team's own page says the rest; this one leads there.
 */
import type { TournamentState } from '../events/tournament-state.ts';
import type { GameModel } from '../events/read-models.ts';
import { teamLink } from '../events/addresses.ts';
import { PLAYER_STATUS_ID } from './team-page.tsx';
import { teamPageModel } from './team-page-model.ts';

export interface DrawnPlayerModel {
  tournamentId: string;
  tournamentName: string;
  playerId: string;
  name: string;
  /** The large line: "Your partner: Bob Baker". */
  headline: string;
  detail: string | null;
  /** Each team the draw put the player on, with its partner and what it does next. */
  teams: { teamId: string; name: string; partner: string; next: string; link: string }[];
}

/** A drawn-partner event's player's page, or null when the event draws no partners or holds no such player. */
export function drawnPlayerModel(state: TournamentState, games: Readonly<Record<string, GameModel>>, playerId: string, now?: string): DrawnPlayerModel | null {
  const partners = state.partners;
  if (!partners) return null;
  const draw = partners.draw;
  const row = draw ? partners.players.find((p) => p.teamId === playerId) : state.model.teams.find((t) => t.teamId === playerId);
  if (!row) return null;
  const base = { tournamentId: state.model.tournamentId, tournamentName: state.model.name, playerId, name: row.name };
  if (!draw) {
    const withdrawn = state.withdrawn.includes(playerId);
    return {
      ...base,
      headline: withdrawn ? 'Withdrawn' : 'Registered: your partner is drawn once check-in closes',
      detail: withdrawn ? null : state.checkedIn.includes(playerId) ? 'You are checked in.' : 'Check in when you arrive: only players checked in are drawn.',
      teams: [],
    };
  }
  const nameOf = (id: string) => partners.players.find((p) => p.teamId === id)?.name ?? id;
  const teams = draw.teams
    .filter((t) => t.players.includes(playerId))
    .map((t) => {
      const partner = nameOf(t.players.find((p) => p !== playerId) ?? t.players[0]);
      const page = teamPageModel(state, games, t.teamId, now);
      return { teamId: t.teamId, name: t.name, partner, next: page?.next.headline ?? '', link: teamLink(state.model.tournamentId, t.teamId) };
    });
  if (teams.length === 0) {
    const satOut = draw.sittingOut === playerId;
    return {
      ...base,
      headline: satOut ? 'You sit out: the draw left you without a partner' : 'Not drawn',
      detail: satOut ? 'With an odd number of players checked in, one sits out; the director chose so.' : 'Only players checked in are drawn.',
      teams: [],
    };
  }
  const partnersSaid = teams.map((t) => t.partner).join(' and ');
  return {
    ...base,
    headline: `Your partner${teams.length > 1 ? 's' : ''}: ${partnersSaid}`,
    detail: teams.length > 1 ? 'With an odd number of players checked in, you play on two teams, one with each partner.' : null,
    teams,
  };
}

/** Everything a drawn-partner player's page shows, as one region its stream replaces. */
export function DrawnPlayerStatus({ model }: { model: DrawnPlayerModel }) {
  return (
    <section id={PLAYER_STATUS_ID} class="team-status" aria-labelledby="player-name" data-drawn-player>
      <h1 id="player-name" class="team-status-name">
        {model.name}
      </h1>
      <div class="team-next" role="status">
        <p class="team-next-headline">{model.headline}</p>
        {model.detail ? <p class="team-next-detail">{model.detail}</p> : null}
      </div>
      {model.teams.length > 0 ? (
        <ul class="team-results" aria-label="Your team">
          {model.teams.map((t) => (
            <li data-team={t.teamId}>
              <a href={t.link}>{t.name}</a>
              {t.next ? `: ${t.next}` : ''}
            </li>
          ))}
        </ul>
      ) : null}
    </section>
  );
}

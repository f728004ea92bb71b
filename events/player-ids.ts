/**
 * Who a player is within one event, as an id a program can hold on to while names are only
 * words. In a progressive evening a player registers alone, and the id is the one registered
 * (PlayerRegistered's `playerId`). In a team event the ledger knows a player only as a name on
 * a team's roster, which TeamRegistered (or the waitlist entry it was promoted from) fixes once
 * and nothing changes afterwards: the id is the team's id, a colon and the player's place on
 * that roster as registered, `team3:1` or `team3:2`. A drawn team's players registered alone
 * before the draw, and keep the ids they registered under (TeamRow's `playerIds`). Either way it names one person for the
 * whole event, in its entrants, its games' seats and its statistics. These ids are the event's
 * entries; across events a person is named by the circuit's `playerId` (player-identity.ts),
 * which the read API gives: `personOf` turns an entry into it.
 */
import { type Seat, SEATS, teamOf } from '../engine/cards.ts';
import type { GameModel, TeamRow } from './read-models.ts';
import { parseProgressiveMatchId } from './progressive-projection.ts';
import { type TournamentState, entrantsAlone } from './tournament-state.ts';

/** A player as the API names them: the event's id for them (null where the event does not know them) and their name. */
export interface PlayerRef {
  playerId: string | null;
  name: string;
}

/** A team event's player id: the team's id and the place on its roster as registered (from 0 here, from 1 in the id). */
export function teamPlayerId(teamId: string, index: number): string {
  return `${teamId}:${index + 1}`;
}

/** How an entry's id reads where a person is meant: the entry itself, or the person across events. */
export type PersonOf = (entry: string) => string;
const asEntry: PersonOf = (entry) => entry;

/** The event's id for the player at a place (from 0) of a team's roster: a drawn team's player's own, else the team's id and the place. */
export function rosterPlayerId(team: Pick<TeamRow, 'teamId' | 'playerIds'>, index: number): string {
  return team.playerIds?.[index] ?? teamPlayerId(team.teamId, index);
}

/** A team's players with their ids, in roster order. */
export function rosterOf(team: Pick<TeamRow, 'teamId' | 'players' | 'playerIds'>, personOf: PersonOf = asEntry): { playerId: string; name: string }[] {
  return team.players.map((name, i) => ({ playerId: personOf(rosterPlayerId(team, i)), name }));
}

/** The event's ids for an entrant's players: a player registered alone (not yet on a drawn team), else the team's roster. */
export function entriesOf(state: Pick<TournamentState, 'format' | 'partners'>, row: Pick<TeamRow, 'teamId' | 'players' | 'playerIds'>): string[] {
  return entrantsAlone(state) ? [row.teamId] : row.players.map((_, i) => rosterPlayerId(row, i));
}

/**
 * The player at each seat of a game, by the event's id for them. A team's first player sits N
 * (or E) and the second S (or W), as a match seats them; a game entered from a record may seat
 * them otherwise, so a seat's name is found on its side's roster when it is not the expected one.
 */
export function seatedPlayers(
  state: TournamentState | undefined,
  game: Pick<GameModel, 'matchId' | 'teams' | 'seats'>,
  personOf: PersonOf = asEntry,
): Partial<Record<Seat, PlayerRef>> {
  const players: Partial<Record<Seat, PlayerRef>> = {};
  const progressive = state?.progressive;
  const at = progressive && game.matchId ? parseProgressiveMatchId(game.matchId) : null;
  const seating = at ? progressive!.rounds[at.round - 1]?.seating.find((t) => t.table === at.table) : undefined;
  for (const seat of SEATS) {
    const name = game.seats[seat];
    if (name === undefined) continue;
    if (progressive) {
      const entry = seating?.seats[seat];
      players[seat] = { playerId: entry === undefined ? null : personOf(entry), name };
      continue;
    }
    const teamId = game.teams[teamOf(seat)];
    const row = state?.model.teams.find((t) => t.teamId === teamId);
    const roster = row?.players ?? [];
    const expected = seat === 'N' || seat === 'E' ? 0 : 1;
    const index = roster[expected] === name ? expected : roster.indexOf(name);
    players[seat] = { playerId: index < 0 ? null : personOf(row ? rosterPlayerId(row, index) : teamPlayerId(teamId, index)), name };
  }
  return players;
}

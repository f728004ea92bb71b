/**
 * Registration in the tournament projection: teams and players entered, checked in, waitlisted,
 * promoted from the waitlist and withdrawn before the start. Sign-up, fees and check-in codes are
 * kept in registration-projection.ts.
 */
import type { CheckInUndone, PartnersDrawn, PlayerRegistered, TeamCheckedIn, TeamRegistered, TeamWithdrawn, WaitlistPromoted } from './event-catalogue.ts';
import { playerRegistered as progressivePlayerRegistered, playerWithdrawn } from './progressive-projection.ts';
import { entrantRegistered, waiting } from './registration-projection.ts';
import { type TournamentState, newRow } from './tournament-state.ts';

/** A team entered the event. */
export function teamRegistered(state: TournamentState, e: TeamRegistered): void {
  state.model.teams.push(newRow(e.teamId, e.name, e.players));
  entrantRegistered(state.registration, e.teamId, e.fee, e.codeSeed);
}

/** A player entered the event (progressive evenings enter players, not teams). */
export function playerRegistered(state: TournamentState, e: PlayerRegistered): void {
  state.model.teams.push(newRow(e.playerId, e.name, [e.name]));
  entrantRegistered(state.registration, e.playerId, e.fee, e.codeSeed);
  if (state.progressive) progressivePlayerRegistered(state.progressive, e);
}

/** A team checked in at the venue; the first check-in stands. */
export function teamCheckedIn(state: TournamentState, e: TeamCheckedIn): void {
  if (!state.checkedIn.includes(e.teamId)) state.checkedIn.push(e.teamId);
  if (e.by) state.registration.checkedInBy[e.teamId] = e.by;
}

/** A check-in taken back: the entrant is no longer counted as here. */
export function checkInUndone(state: TournamentState, e: CheckInUndone): void {
  state.checkedIn = state.checkedIn.filter((t) => t !== e.teamId);
  delete state.registration.checkedInBy[e.teamId];
}

/** A waitlisted entrant takes a place among the entrants; false when no one of that id waits. */
export function waitlistPromoted(state: TournamentState, e: WaitlistPromoted): boolean {
  const entry = waiting(state.registration, e.teamId);
  if (!entry) return false;
  entry.promoted = true;
  state.model.teams.push(newRow(entry.teamId, entry.name, entry.players));
  entrantRegistered(state.registration, entry.teamId, entry.fee, entry.codeSeed);
  if (state.progressive) {
    progressivePlayerRegistered(state.progressive, {
      tournamentId: state.model.tournamentId,
      playerId: entry.teamId,
      name: entry.name,
      fee: entry.fee,
      ...(entry.gender ? { gender: entry.gender } : {}),
    });
  }
  return true;
}

/** An entrant withdrew; true when it held a place among the entrants, false when it only left the waitlist. */
export function teamWithdrawn(state: TournamentState, e: TeamWithdrawn): boolean {
  // A waitlisted entrant leaves the waitlist; it holds no place among the entrants.
  const entry = waiting(state.registration, e.teamId);
  if (entry) {
    entry.withdrawn = true;
    return false;
  }
  state.withdrawn.push(e.teamId);
  if (state.progressive) playerWithdrawn(state.progressive, e.teamId);
  return true;
}

/**
 * Partners were drawn: the players' rows leave the entrants for the drawn teams', each team
 * checked in (its players were), its roster the players' names and the ids they registered
 * under. False when the event draws no partners or has drawn them already.
 */
export function partnersDrawn(state: TournamentState, e: PartnersDrawn): boolean {
  const partners = state.partners;
  if (!partners || partners.draw || state.model.status !== 'registration') return false;
  partners.draw = e;
  partners.players = state.model.teams;
  const byId = new Map(partners.players.map((p) => [p.teamId, p]));
  state.model.teams = e.teams.map((t) => {
    const row = newRow(
      t.teamId,
      t.name,
      t.players.map((p) => byId.get(p)?.name ?? p),
    );
    row.playerIds = [...t.players];
    return row;
  });
  state.checkedIn = e.teams.map((t) => t.teamId);
  delete state.model.alone;
  return true;
}

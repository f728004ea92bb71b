/**
 * A person's record across events: every event they entered with its place and record, their
 * partners and the results with each, the statistics of every hand they played summed over the
 * events, and their rating with its history. Derived from the read models each time, so a merge
 * or split of records, a correction or a ruling moves it, and models folded to a past position
 * give the record as it stood then.
 */
import { SEATS, teamOf } from '../engine/cards.ts';
import { own, tournamentById } from './lookup.ts';
import { type Person, entryOf, personById, personOfEntry } from './player-identity.ts';
import { seatedPlayers } from './player-ids.ts';
import { type TournamentState, entrantsAlone } from './tournament-state.ts';
import type { TeamRow } from './read-models.ts';
import type { ReadModels } from './projections.ts';
import { type PlayerRating, RATING_START, ratingsOf } from './rating-projection.ts';
import { addLine, emptySeatLine } from './stats-projection.ts';
import type { SeatStatLine } from './stats-projection.ts';

/** One event a person entered. */
export interface PlayerEvent {
  tournamentId: string;
  name: string;
  status: 'registration' | 'running' | 'finished';
  /** The event's own id for the player (`team3:1`, or a progressive evening's player id). */
  entry: string;
  /** Their team in a team event; null in a progressive evening, where partners change each round. */
  team: { teamId: string; name: string } | null;
  partner: { playerId: string; name: string } | null;
  /** Their place once the event's placings are decided; null before (or when none was given). */
  place: number | null;
  wins: number;
  losses: number;
  gamesWon: number;
  gamesLost: number;
  withdrawn: boolean;
  /** The series the event counts toward, if any. */
  seriesId: string | null;
}

/** A partner and the results played with them. */
export interface PartnerLine {
  playerId: string;
  name: string;
  events: number;
  gamesWon: number;
  gamesLost: number;
  /** The best place finished together; null without one. */
  best: number | null;
}

/** A person's hands summed over every event: their seat's counts, and their side's bags, sets and reneges upheld. */
export interface PlayerTotals extends SeatStatLine {
  games: number;
  bags: number;
  sets: number;
  renegesUpheld: number;
}

export interface PlayerRecord {
  playerId: string;
  name: string;
  /** Other ids that were merged into this person, which lead here. */
  alsoKnownAs: string[];
  events: PlayerEvent[];
  partners: PartnerLine[];
  totals: PlayerTotals;
  rating: PlayerRating;
}

/** A person's record, or undefined when the ledger holds no such person. A merged id gives the record it was merged into. */
export function playerRecord(models: ReadModels, playerId: string): PlayerRecord | undefined {
  const person = personById(models.circuit, playerId);
  if (!person) return undefined;
  const events = person.entries.flatMap((key) => eventLines(models, key));
  const partners = new Map<string, PartnerLine>();
  for (const event of events) {
    if (!event.partner || event.withdrawn) continue;
    let line = partners.get(event.partner.playerId);
    if (!line) partners.set(event.partner.playerId, (line = { ...event.partner, events: 0, gamesWon: 0, gamesLost: 0, best: null }));
    line.events++;
    line.gamesWon += event.gamesWon;
    line.gamesLost += event.gamesLost;
    if (event.place !== null && (line.best === null || event.place < line.best)) line.best = event.place;
  }
  const rating = ratingsOf(models).get(person.playerId) ?? { playerId: person.playerId, ...RATING_START, games: 0, history: [] };
  return {
    playerId: person.playerId,
    name: person.name,
    alsoKnownAs: mergedInto(models, person),
    events,
    partners: [...partners.values()].sort((a, b) => b.events - a.events || a.name.localeCompare(b.name, 'en')),
    totals: totalsOf(models, person),
    rating,
  };
}

function mergedInto(models: ReadModels, person: Person): string[] {
  return Object.values(models.circuit.people)
    .filter((p) => p.mergedInto !== undefined && personById(models.circuit, p.playerId) === person)
    .map((p) => p.playerId)
    .sort();
}

/** The lines of one entry: one, or, for a drawn player, one for each team drawn with them (none when they sat out). */
function eventLines(models: ReadModels, key: string): PlayerEvent[] {
  const { tournamentId, entry } = entryOf(key);
  const state = tournamentById(models, tournamentId);
  if (!state) return [];
  if (state.partners?.draw) {
    const model = state.model;
    return model.teams
      .filter((t) => t.playerIds?.includes(entry))
      .map((row) => {
        const other = row.playerIds!.find((p) => p !== entry);
        const partner = other === undefined ? undefined : personOfEntry(models.circuit, tournamentId, other);
        return lineOf(models, state, entry, row, { teamId: row.teamId, name: row.name }, partner ? { playerId: partner.playerId, name: partner.name } : null);
      });
  }
  const line = eventLine(models, state, entry);
  return line ? [line] : [];
}

/** The line of an entry registered as a team's player, or alone. */
function eventLine(models: ReadModels, state: TournamentState, entry: string): PlayerEvent | undefined {
  const { model } = state;
  const { tournamentId } = model;
  // A player registered alone (a progressive evening's, or one whose partner is not drawn yet) is their own entrant.
  const progressive = entrantsAlone(state);
  const teamId = progressive ? entry : entry.slice(0, entry.lastIndexOf(':'));
  const row = model.teams.find((t) => t.teamId === teamId);
  // An entrant still on the waitlist (or who left it) has no row: it never took a place.
  if (!row) return undefined;
  let partner: PlayerEvent['partner'] = null;
  if (!progressive) {
    const index = Number(entry.slice(entry.lastIndexOf(':') + 1)) - 1;
    const other = personOfEntry(models.circuit, tournamentId, `${teamId}:${index === 0 ? 2 : 1}`);
    if (other) partner = { playerId: other.playerId, name: other.name };
  }
  return lineOf(models, state, entry, row, progressive ? null : { teamId, name: row.name }, partner);
}

/** An entry's line in an event: the entrant's row gives its place and record. */
function lineOf(
  models: ReadModels,
  state: TournamentState,
  entry: string,
  row: TeamRow,
  team: PlayerEvent['team'],
  partner: PlayerEvent['partner'],
): PlayerEvent {
  const model = state.model;
  return {
    tournamentId: model.tournamentId,
    name: model.name,
    status: model.status,
    entry,
    team,
    partner,
    place: model.placings.find((p) => p.teamId === row.teamId)?.place ?? null,
    wins: row.wins,
    losses: row.losses,
    gamesWon: row.gamesWon,
    gamesLost: row.gamesLost,
    withdrawn: row.status === 'withdrawn',
    seriesId: own(models.circuit.seriesOf, model.tournamentId) ?? null,
  };
}

/** Every hand the person played at a seat, in every event's games that count. */
function totalsOf(models: ReadModels, person: Person): PlayerTotals {
  const totals: PlayerTotals = { ...emptySeatLine(), games: 0, bags: 0, sets: 0, renegesUpheld: 0 };
  const tournaments = new Set(person.entries.map((key) => entryOf(key).tournamentId));
  for (const tournamentId of tournaments) {
    const state = tournamentById(models, tournamentId);
    if (!state) continue;
    for (const [gameId, stats] of Object.entries(state.gameStats)) {
      if (state.voided[gameId] !== undefined) continue;
      const seated = seatedPlayers(state, { matchId: stats.matchId, teams: stats.teamIds, seats: stats.seatNames });
      let played = false;
      for (const seat of SEATS) {
        const entry = seated[seat]?.playerId;
        if (!entry || personOfEntry(models.circuit, tournamentId, entry) !== person) continue;
        const line = stats.seats[seat];
        if (line) addLine(totals, line);
        const side = stats.teams[teamOf(seat)];
        totals.bags += side.bags;
        totals.sets += side.contractsSet;
        totals.renegesUpheld += side.renegesUpheld;
        played = true;
      }
      if (played) totals.games++;
    }
  }
  return totals;
}

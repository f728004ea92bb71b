/**
 * A series' standings, per player and per partnership that played together: the points each
 * event's placings give by the series' table (each place's points, and the points for playing),
 * events played, best finish, and how ties were broken, in words. Derived from the read models
 * each time, so an event's placings count the moment they are decided, a correction that moves
 * them moves the series, and a merge or split of players moves their totals.
 */
import { own, tournamentById } from './lookup.ts';
import { personOfEntry } from './player-identity.ts';
import { entriesOf } from './player-ids.ts';
import type { ReadModels } from './projections.ts';

/** One event of the series, as the standings count it. */
export interface SeriesEvent {
  tournamentId: string;
  name: string;
  status: 'registration' | 'running' | 'finished';
  /** Whether its placings are decided, so it counts. */
  counted: boolean;
}

/** What one entrant of one event earned. */
export interface SeriesResult {
  tournamentId: string;
  place: number | null;
  points: number;
}

export interface SeriesRow {
  /** Shared by rows level on every tiebreak. */
  place: number;
  events: number;
  points: number;
  /** The best place finished, null when no placing was given. */
  best: number | null;
  results: SeriesResult[];
  /** How this row was separated from the row above it on equal points, in words; null when points decided. */
  tiebreak: string | null;
}

export interface SeriesPlayerRow extends SeriesRow {
  playerId: string;
  name: string;
}

export interface SeriesPartnershipRow extends SeriesRow {
  players: { playerId: string; name: string }[];
}

export interface SeriesStandings {
  seriesId: string;
  name: string;
  points: Record<string, number>;
  events: SeriesEvent[];
  players: SeriesPlayerRow[];
  partnerships: SeriesPartnershipRow[];
  /** The order of the standings, in words. */
  order: string;
}

export const SERIES_ORDER = 'Most points first; level on points, the better best finish; then more events played. Players level on all three share the place.';

/** Points a place earns by the series' table, with the points for playing. */
export function pointsFor(table: Readonly<Record<string, number>>, place: number | null): number {
  return (place === null ? 0 : (own(table, String(place)) ?? 0)) + (own(table, 'played') ?? 0);
}

const ordinal = (n: number) => {
  const tens = n % 100;
  const suffix = tens >= 11 && tens <= 13 ? 'th' : (['th', 'st', 'nd', 'rd'][n % 10] ?? 'th');
  return `${n}${suffix}`;
};

/** The series' standings, or undefined when the ledger holds no such series. */
export function seriesStandings(models: ReadModels, seriesId: string): SeriesStandings | undefined {
  const series = own(models.circuit.series, seriesId);
  if (!series) return undefined;
  const events: SeriesEvent[] = [];
  const players = new Map<string, SeriesPlayerRow>();
  const pairs = new Map<string, SeriesPartnershipRow>();
  for (const tournamentId of series.tournaments) {
    const state = tournamentById(models, tournamentId);
    if (!state) continue;
    const model = state.model;
    const counted = model.placings.length > 0;
    events.push({ tournamentId, name: model.name, status: model.status, counted });
    if (!counted) continue;
    const placeOf = new Map(model.placings.map((p) => [p.teamId, p.place]));
    // A drawn player on two teams counts once, by the better place.
    const best = new Map<string, { name: string; result: SeriesResult }>();
    for (const row of model.teams) {
      if (row.status === 'withdrawn') continue;
      const place = placeOf.get(row.teamId) ?? null;
      const result: SeriesResult = { tournamentId, place, points: pointsFor(series.points, place) };
      const entries = entriesOf(state, row);
      const people = entries.map((entry) => personOfEntry(models.circuit, tournamentId, entry)).filter((p) => p !== undefined);
      for (const person of people) {
        const held = best.get(person.playerId);
        const better = !held || (result.place !== null && (held.result.place === null || result.place < held.result.place));
        if (better) best.set(person.playerId, { name: person.name, result });
      }
      if (!state.progressive && people.length === 2 && people[0] !== people[1]) {
        const two = [...people].sort((a, b) => (a.playerId < b.playerId ? -1 : 1));
        const key = two.map((p) => p.playerId).join(' ');
        let line = pairs.get(key);
        if (!line) pairs.set(key, (line = { players: two.map((p) => ({ playerId: p.playerId, name: p.name })), ...emptyRow() }));
        add(line, result);
      }
    }
    for (const [playerId, { name, result }] of best) {
      let line = players.get(playerId);
      if (!line) players.set(playerId, (line = { playerId, name, ...emptyRow() }));
      add(line, result);
    }
  }
  return {
    seriesId,
    name: series.name,
    points: { ...series.points },
    events,
    players: ranked([...players.values()], (r) => r.name),
    partnerships: ranked([...pairs.values()], (r) => r.players.map((p) => p.name).join(' & ')),
    order: SERIES_ORDER,
  };
}

function emptyRow(): SeriesRow {
  return { place: 0, events: 0, points: 0, best: null, results: [], tiebreak: null };
}

function add(row: SeriesRow, result: SeriesResult): void {
  row.events++;
  row.points += result.points;
  if (result.place !== null && (row.best === null || result.place < row.best)) row.best = result.place;
  row.results.push(result);
}

const bestOf = (row: SeriesRow) => row.best ?? Number.POSITIVE_INFINITY;

/** Rows in standing order with their places shared where level, and each tiebreak said. */
function ranked<R extends SeriesRow>(rows: R[], nameOf: (row: R) => string): R[] {
  rows.sort((a, b) => b.points - a.points || bestOf(a) - bestOf(b) || b.events - a.events || nameOf(a).localeCompare(nameOf(b), 'en'));
  rows.forEach((row, i) => {
    const above = rows[i - 1];
    row.tiebreak = null;
    if (!above || above.points !== row.points) {
      row.place = i + 1;
      return;
    }
    if (bestOf(above) !== bestOf(row)) {
      row.place = i + 1;
      row.tiebreak = `Level on ${row.points} points with ${nameOf(above)}, behind on best finish (${finish(above.best)} against ${finish(row.best)}).`;
    } else if (above.events !== row.events) {
      row.place = i + 1;
      row.tiebreak = `Level on ${row.points} points and best finish with ${nameOf(above)}, behind on events played (${above.events} against ${row.events}).`;
    } else {
      row.place = above.place;
      row.tiebreak = `Level with ${nameOf(above)} on points, best finish and events played: the place is shared.`;
    }
  });
  return rows;
}

function finish(place: number | null): string {
  return place === null ? 'no placing' : ordinal(place);
}

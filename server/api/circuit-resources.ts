/**
 * The circuit's resources of the read API: a series with its standings, a player across events,
 * and every player with their rating. Answered from the read models like every resource, so
 * `?asOf=` gives them as the ledger stood at any position.
 */
import type { ReadModels } from '../../events/projections.ts';
import { knownPlayers, playerKey } from '../../events/player-identity.ts';
import { playerRecord } from '../../events/player-record.ts';
import { RATING_START, conservative, ratingsOf } from '../../events/rating-projection.ts';
import { seriesStandings } from '../../events/series-standings.ts';
import type { ApiResource } from './api-registry.ts';
import { type PlayerAnswer, type PlayerListAnswer, PlayerListSchema, PlayerSchema, type SeriesAnswer, SeriesSchema } from './circuit-schemas.ts';

/** The addresses of a series' pages. */
export function seriesLinks(seriesId: string) {
  const page = `/series/${encodeURIComponent(seriesId)}`;
  return { page, csv: `${page}/standings.csv`, embed: `/embed/series/${encodeURIComponent(seriesId)}` };
}

/** A player's page. */
export function playerPage(playerId: string): string {
  return `/players/${encodeURIComponent(playerId)}`;
}

/** A series as the read API answers it, or null when there is none of that id. */
export function seriesAnswer(models: ReadModels, seriesId: string): SeriesAnswer | null {
  const standings = seriesStandings(models, seriesId);
  if (!standings) return null;
  return { ...standings, position: models.position, links: seriesLinks(seriesId) };
}

/** A player as the read API answers them, or null when there is nobody of that id. */
export function playerAnswer(models: ReadModels, playerId: string): PlayerAnswer | null {
  const record = playerRecord(models, playerId);
  if (!record) return null;
  const { playerId: _id, ...rating } = record.rating;
  return { ...record, rating, position: models.position, links: { page: playerPage(record.playerId) } };
}

/** Everyone with their rating, the conservative value first. */
export function playerList(models: ReadModels): PlayerListAnswer {
  const ratings = ratingsOf(models);
  const players = knownPlayers(models.circuit).map((person) => {
    const r = ratings.get(person.playerId) ?? { ...RATING_START, games: 0 };
    const events = new Set(person.entries.map((e) => e.slice(0, e.indexOf(' ')))).size;
    return { playerId: person.playerId, name: person.name, mu: r.mu, sigma: r.sigma, games: r.games, events, link: playerPage(person.playerId) };
  });
  players.sort((a, b) => conservative(b) - conservative(a) || a.name.localeCompare(b.name, 'en'));
  return { position: models.position, players };
}

export const CIRCUIT_RESOURCES: readonly ApiResource[] = [
  {
    id: 'getSeries',
    path: '/series/{seriesId}',
    summary: 'One series',
    description:
      'A series (a season, a league, a circuit): its points for each place and for playing, its events and whether each counts yet, and its standings per player and per partnership that played together, with events played, points, best finish and how ties were broken.',
    params: [{ name: 'seriesId', description: 'the series’ id, as the director created it' }],
    schema: SeriesSchema,
    answer: (models, { seriesId }) => {
      const body = seriesAnswer(models, seriesId!);
      return body === null ? { missing: `there is no series '${seriesId}'` } : { body };
    },
  },
  {
    id: 'listPlayers',
    path: '/players',
    summary: 'Every player',
    description: 'Everyone the ledger knows as a player across events, with their rating (value and uncertainty), games rated and events entered.',
    params: [],
    schema: PlayerListSchema,
    answer: (models) => ({ body: playerList(models) }),
  },
  {
    id: 'getPlayer',
    path: '/players/{playerId}',
    summary: 'One player across events',
    description:
      'Every event the player entered with place and record, their partners and the results with each, the statistics of every hand they played summed over the events, and their rating with its history. A merged id answers with the person it was merged into.',
    params: [{ name: 'playerId', description: 'the person’s id, as an entrant list or the players list gives it' }],
    schema: PlayerSchema,
    answer: (models, { playerId }) => {
      const body = playerAnswer(models, playerId!);
      return body === null ? { missing: `there is no player '${playerId}'` } : { body };
    },
  },
];

/** What an event's desk shows of the circuit: earlier events to copy, its series, the known players. */
export function circuitPanelProps(models: ReadModels, tournamentId: string, registering: boolean) {
  const seriesId = models.circuit.seriesOf[tournamentId];
  const current = seriesId !== undefined && Object.hasOwn(models.circuit.seriesOf, tournamentId) ? models.circuit.series[seriesId] : undefined;
  const known = knownPlayers(models.circuit);
  return {
    tournamentId,
    registering,
    copyFrom: Object.values(models.tournaments)
      .filter((t) => t.model.tournamentId !== tournamentId && t.model.teams.length > 0)
      .map((t) => ({ tournamentId: t.model.tournamentId, name: t.model.name }))
      .reverse(),
    series: {
      current: current ? { seriesId: current.seriesId, name: current.name } : null,
      all: Object.values(models.circuit.series).map((s) => ({ seriesId: s.seriesId, name: s.name })),
    },
    knownNames: [...new Set(known.map((p) => p.name))],
    namesakes: known
      .filter((p, _, all) => all.filter((q) => playerKey(q.name) === playerKey(p.name)).length > 1)
      .map((p) => ({ playerId: p.playerId, name: p.name })),
  };
}

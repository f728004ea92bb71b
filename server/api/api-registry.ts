/**
 * Every resource of the read API, one entry each: its address, its parameters, the schema its
 * answers are checked and documented with, and how it is answered from the read models. The
 * routes (api-routes.ts), the OpenAPI document (openapi.ts) and the reader thread that answers
 * `?asOf=` (server/audit) all work from this list, so a new resource is one entry here.
 */
import { z } from 'zod';
import type { ReadModels } from '../../events/projections.ts';
import { gameResource, tournamentResource } from './api-resources.ts';
import { tournamentList } from './tournament-list.ts';
import { TournamentListSchema, TournamentSchema, apiRegistry } from './api-schemas.ts';
import { GameSchema } from './game-schemas.ts';
import { tournamentStatsSchema } from '../../events/stats-schema.ts';
import { EntrantListSchema, MatchListSchema, MatchResourceSchema } from './match-schemas.ts';
import { entrantList, matchList, matchResource } from './match-resources.ts';
import { statsOfTournament } from '../../events/tournament-stats.ts';
import { CIRCUIT_RESOURCES } from './circuit-resources.ts';

/** What a resource answers from the models: its body, or a sentence naming what is not there. */
export type ResourceAnswer = { body: unknown } | { missing: string } | { invalid: string };

export interface ApiResource {
  /** The name the reader thread is asked for it by, and the document's operationId. */
  id: string;
  /** The address under /api/v1, with `{name}` for each path parameter (OpenAPI's way). */
  path: string;
  summary: string;
  description: string;
  /** The path parameters, in the order the path names them. */
  params: readonly { name: string; description: string }[];
  /**
   * The query parameters it takes besides `asOf`, each checked by its schema (a wrong value is a
   * 400 saying what it must be); any other parameter is ignored, such as a cache-buster `_=`.
   */
  query?: readonly QueryParam[];
  /** The answer's shape: its type, its check before it leaves, and its entry in the document. */
  schema: z.ZodType;
  /** The answer from models folded to some position (now, or as of an earlier one). */
  answer(models: ReadModels, params: Readonly<Record<string, string>>): ResourceAnswer;
}

/** A query parameter: its schema checks the text given and documents it; `must` words what it takes. */
export interface QueryParam {
  name: string;
  description: string;
  schema: z.ZodType;
  must: string;
}

const positiveWhole = z.coerce.number().int().min(1).max(9999);

/** A body, or the sentence for what is missing. */
function found(body: unknown, missing: string): ResourceAnswer {
  return body === null ? { missing } : { body };
}

export const API_RESOURCES: readonly ApiResource[] = [
  {
    id: 'listTournaments',
    path: '/tournaments',
    summary: 'Every tournament',
    description: 'Each tournament the ledger holds: id, name, format, status, counts and links.',
    params: [],
    query: [
      {
        name: 'status',
        description: 'only tournaments with this status',
        schema: TournamentListSchema.shape.tournaments.element.shape.status,
        must: 'one of registration, running, finished',
      },
      {
        name: 'format',
        description: 'only tournaments of this format',
        schema: z.enum(['blp-2024', 'unc-intramural', 'pitt-boss', 'asher-theatre', 'tournament-spades', 'custom']),
        must: 'one of blp-2024, unc-intramural, pitt-boss, asher-theatre, tournament-spades, custom',
      },
      {
        name: 'since',
        description: 'only tournaments created at or after this time (a date, or a date and time, ISO 8601)',
        schema: z.union([z.iso.date(), z.iso.datetime({ offset: true })]),
        must: 'a date or a date and time, ISO 8601 (2026-03-01 or 2026-03-01T18:00:00Z)',
      },
      {
        name: 'limit',
        description: 'at most this many tournaments, with a `next` link to the rest; without it, every one',
        schema: z.coerce.number().int().min(1).max(100),
        must: 'a whole number from 1 to 100',
      },
      {
        name: 'cursor',
        description: 'where a page begins: as the `next` link of the page before gives it',
        schema: z.string().min(1).max(400),
        must: 'a cursor from a `next` link',
      },
    ],
    schema: TournamentListSchema,
    answer: (models, query) => {
      const list = tournamentList(models, query);
      return 'missing' in list ? { invalid: list.missing } : { body: list };
    },
  },
  {
    id: 'getTournament',
    path: '/tournaments/{tournamentId}',
    summary: 'One tournament',
    description:
      'The format and its options, the entrants (teams with their players, or the players of a progressive evening), every match of the bracket or the rounds and seatings of a progressive evening, the standings, the live tables and the prizes.',
    params: [{ name: 'tournamentId', description: 'the tournament’s id, as the list gives it' }],
    schema: TournamentSchema,
    answer: (models, { tournamentId }) => found(tournamentResource(models, tournamentId!), `there is no tournament '${tournamentId}'`),
  },
  {
    id: 'getTournamentStats',
    path: '/tournaments/{tournamentId}/stats',
    summary: 'One tournament’s statistics',
    description:
      'Statistics folded from the same events as the scores: per team (hands, bids, tricks taken as played, contracts made and set, nils and blind nils bid and made, Bostons, bags, bag penalties, reneges claimed and upheld, best hand), per player by seat, totals for the event, and the highlights as they happened.',
    params: [{ name: 'tournamentId', description: 'the tournament’s id, as the list gives it' }],
    schema: tournamentStatsSchema,
    answer: (models, { tournamentId }) => found(statsOfTournament(models, tournamentId!) ?? null, `there is no tournament '${tournamentId}'`),
  },
  {
    id: 'listMatches',
    path: '/tournaments/{tournamentId}/matches',
    summary: 'A tournament’s matches',
    description:
      'Every match of the bracket (or every table of a progressive evening, round by round): round, side, table, status, both slots with the team and its players or where it comes from, the games with their scores, and the winner. Narrowed by status, round or team when asked.',
    params: [{ name: 'tournamentId', description: 'the tournament’s id, as the list gives it' }],
    query: [
      {
        name: 'status',
        description: 'only matches with this status',
        schema: MatchListSchema.shape.matches.element.shape.status,
        must: 'one of waiting, ready, live, done, bye, forfeit',
      },
      { name: 'round', description: 'only matches of this round', schema: positiveWhole, must: 'a round number, a whole number from 1' },
      {
        name: 'teamId',
        description: 'only matches this team plays in (a player’s id, in a progressive evening)',
        schema: z.string().min(1).max(200),
        must: 'a team id',
      },
    ],
    schema: MatchListSchema,
    answer: (models, { tournamentId, status, round, teamId }) =>
      found(
        matchList(models, tournamentId!, { ...(status ? { status } : {}), ...(round ? { round } : {}), ...(teamId ? { teamId } : {}) }),
        `there is no tournament '${tournamentId}'`,
      ),
  },
  {
    id: 'getMatch',
    path: '/tournaments/{tournamentId}/matches/{matchId}',
    summary: 'One match',
    description: 'A match of the bracket, or a table of a progressive evening, with its slots, its games and their scores, and its winner.',
    params: [
      { name: 'tournamentId', description: 'the tournament’s id, as the list gives it' },
      { name: 'matchId', description: 'the match’s id, as the matches list or the bracket gives it' },
    ],
    schema: MatchResourceSchema,
    answer: (models, { tournamentId, matchId }) => matchResource(models, tournamentId!, matchId!),
  },
  {
    id: 'listEntrants',
    path: '/tournaments/{tournamentId}/entrants',
    summary: 'A tournament’s entrants',
    description: 'Each team with its players, or each player of a progressive evening, with the `playerId` that names the player for the whole event.',
    params: [{ name: 'tournamentId', description: 'the tournament’s id, as the list gives it' }],
    schema: EntrantListSchema,
    answer: (models, { tournamentId }) => found(entrantList(models, tournamentId!), `there is no tournament '${tournamentId}'`),
  },
  {
    id: 'getGame',
    path: '/games/{gameId}',
    summary: 'One game',
    description: 'The game’s state and its score hand by hand, with links to its spades-game/1 record and to each hand’s replay.',
    params: [{ name: 'gameId', description: 'the game’s id, as a match or a live table gives it' }],
    schema: GameSchema,
    answer: (models, { gameId }) => found(gameResource(models, gameId!), `there is no game '${gameId}'`),
  },
  ...CIRCUIT_RESOURCES,
];

// Every answer's schema is a named component of the document: one not named where it is made
// takes the name of its resource (`getTournamentStats` → `TournamentStats`).
for (const resource of API_RESOURCES) {
  if (!apiRegistry.has(resource.schema)) apiRegistry.add(resource.schema, { id: resource.id.replace(/^(get|list)/, ''), description: resource.summary });
}

/** A resource by its id. */
export function apiResource(id: string): ApiResource | undefined {
  return API_RESOURCES.find((resource) => resource.id === id);
}

/** Answers a resource from models folded to some position: what the reader thread runs for `?asOf=`. */
export function answerResource(models: ReadModels, id: string, params: Readonly<Record<string, string>>): ResourceAnswer {
  const resource = apiResource(id);
  if (!resource) return { missing: `the read API has no resource '${id}'` };
  return resource.answer(models, params);
}

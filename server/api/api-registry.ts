/**
 * Every resource of the read API, one entry each: its address, its parameters, the schema its
 * answers are checked and documented with, and how it is answered from the read models. The
 * routes (api-routes.ts), the OpenAPI document (openapi.ts) and the reader thread that answers
 * `?asOf=` (server/audit) all work from this list, so a new resource is one entry here.
 */
import type { z } from 'zod';
import type { ReadModels } from '../../events/projections.ts';
import { gameResource, tournamentList, tournamentResource } from './api-resources.ts';
import { GameSchema, TournamentListSchema, TournamentSchema, apiRegistry } from './api-schemas.ts';
import { tournamentStatsSchema } from '../../events/stats-schema.ts';
import { statsOfTournament } from '../../events/tournament-stats.ts';

/** What a resource answers from the models: its body, or a sentence naming what is not there. */
export type ResourceAnswer = { body: unknown } | { missing: string };

export interface ApiResource {
  /** The name the reader thread is asked for it by, and the document's operationId. */
  id: string;
  /** The address under /api/v1, with `{name}` for each path parameter (OpenAPI's way). */
  path: string;
  summary: string;
  description: string;
  /** The path parameters, in the order the path names them. */
  params: readonly { name: string; description: string }[];
  /** The answer's shape: its type, its check before it leaves, and its entry in the document. */
  schema: z.ZodType;
  /** The answer from models folded to some position (now, or as of an earlier one). */
  answer(models: ReadModels, params: Readonly<Record<string, string>>): ResourceAnswer;
}

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
    schema: TournamentListSchema,
    answer: (models) => ({ body: tournamentList(models) }),
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
    id: 'getGame',
    path: '/games/{gameId}',
    summary: 'One game',
    description: 'The game’s state and its score hand by hand, with links to its spades-game/1 record and to each hand’s replay.',
    params: [{ name: 'gameId', description: 'the game’s id, as a match or a live table gives it' }],
    schema: GameSchema,
    answer: (models, { gameId }) => found(gameResource(models, gameId!), `there is no game '${gameId}'`),
  },
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

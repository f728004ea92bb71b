/**
 * The shapes of a tournament's matches and entrants as resources of their own (api-schemas.ts
 * holds the tournament and the game): what `/matches`, `/matches/{matchId}` and `/entrants`
 * answer with, checked and documented from these schemas alone.
 */
import { z } from 'zod';
import { MatchSchema, PlayerRefSchema, count, entrantStatus, link, named, side, when } from './api-schemas.ts';

const GameSummarySchema = named(
  'GameSummary',
  'A game of a match or a progressive table, as a line of it: its teams by side, its score and its winner; the game itself is at its link.',
  z.object({
    gameId: z.string(),
    number: z.number().int().describe('the game’s number in its match'),
    state: z.enum(['playing', 'finished', 'abandoned']),
    startedAt: when('when the game started'),
    completedAt: when('when the game ended; null again while a ruling reopens it'),
    teams: z.object({ NS: z.string(), EW: z.string() }).describe('the team id on each side'),
    score: z.object({ NS: z.number().int(), EW: z.number().int() }),
    winner: side.nullable(),
    voided: z.boolean().describe('whether a later ruling voided the game: kept on record, it counts for nothing'),
    links: z.object({ self: link }),
  }),
);

const matchFields = {
  tournamentId: z.string(),
  gamesPlayed: z.array(GameSummarySchema).describe('every game the match has played, in order, voided ones included, with its score'),
  links: z.object({ self: link, tournament: link, page: link.describe('the match’s table, or its tournament’s bracket, on the site') }),
};

export const MatchDetailSchema = named(
  'MatchDetail',
  'A match with its games’ scores: a bracket match, or a table of a round of a progressive evening (`side` is `table`, its slots the two partnerships).',
  MatchSchema.extend(matchFields),
);

export const MatchResourceSchema = named(
  'MatchResource',
  'One match as the ledger holds it at one position.',
  MatchSchema.extend({ position: count.describe('the ledger position this answer was folded at'), ...matchFields }),
);

export const MatchListSchema = named(
  'MatchList',
  'A tournament’s matches, in bracket order (a progressive evening’s tables round by round), as filtered.',
  z.object({ position: count.describe('the ledger position this answer was folded at'), tournamentId: z.string(), matches: z.array(MatchDetailSchema) }),
);

const EntrantSchema = named(
  'Entrant',
  'A team of a team event, or a player of a progressive evening, with their players and their ids.',
  z.object({
    entrantId: z.string().describe('the team id, or the player id in a progressive evening: what standings and slots name as `teamId`'),
    kind: z.enum(['team', 'player']),
    name: z.string(),
    players: z
      .array(PlayerRefSchema.extend({ playerId: z.string(), gender: z.enum(['male', 'female']).nullable() }))
      .describe('a team’s roster in order; a progressive player alone'),
    seed: z.number().int().nullable(),
    status: entrantStatus,
  }),
);

export const EntrantListSchema = named(
  'EntrantList',
  'A tournament’s entrants in the order they entered, withdrawn ones included with their status.',
  z.object({ position: count.describe('the ledger position this answer was folded at'), tournamentId: z.string(), entrants: z.array(EntrantSchema) }),
);

export type MatchDetail = z.infer<typeof MatchDetailSchema>;
export type MatchList = z.infer<typeof MatchListSchema>;
export type EntrantList = z.infer<typeof EntrantListSchema>;

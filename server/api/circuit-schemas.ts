/**
 * The read API's shapes for the circuit: a series with its standings, a player across events,
 * and the list of players. One zod schema each types the answer, checks it before it leaves and
 * is written into the OpenAPI document, as every resource of /api/v1 is.
 */
import { z } from 'zod';
import { count, link, named } from './api-schemas.ts';

const place = z.number().int().min(1);
const playerRef = z.object({ playerId: z.string().describe('the person’s id across every event'), name: z.string() }).strict();
const status = z.enum(['registration', 'running', 'finished']);

const seriesResult = z
  .object({
    tournamentId: z.string(),
    place: place.nullable().describe('the place the event’s placings gave; null for an entrant the placings do not name'),
    points: count.describe('the points for that place and for playing'),
  })
  .strict();

const standingRow = {
  place: place.describe('shared by rows level on points, best finish and events played'),
  events: count.describe('events counted (their placings decided)'),
  points: count,
  best: place.nullable().describe('the best place finished; null without a placing'),
  results: z.array(seriesResult).describe('each counted event’s place and points, in the order the events joined the series'),
  tiebreak: z.string().nullable().describe('how the row was separated from the one above it on equal points, in words; null when points decided it'),
};

export const SeriesSchema = named(
  'Series',
  'A series (a season, a league, a circuit): its points table, its events, and its standings per player and per partnership that played together.',
  z
    .object({
      seriesId: z.string(),
      name: z.string(),
      position: count.describe('the ledger position the answer was folded at'),
      points: z.record(z.string(), count).describe('points for each place ("1", "2", …) and for playing ("played")'),
      order: z.string().describe('how the standings are ordered and ties broken, in words'),
      events: z.array(
        z
          .object({ tournamentId: z.string(), name: z.string(), status, counted: z.boolean().describe('whether its placings are decided, so it counts') })
          .strict(),
      ),
      players: z.array(z.object({ ...playerRef.shape, ...standingRow }).strict()),
      partnerships: z.array(z.object({ players: z.array(playerRef).length(2), ...standingRow }).strict()),
      links: z.object({ page: link, csv: link, embed: link }).strict(),
    })
    .strict(),
);

const ratingValue = {
  mu: z.number().describe('the skill estimate (Weng-Lin, openskill’s Plackett-Luce model); everyone starts at 25'),
  sigma: z.number().min(0).describe('its uncertainty, one standard deviation; everyone starts at 25/3 and it narrows with each game'),
};

export const PlayerSchema = named(
  'PlayerRecord',
  'A person across events: every event with place and record, partners and results with each, their hands summed over the events, and their rating with its history.',
  z
    .object({
      playerId: z.string(),
      name: z.string(),
      position: count.describe('the ledger position the answer was folded at'),
      alsoKnownAs: z.array(z.string()).describe('ids of records merged into this person, which lead here'),
      events: z.array(
        z
          .object({
            tournamentId: z.string(),
            name: z.string(),
            status,
            entry: z.string().describe('the event’s own id for the player’s entry (a team’s id and roster place, `team3:1`, or a progressive player’s id)'),
            team: z.object({ teamId: z.string(), name: z.string() }).strict().nullable().describe('their team; null in a progressive evening'),
            partner: playerRef.nullable(),
            place: place.nullable(),
            wins: count,
            losses: count,
            gamesWon: count,
            gamesLost: count,
            withdrawn: z.boolean(),
            seriesId: z.string().nullable(),
          })
          .strict(),
      ),
      partners: z.array(z.object({ ...playerRef.shape, events: count, gamesWon: count, gamesLost: count, best: place.nullable() }).strict()),
      totals: z
        .object({
          games: count,
          hands: count,
          bid: count.describe('numeric bids added up'),
          taken: count.describe('tricks taken as the cards fell'),
          nilsBid: count,
          nilsMade: count,
          blindNilsBid: count,
          blindNilsMade: count,
          bags: count.describe('their side’s overtricks in the games they played'),
          sets: count.describe('hands their side was set in'),
          renegesUpheld: count.describe('reneges upheld against their side'),
        })
        .strict(),
      rating: z
        .object({
          ...ratingValue,
          games: count.describe('decided games rated'),
          history: z.array(
            z
              .object({
                gameId: z.string(),
                tournamentId: z.string(),
                position: count.describe('the ledger position of the game’s last hand: the order games are rated in'),
                result: z.enum(['won', 'lost', 'drawn']),
                ...ratingValue,
              })
              .strict(),
          ),
        })
        .strict(),
      links: z.object({ page: link }).strict(),
    })
    .strict(),
);

export const PlayerListSchema = named(
  'PlayerList',
  'Everyone the ledger knows as a player, with their rating, by the conservative value (mu − 3σ) first.',
  z
    .object({
      position: count,
      players: z.array(z.object({ ...playerRef.shape, ...ratingValue, games: count, events: count, link }).strict()),
    })
    .strict(),
);

export type SeriesAnswer = z.infer<typeof SeriesSchema>;
export type PlayerAnswer = z.infer<typeof PlayerSchema>;
export type PlayerListAnswer = z.infer<typeof PlayerListSchema>;

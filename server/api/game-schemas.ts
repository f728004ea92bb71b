/**
 * The read API's game: its state, its score hand by hand and its record's links, as the
 * OpenAPI document names them (`Game`, `Hand`). Built on the shared parts in api-schemas.ts.
 */
import { z } from 'zod';
import { PlayerRefSchema, bid, count, link, named, rules, seat, side, when } from './api-schemas.ts';

const totals = z.object({ points: z.number().int(), score: z.number().int(), bags: z.number().int(), sets: z.number().int() });

const HandSchema = named(
  'Hand',
  'A scored hand: bids and tricks by seat, and each side’s points and running score after it.',
  z.object({
    number: z.number().int().min(1),
    dealer: seat,
    misdeal: z.string().nullable(),
    bids: z.partialRecord(seat, bid),
    tricks: z.partialRecord(seat, z.number().int()),
    NS: totals,
    EW: totals,
    reneges: z.array(z.object({ seat, trick: z.number().int() })),
    position: count.describe('the ledger position of the event that closed the hand'),
    replay: link,
  }),
);

export const GameSchema = named(
  'Game',
  'A game as the ledger holds it at one position: its state, its score hand by hand, and its record.',
  z.object({
    position: count.describe('the ledger position this answer was folded at'),
    gameId: z.string(),
    tournamentId: z.string().nullable(),
    matchId: z.string().nullable(),
    number: z.number().int().describe('the game’s number in its match'),
    state: z.enum(['playing', 'finished', 'abandoned']),
    startedAt: when('when the game started'),
    completedAt: when('when the game ended; null again while a ruling reopens it'),
    rules,
    teams: z.object({ NS: z.object({ teamId: z.string(), name: z.string() }), EW: z.object({ teamId: z.string(), name: z.string() }) }),
    seats: z.partialRecord(seat, z.string()).describe('the players’ names by seat'),
    players: z.partialRecord(seat, PlayerRefSchema).describe('the players by seat, with their ids'),
    score: z.object({ NS: z.number().int(), EW: z.number().int() }),
    bags: z.object({ NS: z.number().int(), EW: z.number().int() }),
    winner: side.nullable(),
    reason: z.string().nullable().describe('why the game ended, when it has'),
    voided: z.boolean().describe('whether a later ruling voided the game: kept on record, it counts for nothing'),
    voidedBy: count.nullable().describe('the ledger position of the ruling that voided the game'),
    hands: z.array(HandSchema),
    current: z
      .object({ number: z.number().int(), dealer: seat, bids: z.partialRecord(seat, bid), tricksPlayed: count })
      .nullable()
      .describe('the hand being played'),
    links: z.object({
      self: link,
      page: link,
      record: link.describe('the game as a spades-game/1 record'),
      replay: link.describe('the first hand’s replay, card by card'),
    }),
  }),
);

export type GameResource = z.infer<typeof GameSchema>;

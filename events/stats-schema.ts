/**
 * The shape of a tournament's statistics as they leave the server: one zod schema that types the
 * payload (`TournamentStatsPayload`), checks it, and can be published as JSON Schema
 * (`z.toJSONSchema`). Field meanings are those of events/stats-projection.ts.
 */
import { z } from 'zod';

const count = z.number().int().min(0);
const seatCounts = {
  hands: count.describe('Hands played at the seat(s); a misdeal is no hand.'),
  bid: count.describe('Numeric bids added up; nil and blind nil count 0.'),
  taken: count.describe('Tricks taken as the cards fell (or as entered), before any renege ruling.'),
  nilsBid: count.describe('Nil bids (blind nils are counted apart).'),
  nilsMade: count.describe('Nil bids whose seat took no trick.'),
  blindNilsBid: count,
  blindNilsMade: count,
};

export const teamStatsSchema = z
  .object({
    teamId: z.string(),
    name: z.string(),
    ...seatCounts,
    contractsMade: count.describe('Hands whose contract the scorer found made, after rulings; a double nil is never set.'),
    contractsSet: count,
    bostons: count.describe('Hands in which the team took all 13 tricks.'),
    bags: count.describe('Overtricks added to the bag count.'),
    bagPenalties: count.describe('Times the bag penalty was paid.'),
    renegesClaimed: count.describe("Renege claims against the team's seats ruled on by a judge (as the game records hold them)."),
    renegesUpheld: count,
    bestHand: z.number().int().nullable().describe('Most points scored in one hand; null before the first.'),
  })
  .strict();

export const playerStatsSchema = z
  .object({
    name: z.string(),
    playerId: z
      .string()
      .optional()
      .describe(
        'The person’s id, the same in every event they enter (/api/v1/players/{playerId}); absent only for a name a game entered from a record seats and no roster holds.',
      ),
    teamId: z.string().optional().describe('In a team event: the player’s team.'),
    ...seatCounts,
  })
  .strict();

export const highlightSchema = z
  .object({
    kind: z.enum(['boston', 'blind-nil-made', 'big-bid-made', 'big-bid-set', 'comeback']),
    text: z.string(),
    game: z.string().describe('The game id.'),
    hand: z.number().int().min(1),
    position: z.number().int().min(1).describe('Ledger position of the event that closed the hand.'),
    teamId: z.string().optional(),
  })
  .strict();

export const statsTotalsSchema = z
  .object({
    games: count,
    hands: count,
    misdeals: count,
    tricks: count,
    contractsSet: count,
    nilsBid: count,
    nilsMade: count,
    blindNilsBid: count,
    blindNilsMade: count,
    bostons: count,
    bags: count,
    bagPenalties: count,
    renegesClaimed: count,
    renegesUpheld: count,
    bestHand: z.number().int().nullable(),
    biggestComeback: z
      .object({ game: z.string(), hand: z.number().int().min(1), behind: count, text: z.string(), teamId: z.string().optional() })
      .strict()
      .nullable()
      .describe('The game won from furthest behind, and by how many points.'),
  })
  .strict();

export const tournamentStatsSchema = z
  .object({
    tournamentId: z.string(),
    position: z.number().int().min(0).describe('The ledger position the statistics were folded to.'),
    stats: z
      .object({
        teams: z.array(teamStatsSchema),
        players: z.array(playerStatsSchema),
        totals: statsTotalsSchema,
      })
      .strict(),
    highlights: z.array(highlightSchema).describe('Oldest first.'),
  })
  .strict();

export type TeamStats = z.infer<typeof teamStatsSchema>;
export type PlayerStats = z.infer<typeof playerStatsSchema>;
export type Highlight = z.infer<typeof highlightSchema>;
export type StatsTotals = z.infer<typeof statsTotalsSchema>;
export type TournamentStatsPayload = z.infer<typeof tournamentStatsSchema>;

/**
 * The shape of a pool of pools into a playoff in the tournament resource, and of each tiebreak's
 * value on a row of a league's or a pool's standings (api-schemas.ts names them).
 */
import { z } from 'zod';

const count = z.number().int().min(0);

export const TiebreaksSchema = z.object({
  shared: z.boolean().describe('level with another team on every tiebreak, so the place is shared'),
  separatedBy: z.string().nullable().describe('the tiebreak, in words, that put this team below the one above it; null for the first and for a shared place'),
  matchWins: count.describe('matches won (in a Swiss event a bye counts as one)'),
  gamesWon: count,
  pointsDifference: z.number().int().describe('points scored minus points conceded, over the decided matches'),
  headToHead: count.nullable().describe('matches won against the teams it was level with, when head-to-head was asked'),
  opponentsWinShare: count.nullable().describe('the share of matches won by the teams played, in thousandths (Swiss)'),
});

export const PoolShape = z.object({
  name: z.string().describe('the pool as the room names it ("Pool A")'),
  teams: z.array(z.string()).describe('the pool’s team ids in seed order'),
  standings: z.array(
    z.object({
      teamId: z.string(),
      name: z.string(),
      place: z.number().int().min(1).describe('the place in the pool; teams level on every tiebreak share it'),
      record: z.object({ matches: z.object({ won: count, lost: count }), games: z.object({ won: count, lost: count }) }),
      tiebreaks: TiebreaksSchema,
    }),
  ),
  tiedAtTop: z.array(z.string()).describe('the pool’s teams sharing its first place when no tiebreak separates them; empty when one leads alone'),
  goingOn: z.array(z.string()).nullable().describe('the pool’s teams seeded into the playoff, once it is drawn; null before'),
});

/**
 * The shape of a league (round robin, Swiss) in the tournament resource: its rounds with their
 * pairings and byes, the tiebreaks in order in words, and a tie at the top.
 */
import { z } from 'zod';
import { TIEBREAK_WORDS, type Tiebreak } from '../../engine/league-table.ts';

const count = z.number().int().min(0);

const TeamRefSchema = z.object({ teamId: z.string(), name: z.string() });

const PairingSchema = z
  .object({
    matchId: z.string(),
    table: z
      .number()
      .int()
      .nullable()
      .describe('the table it is played at, or is to be seated at; null while its teams are still playing elsewhere, or for a result entered from paper'),
    teams: z.tuple([TeamRefSchema, TeamRefSchema]),
    state: z.enum(['to-seat', 'playing', 'decided']),
    winner: z.string().nullable().describe('the winning team id, once decided'),
    gamesWon: z.tuple([count, count]).describe('games won by each team, in the order of `teams`'),
    forfeit: z.boolean(),
    pool: z.string().nullable().describe('pools into a playoff: the pool it is played in ("A"); null in other structures'),
  })
  .describe('A match of a league round: its two teams, the table it is played at, and how it stands.');

/** A round robin or Swiss event's rounds and ranking; api-schemas.ts names it `League` in the document. */
export const LeagueShape = z.object({
  structure: z.string().describe('the structure in words: Round robin, Swiss'),
  tiebreaks: z
    .array(z.object({ tiebreak: z.enum(Object.keys(TIEBREAK_WORDS) as [Tiebreak, ...Tiebreak[]]), words: z.string() }))
    .describe('the tiebreaks the standings are ranked by, in order; each row’s values are in `standings[].tiebreaks`'),
  tiedAtTop: z
    .array(TeamRefSchema)
    .describe('the teams sharing first place when no tiebreak separates them; empty when one team leads alone, and with pools, whose pools each say their own'),
  roundsInEvent: z.number().int().min(1),
  currentRound: z.number().int().min(1).describe('the round being played: the first with a match not yet decided, or the last once all are'),
  roundToPair: z
    .number()
    .int()
    .nullable()
    .describe('the next round of a Swiss event, paired from the standings once the current one is over; null when every round is drawn'),
  byeCountsAsWin: z.boolean(),
  rounds: z.array(
    z.object({
      round: z.number().int().min(1),
      decided: z.boolean(),
      bye: TeamRefSchema.nullable().describe('the team sitting the round out'),
      pairings: z.array(PairingSchema),
    }),
  ),
});

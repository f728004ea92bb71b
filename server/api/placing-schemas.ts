/**
 * The shapes of a tournament's prizes and a second-chance bracket's own places and prizes in the
 * tournament resource, apart from the main bracket's placings.
 */
import { z } from 'zod';

/** Prizes by place, each with the teams placed there. */
export const PrizesShape = z.array(
  z.object({ place: z.number().int(), prize: z.string(), teams: z.array(z.string()).describe('the team ids placed there, who share the prize') }),
);

/** A second-chance bracket's places and prizes, apart from the main bracket's. */
export const secondChanceFields = {
  secondChance: z
    .array(z.object({ place: z.number().int().min(1), teamId: z.string() }))
    .nullable()
    .describe('the second-chance bracket’s own places once the event is finished; null without one'),
  secondChancePrizes: PrizesShape.nullable().describe(
    'the second-chance bracket’s prizes by its own places once the event is finished; null without a second-chance bracket or without prizes for it',
  ),
};

/**
 * The shape of drawn partners in the tournament resource: what an odd player does, and the draw
 * itself once made, each player named as the person they are across
 * events (/api/v1/players/{playerId}) beside the id they registered under in the event.
 */
import { z } from 'zod';

const DrawnPlayer = z.object({
  playerId: z.string().describe('the person’s id across every event (/api/v1/players/{playerId})'),
  entrantId: z.string().describe('the id the player registered under in this event'),
  name: z.string(),
});

/** The partner draw of an event whose partners are drawn. */
export const partnerFields = {
  partners: z
    .object({
      drawn: z.boolean().describe('whether the partners are drawn yet'),
      seed: z.string().nullable().describe('the recorded seed the draw was made from; drawn again from it, the same teams'),
      odd: z.enum(['twice', 'sit-out']).describe('what the player left over by an odd count does: the event’s choice, or the draw’s once made'),
      teams: z.array(z.object({ teamId: z.string(), name: z.string(), players: z.array(DrawnPlayer) })).describe('the drawn teams; empty before the draw'),
      sittingOut: DrawnPlayer.nullable().describe('the player left without a partner; null unless one sits out'),
      twice: DrawnPlayer.nullable().describe('the player on two teams; null unless one plays twice'),
    })
    .nullable()
    .describe('drawn partners; null when teams register together'),
};

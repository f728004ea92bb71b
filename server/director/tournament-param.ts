/**
 * The tournament a director's route names in its address (`:tournamentId`), refused with 404
 * when the ledger holds none by that id: one check for every director route module.
 */
import type { Context } from 'hono';
import type { ReadModels } from '../../events/projections.ts';
import { tournamentOf } from '../commands/tournament-lookup.ts';

export function tournamentParam(models: ReadModels, c: Context): string {
  const id = c.req.param('tournamentId')!;
  tournamentOf(models, id);
  return id;
}

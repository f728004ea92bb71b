/**
 * The director's routes for a progressive evening (tournament-spades): registering players one
 * by one, and changing the number of rounds until the last round starts. Check-in, withdrawal,
 * the start and seating each round are the tournament's own routes (director-routes.tsx).
 */
import type { Context, Hono } from 'hono';
import type { ReadModels } from '../../events/projections.ts';
import { tournamentById } from '../../events/lookup.ts';
import type { Decision } from '../../events/store/served-ledger.ts';
import { CommandError } from '../commands/commands.ts';
import { field, fields, parseFields, ID_PATTERN, slug } from '../http/request-input.ts';
import { changeRounds, registerPlayer } from '../commands/tournament-commands.ts';
import { newCodeSeed } from '../auth/table-codes.ts';

const GENDERS = ['', 'male', 'female'];

const PlayerFields = fields({
  name: field.text({ max: 120 }),
  // Only for the rulebook's "high male and high female" prizes; left empty, the player is in neither.
  gender: field
    .optionalText({ max: 10 })
    .refine((g) => GENDERS.includes(g), { error: (iss) => `the prize category is male, female or left empty, not '${String(iss.input)}'` }),
  registeredOn: field.optionalText({ max: 10 }),
  playerId: field.optionalText({ max: 60 }),
});
const RoundCountFields = fields({ rounds: field.whole({ min: 1, max: 99 }) });

type OnTournament = (c: Context, scope: string, decide: (input: Record<string, unknown>) => { decision: Decision | Decision[]; done: string }) => Response | Promise<Response>;

/** Adds the progressive routes to the director's app, answering through its tournament panel. */
export function progressiveRoutes(app: Hono, models: ReadModels, onTournament: OnTournament): void {
  const tournamentIdOf = (c: Context) => {
    const id = c.req.param('tournamentId')!;
    if (!tournamentById(models, id)) throw new CommandError(`tournament ${id} does not exist`, 404);
    return id;
  };

  app.post('/tournaments/:tournamentId/players', (c) =>
    onTournament(c, 'register-player', (input) => {
      const tournamentId = tournamentIdOf(c);
      const { name, gender, registeredOn, playerId: given } = parseFields(input, PlayerFields);
      const count = tournamentById(models, tournamentId)!.model.teams.length;
      const playerId = given || slug(name) || `player-${count + 1}`;
      if (!ID_PATTERN.test(playerId)) throw new CommandError(`a player id is letters, digits and dashes, not '${playerId}'`);
      return {
        decision: registerPlayer(models, {
          tournamentId,
          playerId,
          name,
          codeSeed: newCodeSeed(),
          ...(gender ? { gender: gender as 'male' | 'female' } : {}),
          ...(registeredOn ? { registeredOn } : {}),
        }),
        done: `Registered ${name.trim()}${gender ? ` (${gender})` : ''} as player ${playerId}.`,
      };
    }),
  );

  app.post('/tournaments/:tournamentId/round-count', (c) =>
    onTournament(c, 'round-count', (input) => {
      const tournamentId = tournamentIdOf(c);
      const { rounds } = parseFields(input, RoundCountFields);
      return { decision: changeRounds(models, { tournamentId, rounds }), done: `The evening now plays ${rounds} round${rounds === 1 ? '' : 's'}.` };
    }),
  );
}

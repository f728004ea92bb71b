/**
 * The director's routes for a progressive evening (tournament-spades): registering players one
 * by one, and changing the number of rounds until the last round starts. Check-in, withdrawal,
 * the start and seating each round are the tournament's own routes (director-routes.tsx).
 */
import type { Context, Hono } from 'hono';
import type { ReadModels } from '../../events/projections.ts';
import { tournamentById } from '../../events/lookup.ts';
import type { Decision } from '../../events/store/served-ledger.ts';
import { CommandError } from '../commands/command-error.ts';
import { field, fields, parseFields, ID_PATTERN, slug } from '../http/request-input.ts';
import { changeRounds, registerPlayer } from '../commands/tournament-commands.ts';
import { newCodeSeed } from '../auth/table-codes.ts';
import type { OverCap } from '../commands/registration-commands.ts';
import { type RegistrationRoutesContext, capQuestion, overCapField } from './director-registration-routes.tsx';
import { tournamentParam } from './tournament-param.ts';

const GENDERS = ['', 'male', 'female'];

const PlayerFields = fields({
  // Longer than any name may be, so an over-long one is refused with its own sentence (events/names.ts).
  name: field.text({ max: 16_000 }),
  // Only for the rulebook's "high male and high female" prizes; left empty, the player is in neither.
  gender: field
    .optionalText({ max: 10 })
    .refine((g) => GENDERS.includes(g), { error: (iss) => `the prize category is male, female or left empty, not '${String(iss.input)}'` }),
  registeredOn: field.optionalText({ max: 10 }),
  playerId: field.optionalText({ max: 60 }),
  overCap: overCapField,
});
const RoundCountFields = fields({ rounds: field.whole({ min: 1, max: 99 }) });

type OnTournament = (
  c: Context,
  scope: string,
  decide: (input: Record<string, unknown>) => { decision: Decision | Decision[]; done: string },
) => Response | Promise<Response>;

/** Adds the progressive routes to the director's app, answering through its tournament panel. */
export function progressiveRoutes(app: Hono, models: ReadModels, onTournament: OnTournament, show: RegistrationRoutesContext['show'], now: () => string): void {
  const tournamentIdOf = (c: Context) => tournamentParam(models, c);

  app.post('/tournaments/:tournamentId/players', async (c) => {
    // Past a full cap the desk's form asks whether to raise it or waitlist the player, as the public page would.
    const asked = await capQuestion(c, models, '/players', show);
    if (asked) return asked;
    return onTournament(c, 'register-player', (input) => {
      const tournamentId = tournamentIdOf(c);
      const { name, gender, registeredOn, playerId: given, overCap } = parseFields(input, PlayerFields);
      const count = tournamentById(models, tournamentId)!.model.teams.length;
      const playerId = given || slug(name) || `player-${count + 1}`;
      if (!ID_PATTERN.test(playerId)) throw new CommandError(`a player id is letters, digits and dashes, not '${playerId}'`);
      const decision = registerPlayer(models, {
        tournamentId,
        playerId,
        name,
        codeSeed: newCodeSeed(),
        ...(gender ? { gender: gender as 'male' | 'female' } : {}),
        ...(registeredOn ? { registeredOn } : {}),
        ...(overCap ? { overCap: overCap as OverCap } : {}),
        today: now(),
      });
      const event = decision.events.at(-1)!;
      const said = `${String(event.payload.name)}${gender ? ` (${gender})` : ''}`;
      return { decision, done: event.type === 'TeamWaitlisted' ? `Put ${said} on the waitlist.` : `Registered ${said} as player ${playerId}.` };
    });
  });

  app.post('/tournaments/:tournamentId/round-count', (c) =>
    onTournament(c, 'round-count', (input) => {
      const tournamentId = tournamentIdOf(c);
      const { rounds } = parseFields(input, RoundCountFields);
      return { decision: changeRounds(models, { tournamentId, rounds }), done: `The evening now plays ${rounds} round${rounds === 1 ? '' : 's'}.` };
    }),
  );
}

/**
 * The director's routes that seat play once an event has started: a bracket match at a table
 * with its first dealer, the next progressive round, and the next round of a bracket drawn
 * round by round, with its byes' card draws. Each answers through the tournament's panel.
 */
import type { Context, Hono } from 'hono';
import type { ReadModels } from '../../events/projections.ts';
import { tournamentById } from '../../events/lookup.ts';
import { CommandError } from '../commands/command-error.ts';
import { startMatch, startRound } from '../commands/match-commands.ts';
import { drawRound } from '../commands/round-commands.ts';
import type { runCommand } from '../http/run-command.ts';
import { field, fields, parseFields } from '../http/request-input.ts';
import { firstDealerWords, seatingInput } from '../http/seating-input.ts';
import { roundDrawInput } from './round-draw-input.ts';
import { tournamentParam } from './tournament-param.ts';

type Decide = Parameters<typeof runCommand>[3]['decide'];

export interface SeatingRoutesContext {
  models: ReadModels;
  now: () => string;
  /** A command on one tournament, answered with its page's panel. */
  onTournament: (c: Context, scope: string, decide: Decide) => Promise<Response>;
}

const RoundFields = fields({ seed: field.optionalText({ max: 100 }) });
// The first dealer and the clock are read by http/seating-input.ts, as at the table.
const SeatFields = fields({ table: field.whole({ min: 1, max: 999 }) });

/** Adds the seating routes to the director's app. */
export function seatingRoutes(app: Hono, { models, now, onTournament }: SeatingRoutesContext): void {
  const tournamentIdOf = (c: Context) => tournamentParam(models, c);

  app.post('/tournaments/:tournamentId/rounds', (c) =>
    onTournament(c, 'round', (input) => {
      const tournamentId = tournamentIdOf(c);
      const seed = parseFields(input, RoundFields).seed || `${tournamentId}:${models.position}`;
      return { decision: startRound(models, { tournamentId, seed }), done: 'Seated the next round.' };
    }),
  );

  // A bracket drawn round by round (blp-2024): the next round, with its byes' card draws.
  app.post('/tournaments/:tournamentId/rounds/draw', (c) =>
    onTournament(c, 'draw-round', (input) => {
      const decision = drawRound(models, { tournamentId: tournamentIdOf(c), ...roundDrawInput(input) });
      const drawn = decision.events[0]?.payload;
      return { decision, done: drawn?.playoff ? 'Drew the playoff.' : `Drew round ${String(drawn?.round)}.` };
    }),
  );

  app.post('/tournaments/:tournamentId/matches/:matchId/start', (c) =>
    onTournament(c, 'seat', (input) => {
      const tournamentId = tournamentIdOf(c);
      const matchId = c.req.param('matchId')!;
      const { table } = parseFields(input, SeatFields);
      const seating = seatingInput(input);
      const model = tournamentById(models, tournamentId)?.model;
      const teamName = (id: string) => model?.teams.find((t) => t.teamId === id)?.name ?? id;
      // A match in the room's words: its round and its teams ("Round 2, Aces against Kings").
      const named = (m: { label: string; teams: readonly (string | null)[] }) =>
        m.teams.every((t) => t !== null) ? `${m.label}, ${m.teams.map((t) => teamName(t!)).join(' against ')}` : m.label;
      const match = model?.matches.find((m) => m.matchId === matchId);
      const busy = model?.matches.find((m) => m.status === 'live' && m.table === table);
      if (busy) throw new CommandError(`table ${table} is playing ${named(busy)}; seat ${match ? named(match) : matchId} at another table`, 409);
      const decision = startMatch(models, { tournamentId, matchId, table, at: now(), ...seating });
      const dealer = firstDealerWords(decision[0]!.events[0]!.payload.firstDealer as Record<string, unknown> | undefined, teamName);
      return { decision, done: `Seated ${match ? named(match) : matchId} at table ${table}; ${dealer}.` };
    }),
  );
}

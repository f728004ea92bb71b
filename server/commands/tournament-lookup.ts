/**
 * Finding what a command is about: the tournament, and an entrant in it, or a refusal naming
 * what is not there or cannot be taken. Below every command module that decides about a
 * tournament, so none of them reaches into another for it.
 */
import type { ReadModels } from '../../events/projections.ts';
import type { TournamentState } from '../../events/tournament-projection.ts';
import { tournamentById } from '../../events/lookup.ts';
import { CommandError } from './command-error.ts';
import { entrantsAlone } from '../../events/tournament-state.ts';

/** Refuses with `problem` when there is one (an id or a name that cannot be taken). */
export function refuseProblem(problem: string | null): void {
  if (problem) throw new CommandError(problem);
}

/** The tournament, or a refusal naming it (404). */
export function tournamentOf(models: ReadModels, tournamentId: string): TournamentState {
  const tournament = tournamentById(models, tournamentId);
  if (!tournament) throw new CommandError(`tournament ${tournamentId} does not exist`, 404);
  return tournament;
}

/** A registered team (or player) of the tournament, or a refusal naming it (404). */
export function entrantOf(tournament: TournamentState, teamId: string) {
  const row = tournament.model.teams.find((t) => t.teamId === teamId);
  const what = entrantsAlone(tournament) ? 'player' : 'team';
  // A player whose partner is drawn answers for their team now.
  const drawn = !row && tournament.partners?.draw ? tournament.partners.players.find((p) => p.teamId === teamId) : undefined;
  if (drawn) {
    const teams = tournament.model.teams.filter((t) => t.playerIds?.includes(teamId)).map((t) => t.name);
    throw new CommandError(
      teams.length > 0
        ? `partners for ${tournament.model.name} are drawn: ${drawn.name} plays on ${teams.join(' and on ')}, which answers as a team now`
        : `partners for ${tournament.model.name} are drawn, and ${drawn.name} is on no team`,
      409,
    );
  }
  if (!row) throw new CommandError(`tournament ${tournament.model.tournamentId}: ${what} ${teamId} is not registered`, 404);
  return row;
}

/**
 * Looking read models up by an id that came from outside (a URL, a form, a record), and a
 * tournament's entrants' names by id. The read
 * models are plain JSON objects keyed by id, so `games['constructor']` would find
 * Object.prototype's constructor; only an entry the object holds itself is an answer.
 */
import type { ReadModels } from './projections.ts';
import type { GameModel, TournamentModel } from './read-models.ts';
import type { TournamentState } from './tournament-projection.ts';

/** The entry of a record keyed by id, never a property every object inherits (`constructor`, `toString`). */
export function own<T>(record: Record<string, T>, key: string): T | undefined {
  return Object.hasOwn(record, key) ? record[key] : undefined;
}

/** A game by id, or undefined when there is no such game. */
export function gameById(models: ReadModels, gameId: string): GameModel | undefined {
  return own(models.games, gameId);
}

/** A tournament by id, or undefined when there is no such tournament. */
export function tournamentById(models: ReadModels, tournamentId: string): TournamentState | undefined {
  return own(models.tournaments, tournamentId);
}

/**
 * Whether a new id can key a read model: `__proto__` cannot, since setting it on a plain object
 * changes the object's prototype instead of adding an entry.
 */
export function canKeyReadModel(id: string): boolean {
  return id !== '__proto__';
}

/**
 * Each team's name by its id, for the components that print a game's teams. It answers only to
 * the ids it holds: a game of its own names its sides with whatever its import gave, and a side
 * called `constructor` or `__proto__` must find no name here rather than an object's machinery.
 */
export function teamNames(tournament: TournamentModel | undefined): Record<string, string> {
  const names = Object.create(null) as Record<string, string>;
  for (const t of tournament?.teams ?? []) names[t.teamId] = t.name;
  // A progressive table's sides are pairs of players for one round, `a+b`: named by their players.
  for (const match of tournament?.matches ?? []) {
    for (const id of match.teams)
      if (id?.includes('+') && !names[id])
        names[id] = id
          .split('+')
          .map((p) => names[p] ?? p)
          .join(' & ');
  }
  return names;
}

/** An entrant's name in a tournament, for a confirmation; its id when the tournament has no such entrant. */
export function entrantName(models: ReadModels, tournamentId: string, teamId: string): string {
  return teamNames(tournamentById(models, tournamentId)?.model)[teamId] ?? teamId;
}

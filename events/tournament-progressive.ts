/**
 * Progressive evenings in the tournament projection: rounds seated, the number of rounds changed,
 * and the tables, standings, placings and prizes derived from progressive-projection.ts.
 */
import { prizesFor } from '../engine/formats.ts';
import type { ProgressiveRoundStarted, ProgressiveRoundsChanged } from './event-catalogue.ts';
import { type ProgressiveState, deriveProgressive, progressiveFinished, roundStarted } from './progressive-projection.ts';
import type { GameModel, MatchModel, TeamRow } from './read-models.ts';
import { awaitingOf, holdingClaims } from './tournament-rulings.ts';
import { type TournamentState, addLatest, withAwaiting } from './tournament-state.ts';

/** A round of a progressive evening is seated. */
export function progressiveRoundStarted(state: TournamentState, e: ProgressiveRoundStarted, position: number): void {
  if (state.progressive) roundStarted(state.progressive, e);
  addLatest(state, { kind: 'round-seated', round: e.round, tables: e.seating.length }, position);
}

/** The director changed how many rounds the evening plays. */
export function progressiveRoundsChanged(state: TournamentState, e: ProgressiveRoundsChanged, position: number): void {
  state.format = { ...state.format, rounds: e.rounds };
  addLatest(state, { kind: 'rounds-changed', rounds: e.rounds }, position);
}

/** How many of the evening's rounds are over. */
export function roundsOver(progressive: ProgressiveState): number {
  return progressive.rounds.filter((r) => r.results !== null).length;
}

/** Says so when a game just finished a round (`over` rounds were over before it). */
export function noteRoundFinished(state: TournamentState, progressive: ProgressiveState, over: number, position: number): void {
  const now = roundsOver(progressive);
  if (now > over) addLatest(state, { kind: 'round-finished', round: now }, position);
}

export function refreshProgressive(
  state: TournamentState,
  progressive: ProgressiveState,
  rows: Map<string, TeamRow>,
  games: Readonly<Record<string, GameModel>>,
): void {
  const model = state.model;
  // A table whose game a claim holds has no result yet, so its round is not over (tables move together).
  const held = (game: GameModel) => holdingClaims(state, game).length > 0;
  deriveProgressive(progressive, games, state.format.rounds ?? 1, held);
  for (const player of progressive.players) {
    const row = rows.get(player.playerId);
    if (row) row.points = player.total;
  }
  model.matches = progressive.rounds.flatMap((round) =>
    round.seating.map((table): MatchModel => {
      const gameId = round.games[String(table.table)];
      const game = gameId ? games[gameId] : undefined;
      // The game's own team ids, so the pages name both partners of each side.
      const pairs: [string, string] = [`${table.seats.N}+${table.seats.S}`, `${table.seats.E}+${table.seats.W}`];
      const over = game?.winner && !held(game) ? game.winner : null;
      const winner = over ? (over === 'NS' ? pairs[0] : pairs[1]) : null;
      return {
        matchId: `R${round.round}-T${table.table}`,
        round: round.round,
        side: 'table',
        label: `Round ${round.round}, table ${table.table}`,
        teams: pairs,
        games: gameId ? [gameId] : [],
        gamesWon: [over === 'NS' ? 1 : 0, over === 'EW' ? 1 : 0],
        status: over ? 'done' : 'live',
        winner,
        table: table.table,
        clock: null,
        underReview: false,
        ...withAwaiting(awaitingOf(state, gameId ? [gameId] : [], games)),
      };
    }),
  );
  const rounds = state.format.rounds ?? 1;
  if (progressiveFinished(progressive, rounds)) {
    model.status = 'finished';
    model.placings = progressive.standings.map((s) => ({ place: s.place, teamId: s.playerId }));
    for (const s of progressive.standings) {
      const row = rows.get(s.playerId);
      if (row && s.place === 1) row.status = 'champion';
    }
    const prizes = progressive.prizes;
    const byPlace = prizesFor(
      state.format,
      [...new Set(progressive.standings.map((s) => s.place))].map((place) => ({
        place,
        teams: progressive.standings.filter((s) => s.place === place).map((s) => s.playerId),
      })),
    );
    state.prizes = [
      ...byPlace,
      ...(prizes
        ? (
            [
              ['High player', prizes.highPlayer],
              ['High male', prizes.highMale],
              ['High female', prizes.highFemale],
            ] as const
          )
            .filter(([, teams]) => teams.length > 0)
            .map(([prize, teams]) => ({ place: 1, prize, teams: [...teams] }))
        : []),
    ];
  } else if (model.status === 'finished') {
    // A correction reopened the last round.
    model.status = 'running';
    model.placings = [];
    state.prizes = [];
  }
}

/**
 * The standings of a structure placed by its table (round robin, Swiss) in the tournament
 * projection: each decided match's games and points counted from the games that still count,
 * each bye, ranked by the structure's tiebreaks (engine/structures.ts).
 */
import type { MatchView } from '../engine/bracket.ts';
import type { DecidedMatch, StandingRow } from '../engine/league-table.ts';
import { type MatchPlay, countsInTable, hasTable, poolName, standingsOf } from '../engine/format-play.ts';
import type { GameModel, TournamentModel } from './read-models.ts';
import { gamesWonIn } from './tournament-bracket.ts';
import type { TournamentState } from './tournament-state.ts';

/** Points each of a match's two teams scored in its games between them that still count. */
function pointsIn(
  state: TournamentState,
  gameIds: readonly string[],
  teams: readonly [string, string],
  games: Readonly<Record<string, GameModel>>,
): [number, number] {
  const points: [number, number] = [0, 0];
  for (const gameId of gameIds) {
    const game = games[gameId];
    if (!game || state.voided[gameId] !== undefined || !teams.includes(game.teams.NS) || !teams.includes(game.teams.EW)) continue;
    const ns = teams.indexOf(game.teams.NS);
    points[ns]! += game.score.NS;
    points[1 - ns]! += game.score.EW;
  }
  return points;
}

/** The structure's standings from the matches as the bracket now shows them; empty for a structure placed by its bracket. */
export function leagueRows(
  state: TournamentState,
  structure: MatchPlay,
  views: readonly MatchView[],
  games: Readonly<Record<string, GameModel>>,
): StandingRow[] {
  if (!state.bracket || !hasTable(structure)) return [];
  const decided: DecidedMatch[] = [];
  const byes: string[] = [];
  for (const view of views) {
    // With pools only pool play counts; the playoff is its bracket.
    if (!countsInTable(state.bracket.bracket, view)) continue;
    if (view.status === 'bye' && view.winner) byes.push(view.winner);
    if ((view.status !== 'played' && view.status !== 'forfeit') || !view.winner || !view.loser) continue;
    const teams = view.teams as [string, string];
    const ids = state.matchInfo[view.id]?.games ?? [];
    decided.push({ teams, winner: view.winner, games: gamesWonIn(state, ids, teams, games), points: pointsIn(state, ids, teams, games) });
  }
  return standingsOf(structure, state.bracket.bracket, decided, byes);
}

/** The model's league: the standings and the tiebreaks they were ranked by; undefined for other structures. */
export function leagueOf(structure: MatchPlay, rows: StandingRow[], state?: TournamentState): TournamentModel['league'] {
  if (!hasTable(structure)) return undefined;
  const pools = state?.bracket?.bracket.pools;
  return {
    kind: structure.id,
    tiebreaks: [...structure.tiebreaks],
    rows,
    // Each pool's rows are its teams' rows, in the order `rows` ranks them; a row's place is its place in its pool.
    ...(pools ? { pools: pools.teams.map((teams, i) => ({ name: poolName(i), teams: [...teams] })), playoff: pools.seeds ? [...pools.seeds] : null } : {}),
  };
}

/**
 * What a tournament's bracket is drawn with on its page, its screen and in their streams, and with
 * pools into a playoff which of pool play's rounds and the playoff's bracket each of them shows.
 */
import type { ReadModels } from '../../events/projections.ts';
import type { TournamentModel } from '../../events/read-models.ts';
import { leagueRounds } from '../../events/league-rounds.ts';
import { tournamentById } from '../../events/lookup.ts';
import type { TournamentState } from '../../events/tournament-projection.ts';
import { bracketSources } from '../../engine/bracket.ts';
import { Bracket, bracketDraws } from '../../views/bracket.tsx';

/** What a tournament's bracket is drawn with, on its page, its screen and in their streams. */
export function bracketProps(models: ReadModels, tournament: TournamentModel) {
  const state = tournamentById(models, tournament.tournamentId)!;
  const drawn = bracketDraws(state);
  // Pools into a playoff: the bracket is the playoff (views/bracket.tsx leaves pool play to the pools' tables and rounds).
  const pools = state.format.elimination === 'pools';
  return {
    tournament,
    gamesToWin: state.format.gamesToWin,
    sources: bracketSources(state),
    single: state.format.elimination === 'single' || (pools && state.format.playoff === 'single'),
    ...(pools ? { playoff: true } : {}),
    ...(drawn ? { drawn } : {}),
  };
}

/** The rounds the screen shows in the bracket's turn: a league's, and pool play's until the playoff is drawn, when the playoff's bracket takes over. */
export function screenRounds(state: TournamentState) {
  return state.bracket?.bracket.pools?.seeds ? null : leagueRounds(state);
}

/** Pools into a playoff: the playoff's bracket under the pools on the standings page; nothing for other structures. */
export function playoffOf(models: ReadModels, tournament: TournamentModel) {
  return tournamentById(models, tournament.tournamentId)!.format.elimination === 'pools' ? <Bracket {...bracketProps(models, tournament)} /> : null;
}

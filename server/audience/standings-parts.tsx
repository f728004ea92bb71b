/**
 * The parts of a tournament's standings page beyond the table itself, by structure: a league's
 * rounds with their pairings, and a second-chance bracket's own standings. The page and its
 * stream render them alike.
 */
import type { ReadModels } from '../../events/projections.ts';
import type { TournamentModel } from '../../events/read-models.ts';
import { leagueRounds } from '../../events/league-rounds.ts';
import { secondChanceOf } from '../../events/second-chance.ts';
import { teamNames, tournamentById } from '../../events/lookup.ts';
import { RoundPairings } from '../../views/league-table.tsx';
import { SecondChancePanel } from '../../views/second-chance.tsx';

/** A league's rounds, every pairing with its table and result, under its standings; nothing for other structures. */
export function leagueRoundsOf(models: ReadModels, tournament: TournamentModel) {
  const state = tournamentById(models, tournament.tournamentId)!;
  const rounds = leagueRounds(state);
  return rounds ? <RoundPairings rounds={rounds} names={teamNames(tournament)} gamesToWin={state.format.gamesToWin} /> : null;
}

/**
 * A league played without a bracket (round robin, Swiss), whose bracket page shows its rounds
 * instead: every pairing by round. Pools into a playoff keep their playoff's bracket there.
 */
export function roundsInPlaceOfBracket(models: ReadModels, tournament: TournamentModel) {
  const state = tournamentById(models, tournament.tournamentId)!;
  return state.bracket?.bracket.pools ? null : leagueRoundsOf(models, tournament);
}

/** A second-chance bracket's own standings, apart from the main ones; nothing without one. */
export function secondChancePanelOf(tournament: TournamentModel) {
  const chance = secondChanceOf(tournament);
  return chance ? <SecondChancePanel chance={chance} names={teamNames(tournament)} /> : null;
}

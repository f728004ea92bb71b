/**
 * The tournament projection's fold: each event goes to its concern (registration, the bracket
 * and its matches, clocks and rulings, standings with placings and prizes, progressive evenings),
 * then the bracket is settled and the model derived again where the event can move them.
 * Who plays whom is always derived again from the games and the bracket's recorded results,
 * so a corrected game flows through everything after it and nothing is edited by hand.
 */
import type { GameModel } from './read-models.ts';
import { feePaid, feePaymentUndone, signUpClosed, signUpOpened, waitlisted } from './registration-projection.ts';
import { progressiveGameSeen } from './progressive-projection.ts';
import { bracketRoundDrawn, matchSettled, matchStarted, seatMatch, settle, tournamentStarted } from './tournament-bracket.ts';
import { refresh, refreshDecided, refreshGame } from './tournament-placings.ts';
import { noteRoundFinished, progressiveRoundStarted, progressiveRoundsChanged, roundsOver } from './tournament-progressive.ts';
import { checkInUndone, partnersDrawn, playerRegistered, teamCheckedIn, teamRegistered, teamWithdrawn, waitlistPromoted } from './tournament-registration.ts';
import { CAUSES, clockStarted, gameResultCorrected, gameWinner, noteLateClaim, teamDisqualified, timeCalled } from './tournament-rulings.ts';
import { type TournamentEvent, type TournamentState, infoFor } from './tournament-state.ts';

export type { MatchInfo, TournamentEvent, TournamentState } from './tournament-state.ts';
export { clockPerOf, startTournament } from './tournament-state.ts';
export { matchDecidedAtTable, matchName } from './tournament-bracket.ts';
export { holdingClaims } from './tournament-rulings.ts';
export { refresh } from './tournament-placings.ts';

/** Folds one tournament event in; `games` gives the games the tournament's matches played. */
export function evolveTournament(
  state: TournamentState,
  event: TournamentEvent & { readonly at: string },
  position: number,
  games: Readonly<Record<string, GameModel>>,
): void {
  switch (event.type) {
    case 'TournamentCreated':
      return;
    case 'TeamRegistered':
      teamRegistered(state, event.payload);
      return;
    case 'PlayerRegistered':
      playerRegistered(state, event.payload);
      return;
    case 'TeamCheckedIn':
      teamCheckedIn(state, event.payload);
      return;
    case 'SignUpOpened':
      signUpOpened(state.registration, event.payload);
      return;
    case 'SignUpClosed':
      signUpClosed(state.registration);
      return;
    case 'TeamWaitlisted':
      waitlisted(state.registration, event.payload);
      return;
    case 'WaitlistPromoted':
      if (waitlistPromoted(state, event.payload)) refresh(state, games);
      return;
    case 'FeePaid':
      feePaid(state.registration, event.payload);
      return;
    case 'FeePaymentUndone':
      feePaymentUndone(state.registration, event.payload);
      return;
    case 'CheckInUndone':
      checkInUndone(state, event.payload);
      return;
    case 'PartnersDrawn':
      if (partnersDrawn(state, event.payload)) refresh(state, games);
      return;
    case 'TeamWithdrawn':
      if (teamWithdrawn(state, event.payload)) refresh(state, games);
      return;
    case 'TournamentStarted':
      tournamentStarted(state, event.payload);
      refresh(state, games);
      return;
    case 'TeamDisqualified':
      teamDisqualified(state, event.payload, position);
      settle(state, games, position, null, 'TeamDisqualified');
      refresh(state, games);
      return;
    case 'MatchStarted':
      if (!seatMatch(state, event.payload.matchId, matchStarted(state, event.payload))) refresh(state, games);
      return;
    case 'ClockStarted':
      if (!seatMatch(state, event.payload.matchId, clockStarted(state, event.payload))) refresh(state, games);
      return;
    case 'TimeCalled':
      timeCalled(state, event.payload, position, games);
      settle(state, games, position, null, 'TimeCalled');
      refresh(state, games);
      return;
    case 'GameResultCorrected':
      gameResultCorrected(state, event.payload, position, event.at);
      settle(state, games, position, null, 'GameResultCorrected');
      refresh(state, games);
      return;
    case 'ScreenPinned':
      state.screenPinnedAt = position;
      return;
    case 'BracketRoundDrawn':
      if (!bracketRoundDrawn(state, event.payload, position)) return;
      settle(state, games, position);
      refresh(state, games);
      return;
    case 'ProgressiveRoundStarted':
      progressiveRoundStarted(state, event.payload, position);
      refresh(state, games);
      return;
    case 'ProgressiveRoundsChanged':
      progressiveRoundsChanged(state, event.payload, position);
      refresh(state, games);
      return;
    default:
      // Every event type is folded above: a new one fails to compile here until it is.
      event satisfies never;
  }
}

/** A game of one of the tournament's matches (or progressive tables) started or changed its score. */
export function gameChanged(state: TournamentState, game: GameModel, position: number, games: Readonly<Record<string, GameModel>>, cause?: string): void {
  if (!game.matchId) return;
  const info = infoFor(state, game.matchId);
  const known = info.games.includes(game.gameId);
  if (!known) info.games.push(game.gameId);
  noteLateClaim(state, game, position);
  if (state.progressive) {
    progressiveGameSeen(state.progressive, game);
    const over = roundsOver(state.progressive);
    refresh(state, games);
    noteRoundFinished(state, state.progressive, over, position);
    return;
  }
  // Most changes are a hand scored in a game still going on, or a game started: they decide
  // no match, so only that match and its two teams' rows move. A game that ends (or un-ends)
  // settles the bracket only when it decides (or un-decides) its match.
  const winner = gameWinner(state, game);
  if ((state.decided[game.gameId] ?? null) !== winner) {
    state.decided[game.gameId] = winner;
    if (!matchSettled(state, games, game.matchId)) {
      const before = state.bracket;
      const voidedMoved = settle(state, games, position, game.matchId, cause !== undefined && CAUSES[cause] ? cause : null);
      if (voidedMoved || !refreshDecided(state, games, game, known, before)) refresh(state, games);
      return;
    }
  }
  if (!refreshGame(state, games, game, known)) refresh(state, games);
}

/**
 * Clocks and rulings in the tournament projection: a match's clock and time calls, judges'
 * corrections and disqualifications, the claims whose wait for a ruling holds a game's result,
 * and the games a later ruling voided and the matches it reopened.
 */
import { type MatchView, forfeitTeam } from '../engine/bracket.ts';
import type { ClockStarted, GameResultCorrected, TeamDisqualified, TimeCalled } from './event-catalogue.ts';
import type { GameModel, MatchModel } from './read-models.ts';
import { type MatchInfo, type TournamentState, addLatest, clockPerOf, infoFor, viewsOf } from './tournament-state.ts';

/** A match's clock started, on the whole match or on one of its games. */
export function clockStarted(state: TournamentState, e: ClockStarted): MatchInfo {
  const info = infoFor(state, e.matchId);
  const { at, minutes, gameId } = e;
  info.clock = { startedAt: at, minutes, calledAt: null, ...(gameId ? { gameId } : {}) };
  return info;
}

/** Time was called; the fold settles the bracket after, since a game may end on it. */
export function timeCalled(state: TournamentState, e: TimeCalled, position: number, games: Readonly<Record<string, GameModel>>): void {
  const info = infoFor(state, e.matchId);
  // A game's own clock is called in that game only (asher); a match clock in whichever game is on.
  if (info.clock && (!info.clock.gameId || info.clock.gameId === e.gameId)) info.clock.calledAt = e.at;
  const number = games[e.gameId]?.number;
  const perGame = clockPerOf(info, state.format) === 'game';
  addLatest(state, { kind: 'time-called', matchId: e.matchId, game: number && perGame ? number : null, hand: e.hand }, position);
}

/** A judge corrected a finished game's result; the latest correction of a game stands. */
export function gameResultCorrected(state: TournamentState, e: GameResultCorrected, position: number, at: string): void {
  state.corrections.push({ gameId: e.gameId, matchId: e.matchId, winner: e.winner, reason: e.reason, judge: e.judge, position, at });
  addLatest(state, { kind: 'result-corrected', gameId: e.gameId, judge: e.judge, winner: e.winner, reason: e.reason }, position);
}

/** A team is put out of the event: its bracket matches are forfeited, before the start it is withdrawn. */
export function teamDisqualified(state: TournamentState, e: TeamDisqualified, position: number): void {
  const kind = e.kind ?? 'disqualified';
  state.disqualified.push({ teamId: e.teamId, kind, reason: e.reason, position });
  if (state.bracket?.bracket.teams.includes(e.teamId) && !state.bracket.withdrawn.includes(e.teamId)) {
    state.bracket = forfeitTeam(state.bracket, e.teamId);
  }
  if (state.model.status === 'registration' && !state.withdrawn.includes(e.teamId)) state.withdrawn.push(e.teamId);
  addLatest(state, { kind: 'team-out', teamId: e.teamId, how: kind, reason: e.reason }, position);
}

/** What a later event that reopens a decided match is called, in the room's words. */
export const CAUSES: Record<string, string> = {
  RulingGiven: 'a renege ruling',
  RulingWithdrawn: 'the withdrawal of a ruling',
  ScoreCorrected: 'a score correction',
  GameResultCorrected: 'a result correction',
  TeamDisqualified: 'a disqualification',
  TimeCalled: 'a time call',
  EntryUndone: 'an undone entry',
};

/**
 * A claim just made (at `position`) in a game whose match is already decided holds nothing: it
 * came after the result it could change, so a ruling on it is a reopening, not a wait.
 */
export function noteLateClaim(state: TournamentState, game: GameModel, position: number): void {
  const claim = game.claims[game.claims.length - 1];
  if (!claim || claim.position !== position) return;
  const match = state.model.matches.find((m) => m.matchId === game.matchId);
  if (match?.status === 'done') state.lateClaims.push(claimKey(game.gameId, claim.claimId));
}

function claimKey(gameId: string, claimId: string): string {
  return `${gameId} ${claimId}`;
}

/** The claims in a game that wait for a ruling and hold its result (all but those made after its match was decided). */
export function holdingClaims(state: TournamentState, game: GameModel): GameModel['claims'] {
  if (game.claims.length === 0) return [];
  const late = state.lateClaims;
  return game.claims.filter((c) => !c.ruling && !late.includes(claimKey(game.gameId, c.claimId)));
}

/**
 * What waits for a ruling in a match's games: the number of claims holding its result and when
 * the oldest was made. Undefined while nothing waits.
 */
export function awaitingOf(state: TournamentState, gameIds: readonly string[], games: Readonly<Record<string, GameModel>>): MatchModel['awaitingRuling'] {
  let since: string | null = null;
  let claims = 0;
  for (const gameId of gameIds) {
    const game = games[gameId];
    if (!game || game.claims.length === 0) continue;
    for (const claim of holdingClaims(state, game)) {
      claims++;
      if (since === null || claim.at < since) since = claim.at;
    }
  }
  return since === null ? undefined : { since, claims };
}

/**
 * The winner of a game for its match: the judge's latest correction, else the game's own result,
 * which a claim waiting for a ruling holds (none yet) unless `atTable` asks for the result as played.
 */
export function gameWinner(state: TournamentState, game: GameModel, atTable = false): string | null {
  for (let i = state.corrections.length - 1; i >= 0; i--) {
    if (state.corrections[i]!.gameId === game.gameId) return state.corrections[i]!.winner;
  }
  if (!game.winner) return null;
  if (!atTable && holdingClaims(state, game).length > 0) return null;
  return game.teams[game.winner];
}

/**
 * Marks the games that no longer count (see `voided`) as of `position`, and clears the mark of a
 * game whose teams the bracket put back. A match whose game is voided is no longer seated (it is
 * seated again between the right teams); one whose unfinished last game counts again is. Says
 * whether any mark moved, and the matches with a game newly voided.
 */
export function voidGames(state: TournamentState, games: Readonly<Record<string, GameModel>>, position: number): { moved: boolean; voided: string[] } {
  const voided: string[] = [];
  if (!state.bracket) return { moved: false, voided };
  let moved = false;
  for (const view of viewsOf(state.bracket)) {
    const ids = state.matchInfo[view.id]?.games;
    if (!ids) continue;
    for (const id of ids) {
      const game = games[id];
      if (!game) continue;
      const stands =
        view.status !== 'not-needed' &&
        view.teams[0] !== null &&
        view.teams[1] !== null &&
        view.teams.includes(game.teams.NS) &&
        view.teams.includes(game.teams.EW);
      if (stands === (state.voided[id] === undefined)) continue;
      const info = state.matchInfo[view.id]!;
      if (stands) {
        delete state.voided[id];
        if (!game.winner && ids.at(-1) === id) info.started = true;
      } else {
        state.voided[id] = position;
        info.started = false;
        if (!voided.includes(view.id)) voided.push(view.id);
      }
      moved = true;
    }
  }
  return { moved, voided };
}

/** What a match's model says of rulings that undid it: its voided games, and the ruling that reopened it while it is played again. */
export function voidedOf(
  state: TournamentState,
  view: MatchView,
  info: MatchInfo | undefined,
  games: Readonly<Record<string, GameModel>>,
): Pick<MatchModel, 'voided' | 'reopened'> {
  const by = (position: number) => state.causes[String(position)] ?? 'a later ruling';
  const voided = (info?.games ?? []).flatMap((gameId) => {
    const position = state.voided[gameId];
    return position === undefined ? [] : [{ gameId, number: games[gameId]?.number ?? 0, position, by: by(position) }];
  });
  const review = view.status === 'under-review' ? state.reviews.findLast((r) => r.matchId === view.id)?.position : undefined;
  const reopened = view.status !== 'played' ? (review ?? state.reopened[view.id]) : undefined;
  return { ...(voided.length > 0 ? { voided } : {}), ...(reopened !== undefined ? { reopened: { position: reopened, by: by(reopened) } } : {}) };
}

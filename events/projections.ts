/**
 * Every read model, folded from the ledger in position order. The fold is deterministic and
 * skips events it has already seen, so a rebuild from position 0 equals the live models and
 * applying an event twice changes nothing.
 */
import { GAME_EVENT_TYPES, type GameEvent, evolveGame, startGame } from './game-projection.ts';
import { WITHIN_A_HAND, noteGameTimes, noteTournamentTimes } from './event-times.ts';
import { canKeyReadModel, own } from './lookup.ts';
import { registersAlone } from '../engine/format-play.ts';
import { CIRCUIT_EVENT_TYPES, type CircuitEvent, type CircuitState, emptyCircuit, evolveCircuit } from './player-identity.ts';
import type { GameModel, TournamentModel } from './read-models.ts';
import { gameStatsAfter } from './stats-projection.ts';
import { type TournamentEvent, type TournamentState, evolveTournament, gameChanged, startTournament } from './tournament-projection.ts';

/** An event as the projections read it. */
export interface ProjectedEvent {
  position: number;
  type: string;
  payload: unknown;
  /** ISO time the event was appended. */
  at: string;
  /** The stream the event belongs to and its version there, when the reader knows them. */
  stream?: string;
  version?: number;
}

export interface ReadModels {
  /** The last ledger position folded in. */
  position: number;
  games: Record<string, GameModel>;
  tournaments: Record<string, TournamentState>;
  /** The most recently created tournament. */
  currentTournament: string | null;
  /**
   * What `/screen` shows until a director pins a tournament: the first tournament created, then
   * the first to start, and later another only when it starts while the one shown is not being
   * played (still registering, or finished). Creating a tournament never moves a screen.
   */
  screenDefault: string | null;
  /**
   * Each stream's version as folded. A command decided against these models appends expecting
   * exactly this version, so a decision made from a stale view of a stream is refused.
   */
  streams: Record<string, number>;
  /** Who each player is across events, and the series (player-identity.ts). */
  circuit: CircuitState;
}

/** Empty read models, before position 1. */
export function emptyModels(): ReadModels {
  return { position: 0, games: {}, tournaments: {}, currentTournament: null, screenDefault: null, streams: {}, circuit: emptyCircuit() };
}

/** What an event changed, so live screens re-render only that. */
export interface Change {
  games: string[];
  tournaments: string[];
}

/**
 * Folds one event into the models; returns what it changed (nothing for an event already
 * folded), added to `change` when given (a long fold that does not ask passes one to reuse).
 */
export function applyEvent(models: ReadModels, event: ProjectedEvent, change: Change = { games: [], tournaments: [] }): Change {
  if (event.position <= models.position) return change;
  const [games, tournaments] = [change.games.length, change.tournaments.length];
  foldEvent(models, event, change);
  // What the event changed is noted with its time: what it created, started or completed. The
  // time is read once, and only if something takes it (most cards and bids start and end nothing).
  let time: string | undefined;
  const at = () => (time ??= event.at);
  let ended = false;
  for (const gameId of new Set(change.games.slice(games))) {
    const game = models.games[gameId];
    if (game && noteGameTimes(game, at)) ended = true;
  }
  // Most events are a card or a bid that ends no game: no match or tournament time moves.
  if (!ended && WITHIN_A_HAND.has(event.type)) return change;
  for (const tournamentId of new Set(change.tournaments.slice(tournaments))) {
    const state = models.tournaments[tournamentId];
    if (state) noteTournamentTimes(state, at);
  }
  return change;
}

function foldEvent(models: ReadModels, event: ProjectedEvent, change: Change): Change {
  models.position = event.position;
  if (event.stream !== undefined) models.streams[event.stream] = event.version!;
  const payload = event.payload as Record<string, unknown>;

  if (event.type === 'TournamentCreated') {
    const e = payload as unknown as Extract<TournamentEvent, { type: 'TournamentCreated' }>['payload'];
    models.tournaments[e.tournamentId] = startTournament(e);
    models.currentTournament = e.tournamentId;
    models.screenDefault ??= e.tournamentId;
    change.tournaments.push(e.tournamentId);
    return change;
  }
  if (event.type === 'GameStarted') {
    const e = payload as unknown as Extract<GameEvent, { type: 'GameStarted' }>['payload'];
    const game = startGame(e);
    models.games[e.gameId] = game;
    change.games.push(e.gameId);
    touchTournament(models, game, event.position, change);
    return change;
  }
  if (GAME_EVENT_TYPES.has(event.type)) {
    const game = models.games[payload.gameId as string];
    if (game) {
      const scored = evolveGame(game, event as unknown as GameEvent, event.position);
      change.games.push(game.gameId);
      if (scored) touchTournament(models, game, event.position, change, HAND_CLOSERS.has(event.type), event.type);
      // A claim holds its game's result until it is ruled on, whether or not the ruling moved the score.
      else if (game.tournamentId && HOLDS.has(event.type) && models.tournaments[game.tournamentId]) {
        gameChanged(models.tournaments[game.tournamentId]!, game, event.position, models.games, event.type);
        change.tournaments.push(game.tournamentId);
      }
    }
    // A time call is the match's too: its clock.
    if (event.type === 'TimeCalled') applyTournamentEvent(models, event, payload, change);
    return change;
  }
  applyTournamentEvent(models, event, payload, change);
  if (CIRCUIT_EVENT_TYPES.has(event.type)) foldCircuit(models, event);
  return change;
}

/** A registration names people, and a merge, split or series event moves them (player-identity.ts). */
function foldCircuit(models: ReadModels, event: ProjectedEvent): void {
  evolveCircuit(models.circuit, event as unknown as CircuitEvent, (tournamentId) => {
    const state = own(models.tournaments, tournamentId);
    return state ? registersAlone(state.format) : undefined;
  });
}

function applyTournamentEvent(models: ReadModels, event: ProjectedEvent, payload: Record<string, unknown>, change: Change): void {
  const tournament = models.tournaments[payload.tournamentId as string] ?? tournamentOfMatch(models, payload.matchId as string);
  if (!tournament) return;
  evolveTournament(tournament, event as unknown as TournamentEvent & { at: string }, event.position, models.games);
  change.tournaments.push(tournament.model.tournamentId);
  voidedNow(tournament, event.position, change);
  if (event.type === 'TournamentStarted') {
    const shown = models.screenDefault === null ? undefined : models.tournaments[models.screenDefault];
    if (shown?.model.status !== 'running' || shown === tournament) models.screenDefault = tournament.model.tournamentId;
  }
}

function tournamentOfMatch(models: ReadModels, matchId: string | undefined): TournamentState | undefined {
  if (!matchId) return undefined;
  for (const game of Object.values(models.games)) {
    if (game.matchId === matchId && game.tournamentId) return models.tournaments[game.tournamentId];
  }
  return Object.values(models.tournaments).find((t) => t.matchInfo[matchId] !== undefined);
}

/** Entries that start or end a claim's hold on its game's result (tournament-projection.ts). */
const HOLDS = new Set(['RenegeClaimed', 'RulingGiven']);

/** Games the event at `position` voided changed too: their tables say so. */
function voidedNow(tournament: TournamentState, position: number, change: Change): void {
  for (const gameId in tournament.voided) if (tournament.voided[gameId] === position) change.games.push(gameId);
}

/** Entries that close a hand on top of the hands scored before it (anything else may change any hand). */
const HAND_CLOSERS = new Set(['CardPlayed', 'TricksRecorded', 'BidMade', 'MisdealCalled']);

function touchTournament(models: ReadModels, game: GameModel, position: number, change: Change, handClosed = false, cause?: string): void {
  if (!game.tournamentId) return;
  const tournament = models.tournaments[game.tournamentId];
  if (!tournament) return;
  // The event's type says what changed the game, so a match it reopens can say why.
  gameChanged(tournament, game, position, models.games, cause);
  voidedNow(tournament, position, change);
  // Every change that reaches here scored the game again (or started it): its statistics follow.
  if (canKeyReadModel(game.gameId)) tournament.gameStats[game.gameId] = gameStatsAfter(own(tournament.gameStats, game.gameId), game, handClosed);
  change.tournaments.push(game.tournamentId);
}

/** Folds a sequence of events from scratch (a rebuild, or the models as of a past position). */
export function foldEvents(events: Iterable<ProjectedEvent>, until = Infinity): ReadModels {
  const models = emptyModels();
  for (const event of events) {
    if (event.position > until) break;
    applyEvent(models, event);
  }
  return models;
}

/** The tournament model the views read. */
export function tournamentModel(models: ReadModels, tournamentId: string): TournamentModel | undefined {
  return models.tournaments[tournamentId]?.model;
}

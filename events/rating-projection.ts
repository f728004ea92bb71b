/**
 * Players' ratings from every decided game of every event, by the Weng-Lin Bayesian method for
 * team games (the `openskill` package, its default Plackett-Luce model): each person holds a
 * skill estimate `mu` and its uncertainty `sigma`; a decided game moves the four seated players'
 * estimates toward what the result says, more for the uncertain, and narrows their uncertainty.
 * The winners of a game never lose rating from it. The method and its parameters are written up
 * in docs/ratings.md.
 *
 * It is a projection of the read models: games are taken in the order they were played (the
 * ledger position of their last hand), each with the result standing now, so a corrected result
 * moves every rating after it, a rebuild gives the same ratings, and models folded to a past
 * position give the ratings as they stood then.
 */
import { rate, rating } from 'openskill';
import { SEATS, type Seat, teamOf } from '../engine/cards.ts';
import { own } from './lookup.ts';
import { personOfEntry } from './player-identity.ts';
import { entriesOf, seatedPlayers } from './player-ids.ts';
import type { ReadModels } from './projections.ts';
import type { GameModel, TeamRow } from './read-models.ts';
import { gameWinner } from './tournament-rulings.ts';
import type { TournamentState } from './tournament-state.ts';

/** What every new player starts from, and how the value shown is read: the library's defaults. */
export const RATING_START = { mu: 25, sigma: 25 / 3 } as const;

/** A player's rating after one game. */
export interface RatingStep {
  gameId: string;
  tournamentId: string;
  /** The ledger position of the game's last hand: the order games are rated in. */
  position: number;
  /** The game's result for this player: won, lost, or drawn (a progressive table level on points). */
  result: 'won' | 'lost' | 'drawn';
  mu: number;
  sigma: number;
}

export interface PlayerRating {
  playerId: string;
  mu: number;
  sigma: number;
  games: number;
  history: RatingStep[];
}

/** One decided game as the ratings take it: each side's people, and who won (null for level). */
export interface RatedGame {
  gameId: string;
  tournamentId: string;
  position: number;
  sides: [string[], string[]];
  winner: 0 | 1 | null;
}

/** The decided games of every event, with their players as people, in the order they were played. */
export function ratedGames(models: ReadModels): RatedGame[] {
  const out: RatedGame[] = [];
  for (const state of Object.values(models.tournaments)) {
    for (const { game, winner } of decidedGames(state, models.games)) {
      const seated = seatedPlayers(state, game);
      const sides: [string[], string[]] = [[], []];
      for (const seat of SEATS) {
        const entry = seated[seat]?.playerId;
        const person = entry ? personOfEntry(models.circuit, state.model.tournamentId, entry) : undefined;
        if (person) sides[teamOf(seat as Seat) === 'NS' ? 0 : 1].push(person.playerId);
      }
      // A game is rated only when both sides' players are known people, each side at most two
      // and nobody on both sides (a merge of two players who met would make them one).
      if (sides[0].length === 0 || sides[1].length === 0 || sides[0].some((p) => sides[1].includes(p))) continue;
      const position = game.handPositions.at(-1) ?? 0;
      out.push({ gameId: game.gameId, tournamentId: state.model.tournamentId, position, sides: [[...new Set(sides[0])], [...new Set(sides[1])]], winner });
    }
  }
  return out.sort((a, b) => a.position - b.position || (a.gameId < b.gameId ? -1 : a.gameId > b.gameId ? 1 : 0));
}

/**
 * A tournament's games whose result is decided and counts: a bracket's games with a winner (as
 * rulings and corrections leave it) that no ruling voided; a progressive evening's table games
 * once their round is over, the higher score winning.
 */
function decidedGames(state: TournamentState, games: Readonly<Record<string, GameModel>>): { game: GameModel; winner: 0 | 1 | null }[] {
  const out: { game: GameModel; winner: 0 | 1 | null }[] = [];
  if (state.progressive) {
    for (const round of state.progressive.rounds) {
      if (round.results === null) continue;
      for (const gameId of Object.values(round.games)) {
        const game = own(games, gameId);
        if (!game || game.abandoned) continue;
        const { NS, EW } = game.score;
        out.push({ game, winner: NS === EW ? null : NS > EW ? 0 : 1 });
      }
    }
    return out;
  }
  for (const info of Object.values(state.matchInfo)) {
    for (const gameId of info.games) {
      const game = own(games, gameId);
      if (!game || state.voided[gameId] !== undefined) continue;
      const winner = gameWinner(state, game);
      if (winner === null) continue;
      if (winner !== game.teams.NS && winner !== game.teams.EW) continue;
      out.push({ game, winner: winner === game.teams.NS ? 0 : 1 });
    }
  }
  return out;
}

/** Rates games in order, from everyone's start: each person's rating and its history. */
export function rateGames(rated: readonly RatedGame[]): Map<string, PlayerRating> {
  const ratings = new Map<string, PlayerRating>();
  const of = (playerId: string) => {
    let r = ratings.get(playerId);
    if (!r) ratings.set(playerId, (r = { playerId, ...rating(RATING_START), games: 0, history: [] }));
    return r;
  };
  for (const game of rated) {
    const teams = game.sides.map((side) => side.map((p) => of(p)));
    // Lower rank is better; a level game ranks both sides alike.
    const rank = game.winner === null ? [1, 1] : game.winner === 0 ? [1, 2] : [2, 1];
    const after = rate(
      teams.map((team) => team.map((r) => rating({ mu: r.mu, sigma: r.sigma }))),
      { rank },
    );
    teams.forEach((team, t) =>
      team.forEach((r, i) => {
        const next = after[t]![i]!;
        r.mu = next.mu;
        r.sigma = next.sigma;
        r.games++;
        const result = game.winner === null ? 'drawn' : game.winner === t ? 'won' : 'lost';
        r.history.push({ gameId: game.gameId, tournamentId: game.tournamentId, position: game.position, result, mu: next.mu, sigma: next.sigma });
      }),
    );
  }
  return ratings;
}

// The ratings of live models are worked out again only when the ledger has moved.
const KEPT = new WeakMap<ReadModels, { position: number; ratings: Map<string, PlayerRating> }>();

/** Every person's rating from the models, as of the position they are folded to. */
export function ratingsOf(models: ReadModels): Map<string, PlayerRating> {
  const kept = KEPT.get(models);
  if (kept && kept.position === models.position) return kept.ratings;
  const ratings = rateGames(ratedGames(models));
  KEPT.set(models, { position: models.position, ratings });
  return ratings;
}

/** The value shown for ordering and seeding: the skill the player is very likely above (mu − 3σ). */
export function conservative(r: { mu: number; sigma: number }): number {
  return r.mu - 3 * r.sigma;
}

/**
 * An event's entrants still registered, in the order of their players' ratings: each entrant by
 * the mean of its players' conservative values (a player not yet rated at the start's), the
 * highest first; level entrants keep their registration order. A director's seeding choice.
 */
export function ratingOrder(models: ReadModels, tournamentId: string): string[] {
  const state = own(models.tournaments, tournamentId);
  if (!state) return [];
  const ratings = ratingsOf(models);
  const start = conservative(RATING_START);
  const strengthOf = (row: TeamRow) => {
    const entries = entriesOf(state, row);
    const values = entries.map((entry) => {
      const person = personOfEntry(models.circuit, tournamentId, entry);
      const r = person ? ratings.get(person.playerId) : undefined;
      return r ? conservative(r) : start;
    });
    return values.reduce((a, b) => a + b, 0) / Math.max(1, values.length);
  };
  return state.model.teams
    .filter((t) => !state.withdrawn.includes(t.teamId))
    .map((t, i) => ({ teamId: t.teamId, i, value: strengthOf(t) }))
    .sort((a, b) => b.value - a.value || a.i - b.i)
    .map((t) => t.teamId);
}

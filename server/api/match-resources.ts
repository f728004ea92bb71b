/**
 * A tournament's matches and entrants as the read API answers them, from the read models at
 * whatever position they were folded to (the live ones, or the reader thread's for `?asOf=`).
 * The bracket's matches inside the tournament resource are made here too, so a match reads the
 * same in both places.
 */
import { seatedAtTables } from '../../engine/format-play.ts';
import type { ReadModels } from '../../events/projections.ts';
import type { GameModel, MatchModel } from '../../events/read-models.ts';
import type { TournamentState } from '../../events/tournament-projection.ts';
import { gameById, teamNames, tournamentById } from '../../events/lookup.ts';
import { type SlotSource, bracketSources } from '../../engine/bracket.ts';
import { seatsOf } from '../../engine/cards.ts';
import { type PersonOf, type PlayerRef, rosterOf } from '../../events/player-ids.ts';
import { personLookup } from '../../events/player-identity.ts';
import { parseProgressiveMatchId, progressiveMatchId } from '../../events/progressive-projection.ts';
import { tournamentLinks } from '../../events/addresses.ts';
import { matchTimes } from '../../events/event-times.ts';
import type { SlotResource } from './api-schemas.ts';
import type { EntrantList, MatchDetail, MatchList } from './match-schemas.ts';

/** The API's own addresses, in one place so links and routes agree. */
export const apiLinks = {
  tournaments: '/api/v1/tournaments',
  tournament: (id: string) => `/api/v1/tournaments/${encodeURIComponent(id)}`,
  stats: (id: string) => `/api/v1/tournaments/${encodeURIComponent(id)}/stats`,
  matches: (id: string) => `/api/v1/tournaments/${encodeURIComponent(id)}/matches`,
  match: (id: string, matchId: string) => `/api/v1/tournaments/${encodeURIComponent(id)}/matches/${encodeURIComponent(matchId)}`,
  entrants: (id: string) => `/api/v1/tournaments/${encodeURIComponent(id)}/entrants`,
  game: (id: string) => `/api/v1/games/${encodeURIComponent(id)}`,
  embed: (id: string, view: 'bracket' | 'standings') => `/embed/tournaments/${encodeURIComponent(id)}/${view}`,
};

/** Where a slot's team comes from, as the bracket was drawn; null when the bracket does not say. */
function slotFrom(source: SlotSource | undefined): SlotResource['from'] {
  if (!source) return null;
  switch (source.kind) {
    case 'team':
      return { kind: 'seed', seed: source.seed };
    case 'winner':
    case 'loser':
      return { kind: source.kind, matchId: source.match };
    case 'bye':
      return { kind: 'bye' };
    default: {
      const _exhaustive: never = source;
      return _exhaustive;
    }
  }
}

/** Makes the tournament's matches in the shape the tournament resource lists them. */
export function bracketMatches(state: TournamentState, personOf: PersonOf = (entry) => entry) {
  const model = state.model;
  const names = teamNames(model);
  const sources = seatedAtTables(state.format) ? {} : bracketSources(state);
  const rosters = new Map(model.teams.map((t) => [t.teamId, rosterOf(t, personOf)]));
  const seatings = new Map<string, Record<'N' | 'E' | 'S' | 'W', string>>(
    (state.progressive?.rounds ?? []).flatMap((r) => r.seating.map((t) => [progressiveMatchId(r.round, t.table), t.seats] as const)),
  );
  const slotOf = (m: MatchModel, i: 0 | 1): SlotResource => {
    const teamId = m.teams[i];
    const seats = seatings.get(m.matchId);
    const players: PlayerRef[] = seats
      ? seatsOf(i === 0 ? 'NS' : 'EW').map((seat) => ({ playerId: personOf(seats[seat]), name: names[seats[seat]] ?? seats[seat] }))
      : teamId === null
        ? []
        : (rosters.get(teamId) ?? []);
    return { teamId, name: teamId === null ? null : (names[teamId] ?? teamId), players, from: slotFrom(sources[m.matchId]?.[i]) };
  };
  return (m: MatchModel) => ({
    matchId: m.matchId,
    label: m.label,
    round: m.round,
    side: m.side as 'winners' | 'losers' | 'final' | 'third-place' | 'consolation' | 'pool' | 'table',
    table: m.table,
    status: m.status,
    slots: [slotOf(m, 0), slotOf(m, 1)] as [SlotResource, SlotResource],
    gamesWon: m.gamesWon,
    winner: m.winner,
    games: m.games.filter((g) => state.voided?.[g] === undefined),
    underReview: m.underReview,
    voided: m.reopened !== undefined || (m.voided?.length ?? 0) > 0,
    voidedGames: (m.voided ?? []).map((v) => ({ gameId: v.gameId, voided: true as const, voidedBy: v.position })),
    reopenedBy: m.reopened?.position ?? null,
    awaitingRuling: m.awaitingRuling ?? null,
    ...matchTimes(state, m.matchId),
  });
}

/** A match with its games' scores and its links. */
function matchDetails(models: ReadModels, state: TournamentState) {
  const shape = bracketMatches(state, personLookup(models.circuit, state.model.tournamentId));
  const tournamentId = state.model.tournamentId;
  const pages = tournamentLinks(tournamentId);
  return (m: MatchModel): MatchDetail => ({
    ...shape(m),
    tournamentId,
    gamesPlayed: m.games.flatMap((gameId) => {
      const game = gameById(models, gameId);
      return game ? [gameSummary(game, state.voided?.[gameId] !== undefined)] : [];
    }),
    links: {
      self: apiLinks.match(tournamentId, m.matchId),
      tournament: apiLinks.tournament(tournamentId),
      page: m.games.length > 0 ? pages.game(m.games[m.games.length - 1]!) : pages.bracket,
    },
  });
}

function gameSummary(game: GameModel, voided: boolean): MatchDetail['gamesPlayed'][number] {
  return {
    gameId: game.gameId,
    number: game.number,
    state: game.abandoned ? 'abandoned' : game.winner ? 'finished' : 'playing',
    ...gameTimes(game),
    teams: { NS: game.teams.NS, EW: game.teams.EW },
    score: { NS: game.score.NS, EW: game.score.EW },
    winner: game.winner,
    voided,
    links: { self: apiLinks.game(game.gameId) },
  };
}

/** A game's times, as noted. */
export function gameTimes(game: GameModel): { startedAt: string | null; completedAt: string | null } {
  return { startedAt: game.times?.startedAt ?? null, completedAt: game.times?.completedAt ?? null };
}

/** A tournament's times, as noted. */
export function tournamentTimes(state: TournamentState): { createdAt: string | null; startedAt: string | null; completedAt: string | null } {
  const times = state.times;
  return { createdAt: times?.createdAt ?? null, startedAt: times?.startedAt ?? null, completedAt: times?.completedAt ?? null };
}

/** What the matches list may be narrowed to. */
export interface MatchFilter {
  status?: string;
  round?: string;
  teamId?: string;
}

/** A tournament's matches, narrowed as asked; null when the models hold no such tournament. */
export function matchList(models: ReadModels, tournamentId: string, filter: MatchFilter): MatchList | null {
  const state = tournamentById(models, tournamentId);
  if (!state) return null;
  const detail = matchDetails(models, state);
  const plays = (m: MatchModel, teamId: string) =>
    m.teams.some((t) => t === teamId || (t !== null && seatedAtTables(state.format) && t.split('+').includes(teamId)));
  const matches = state.model.matches.filter(
    (m) =>
      (filter.status === undefined || m.status === filter.status) &&
      (filter.round === undefined || m.round === Number(filter.round)) &&
      (filter.teamId === undefined || plays(m, filter.teamId)),
  );
  return { position: models.position, tournamentId, matches: matches.map(detail) };
}

/** One match of a tournament; a sentence naming what is not there when it is not. */
export function matchResource(models: ReadModels, tournamentId: string, matchId: string): { body: unknown } | { missing: string } {
  const state = tournamentById(models, tournamentId);
  if (!state) return { missing: `there is no tournament '${tournamentId}'` };
  const match = state.model.matches.find((m) => m.matchId === matchId);
  if (!match) {
    const words = parseProgressiveMatchId(matchId) && seatedAtTables(state.format) ? 'table' : 'match';
    return { missing: `tournament '${tournamentId}' has no ${words} '${matchId}'` };
  }
  return { body: { position: models.position, ...matchDetails(models, state)(match) } };
}

/** A tournament's entrants with their players' ids; null when the models hold no such tournament. */
export function entrantList(models: ReadModels, tournamentId: string): EntrantList | null {
  const state = tournamentById(models, tournamentId);
  if (!state) return null;
  const genders = new Map((state.progressive?.players ?? []).map((p) => [p.playerId, p.gender ?? null]));
  const personOf = personLookup(models.circuit, tournamentId);
  return {
    position: models.position,
    tournamentId,
    entrants: state.model.teams.map((t) => ({
      entrantId: t.teamId,
      kind: seatedAtTables(state.format) ? ('player' as const) : ('team' as const),
      name: t.name,
      players: state.progressive
        ? [{ playerId: personOf(t.teamId), name: t.name, gender: genders.get(t.teamId) ?? null }]
        : rosterOf(t, personOf).map((p) => ({ ...p, gender: null })),
      seed: t.seed,
      status: t.status,
    })),
  };
}

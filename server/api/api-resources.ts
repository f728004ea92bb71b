/**
 * The read API's resources, made from the read models at whatever position they were folded to:
 * the models the server holds now, or the ones the reader thread folds for `?asOf=`. Pure, so
 * the same function answers both, and the standings' order and words (place labels) come from
 * the very functions the pages use (events/standings.ts), so the API and the room never say
 * different things.
 */
import { seatedAtTables } from '../../engine/format-play.ts';
import { type StandingRow, TIEBREAK_WORDS, tiedAtTop } from '../../engine/league-table.ts';
import { STRUCTURES } from '../../engine/structures.ts';
import { leagueRounds } from '../../events/league-rounds.ts';
import type { ReadModels } from '../../events/projections.ts';
import type { GameModel, MatchModel, TournamentModel } from '../../events/read-models.ts';
import { entrantsAlone } from '../../events/tournament-state.ts';
import { partnersOf } from './partner-resources.ts';
import type { TournamentState } from '../../events/tournament-projection.ts';
import { gameById, tournamentById, teamNames } from '../../events/lookup.ts';
import type { TournamentResource } from './api-schemas.ts';
import type { GameResource } from './game-schemas.ts';
import { rankTeams, teamStandings } from '../../events/standings.ts';
import { tournamentLinks, replayLink } from '../../events/addresses.ts';
import { clockOfGame } from '../../events/clocks.ts';
import { gameInPlay } from '../../events/reopening.ts';
import { type PersonOf, rosterOf, seatedPlayers } from '../../events/player-ids.ts';
import { personLookup } from '../../events/player-identity.ts';
import { apiLinks, bracketMatches, gameTimes, tournamentTimes } from './match-resources.ts';

/** The game in play at each live table of a tournament, by table (as the venue screen lists them). */
function liveGames(models: ReadModels, model: TournamentModel): { match: MatchModel; game: GameModel }[] {
  return model.matches
    .filter((m) => m.status === 'live' && m.games.length > 0)
    .sort((a, b) => (a.table ?? 0) - (b.table ?? 0))
    .flatMap((match) => {
      const game = gameInPlay(match, models.games) ?? gameById(models, match.games[match.games.length - 1]!);
      return game ? [{ match, game }] : [];
    });
}

/** A tournament as the models hold it; null when they hold no such tournament. */
export function tournamentResource(models: ReadModels, tournamentId: string): TournamentResource | null {
  const state = tournamentById(models, tournamentId);
  if (!state) return null;
  const model = state.model;
  const pages = tournamentLinks(tournamentId);
  const standings = teamStandings(model);
  const placed = new Map(model.placings.map((p) => [p.teamId, p.place]));
  const options = state.format;
  const league = new Map((model.league?.rows ?? []).map((row) => [row.teamId, row]));
  return {
    position: models.position,
    tournamentId,
    name: model.name,
    format: model.format,
    status: model.status,
    ...tournamentTimes(state),
    options: {
      elimination: options.elimination,
      reset: options.reset,
      gamesToWin: options.gamesToWin,
      clockMinutes: options.clockMinutes,
      finalClockMinutes: options.finalClockMinutes,
      clockPer: options.clockPer,
      rules: options.rules,
      firstRoundRules: options.firstRoundRules,
      finalRules: options.finalRules,
      byeByDraw: options.byeByDraw,
      roundByRound: options.roundByRound ?? false,
      firstDealer: options.firstDealer,
      prizes: options.prizes,
      rounds: options.rounds,
      pools: options.pools ?? null,
      advance: options.advance ?? null,
      playoff: options.playoff ?? null,
    },
    entrants: entrantsOf(state, personLookup(models.circuit, tournamentId)),
    bracket: seatedAtTables(state.format) ? null : { matches: model.matches.map(bracketMatches(state, personLookup(models.circuit, tournamentId))) },
    progressive: progressiveOf(state),
    league: leagueOf(state),
    standings: rankTeams(model).map((row, i) => ({
      rank: i + 1,
      teamId: row.teamId,
      name: row.name,
      place: placed.get(row.teamId) ?? null,
      placeLabel: standings.get(row.teamId)?.label ?? 'Playing',
      record: { matches: { won: row.wins, lost: row.losses }, games: { won: row.gamesWon, lost: row.gamesLost } },
      points: row.points,
      bags: row.bags,
      sets: row.sets,
      tiebreaks: tiebreaksOf(league.get(row.teamId)),
    })),
    pools: poolsOf(model),
    liveTables: liveGames(models, model).map(({ match, game }) => {
      const clock = clockOfGame(match.clock, game.gameId);
      return {
        table: match.table,
        matchId: match.matchId,
        gameId: game.gameId,
        teams: { NS: game.teams.NS, EW: game.teams.EW },
        score: { NS: game.score.NS, EW: game.score.EW },
        hand: game.current?.number ?? game.hands.length + 1,
        clock: clock ? { startedAt: clock.startedAt, minutes: clock.minutes, calledAt: clock.calledAt } : null,
      };
    }),
    prizes: (model.prizes ?? []).map((p) => ({ place: p.place, prize: p.prize, teams: p.teams })),
    secondChance: model.secondChance ? model.secondChance.map((p) => ({ place: p.place, teamId: p.teamId })) : null,
    secondChancePrizes: model.secondChancePrizes ? model.secondChancePrizes.map((p) => ({ place: p.place, prize: p.prize, teams: p.teams })) : null,
    partners: partnersOf(state, personLookup(models.circuit, tournamentId)),
    links: {
      self: apiLinks.tournament(tournamentId),
      stats: apiLinks.stats(tournamentId),
      matches: apiLinks.matches(tournamentId),
      entrants: apiLinks.entrants(tournamentId),
      page: pages.home,
      standings: pages.leaderboard,
      bracket: pages.bracket,
      screen: pages.screen,
      standingsCsv: `${pages.home}/standings.csv`,
      stream: '/api/events/stream',
      feed: `/api/events/stream?tournament=${encodeURIComponent(tournamentId)}`,
      embedBracket: apiLinks.embed(tournamentId, 'bracket'),
      embedStandings: apiLinks.embed(tournamentId, 'standings'),
    },
  };
}

/** A league's rounds with their pairings and byes, its tiebreaks in words and a tie at the top; null for other structures. */
function leagueOf(state: TournamentState): TournamentResource['league'] {
  const league = state.model.league;
  const rounds = leagueRounds(state);
  if (!league || !rounds) return null;
  const names = teamNames(state.model);
  const team = (teamId: string) => ({ teamId, name: names[teamId] ?? teamId });
  return {
    structure: STRUCTURES.find((s) => s.options.elimination === league.kind)?.name ?? league.kind,
    tiebreaks: league.tiebreaks.map((tiebreak) => ({ tiebreak, words: TIEBREAK_WORDS[tiebreak] })),
    // With pools every pool has a first: each pool says its own tie (`pools[].tiedAtTop`).
    tiedAtTop: league.pools ? [] : tiedAtTop(league.rows).map(team),
    roundsInEvent: rounds.roundsInEvent,
    currentRound: rounds.current,
    roundToPair: rounds.toPair,
    byeCountsAsWin: rounds.byeIsWin,
    rounds: rounds.rounds.map((r) => ({
      round: r.round,
      decided: r.decided,
      bye: r.bye === null ? null : team(r.bye),
      pairings: r.pairings.map((p) => ({
        matchId: p.matchId,
        table: p.table,
        teams: [team(p.teams[0]), team(p.teams[1])],
        state: p.state,
        winner: p.winner,
        gamesWon: [p.gamesWon[0], p.gamesWon[1]],
        forfeit: p.forfeit,
        pool: p.pool ?? null,
      })),
    })),
  };
}

/** A league row's tiebreaks with their values, the one that separated it in words; null outside a league. */
function tiebreaksOf(row: StandingRow | undefined): TournamentResource['standings'][number]['tiebreaks'] {
  if (!row) return null;
  return {
    shared: row.shared,
    separatedBy: row.separatedBy ? TIEBREAK_WORDS[row.separatedBy] : null,
    matchWins: row.wins,
    gamesWon: row.gamesWon,
    pointsDifference: row.difference,
    headToHead: row.headToHead,
    opponentsWinShare: row.opponentsWinShare,
  };
}

/** Each pool with its standings and who of it goes on; null for a structure without pools. */
function poolsOf(model: TournamentModel): TournamentResource['pools'] {
  const league = model.league;
  if (!league?.pools) return null;
  const names = new Map(model.teams.map((t) => [t.teamId, t.name]));
  return league.pools.map((pool) => ({
    name: pool.name,
    teams: [...pool.teams],
    standings: league.rows
      .filter((row) => pool.teams.includes(row.teamId))
      .map((row) => ({
        teamId: row.teamId,
        name: names.get(row.teamId) ?? row.teamId,
        place: row.place,
        record: { matches: { won: row.wins, lost: row.losses }, games: { won: row.gamesWon, lost: row.gamesLost } },
        tiebreaks: tiebreaksOf(row)!,
      })),
    tiedAtTop: tiedAtTop(league.rows.filter((row) => pool.teams.includes(row.teamId))),
    goingOn: league.playoff ? league.playoff.filter((t) => pool.teams.includes(t)) : null,
  }));
}

function entrantsOf(state: TournamentState, personOf: PersonOf): TournamentResource['entrants'] {
  const rows = state.model.teams;
  // Players alone: a progressive evening's, or a drawn-partner event's until its partners are drawn.
  if (!entrantsAlone(state)) {
    return {
      kind: 'teams',
      teams: rows.map((t) => ({ teamId: t.teamId, name: t.name, players: t.players, roster: rosterOf(t, personOf), seed: t.seed, status: t.status })),
    };
  }
  const genders = new Map((state.progressive?.players ?? []).map((p) => [p.playerId, p.gender ?? null]));
  return {
    kind: 'players',
    players: rows.map((t) => ({
      playerId: personOf(t.teamId),
      entrantId: t.teamId,
      name: t.name,
      gender: genders.get(t.teamId) ?? null,
      seed: t.seed,
      status: t.status,
    })),
  };
}

function progressiveOf(state: TournamentState): TournamentResource['progressive'] {
  const p = state.progressive;
  if (!p) return null;
  return {
    roundsInEvent: state.format.rounds ?? 1,
    rounds: p.rounds.map((r) => ({
      round: r.round,
      tables: r.seating.map((t) => {
        const result = r.results?.find((x) => x.table === t.table);
        return {
          table: t.table,
          gameId: r.games[String(t.table)] ?? null,
          seats: { ...t.seats },
          result: result ? { scores: { NS: result.scores.NS, EW: result.scores.EW }, winner: result.winner } : null,
        };
      }),
      sittingOut: r.sittingOut ?? [],
      scores: r.scores,
    })),
    next: p.nextSeating
      ? { round: p.rounds.length + 1, seats: p.nextSeating.map((t) => ({ table: t.table, seats: { ...t.seats } })), sittingOut: p.nextSittingOut ?? [] }
      : null,
  };
}

/** A game as the models hold it; null when they hold no such game. */
export function gameResource(models: ReadModels, gameId: string): GameResource | null {
  const game = gameById(models, gameId);
  if (!game) return null;
  const state = game.tournamentId ? tournamentById(models, game.tournamentId) : undefined;
  const tournament = state?.model;
  const names = teamNames(tournament);
  const voidedBy = state?.voided?.[gameId] ?? null;
  const page = game.tournamentId ? tournamentLinks(game.tournamentId).game(gameId) : `/games/${encodeURIComponent(gameId)}`;
  return {
    position: models.position,
    gameId,
    tournamentId: game.tournamentId,
    matchId: game.matchId,
    number: game.number,
    state: game.abandoned ? 'abandoned' : game.winner ? 'finished' : 'playing',
    ...gameTimes(game),
    rules: game.rules,
    teams: {
      NS: { teamId: game.teams.NS, name: names[game.teams.NS] ?? game.teams.NS },
      EW: { teamId: game.teams.EW, name: names[game.teams.EW] ?? game.teams.EW },
    },
    seats: { ...game.seats },
    players: seatedPlayers(state, game, game.tournamentId ? personLookup(models.circuit, game.tournamentId) : undefined),
    score: { NS: game.score.NS, EW: game.score.EW },
    bags: { NS: game.bags.NS, EW: game.bags.EW },
    winner: game.winner,
    reason: game.reason,
    voided: voidedBy !== null,
    voidedBy,
    hands: game.rows.map((row) => ({
      number: row.number,
      dealer: row.dealer,
      misdeal: row.misdeal ?? null,
      bids: { ...(row.bids ?? {}) },
      tricks: { ...(row.tricks ?? {}) },
      NS: { ...row.NS },
      EW: { ...row.EW },
      reneges: row.reneges.map((r) => ({ seat: r.seat, trick: r.trick })),
      position: row.position,
      replay: replayLink(gameId, row.number),
    })),
    current: game.current
      ? {
          number: game.current.number,
          dealer: game.current.dealer,
          bids: { ...game.current.bids },
          tricksPlayed: game.current.plays.filter((trick) => trick.length === 4).length,
        }
      : null,
    links: { self: apiLinks.game(gameId), page, record: `/games/${encodeURIComponent(gameId)}/record`, replay: replayLink(gameId, 1) },
  };
}

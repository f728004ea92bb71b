/**
 * A tournament's statistics as the pages, the CSV and the read API give them: the games' parts
 * folded by the statistics projection (stats-projection.ts), added up per team, per player and
 * for the whole event, with the highlights told in words. Only reads the tournament's state, so
 * the same function answers for the live models and for the models folded to a past position.
 */
import { type Seat, type Team, SEATS, seatsOf, teamOf } from '../engine/cards.ts';
import { parseProgressiveMatchId } from './progressive-projection.ts';
import { type PersonOf, rosterOf, seatedPlayers } from './player-ids.ts';
import { personLookup } from './player-identity.ts';
import type { ReadModels } from './projections.ts';
import { tournamentById } from './lookup.ts';
import { type GameHighlight, type GameStats, COMEBACK_FLOOR, addLine, emptySeatLine, emptyTeamLine } from './stats-projection.ts';
import type { Highlight, PlayerStats, StatsTotals, TeamStats, TournamentStatsPayload } from './stats-schema.ts';
import type { TournamentState } from './tournament-projection.ts';

/** The tournament's statistics from the live models; undefined for a tournament that does not exist. */
export function statsOfTournament(models: ReadModels, tournamentId: string): TournamentStatsPayload | undefined {
  const state = tournamentById(models, tournamentId);
  return state ? tournamentStats(state, models.position, personLookup(models.circuit, tournamentId)) : undefined;
}

/** The tournament's statistics from its state as folded to `position`; `personOf` names players across events (the event's own ids without it). */
export function tournamentStats(state: TournamentState, position: number, personOf?: PersonOf): TournamentStatsPayload {
  const games = Object.entries(state.gameStats ?? {});
  const progressive = state.progressive !== null;
  const names = new Map(state.model.teams.map((t) => [t.teamId, t.name]));

  const teams: TeamStats[] = [];
  const teamLines = new Map<string, TeamStats>();
  if (!progressive) {
    for (const row of state.model.teams) {
      if (row.status === 'withdrawn') continue;
      const line: TeamStats = { teamId: row.teamId, name: row.name, ...emptyTeamLine() };
      teams.push(line);
      teamLines.set(row.teamId, line);
    }
  }

  const players: PlayerStats[] = [];
  const playerLines = new Map<string, PlayerStats>();
  const playerLine = (key: string, make: () => PlayerStats): PlayerStats => {
    let line = playerLines.get(key);
    if (!line) {
      line = make();
      playerLines.set(key, line);
      players.push(line);
    }
    return line;
  };
  for (const row of state.model.teams) {
    if (row.status === 'withdrawn') continue;
    if (progressive) playerLine(`p:${row.teamId}`, () => ({ name: row.name, playerId: personOf ? personOf(row.teamId) : row.teamId, ...emptySeatLine() }));
    else
      for (const { name, playerId } of rosterOf(row, personOf))
        playerLine(`t:${row.teamId}:${name}`, () => ({ name, playerId, teamId: row.teamId, ...emptySeatLine() }));
  }

  const totals: StatsTotals = {
    games: 0,
    hands: 0,
    misdeals: 0,
    tricks: 0,
    contractsSet: 0,
    nilsBid: 0,
    nilsMade: 0,
    blindNilsBid: 0,
    blindNilsMade: 0,
    bostons: 0,
    bags: 0,
    bagPenalties: 0,
    renegesClaimed: 0,
    renegesUpheld: 0,
    bestHand: null,
    biggestComeback: null,
  };
  const highlights: Highlight[] = [];
  const comebacks: { gameId: string; stats: GameStats }[] = [];

  for (const [gameId, stats] of games) {
    // A game a later ruling voided stays on record but counts for nothing, its highlights included.
    if (state.voided?.[gameId] !== undefined) continue;
    const sides = sidesOf(state, stats, names, personOf);
    totals.games++;
    totals.hands += stats.teams.NS.hands;
    totals.misdeals += stats.misdeals;
    for (const team of ['NS', 'EW'] as const) {
      const line = stats.teams[team];
      const teamId = sides.teamIds[team];
      const teamLine = teamId === undefined ? undefined : teamLines.get(teamId);
      if (teamLine) addLine(teamLine, line);
      totals.tricks += line.taken;
      totals.contractsSet += line.contractsSet;
      totals.nilsBid += line.nilsBid;
      totals.nilsMade += line.nilsMade;
      totals.blindNilsBid += line.blindNilsBid;
      totals.blindNilsMade += line.blindNilsMade;
      totals.bostons += line.bostons;
      totals.bags += line.bags;
      totals.bagPenalties += line.bagPenalties;
      totals.renegesClaimed += line.renegesClaimed;
      totals.renegesUpheld += line.renegesUpheld;
      if (line.bestHand !== null && (totals.bestHand === null || line.bestHand > totals.bestHand)) totals.bestHand = line.bestHand;
    }
    for (const seat of SEATS) {
      const line = stats.seats[seat];
      const who = sides.players[seat];
      if (!line || !who) continue;
      addLine(playerLine(who.key, who.make), line);
    }
    for (const highlight of stats.highlights) highlights.push(told(highlight, gameId, sides));
    if (stats.comeback) comebacks.push({ gameId, stats });
  }

  // The comeback told to the room is each one that beats every game won before it.
  comebacks.sort((a, b) => a.stats.comeback!.position - b.stats.comeback!.position);
  for (const { gameId, stats } of comebacks) {
    const comeback = stats.comeback!;
    const best = totals.biggestComeback;
    if (comeback.behind === 0 || (best !== null && comeback.behind <= best.behind)) continue;
    const sides = sidesOf(state, stats, names, personOf);
    const teamId = sides.teamIds[comeback.team];
    const text = `${sides.names[comeback.team]} came back from ${comeback.behind} behind to win (${sides.where})`;
    totals.biggestComeback = { game: gameId, hand: comeback.hand, behind: comeback.behind, text, ...(teamId !== undefined ? { teamId } : {}) };
    if (comeback.behind >= COMEBACK_FLOOR) {
      highlights.push({
        kind: 'comeback',
        text: `${text}: the biggest comeback yet`,
        game: gameId,
        hand: comeback.hand,
        position: comeback.position,
        ...(teamId !== undefined ? { teamId } : {}),
      });
    }
  }
  highlights.sort((a, b) => a.position - b.position || a.game.localeCompare(b.game));

  return { tournamentId: state.model.tournamentId, position, stats: { teams, players, totals }, highlights };
}

interface Sides {
  /** The registered team on each side; none in a progressive evening, whose partnerships change. */
  teamIds: Partial<Record<Team, string>>;
  names: Record<Team, string>;
  players: Partial<Record<Seat, { key: string; make: () => PlayerStats }>>;
  /** Where the game was played, in the room's words. */
  where: string;
}

function sidesOf(state: TournamentState, stats: GameStats, names: Map<string, string>, personOf?: PersonOf): Sides {
  const game = { seatNames: stats.seatNames, teams: stats.teamIds };
  const where = whereOf(state, stats);
  if (state.progressive) {
    const table = stats.matchId ? parseProgressiveMatchId(stats.matchId) : null;
    const seating = table ? state.progressive.rounds[table.round - 1]?.seating.find((t) => t.table === table.table) : undefined;
    const players: Sides['players'] = {};
    for (const seat of SEATS) {
      const playerId = seating?.seats[seat];
      if (playerId !== undefined)
        players[seat] = {
          key: `p:${playerId}`,
          make: () => ({ name: names.get(playerId) ?? playerId, playerId: personOf ? personOf(playerId) : playerId, ...emptySeatLine() }),
        };
    }
    const pair = (team: Team) =>
      seatsOf(team)
        .map((seat) => game.seatNames[seat] ?? seat)
        .join(' & ');
    return { teamIds: {}, names: { NS: pair('NS'), EW: pair('EW') }, players, where };
  }
  const players: Sides['players'] = {};
  const seated = seatedPlayers(state, { matchId: stats.matchId, teams: game.teams, seats: game.seatNames }, personOf);
  for (const seat of SEATS) {
    const name = game.seatNames[seat];
    const teamId = game.teams[teamOf(seat)];
    const playerId = seated[seat]?.playerId;
    if (name !== undefined)
      players[seat] = { key: `t:${teamId}:${name}`, make: () => ({ name, ...(playerId ? { playerId } : {}), teamId, ...emptySeatLine() }) };
  }
  return {
    teamIds: { ...game.teams },
    names: { NS: names.get(game.teams.NS) ?? game.teams.NS, EW: names.get(game.teams.EW) ?? game.teams.EW },
    players,
    where,
  };
}

function whereOf(state: TournamentState, stats: GameStats): string {
  if (!stats.matchId) return `game ${stats.number}`;
  const table = state.progressive ? parseProgressiveMatchId(stats.matchId) : null;
  if (table) return `round ${table.round}, table ${table.table}`;
  const label = state.model.matches.find((m) => m.matchId === stats.matchId)?.label ?? `match ${stats.matchId}`;
  return `${label}, game ${stats.number}`;
}

function told(highlight: GameHighlight, gameId: string, sides: Sides): Highlight {
  const team = sides.names[highlight.team];
  const at = `${sides.where}, hand ${highlight.hand}`;
  const text = ((): string => {
    switch (highlight.kind) {
      case 'boston':
        return `${team} took all 13 tricks: a Boston (${at})`;
      case 'blind-nil-made':
        return `${highlight.seat && sides.players[highlight.seat] ? `${sides.players[highlight.seat]!.make().name} of ` : ''}${team} made a blind nil (${at})`;
      case 'big-bid-made':
        return `${team} bid ${highlight.contract} and made it: 10 for ${highlight.worth} (${at})`;
      case 'big-bid-set':
        return `${team} set on a bid of ${highlight.contract} (${at})`;
      default: {
        const _exhaustive: never = highlight.kind;
        return _exhaustive;
      }
    }
  })();
  const teamId = sides.teamIds[highlight.team];
  return { kind: highlight.kind, text, game: gameId, hand: highlight.hand, position: highlight.position, ...(teamId !== undefined ? { teamId } : {}) };
}

/**
 * The tournament projection: registration, the bracket (through engine/bracket.ts), live
 * matches and their games, standings and placings. Who plays whom is always derived again
 * from the bracket's recorded results, so nothing here is edited by hand.
 */
import { type BracketState, buildBracket, forfeitTeam, isFinished, matchViews, placings, recordResult, startBracket } from '../engine/bracket.ts';
import type { Team } from '../engine/cards.ts';
import type { FormatOptions } from '../engine/formats.ts';
import type {
  ClockStarted,
  MatchStarted,
  TeamDisqualified,
  TeamRegistered,
  TeamWithdrawn,
  TimeCalled,
  TournamentCreated,
  TournamentStarted,
} from './domain-events.ts';
import type { GameModel, MatchModel, TeamRow, TournamentModel } from './read-models.ts';

export type TournamentEvent =
  | { type: 'TournamentCreated'; payload: TournamentCreated }
  | { type: 'TeamRegistered'; payload: TeamRegistered }
  | { type: 'TeamWithdrawn'; payload: TeamWithdrawn }
  | { type: 'TournamentStarted'; payload: TournamentStarted }
  | { type: 'TeamDisqualified'; payload: TeamDisqualified }
  | { type: 'MatchStarted'; payload: MatchStarted }
  | { type: 'ClockStarted'; payload: ClockStarted }
  | { type: 'TimeCalled'; payload: TimeCalled };

/** What the projection keeps for a tournament: the model the views read and what it is derived from. */
export interface TournamentState {
  model: TournamentModel;
  format: FormatOptions;
  bracket: BracketState | null;
  /** Live facts about bracket matches that the bracket itself does not hold. */
  matchInfo: Record<string, { games: string[]; table: number | null; clock: MatchModel['clock']; started: boolean }>;
  /** Teams whose registration is withdrawn before the start. */
  withdrawn: string[];
}

/** A new tournament from its first event. */
export function startTournament(e: TournamentCreated): TournamentState {
  return {
    model: {
      tournamentId: e.tournamentId,
      name: e.name,
      format: e.format,
      status: 'registration',
      teams: [],
      matches: [],
      placings: [],
      latest: [],
    },
    format: e.options,
    bracket: null,
    matchInfo: {},
    withdrawn: [],
  };
}

/** Folds one tournament event in; `games` gives the games the tournament's matches played. */
export function evolveTournament(
  state: TournamentState,
  event: TournamentEvent,
  position: number,
  games: Readonly<Record<string, GameModel>>,
): void {
  switch (event.type) {
    case 'TournamentCreated':
      return;
    case 'TeamRegistered': {
      const e = event.payload;
      state.model.teams.push({
        teamId: e.teamId,
        name: e.name,
        players: e.players,
        seed: null,
        wins: 0,
        losses: 0,
        gamesWon: 0,
        gamesLost: 0,
        points: 0,
        bags: 0,
        sets: 0,
        status: 'registered',
      });
      return;
    }
    case 'TeamWithdrawn':
      state.withdrawn.push(event.payload.teamId);
      refresh(state, games);
      return;
    case 'TournamentStarted': {
      const e = event.payload;
      e.seeds.forEach((teamId, i) => {
        const row = state.model.teams.find((t) => t.teamId === teamId);
        if (row) row.seed = i + 1;
      });
      state.model.status = 'running';
      if (state.format.elimination !== 'progressive') {
        state.bracket = startBracket(buildBracket(e.seeds, { format: state.format.elimination, reset: state.format.reset }));
      }
      refresh(state, games);
      return;
    }
    case 'TeamDisqualified': {
      const e = event.payload;
      if (state.bracket && !state.bracket.withdrawn.includes(e.teamId)) state.bracket = forfeitTeam(state.bracket, e.teamId);
      const row = state.model.teams.find((t) => t.teamId === e.teamId);
      addLatest(state, `${row?.name ?? e.teamId} disqualified: ${e.reason}`, position);
      refresh(state, games);
      return;
    }
    case 'MatchStarted': {
      const e = event.payload;
      const info = infoFor(state, e.matchId);
      info.started = true;
      info.table = e.table;
      refresh(state, games);
      return;
    }
    case 'ClockStarted': {
      const info = infoFor(state, event.payload.matchId);
      info.clock = { startedAt: event.payload.at, minutes: event.payload.minutes, calledAt: null };
      refresh(state, games);
      return;
    }
    case 'TimeCalled': {
      const info = infoFor(state, event.payload.matchId);
      if (info.clock) info.clock.calledAt = event.payload.at;
      refresh(state, games);
      return;
    }
    default: {
      const _exhaustive: never = event;
      return _exhaustive;
    }
  }
}

/** A game of one of the tournament's matches started or changed its score. */
export function gameChanged(state: TournamentState, game: GameModel, position: number, games: Readonly<Record<string, GameModel>>): void {
  if (!game.matchId) return;
  const info = infoFor(state, game.matchId);
  if (!info.games.includes(game.gameId)) info.games.push(game.gameId);
  const view = state.bracket ? matchViews(state.bracket).find((v) => v.id === game.matchId) : undefined;
  if (view && view.status === 'ready' && state.bracket) {
    const decided = matchDecision(state, info.games, games);
    if (decided) {
      state.bracket = recordResult(state.bracket, game.matchId, decided.winner);
      const name = (id: string) => state.model.teams.find((t) => t.teamId === id)?.name ?? id;
      const loser = view.teams[0] === decided.winner ? view.teams[1]! : view.teams[0]!;
      addLatest(state, `${name(decided.winner)} beat ${name(loser)} ${decided.score}`, position);
    }
  }
  refresh(state, games);
}

/**
 * Whether a match is decided: a team reached the games it needs, or time was called and the
 * current game ended on it (the team ahead when the clock stopped wins the match).
 */
function matchDecision(
  state: TournamentState,
  gameIds: readonly string[],
  games: Readonly<Record<string, GameModel>>,
): { winner: string; score: string } | null {
  const wins = new Map<string, number>();
  let timeWinner: string | null = null;
  for (const id of gameIds) {
    const game = games[id];
    if (!game || !game.winner) continue;
    const winner = game.teams[game.winner];
    wins.set(winner, (wins.get(winner) ?? 0) + 1);
    if (game.reason === 'time') timeWinner = winner;
  }
  const needed = state.format.gamesToWin;
  const entries = [...wins.entries()].sort((a, b) => b[1] - a[1]);
  const top = entries[0];
  const winner = top && top[1] >= needed ? top[0] : timeWinner;
  if (!winner) return null;
  const w = wins.get(winner) ?? 0;
  const l = [...wins.entries()].filter(([t]) => t !== winner).reduce((n, [, c]) => n + c, 0);
  return { winner, score: `${w}–${l}` };
}

function infoFor(state: TournamentState, matchId: string) {
  let info = state.matchInfo[matchId];
  if (!info) state.matchInfo[matchId] = info = { games: [], table: null, clock: null, started: false };
  return info;
}

function addLatest(state: TournamentState, text: string, position: number): void {
  state.model.latest.unshift({ text, position });
  if (state.model.latest.length > 10) state.model.latest.length = 10;
}

const LABELS: Record<string, string> = { winners: 'Round', losers: 'Losers round', final: 'Final', 'third-place': 'Third place' };

/** Derives the matches, standings, statuses and placings again from the bracket and the games. */
function refresh(state: TournamentState, games: Readonly<Record<string, GameModel>>): void {
  const model = state.model;
  const rows = new Map<string, TeamRow>(model.teams.map((t) => [t.teamId, t]));
  for (const row of rows.values()) {
    Object.assign(row, { wins: 0, losses: 0, gamesWon: 0, gamesLost: 0, points: 0, bags: 0, sets: 0 });
    row.status = state.withdrawn.includes(row.teamId) ? 'withdrawn' : model.status === 'registration' ? 'registered' : 'alive';
  }
  if (!state.bracket) {
    model.matches = [];
    return;
  }
  const views = matchViews(state.bracket);
  const lossesToOut = state.format.elimination === 'double' ? 2 : 1;
  model.matches = views.map((view): MatchModel => {
    const info = state.matchInfo[view.id];
    const teams = view.teams;
    const gamesWon: [number, number] = [0, 0];
    for (const gameId of info?.games ?? []) {
      const game = games[gameId];
      if (!game) continue;
      for (const team of ['NS', 'EW'] as Team[]) {
        const row = rows.get(game.teams[team]);
        if (!row) continue;
        row.points += game.score[team];
        row.bags += game.bags[team];
        row.sets += game.sets[team];
        if (game.winner) {
          if (game.winner === team) row.gamesWon++;
          else row.gamesLost++;
        }
      }
      if (game.winner) {
        const winner = game.teams[game.winner];
        if (winner === teams[0]) gamesWon[0]++;
        else if (winner === teams[1]) gamesWon[1]++;
      }
    }
    const status: MatchModel['status'] =
      view.status === 'played'
        ? 'done'
        : view.status === 'bye'
          ? 'bye'
          : view.status === 'forfeit'
            ? 'forfeit'
            : view.status === 'ready'
              ? info?.started
                ? 'live'
                : 'ready'
              : 'waiting';
    if (view.winner && view.loser && (view.status === 'played' || view.status === 'forfeit')) {
      const w = rows.get(view.winner);
      const l = rows.get(view.loser);
      if (w) w.wins++;
      if (l) l.losses++;
    }
    return {
      matchId: view.id,
      round: view.round,
      side: view.side,
      label: view.side === 'winners' || view.side === 'losers' ? `${LABELS[view.side]} ${view.round}` : LABELS[view.side]!,
      teams,
      games: info?.games ?? [],
      gamesWon,
      status: view.status === 'under-review' ? 'ready' : status,
      winner: view.status === 'played' || view.status === 'forfeit' || view.status === 'bye' ? view.winner : null,
      table: info?.table ?? null,
      clock: info?.clock ?? null,
      underReview: view.status === 'under-review',
    };
  });

  for (const teamId of state.bracket.withdrawn) {
    const row = rows.get(teamId);
    if (row) row.status = 'disqualified';
  }
  // A team is out once it has lost as often as the format allows, or lost a match with no way back.
  for (const view of views) {
    if (!view.loser) continue;
    const row = rows.get(view.loser);
    const match = state.bracket.bracket.matches.find((m) => m.id === view.id)!;
    if (row && row.status === 'alive' && (match.loserTo === null || row.losses >= lossesToOut)) row.status = 'out';
  }
  if (isFinished(state.bracket)) {
    model.status = 'finished';
    model.placings = placings(state.bracket).flatMap((p) => p.teams.map((teamId) => ({ place: p.place, teamId })));
    const champion = model.placings.find((p) => p.place === 1);
    const row = champion && rows.get(champion.teamId);
    if (row) row.status = 'champion';
  }
}

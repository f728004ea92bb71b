/**
 * Standings, placings and prizes in the tournament projection: each row's record counted from the
 * games and the bracket, who is out, and once the bracket is finished the placings, prizes and
 * champion. A small change moves one match and two rows; `refresh` derives everything again.
 */
import { type BracketState, type MatchView, type Placing, consolationPlacings } from '../engine/bracket.ts';
import type { Team } from '../engine/cards.ts';
import { prizesFor } from '../engine/formats.ts';
import { matchPlayOf } from '../engine/format-play.ts';
import { poolOfMatch } from '../engine/pools.ts';
import type { GameModel, MatchModel, TeamRow } from './read-models.ts';
import { gamesWonIn } from './tournament-bracket.ts';
import { leagueOf, leagueRows } from './tournament-league.ts';
import { refreshProgressive } from './tournament-progressive.ts';
import { awaitingOf, gameWinner, voidedOf } from './tournament-rulings.ts';
import { type TournamentState, LABELS, rowsOf, viewsOf, withAwaiting } from './tournament-state.ts';

/**
 * Derives the matches, standings, statuses, placings and prizes again from the bracket (or
 * tables) and the games. The fold calls it when the bracket moves; smaller changes update one
 * match and two rows, and must leave the model just as this whole derivation would.
 */
export function refresh(state: TournamentState, games: Readonly<Record<string, GameModel>>): void {
  refreshStandings(state, games);
  state.model.prizes = state.prizes;
}

function refreshStandings(state: TournamentState, games: Readonly<Record<string, GameModel>>): void {
  const model = state.model;
  const rows = rowsOf(model);
  for (const row of rows.values()) Object.assign(row, { wins: 0, losses: 0, gamesWon: 0, gamesLost: 0, points: 0, bags: 0, sets: 0 });
  baseStatuses(state, rows);
  if (state.progressive) {
    refreshProgressive(state, state.progressive, rows, games);
    return;
  }
  if (!state.bracket) {
    model.matches = [];
    return;
  }
  const views = viewsOf(state.bracket);
  for (const view of views) {
    for (const gameId of state.matchInfo[view.id]?.games ?? []) {
      const game = games[gameId];
      if (!game) continue;
      const tally = tallyOf(state, game);
      state.tally[gameId] = tally;
      (['NS', 'EW'] as const).forEach((team, t) => {
        const row = rows.get(game.teams[team]);
        if (!row) return;
        const at = 5 * t;
        row.points += tally[at]!;
        row.bags += tally[at + 1]!;
        row.sets += tally[at + 2]!;
        row.gamesWon += tally[at + 3]!;
        row.gamesLost += tally[at + 4]!;
      });
    }
  }
  model.matches = views.map((view) => matchModelOf(state, view, games));
  placeRows(state, state.bracket, rows, views, games);
}

/** A game's part in its teams' standings: NS points, bags, sets, games won and lost, then EW's. */
function tallyOf(state: TournamentState, game: GameModel): number[] {
  if (state.voided[game.gameId] !== undefined) return [...NO_TALLY];
  const winner = gameWinner(state, game);
  const won = (team: Team) => (winner !== null && winner === game.teams[team] ? 1 : 0);
  const lost = (team: Team) => (winner !== null && winner !== game.teams[team] ? 1 : 0);
  const { score, bags, sets } = game;
  return [score.NS, bags.NS, sets.NS, won('NS'), lost('NS'), score.EW, bags.EW, sets.EW, won('EW'), lost('EW')];
}

const NO_TALLY: readonly number[] = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0];

/**
 * Brings one game's match and its two teams' rows up to date while the bracket stands as it
 * was: the rows move by the difference in the game's tally. False when the game's match is not
 * in the bracket as last derived, and only a whole refresh can place it.
 */
export function refreshGame(state: TournamentState, games: Readonly<Record<string, GameModel>>, game: GameModel, known: boolean): boolean {
  const match = state.model.matches.find((m) => m.matchId === game.matchId);
  const info = state.matchInfo[game.matchId!];
  const before = known ? state.tally[game.gameId] : NO_TALLY;
  if (!match || !info || !before) return false;
  const now = tallyOf(state, game);
  (['NS', 'EW'] as const).forEach((team, t) => {
    const row = state.model.teams.find((r) => r.teamId === game.teams[team]);
    if (!row) return;
    const at = 5 * t;
    row.points += now[at]! - before[at]!;
    row.bags += now[at + 1]! - before[at + 1]!;
    row.sets += now[at + 2]! - before[at + 2]!;
    row.gamesWon += now[at + 3]! - before[at + 3]!;
    row.gamesLost += now[at + 4]! - before[at + 4]!;
  });
  state.tally[game.gameId] = now;
  if (!known) match.games = [...info.games];
  match.gamesWon = gamesWonIn(state, info.games, match.teams, games);
  const awaiting = awaitingOf(state, info.games, games);
  if (awaiting) match.awaitingRuling = awaiting;
  else delete match.awaitingRuling;
  return true;
}

/** Each row's status before the bracket (or tables) speaks: withdrawn, registered or alive, and disqualified. */
function baseStatuses(state: TournamentState, rows: ReadonlyMap<string, TeamRow>): void {
  for (const row of rows.values()) {
    row.status = state.withdrawn.includes(row.teamId) ? 'withdrawn' : state.model.status === 'registration' ? 'registered' : 'alive';
  }
  for (const d of state.disqualified) {
    const row = rows.get(d.teamId);
    if (row) row.status = 'disqualified';
  }
}

/** One match of the bracket as the views show it: its teams, games, status, table and clock. */
function matchModelOf(state: TournamentState, view: MatchView, games: Readonly<Record<string, GameModel>>): MatchModel {
  const info = state.matchInfo[view.id];
  const teams = view.teams;
  const bothKnown = teams[0] !== null && teams[1] !== null;
  const status: MatchModel['status'] =
    view.status === 'played'
      ? 'done'
      : view.status === 'bye'
        ? 'bye'
        : view.status === 'forfeit'
          ? 'forfeit'
          : view.status === 'ready' || (view.status === 'under-review' && bothKnown)
            ? info?.started
              ? 'live'
              : 'ready'
            : 'waiting';
  return {
    matchId: view.id,
    round: view.round,
    side: view.side,
    label: matchLabel(state, view),
    teams,
    games: [...(info?.games ?? [])],
    gamesWon: gamesWonIn(state, info?.games ?? [], teams, games),
    status,
    winner: view.status === 'played' || view.status === 'forfeit' || view.status === 'bye' ? view.winner : null,
    table: info?.table ?? null,
    clock: info?.clock ?? null,
    underReview: view.status === 'under-review',
    ...voidedOf(state, view, info, games),
    ...withAwaiting(awaitingOf(state, info?.games ?? [], games)),
  };
}

/** A match's label: "Round 2", "Losers round 3", "the Final"; with pools "Pool B, round 2" and "Playoff round 1". */
function matchLabel(state: TournamentState, view: MatchView): string {
  if (view.side === 'pool') return `Pool ${poolOfMatch(view.id) ?? ''}, round ${view.round}`;
  const label = view.side === 'winners' || view.side === 'losers' || view.side === 'consolation' ? `${LABELS[view.side]} ${view.round}` : LABELS[view.side]!;
  if (state.bracket?.bracket.pools && view.side !== 'final') return `Playoff ${label.toLowerCase()}`;
  return label;
}

/**
 * Matches won and lost, who is out and who is still playing, and, once the bracket is
 * finished, the placings, prizes and champion.
 */
function placeRows(
  state: TournamentState,
  bracket: BracketState,
  rows: ReadonlyMap<string, TeamRow>,
  views: readonly MatchView[],
  games: Readonly<Record<string, GameModel>>,
): void {
  const model = state.model;
  for (const row of rows.values()) {
    row.wins = 0;
    row.losses = 0;
  }
  for (const view of views) {
    if (view.winner && view.loser && (view.status === 'played' || view.status === 'forfeit')) {
      const w = rows.get(view.winner);
      const l = rows.get(view.loser);
      if (w) w.wins++;
      if (l) l.losses++;
    }
  }
  // The structure says whether a loss puts a team out (engine/structures.ts): in a knockout, a
  // loss with no way back or, in double elimination, the second; a first loss that sends the team
  // on to a losers' bracket or a 3rd-place match leaves it playing; in a league nobody goes out.
  const structure = matchPlayOf(state.format)!;
  const table = leagueRows(state, structure, views, games);
  const league = leagueOf(structure, table, state);
  if (league) {
    model.league = league;
    // A Swiss bye counts as a match won: the rows say what the standings count.
    if (structure.byeIsWin)
      for (const standing of table) {
        const row = rows.get(standing.teamId);
        if (row) row.wins = standing.wins;
      }
  } else delete model.league;
  const bracketMatches = bracket.bracket.matches;
  views.forEach((view, i) => {
    if (!view.loser) return;
    const row = rows.get(view.loser);
    // matchViews lists the matches in the bracket's own order.
    const match = bracketMatches[i]!;
    if (row && row.status === 'alive' && structure.lossPutsOut(match, bracket.bracket, row.losses)) row.status = 'out';
  });
  for (const teamId of structure.leftOut?.(bracket.bracket) ?? []) {
    const row = rows.get(teamId);
    if (row && row.status === 'alive') row.status = 'out';
  }
  if (structure.finished(bracket, state.format, views)) {
    model.status = 'finished';
    const placed: Placing[] = structure.placings(bracket, table);
    model.placings = placed.flatMap((p) => p.teams.map((teamId) => ({ place: p.place, teamId })));
    const secondChance = consolationPlacings(bracket, views).flatMap((p) => p.teams.map((teamId) => ({ place: p.place, teamId })));
    if (secondChance.length > 0) model.secondChance = secondChance;
    else delete model.secondChance;
    // The second chance's prizes go by its own places, apart from the main bracket's.
    const secondPrizes = prizesFor({ ...state.format, prizes: state.format.secondChancePrizes ?? [] }, consolationPlacings(bracket, views));
    if (secondPrizes.length > 0) model.secondChancePrizes = secondPrizes;
    else delete model.secondChancePrizes;
    state.prizes = prizesFor(state.format, placed);
    // A first place shared in a league has no champion: the tie is stated for the director to settle.
    const first = model.placings.filter((p) => p.place === 1);
    const row = first.length === 1 ? rows.get(first[0]!.teamId) : undefined;
    if (row) row.status = 'champion';
  } else if (model.status === 'finished') {
    // A correction reopened the bracket.
    model.status = 'running';
    model.placings = [];
    delete model.secondChance;
    delete model.secondChancePrizes;
    state.prizes = [];
  }
}

/**
 * After a game decided (or undecided) its match and the bracket was settled from `before`:
 * the game's tally moves its two teams' rows, the matches whose views changed are derived
 * again, and every row's record and status is counted again from the views, which is cheap;
 * the other matches and their games stand as they were. False when the bracket's matches are
 * not the ones the model lists, and only a whole refresh can place them.
 */
export function refreshDecided(
  state: TournamentState,
  games: Readonly<Record<string, GameModel>>,
  game: GameModel,
  known: boolean,
  before: BracketState | null,
): boolean {
  const bracket = state.bracket;
  const model = state.model;
  if (state.progressive || !bracket || !before) return false;
  const was = viewsOf(before);
  const views = viewsOf(bracket);
  if (was.length !== views.length || model.matches.length !== views.length) return false;
  for (let i = 0; i < views.length; i++) if (views[i]!.id !== was[i]!.id || model.matches[i]!.matchId !== views[i]!.id) return false;
  if (!refreshGame(state, games, game, known)) return false;
  for (let i = 0; i < views.length; i++) {
    const view = views[i]!;
    if (!sameView(view, was[i]!)) model.matches[i] = matchModelOf(state, view, games);
  }
  const rows = rowsOf(model);
  baseStatuses(state, rows);
  placeRows(state, bracket, rows, views, games);
  model.prizes = state.prizes;
  return true;
}

function sameView(a: MatchView, b: MatchView): boolean {
  return a.status === b.status && a.winner === b.winner && a.loser === b.loser && a.teams[0] === b.teams[0] && a.teams[1] === b.teams[1];
}

/**
 * The tournament projection: registration, check-in, the bracket (through engine/bracket.ts),
 * live matches and their games, clocks, disqualifications, judges' corrections, standings,
 * placings and prizes. Progressive events keep their tables in progressive-projection.ts.
 * Who plays whom is always derived again from the games and the bracket's recorded results,
 * so a corrected game flows through everything after it and nothing is edited by hand.
 */
import {
  type BracketState,
  type MatchView,
  type Placing,
  buildBracket,
  forfeitTeam,
  isFinished,
  matchViews,
  placings,
  startBracket,
} from '../engine/bracket.ts';
import { type DrawnRound, type GroupDraw, appendRound, firstRoundBracket } from '../engine/bracket-rounds.ts';
import type { Team } from '../engine/cards.ts';
import { type FormatOptions, prizesFor } from '../engine/formats.ts';
import { type ByeDraw, drawBye, drawHighCard } from '../engine/seeding.ts';
import type {
  BracketRoundDrawn,
  ClockStarted,
  FeePaid,
  SignUpClosed,
  SignUpOpened,
  TeamWaitlisted,
  WaitlistPromoted,
  GameResultCorrected,
  MatchStarted,
  PlayerRegistered,
  ProgressiveRoundStarted,
  ProgressiveRoundsChanged,
  ScreenPinned,
  TeamCheckedIn,
  TeamDisqualified,
  TeamRegistered,
  TeamWithdrawn,
  TimeCalled,
  TournamentCreated,
  TournamentStarted,
} from './domain-events.ts';
import {
  type ProgressiveState,
  emptyProgressive,
  playerRegistered,
  playerWithdrawn,
  deriveProgressive,
  progressiveFinished,
  progressiveGameSeen,
  progressiveStarted,
  roundStarted,
} from './progressive-projection.ts';
import type { GameModel, MatchModel, TeamRow, TournamentModel } from './read-models.ts';
import {
  type RegistrationState,
  emptyRegistration,
  entrantRegistered,
  feePaid,
  signUpClosed,
  signUpOpened,
  waiting,
  waitlisted,
} from './registration-projection.ts';
import type { GameStats } from './stats-projection.ts';

export type TournamentEvent =
  | { type: 'TournamentCreated'; payload: TournamentCreated }
  | { type: 'TeamRegistered'; payload: TeamRegistered }
  | { type: 'TeamWithdrawn'; payload: TeamWithdrawn }
  | { type: 'TournamentStarted'; payload: TournamentStarted }
  | { type: 'TeamDisqualified'; payload: TeamDisqualified }
  | { type: 'MatchStarted'; payload: MatchStarted }
  | { type: 'ClockStarted'; payload: ClockStarted }
  | { type: 'TimeCalled'; payload: TimeCalled }
  | { type: 'TeamCheckedIn'; payload: TeamCheckedIn }
  | { type: 'PlayerRegistered'; payload: PlayerRegistered }
  | { type: 'GameResultCorrected'; payload: GameResultCorrected }
  | { type: 'ProgressiveRoundStarted'; payload: ProgressiveRoundStarted }
  | { type: 'ProgressiveRoundsChanged'; payload: ProgressiveRoundsChanged }
  | { type: 'ScreenPinned'; payload: ScreenPinned }
  | { type: 'BracketRoundDrawn'; payload: BracketRoundDrawn }
  | { type: 'SignUpOpened'; payload: SignUpOpened }
  | { type: 'SignUpClosed'; payload: SignUpClosed }
  | { type: 'TeamWaitlisted'; payload: TeamWaitlisted }
  | { type: 'WaitlistPromoted'; payload: WaitlistPromoted }
  | { type: 'FeePaid'; payload: FeePaid };

/** Live facts about a bracket match that the bracket itself does not hold. */
export interface MatchInfo {
  /** Every game the match has played, in order; games of a replay follow the earlier ones. */
  games: string[];
  table: number | null;
  clock: MatchModel['clock'];
  /** Seated and playing; cleared when a correction puts the played match under review, to be replayed. */
  started: boolean;
  /** How the first dealer was chosen (MatchStarted's recorded draw or toss). */
  firstDealer?: Record<string, unknown>;
  /** The time limit set at the seating: on the whole match or on each game (MatchStarted's `clock`). */
  clockPlan?: { per: 'match' | 'game'; minutes: number | null };
}

/** What the projection keeps for a tournament: the model the views read and what it is derived from. */
export interface TournamentState {
  model: TournamentModel;
  format: FormatOptions;
  bracket: BracketState | null;
  matchInfo: Record<string, MatchInfo>;
  /** Teams (or players) whose registration is withdrawn before the start. */
  withdrawn: string[];
  /** Teams checked in at the venue, in the order they arrived. */
  checkedIn: string[];
  /** Teams put out of the event (disqualified, no-show, forfeit), with why. */
  disqualified: { teamId: string; kind: 'disqualified' | 'no-show' | 'forfeit'; reason: string; position: number }[];
  /** The blp-2024 bye draw as the recorded cards decide it. */
  byeDraw: ByeDraw | null;
  /** A bracket drawn round by round: each round's bye draws as recorded, round 1's included. */
  roundDraws?: (GroupDraw & { round: number })[];
  /** Judges' corrections of finished games' results, in ledger order; the latest for a game stands. */
  corrections: { gameId: string; matchId: string; winner: string; reason: string; judge: string; position: number; at: string }[];
  /** Played matches a correction put under review, and the position of the correction. */
  reviews: { matchId: string; position: number }[];
  /**
   * Games that no longer count, by game id: the ledger position of the ruling (or correction,
   * or disqualification) that voided them. A game counts while its match puts the very two
   * teams that played it there; one played by a team a later ruling moved elsewhere is voided,
   * kept on record, and counts again only if the bracket puts its teams back.
   */
  voided: Record<string, number>;
  /** Decided matches whose result a later ruling took back or changed, and that ruling's position. */
  reopened: Record<string, number>;
  /** What the ruling at each position that reopened a match was, in the room's words ("a renege ruling"). */
  causes: Record<string, string>;
  /** Prizes by place once the event is finished. */
  prizes: { place: number; prize: string; teams: string[] }[];
  /** Progressive tables; null for bracket events. */
  progressive: ProgressiveState | null;
  /** Each game's winner for its match as last settled, so a hand that decides nothing skips the bracket. */
  decided: Record<string, string | null>;
  /** Each game's part in the standings as last counted (see tallyOf), so a scored hand or a finished game moves only its difference. */
  tally: Record<string, number[]>;
  /** The ledger position at which a director last pinned this tournament to the venue's `/screen`. */
  screenPinnedAt?: number;
  /** Sign-up, the waitlist, fees paid, check-in codes' seeds and who checked in. */
  registration: RegistrationState;
  /** Each game's part in the statistics, as last scored (stats-projection.ts). */
  gameStats: Record<string, GameStats>;
  /**
   * Claims made after their game's match was decided (`gameId claimId`): they hold nothing, and a
   * ruling on them is a reopening. Every other claim waiting for a ruling holds its game's result.
   */
  lateClaims?: string[];
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
      prizes: [],
      latest: [],
    },
    format: e.options,
    bracket: null,
    matchInfo: {},
    withdrawn: [],
    checkedIn: [],
    disqualified: [],
    byeDraw: null,
    corrections: [],
    reviews: [],
    voided: {},
    reopened: {},
    causes: {},
    prizes: [],
    progressive: e.options.elimination === 'progressive' ? emptyProgressive() : null,
    decided: {},
    tally: {},
    registration: emptyRegistration(),
    gameStats: {},
    lateClaims: [],
  };
}

/** Folds one tournament event in; `games` gives the games the tournament's matches played. */
export function evolveTournament(
  state: TournamentState,
  event: TournamentEvent & { readonly at: string },
  position: number,
  games: Readonly<Record<string, GameModel>>,
): void {
  fillDefaults(state);
  switch (event.type) {
    case 'TournamentCreated':
      return;
    case 'TeamRegistered': {
      const e = event.payload;
      state.model.teams.push(newRow(e.teamId, e.name, e.players));
      entrantRegistered(state.registration, e.teamId, e.fee, e.codeSeed);
      return;
    }
    case 'PlayerRegistered': {
      const e = event.payload;
      state.model.teams.push(newRow(e.playerId, e.name, [e.name]));
      entrantRegistered(state.registration, e.playerId, e.fee, e.codeSeed);
      if (state.progressive) playerRegistered(state.progressive, e);
      return;
    }
    case 'TeamCheckedIn':
      if (!state.checkedIn.includes(event.payload.teamId)) state.checkedIn.push(event.payload.teamId);
      if (event.payload.by) state.registration.checkedInBy[event.payload.teamId] = event.payload.by;
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
    case 'WaitlistPromoted': {
      const entry = waiting(state.registration, event.payload.teamId);
      if (!entry) return;
      entry.promoted = true;
      state.model.teams.push(newRow(entry.teamId, entry.name, entry.players));
      entrantRegistered(state.registration, entry.teamId, entry.fee, entry.codeSeed);
      if (state.progressive) {
        playerRegistered(state.progressive, { tournamentId: state.model.tournamentId, playerId: entry.teamId, name: entry.name, fee: entry.fee, ...(entry.gender ? { gender: entry.gender } : {}) });
      }
      refresh(state, games);
      return;
    }
    case 'FeePaid':
      feePaid(state.registration, event.payload);
      return;
    case 'TeamWithdrawn': {
      // A waitlisted entrant leaves the waitlist; it holds no place among the entrants.
      const entry = waiting(state.registration, event.payload.teamId);
      if (entry) {
        entry.withdrawn = true;
        return;
      }
      state.withdrawn.push(event.payload.teamId);
      if (state.progressive) playerWithdrawn(state.progressive, event.payload.teamId);
      refresh(state, games);
      return;
    }
    case 'TournamentStarted': {
      const e = event.payload;
      e.seeds.forEach((teamId, i) => {
        const row = state.model.teams.find((t) => t.teamId === teamId);
        if (row) row.seed = i + 1;
      });
      state.model.status = 'running';
      if (e.byeDraw && e.byeDraw.length > 0) {
        try {
          state.byeDraw = drawBye(e.seeds, e.byeDraw as Record<string, string>[]);
        } catch {
          // The command checked the draw; a ledger written by something else keeps its seeds as recorded.
          state.byeDraw = null;
        }
      }
      if (state.progressive) progressiveStarted(state.progressive, e.seeds);
      else if (state.format.roundByRound) startByRound(state, e.seeds, (e.byeDraw ?? []) as Record<string, string>[]);
      else state.bracket = startBracket(buildBracket(e.seeds, { format: state.format.elimination as Exclude<FormatOptions['elimination'], 'progressive'>, reset: state.format.reset }));
      refresh(state, games);
      return;
    }
    case 'TeamDisqualified': {
      const e = event.payload;
      const kind = e.kind ?? 'disqualified';
      state.disqualified.push({ teamId: e.teamId, kind, reason: e.reason, position });
      if (state.bracket && state.bracket.bracket.teams.includes(e.teamId) && !state.bracket.withdrawn.includes(e.teamId)) {
        state.bracket = forfeitTeam(state.bracket, e.teamId);
      }
      if (state.model.status === 'registration' && !state.withdrawn.includes(e.teamId)) state.withdrawn.push(e.teamId);
      const row = state.model.teams.find((t) => t.teamId === e.teamId);
      const what = kind === 'no-show' ? 'a no-show' : kind === 'forfeit' ? 'forfeits' : 'disqualified';
      addLatest(state, `${row?.name ?? e.teamId} ${kind === 'forfeit' ? what : `is ${what}`}: ${e.reason}`, position);
      settle(state, games, position, null, CAUSES.TeamDisqualified);
      refresh(state, games);
      return;
    }
    case 'MatchStarted': {
      const e = event.payload;
      const info = infoFor(state, e.matchId);
      info.started = true;
      info.table = e.table;
      info.clock = null;
      if (e.firstDealer) info.firstDealer = e.firstDealer;
      if (e.clock) info.clockPlan = e.clock;
      else delete info.clockPlan;
      if (!seatMatch(state, e.matchId, info)) refresh(state, games);
      return;
    }
    case 'ClockStarted': {
      const info = infoFor(state, event.payload.matchId);
      const { at, minutes, gameId } = event.payload;
      info.clock = { startedAt: at, minutes, calledAt: null, ...(gameId ? { gameId } : {}) };
      if (!seatMatch(state, event.payload.matchId, info)) refresh(state, games);
      return;
    }
    case 'TimeCalled': {
      const info = infoFor(state, event.payload.matchId);
      // A game's own clock is called in that game only (asher); a match clock in whichever game is on.
      if (info.clock && (!info.clock.gameId || info.clock.gameId === event.payload.gameId)) info.clock.calledAt = event.payload.at;
      const number = games[event.payload.gameId]?.number;
      const perGame = clockPerOf(info, state.format) === 'game';
      addLatest(state, `Time called in ${labelOf(state, event.payload.matchId)}${number && perGame ? `, game ${number},` : ''} during hand ${event.payload.hand}`, position);
      settle(state, games, position, null, CAUSES.TimeCalled);
      refresh(state, games);
      return;
    }
    case 'GameResultCorrected': {
      const e = event.payload;
      state.corrections.push({ gameId: e.gameId, matchId: e.matchId, winner: e.winner, reason: e.reason, judge: e.judge, position, at: event.at });
      const row = state.model.teams.find((t) => t.teamId === e.winner);
      addLatest(state, `Judge ${e.judge} corrected game ${e.gameId}: ${row?.name ?? e.winner} won (${e.reason})`, position);
      settle(state, games, position, null, CAUSES.GameResultCorrected);
      refresh(state, games);
      return;
    }
    case 'ScreenPinned':
      state.screenPinnedAt = position;
      return;
    case 'BracketRoundDrawn': {
      const e = event.payload as unknown as DrawnRound;
      if (!state.bracket) return;
      try {
        state.bracket = { ...state.bracket, bracket: appendRound(state.bracket.bracket, e) };
      } catch {
        // The command drew the round from this bracket; a ledger written by something else keeps the bracket as it was.
        return;
      }
      state.roundDraws = [...(state.roundDraws ?? []), ...e.draws.map((d) => ({ ...d, round: e.round }))];
      const final = e.matches.some((m) => m.side === 'final');
      const name = (id: string) => state.model.teams.find((t) => t.teamId === id)?.name ?? id;
      const byes = e.draws.map((d) => `${name(d.bye)} has the bye${d.card ? ` (${d.card})` : ''}`);
      addLatest(state, `${final ? 'Final drawn' : `Round ${e.round} drawn`}${byes.length > 0 ? `: ${byes.join('; ')}` : ''}`, position);
      settle(state, games, position);
      refresh(state, games);
      return;
    }
    case 'ProgressiveRoundStarted':
      if (state.progressive) roundStarted(state.progressive, event.payload);
      addLatest(state, `Round ${event.payload.round} seated at ${event.payload.seating.length} tables`, position);
      refresh(state, games);
      return;
    case 'ProgressiveRoundsChanged':
      state.format = { ...state.format, rounds: event.payload.rounds };
      addLatest(state, `The event now plays ${event.payload.rounds} round${event.payload.rounds === 1 ? '' : 's'}`, position);
      refresh(state, games);
      return;
    default: {
      const _exhaustive: never = event;
      return _exhaustive;
    }
  }
}

/**
 * Round 1 of a bracket drawn round by round: the seeds as given, the bye (odd counts) to the
 * highest card of the recorded draw.
 */
function startByRound(state: TournamentState, seeds: readonly string[], cards: Record<string, string>[]): void {
  let bye: ByeDraw | null = null;
  if (cards.length > 0) {
    try {
      bye = drawHighCard(seeds, cards);
    } catch {
      bye = null;
    }
  }
  state.byeDraw = bye;
  try {
    state.bracket = startBracket(firstRoundBracket(seeds, bye?.team ?? null));
  } catch {
    // The command checked the draw; a ledger written by something else starts no bracket.
    return;
  }
  const match = state.bracket.bracket.matches.find((m) => m.slots.some((slot) => slot.kind === 'bye'));
  state.roundDraws = bye && match ? [{ round: 1, group: 'winners', teams: [...seeds], cards, bye: bye.team, card: bye.card, match: match.id }] : [];
}

/** A game of one of the tournament's matches (or progressive tables) started or changed its score. */
export function gameChanged(state: TournamentState, game: GameModel, position: number, games: Readonly<Record<string, GameModel>>, cause?: string): void {
  if (!game.matchId) return;
  fillDefaults(state);
  const info = infoFor(state, game.matchId);
  const known = info.games.includes(game.gameId);
  if (!known) info.games.push(game.gameId);
  noteLateClaim(state, game, position);
  if (state.progressive) {
    progressiveGameSeen(state.progressive, game);
    const over = state.progressive.rounds.filter((r) => r.results !== null).length;
    refresh(state, games);
    const now = state.progressive.rounds.filter((r) => r.results !== null).length;
    if (now > over) addLatest(state, `Round ${now} finished`, position);
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
      const voidedMoved = settle(state, games, position, game.matchId, CAUSES[cause ?? ''] ?? null);
      if (voidedMoved || !refreshDecided(state, games, game, known, before)) refresh(state, games);
      return;
    }
  }
  if (!refreshGame(state, games, game, known)) refresh(state, games);
}

/**
 * A claim just made (at `position`) in a game whose match is already decided holds nothing: it
 * came after the result it could change, so a ruling on it is a reopening, not a wait.
 */
function noteLateClaim(state: TournamentState, game: GameModel, position: number): void {
  const claim = game.claims[game.claims.length - 1];
  if (!claim || claim.position !== position) return;
  const match = state.model.matches.find((m) => m.matchId === game.matchId);
  if (match?.status === 'done') state.lateClaims!.push(claimKey(game.gameId, claim.claimId));
}

function claimKey(gameId: string, claimId: string): string {
  return `${gameId} ${claimId}`;
}

/** The claims in a game that wait for a ruling and hold its result (all but those made after its match was decided). */
export function holdingClaims(state: TournamentState, game: GameModel): GameModel['claims'] {
  if (game.claims.length === 0) return [];
  const late = state.lateClaims ?? [];
  return game.claims.filter((c) => !c.ruling && !late.includes(claimKey(game.gameId, c.claimId)));
}

/**
 * What waits for a ruling in a match's games: the number of claims holding its result and when
 * the oldest was made. Undefined while nothing waits.
 */
function awaitingOf(state: TournamentState, gameIds: readonly string[], games: Readonly<Record<string, GameModel>>): MatchModel['awaitingRuling'] {
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
 * Whether the games of a match, as played at the table, decide it, claims still waiting or not:
 * then no further game of it is played, and its result waits for the rulings.
 */
export function matchDecidedAtTable(state: TournamentState, matchId: string, games: Readonly<Record<string, GameModel>>): boolean {
  const match = state.model.matches.find((m) => m.matchId === matchId);
  const info = state.matchInfo[matchId];
  if (!match || !info || match.teams[0] === null || match.teams[1] === null) return false;
  return matchDecision(state, info.games, games, match.teams as [string, string], clockPerOf(info, state.format), true) !== null;
}

/** A game's part in its teams' standings: NS points, bags, sets, games won and lost, then EW's. */
function tallyOf(state: TournamentState, game: GameModel): number[] {
  if (state.voided?.[game.gameId] !== undefined) return [...NO_TALLY];
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
function refreshGame(state: TournamentState, games: Readonly<Record<string, GameModel>>, game: GameModel, known: boolean): boolean {
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

/**
 * Brings one match's seating, table and clock up to date (it started, or its clock did). False
 * when the match is not in the bracket as last derived.
 */
function seatMatch(state: TournamentState, matchId: string, info: MatchInfo): boolean {
  if (state.progressive) return false;
  const match = state.model.matches.find((m) => m.matchId === matchId);
  if (!match) return false;
  // Seating moves a match between ready and live and leaves every other status as it is.
  if (match.status === 'ready' || match.status === 'live') match.status = info.started ? 'live' : 'ready';
  match.table = info.table;
  match.clock = info.clock;
  return true;
}

/** Games won in a match by each of its two teams, counting only games between those two. */
function gamesWonIn(state: TournamentState, gameIds: readonly string[], teams: readonly [string | null, string | null], games: Readonly<Record<string, GameModel>>): [number, number] {
  const won: [number, number] = [0, 0];
  for (const gameId of gameIds) {
    const game = games[gameId];
    if (!game) continue;
    const winner = gameWinner(state, game);
    if (winner && teams.includes(game.teams.NS) && teams.includes(game.teams.EW)) {
      if (winner === teams[0]) won[0]++;
      else if (winner === teams[1]) won[1]++;
    }
  }
  return won;
}

/**
 * The winner of a game for its match: the judge's latest correction, else the game's own result,
 * which a claim waiting for a ruling holds (none yet) unless `atTable` asks for the result as played.
 */
function gameWinner(state: TournamentState, game: GameModel, atTable = false): string | null {
  for (let i = state.corrections.length - 1; i >= 0; i--) {
    if (state.corrections[i]!.gameId === game.gameId) return state.corrections[i]!.winner;
  }
  if (!game.winner) return null;
  if (!atTable && holdingClaims(state, game).length > 0) return null;
  return game.teams[game.winner];
}

/**
 * Whether a match between `teams` is decided by its games: a team reached the games it needs,
 * or time was called on the match's clock and a game ended on it (the team ahead when the clock
 * stopped wins the match: pitt-boss "at stop ... the team ahead in the current game wins"). When
 * each game has its own clock (asher), time ends that game only and the match plays on. Only games between
 * these two teams count: after a correction, games played by a team that should not have been
 * there stay in the record but decide nothing.
 */
function matchDecision(
  state: TournamentState,
  gameIds: readonly string[],
  games: Readonly<Record<string, GameModel>>,
  teams: readonly [string, string],
  clockPer: 'match' | 'game' = 'match',
  atTable = false,
): { winner: string; score: string } | null {
  // Games won by teams[0] and teams[1]: settling a bracket asks this of every match.
  const wins = [0, 0];
  let timeWinner: string | null = null;
  for (const id of gameIds) {
    const game = games[id];
    if (!game || !teams.includes(game.teams.NS) || !teams.includes(game.teams.EW)) continue;
    // A claim waiting for a ruling in any of its games holds the match: the ruling may change it.
    if (!atTable && holdingClaims(state, game).length > 0) return null;
    const winner = gameWinner(state, game, atTable);
    const side = winner === null ? -1 : teams.indexOf(winner);
    if (side < 0) continue;
    wins[side]!++;
    if (clockPer === 'match' && game.reason === 'time' && game.winner && game.teams[game.winner] === winner) timeWinner = winner;
  }
  const needed = state.format.gamesToWin;
  const reached = wins[0]! >= needed ? teams[0] : wins[1]! >= needed ? teams[1] : null;
  const winner = reached ?? timeWinner;
  if (!winner) return null;
  const side = teams.indexOf(winner);
  return { winner, score: `${wins[side]}–${wins[1 - side]}` };
}

/** What a later event that reopens a decided match is called, in the room's words. */
const CAUSES: Record<string, string> = {
  RulingGiven: 'a renege ruling',
  RulingWithdrawn: 'the withdrawal of a ruling',
  ScoreCorrected: 'a score correction',
  GameResultCorrected: 'a result correction',
  TeamDisqualified: 'a disqualification',
  TimeCalled: 'a time call',
  EntryUndone: 'an undone entry',
};

/**
 * Brings the bracket's results in line with the games, match by match in bracket order, so a
 * changed result flows on: a match its games now decide gets (or changes) its result; a result
 * its games no longer support (a correction took a game away) is taken back and the match is
 * played on. Results of matches whose teams changed are kept, never erased: the bracket shows
 * them under review until the match is replayed between the right teams, and their games are
 * voided. A decided match reopened this way gets one line for the room saying what happened.
 * True when the games voided moved, so every standing must be counted again.
 */
function settle(state: TournamentState, games: Readonly<Record<string, GameModel>>, position: number, from: string | null = null, cause: string | null = null): boolean {
  if (!state.bracket) return false;
  let views = viewsOf(state.bracket);
  const reopened: string[] = [];
  const replayed: string[] = [];
  // When only the games of match `from` changed, the matches before it in bracket order still
  // fit: each is fed only by matches before it, and none of their games moved.
  const first = from === null ? 0 : Math.max(0, views.findIndex((view) => view.id === from));
  for (let i = first; i < views.length; i++) {
    const view = views[i]!;
    const [a, b] = view.teams;
    if (a === null || b === null || view.status === 'bye' || view.status === 'not-needed' || view.status === 'forfeit') continue;
    const info = state.matchInfo[view.id];
    const decided = info ? matchDecision(state, info.games, games, [a, b], clockPerOf(info, state.format)) : null;
    if (resultFits(state.bracket, view, decided)) continue;
    const results: BracketState['results'] = { ...state.bracket.results };
    const name = (id: string) => state.model.teams.find((t) => t.teamId === id)?.name ?? id;
    if (view.status === 'played') {
      state.reopened[view.id] = position;
      reopened.push(decided ? `${matchName(state, view.id)} now goes to ${name(decided.winner)} ${decided.score}` : `${matchName(state, view.id)} reopened`);
    }
    if (decided) {
      results[view.id] = { winner: decided.winner, loser: decided.winner === a ? b : a };
      if (view.status !== 'played' || !cause) addLatest(state, `${name(decided.winner)} beat ${name(decided.winner === a ? b : a)} ${decided.score}`, position);
    } else {
      delete results[view.id];
      if (!cause) addLatest(state, `${labelOf(state, view.id)} is no longer decided; play goes on`, position);
    }
    state.bracket = { ...state.bracket, results };
    const before = views;
    views = viewsOf(state.bracket);
    views.forEach((after, j) => {
      if (before[j]!.status !== 'played' || after.status !== 'under-review') return;
      state.reviews.push({ matchId: after.id, position });
      const flagged = state.matchInfo[after.id];
      if (flagged) flagged.started = false;
      replayed.push(matchName(state, after.id));
      if (!cause) addLatest(state, `${labelOf(state, after.id)} is under review: a team in it changed`, position);
    });
  }
  const torn = voidGames(state, games, position);
  for (const matchId of torn.voided) if (!replayed.includes(matchName(state, matchId))) replayed.push(matchName(state, matchId));
  if (cause && (reopened.length > 0 || torn.voided.length > 0)) state.causes[String(position)] = cause;
  if (cause && reopened.length > 0) {
    const restart = replayed.length === 0 ? '' : `; ${listed(replayed)} ${replayed.length === 1 ? 'restarts' : 'restart'}`;
    addLatest(state, `${listed(reopened)} by ${cause}${restart}`, position);
  }
  return torn.moved;
}

/** "A", "A and B", "A, B and C". */
function listed(items: readonly string[]): string {
  return items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;
}

/** A match as the room names it: its label, with its number where the label is shared ("Round 1 (match 6)", "the Final"). */
export function matchName(state: TournamentState, matchId: string): string {
  const matches = state.model.matches;
  const i = matches.findIndex((m) => m.matchId === matchId);
  const match = matches[i];
  if (!match) return `match ${matchId}`;
  if (match.side === 'final' || match.side === 'third-place') return `the ${match.label}`;
  return matches.filter((m) => m.label === match.label).length > 1 ? `${match.label} (match ${i + 1})` : match.label;
}

/**
 * Marks the games that no longer count (see `voided`) as of `position`, and clears the mark of a
 * game whose teams the bracket put back. A match whose game is voided is no longer seated (it is
 * seated again between the right teams); one whose unfinished last game counts again is. Says
 * whether any mark moved, and the matches with a game newly voided.
 */
function voidGames(state: TournamentState, games: Readonly<Record<string, GameModel>>, position: number): { moved: boolean; voided: string[] } {
  const voided: string[] = [];
  if (!state.bracket) return { moved: false, voided };
  let moved = false;
  for (const view of viewsOf(state.bracket)) {
    const ids = state.matchInfo[view.id]?.games;
    if (!ids) continue;
    for (const id of ids) {
      const game = games[id];
      if (!game) continue;
      const stands = view.status !== 'not-needed' && view.teams[0] !== null && view.teams[1] !== null && view.teams.includes(game.teams.NS) && view.teams.includes(game.teams.EW);
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

/** Whether the bracket's recorded result for a match agrees with what its games decide. */
function resultFits(bracket: BracketState, view: MatchView, decided: { winner: string } | null): boolean {
  const result = bracket.results[view.id];
  const fits = result !== undefined && view.status === 'played';
  return decided ? fits && result.winner === decided.winner : !fits;
}

/**
 * Whether one match's bracket result still agrees with its games. Every event that can change
 * another match's decision settles the whole bracket, so after a game of this match ends, the
 * bracket needs settling only when this match's own result no longer fits.
 */
function matchSettled(state: TournamentState, games: Readonly<Record<string, GameModel>>, matchId: string | null): boolean {
  if (!state.bracket || !matchId) return false;
  const view = viewsOf(state.bracket).find((v) => v.id === matchId);
  const info = state.matchInfo[matchId];
  if (!view || !info) return false;
  const [a, b] = view.teams;
  if (a === null || b === null || view.status === 'bye' || view.status === 'not-needed' || view.status === 'forfeit') return true;
  return resultFits(state.bracket, view, matchDecision(state, info.games, games, [a, b], clockPerOf(info, state.format)));
}

// The views of a bracket state, derived once: bracket states are never changed in place (each
// result or forfeit makes a new one), so the views of one stay true. Callers only read them.
const VIEWS = new WeakMap<BracketState, readonly MatchView[]>();
function viewsOf(bracket: BracketState): readonly MatchView[] {
  let views = VIEWS.get(bracket);
  if (!views) VIEWS.set(bracket, (views = matchViews(bracket)));
  return views;
}

/**
 * What the match's clock times: as set at the seating; for a match seated before that was
 * recorded, as its clock shows; for a match never seated, whose games were entered from paper
 * records, as its format says (asher "Each challenge game is played to 350 points or the 1-hour
 * time limit", so a time call on paper ends that game only).
 */
export function clockPerOf(info: MatchInfo, format: FormatOptions): 'match' | 'game' {
  if (info.clockPlan) return info.clockPlan.per;
  if (info.clock) return info.clock.gameId ? 'game' : 'match';
  return format.clockPer ?? 'match';
}

function infoFor(state: TournamentState, matchId: string): MatchInfo {
  let info = state.matchInfo[matchId];
  if (!info) state.matchInfo[matchId] = info = { games: [], table: null, clock: null, started: false };
  return info;
}

function newRow(teamId: string, name: string, players: string[]): TeamRow {
  return { teamId, name, players, seed: null, wins: 0, losses: 0, gamesWon: 0, gamesLost: 0, points: 0, bags: 0, sets: 0, status: 'registered' };
}

function addLatest(state: TournamentState, text: string, position: number): void {
  state.model.latest.unshift({ text, position });
  if (state.model.latest.length > 10) state.model.latest.length = 10;
}

/** Read models snapshotted before these fields existed are filled in rather than folded again. */
function fillDefaults(state: TournamentState): void {
  state.checkedIn ??= [];
  state.disqualified ??= [];
  state.byeDraw ??= null;
  state.roundDraws ??= [];
  state.corrections ??= [];
  state.reviews ??= [];
  state.voided ??= {};
  state.reopened ??= {};
  state.causes ??= {};
  state.prizes ??= [];
  state.progressive ??= state.format.elimination === 'progressive' ? emptyProgressive() : null;
  state.decided ??= {};
  state.tally ??= {};
  state.registration ??= emptyRegistration();
  state.gameStats ??= {};
  state.lateClaims ??= [];
}

const LABELS: Record<string, string> = { winners: 'Round', losers: 'Losers round', final: 'Final', 'third-place': 'Third place' };

function labelOf(state: TournamentState, matchId: string): string {
  return state.model.matches.find((m) => m.matchId === matchId)?.label ?? `match ${matchId}`;
}

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
  placeRows(state, state.bracket, rows, views);
}

function rowsOf(model: TournamentModel): Map<string, TeamRow> {
  return new Map<string, TeamRow>(model.teams.map((t) => [t.teamId, t]));
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
    label: view.side === 'winners' || view.side === 'losers' ? `${LABELS[view.side]} ${view.round}` : LABELS[view.side]!,
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

/** What a match's model says of rulings that undid it: its voided games, and the ruling that reopened it while it is played again. */
function voidedOf(state: TournamentState, view: MatchView, info: MatchInfo | undefined, games: Readonly<Record<string, GameModel>>): Pick<MatchModel, 'voided' | 'reopened'> {
  const by = (position: number) => state.causes?.[String(position)] ?? 'a later ruling';
  const voided = (info?.games ?? []).flatMap((gameId) => {
    const position = state.voided?.[gameId];
    return position === undefined ? [] : [{ gameId, number: games[gameId]?.number ?? 0, position, by: by(position) }];
  });
  const review = view.status === 'under-review' ? state.reviews.findLast((r) => r.matchId === view.id)?.position : undefined;
  const reopened = view.status !== 'played' ? (review ?? state.reopened?.[view.id]) : undefined;
  return { ...(voided.length > 0 ? { voided } : {}), ...(reopened !== undefined ? { reopened: { position: reopened, by: by(reopened) } } : {}) };
}

/**
 * Matches won and lost, who is out and who is still playing, and, once the bracket is
 * finished, the placings, prizes and champion.
 */
function placeRows(state: TournamentState, bracket: BracketState, rows: ReadonlyMap<string, TeamRow>, views: readonly MatchView[]): void {
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
  // A team is out once it loses a match with no way back (its loser goes nowhere), or, in double
  // elimination, at its second loss. A first loss that sends the team on to a losers' bracket or
  // a 3rd-place match leaves it playing: a pitt-boss first-round loser plays on for 3rd.
  const lossesToOut = state.format.elimination === 'double' ? 2 : null;
  const bracketMatches = bracket.bracket.matches;
  const byRound = bracket.bracket.byRound === true;
  views.forEach((view, i) => {
    if (!view.loser) return;
    const row = rows.get(view.loser);
    // matchViews lists the matches in the bracket's own order.
    const match = bracketMatches[i]!;
    // In a bracket drawn round by round a winners'-bracket loser's next match is not drawn yet.
    const lastLoss = match.loserTo === null && !(byRound && match.side === 'winners');
    if (row && row.status === 'alive' && (lastLoss || (lossesToOut !== null && row.losses >= lossesToOut))) row.status = 'out';
  });
  if (isFinished(bracket, views)) {
    model.status = 'finished';
    const placed: Placing[] = placings(bracket);
    model.placings = placed.flatMap((p) => p.teams.map((teamId) => ({ place: p.place, teamId })));
    state.prizes = prizesFor(state.format, placed);
    const champion = model.placings.find((p) => p.place === 1);
    const row = champion && rows.get(champion.teamId);
    if (row) row.status = 'champion';
  } else if (model.status === 'finished') {
    // A correction reopened the bracket.
    model.status = 'running';
    model.placings = [];
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
function refreshDecided(state: TournamentState, games: Readonly<Record<string, GameModel>>, game: GameModel, known: boolean, before: BracketState | null): boolean {
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
  placeRows(state, bracket, rows, views);
  model.prizes = state.prizes;
  return true;
}

function withAwaiting(awaiting: MatchModel['awaitingRuling']): Pick<MatchModel, 'awaitingRuling'> {
  return awaiting ? { awaitingRuling: awaiting } : {};
}

function sameView(a: MatchView, b: MatchView): boolean {
  return a.status === b.status && a.winner === b.winner && a.loser === b.loser && a.teams[0] === b.teams[0] && a.teams[1] === b.teams[1];
}

function refreshProgressive(state: TournamentState, progressive: ProgressiveState, rows: Map<string, TeamRow>, games: Readonly<Record<string, GameModel>>): void {
  const model = state.model;
  // A table whose game a claim holds has no result yet, so its round is not over (tables move together).
  const held = (game: GameModel) => holdingClaims(state, game).length > 0;
  deriveProgressive(progressive, games, state.format.rounds ?? 1, held);
  for (const player of progressive.players) {
    const row = rows.get(player.playerId);
    if (row) row.points = player.total;
  }
  model.matches = progressive.rounds.flatMap((round) =>
    round.seating.map((table): MatchModel => {
      const gameId = round.games[String(table.table)];
      const game = gameId ? games[gameId] : undefined;
      // The game's own team ids, so the pages name both partners of each side.
      const pairs: [string, string] = [`${table.seats.N}+${table.seats.S}`, `${table.seats.E}+${table.seats.W}`];
      const over = game?.winner && !held(game) ? game.winner : null;
      const winner = over ? (over === 'NS' ? pairs[0] : pairs[1]) : null;
      return {
        matchId: `R${round.round}-T${table.table}`,
        round: round.round,
        side: 'table',
        label: `Round ${round.round}, table ${table.table}`,
        teams: pairs,
        games: gameId ? [gameId] : [],
        gamesWon: [over === 'NS' ? 1 : 0, over === 'EW' ? 1 : 0],
        status: over ? 'done' : 'live',
        winner,
        table: table.table,
        clock: null,
        underReview: false,
        ...withAwaiting(awaitingOf(state, gameId ? [gameId] : [], games)),
      };
    }),
  );
  const rounds = state.format.rounds ?? 1;
  if (progressiveFinished(progressive, rounds)) {
    model.status = 'finished';
    model.placings = progressive.standings.map((s) => ({ place: s.place, teamId: s.playerId }));
    for (const s of progressive.standings) {
      const row = rows.get(s.playerId);
      if (row && s.place === 1) row.status = 'champion';
    }
    const prizes = progressive.prizes;
    const byPlace = prizesFor(
      state.format,
      [...new Set(progressive.standings.map((s) => s.place))].map((place) => ({ place, teams: progressive.standings.filter((s) => s.place === place).map((s) => s.playerId) })),
    );
    state.prizes = [
      ...byPlace,
      ...(prizes
        ? ([
            ['High player', prizes.highPlayer],
            ['High male', prizes.highMale],
            ['High female', prizes.highFemale],
          ] as const)
            .filter(([, teams]) => teams.length > 0)
            .map(([prize, teams]) => ({ place: 1, prize, teams: [...teams] }))
        : []),
    ];
  } else if (model.status === 'finished') {
    // A correction reopened the last round.
    model.status = 'running';
    model.placings = [];
    state.prizes = [];
  }
}

/**
 * The rounds of a structure placed by its table (round robin, Swiss), as the room follows them:
 * each round's pairings with the table each is (to be) played at, who has the bye, which round
 * is being played now, and what comes after it. The venue screen, the standings page, each team's
 * page and the read API all read this one derivation, so they never disagree on who plays whom
 * where.
 */
import { hasTable, playOf } from '../engine/format-play.ts';
import { poolOfMatch } from '../engine/pools.ts';
import type { MatchModel } from './read-models.ts';
import { readyTables } from './table-assignment.ts';
import type { TournamentState } from './tournament-state.ts';

/** One match of a round: its two teams, where it is played, and how it stands. */
export interface Pairing {
  matchId: string;
  /** The table it is played at (live or decided at a table), or the one it is to be seated at; null when not known yet. */
  table: number | null;
  teams: readonly [string, string];
  /** to-seat: waiting for its table; playing: at its table now; decided: won, lost or forfeited. */
  state: 'to-seat' | 'playing' | 'decided';
  winner: string | null;
  /** Games each team won, in the order of `teams`. */
  gamesWon: readonly [number, number];
  forfeit: boolean;
  /** Pools into a playoff: the letter of the pool it is played in; absent in other structures. */
  pool?: string;
}

export interface LeagueRound {
  round: number;
  pairings: Pairing[];
  /** The team sitting the round out, when the count is odd. */
  bye: string | null;
  /** Every match of the round is decided. */
  decided: boolean;
}

export interface LeagueRounds {
  /** How many rounds the event plays: a Swiss event's number, a round robin's whole schedule. */
  roundsInEvent: number;
  /** The round being played now: the first with a match not yet decided; the last drawn once all are. */
  current: number;
  /** Every round drawn so far (a round robin's whole schedule), round 1 first. */
  rounds: LeagueRound[];
  /**
   * The round after the last drawn, while the event plays on and its pairings wait on the
   * standings (Swiss: paired once the current round is over); null when every round is drawn.
   */
  toPair: number | null;
  /** Whether a bye counts as a match won (Swiss) or as nothing (round robin). */
  byeIsWin: boolean;
}

const OPEN: ReadonlySet<MatchModel['status']> = new Set(['waiting', 'ready', 'live']);

/** The rounds of a structure placed by its table; null for a knockout or a progressive evening, or before the start. */
export function leagueRounds(state: TournamentState): LeagueRounds | null {
  const structure = playOf(state.format);
  // With pools, the rounds are pool play's; the playoff is a bracket.
  const matches = state.bracket?.bracket.pools ? state.model.matches.filter((m) => m.side === 'pool') : state.model.matches;
  if (!hasTable(structure) || matches.length === 0) return null;
  const seats = readyTables(matches);
  const byRound = new Map<number, LeagueRound>();
  for (const match of matches) {
    let round = byRound.get(match.round);
    if (!round) byRound.set(match.round, (round = { round: match.round, pairings: [], bye: null, decided: true }));
    if (OPEN.has(match.status)) round.decided = false;
    if (match.status === 'bye') {
      round.bye = match.teams[0] ?? match.teams[1];
      continue;
    }
    if (match.teams[0] === null || match.teams[1] === null) continue;
    round.pairings.push({
      matchId: match.matchId,
      table: match.status === 'ready' ? (seats.get(match.matchId) ?? null) : match.table,
      teams: [match.teams[0], match.teams[1]],
      state: match.status === 'live' ? 'playing' : match.status === 'done' || match.status === 'forfeit' ? 'decided' : 'to-seat',
      winner: match.winner,
      gamesWon: [match.gamesWon[0], match.gamesWon[1]],
      forfeit: match.status === 'forfeit',
      ...(match.side === 'pool' ? { pool: poolOfMatch(match.matchId) ?? '' } : {}),
    });
  }
  const rounds = [...byRound.values()].sort((a, b) => a.round - b.round);
  const last = rounds.at(-1)!.round;
  const drawnOneByOne = structure.rounds === 'drawn';
  const roundsInEvent = drawnOneByOne ? Math.max(state.format.rounds ?? last, last) : last;
  return {
    roundsInEvent,
    current: rounds.find((r) => !r.decided)?.round ?? last,
    rounds,
    toPair: drawnOneByOne && last < roundsInEvent ? last + 1 : null,
    byeIsWin: structure.byeIsWin,
  };
}

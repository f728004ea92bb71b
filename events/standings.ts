/**
 * Where each team stands, and the order the standings list them in: the competition's rules for
 * a knockout's reach, its tiebreaks and its places, in one place below the pages, the read API
 * and the director's desk, so every copy of the standings in the room says the same thing.
 *
 * Each team's standing comes in the competition's own words (in the winners' bracket, in the
 * losers' bracket, playing for 3rd, in the final, eliminated, champion, or the place it
 * finished), derived from the matches the bracket shows, so the leaderboard, the venue screen,
 * the read API and the director's list say the same thing about a team.
 */
import type { MatchModel, TeamRow, TournamentModel } from './read-models.ts';
import { rankByTotal } from '../engine/progressive.ts';
import { poolOfMatch } from '../engine/pools.ts';

export type StandingTone =
  | 'winners'
  | 'losers'
  | 'third'
  | 'final'
  | 'playing'
  | 'out'
  | 'champion'
  | 'placed'
  | 'registered'
  | 'withdrawn'
  | 'disqualified'
  /** A progressive player at a table this round (or the next, once it is drawn). */
  | 'seated'
  /** A progressive player sitting a round out. */
  | 'resting';

export interface Standing {
  /** The words the room reads ("Losers’ bracket, for 3rd"). */
  label: string;
  /** The same in a word or two, for the venue screen's narrow columns ("Losers"). */
  short: string;
  /** The badge's colour family. */
  tone: StandingTone;
}

/** What a losers' bracket plays for: a place in the final (double elimination) or 3rd place (first-round losers). */
export type LosersPlayFor = 'final' | 'third' | null;

/**
 * What the losers' bracket of these matches plays for. The double-elimination grand final
 * (`GF`) takes the losers' bracket champion; with only a plain final (`F`) the losers'
 * bracket plays for 3rd place (engine/bracket.ts names the matches this way). A bracket drawn
 * round by round (engine/bracket-rounds.ts) has no losers' round 1 (its first losers play in
 * round 2) and its losers' bracket plays for a place in the final (`F`), drawn last.
 */
export function losersPlayFor(matches: readonly Pick<MatchModel, 'matchId' | 'side' | 'round'>[]): LosersPlayFor {
  if (!matches.some((m) => m.side === 'losers')) return null;
  const drawnByRound = !matches.some((m) => m.side === 'losers' && m.round === 1);
  return drawnByRound || matches.some((m) => m.matchId === 'GF') ? 'final' : 'third';
}

const ORDINALS = ['1st', '2nd', '3rd'];

/** "2nd", "3rd", "5th". */
export function ordinal(place: number): string {
  if (place >= 1 && place <= ORDINALS.length) return ORDINALS[place - 1]!;
  const tens = place % 100;
  return `${place}${tens >= 11 && tens <= 13 ? 'th' : (['th', 'st', 'nd', 'rd'][place % 10] ?? 'th')}`;
}

const OPEN: ReadonlySet<MatchModel['status']> = new Set(['waiting', 'ready', 'live']);

/** Every team's standing, by team id. */
export function teamStandings(tournament: Pick<TournamentModel, 'teams' | 'matches' | 'placings' | 'status'>): Map<string, Standing> {
  const purpose = losersPlayFor(tournament.matches);
  const place = new Map(tournament.placings.map((p) => [p.teamId, p.place]));
  // The first open match that names a team is the one it plays next (matches are in bracket order).
  const next = new Map<string, MatchModel>();
  const lastRound = new Map<string, number>();
  const lastWon = new Map<string, MatchModel>();
  for (const match of tournament.matches) {
    lastRound.set(match.side, Math.max(lastRound.get(match.side) ?? 0, match.round));
    if (match.status === 'done' && match.winner) lastWon.set(match.winner, match);
    if (!OPEN.has(match.status)) continue;
    for (const teamId of match.teams) if (teamId !== null && !next.has(teamId)) next.set(teamId, match);
  }
  // The winner of the match for 3rd has its place before the event is over.
  const third = (teamId: string) => {
    const won = lastWon.get(teamId);
    return won !== undefined && (won.side === 'third-place' || (won.side === 'losers' && purpose === 'third' && won.round === lastRound.get('losers')));
  };
  const standings = new Map<string, Standing>();
  for (const team of tournament.teams) {
    const placed = place.get(team.teamId) ?? (!next.has(team.teamId) && third(team.teamId) ? 3 : undefined);
    standings.set(team.teamId, standingOf(team, placed, next.get(team.teamId), purpose, lastRound));
  }
  return standings;
}

function standingOf(
  team: TeamRow,
  place: number | undefined,
  next: MatchModel | undefined,
  purpose: LosersPlayFor,
  lastRound: ReadonlyMap<string, number>,
): Standing {
  switch (team.status) {
    case 'registered':
      return { label: 'Registered', short: 'Registered', tone: 'registered' };
    case 'withdrawn':
      return { label: 'Withdrawn', short: 'Withdrawn', tone: 'withdrawn' };
    case 'disqualified':
      return { label: 'Disqualified', short: 'Disqualified', tone: 'disqualified' };
    case 'champion':
      return { label: 'Champion', short: 'Champion', tone: 'champion' };
    case 'out':
      return place !== undefined
        ? { label: `${ordinal(place)} place`, short: ordinal(place), tone: 'placed' }
        : { label: 'Eliminated', short: 'Out', tone: 'out' };
    case 'alive': {
      if (place !== undefined) return { label: `${ordinal(place)} place`, short: ordinal(place), tone: 'placed' };
      // Between two rounds of a bracket drawn round by round, a team's bracket is its losses.
      if (!next && purpose === 'final' && team.losses === 0) return { label: 'Winners’ bracket', short: 'Winners', tone: 'winners' };
      if (!next && purpose === 'final' && team.losses === 1) return { label: 'Losers’ bracket', short: 'Losers', tone: 'losers' };
      if (!next) return { label: 'Playing', short: 'Playing', tone: 'playing' };
      switch (next.side) {
        case 'winners':
          // With no losers' bracket (single elimination) there is no winners' bracket to name: the round it plays.
          if (purpose === null) return { label: `Playing round ${next.round}`, short: `Round ${next.round}`, tone: 'playing' };
          return { label: 'Winners’ bracket', short: 'Winners', tone: 'winners' };
        case 'losers':
          if (purpose === 'third') {
            return next.round === lastRound.get('losers')
              ? { label: 'Losers’ final, for 3rd', short: 'For 3rd', tone: 'third' }
              : { label: 'Losers’ bracket, for 3rd', short: 'Losers', tone: 'losers' };
          }
          return { label: 'Losers’ bracket', short: 'Losers', tone: 'losers' };
        case 'final':
          return { label: next.matchId === 'GF2' ? 'Final, deciding match' : 'In the final', short: 'Final', tone: 'final' };
        case 'third-place':
          return { label: 'Playing for 3rd', short: 'For 3rd', tone: 'third' };
        case 'consolation':
          return { label: 'Second chance', short: 'Second chance', tone: 'losers' };
        case 'pool': {
          const pool = poolOfMatch(next.matchId);
          return { label: `Playing in pool ${pool}`, short: `Pool ${pool}`, tone: 'playing' };
        }
        default:
          return { label: 'Playing', short: 'Playing', tone: 'playing' };
      }
    }
    default: {
      const _exhaustive: never = team.status;
      return _exhaustive;
    }
  }
}

// ── Where a team stands in a knockout, for ranking the standings ─────────────────────────────

/** A team's place in a knockout's ranking: how far it got, and the words for it. */
export interface BracketReach {
  /** 0 champion, 1 still alive, 2 a place decided, 3 out, 4 not in the bracket. */
  tier: 0 | 1 | 2 | 3 | 4;
  /** The decided place, for tier 2. */
  place: number;
  /** Matches lost: among teams still playing, fewer is further from going out. */
  losses: number;
  /** Matches the team has been drawn into (byes and the one it plays now included): the further on, the more. */
  depth: number;
  /** The round of its match now (alive) or the one it went out in (out), in the bracket page's words. */
  round: string | null;
}

function reachRoundName(match: Pick<MatchModel, 'side' | 'round' | 'matchId'>): string {
  if (match.side === 'final') return match.matchId === 'GF2' ? 'the deciding final' : 'the final';
  if (match.side === 'third-place') return 'the match for 3rd';
  if (match.side === 'consolation') return `second chance round ${match.round}`;
  return match.side === 'losers' ? `losers round ${match.round}` : `round ${match.round}`;
}

/**
 * Every team's reach in a knockout, by team id; empty when no bracket is drawn. The room ranks a
 * knockout by how far each team got: the champion, then the teams still playing (fewest losses,
 * then furthest on, first), then the places decided, then the teams out (latest out first).
 */
export function bracketReach(tournament: Pick<TournamentModel, 'teams' | 'matches' | 'placings'>): Map<string, BracketReach> {
  const reach = new Map<string, BracketReach>();
  if (tournament.matches.length === 0) return reach;
  const place = new Map(tournament.placings.map((p) => [p.teamId, p.place]));
  const depth = new Map<string, number>();
  const current = new Map<string, MatchModel>();
  const lost = new Map<string, MatchModel>();
  for (const match of tournament.matches) {
    for (const teamId of match.teams) {
      if (teamId === null) continue;
      depth.set(teamId, (depth.get(teamId) ?? 0) + 1);
      if (OPEN.has(match.status) && !current.has(teamId)) current.set(teamId, match);
      if ((match.status === 'done' || match.status === 'forfeit') && match.winner !== null && match.winner !== teamId) lost.set(teamId, match);
    }
  }
  for (const team of tournament.teams) {
    const d = depth.get(team.teamId) ?? 0;
    const p = place.get(team.teamId);
    const out = lost.get(team.teamId);
    if (team.status === 'champion') reach.set(team.teamId, { tier: 0, place: 1, depth: d, losses: team.losses, round: null });
    else if (p !== undefined) reach.set(team.teamId, { tier: 2, place: p, depth: d, losses: team.losses, round: null });
    else if (team.status === 'alive') {
      const now = current.get(team.teamId);
      reach.set(team.teamId, { tier: 1, place: 0, depth: d, losses: team.losses, round: now ? reachRoundName(now) : null });
    } else if (team.status === 'out' || team.status === 'disqualified')
      reach.set(team.teamId, { tier: 3, place: 0, depth: d, losses: team.losses, round: out ? reachRoundName(out) : null });
    else reach.set(team.teamId, { tier: 4, place: 0, depth: d, losses: team.losses, round: null });
  }
  return reach;
}

/** Orders two teams by their reach: negative when `a` stands higher. Points are left to the caller as the tiebreak. */
export function compareReach(a: BracketReach | undefined, b: BracketReach | undefined): number {
  if (!a || !b) return 0;
  if (a.tier !== b.tier) return a.tier - b.tier;
  if (a.tier === 2) return a.place - b.place;
  // Still playing: a team with fewer losses has more of the bracket open to it, whatever round it is in.
  if (a.tier === 1) return a.losses - b.losses || b.depth - a.depth;
  return b.depth - a.depth;
}

// ── The order of the standings ──────────────────────────────────────────────────────────────

/**
 * Teams in standing order. A knockout (a bracket is drawn) ranks by where each team stands in
 * it: the champion, the teams still playing (fewest losses, then furthest on, first), the places
 * decided, then the teams out (latest out first); points only break the ties left. Before the draw, and for a progressive evening's running totals: decided places
 * first, then matches won (most first), matches lost (fewest first), games won and lost the
 * same way, and points (most first).
 */
export function rankTeams(
  tournament: Pick<TournamentModel, 'teams' | 'placings'> & Partial<Pick<TournamentModel, 'matches' | 'format' | 'league'>>,
): TeamRow[] {
  return rankedTeams(tournament).map((r) => r.team);
}

/**
 * Teams in standing order with the place each holds. A progressive evening's players are placed
 * by the evening's one ranking (rankByTotal, as the individual standings, the TV and each
 * player's page place them): equal totals share a place. A player withdrawn before the start
 * has no place. A bracket event's rows hold the place of their row.
 */
export function rankedTeams(
  tournament: Pick<TournamentModel, 'teams' | 'placings'> & Partial<Pick<TournamentModel, 'matches' | 'format' | 'league'>>,
): { team: TeamRow; place: number | null }[] {
  if (isIndividual(tournament)) {
    const ranked = rankByTotal(tournament.teams.filter((t) => t.status !== 'withdrawn').map((team) => ({ team, name: team.name, total: team.points })));
    const withdrawn = tournament.teams.filter((t) => t.status === 'withdrawn').sort((a, b) => a.name.localeCompare(b.name));
    return [...ranked.map((r) => ({ team: r.team, place: r.place })), ...withdrawn.map((team) => ({ team, place: null }))];
  }
  if (tournament.league?.pools) return poolsRanked(tournament.teams, tournament.placings, tournament.league);
  // A league's teams level on every tiebreak share their place.
  const shared = new Map((tournament.league?.rows ?? []).map((row) => [row.teamId, row.place]));
  return orderTeams(tournament).map((team, i) => ({ team, place: shared.get(team.teamId) ?? i + 1 }));
}

/**
 * Pools into a playoff: the places decided first; then the teams in the playoff, by their seed in
 * it; then the others by their place in their pool, pool by pool.
 */
function poolsRanked(
  teams: readonly TeamRow[],
  placings: TournamentModel['placings'],
  league: NonNullable<TournamentModel['league']>,
): { team: TeamRow; place: number | null }[] {
  const placed = new Map(placings.map((p) => [p.teamId, p.place]));
  const playoff = league.playoff ?? [];
  const inPlayoff = (t: TeamRow) => (playoff.includes(t.teamId) ? playoff.indexOf(t.teamId) : Infinity);
  const poolPlace = new Map(league.rows.map((r) => [r.teamId, r.place]));
  const pool = (t: TeamRow) => (league.pools ?? []).findIndex((p) => p.teams.includes(t.teamId));
  const sorted = [...teams].sort(
    (a, b) =>
      (placed.get(a.teamId) ?? Infinity) - (placed.get(b.teamId) ?? Infinity) ||
      inPlayoff(a) - inPlayoff(b) ||
      (poolPlace.get(a.teamId) ?? Infinity) - (poolPlace.get(b.teamId) ?? Infinity) ||
      pool(a) - pool(b) ||
      a.name.localeCompare(b.name),
  );
  return sorted.map((team, i) => ({ team, place: placed.get(team.teamId) ?? i + 1 }));
}

function orderTeams(tournament: Pick<TournamentModel, 'teams' | 'placings'> & Partial<Pick<TournamentModel, 'matches' | 'format' | 'league'>>): TeamRow[] {
  // A league is ranked by its own standings, tiebreaks and all (engine/structures.ts).
  if (tournament.league) {
    const order = new Map(tournament.league.rows.map((row, i) => [row.teamId, i]));
    return [...tournament.teams].sort((a, b) => (order.get(a.teamId) ?? Infinity) - (order.get(b.teamId) ?? Infinity) || a.name.localeCompare(b.name));
  }
  const reach = knockoutReach(tournament);
  if (reach) {
    return [...tournament.teams].sort(
      (a, b) =>
        compareReach(reach.get(a.teamId), reach.get(b.teamId)) ||
        a.losses - b.losses ||
        b.points - a.points ||
        (a.seed ?? Infinity) - (b.seed ?? Infinity) ||
        a.name.localeCompare(b.name),
    );
  }
  const place = new Map(tournament.placings.map((p) => [p.teamId, p.place]));
  return [...tournament.teams].sort(
    (a, b) =>
      (place.get(a.teamId) ?? Infinity) - (place.get(b.teamId) ?? Infinity) ||
      b.wins - a.wins ||
      a.losses - b.losses ||
      b.gamesWon - a.gamesWon ||
      a.gamesLost - b.gamesLost ||
      b.points - a.points ||
      (a.seed ?? Infinity) - (b.seed ?? Infinity) ||
      a.name.localeCompare(b.name),
  );
}

/** Each team's reach when the standings are a knockout's (a bracket drawn, not a progressive evening); null otherwise. */
export function knockoutReach(
  tournament: Pick<TournamentModel, 'teams' | 'placings'> & Partial<Pick<TournamentModel, 'matches' | 'format' | 'league'>>,
): Map<string, BracketReach> | null {
  if (tournament.format === 'tournament-spades' || tournament.league || !tournament.matches || tournament.matches.length === 0) return null;
  return bracketReach({ teams: tournament.teams, placings: tournament.placings, matches: tournament.matches });
}

/** Whether the standings are of players: a progressive evening's, each on a running total, or players registered alone before their partners are drawn. */
export function isIndividual(tournament: Partial<Pick<TournamentModel, 'format' | 'alone'>>): boolean {
  return tournament.format === 'tournament-spades' || tournament.alone === true;
}

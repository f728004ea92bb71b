/**
 * Standings of a structure where everyone plays on (round robin, Swiss): each team's record
 * counted from its decided matches, ranked by the structure's tiebreaks in order. Teams level on
 * every tiebreak share the place, and the table says so: a tie at the top is stated, not hidden.
 *
 * Tiebreaks:
 * - `match-wins`: matches won (a Swiss bye counts as a win when the structure says so).
 * - `games-won`: games won in all matches.
 * - `points-difference`: points scored minus points conceded, over every game.
 * - `head-to-head`: among the teams still level, matches won against each other.
 * - `opponents-match-wins`: the average, over the teams met (byes are no opponent), of each
 *   opponent's share of its matches won; a share in thousandths, so it compares exactly.
 */

export type Tiebreak = 'match-wins' | 'games-won' | 'points-difference' | 'head-to-head' | 'opponents-match-wins';

/** A decided match between two teams, as standings count it. */
export interface DecidedMatch {
  teams: readonly [string, string];
  winner: string;
  /** Games won by each of the two teams. */
  games: readonly [number, number];
  /** Points scored by each of the two teams over the match's games. */
  points: readonly [number, number];
}

export interface StandingRow {
  teamId: string;
  place: number;
  /** Level with another team on every tiebreak, so the place is shared. */
  shared: boolean;
  /** The tiebreak that put this team below the team above it; null for the first and for a shared place. */
  separatedBy: Tiebreak | null;
  played: number;
  wins: number;
  losses: number;
  byes: number;
  gamesWon: number;
  gamesLost: number;
  pointsFor: number;
  pointsAgainst: number;
  difference: number;
  /** Opponents' match-win share in thousandths (Swiss); null where the structure does not use it. */
  opponentsWinShare: number | null;
  /** Matches won against the teams it was level with when head-to-head was asked; null when it was not. */
  headToHead: number | null;
}

export interface TableOptions {
  tiebreaks: readonly Tiebreak[];
  /** Whether a bye counts as a match won (Swiss) or as nothing (round robin). */
  byeIsWin: boolean;
}

interface Tally {
  wins: number;
  losses: number;
  byes: number;
  gamesWon: number;
  gamesLost: number;
  pointsFor: number;
  pointsAgainst: number;
  opponents: string[];
}

/**
 * Ranks `teams` (in seed order) from their decided matches and byes. Every team is listed,
 * a team with no match yet too; a team named in a match but not in `teams` is ignored.
 */
export function leagueTable(teams: readonly string[], matches: readonly DecidedMatch[], byes: readonly string[], options: TableOptions): StandingRow[] {
  const tallies = new Map<string, Tally>(
    teams.map((t) => [t, { wins: 0, losses: 0, byes: 0, gamesWon: 0, gamesLost: 0, pointsFor: 0, pointsAgainst: 0, opponents: [] }]),
  );
  for (const match of matches) {
    match.teams.forEach((team, side) => {
      const tally = tallies.get(team);
      if (!tally) return;
      const other = 1 - side;
      if (match.winner === team) tally.wins++;
      else tally.losses++;
      tally.gamesWon += match.games[side]!;
      tally.gamesLost += match.games[other]!;
      tally.pointsFor += match.points[side]!;
      tally.pointsAgainst += match.points[other]!;
      tally.opponents.push(match.teams[other]!);
    });
  }
  for (const team of byes) {
    const tally = tallies.get(team);
    if (!tally) continue;
    tally.byes++;
    if (options.byeIsWin) tally.wins++;
  }
  const share = (team: string): number => {
    const t = tallies.get(team);
    if (!t) return 0;
    const played = t.wins + t.losses;
    return played === 0 ? 0 : t.wins / played;
  };
  const usesShare = options.tiebreaks.includes('opponents-match-wins');
  const opponentsShare = new Map<string, number>();
  for (const [team, t] of tallies) {
    const shares = t.opponents.map(share);
    opponentsShare.set(team, shares.length === 0 ? 0 : Math.round((1000 * shares.reduce((a, b) => a + b, 0)) / shares.length));
  }
  const headToHead = new Map<string, number>();

  const value = (team: string, tiebreak: Tiebreak, group: readonly string[]): number => {
    const t = tallies.get(team)!;
    switch (tiebreak) {
      case 'match-wins':
        return t.wins;
      case 'games-won':
        return t.gamesWon;
      case 'points-difference':
        return t.pointsFor - t.pointsAgainst;
      case 'opponents-match-wins':
        return opponentsShare.get(team)!;
      case 'head-to-head': {
        const wins = matches.filter((m) => m.winner === team && m.teams.includes(team) && group.includes(m.teams[0]) && group.includes(m.teams[1])).length;
        headToHead.set(team, wins);
        return wins;
      }
      default: {
        const _exhaustive: never = tiebreak;
        return _exhaustive;
      }
    }
  };

  // Each group level on the tiebreaks so far is split by the next one; what is left level shares a place.
  const tiers: { teams: string[]; by: Tiebreak | null }[] = [];
  const rank = (group: string[], index: number, by: Tiebreak | null): void => {
    if (group.length === 1 || index === options.tiebreaks.length) {
      tiers.push({ teams: group, by });
      return;
    }
    const tiebreak = options.tiebreaks[index]!;
    const values = new Map(group.map((team) => [team, value(team, tiebreak, group)]));
    const levels = [...new Set(values.values())].sort((a, b) => b - a);
    levels.forEach((level, k) =>
      rank(
        group.filter((team) => values.get(team) === level),
        index + 1,
        k === 0 ? by : tiebreak,
      ),
    );
  };
  rank([...teams], 0, null);

  const rows: StandingRow[] = [];
  for (const tier of tiers) {
    const place = rows.length + 1;
    for (const teamId of tier.teams) {
      const t = tallies.get(teamId)!;
      rows.push({
        teamId,
        place,
        shared: tier.teams.length > 1,
        separatedBy: tier.teams.length > 1 ? null : tier.by,
        played: t.wins + t.losses - (options.byeIsWin ? t.byes : 0),
        wins: t.wins,
        losses: t.losses,
        byes: t.byes,
        gamesWon: t.gamesWon,
        gamesLost: t.gamesLost,
        pointsFor: t.pointsFor,
        pointsAgainst: t.pointsAgainst,
        difference: t.pointsFor - t.pointsAgainst,
        opponentsWinShare: usesShare ? opponentsShare.get(teamId)! : null,
        headToHead: headToHead.has(teamId) ? headToHead.get(teamId)! : null,
      });
    }
  }
  return rows;
}

/** The teams sharing first place when more than one does; empty when one team leads alone. */
export function tiedAtTop(rows: readonly StandingRow[]): string[] {
  const top = rows.filter((r) => r.place === 1);
  return top.length > 1 ? top.map((r) => r.teamId) : [];
}

/** Each tiebreak in a director's words, for the standings' legend and the rules sheet. */
export const TIEBREAK_WORDS: Readonly<Record<Tiebreak, string>> = {
  'match-wins': 'matches won',
  'games-won': 'games won',
  'points-difference': 'points scored minus points conceded',
  'head-to-head': 'matches won between the teams still level',
  'opponents-match-wins': 'the share of matches won by the teams played',
};

/**
 * Swiss: a fixed number of rounds; each round pairs teams with the same match wins (a score
 * group), never two teams that have met while another pairing exists, and gives the bye (odd
 * counts) to the lowest-ranked team that has not had one. A bye counts as a match won. Standings:
 * match wins, then opponents' share of matches won, then points for minus against
 * (engine/league-table.ts). Round 1 is drawn at the start from the seeds (top half v bottom
 * half); each later round once the last is over, from the standings then, as a recorded round.
 *
 * Pairing is an exact search, small enough for the sizes a room holds (64 teams at most): the
 * highest-ranked team not yet paired takes the first partner it may play, in order of
 * preference, and the search backs up when the rest cannot be paired; a set of teams already
 * found unpairable is remembered, so no set is tried twice. Preference inside a score group is
 * the team half the group below (1 v 5, 2 v 6 in a group of 8), then nearer ones; then the next
 * group down. The constraints are relaxed only when no pairing meets them, in this order: no
 * rematch and at most one match win apart; no rematch; at most one apart; anything.
 */
import type { Bracket, BracketMatch, BracketState, MatchView } from './bracket.ts';
import { checkTeams, linkRoutes, matchViews } from './bracket.ts';
import type { DrawnRound, RoundMatch } from './bracket-rounds.ts';
import type { StandingRow, Tiebreak } from './league-table.ts';

export const SWISS_TIEBREAKS: readonly Tiebreak[] = ['match-wins', 'opponents-match-wins', 'points-difference'];

/** Fewest and most rounds a Swiss event may be set to play. */
export const SWISS_MAX_ROUNDS = 20;

/** Round 1 of a Swiss event: top half of the seeds against the bottom half; the last seed sits out on an odd count. */
export function swissFirstBracket(seeds: readonly string[]): Bracket {
  checkTeams([...seeds]);
  const playing = seeds.length % 2 === 1 ? seeds.slice(0, -1) : [...seeds];
  const half = playing.length / 2;
  const pairs: [string, string | null][] = playing.slice(0, half).map((team, i) => [team, playing[half + i]!]);
  if (playing.length < seeds.length) pairs.push([seeds.at(-1)!, null]);
  const seedOf = new Map(seeds.map((team, i) => [team, i + 1]));
  const matches: BracketMatch[] = pairs.map(([a, b], i) => ({
    id: `R1-${i + 1}`,
    side: 'winners',
    round: 1,
    slots: [{ kind: 'team', team: a, seed: seedOf.get(a)! }, b === null ? { kind: 'bye' } : { kind: 'team', team: b, seed: seedOf.get(b)! }],
    winnerTo: null,
    loserTo: null,
  }));
  linkRoutes(matches);
  return { format: 'swiss', teams: [...seeds], reset: false, thirdPlace: false, matches, byRound: true };
}

/** What a pairing had to give up: nothing (`strict`), the one-step limit, rematches, or both. */
export type PairingLevel = 'strict' | 'wide' | 'rematch' | 'any';

export interface SwissPairing {
  pairs: [string, string][];
  bye: string | null;
  level: PairingLevel;
}

export interface PairingInput {
  /** Teams to pair, best-ranked first (the standings' order). */
  ranked: readonly string[];
  /** Match wins (byes included) by team: the score groups. */
  wins: ReadonlyMap<string, number>;
  /** Pairs that have met, as `a b` in either order. */
  met: ReadonlySet<string>;
  /** Teams that have had a bye. */
  hadBye: ReadonlySet<string>;
}

const LEVELS: readonly { level: PairingLevel; rematch: boolean; gap: number }[] = [
  { level: 'strict', rematch: false, gap: 1 },
  { level: 'wide', rematch: false, gap: Number.POSITIVE_INFINITY },
  { level: 'rematch', rematch: true, gap: 1 },
  { level: 'any', rematch: true, gap: Number.POSITIVE_INFINITY },
];

/** The key of a pair of teams, the same in either order. */
export function pairKey(a: string, b: string): string {
  return a < b ? `${a} ${b}` : `${b} ${a}`;
}

/** Pairs a Swiss round (see the module's summary for the order of preference). */
export function pairSwiss(input: PairingInput): SwissPairing {
  const { ranked, wins, met, hadBye } = input;
  if (ranked.length < 2) throw new Error(`a Swiss round needs at least 2 teams to pair, not ${ranked.length}`);
  const byeOrder =
    ranked.length % 2 === 0 ? [null] : [...[...ranked].reverse().filter((t) => !hadBye.has(t)), ...[...ranked].reverse().filter((t) => hadBye.has(t))];
  for (const { level, rematch, gap } of LEVELS) {
    for (const bye of byeOrder) {
      const playing = ranked.filter((t) => t !== bye);
      const pairs = pairAll(playing, wins, (a, b) => (rematch || !met.has(pairKey(a, b))) && Math.abs(wins.get(a)! - wins.get(b)!) <= gap);
      if (pairs) return { pairs, bye, level };
    }
  }
  // The last level allows every pair, so it always pairs an even count.
  throw new Error('a Swiss round could not be paired');
}

/** An exact search for a pairing of every team in `teams` (ranked) where each pair is `allowed`; null when none exists. */
function pairAll(teams: readonly string[], wins: ReadonlyMap<string, number>, allowed: (a: string, b: string) => boolean): [string, string][] | null {
  const index = new Map(teams.map((t, i) => [t, i]));
  const failed = new Set<string>();
  const paired = new Array<boolean>(teams.length).fill(false);
  const pairs: [string, string][] = [];
  const key = (): string => paired.map((p) => (p ? '1' : '0')).join('');
  const search = (): boolean => {
    const first = paired.indexOf(false);
    if (first < 0) return true;
    const state = key();
    if (failed.has(state)) return false;
    const team = teams[first]!;
    paired[first] = true;
    for (const partner of preference(team, teams, paired, wins)) {
      if (!allowed(team, partner)) continue;
      const at = index.get(partner)!;
      paired[at] = true;
      pairs.push([team, partner]);
      if (search()) return true;
      pairs.pop();
      paired[at] = false;
    }
    paired[first] = false;
    failed.add(state);
    return false;
  };
  return search() ? pairs : null;
}

/** The unpaired teams `team` would rather play, best first: its score group from half the group down, then groups further down, then up. */
function preference(team: string, teams: readonly string[], paired: readonly boolean[], wins: ReadonlyMap<string, number>): string[] {
  const own = wins.get(team)!;
  const open = teams.filter((_t, i) => !paired[i]);
  const group = open.filter((t) => wins.get(t) === own);
  // `team` is the group's top open team (it is the highest-ranked open team of all), so the
  // mirror partner sits half the group further down.
  const mirror = Math.floor((group.length + 1) / 2) - 1;
  const inGroup = group
    .map((t, i) => ({ t, d: Math.abs(i - mirror), below: i >= mirror ? 0 : 1, i }))
    .sort((a, b) => a.d - b.d || a.below - b.below || a.i - b.i);
  const others = open
    .filter((t) => wins.get(t) !== own)
    .sort((a, b) => Math.abs(wins.get(a)! - own) - Math.abs(wins.get(b)! - own) || wins.get(b)! - wins.get(a)! || teams.indexOf(a) - teams.indexOf(b));
  return [...inGroup.map((x) => x.t), ...others];
}

/** The Swiss round after the last one, from the standings (best first); throws while a match of the last round is open or when every round is played. */
export function nextSwissRound(
  state: BracketState,
  standings: readonly StandingRow[],
  rounds: number,
  views: readonly MatchView[] = matchViews(state),
): DrawnRound & { level: PairingLevel } {
  const bracket = state.bracket;
  const last = Math.max(...bracket.matches.map((m) => m.round));
  if (last >= rounds) throw new Error(`all ${rounds} rounds are drawn; there is no round after round ${last}`);
  const open = views.filter((v) => !(v.status === 'played' || v.status === 'bye' || v.status === 'forfeit'));
  if (open.length > 0) {
    throw new Error(
      `round ${last} is not over: ${open.map((v) => `${v.id} (${v.status === 'under-review' ? 'under review' : v.status})`).join(', ')} still to be decided`,
    );
  }
  const met = new Set<string>();
  const hadBye = new Set<string>();
  for (const view of views) {
    const [a, b] = view.teams;
    if (view.status === 'bye' && view.winner) hadBye.add(view.winner);
    else if (a !== null && b !== null) met.add(pairKey(a, b));
  }
  const ranked = standings.map((r) => r.teamId).filter((t) => !state.withdrawn.includes(t));
  if (ranked.length < 2) throw new Error(`round ${last + 1}: ${ranked.length} team is still playing; there is nobody to pair`);
  const wins = new Map(standings.map((r) => [r.teamId, r.wins]));
  const pairing = pairSwiss({ ranked, wins, met, hadBye });
  const round = last + 1;
  const seedOf = (team: string) => bracket.teams.indexOf(team) + 1;
  const matches: RoundMatch[] = pairing.pairs.map(([a, b], i) => ({
    id: `R${round}-${i + 1}`,
    side: 'winners',
    slots: [
      { kind: 'team', team: a, seed: seedOf(a) },
      { kind: 'team', team: b, seed: seedOf(b) },
    ],
  }));
  if (pairing.bye !== null)
    matches.push({
      id: `R${round}-${matches.length + 1}`,
      side: 'winners',
      slots: [{ kind: 'team', team: pairing.bye, seed: seedOf(pairing.bye) }, { kind: 'bye' }],
    });
  return { round, draws: [], matches, level: pairing.level };
}

/**
 * Elimination brackets as data. A bracket is built once from a seeded team list: every match
 * names where each of its two slots comes from (a seeded team, the winner or loser of an
 * earlier match, or a bye) and where its winner and loser go. The state adds only the recorded
 * results and the withdrawn teams; who plays whom is always derived again from those, so a
 * corrected result flows through the bracket without anything being rewritten by hand.
 *
 * Formats:
 * - `single`: one loss and out; optional third-place match between the semi-final losers.
 * - `double`: out after two losses; losers of winners round k drop into the losers bracket;
 *   grand final between the two bracket champions, with an optional reset match.
 * - `first-round-losers` (pitt-boss): only first-round losers enter a losers bracket, which
 *   plays for 3rd place; any later loss is final. Placings: 1st the winners-bracket champion,
 *   2nd the loser of the winners-bracket final, 3rd the losers-bracket champion.
 *
 * A double-elimination bracket can also be drawn round by round (blp-2024: one bye by a
 * high-card draw in each odd group, never padded to a power of two): engine/bracket-rounds.ts
 * builds its first round and appends each later one as it is drawn, in these same terms.
 */
import { MAX_TEAMS, byeCount } from './seeding.ts';

export type BracketFormat = 'single' | 'double' | 'first-round-losers';
export type BracketSide = 'winners' | 'losers' | 'final' | 'third-place' | 'consolation' | 'pool';

/** Where a match slot's team comes from. */
export type SlotSource = { kind: 'team'; team: string; seed: number } | { kind: 'winner'; match: string } | { kind: 'loser'; match: string } | { kind: 'bye' };

/** A match slot that a winner or loser moves on to. */
export interface Route {
  match: string;
  slot: 0 | 1;
}

export interface BracketMatch {
  /** `W2-3` (winners round 2, match 3), `L4-1`, `F` (final), `GF`, `GF2` (reset), `P3` (third place). */
  id: string;
  side: BracketSide;
  /** Round within its side, from 1. */
  round: number;
  slots: [SlotSource, SlotSource];
  /** Where the winner goes; null when winning this match ends the team's run (a title or a place). */
  winnerTo: Route | null;
  /** Where the loser goes; null when the loser is out. */
  loserTo: Route | null;
  /** Played only when the team from `fromSlot` of `match` won it (the grand-final reset). */
  onlyIf?: { match: string; fromSlot: 0 | 1 };
}

export interface Bracket {
  /** How teams go out, or (round robin, Swiss: engine/structures.ts) that every team plays on. */
  format: BracketFormat | 'round-robin' | 'swiss' | 'pools';
  /** Team ids in seed order, seed 1 first. */
  teams: string[];
  /** Double elimination: whether a grand final lost by the unbeaten team is replayed. */
  reset: boolean;
  /** Single elimination: whether the semi-final losers play for 3rd place. */
  thirdPlace: boolean;
  /** In dependency order: every slot refers only to matches listed before it. */
  matches: BracketMatch[];
  /**
   * Drawn round by round (engine/bracket-rounds.ts): `matches` holds the rounds drawn so far, and
   * the bracket is finished only once its final (`F`) is drawn and decided.
   */
  byRound?: true;
  /**
   * Single elimination with a second chance: the first round's losers play their own single
   * elimination (`C<round>-<n>`, side `consolation`) for its own places (consolationPlacings).
   */
  consolation?: true;
  /**
   * Pools into a playoff (engine/pools.ts): each pool's teams in seed order, how many of each go
   * on, the playoff's elimination, and, once it is drawn, the playoff's seeds. The pools' matches
   * (side `pool`) come first; the playoff's, drawn later, follow in a bracket of their own.
   */
  pools?: { teams: string[][]; advance: number; playoff: 'single' | 'double'; seeds?: string[] };
}

export interface BracketOptions {
  format: BracketFormat;
  /** Double elimination only; blp-2024 plays none ("the winning team of the final round ... wins"). */
  reset?: boolean;
  /** Single elimination only. */
  thirdPlace?: boolean;
  /** Single elimination only: the first round's losers play a second-chance bracket of their own. */
  consolation?: boolean;
}

/** A recorded result: both teams are kept so that a result made stale by a correction is seen as such. */
export interface MatchResult {
  winner: string;
  loser: string;
}

export interface BracketState {
  bracket: Bracket;
  results: Record<string, MatchResult>;
  /** Disqualified or absent teams, in the order they were withdrawn. */
  withdrawn: string[];
}

/**
 * - `waiting`: a slot's team is not known yet.
 * - `ready`: both teams known, to be played.
 * - `played`: decided by a recorded result.
 * - `bye`: one slot is a bye; the team advances without playing.
 * - `forfeit`: a withdrawn team was due to play; the opponent advances without playing.
 * - `not-needed`: a reset that the grand final made unnecessary.
 * - `under-review`: a result is recorded but no longer fits the teams the bracket now puts
 *   there (an earlier result was corrected); it needs a new result.
 */
export type MatchStatus = 'waiting' | 'ready' | 'played' | 'bye' | 'forfeit' | 'not-needed' | 'under-review';

export interface MatchView {
  id: string;
  side: BracketSide;
  round: number;
  /** The teams in the two slots, null while unknown (and for a bye slot). */
  teams: [string | null, string | null];
  status: MatchStatus;
  winner: string | null;
  loser: string | null;
}

export interface Placing {
  place: number;
  /** More than one team when they share the place (went out at the same stage). */
  teams: string[];
}

/** Builds the bracket for a seeded team list (seed 1 first). */
export function buildBracket(seeded: readonly string[], options: BracketOptions): Bracket {
  const teams = [...seeded];
  checkTeams(teams);
  const reset = options.reset ?? false;
  const thirdPlace = options.thirdPlace ?? false;
  if (reset && options.format !== 'double') throw new Error(`bracket: a reset match exists only in double elimination, not '${options.format}'`);
  if (thirdPlace && options.format !== 'single') throw new Error(`bracket: a third-place match is an option of single elimination, not '${options.format}'`);
  if (options.consolation && options.format !== 'single')
    throw new Error(`bracket: a second-chance bracket is an option of single elimination, not '${options.format}'`);
  if (options.consolation && teams.length < 4)
    throw new Error(`bracket: a second-chance bracket needs at least 4 teams, so that two first-round losers can meet, not ${teams.length}`);
  if (options.format === 'first-round-losers' && teams.length < 3) {
    throw new Error(`bracket: first-round-losers needs at least 3 teams for a losers bracket, not ${teams.length}`);
  }

  const size = teams.length + byeCount(teams.length);
  const rounds = Math.log2(size);
  const matches: BracketMatch[] = [];
  const add = (id: string, side: BracketSide, round: number, a: SlotSource, b: SlotSource): BracketMatch => {
    const match: BracketMatch = { id, side, round, slots: [a, b], winnerTo: null, loserTo: null };
    matches.push(match);
    return match;
  };

  // Winners bracket: standard placement (1 v 16, 8 v 9, ...), so byes fall to the top seeds and
  // the best seeds meet as late as possible.
  const positions = seedPositions(size);
  const winnersFinal = options.format === 'double' ? null : 'F';
  const wid = (round: number, index: number): string => (round === rounds && winnersFinal ? winnersFinal : `W${round}-${index + 1}`);
  const seedSlot = (seed: number): SlotSource => (seed <= teams.length ? { kind: 'team', team: teams[seed - 1]!, seed } : { kind: 'bye' });
  for (let round = 1; round <= rounds; round++) {
    const count = size >> round;
    for (let i = 0; i < count; i++) {
      const side: BracketSide = round === rounds && winnersFinal ? 'final' : 'winners';
      if (round === 1) add(wid(1, i), side, 1, seedSlot(positions[2 * i]!), seedSlot(positions[2 * i + 1]!));
      else add(wid(round, i), side, round, { kind: 'winner', match: wid(round - 1, 2 * i) }, { kind: 'winner', match: wid(round - 1, 2 * i + 1) });
    }
  }

  if (options.format === 'single' && thirdPlace && rounds >= 2) {
    add('P3', 'third-place', rounds, { kind: 'loser', match: wid(rounds - 1, 0) }, { kind: 'loser', match: wid(rounds - 1, 1) });
  }

  if (options.format === 'first-round-losers' || options.consolation) {
    // A single-elimination bracket of the first-round losers, neighbours first: for 3rd place
    // (first-round-losers), or for places of its own (a second chance).
    const [prefix, side] = options.consolation ? (['C', 'consolation'] as const) : (['L', 'losers'] as const);
    for (let round = 1; round < rounds; round++) {
      const count = size >> (round + 1);
      for (let i = 0; i < count; i++) {
        const from = (k: number): SlotSource =>
          round === 1 ? { kind: 'loser', match: wid(1, k) } : { kind: 'winner', match: `${prefix}${round - 1}-${k + 1}` };
        add(`${prefix}${round}-${i + 1}`, side, round, from(2 * i), from(2 * i + 1));
      }
    }
  }

  if (options.format === 'double') {
    let champion: SlotSource = { kind: 'loser', match: wid(1, 0) };
    if (rounds >= 2) {
      for (let i = 0; i < size >> 2; i++) {
        add(`L1-${i + 1}`, 'losers', 1, { kind: 'loser', match: wid(1, 2 * i) }, { kind: 'loser', match: wid(1, 2 * i + 1) });
      }
      for (let drop = 1; drop < rounds; drop++) {
        // Losers of winners round drop+1 meet the survivors of the losers bracket. Their order is
        // reversed, then halves swapped, alternately, so a dropped team does not meet straight
        // away a team from its own part of the winners bracket (the usual scheme).
        const count = size >> (drop + 1);
        const round = 2 * drop;
        for (let i = 0; i < count; i++) {
          const from = drop % 2 === 1 ? count - 1 - i : (i + (count >> 1)) % count;
          add(`L${round}-${i + 1}`, 'losers', round, { kind: 'winner', match: `L${round - 1}-${i + 1}` }, { kind: 'loser', match: wid(drop + 1, from) });
        }
        if (drop < rounds - 1) {
          for (let i = 0; i < count / 2; i++) {
            add(
              `L${round + 1}-${i + 1}`,
              'losers',
              round + 1,
              { kind: 'winner', match: `L${round}-${2 * i + 1}` },
              { kind: 'winner', match: `L${round}-${2 * i + 2}` },
            );
          }
        }
      }
      champion = { kind: 'winner', match: `L${2 * (rounds - 1)}-1` };
    }
    add('GF', 'final', 1, { kind: 'winner', match: wid(rounds, 0) }, champion);
    if (reset) {
      const replay = add('GF2', 'final', 2, { kind: 'winner', match: 'GF' }, { kind: 'loser', match: 'GF' });
      replay.onlyIf = { match: 'GF', fromSlot: 1 };
    }
  }

  const kept = removeEmptyMatches(matches);
  linkRoutes(kept);
  return { format: options.format, teams, reset, thirdPlace, matches: kept, ...(options.consolation ? { consolation: true as const } : {}) };
}

/** The seeds in bracket order for a power-of-two size: [1, 8, 4, 5, 2, 7, 3, 6] for 8. */
export function seedPositions(size: number): number[] {
  let order = [1];
  while (order.length < size) {
    const next = order.length * 2 + 1;
    order = order.flatMap((seed) => [seed, next - seed]);
  }
  return order;
}

/**
 * Only first-round winners-bracket matches hold a bye (and never two: the top seeds get them).
 * A bye match has no loser, so a later match fed by one would be a bye too; such matches are
 * taken out and whatever fed them feeds the next match directly.
 */
function removeEmptyMatches(matches: BracketMatch[]): BracketMatch[] {
  const byeMatches = new Set(matches.filter((m) => m.slots.some((s) => s.kind === 'bye')).map((m) => m.id));
  const winnerOf = new Map<string, SlotSource>();
  const empty = new Set<string>();
  const kept: BracketMatch[] = [];
  for (const match of matches) {
    if (byeMatches.has(match.id)) {
      kept.push(match);
      continue;
    }
    match.slots = match.slots.map((slot): SlotSource => {
      if (slot.kind === 'winner') return winnerOf.get(slot.match) ?? slot;
      if (slot.kind === 'loser' && (byeMatches.has(slot.match) || empty.has(slot.match))) return { kind: 'bye' };
      return slot;
    }) as [SlotSource, SlotSource];
    const bye = match.slots.findIndex((s) => s.kind === 'bye');
    if (bye < 0) {
      kept.push(match);
      continue;
    }
    if (match.onlyIf) throw new Error(`bracket: ${match.id} lost a slot to a bye`);
    winnerOf.set(match.id, match.slots[1 - bye]!);
    empty.add(match.id);
  }
  return kept;
}

export function linkRoutes(matches: BracketMatch[]): void {
  const byId = new Map(matches.map((m) => [m.id, m]));
  for (const match of matches) {
    match.slots.forEach((slot, index) => {
      if (slot.kind !== 'winner' && slot.kind !== 'loser') return;
      const from = byId.get(slot.match);
      if (!from) throw new Error(`bracket: ${match.id} refers to missing ${slot.match}`);
      const key = slot.kind === 'winner' ? 'winnerTo' : 'loserTo';
      if (from[key]) throw new Error(`bracket: the ${slot.kind} of ${from.id} is routed twice`);
      from[key] = { match: match.id, slot: index as 0 | 1 };
    });
  }
}

export function checkTeams(teams: string[]): void {
  if (teams.length < 2 || teams.length > MAX_TEAMS) {
    throw new Error(`bracket: ${teams.length} teams; a bracket holds 2 to ${MAX_TEAMS}`);
  }
  const seen = new Set<string>();
  for (const team of teams) {
    if (typeof team !== 'string' || team.trim() === '') throw new Error('bracket: a team id is empty');
    if (seen.has(team)) throw new Error(`bracket: team '${team}' is seeded twice`);
    seen.add(team);
  }
}

/** A bracket before any result: first-round byes advance as soon as the views are read. */
export function startBracket(bracket: Bracket): BracketState {
  return { bracket, results: {}, withdrawn: [] };
}

/** Every match with its teams and status, derived from the results and withdrawals (bracket order). */
export function matchViews(state: BracketState): MatchView[] {
  // Every match is derived again whenever a result lands, so this stays a plain loop: views
  // are looked up by id as they are made, and filled in place.
  const views = new Map<string, MatchView>();
  const list: MatchView[] = [];
  const teamFrom = (slot: SlotSource): string | null => {
    switch (slot.kind) {
      case 'team':
        return slot.team;
      case 'winner':
        return views.get(slot.match)?.winner ?? null;
      case 'loser':
        return views.get(slot.match)?.loser ?? null;
      case 'bye':
        return null;
      default: {
        const _exhaustive: never = slot;
        return _exhaustive;
      }
    }
  };
  const seedOf = (team: string): number => state.bracket.teams.indexOf(team);

  for (const match of state.bracket.matches) {
    const teams: [string | null, string | null] = [teamFrom(match.slots[0]), teamFrom(match.slots[1])];
    const view: MatchView = { id: match.id, side: match.side, round: match.round, teams, status: 'waiting', winner: null, loser: null };
    views.set(match.id, view);
    list.push(view);
    const result = state.results[match.id];
    const [a, b] = teams;

    if (match.onlyIf) {
      const gate = views.get(match.onlyIf.match)!;
      if (gate.winner === null) {
        view.status = result ? 'under-review' : 'waiting';
        continue;
      }
      if (gate.winner !== gate.teams[match.onlyIf.fromSlot]) {
        view.status = 'not-needed';
        continue;
      }
    }
    const byeSlot = match.slots[0].kind === 'bye' ? 0 : match.slots[1].kind === 'bye' ? 1 : -1;
    if (byeSlot >= 0) {
      view.status = 'bye';
      view.winner = teams[1 - byeSlot]!;
      continue;
    }
    if (a === null || b === null) {
      view.status = result ? 'under-review' : 'waiting';
      continue;
    }
    if (result) {
      const fits = (result.winner === a && result.loser === b) || (result.winner === b && result.loser === a);
      if (fits) {
        view.status = 'played';
        view.winner = result.winner;
        view.loser = result.loser;
      } else view.status = 'under-review';
      continue;
    }
    const outA = state.withdrawn.includes(a);
    const outB = state.withdrawn.includes(b);
    if (outA || outB) {
      // Two withdrawn teams: the better seed is carried on only to forfeit again at its next match.
      const aLoses = outA && (!outB || seedOf(a) > seedOf(b));
      view.status = 'forfeit';
      view.winner = aLoses ? b : a;
      view.loser = aLoses ? a : b;
      continue;
    }
    view.status = 'ready';
  }
  return list;
}

/** The matches that can be played now: both teams known, no result yet. */
export function playableMatches(state: BracketState): MatchView[] {
  return matchViews(state).filter((view) => view.status === 'ready');
}

/** Whether every match is decided (played, bye, forfeit or not needed); `views` when the caller has them already. */
export function isFinished(state: BracketState, views: readonly MatchView[] = matchViews(state)): boolean {
  if (state.bracket.byRound && !views.some((view) => view.side === 'final')) return false;
  return views.every((view) => view.status === 'played' || view.status === 'bye' || view.status === 'forfeit' || view.status === 'not-needed');
}

/** Records the winner of a match that is ready (or under review with both teams known). */
export function recordResult(state: BracketState, matchId: string, winner: string): BracketState {
  const view = findView(state, matchId);
  if (view.status !== 'ready' && !(view.status === 'under-review' && view.teams[0] !== null && view.teams[1] !== null)) {
    throw new Error(`match ${matchId}: cannot record a result, the match is ${describeStatus(view)}`);
  }
  const loser = otherTeam(view, winner);
  return { ...state, results: { ...state.results, [matchId]: { winner, loser } } };
}

/**
 * Withdraws a team (disqualification or no-show): every match it is due to play from now on
 * is forfeited to its opponent, and the bracket moves on. Results already recorded stand.
 */
export function forfeitTeam(state: BracketState, team: string): BracketState {
  if (!state.bracket.teams.includes(team)) throw new Error(`forfeit: team '${team}' is not in this bracket`);
  if (state.withdrawn.includes(team)) throw new Error(`forfeit: team '${team}' is already withdrawn`);
  return { ...state, withdrawn: [...state.withdrawn, team] };
}

export interface Correction {
  state: BracketState;
  /** Matches after the corrected one that had been played and whose result no longer fits: to be reviewed. */
  affected: string[];
}

/**
 * Replaces the winner of a played match. Later results are kept, not erased; those that the
 * change touches are returned so that they can be put under review.
 */
export function correctResult(state: BracketState, matchId: string, newWinner: string): Correction {
  const before = findView(state, matchId);
  if (before.status !== 'played') throw new Error(`match ${matchId}: only a played match can be corrected; it is ${describeStatus(before)}`);
  if (before.winner === newWinner) throw new Error(`match ${matchId}: '${newWinner}' is already the recorded winner; nothing to correct`);
  const loser = otherTeam(before, newWinner);
  const next: BracketState = { ...state, results: { ...state.results, [matchId]: { winner: newWinner, loser } } };
  const was = new Map(matchViews(state).map((v) => [v.id, v.status]));
  const affected = matchViews(next)
    .filter((v) => v.id !== matchId && was.get(v.id) === 'played' && v.status !== 'played')
    .map((v) => v.id);
  return { state: next, affected };
}

/** Final placings, best first; the bracket must be finished. */
export function placings(state: BracketState): Placing[] {
  const views = matchViews(state);
  const open = views.filter((v) => !(v.status === 'played' || v.status === 'bye' || v.status === 'forfeit' || v.status === 'not-needed'));
  if (state.bracket.byRound && !views.some((v) => v.side === 'final')) throw new Error('placings: the bracket is not finished; its final is not drawn yet');
  if (open.length > 0) {
    throw new Error(`placings: the bracket is not finished; still open: ${open.map((v) => `${v.id} (${v.status})`).join(', ')}`);
  }
  const byId = new Map(views.map((v) => [v.id, v]));
  const matchOf = new Map(state.bracket.matches.map((m) => [m.id, m]));
  const result: Placing[] = [];
  const place = (teams: string[]): void => {
    if (teams.length === 0) return;
    const taken = result.reduce((n, p) => n + p.teams.length, 0);
    result.push({ place: taken + 1, teams });
  };
  // Teams out at the same stage share a place; a later stage ranks higher.
  const outBy = (side: BracketSide): void => {
    const stages = new Map<number, string[]>();
    for (const v of views) {
      const m = matchOf.get(v.id)!;
      // A first-round loser who plays on in a second-chance bracket is out of the main one.
      const playsOn = m.loserTo !== null && matchOf.get(m.loserTo.match)?.side !== 'consolation';
      if (m.side !== side || playsOn || v.loser === null) continue;
      stages.set(m.round, [...(stages.get(m.round) ?? []), v.loser]);
    }
    for (const round of [...stages.keys()].sort((x, y) => y - x)) place(stages.get(round)!);
  };

  switch (state.bracket.format) {
    case 'single': {
      const final = byId.get('F')!;
      place([final.winner!]);
      place([final.loser!]);
      const third = byId.get('P3');
      if (third) {
        place([third.winner!]);
        place([third.loser!]);
      }
      outBy('winners');
      return result;
    }
    case 'first-round-losers': {
      const final = byId.get('F')!;
      place([final.winner!]);
      place([final.loser!]);
      // The losers-bracket champion: the one first-round loser who never lost again.
      const entrants = views.filter((v) => v.side === 'winners' && v.round === 1 && v.loser !== null).map((v) => v.loser!);
      const beaten = new Set(views.filter((v) => v.side === 'losers').map((v) => v.loser));
      place(entrants.filter((team) => !beaten.has(team)));
      return result;
    }
    case 'double': {
      // A bracket drawn round by round has one final, `F`, and no reset.
      const grand = (byId.get('GF') ?? byId.get('F'))!;
      const replay = byId.get('GF2');
      const decider = replay && replay.status !== 'not-needed' ? replay : grand;
      place([decider.winner!]);
      place([decider.loser!]);
      outBy('losers');
      return result;
    }
    case 'round-robin':
    case 'swiss':
    case 'pools':
      throw new Error(
        `placings: a ${{ swiss: 'Swiss event', 'round-robin': 'round robin', pools: 'pools event' }[state.bracket.format]} is placed by its standings (engine/format-play.ts), not by its bracket`,
      );
    default: {
      const _exhaustive: never = state.bracket.format;
      return _exhaustive;
    }
  }
}

/**
 * The second-chance bracket's own places, best first (empty without one): its champion is the one
 * first-round loser who never lost again, then the others by the round they lost in, latest first.
 * The bracket must be finished.
 */
export function consolationPlacings(state: BracketState, views: readonly MatchView[] = matchViews(state)): Placing[] {
  if (!state.bracket.consolation) return [];
  const entrants = views.filter((v) => v.side === 'winners' && v.round === 1 && v.loser !== null).map((v) => v.loser!);
  const lost = new Map<string, number>();
  for (const v of views) if (v.side === 'consolation' && v.loser !== null) lost.set(v.loser, v.round);
  const result: Placing[] = [];
  const place = (teams: string[]) => {
    if (teams.length > 0) result.push({ place: result.reduce((n, p) => n + p.teams.length, 0) + 1, teams });
  };
  place(entrants.filter((team) => !lost.has(team)));
  for (const round of [...new Set(lost.values())].sort((a, b) => b - a)) place(entrants.filter((team) => lost.get(team) === round));
  return result;
}

function findView(state: BracketState, matchId: string): MatchView {
  const view = matchViews(state).find((v) => v.id === matchId);
  if (!view) throw new Error(`match '${matchId}' is not in this bracket`);
  return view;
}

function otherTeam(view: MatchView, winner: string): string {
  const [a, b] = view.teams;
  if (winner !== a && winner !== b) {
    throw new Error(`match ${view.id}: '${winner}' is not playing in it (${a ?? 'to be decided'} v ${b ?? 'to be decided'})`);
  }
  return (winner === a ? b : a)!;
}

function describeStatus(view: MatchView): string {
  switch (view.status) {
    case 'waiting':
      return 'still waiting for its teams';
    case 'ready':
      return 'ready but not played yet';
    case 'played':
      return `already played (won by '${view.winner}')`;
    case 'bye':
      return `a bye for '${view.winner}'`;
    case 'forfeit':
      return `forfeited by withdrawn team '${view.loser}'`;
    case 'not-needed':
      return 'not needed (the grand final was won by the unbeaten team)';
    case 'under-review':
      return 'under review and still waiting for its teams';
    default: {
      const _exhaustive: never = view.status;
      return _exhaustive;
    }
  }
}

/** Where each match's two slots come from, by match id (the engine's bracket, when the caller has it). */
export type SlotSources = Readonly<Record<string, readonly [SlotSource, SlotSource]>>;

/** The slot sources of a folded tournament's bracket. */
export function bracketSources(state: { bracket: { bracket: { matches: readonly { id: string; slots: [SlotSource, SlotSource] }[] } } | null }): SlotSources {
  const sources: Record<string, readonly [SlotSource, SlotSource]> = {};
  for (const match of state.bracket?.bracket.matches ?? []) sources[match.id] = match.slots;
  return sources;
}

/**
 * How each structure (engine/structures.ts lists them for the create form) is played: the one
 * interface each answers, from the entrants and the recorded draws: the first round (or the whole
 * bracket), the next round once one ends, what a result advances, the standings with their
 * tiebreaks, the placings, and when the event is over. The projection, the commands, the pages
 * and the API ask these questions of the event's format options, so a new structure is one module
 * here, one entry in that list, and its pages' words.
 *
 * Every structure but the progressive evening is played as matches between two teams, in
 * engine/bracket.ts terms: a match's slots name a seeded team, the winner or loser of an earlier
 * match, or a bye, so results, forfeits, corrections and paper imports work the same in all of
 * them. The progressive evening seats players at tables (engine/progressive.ts) and answers
 * only what it shares with the others.
 */
import {
  type Bracket,
  type BracketMatch,
  type BracketState,
  type MatchView,
  type Placing,
  buildBracket,
  isFinished as bracketFinished,
  matchViews,
  placings as bracketPlacings,
} from './bracket.ts';
import {
  type DrawnRound,
  type GroupDrawInput,
  type RoundGroup,
  appendRound,
  decideByes,
  firstRoundBracket,
  nextRoundPlan,
  pairRound,
} from './bracket-rounds.ts';
import type { Elimination, FormatOptions } from './formats.ts';
import { type DecidedMatch, type StandingRow, TIEBREAK_WORDS, type Tiebreak, leagueTable } from './league-table.ts';
import { ROUND_ROBIN_TIEBREAKS, roundRobinBracket } from './round-robin.ts';
import { appendPlayoff, playoffRound, poolLetter, poolOfMatch, poolRows, poolsBracket, poolsPlacings } from './pools.ts';
import { SWISS_TIEBREAKS, nextSwissRound, swissFirstBracket } from './swiss.ts';

/** How a structure's rounds come: all at the start, drawn one by one as each ends, or seated at tables. */
export type RoundsKind = 'whole' | 'drawn' | 'seated';

export interface FormatPlay {
  /** The structure it plays, as format options record it. */
  id: Elimination;
  /** Who plays its rounds: teams of two, or players alone (seated at tables). Who registers is `registersAlone`'s answer. */
  entrants: 'teams' | 'players';
  rounds: RoundsKind;
  /** The tiebreaks of its standings, in order; empty when placings come from the bracket alone. */
  tiebreaks: readonly Tiebreak[];
  /** Whether a bye counts as a match won in its standings. */
  byeIsWin: boolean;
}

/** Answers for a structure played as matches between two teams. */
export interface MatchPlay extends FormatPlay {
  entrants: 'teams';
  /** The first round (or the whole bracket) from the seeds; `bye` the team a recorded draw gave round 1's bye. */
  start(seeds: readonly string[], format: FormatOptions, bye: string | null): Bracket;
  /**
   * The round after the last one, from the standings and the draw's recorded seed (and, for a
   * bracket's byes, the cards drawn at the table); throws, saying why, when there is none to draw now.
   */
  nextRound(state: BracketState, standings: readonly StandingRow[], format: FormatOptions, draw: RoundDraw, views?: readonly MatchView[]): DrawnRound;
  /** The bracket with a drawn round added. */
  appendRound(bracket: Bracket, round: DrawnRound): Bracket;
  /** Whether the event is over. */
  finished(state: BracketState, format: FormatOptions, views: readonly MatchView[]): boolean;
  /** Final placings, best first; the event must be finished. */
  placings(state: BracketState, standings: readonly StandingRow[]): Placing[];
  /** Whether losing `match` puts its loser out, given the loser's losses so far. */
  lossPutsOut(match: BracketMatch, bracket: Bracket, losses: number): boolean;
  /** Teams out without losing a match that puts them out (pools: those not going on to the playoff once it is drawn). */
  leftOut?(bracket: Bracket): string[];
}

/** What a director brings to a round's draw: the seed a system draw is made from, and any cards drawn at the table. */
export interface RoundDraw {
  seed: string;
  groups?: Partial<Record<RoundGroup, GroupDrawInput>>;
}

export type AnyPlay = MatchPlay | (FormatPlay & { entrants: 'players' });

const notDrawnByRound = (): never => {
  throw new Error('this bracket was drawn whole at the start; it has no rounds to draw');
};

function elimination(format: 'single' | 'double' | 'first-round-losers'): MatchPlay {
  return {
    id: format,
    entrants: 'teams',
    rounds: 'whole',
    tiebreaks: [],
    byeIsWin: false,
    start: (seeds, options, bye) =>
      options.roundByRound
        ? firstRoundBracket(seeds, bye)
        : buildBracket(seeds, { format, reset: options.reset, consolation: options.consolation === 'first-round' }),
    nextRound: (state, _standings, options, draw, views) => {
      if (!options.roundByRound) return notDrawnByRound();
      const plan = nextRoundPlan(state, views);
      return pairRound(plan, decideByes(plan, draw.groups ?? {}, draw.seed));
    },
    appendRound,
    finished: (state, _options, views) => bracketFinished(state, views),
    placings: (state) => bracketPlacings(state),
    lossPutsOut: (match, bracket, losses) => {
      // In a bracket drawn round by round a winners'-bracket loser's next match is not drawn yet.
      const lastLoss = match.loserTo === null && !(bracket.byRound === true && match.side === 'winners');
      return lastLoss || (format === 'double' && losses >= 2);
    },
  };
}

/** Placings from a league table: teams level on every tiebreak share the place. */
function tablePlacings(standings: readonly StandingRow[]): Placing[] {
  const placings: Placing[] = [];
  for (const row of standings) {
    const last = placings.at(-1);
    if (last && last.place === row.place) last.teams.push(row.teamId);
    else placings.push({ place: row.place, teams: [row.teamId] });
  }
  return placings;
}

const decidedAll = (views: readonly MatchView[]): boolean =>
  views.every((v) => v.status === 'played' || v.status === 'bye' || v.status === 'forfeit' || v.status === 'not-needed');

const ROUND_ROBIN: MatchPlay = {
  id: 'round-robin',
  entrants: 'teams',
  rounds: 'whole',
  tiebreaks: ROUND_ROBIN_TIEBREAKS,
  byeIsWin: false,
  start: (seeds, options) => roundRobinBracket(seeds, options.rounds === 2 ? 2 : 1),
  nextRound: notDrawnByRound,
  appendRound: () => notDrawnByRound(),
  finished: (_state, _options, views) => decidedAll(views),
  placings: (_state, standings) => tablePlacings(standings),
  lossPutsOut: () => false,
};

const SWISS: MatchPlay = {
  id: 'swiss',
  entrants: 'teams',
  rounds: 'drawn',
  tiebreaks: SWISS_TIEBREAKS,
  byeIsWin: true,
  start: (seeds, options) => {
    const rounds = options.rounds ?? 1;
    if (rounds > seeds.length - 1) {
      throw new Error(
        `a Swiss event of ${seeds.length} teams plays at most ${seeds.length - 1} rounds, so that no two teams need meet twice; it is set to ${rounds}`,
      );
    }
    return swissFirstBracket(seeds);
  },
  nextRound: (state, standings, options, _draw, views) => nextSwissRound(state, standings, options.rounds ?? 1, views),
  appendRound,
  finished: (state, options, views) => decidedAll(views) && Math.max(...state.bracket.matches.map((m) => m.round)) >= (options.rounds ?? 1),
  placings: (_state, standings) => tablePlacings(standings),
  lossPutsOut: () => false,
};

const matchIs = (status: MatchView['status']) => status === 'played' || status === 'bye' || status === 'forfeit' || status === 'not-needed';

const POOLS: MatchPlay = {
  id: 'pools',
  entrants: 'teams',
  // Pool play is drawn whole at the start; the playoff is drawn once it is over.
  rounds: 'drawn',
  tiebreaks: ROUND_ROBIN_TIEBREAKS,
  byeIsWin: false,
  start: (seeds, options) => poolsBracket(seeds, options.pools ?? 2, options.advance ?? 1, options.playoff ?? 'single'),
  nextRound: (state, standings, _options, _draw, views) => {
    const pools = state.bracket.pools;
    if (!pools) throw new Error('this event has no pools');
    if (pools.seeds) throw new Error('the playoff is drawn; there is no round after it');
    const open = (views ?? matchViews(state)).filter((v) => v.side === 'pool' && !matchIs(v.status));
    if (open.length > 0) {
      const named = open.slice(0, 3).map((v) => `pool ${poolOfMatch(v.id) ?? '?'}, round ${v.round}`);
      throw new Error(
        `pool play is not over: ${open.length} match${open.length === 1 ? '' : 'es'} still to be decided (${named.join('; ')}${open.length > 3 ? '; …' : ''})`,
      );
    }
    const ranked = poolRows(pools.teams, standings).map((rows) => rows.map((r) => r.teamId).filter((t) => !state.withdrawn.includes(t)));
    return playoffRound(state.bracket, ranked);
  },
  appendRound: appendPlayoff,
  finished: (state, _options, views) => state.bracket.pools?.seeds !== undefined && views.every((v) => matchIs(v.status)),
  placings: (state, standings) => poolsPlacings(state, standings),
  // In pool play nobody is out; in the playoff, a loss with no way back (single: any; double: the second).
  lossPutsOut: (match) => match.side !== 'pool' && match.loserTo === null,
  leftOut: (bracket) => (bracket.pools?.seeds ? bracket.teams.filter((t) => !bracket.pools!.seeds!.includes(t)) : []),
};

const PROGRESSIVE: FormatPlay & { entrants: 'players' } = {
  id: 'progressive',
  entrants: 'players',
  rounds: 'seated',
  tiebreaks: [],
  byeIsWin: false,
};

/** How each structure is played, by what its format options record. */
export const PLAYS: Readonly<Record<Elimination, AnyPlay>> = {
  single: elimination('single'),
  double: elimination('double'),
  'first-round-losers': elimination('first-round-losers'),
  progressive: PROGRESSIVE,
  'round-robin': ROUND_ROBIN,
  swiss: SWISS,
  pools: POOLS,
};

/** How an event's format options are played. */
export function playOf(format: Pick<FormatOptions, 'elimination'>): AnyPlay {
  const play = PLAYS[format.elimination];
  if (!play) throw new Error(`no structure is recorded as '${String(format.elimination)}'`);
  return play;
}

/** How an event's format options are played, when as matches between teams; null for progressive tables. */
export function matchPlayOf(format: Pick<FormatOptions, 'elimination'>): MatchPlay | null {
  const play = playOf(format);
  return play.entrants === 'teams' ? play : null;
}

/**
 * Whether an event's entrants register as players alone: players seated at tables, or a team
 * structure whose partners are drawn once check-in closes (engine/partner-draw.ts).
 */
export function registersAlone(format: Pick<FormatOptions, 'elimination' | 'partners'>): boolean {
  return playOf(format).entrants === 'players' || format.partners === 'drawn';
}

/** Whether an event seats its players at tables round by round (a progressive evening) rather than playing matches between teams. */
export function seatedAtTables(format: Pick<FormatOptions, 'elimination'>): boolean {
  return playOf(format).rounds === 'seated';
}

/** Whether a structure's placings come from a league table (standings with tiebreaks) rather than from its bracket. */
export function hasTable(structure: FormatPlay): boolean {
  return structure.tiebreaks.length > 0;
}

/**
 * A structure's standings from its decided matches and byes; empty for a knockout, whose
 * standings are its bracket. With pools, each pool is ranked on its own (a row's place is its
 * place in its pool), pools in order.
 */
export function standingsOf(structure: FormatPlay, bracket: Bracket, matches: readonly DecidedMatch[], byes: readonly string[]): StandingRow[] {
  if (!hasTable(structure)) return [];
  const options = { tiebreaks: structure.tiebreaks, byeIsWin: structure.byeIsWin };
  if (bracket.pools) return bracket.pools.teams.flatMap((pool) => leagueTable(pool, matches, byes, options));
  return leagueTable(bracket.teams, matches, byes, options);
}

/** Whether a match counts in the standings' table: every match of a league, only pool play's with pools. */
export function countsInTable(bracket: Bracket, match: Pick<MatchView, 'side'>): boolean {
  return !bracket.pools || match.side === 'pool';
}

/** The name a pool is shown by: "Pool A". */
export function poolName(index: number): string {
  return `Pool ${poolLetter(index)}`;
}

/** How a structure placed by standings is played and ranked, in the rules sheet's words. */
export function tableSentence(format: FormatOptions): string {
  const structure = playOf(format);
  const teams = 'teams of two partners, seated across from each other';
  const ranked = `Standings: ${structure.tiebreaks.map((t) => TIEBREAK_WORDS[t]).join(', then ')}; teams level on all of them share the place.`;
  if (structure.id === 'pools') {
    const advance = format.advance ?? 1;
    const playoff = format.playoff === 'double' ? 'double elimination (out after two losses)' : 'single elimination (out after one loss)';
    return `Pools into a playoff: ${teams}; the teams are spread over ${format.pools ?? 2} pools by seed, in a snake, and every team plays every other team of its pool once. The top ${advance === 1 ? 'team of each pool goes' : `${advance} teams of each pool go`} on to a ${playoff} playoff, pool winners seeded first, so that teams of one pool meet as late as can be; teams level on every tiebreak go on in seed order. ${ranked.replace('Standings', 'Pool standings')} The playoff's places come first; the other teams are placed by their place in their pool, the teams placed alike in their pools sharing a place.`;
  }
  if (structure.id === 'swiss') {
    return `Swiss over ${format.rounds ?? 1} round${format.rounds === 1 ? '' : 's'}: ${teams}; each round pairs teams with the same number of matches won who have not met, nobody is out, and with an odd number the bye goes to the lowest-ranked team that has not had one and counts as a match won. ${ranked}`;
  }
  return `Round robin: ${teams}; every team plays every other team ${format.rounds === 2 ? 'twice' : 'once'}, nobody is out, and with an odd number one team sits out each round in turn. ${ranked}`;
}

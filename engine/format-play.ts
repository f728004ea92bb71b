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
import { SWISS_TIEBREAKS, nextSwissRound, swissFirstBracket } from './swiss.ts';

/** How a structure's rounds come: all at the start, drawn one by one as each ends, or seated at tables. */
export type RoundsKind = 'whole' | 'drawn' | 'seated';

export interface FormatPlay {
  /** The structure it plays, as format options record it. */
  id: Elimination;
  /** Who registers: teams of two, or players alone (seated at tables). */
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

/** Whether a structure's placings come from a league table (standings with tiebreaks) rather than from its bracket. */
export function hasTable(structure: FormatPlay): boolean {
  return structure.tiebreaks.length > 0;
}

/** A structure's standings from its decided matches and byes; empty for a knockout, whose standings are its bracket. */
export function standingsOf(structure: FormatPlay, teams: readonly string[], matches: readonly DecidedMatch[], byes: readonly string[]): StandingRow[] {
  if (!hasTable(structure)) return [];
  return leagueTable(teams, matches, byes, { tiebreaks: structure.tiebreaks, byeIsWin: structure.byeIsWin });
}

/** How a structure placed by standings is played and ranked, in the rules sheet's words. */
export function tableSentence(format: FormatOptions): string {
  const structure = playOf(format);
  const teams = 'teams of two partners, seated across from each other';
  const ranked = `Standings: ${structure.tiebreaks.map((t) => TIEBREAK_WORDS[t]).join(', then ')}; teams level on all of them share the place.`;
  if (structure.id === 'swiss') {
    return `Swiss over ${format.rounds ?? 1} round${format.rounds === 1 ? '' : 's'}: ${teams}; each round pairs teams with the same number of matches won who have not met, nobody is out, and with an odd number the bye goes to the lowest-ranked team that has not had one and counts as a match won. ${ranked}`;
  }
  return `Round robin: ${teams}; every team plays every other team ${format.rounds === 2 ? 'twice' : 'once'}, nobody is out, and with an odd number one team sits out each round in turn. ${ranked}`;
}

/**
 * Tournament formats as data: the five rulebooks' events and a custom one. A format says how
 * teams are eliminated, how many games win a match, the clock, and which rules preset each
 * round plays (rules.md, "Tournament formats").
 */
import type { BracketSide } from './bracket.ts';
import { type Seat, SEATS, cardName, naturalRank, parseCard } from './cards.ts';
import { createRandom, shuffleInPlace } from './random.ts';
import { SWISS_MAX_ROUNDS } from './swiss.ts';

export type FormatId = 'blp-2024' | 'unc-intramural' | 'pitt-boss' | 'asher-theatre' | 'tournament-spades' | 'custom';

/** How an event's teams go out, or that they play on (round robin, Swiss): the structure its options record (engine/format-play.ts plays each). */
export type Elimination = 'single' | 'double' | 'first-round-losers' | 'progressive' | 'round-robin' | 'swiss' | 'pools';

/** Every structure format options may record. */
export const ELIMINATIONS: readonly Elimination[] = ['single', 'double', 'first-round-losers', 'progressive', 'round-robin', 'swiss', 'pools'];
export type RulesChoice = string | ({ preset: string } & Record<string, unknown>);

export interface FormatOptions {
  /**
   * The structure: how teams go out, or that they play on; `progressive` is tournament-spades'
   * advancing-winners tables (engine/structures.ts answers for each).
   */
  elimination: Elimination;
  /** Double elimination: whether a grand final lost by the unbeaten team is replayed. */
  reset: boolean;
  /** Games a team must win to take a match (1 = one game, 2 = best of 3). */
  gamesToWin: number;
  /** Minutes on a match clock; null for none. */
  clockMinutes: number | null;
  /** Minutes on the final's clock when it differs. */
  finalClockMinutes: number | null;
  /**
   * What a clock times: the whole `match` (pitt-boss "45-minute time limit per round", where
   * time called decides the match) or each `game` (asher "Each challenge game is played to 350
   * points or the 1-hour time limit": every game starts its own clock and time ends that game only).
   */
  clockPer: 'match' | 'game';
  /** Rules for every match unless a later field says otherwise. */
  rules: RulesChoice;
  /** Rules for the first round of the winners bracket. */
  firstRoundRules: RulesChoice | null;
  /** Rules for the final (and its reset). */
  finalRules: RulesChoice | null;
  /** An odd team count gives the bye by a recorded high-card draw (blp-2024) instead of to the top seed. */
  byeByDraw: boolean;
  /**
   * Double elimination drawn round by round (engine/bracket-rounds.ts), one bye for each odd
   * group of a round, never padded to a power of two (blp-2024). Absent in events created
   * before it existed, which keep the bracket they were drawn with.
   */
  roundByRound?: boolean;
  /** Who picks the first dealer of a match. */
  firstDealer: 'high-card' | 'coin-toss' | 'random';
  /** Entry fees: early, late, and the deadline between them (ISO date); null when free. */
  fees: { early: number; late: number; deadline: string } | null;
  /** Prizes by place, 1st first. */
  prizes: string[];
  /** Progressive and Swiss events: the number of rounds; a round robin: how many times through (1 or 2). */
  rounds: number | null;
  /** Single elimination: `first-round` when the first round's losers play a second-chance bracket of their own. */
  consolation?: 'first-round';
  /** Prizes of the second-chance bracket by its own places, 1st first. */
  secondChancePrizes?: string[];
  /** Teams the event is made for (informational: a director may register fewer or more). */
  teams: number | null;
  /** Pools into a playoff (engine/pools.ts): how many pools the teams are spread over. */
  pools?: number;
  /** Pools into a playoff: how many of each pool's top teams go on to the playoff. */
  advance?: number;
  /** Pools into a playoff: whether the playoff is single or double elimination. */
  playoff?: 'single' | 'double';
  /** A team structure whose players register alone and whose partners are drawn once check-in closes (engine/partner-draw.ts). */
  partners?: 'drawn';
  /** Drawn partners with an odd count: the player left over plays on two teams, or sits out (the default); the draw may say otherwise. */
  oddPlayer?: 'twice' | 'sit-out';
}

const BASE: FormatOptions = {
  elimination: 'single',
  reset: false,
  gamesToWin: 1,
  clockMinutes: null,
  finalClockMinutes: null,
  clockPer: 'match',
  rules: 'blp-r1',
  firstRoundRules: null,
  finalRules: null,
  byeByDraw: false,
  firstDealer: 'high-card',
  fees: null,
  prizes: [],
  rounds: null,
  teams: null,
};

export const FORMATS: Readonly<Record<Exclude<FormatId, 'custom'>, FormatOptions>> = {
  'blp-2024': {
    ...BASE,
    elimination: 'double',
    reset: false,
    rules: 'blp-r2',
    firstRoundRules: 'blp-r1',
    finalRules: 'blp-final',
    byeByDraw: true,
    roundByRound: true,
    fees: { early: 30, late: 40, deadline: '2024-09-12' },
  },
  'unc-intramural': {
    ...BASE,
    elimination: 'single',
    clockMinutes: 30,
    finalClockMinutes: 45,
    rules: 'unc-300',
    finalRules: 'unc-500',
  },
  'pitt-boss': {
    ...BASE,
    elimination: 'first-round-losers',
    gamesToWin: 2,
    clockMinutes: 45,
    rules: 'pitt-boss',
    prizes: ['$300 + trophies', '$100', '$50'],
    teams: 16,
  },
  'asher-theatre': {
    ...BASE,
    elimination: 'single',
    gamesToWin: 2,
    clockMinutes: 60,
    clockPer: 'game',
    rules: 'asher',
    firstDealer: 'coin-toss',
    teams: 64,
  },
  'tournament-spades': {
    ...BASE,
    elimination: 'progressive',
    rules: 'tournament-spades',
    firstDealer: 'random',
    rounds: 4,
  },
};

/** The format's options, with a custom event's overrides on top of the format it starts from. */
export function formatOptions(format: FormatId, overrides: Partial<FormatOptions> = {}): FormatOptions {
  const base = format === 'custom' ? BASE : FORMATS[format];
  return { ...base, ...overrides };
}

/** The rules a bracket match plays under: the first round's, the final's, or the default. */
export function rulesForMatch(format: FormatOptions, match: { side: BracketSide; round: number }): RulesChoice {
  if (match.side === 'final' && format.finalRules !== null) return format.finalRules;
  if (match.side === 'winners' && match.round === 1 && format.firstRoundRules !== null) return format.firstRoundRules;
  return format.rules;
}

/** Minutes on a bracket match's clock. */
export function clockForMatch(format: FormatOptions, match: { side: BracketSide }): number | null {
  if (match.side === 'final' && format.finalClockMinutes !== null) return format.finalClockMinutes;
  return format.clockMinutes;
}

/** The rules every table of a progressive round plays (tournament-spades has one preset throughout). */
export function rulesForRound(format: FormatOptions): RulesChoice {
  return format.rules;
}

/**
 * A custom event's options checked for sense: returns the sentence saying what is wrong, or null.
 * The rules presets themselves are checked by engine/rules.ts.
 */
/** How an elimination is said in a refusal. */
const ELIMINATION_WORDS: Record<Elimination, string> = {
  single: 'single elimination',
  double: 'double elimination',
  'first-round-losers': 'double elimination for the first round’s losers',
  progressive: 'progressive tables',
  'round-robin': 'a round robin',
  swiss: 'Swiss',
  pools: 'pools into a playoff',
};

export function formatProblem(options: FormatOptions): string | null {
  if (!ELIMINATIONS.includes(options.elimination)) {
    return `elimination must be one of ${ELIMINATIONS.join(', ')}, not '${String(options.elimination)}'`;
  }
  if (options.consolation !== undefined && options.consolation !== 'first-round')
    return `a second-chance bracket is for the 'first-round' losers, not '${String(options.consolation)}'`;
  if (options.consolation !== undefined && options.elimination !== 'single')
    return 'a second-chance bracket for the first round’s losers is an option of single elimination';
  if (options.partners !== undefined && options.partners !== 'drawn')
    return `partners are 'drawn' or registered with their teams, not '${String(options.partners)}'`;
  if (options.partners === 'drawn' && options.elimination === 'progressive')
    return 'progressive tables change partners every round, so they have no partners to draw';
  if (options.oddPlayer !== undefined && options.oddPlayer !== 'twice' && options.oddPlayer !== 'sit-out')
    return `with an odd number of players the one left over plays 'twice' or does 'sit-out', not '${String(options.oddPlayer)}'`;
  if (options.oddPlayer !== undefined && options.partners !== 'drawn') return 'what an odd player does is a choice of drawn partners only';
  if (options.reset && options.elimination !== 'double')
    return `a reset final exists only in double elimination, not in ${ELIMINATION_WORDS[options.elimination]}`;
  if (options.roundByRound && (options.elimination !== 'double' || options.reset)) {
    return `a bracket drawn round by round is a double elimination with no reset final, not ${ELIMINATION_WORDS[options.elimination]}${options.reset ? ' with a reset' : ''}`;
  }
  if (!Number.isInteger(options.gamesToWin) || options.gamesToWin < 1 || options.gamesToWin > 4) {
    return `games to win a match must be 1 to 4 (1 = one game, 2 = best of 3), not ${String(options.gamesToWin)}`;
  }
  for (const [name, minutes] of [
    ['clock', options.clockMinutes],
    ['final clock', options.finalClockMinutes],
  ] as const) {
    if (minutes !== null && (!Number.isInteger(minutes) || minutes < 1 || minutes > 600)) {
      return `the ${name} must be whole minutes from 1 to 600, or none, not ${String(minutes)}`;
    }
  }
  if (options.clockPer !== 'match' && options.clockPer !== 'game') return `a clock runs per 'match' or per 'game', not '${String(options.clockPer)}'`;
  if (options.fees !== null) {
    const { early, late, deadline } = options.fees;
    if (!(early >= 0) || !(late >= 0)) return `fees must be amounts of 0 or more, not early ${String(early)} / late ${String(late)}`;
    if (typeof deadline !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(deadline))
      return `the fee deadline must be a date such as 2024-09-12, not '${String(deadline)}'`;
  }
  if (!Array.isArray(options.prizes) || options.prizes.some((p) => typeof p !== 'string' || p.trim() === ''))
    return 'prizes must be a list of non-empty descriptions, 1st first';
  if (options.secondChancePrizes !== undefined) {
    if (!Array.isArray(options.secondChancePrizes) || options.secondChancePrizes.some((p) => typeof p !== 'string' || p.trim() === ''))
      return 'second-chance prizes must be a list of non-empty descriptions, 1st first';
    if (options.secondChancePrizes.length > 0 && options.consolation !== 'first-round')
      return 'second-chance prizes need a second-chance bracket for the first round’s losers';
  }
  if (options.elimination === 'progressive') {
    if (!Number.isInteger(options.rounds) || options.rounds! < 1)
      return `a progressive event needs a number of rounds of 1 or more, not ${String(options.rounds)}`;
    if (options.gamesToWin !== 1) return 'a progressive round is one game of 4 hands at each table, so games to win must be 1';
  } else if (options.elimination === 'round-robin') {
    if (options.rounds !== 1 && options.rounds !== 2)
      return `a round robin is played once or twice through, so rounds must be 1 or 2, not ${String(options.rounds ?? 'none')}`;
  } else if (options.elimination === 'swiss') {
    if (!Number.isInteger(options.rounds) || options.rounds! < 1 || options.rounds! > SWISS_MAX_ROUNDS) {
      return `a Swiss event needs its number of rounds, 1 to ${SWISS_MAX_ROUNDS}, not ${String(options.rounds ?? 'none')}`;
    }
  } else if (options.rounds !== null) {
    return 'a number of rounds belongs to progressive tables, round robins and Swiss events, not to an elimination bracket';
  }
  return poolsProblem(options);
}

/** Most pools an event may have: 64 teams at 3 a pool at the least, and a letter for each. */
export const MAX_POOLS = 16;

/** Pools into a playoff's own options checked: said in the create form's words. */
function poolsProblem(options: FormatOptions): string | null {
  const { pools, advance, playoff } = options;
  if (options.elimination !== 'pools') {
    if (pools !== undefined || advance !== undefined || playoff !== undefined)
      return `pools, teams advancing and a playoff belong to pools into a playoff, not to ${ELIMINATION_WORDS[options.elimination]}`;
    return null;
  }
  if (!Number.isInteger(pools) || pools! < 2 || pools! > MAX_POOLS)
    return `the number of pools must be a whole number from 2 to ${MAX_POOLS}, not ${String(pools ?? 'none')}`;
  if (!Number.isInteger(advance) || advance! < 1 || advance! > MAX_POOLS)
    return `the teams advancing from each pool must be a whole number from 1 to ${MAX_POOLS}, not ${String(advance ?? 'none')}`;
  if (playoff !== 'single' && playoff !== 'double')
    return `the playoff is single or double elimination, not ${playoff === undefined ? 'left out' : `'${String(playoff)}'`}`;
  // The teams the event is made for, when given, are held to the pools now; the teams started are at the start.
  const teams = options.teams;
  if (teams !== null && Number.isInteger(teams)) {
    if (teams < 3 * pools!) return `${teams} teams in ${pools} pools make fewer than 3 teams a pool; choose fewer pools`;
    if (Math.floor(teams / pools!) < advance!)
      return `${advance} teams advancing from each pool is more than a pool of ${Math.floor(teams / pools!)} holds (${teams} teams in ${pools} pools)`;
  }
  return null;
}

/** The fee a registration pays: early up to and including the deadline day, late after it; null when free. */
export function feeFor(format: FormatOptions, registeredOn: string | undefined): number | null {
  if (format.fees === null) return null;
  if (registeredOn === undefined) return format.fees.early;
  return registeredOn.slice(0, 10) > format.fees.deadline ? format.fees.late : format.fees.early;
}

/** Prizes by place, from the placings: the nth prize goes to the teams placed nth. */
export function prizesFor(format: FormatOptions, placings: readonly { place: number; teams: string[] }[]): { place: number; prize: string; teams: string[] }[] {
  return format.prizes.flatMap((prize, i) => {
    const placing = placings.find((p) => p.place === i + 1);
    return placing ? [{ place: i + 1, prize, teams: [...placing.teams] }] : [];
  });
}

/**
 * How a match's first dealer was chosen, as recorded at the table:
 * - `high-card`: each player draws; the highest card deals (rounds after the first are redraws
 *   of the players tied for the highest, as in the bye draw).
 * - `coin-toss` (asher): the team with the lower seed number calls; the winner chooses the dealer.
 * - `random`: the dealer drawn from a recorded seed.
 */
export type FirstDealerDraw =
  | { method: 'high-card'; rounds: Partial<Record<Seat, string>>[] }
  | { method: 'coin-toss'; caller: string; call: 'heads' | 'tails'; toss: 'heads' | 'tails'; choice: Seat }
  | { method: 'random'; seed: string };

/**
 * The first dealer from a recorded draw or toss; `teams` are the match's two teams (seated N–S
 * and E–W) with their seeds. Throws an Error saying what is wrong with the draw.
 */
export function firstDealerFrom(draw: FirstDealerDraw, teams: readonly [{ id: string; seed: number | null }, { id: string; seed: number | null }]): Seat {
  switch (draw.method) {
    case 'high-card': {
      let drawing: Seat[] = [...SEATS];
      if (!Array.isArray(draw.rounds) || draw.rounds.length === 0) throw new Error('first-dealer draw: no cards were recorded; each seat draws one card');
      for (let r = 0; r < draw.rounds.length; r++) {
        const round = draw.rounds[r]!;
        const label = r === 0 ? 'first-dealer draw' : `first-dealer draw, redraw ${r}`;
        const extra = SEATS.find((seat) => !drawing.includes(seat) && round[seat] !== undefined);
        if (extra) throw new Error(`${label}: ${extra} was not tied for the highest card, so ${extra} does not draw again (${drawing.join(', ')} do)`);
        const ranks = new Map<Seat, number>();
        const seen = new Map<number, Seat>();
        for (const seat of drawing) {
          if (round[seat] === undefined || round[seat] === '') {
            throw new Error(`${label}: no card for ${seat}, who ${r === 0 ? 'draws with the others' : 'is tied for the highest card and draws again'}`);
          }
          const card = parseCard(String(round[seat]));
          if (card === null || naturalRank(card) === 0)
            throw new Error(`${label}: ${seat} drew '${String(round[seat])}', not a natural card such as AS or 10H`);
          const twin = seen.get(card);
          if (twin) throw new Error(`${label}: ${twin} and ${seat} both drew ${cardName(card)}; one deck has one of each card`);
          seen.set(card, seat);
          ranks.set(seat, naturalRank(card));
        }
        const best = Math.max(...ranks.values());
        drawing = drawing.filter((seat) => ranks.get(seat) === best);
        if (drawing.length === 1) {
          if (r < draw.rounds.length - 1) throw new Error(`${label}: ${drawing[0]} drew the highest card, so nobody draws again; a later redraw was recorded`);
          return drawing[0]!;
        }
      }
      throw new Error(`first-dealer draw: ${drawing.join(', ')} are tied for the highest card; they draw again`);
    }
    case 'coin-toss': {
      const [a, b] = teams;
      const lower = (a.seed ?? Infinity) <= (b.seed ?? Infinity) ? a : b;
      if (draw.caller !== lower.id) {
        throw new Error(
          `coin toss: '${lower.id}' has the lower seed number${lower.seed !== null ? ` (${lower.seed})` : ''}, so it calls the toss, not '${draw.caller}'`,
        );
      }
      for (const [what, value] of [
        ['call', draw.call],
        ['result', draw.toss],
      ] as const) {
        if (value !== 'heads' && value !== 'tails') throw new Error(`coin toss: the ${what} is heads or tails, not '${String(value)}'`);
      }
      if (!SEATS.includes(draw.choice)) throw new Error(`coin toss: the winner chooses a dealer among N, E, S, W, not '${String(draw.choice)}'`);
      return draw.choice;
    }
    case 'random':
      return SEATS[createRandom(draw.seed).int(4)]!;
    default: {
      const _exhaustive: never = draw;
      return _exhaustive;
    }
  }
}

/** Who won a recorded coin toss: the caller when the call came up, otherwise the other team. */
export function tossWinner(draw: Extract<FirstDealerDraw, { method: 'coin-toss' }>, teams: readonly [string, string]): string {
  return draw.call === draw.toss ? draw.caller : teams[0] === draw.caller ? teams[1] : teams[0];
}

/**
 * A high-card draw made from a recorded seed, for events the system draws for (the bots, the
 * demo): each id draws from a shuffled 52-card deck (two decks for more than 52 ids); ids tied
 * for the highest card redraw from a fresh shuffle. The rounds are what gets recorded, so the draw can be checked like a real one.
 */
export function drawFromSeed<Id extends string>(ids: readonly Id[], seed: string): Partial<Record<Id, string>>[] {
  const rounds: Partial<Record<Id, string>>[] = [];
  let drawing = [...ids];
  while (drawing.length > 1) {
    // More drawers than one deck holds (a 53- to 64-team bye draw) draw from two decks.
    const deck = shuffleInPlace(
      Array.from({ length: drawing.length > 52 ? 104 : 52 }, (_, c) => c % 52),
      createRandom(`${seed}:draw-${rounds.length}`),
    );
    const round: Partial<Record<Id, string>> = {};
    drawing.forEach((id, i) => (round[id] = cardName(deck[i]!)));
    rounds.push(round);
    const best = Math.max(...drawing.map((id) => naturalRank(parseCard(round[id]!)!)));
    drawing = drawing.filter((id) => naturalRank(parseCard(round[id]!)!) === best);
  }
  return rounds;
}

/**
 * Tournament formats as data: the five rulebooks' events and a custom one. A format says how
 * teams are eliminated, how many games win a match, the clock, and which rules preset each
 * round plays (rules.md, "Tournament formats").
 */
import type { BracketFormat, BracketSide } from './bracket.ts';

export type FormatId = 'blp-2024' | 'unc-intramural' | 'pitt-boss' | 'asher-theatre' | 'tournament-spades' | 'custom';
export type RulesChoice = string | ({ preset: string } & Record<string, unknown>);

export interface FormatOptions {
  /** How teams go out; `progressive` is tournament-spades' advancing-winners tables. */
  elimination: BracketFormat | 'progressive';
  /** Double elimination: whether a grand final lost by the unbeaten team is replayed. */
  reset: boolean;
  /** Games a team must win to take a match (1 = one game, 2 = best of 3). */
  gamesToWin: number;
  /** Minutes on a match clock; null for none. */
  clockMinutes: number | null;
  /** Minutes on the final's clock when it differs. */
  finalClockMinutes: number | null;
  /** Rules for every match unless a later field says otherwise. */
  rules: RulesChoice;
  /** Rules for the first round of the winners bracket. */
  firstRoundRules: RulesChoice | null;
  /** Rules for the final (and its reset). */
  finalRules: RulesChoice | null;
  /** An odd team count gives the bye by a recorded high-card draw (blp-2024) instead of to the top seed. */
  byeByDraw: boolean;
  /** Who picks the first dealer of a match. */
  firstDealer: 'high-card' | 'coin-toss' | 'random';
  /** Entry fees: early, late, and the deadline between them (ISO date); null when free. */
  fees: { early: number; late: number; deadline: string } | null;
  /** Prizes by place, 1st first. */
  prizes: string[];
  /** Progressive events: the number of rounds. */
  rounds: number | null;
  /** Teams the event is made for (informational: a director may register fewer or more). */
  teams: number | null;
}

const BASE: FormatOptions = {
  elimination: 'single',
  reset: false,
  gamesToWin: 1,
  clockMinutes: null,
  finalClockMinutes: null,
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

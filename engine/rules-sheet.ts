/**
 * The rules sheet: the rules in force written as sentences from the very options the games are
 * scored with, so what the table reads and what the ledger scores cannot drift apart. A sentence
 * that reads otherwise than the rulebook's own is the house's.
 */
import { type FormatId, type FormatOptions, type RulesChoice, formatOptions } from './formats.ts';
import { PRESETS, type RuleOptions } from './presets.ts';
import { lineOptions, points, ruleLines } from './rule-lines.ts';
import { resolveRules } from './rules.ts';
import { tableSentence } from './format-play.ts';
import { partnersSentence } from './partner-draw.ts';

/** One rule in a sentence: the options (rule or format) it is written from, and whether it is the house's. */
export interface RuleLine {
  /** Names the rule, the same in every sheet (`deck`, `trumps`, `renege`, …). */
  key: string;
  text: string;
  /** The option names the sentence is written from. */
  options: string[];
  /** True when the rulebook's own sentence reads otherwise. */
  house: boolean;
}

/** The lines for one part of the event: every game, or the rounds where they differ. */
export interface RulesPart {
  title: string;
  lines: RuleLine[];
}

export interface RulesSheet {
  parts: RulesPart[];
  /** How many lines are the house's. */
  houseRules: number;
}

/** What a group of matches plays: its rules and the clock on it. */
interface Play {
  format: FormatOptions;
  options: RuleOptions;
  clockMinutes: number | null;
  clockPer: FormatOptions['clockPer'];
  gamesToWin: number;
  rounds: number | null;
  progressive: boolean;
}

function gameLine(p: Play): RuleLine {
  const { target, hands } = p.options;
  const timed = p.clockMinutes !== null && (p.clockPer === 'game' || p.gamesToWin === 1);
  const time = timed ? `, or by the team ahead when ${p.clockMinutes} minutes are called (the hand in progress is played out)` : '';
  const tie = 'a tie plays one more hand';
  let text: string;
  if (target !== null && hands !== null)
    text = `A game is won at ${points(target)}${time}, or ends after ${hands} hands with the higher score winning; if both teams reach ${target} on the same hand, the higher score wins, and ${tie}.`;
  else if (target !== null)
    text = `A game is won at ${points(target)}${time}; if both teams reach ${target} on the same hand, the higher score wins, and ${tie}.`;
  else
    text = `A game is ${hands} hands${timed ? `, or ends when ${p.clockMinutes} minutes are called (the hand in progress is played out)` : ''}; the higher score wins, and ${tie}.`;
  return { key: 'game', text, options: [...lineOptions('game'), 'clockMinutes', 'clockPer'], house: false };
}

function matchLine(p: Play): RuleLine {
  if (p.progressive) {
    return {
      key: 'match',
      text: `The evening is ${p.rounds} rounds of one game; after each round the pair with the higher score at a table moves up a table (at table 1 it stays, and the other pair goes to the last table) and splits to partner the pair sitting there; each player keeps an individual total, and the highest total wins.`,
      options: ['rounds', 'gamesToWin'],
      house: false,
    };
  }
  const games = p.gamesToWin === 1 ? 'A match is one game' : `A match goes to the first team to win ${p.gamesToWin} games (best of ${2 * p.gamesToWin - 1})`;
  const clock =
    p.clockMinutes !== null && p.clockPer === 'match' && p.gamesToWin > 1
      ? `, within ${p.clockMinutes} minutes: when time is called, the hand in progress is played out and the team ahead in the game being played wins the match (a tie plays one more hand)`
      : '';
  return { key: 'match', text: `${games}${clock}.`, options: ['gamesToWin', 'clockMinutes', 'clockPer'], house: false };
}

/** How teams go out of the event, and who they are: the structure a player asks about first. */
function structureLine(format: FormatOptions): RuleLine {
  const made = format.teams !== null ? ` The event is made for ${format.teams} ${format.elimination === 'progressive' ? 'players' : 'teams'}.` : '';
  const out = {
    single: 'Single elimination: teams of two partners, seated across from each other; a team that loses a match is out.',
    double: `Double elimination: teams of two partners, seated across from each other; a team is out when it has lost two matches${format.reset ? ', and a grand final lost by the unbeaten team is played again' : ''}.`,
    'first-round-losers':
      'Single elimination with a second chance: teams of two partners, seated across from each other; a team that loses its first match plays on in a losers’ bracket, and any other loss puts a team out.',
    progressive: 'A progressive evening: each player enters alone and is partnered at each table with another player.',
    'round-robin': tableSentence(format),
    swiss: tableSentence(format),
    pools: tableSentence(format),
  }[format.elimination];
  return { key: 'structure', text: `${out}${partnersSentence(format)}${made}`, options: ['elimination', 'reset', 'teams'], house: false };
}

/** Every rule of one group of matches, in the order a table asks about them. */
function linesFor(p: Play): (RuleLine & { quiet?: boolean })[] {
  return [
    structureLine(p.format),
    matchLine(p),
    gameLine(p),
    ...ruleLines(p.options, p.gamesToWin).map(({ key, options, text, quiet }) => ({ key, text: text!, options, house: false, quiet })),
  ];
}

/** The groups of matches that may play different rules: the first round, the final, the rest. */
function groups(format: FormatOptions): { title: string; rules: RulesChoice; clock: number | null; which: 'first' | 'main' | 'final' }[] {
  if (format.elimination === 'progressive') return [{ title: 'Every round', rules: format.rules, clock: format.clockMinutes, which: 'main' }];
  const out: { title: string; rules: RulesChoice; clock: number | null; which: 'first' | 'main' | 'final' }[] = [];
  const losers = format.elimination === 'single' ? '' : ', and the losers’ bracket';
  if (format.firstRoundRules !== null) out.push({ title: 'Round 1', rules: format.firstRoundRules, clock: format.clockMinutes, which: 'first' });
  const mainTitle =
    format.firstRoundRules !== null
      ? `Round 2 and later${losers}`
      : format.finalRules !== null || format.finalClockMinutes !== null
        ? 'Every game before the final'
        : 'Every game';
  out.push({ title: mainTitle, rules: format.rules, clock: format.clockMinutes, which: 'main' });
  if (format.finalRules !== null || (format.finalClockMinutes !== null && format.finalClockMinutes !== format.clockMinutes)) {
    out.push({ title: 'The final', rules: format.finalRules ?? format.rules, clock: format.finalClockMinutes ?? format.clockMinutes, which: 'final' });
  }
  return out;
}

function playOf(format: FormatOptions, choice: RulesChoice, clock: number | null): Play {
  return {
    format,
    options: resolveRules(choice).options,
    clockMinutes: clock,
    clockPer: format.clockPer,
    gamesToWin: format.gamesToWin,
    rounds: format.rounds,
    progressive: format.elimination === 'progressive',
  };
}

/**
 * The rules sheet of an event of `formatId` created with `format`: a sentence for every rule,
 * each marked as the house's where the rulebook's own (the format's presets and clocks) reads
 * otherwise. Rules the same in every group of matches come first, under "Every game".
 */
export function rulesSheet(formatId: FormatId, format: FormatOptions): RulesSheet {
  // A custom event's own structure and clocks are its rulebook's: only rules its games play
  // otherwise than the preset they start from are the house's.
  const rulebook = formatId === 'custom' ? format : formatOptions(formatId);
  const rulebookGroups = groups(rulebook);
  const parts = groups(format).map((g) => {
    const base = rulebookGroups.find((r) => r.which === g.which) ?? rulebookGroups.find((r) => r.which === 'main')!;
    const preset = resolveRules(g.rules).preset;
    // The rulebook's own values for this group: its preset, its clock, its match length.
    const own = linesFor({ ...playOf(rulebook, base.rules, base.clock), options: PRESETS[preset] });
    const lines = linesFor(playOf(format, g.rules, g.clock))
      .map((l) => ({ ...l, house: own.find((r) => r.key === l.key)?.text !== l.text }))
      .filter((l) => l.house || !l.quiet)
      .map(({ quiet: _quiet, ...l }) => l);
    return { title: g.title, lines };
  });
  if (parts.length === 1) return { parts: [{ title: 'Every game', lines: parts[0]!.lines }], houseRules: parts[0]!.lines.filter((l) => l.house).length };
  const same = (l: RuleLine) => parts.every((p) => p.lines.some((m) => m.key === l.key && m.text === l.text && m.house === l.house));
  const common = parts[0]!.lines.filter(same);
  const sheet = [
    { title: 'Every game', lines: common },
    ...parts.map((p) => ({ title: p.title, lines: p.lines.filter((l) => !common.some((c) => c.key === l.key)) })).filter((p) => p.lines.length > 0),
  ];
  return { parts: sheet, houseRules: sheet.reduce((n, p) => n + p.lines.filter((l) => l.house).length, 0) };
}

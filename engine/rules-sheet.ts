/**
 * The rules sheet: the rules in force written as sentences from the very options the games are
 * scored with, so what the table reads and what the ledger scores cannot drift apart. A sentence
 * that reads otherwise than the rulebook's own is the house's.
 */
import { BIG_JOKER, LITTLE_JOKER, type Card, naturalRank, naturalSuit, parseCard } from './cards.ts';
import { deckFor } from './deck.ts';
import { type FormatId, type FormatOptions, type RulesChoice, formatOptions } from './formats.ts';
import { PRESETS, type RuleOptions } from './presets.ts';
import { resolveRules } from './rules.ts';

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
  options: RuleOptions;
  clockMinutes: number | null;
  clockPer: FormatOptions['clockPer'];
  gamesToWin: number;
  rounds: number | null;
  progressive: boolean;
}

const SUIT_SYMBOLS: Record<string, string> = { S: '♠', H: '♥', D: '♦', C: '♣' };
const RANK_TEXT: Record<number, string> = { 14: 'A', 13: 'K', 12: 'Q', 11: 'J' };

/** A card as the sheet prints it: "2♦", "A♠", "Big Joker". */
export function cardSymbol(card: Card): string {
  if (card === BIG_JOKER) return 'Big Joker';
  if (card === LITTLE_JOKER) return 'Little Joker';
  const rank = naturalRank(card);
  return `${RANK_TEXT[rank] ?? String(rank)}${SUIT_SYMBOLS[naturalSuit(card)!]}`;
}

const named = (names: readonly string[]) => names.map((n) => cardSymbol(parseCard(n)!));
const list = (items: readonly string[]) =>
  items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
const ordinal = (n: number) => `${n}${n % 100 >= 11 && n % 100 <= 13 ? 'th' : (['th', 'st', 'nd', 'rd'][n % 10] ?? 'th')}`;
const points = (n: number) => `${n} point${n === 1 ? '' : 's'}`;
const tricks = (n: number) => `${n} trick${n === 1 ? '' : 's'}`;

/**
 * When a claim is made and decided, in every event: the window only the Asher Theatre rulebook
 * sets, the others being silent (docs/claims-and-rulings.md).
 */
const CLAIMS =
  'A renege may be claimed as soon as it is seen or at any time later in that hand, and a judge rules on a claim before the next trick is played (Asher Theatre: “Any protest or rule clarification must be decided by the designated Judge before the next trick is played”). While a claim waits for its ruling the game plays on, but its result, and its match, are not decided.';

const MISDEAL_WORDS: Record<string, string> = {
  'wrong-card-count': 'a player not dealt 13 cards',
  'no-face-cards': 'a hand with no face card (J, Q, K), called before the bidding',
  'no-trumps': 'a hand with no trump, called before the bidding',
  'leaked-card-details': 'a player telling the partner which cards are held, during the bidding',
  'card-flipped': 'a card flipped during the deal',
  'no-cut-offered': 'a deal made without offering the player on the dealer’s right a cut',
  'card-exposed': 'a card exposed during the deal',
  'uneven-deal': 'an uneven deal (the dealer not getting the last card)',
};

/** The trumps high to low, the natural run of spades shortened to "A♠ … 3♠". */
function trumpWords(options: RuleOptions): string {
  const order = deckFor(options).trumpOrder;
  const natural = order.findIndex((card) => naturalSuit(card) === 'S' && naturalRank(card) === 14);
  const head = natural < 0 ? order : order.slice(0, natural);
  const run = natural < 0 ? [] : order.slice(natural);
  const unbroken = run.every((card, i) => naturalSuit(card) === 'S' && naturalRank(card) === 14 - i);
  const runText = run.length > 2 && unbroken ? `${cardSymbol(run[0]!)} … ${cardSymbol(run[run.length - 1]!)}` : run.map(cardSymbol).join(', ');
  return [...head.map(cardSymbol), ...(runText ? [runText] : [])].join(', ');
}

function gameLine(p: Play): RuleLine {
  const { target, hands } = p.options;
  const timed = p.clockMinutes !== null && (p.clockPer === 'game' || p.gamesToWin === 1);
  const time = timed ? `, or by the team ahead when ${p.clockMinutes} minutes are called (the hand in progress is played out)` : '';
  const tie = 'a tie plays one more hand';
  let text: string;
  if (target !== null && hands !== null) text = `A game is won at ${points(target)}${time}, or ends after ${hands} hands with the higher score winning; if both teams reach ${target} on the same hand, the higher score wins, and ${tie}.`;
  else if (target !== null) text = `A game is won at ${points(target)}${time}; if both teams reach ${target} on the same hand, the higher score wins, and ${tie}.`;
  else text = `A game is ${hands} hands${timed ? `, or ends when ${p.clockMinutes} minutes are called (the hand in progress is played out)` : ''}; the higher score wins, and ${tie}.`;
  return { key: 'game', text, options: ['target', 'hands', 'clockMinutes', 'clockPer'], house: false };
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

/** Every rule of one group of matches, in the order a table asks about them. */
function linesFor(p: Play): (RuleLine & { quiet?: boolean })[] {
  const o = p.options;
  const line = (key: string, options: (keyof RuleOptions)[], text: string, quiet = false) => ({ key, text, options: [...options], house: false, quiet });
  const removed = named(o.removed);
  const deck =
    removed.length === 0 && !o.jokers
      ? 'The deck is the standard 52 cards, without jokers.'
      : `The deck is 52 cards: ${o.jokers ? 'the Big and Little Jokers are in, ' : ''}${removed.length ? `the ${list(removed)} ${removed.length === 1 ? 'is' : 'are'} taken out` : 'nothing is taken out'}.`;
  const promotedOthers = o.promoted.filter((n) => naturalSuit(parseCard(n)!) !== 'S' && !o.removed.includes(n));
  const trumps = `Trumps, high to low: ${trumpWords(o)}.${promotedOthers.length ? ` The ${list(named(promotedOthers))} ${promotedOthers.length === 1 ? 'is a trump' : 'are trumps'}, a spade for every purpose.` : ''}`;

  const order = o.biddingOrder === 'clockwise' ? 'Bidding starts with the player on the dealer’s left and goes clockwise; each player bids once.' : 'The non-dealing team bids first, then the dealer’s team; each player bids once.';
  const nilPartner = o.nil !== null || o.blindNil !== null ? `; the partner of a nil bidder bids at least ${o.teamMinimum} alone, unless both bid nil` : '';
  const range =
    o.teamMinimum === 0
      ? `A team’s two bids together come to 0 to ${tricks(o.teamMaximum)}${o.nil !== null ? '; a bid of 0 is a number of tricks, not a nil' : ''}.`
      : `A team’s two bids together must come to ${o.teamMinimum} to ${tricks(o.teamMaximum)}${nilPartner}.`;
  const nil =
    o.nil === null
      ? 'Nil may not be bid.'
      : `A nil bidder must take no trick: made, the team scores ${points(o.nil)}; failed, it loses ${points(o.nil)}. The partner’s bid is the team’s bid, and with both partners nil each nil is scored on its own.`;
  const blindNil =
    o.blindNil === null
      ? 'Blind nil may not be bid.'
      : `Blind nil (bid before looking at one’s cards) scores ${points(o.blindNil)} made and loses ${points(o.blindNil)} failed; only a team ${o.blindNilDeficit} or more points behind may bid it.`;
  const blindBid =
    o.blindBid === null
      ? 'Blind bids are not allowed.'
      : `A team may bid blind (both partners, before seeing their cards) only when it is ${o.blindBid.strict ? `more than ${o.blindBid.deficit}` : `${o.blindBid.deficit} or more`} points behind${o.blindBid.minimumTeam > o.teamMinimum ? `, for at least ${tricks(o.blindBid.minimumTeam)}` : ''}; made, the bid’s score is doubled; set, it loses 10 points a trick bid.`;
  const nilTricks =
    o.nilTricks === 'overtricks'
      ? 'A nil bidder’s tricks never count toward the partner’s bid; each counts as one of the team’s overtricks.'
      : 'A nil bidder’s tricks never count toward the partner’s bid and score nothing.';

  const contract = 'A team that takes at least its bid scores 10 points a trick bid; a team that takes fewer is set and loses 10 points a trick bid.';
  const penalty = o.bagLimit === null ? ', with no penalty' : `; every ${ordinal(o.bagLimit)} bag costs ${points(o.bagPenalty)} and the count starts again, the surplus carrying over`;
  const bags = o.overtrickPoints
    ? o.bagsCounted
      ? `Each overtrick scores 1 point and is counted as a bag${penalty}.`
      : 'Each overtrick scores 1 point; overtricks are not counted as bags.'
    : o.bagsCounted
      ? `Overtricks score nothing; they are counted as bags${penalty}.`
      : 'Overtricks score nothing and are not counted as bags: a team is credited only with what it bid.';
  let bigBid = 'A bid of 10 or more scores like any other bid.';
  if (o.bigBid !== null) {
    const b = o.bigBid;
    const made =
      b.madeFloor > 0 && b.madeBonus > 0
        ? `scores ${points(b.madeFloor)} or 10 a trick bid, whichever is more, plus ${points(b.madeBonus)}`
        : b.madeFloor > 0
          ? `scores ${points(b.madeFloor)}, or 10 a trick bid when that is more`
          : b.madeBonus > 0
            ? `scores 10 points a trick bid plus ${points(b.madeBonus)} bonus`
            : 'scores 10 points a trick bid';
    const set = b.setPoints === null ? 'loses 10 points a trick bid' : `loses ${points(b.setPoints)}`;
    bigBid = `A team that bids ${b.from} or more and makes it ${made}, overtricks as usual; set, it ${set}.`;
  }
  const firstSeven = o.firstSeven === null ? 'Taking the first 7 tricks of a hand earns no bonus.' : `A team that wins the first 7 tricks of a hand gets ${o.firstSeven} bonus points, whatever its bid.`;
  const paid = (n: number) => (n > 0 ? `, and the other team scores ${points(n)}` : '');
  const renege = {
    transfer: `An upheld renege takes ${tricks(o.renegeTricks)} from the reneging team and gives them to the other team (all it has, if fewer), where they count toward the bid and as bags${paid(o.renegePoints)}.`,
    unc: `An upheld renege takes ${tricks(o.renegeTricks)} from the reneging team, which must still make its bid with what is left; the other team does not count them${paid(o.renegePoints)}.`,
    asher: `An upheld renege credits the other team with ${tricks(o.renegeTricks)}; the reneging team gives up as many as it has and owes the rest out of its next hand${paid(o.renegePoints)}.`,
    'pitt-boss': `A renege claim costs the side that loses it ${tricks(o.renegeTricks)}, given to the other team: the reneging team’s when upheld, the claiming team’s when denied${paid(o.renegePoints)}.`,
  }[o.renegePenalty];
  const sixFour = o.sixFour ? 'When one team bids exactly 6 and the other exactly 4, the hand is not played: the teams score 60 and 40 points, with no bags.' : 'A 6–4 bid is played like any other.';
  const boston = o.boston ? 'A team that takes all 13 tricks (a Boston) wins the game at once.' : 'Taking all 13 tricks (a Boston) is scored like any other hand.';
  const setOut = o.setOut === null ? 'A team may be set any number of times in a game.' : `A team set for the ${ordinal(o.setOut)} time in a game loses it.`;
  const firstDealer = {
    'high-card': 'The first dealer is chosen by a draw for high card; the deal then passes clockwise.',
    'coin-toss': 'A coin toss decides the first dealer: the team with the lower seed number calls it, and the winner chooses the dealer; the deal then passes clockwise.',
    random: 'The first dealer is drawn at random; the deal then passes clockwise.',
  }[o.firstDealer];
  const carries = o.dealerCarriesAcrossGames
    ? 'The deal keeps its rotation across the games of a match: the next game’s first dealer is the player left of the last game’s last dealer.'
    : 'Each game of a match starts with its own choice of the first dealer.';
  const reasons = o.misdealReasons.map((r) => MISDEAL_WORDS[r] ?? r.replace(/-/g, ' '));
  const misdeal = `A misdeal may be called for: ${reasons.join('; ')}. After a misdeal ${o.afterMisdeal === 'same-dealer' ? 'the same dealer deals again' : 'the deal passes to the next player'}; a misdeal scores nothing.`;

  return [
    { ...matchLine(p) },
    { ...gameLine(p) },
    line('deck', ['removed', 'jokers'], deck),
    line('trumps', ['jokers', 'promoted', 'removed'], trumps),
    line('play', [], 'The player on the dealer’s left leads first. Players must follow suit when they can; a trump may not be led until one has been played on another suit, unless the leader holds only trumps.'),
    line('bidding-order', ['biddingOrder'], order),
    line('bid-range', ['teamMinimum', 'teamMaximum'], range),
    line('nil', ['nil'], nil),
    ...(o.nil !== null || o.blindNil !== null ? [line('nil-tricks', ['nilTricks'], nilTricks)] : []),
    line('blind-nil', ['blindNil', 'blindNilDeficit'], blindNil),
    line('blind-bid', ['blindBid'], blindBid),
    line('contract', [], contract),
    line('bags', ['overtrickPoints', 'bagsCounted', 'bagLimit', 'bagPenalty'], bags),
    line('big-bid', ['bigBid'], bigBid, o.bigBid === null),
    line('first-seven', ['firstSeven'], firstSeven, o.firstSeven === null),
    line('six-four', ['sixFour'], sixFour, !o.sixFour),
    line('boston', ['boston'], boston, !o.boston),
    line('set-out', ['setOut'], setOut, o.setOut === null),
    line('renege', ['renegePenalty', 'renegeTricks', 'renegePoints'], renege),
    line('claims', [], CLAIMS),
    line('first-dealer', ['firstDealer'], firstDealer),
    ...(p.gamesToWin > 1 ? [line('dealer-across-games', ['dealerCarriesAcrossGames'], carries)] : []),
    line('misdeal', ['misdealReasons', 'afterMisdeal'], misdeal),
  ];
}

/** The groups of matches that may play different rules: the first round, the final, the rest. */
function groups(format: FormatOptions): { title: string; rules: RulesChoice; clock: number | null; which: 'first' | 'main' | 'final' }[] {
  if (format.elimination === 'progressive') return [{ title: 'Every round', rules: format.rules, clock: format.clockMinutes, which: 'main' }];
  const out: { title: string; rules: RulesChoice; clock: number | null; which: 'first' | 'main' | 'final' }[] = [];
  const losers = format.elimination === 'single' ? '' : ', and the losers’ bracket';
  if (format.firstRoundRules !== null) out.push({ title: 'Round 1', rules: format.firstRoundRules, clock: format.clockMinutes, which: 'first' });
  const mainTitle = format.firstRoundRules !== null ? `Round 2 and later${losers}` : format.finalRules !== null || format.finalClockMinutes !== null ? 'Every game before the final' : 'Every game';
  out.push({ title: mainTitle, rules: format.rules, clock: format.clockMinutes, which: 'main' });
  if (format.finalRules !== null || (format.finalClockMinutes !== null && format.finalClockMinutes !== format.clockMinutes)) {
    out.push({ title: 'The final', rules: format.finalRules ?? format.rules, clock: format.finalClockMinutes ?? format.clockMinutes, which: 'final' });
  }
  return out;
}

function playOf(format: FormatOptions, choice: RulesChoice, clock: number | null): Play {
  return {
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
  const rulebook = formatOptions(formatId);
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

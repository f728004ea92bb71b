/**
 * How the rules sheet words the rule options: a sentence for each rule a table asks about, in
 * the order it asks, each written from the options the catalogue (engine/rule-options.ts) says
 * it is worded from. The judge's console words a renege ruling with the same sentence.
 */
import { BIG_JOKER, LITTLE_JOKER, type Card, naturalRank, naturalSuit, parseCard } from './cards.ts';
import { deckFor } from './deck.ts';
import type { RuleOptions } from './presets.ts';
import { MISDEAL_REASONS, RULE_OPTIONS, type SheetLineKey } from './rule-options.ts';

/** One of the sheet's sentences on the rule options. */
export interface RuleLineWords {
  key: SheetLineKey;
  /** The rule options it is written from, as the catalogue names them. */
  options: (keyof RuleOptions)[];
  /** The sentence, or null where the rules leave the line out (nil's tricks, where no nil is bid). */
  text: string | null;
  /** True when the line reads the ordinary way and is left out unless it is the house's. */
  quiet: boolean;
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
/** Items joined as a sentence joins them: "a, b and c". */
export const list = (items: readonly string[]) => (items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`);
const ordinal = (n: number) => `${n}${n % 100 >= 11 && n % 100 <= 13 ? 'th' : (['th', 'st', 'nd', 'rd'][n % 10] ?? 'th')}`;
/** "1 point", "30 points". */
export const points = (n: number) => `${n} point${n === 1 ? '' : 's'}`;
const tricks = (n: number) => `${n} trick${n === 1 ? '' : 's'}`;

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

/** What an upheld renege costs under the rules, as the sheet and the judge's console both say it. */
export function renegeSentence(o: Pick<RuleOptions, 'renegePenalty' | 'renegeTricks' | 'renegePoints'> & Partial<Pick<RuleOptions, 'bagsCounted'>>): string {
  const paid = o.renegePoints > 0 ? `, and the other team scores ${points(o.renegePoints)}` : '';
  // Where overtricks are not counted as bags, no bag is spoken of.
  const count = o.bagsCounted === false ? 'toward the bid' : 'toward the bid and as bags';
  switch (o.renegePenalty) {
    case 'transfer':
      return `An upheld renege takes ${tricks(o.renegeTricks)} from the reneging team and gives them to the other team (all it has, if fewer), where they count ${count}${paid}.`;
    case 'unc':
      return `An upheld renege takes ${tricks(o.renegeTricks)} from the reneging team, which must still make its bid with what is left; the other team does not count them${paid}.`;
    case 'asher':
      return `An upheld renege credits the other team with ${tricks(o.renegeTricks)}; the reneging team gives up as many as it has and owes the rest out of its next hand${paid}.`;
    case 'pitt-boss':
      return `A renege claim costs the side that loses it ${tricks(o.renegeTricks)}, given to the other team: the reneging team’s when upheld, the claiming team’s when denied${paid}.`;
    default: {
      const _exhaustive: never = o.renegePenalty;
      return _exhaustive;
    }
  }
}

/**
 * When a claim is made and decided, in every event: the window only the Asher Theatre rulebook
 * sets, the others being silent (docs/claims-and-rulings.md).
 */
const CLAIMS =
  'A renege may be claimed as soon as it is seen or at any time later in that hand, and a judge rules on a claim before the next trick is played (Asher Theatre: “Any protest or rule clarification must be decided by the designated Judge before the next trick is played”). While a claim waits for its ruling the game plays on, but its result, and its match, are not decided.';

/** A misdeal reason as the sheet says it; a reason the catalogue does not know is read from its name. */
export function misdealWords(reason: string): string {
  return MISDEAL_REASONS.find((r) => r.value === reason)?.words ?? reason.replace(/-/g, ' ');
}

type Words = (o: RuleOptions, gamesToWin: number) => { text: string | null; quiet?: boolean };

/** Each line's sentence, in the order a table asks about them (after the match and the game). */
const WORDS: { key: SheetLineKey; words: Words }[] = [
  {
    key: 'deck',
    words: (o) => {
      const removed = named(o.removed);
      return {
        text:
          removed.length === 0 && !o.jokers
            ? 'The deck is the standard 52 cards, without jokers.'
            : `The deck is 52 cards: ${o.jokers ? 'the Big and Little Jokers are in, ' : ''}${removed.length ? `the ${list(removed)} ${removed.length === 1 ? 'is' : 'are'} taken out` : 'nothing is taken out'}.`,
      };
    },
  },
  {
    key: 'trumps',
    words: (o) => {
      const promotedOthers = o.promoted.filter((n) => naturalSuit(parseCard(n)!) !== 'S' && !o.removed.includes(n));
      return {
        text: `Trumps, high to low: ${trumpWords(o)}.${promotedOthers.length ? ` The ${list(named(promotedOthers))} ${promotedOthers.length === 1 ? 'is a trump' : 'are trumps'}, a spade for every purpose.` : ''}`,
      };
    },
  },
  {
    key: 'play',
    words: () => ({
      text: 'The player on the dealer’s left leads first. Players must follow suit when they can; a trump may not be led until one has been played on another suit, unless the leader holds only trumps.',
    }),
  },
  {
    key: 'bidding-order',
    words: (o) => ({
      text:
        o.biddingOrder === 'clockwise'
          ? 'Bidding starts with the player on the dealer’s left and goes clockwise; each player bids once.'
          : 'The non-dealing team bids first, then the dealer’s team; each player bids once.',
    }),
  },
  {
    key: 'bid-range',
    words: (o) => {
      const nilPartner = o.nil !== null || o.blindNil !== null ? `; the partner of a nil bidder bids at least ${o.teamMinimum} alone, unless both bid nil` : '';
      return {
        text:
          o.teamMinimum === 0
            ? `A team’s two bids together come to 0 to ${tricks(o.teamMaximum)}${o.nil !== null ? '; a bid of 0 is a number of tricks, not a nil' : ''}.`
            : `A team’s two bids together must come to ${o.teamMinimum} to ${tricks(o.teamMaximum)}${nilPartner}.`,
      };
    },
  },
  {
    key: 'nil',
    words: (o) => ({
      text:
        o.nil === null
          ? 'Nil may not be bid.'
          : `A nil bidder must take no trick: made, the team scores ${points(o.nil)}; failed, it loses ${points(o.nil)}. The partner’s bid is the team’s bid, and with both partners nil each nil is scored on its own.`,
    }),
  },
  {
    key: 'nil-tricks',
    words: (o) => ({
      text:
        o.nil === null && o.blindNil === null
          ? null
          : o.nilTricks === 'overtricks'
            ? 'A nil bidder’s tricks never count toward the partner’s bid; each counts as one of the team’s overtricks.'
            : 'A nil bidder’s tricks never count toward the partner’s bid and score nothing.',
    }),
  },
  {
    key: 'blind-nil',
    words: (o) => ({
      text:
        o.blindNil === null
          ? 'Blind nil may not be bid.'
          : `Blind nil (bid before looking at one’s cards) scores ${points(o.blindNil)} made and loses ${points(o.blindNil)} failed; only a team ${o.blindNilDeficit} or more points behind may bid it.`,
    }),
  },
  {
    key: 'blind-bid',
    words: (o) => ({
      text:
        o.blindBid === null
          ? 'Blind bids are not allowed.'
          : `A team may bid blind (both partners, ${o.blindBidDeclared === 'before-deal' ? 'declared before the cards are dealt' : 'before seeing their cards'}) only when it is ${o.blindBid.strict ? `more than ${o.blindBid.deficit}` : `${o.blindBid.deficit} or more`} points behind${o.blindBid.minimumTeam > o.teamMinimum ? `, for at least ${tricks(o.blindBid.minimumTeam)}` : ''}; made, the bid’s score is doubled; set, it loses 10 points a trick bid.`,
    }),
  },
  {
    key: 'contract',
    words: () => ({ text: 'A team that takes at least its bid scores 10 points a trick bid; a team that takes fewer is set and loses 10 points a trick bid.' }),
  },
  {
    key: 'bags',
    words: (o) => {
      const penalty =
        o.bagLimit === null
          ? ', with no penalty'
          : `; every ${ordinal(o.bagLimit)} bag costs ${points(o.bagPenalty)} and the count starts again, the surplus carrying over`;
      return {
        text: o.overtrickPoints
          ? o.bagsCounted
            ? `Each overtrick scores 1 point and is counted as a bag${penalty}.`
            : 'Each overtrick scores 1 point; overtricks are not counted as bags.'
          : o.bagsCounted
            ? `Overtricks score nothing; they are counted as bags${penalty}.`
            : 'Overtricks score nothing and are not counted as bags: a team is credited only with what it bid.',
      };
    },
  },
  {
    key: 'big-bid',
    words: (o) => {
      if (o.bigBid === null) return { text: 'A bid of 10 or more scores like any other bid.', quiet: true };
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
      return { text: `A team that bids ${b.from} or more and makes it ${made}, overtricks as usual; set, it ${set}.` };
    },
  },
  {
    key: 'first-seven',
    words: (o) =>
      o.firstSeven === null
        ? { text: 'Taking the first 7 tricks of a hand earns no bonus.', quiet: true }
        : { text: `A team that wins the first 7 tricks of a hand gets ${o.firstSeven} bonus points, whatever its bid.` },
  },
  {
    key: 'six-four',
    words: (o) =>
      o.sixFour
        ? { text: 'When one team bids exactly 6 and the other exactly 4, the hand is not played: the teams score 60 and 40 points, with no bags.' }
        : { text: 'A 6–4 bid is played like any other.', quiet: true },
  },
  {
    key: 'boston',
    words: (o) =>
      o.boston
        ? { text: 'A team that takes all 13 tricks (a Boston) wins the game at once.' }
        : { text: 'Taking all 13 tricks (a Boston) is scored like any other hand.', quiet: true },
  },
  {
    key: 'set-out',
    words: (o) =>
      o.setOut === null
        ? { text: 'A team may be set any number of times in a game.', quiet: true }
        : { text: `A team set for the ${ordinal(o.setOut)} time in a game loses it.` },
  },
  { key: 'renege', words: (o) => ({ text: renegeSentence(o) }) },
  { key: 'claims', words: () => ({ text: CLAIMS }) },
  {
    key: 'first-dealer',
    words: (o) => ({
      text: {
        'high-card': 'The first dealer is chosen by a draw for high card; the deal then passes clockwise.',
        'coin-toss':
          'A coin toss decides the first dealer: the team with the lower seed number calls it, and the winner chooses the dealer; the deal then passes clockwise.',
        random: 'The first dealer is drawn at random; the deal then passes clockwise.',
      }[o.firstDealer],
    }),
  },
  {
    key: 'dealer-across-games',
    words: (o, gamesToWin) => ({
      text:
        gamesToWin <= 1
          ? null
          : o.dealerCarriesAcrossGames
            ? 'The deal keeps its rotation across the games of a match: the next game’s first dealer is the player left of the last game’s last dealer.'
            : 'Each game of a match starts with its own choice of the first dealer.',
    }),
  },
  {
    key: 'misdeal',
    words: (o) => ({
      text: `A misdeal may be called for: ${o.misdealReasons.map(misdealWords).join('; ')}. ${{ 'same-dealer': 'After a misdeal the same dealer deals again', 'next-dealer': 'After a misdeal the deal passes to the next player', 'next-dealer-after-flip': 'After a card flipped in the deal the dealer loses the turn to deal and the deal passes to the next player; after any other misdeal the same dealer deals again' }[o.afterMisdeal]}; a misdeal scores nothing.`,
    }),
  },
];

/** The rule options a line is written from, as the catalogue says. */
export function lineOptions(key: SheetLineKey): (keyof RuleOptions)[] {
  return RULE_OPTIONS.filter((o) => o.sheet.includes(key)).map((o) => o.key);
}

/**
 * The sheet's sentences on the rules of play, in the order a table asks about them, for games
 * of a match won with `gamesToWin` games; a line the rules leave out is not among them.
 */
export function ruleLines(options: RuleOptions, gamesToWin: number): RuleLineWords[] {
  return WORDS.map(({ key, words }) => {
    const { text, quiet = false } = words(options, gamesToWin);
    return { key, options: lineOptions(key), text, quiet };
  }).filter((line) => line.text !== null);
}

/** Every line the sheet words rule options in, in order. */
export const RULE_LINE_KEYS: readonly SheetLineKey[] = WORDS.map((w) => w.key);

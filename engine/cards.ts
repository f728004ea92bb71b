/**
 * Cards, seats and teams. A card is a small integer so that play and detection loops stay
 * cheap; `cardName` / `parseCard` convert at the edges (records, events, pages).
 *
 * Ids: suit × 13 + (rank − 2) for the natural cards (suits S H D C, ranks 2…14 with A = 14),
 * then 52 = big joker, 53 = little joker.
 */

export type Seat = 'N' | 'E' | 'S' | 'W';
export type Team = 'NS' | 'EW';
export type Suit = 'S' | 'H' | 'D' | 'C';
export type Card = number;

export const SEATS: readonly Seat[] = ['N', 'E', 'S', 'W'];
export const TEAMS: readonly Team[] = ['NS', 'EW'];
export const SUITS: readonly Suit[] = ['S', 'H', 'D', 'C'];
export const BIG_JOKER: Card = 52;
export const LITTLE_JOKER: Card = 53;

const SEAT_INDEX: Record<Seat, number> = { N: 0, E: 1, S: 2, W: 3 };
const RANK_NAMES = ['2', '3', '4', '5', '6', '7', '8', '9', '10', 'J', 'Q', 'K', 'A'];

/** The seats as people name them at a table and on every page: the one place they are named. */
export const SEAT_NAMES: Readonly<Record<Seat, string>> = { N: 'North', E: 'East', S: 'South', W: 'West' };

/** A seat letter as people name it ("North"); a string that is not a seat letter is given back as it is. */
export function seatName(seat: string): string {
  return isSeat(seat) ? SEAT_NAMES[seat] : seat;
}

/** Index of a seat, N = 0 clockwise to W = 3. */
export function seatIndex(seat: Seat): number {
  // Compared rather than looked up: the replay of every hand asks this for each card.
  return seat === 'N' ? 0 : seat === 'E' ? 1 : seat === 'S' ? 2 : seat === 'W' ? 3 : SEAT_INDEX[seat];
}

/** The seat `steps` places clockwise from `seat` (1 = its left). */
export function seatAfter(seat: Seat, steps = 1): Seat {
  return SEATS[(seatIndex(seat) + steps) & 3]!;
}

/** The partnership a seat belongs to. */
export function teamOf(seat: Seat): Team {
  return seat === 'N' || seat === 'S' ? 'NS' : 'EW';
}

/** The two seats of a partnership. */
export function seatsOf(team: Team): readonly [Seat, Seat] {
  return team === 'NS' ? ['N', 'S'] : ['E', 'W'];
}

/** The partnership across the table. */
export function otherTeam(team: Team): Team {
  return team === 'NS' ? 'EW' : 'NS';
}

/** Whether a string is a seat letter. */
export function isSeat(value: unknown): value is Seat {
  return value === 'N' || value === 'E' || value === 'S' || value === 'W';
}

/** The printed suit of a natural card (jokers have none). */
export function naturalSuit(card: Card): Suit | null {
  return card >= 52 ? null : SUITS[(card / 13) | 0]!;
}

/** The rank of a natural card, 2…14 (A = 14); jokers give 0. */
export function naturalRank(card: Card): number {
  return card >= 52 ? 0 : (card % 13) + 2;
}

/** Builds a natural card from its suit and rank (2…14). */
export function makeCard(suit: Suit, rank: number): Card {
  return SUITS.indexOf(suit) * 13 + (rank - 2);
}

/** The card's name as the record format writes it: rank then suit, `10` for ten, `BJ`/`LJ`. */
export function cardName(card: Card): string {
  return CARD_NAMES[card] ?? nameOf(card);
}

function nameOf(card: Card): string {
  if (card === BIG_JOKER) return 'BJ';
  if (card === LITTLE_JOKER) return 'LJ';
  return RANK_NAMES[card % 13]! + SUITS[(card / 13) | 0]!;
}

// Every card's name made once, so the names a deal writes are shared rather than built anew.
const CARD_NAMES: readonly string[] = Array.from({ length: 54 }, (_, card) => nameOf(card));

const NAME_TO_CARD = new Map<string, Card>();
for (let c = 0; c < 54; c++) NAME_TO_CARD.set(cardName(c), c);

// Cards as a record or a rule option may write them: case-insensitive, `T` for ten, suits as
// letters or symbols, spaces around. These patterns are the same sets of strings that
// `parseCard` reads (the record schema's test holds them to it); `\u017f` is the long s, which
// JavaScript upper-cases to S.
const SPACE = String.raw`\s*`;
const RANK = '(?:[AaKkQqJjTt2-9]|10)';
const SUIT = String.raw`[Ss\u017fHhDdCc♠♤♥♡♦♢♣♧]`;
/** Any card's name, jokers too, as `parseCard` reads it. */
export const CARD_PATTERN = new RegExp(`^${SPACE}(?:${RANK}${SUIT}|[BbLl][Jj])${SPACE}$`, 'u');
/** A natural card's name (no joker), as `parseCard` reads it. */
export const NATURAL_CARD_PATTERN = new RegExp(`^${SPACE}${RANK}${SUIT}${SPACE}$`, 'u');

/**
 * Reads a card name, case-insensitively, with `T` for ten; null when it names no card.
 * Whether the card is in a given preset's deck is the deck's question, not this one's.
 */
export function parseCard(text: string): Card | null {
  if (typeof text !== 'string') return null;
  // Names as the record format writes them (every name this project writes) need no tidying.
  const exact = NAME_TO_CARD.get(text);
  if (exact !== undefined) return exact;
  // Players write suits as letters or symbols (2♦, 10♥) alike.
  let t = text.trim().toUpperCase().replace(/[♠♤]/u, 'S').replace(/[♥♡]/u, 'H').replace(/[♦♢]/u, 'D').replace(/[♣♧]/u, 'C');
  if (t.length === 2 && t[0] === 'T') t = '10' + t[1];
  const card = NAME_TO_CARD.get(t);
  return card === undefined ? null : card;
}

/**
 * Reads a list of cards as players write it ("2D 2S", "2♦, 2♠", "none" for no card) into record
 * names; null when a word names no card.
 */
export function parseCardList(text: string): string[] | null {
  const words = text
    .trim()
    .split(/[\s,]+/)
    .filter((w) => w !== '');
  if (words.length === 1 && /^(none|-|—)$/i.test(words[0]!)) return [];
  const cards = words.map(parseCard);
  return cards.every((c) => c !== null) ? cards.map((c) => cardName(c!)) : null;
}

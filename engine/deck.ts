/**
 * A preset's deck: which 52 cards are in it and how they rank. Trumps (every spade, the jokers
 * and promoted deuces) share one effective suit, so following suit, breaking trumps and "no
 * spades" misdeals all see a joker or a promoted 2♦ as a spade.
 */
import { BIG_JOKER, LITTLE_JOKER, type Card, type Suit, SUITS, makeCard, parseCard } from './cards.ts';
import type { RuleOptions } from './presets.ts';

/** Effective suit index: 0 = trumps, 1 = hearts, 2 = diamonds, 3 = clubs. */
export type EffectiveSuit = 0 | 1 | 2 | 3;
export const TRUMPS: EffectiveSuit = 0;
const NOT_IN_DECK = 255;

export interface Deck {
  /** The cards of the deck, trumps first (high to low), then hearts, diamonds, clubs (A down). */
  readonly cards: readonly Card[];
  /** Trumps from highest to lowest. */
  readonly trumpOrder: readonly Card[];
  /** Per card id: effective suit, or 255 for a card not in this deck. */
  readonly suit: Uint8Array;
  /** Per card id: strength within its effective suit (higher wins). */
  readonly power: Uint8Array;
}

const cache = new Map<string, Deck>();
// Rules are resolved once and read many times (every hand scored asks for its deck), so the
// deck is also kept by the options object itself, which saves spelling out the key each time.
const byOptions = new WeakMap<object, { removed: readonly string[]; jokers: boolean; promoted: readonly string[]; deck: Deck }>();

/** The deck the options describe (memoised; decks are immutable). */
export function deckFor(options: Pick<RuleOptions, 'removed' | 'jokers' | 'promoted'>): Deck {
  const known = byOptions.get(options);
  // Kept only while the options still say what they said: an object changed since is keyed again.
  if (known && known.removed === options.removed && known.jokers === options.jokers && known.promoted === options.promoted) return known.deck;
  const key = `${options.removed.join(',')}|${options.jokers}|${options.promoted.join(',')}`;
  let deck = cache.get(key);
  if (!deck) {
    deck = buildDeck(options);
    cache.set(key, deck);
  }
  byOptions.set(options, { removed: options.removed, jokers: options.jokers, promoted: options.promoted, deck });
  return deck;
}

function buildDeck(options: Pick<RuleOptions, 'removed' | 'jokers' | 'promoted'>): Deck {
  const removed = new Set(options.removed.map((name) => mustParse(name, 'removed')));
  const promoted = options.promoted.map((name) => mustParse(name, 'promoted'));
  const suit = new Uint8Array(54).fill(NOT_IN_DECK);
  const power = new Uint8Array(54);

  const trumpOrder: Card[] = [];
  if (options.jokers) trumpOrder.push(BIG_JOKER, LITTLE_JOKER);
  for (const card of promoted) if (!removed.has(card)) trumpOrder.push(card);
  for (let rank = 14; rank >= 2; rank--) {
    const card = makeCard('S', rank);
    if (!removed.has(card) && !trumpOrder.includes(card)) trumpOrder.push(card);
  }
  trumpOrder.forEach((card, i) => {
    suit[card] = TRUMPS;
    power[card] = 100 - i;
  });

  const cards: Card[] = [...trumpOrder];
  for (const s of ['H', 'D', 'C'] as const) {
    for (let rank = 14; rank >= 2; rank--) {
      const card = makeCard(s, rank);
      if (removed.has(card) || suit[card] !== NOT_IN_DECK) continue;
      suit[card] = SUITS.indexOf(s) as EffectiveSuit;
      power[card] = rank;
      cards.push(card);
    }
  }
  return { cards, trumpOrder, suit, power };
}

function mustParse(name: string, option: string): Card {
  const card = parseCard(name);
  if (card === null || card >= 52) throw new Error(`option ${option}: '${name}' is not a natural card`);
  return card;
}

/** Whether the card is in the deck. */
export function inDeck(deck: Deck, card: Card): boolean {
  return deck.suit[card] !== NOT_IN_DECK;
}

/** Whether the card is a trump (a spade for every purpose). */
export function isTrump(deck: Deck, card: Card): boolean {
  return deck.suit[card] === TRUMPS;
}

/** The effective suit's letter: trumps read as S. */
export function effectiveSuitName(deck: Deck, card: Card): Suit {
  return SUITS[deck.suit[card]!]!;
}

/** True when card `a` beats card `b` that is currently winning a trick led in suit `led`. */
export function beats(deck: Deck, a: Card, b: Card, led: number): boolean {
  const sa = deck.suit[a]!;
  const sb = deck.suit[b]!;
  if (sa === sb) return deck.power[a]! > deck.power[b]!;
  if (sa === TRUMPS) return true;
  if (sb === TRUMPS) return false;
  return sa === led;
}

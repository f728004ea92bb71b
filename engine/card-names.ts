/**
 * A card's name as a sentence and a screen reader say it: "9♥", "10♠", "big joker", "queen of
 * spades". Read from a record's card name ("10H", "TS", "BJ"), so a refusal, a page and the
 * record all name a card the same way.
 */

const SUITS: Record<string, { symbol: string; name: string; red: boolean }> = {
  S: { symbol: '♠', name: 'spades', red: false },
  H: { symbol: '♥', name: 'hearts', red: true },
  D: { symbol: '♦', name: 'diamonds', red: true },
  C: { symbol: '♣', name: 'clubs', red: false },
};

const RANKS: Record<string, string> = { A: 'ace', K: 'king', Q: 'queen', J: 'jack' };

export type Reading = { joker: 'big' | 'little' } | { rank: string; suit: (typeof SUITS)[string] } | null;

/** A record name read for the room: a joker, or a rank (a ten as 10) and suit; null when it names no card. */
export function readCard(name: string): Reading {
  const text = name.trim().toUpperCase();
  if (text === 'BJ') return { joker: 'big' };
  if (text === 'LJ') return { joker: 'little' };
  const suit = SUITS[text.slice(-1)];
  if (!suit) return null;
  // Records may write a ten as T; the room reads 10.
  const rank = text.slice(0, -1) === 'T' ? '10' : text.slice(0, -1);
  return { rank, suit };
}

/** A card as a sentence writes it: "9♥", "10♠", "big joker"; the record name when it names no card. */
export function cardText(name: string): string {
  const card = readCard(name);
  if (!card) return name;
  return 'joker' in card ? `${card.joker} joker` : `${card.rank}${card.suit.symbol}`;
}

/** A card's name for a screen reader: "queen of spades". */
export function cardWords(name: string): string {
  const card = readCard(name);
  if (!card) return name;
  return 'joker' in card ? `${card.joker} joker` : `${RANKS[card.rank] ?? card.rank} of ${card.suit.name}`;
}

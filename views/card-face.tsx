/**
 * A card as the room reads it: rank and suit symbol, red for hearts and diamonds, with the
 * card spelled out for screen readers (a bare "♥" is read as "black heart suit").
 */
const SUITS: Record<string, { symbol: string; name: string; red: boolean }> = {
  S: { symbol: '♠', name: 'spades', red: false },
  H: { symbol: '♥', name: 'hearts', red: true },
  D: { symbol: '♦', name: 'diamonds', red: true },
  C: { symbol: '♣', name: 'clubs', red: false },
};

const RANKS: Record<string, string> = { A: 'ace', K: 'king', Q: 'queen', J: 'jack' };

type Reading = { joker: 'big' | 'little' } | { rank: string; suit: (typeof SUITS)[string] } | null;

/** A record name read for the room: a joker, or a rank (a ten as 10) and suit; null when it names no card. */
function read(name: string): Reading {
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
  const card = read(name);
  if (!card) return name;
  return 'joker' in card ? `${card.joker} joker` : `${card.rank}${card.suit.symbol}`;
}

/** A card's name for a screen reader: "queen of spades". */
export function cardWords(name: string): string {
  const card = read(name);
  if (!card) return name;
  return 'joker' in card ? `${card.joker} joker` : `${RANKS[card.rank] ?? card.rank} of ${card.suit.name}`;
}

/** A card from its record name ("10H", "AS", "BJ", "LJ"). */
export function CardFace({ name }: { name: string }) {
  const card = read(name);
  if (!card) return <span class="card">{name}</span>;
  if ('joker' in card) {
    return (
      <span class="card card--joker">
        <span aria-hidden="true">{card.joker === 'big' ? 'Big ★' : 'Little ★'}</span>
        <span class="visually-hidden">{cardWords(name)}</span>
      </span>
    );
  }
  const { rank, suit } = card;
  const text = name.trim().toUpperCase();
  return (
    <span class={suit.red ? 'card card--red' : 'card'} data-card={text}>
      <span aria-hidden="true">
        {rank}
        {suit.symbol}
      </span>
      <span class="visually-hidden">{cardWords(name)}</span>
    </span>
  );
}

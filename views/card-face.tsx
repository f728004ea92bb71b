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

/** A card as a sentence writes it: "9♥", "10♠", "big joker"; the record name when it names no card. */
export function cardText(name: string): string {
  const text = name.trim().toUpperCase();
  if (text === 'BJ') return 'big joker';
  if (text === 'LJ') return 'little joker';
  const suit = SUITS[text.slice(-1)];
  if (!suit) return name;
  const rank = text.slice(0, -1) === 'T' ? '10' : text.slice(0, -1);
  return `${rank}${suit.symbol}`;
}

/** A card's name for a screen reader: "queen of spades". */
export function cardWords(name: string): string {
  const text = name.trim().toUpperCase();
  if (text === 'BJ') return 'big joker';
  if (text === 'LJ') return 'little joker';
  const suit = SUITS[text.slice(-1)];
  if (!suit) return name;
  const rank = text.slice(0, -1) === 'T' ? '10' : text.slice(0, -1);
  return `${RANKS[rank] ?? rank} of ${suit.name}`;
}

/** A card from its record name ("10H", "AS", "BJ", "LJ"). */
export function CardFace({ name }: { name: string }) {
  const text = name.trim().toUpperCase();
  if (text === 'BJ' || text === 'LJ') {
    return (
      <span class="card card--joker">
        <span aria-hidden="true">{text === 'BJ' ? 'Big ★' : 'Little ★'}</span>
        <span class="visually-hidden">{text === 'BJ' ? 'big joker' : 'little joker'}</span>
      </span>
    );
  }
  const suit = SUITS[text.slice(-1)];
  // Records may write a ten as T; the room reads 10.
  const rank = text.slice(0, -1) === 'T' ? '10' : text.slice(0, -1);
  if (!suit) return <span class="card">{name}</span>;
  return (
    <span class={suit.red ? 'card card--red' : 'card'} data-card={text}>
      <span aria-hidden="true">
        {rank}
        {suit.symbol}
      </span>
      <span class="visually-hidden">
        {RANKS[rank] ?? rank} of {suit.name}
      </span>
    </span>
  );
}

/**
 * A card as the room reads it: rank and suit symbol, red for hearts and diamonds, with the
 * card spelled out for screen readers (a bare "♥" is read as "black heart suit").
 */
import { cardWords, readCard } from '../engine/card-names.ts';

/** A card from its record name ("10H", "AS", "BJ", "LJ"). */
export function CardFace({ name }: { name: string }) {
  const card = readCard(name);
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

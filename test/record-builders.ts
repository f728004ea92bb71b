/**
 * Builders for spades-game/1 records with real plays: a seeded deal and a deterministic play-out,
 * so record tests can show plays, reneges and illegal leads without hand-writing 52 cards.
 */
import { type Card, type Seat, SEATS, cardName, seatAfter } from '../engine/cards.ts';
import { type Deck, deckFor } from '../engine/deck.ts';
import { PRESETS, type PresetId } from '../engine/presets.ts';
import { legalPlays, trickWinnerIndex } from '../engine/trick.ts';

/** A deal of the preset's deck, shuffled by a small seeded generator and dealt from the dealer's left. */
export function dealFor(preset: PresetId, dealer: Seat, seed: number): Record<Seat, Card[]> {
  const cards = [...deckFor(PRESETS[preset]).cards];
  let x = seed >>> 0 || 1;
  for (let i = cards.length - 1; i > 0; i--) {
    x = (Math.imul(x, 1664525) + 1013904223) >>> 0;
    const j = x % (i + 1);
    [cards[i], cards[j]] = [cards[j]!, cards[i]!];
  }
  const deal: Record<Seat, Card[]> = { N: [], E: [], S: [], W: [] };
  cards.forEach((card, i) => deal[seatAfter(dealer, 1 + (i % 4))].push(card));
  return deal;
}

/** Chooses a seat's card; return undefined for the default (the first legal card). */
export type Chooser = (seat: Seat, trick: number, hand: readonly Card[], legal: readonly Card[], deck: Deck) => Card | undefined;

/** Plays a deal out: each seat plays its first legal card unless `choose` says otherwise. */
export function playOut(preset: PresetId, dealer: Seat, deal: Record<Seat, Card[]>, choose?: Chooser): Card[][] {
  const deck = deckFor(PRESETS[preset]);
  const hands: Record<Seat, Card[]> = { N: [...deal.N], E: [...deal.E], S: [...deal.S], W: [...deal.W] };
  const plays: Card[][] = [];
  let leader = seatAfter(dealer);
  let broken = false;
  for (let t = 1; t <= 13; t++) {
    const trick: Card[] = [];
    for (let i = 0; i < 4; i++) {
      const seat = seatAfter(leader, i);
      const legal = legalPlays(deck, hands[seat], trick[0] ?? null, broken);
      const card = choose?.(seat, t, hands[seat], legal, deck) ?? legal[0]!;
      hands[seat].splice(hands[seat].indexOf(card), 1);
      trick.push(card);
    }
    if (trick.some((c) => deck.suit[c] === 0)) broken = true;
    plays.push(trick);
    leader = seatAfter(leader, trickWinnerIndex(deck, trick));
  }
  return plays;
}

/** Card names, as a record writes them. */
export function names(plays: readonly (readonly Card[])[]): string[][] {
  return plays.map((trick) => trick.map(cardName));
}

/** A deal as a record writes it. */
export function dealNames(deal: Record<Seat, Card[]>): Record<Seat, string[]> {
  return Object.fromEntries(SEATS.map((s) => [s, deal[s].map(cardName)])) as Record<Seat, string[]>;
}

/** A Chooser that makes `seat` renege once: at the first trick from `from` on where it holds the led suit and another. */
export function renegeOnce(who: Seat, from: number): Chooser {
  let done = false;
  return (seat, trick, hand, legal) => {
    if (done || seat !== who || trick < from) return undefined;
    const off = hand.filter((c) => !legal.includes(c));
    if (off.length === 0) return undefined;
    done = true;
    return off[0];
  };
}

/**
 * A whole unc-300 game picked up at 150–150: a played hand with a renege by W (upheld), a
 * misdeal, a redeal recorded by tricks only with a nil, and a played hand that ends it on target.
 */
export function fullGameRecord() {
  const deal1 = dealFor('unc-300', 'N', 2);
  return {
    format: 'spades-game/1',
    rules: 'unc-300',
    seats: { N: 'Ana', E: 'Ben', S: 'Cy', W: 'Dee' },
    dealer: 'N',
    start: { NS: { score: 150 }, EW: { score: 150 } },
    hands: [
      {
        dealer: 'N',
        deal: dealNames(deal1),
        bids: { E: 4, W: 2, N: 1, S: 3 },
        plays: names(playOut('unc-300', 'N', deal1, renegeOnce('W', 2))),
        reneges: [{ seat: 'W', trick: 2, upheld: true }],
      },
      { misdeal: 'no-face-cards' },
      {
        dealer: 'E',
        bids: { E: 3, W: 3, N: 'nil', S: 5 },
        tricks: { N: 0, E: 4, S: 6, W: 3 },
      },
      {
        dealer: 'S',
        bids: { W: 4, E: 4, N: 2, S: 2 },
        plays: names(playOut('unc-300', 'S', dealFor('unc-300', 'S', 7))),
      },
    ],
  };
}

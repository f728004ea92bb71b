/**
 * Tricks: who leads, who wins, what may be played, and what the recorded plays show.
 * Cards are physical, so the engine never refuses a recorded play for breaking a rule; it
 * reports reneges and illegal leads for a judge instead.
 */
import { type Card, type Seat, type Team, SEATS, cardName, seatAfter, seatIndex, teamOf } from './cards.ts';
import { type Deck, TRUMPS, beats, inDeck } from './deck.ts';

/** A rule broken at a trick: `trick` is 1-based. */
export interface Violation {
  seat: Seat;
  trick: number;
}

/** One trick as played: the leader and the cards in the order played (leader first). */
export interface PlayedTrick {
  leader: Seat;
  cards: Card[];
}

export interface PlayResult {
  /** Each trick with its leader; the last may be incomplete during a live hand. */
  tricks: PlayedTrick[];
  /** Winner of each complete trick. */
  winners: Seat[];
  /** Complete tricks won by each seat. */
  taken: Record<Seat, number>;
  /** The team that won each of the first 7 tricks, once 7 are complete; otherwise null. */
  firstSeven: Team | null;
  reneges: Violation[];
  illegalLeads: Violation[];
  /** Whose turn it is next, or null after 13 complete tricks. */
  next: Seat | null;
}

/** A play the engine cannot record at all (not a rule broken at the table, but an impossible record). */
export class PlayError extends Error {
  constructor(
    message: string,
    readonly trick: number,
  ) {
    super(message);
  }
}

/** Index (0…3, in play order) of the card that wins a complete trick. */
export function trickWinnerIndex(deck: Deck, cards: readonly Card[]): number {
  const led = deck.suit[cards[0]!]!;
  let best = 0;
  for (let i = 1; i < cards.length; i++) if (beats(deck, cards[i]!, cards[best]!, led)) best = i;
  return best;
}

/** The cards a seat may legally play from `hand`: follow the led suit if able; lead trumps only once broken or when holding nothing else. */
export function legalPlays(deck: Deck, hand: readonly Card[], led: Card | null, trumpsBroken: boolean): Card[] {
  if (led === null) {
    if (trumpsBroken) return [...hand];
    const nonTrumps = hand.filter((c) => deck.suit[c] !== TRUMPS);
    return nonTrumps.length > 0 ? nonTrumps : [...hand];
  }
  const suit = deck.suit[led]!;
  const following = hand.filter((c) => deck.suit[c] === suit);
  return following.length > 0 ? following : [...hand];
}

/**
 * Replays recorded plays: `plays` holds each trick's cards in the order played, the first led
 * by the dealer's left and each later one by the previous trick's winner. With `deal`, every
 * card must come from the hand of the seat playing it; without it, holdings are inferred
 * from the plays (a seat held at trick t every card it plays from trick t on).
 * Throws PlayError for an impossible record (unknown card, a card played twice, too many cards,
 * a card the deal did not give that seat).
 */
export function replayPlays(deck: Deck, dealer: Seat, plays: readonly (readonly Card[])[], deal?: Readonly<Record<Seat, readonly Card[]>>): PlayResult {
  if (plays.length > 13) throw new PlayError(`${plays.length} tricks were recorded; a hand has 13`, 14);
  const owner = new Int8Array(54).fill(-1);
  if (deal) for (const seat of SEATS) for (const card of deal[seat]) owner[card] = seatIndex(seat);

  const seen = new Uint8Array(54);
  const tricks: PlayedTrick[] = [];
  const winners: Seat[] = [];
  const taken: Record<Seat, number> = { N: 0, E: 0, S: 0, W: 0 };
  // playedAt[card] = 1-based trick in which it was played (0 = not yet).
  const playedAt = new Uint8Array(54);
  const playedBy = new Int8Array(54).fill(-1);
  let leader = seatAfter(dealer);

  for (let t = 0; t < plays.length; t++) {
    const cards = plays[t]!;
    const trickNo = t + 1;
    if (cards.length > 4) throw new PlayError(`trick ${trickNo} has ${cards.length} cards; a trick has 4`, trickNo);
    if (cards.length < 4 && t !== plays.length - 1) {
      throw new PlayError(`trick ${trickNo} has ${cards.length} cards; only the last trick may be incomplete`, trickNo);
    }
    for (let i = 0; i < cards.length; i++) {
      const card = cards[i]!;
      const seat = seatAfter(leader, i);
      if (!Number.isInteger(card) || card < 0 || card > 53 || !inDeck(deck, card)) {
        throw new PlayError(`trick ${trickNo}: ${cardLabel(card)} is not in this preset's deck`, trickNo);
      }
      if (seen[card]) throw new PlayError(`trick ${trickNo}: ${cardName(card)} was already played in trick ${playedAt[card]}`, trickNo);
      if (deal && owner[card] !== seatIndex(seat)) {
        const holder = owner[card]! >= 0 ? SEATS[owner[card]!] : 'no seat';
        throw new PlayError(`trick ${trickNo}: ${seat} played ${cardName(card)}, which the deal gave to ${holder}`, trickNo);
      }
      seen[card] = 1;
      playedAt[card] = trickNo;
      playedBy[card] = seatIndex(seat);
    }
    tricks.push({ leader, cards: [...cards] });
    if (cards.length === 4) {
      const winner = seatAfter(leader, trickWinnerIndex(deck, cards));
      winners.push(winner);
      taken[winner]++;
      leader = winner;
    }
  }

  const { reneges, illegalLeads } = findViolations(deck, tricks, (seat, trickNo) => {
    // The suits of every card the seat still held when the trick began.
    let suits = 0;
    if (deal) {
      for (const card of deal[seat]) if (playedAt[card] === 0 || playedAt[card]! >= trickNo) suits |= 1 << deck.suit[card]!;
    } else {
      const s = seatIndex(seat);
      for (let c = 0; c < 54; c++) if (playedBy[c] === s && playedAt[c]! >= trickNo) suits |= 1 << deck.suit[c]!;
    }
    return suits;
  });

  let firstSeven: Team | null = null;
  if (winners.length >= 7) {
    const team = teamOf(winners[0]!);
    if (winners.slice(0, 7).every((w) => teamOf(w) === team)) firstSeven = team;
  }
  const complete = plays.length === 13 && plays[12]!.length === 4;
  const last = tricks[tricks.length - 1];
  const next = complete ? null : last && last.cards.length < 4 ? seatAfter(last.leader, last.cards.length) : leader;
  return { tricks, winners, taken, firstSeven, reneges, illegalLeads, next };
}

/**
 * Reneges (not following the led suit while holding it) and illegal leads (leading a trump
 * before trumps are broken while holding another suit), trick by trick. `suitsHeld` gives the
 * suits a seat still held when a trick began, as a bit mask of effective suits.
 */
export function findViolations(
  deck: Deck,
  tricks: readonly PlayedTrick[],
  suitsHeld: (seat: Seat, trickNo: number) => number,
): { reneges: Violation[]; illegalLeads: Violation[] } {
  const reneges: Violation[] = [];
  const illegalLeads: Violation[] = [];
  const trumps = 1 << TRUMPS;
  let broken = false;
  for (let t = 0; t < tricks.length; t++) {
    const trick = tricks[t]!;
    const trickNo = t + 1;
    const lead = trick.cards[0];
    if (lead === undefined) continue;
    const led = deck.suit[lead]!;
    if (led === TRUMPS && !broken && (suitsHeld(trick.leader, trickNo) & ~trumps) !== 0) {
      illegalLeads.push({ seat: trick.leader, trick: trickNo });
    }
    for (let i = 1; i < trick.cards.length; i++) {
      const card = trick.cards[i]!;
      const seat = seatAfter(trick.leader, i);
      if (deck.suit[card] !== led && (suitsHeld(seat, trickNo) & (1 << led)) !== 0) reneges.push({ seat, trick: trickNo });
    }
    // A trump led or played on another suit breaks trumps for the tricks after this one.
    for (const card of trick.cards) if (deck.suit[card] === TRUMPS) broken = true;
  }
  return { reneges, illegalLeads };
}

function cardLabel(card: unknown): string {
  return typeof card === 'number' && card >= 0 && card < 54 ? cardName(card) : String(card);
}

/**
 * What a table's scorekeeper panel shows of a game, worked out with the engine from the game's
 * read model: whose turn it is, the bids open to them, the card grid with what each card would
 * break, the last entry in words, and a renege nobody has claimed yet. The view draws it.
 */
import {
  BIG_JOKER,
  type Card,
  LITTLE_JOKER,
  SEAT_NAMES,
  type Seat,
  SEATS,
  cardName,
  makeCard,
  otherTeam,
  parseCard,
  seatAfter,
  seatName,
  seatsOf,
} from '../../engine/cards.ts';
import { bidValue, biddingOrder } from '../../engine/bid.ts';
import { blindDeclarable } from '../../engine/blind-declaration.ts';
import type { RuleOptions } from '../../engine/presets.ts';
import type { BlindChance } from '../../views/blind-declaration.tsx';
import { type Deck, deckFor, inDeck, TRUMPS } from '../../engine/deck.ts';
import { resolveRules } from '../../engine/rules.ts';
import { legalPlays } from '../../engine/trick.ts';
import { handSoFar, nextBidder } from '../../events/game-projection.ts';
import type { GameModel, MatchModel, TournamentModel } from '../../events/read-models.ts';
import type { TournamentState } from '../../events/tournament-projection.ts';
import type { EntryCard, EntryGame, EntryPanelProps } from '../../views/entry-table.tsx';
import { roundHandWords } from '../../views/progressive-panels.tsx';
import { bidsOpenTo, dealerOfNextHand, lastEntryLabel } from '../commands/game-commands.ts';
import { tournamentLinks } from '../../events/addresses.ts';
import { cardText } from '../../engine/card-names.ts';

/** The rule a recorded card broke, as a sentence, or null when it broke none the engine can see. */
export function flagOf(game: GameModel, seat: Seat, card: string): string | null {
  const so = handSoFar(game);
  let trick: number | undefined;
  let reneges: { seat: Seat; trick: number }[] = [];
  let leads: { seat: Seat; trick: number }[] = [];
  if (so) {
    trick = so.tricks.length;
    reneges = so.reneges;
    leads = so.illegalLeads;
  } else {
    const row = game.rows[game.rows.length - 1];
    trick = 13;
    reneges = row?.reneges ?? [];
    leads = row?.illegalLeads ?? [];
  }
  if (reneges.some((r) => r.seat === seat && r.trick === trick))
    return `${SEAT_NAMES[seat]}’s ${cardText(card)} at trick ${trick} is a renege: ${SEAT_NAMES[seat]} held the suit led`;
  if (leads.some((r) => r.seat === seat && r.trick === trick))
    return `${SEAT_NAMES[seat]} led ${cardText(card)} at trick ${trick} before trumps were broken while holding another suit`;
  return null;
}

/** What the scorekeeper's panel needs of a game: worked out here with the engine, drawn by the view. */
/** The teams that may declare a blind bid before the next deal, where the rules have one said then, in the phone's words. */
function blindChances(game: GameModel, options: RuleOptions, name: (teamId: string) => string): BlindChance[] {
  return blindDeclarable(options, game.score).map(({ team, minimum }) => ({
    name: name(game.teams[team]),
    seats: seatsOf(team),
    behind: game.score[otherTeam(team)] - game.score[team],
    minimum,
  }));
}

export function entryGame(game: GameModel, name: (teamId: string) => string): EntryGame {
  const rules = resolveRules(game.rules);
  const deck = deckFor(rules.options);
  const current = game.current;
  const so = handSoFar(game);
  const bidder = nextBidder(game);
  const flags: string[] = [];
  for (const r of so?.reneges ?? []) flags.push(`renege by ${SEAT_NAMES[r.seat]} at trick ${r.trick}`);
  for (const l of so?.illegalLeads ?? []) flags.push(`trump led by ${SEAT_NAMES[l.seat]} at trick ${l.trick} before trumps were broken`);

  let play: EntryGame['play'] = null;
  if (current && !bidder && !current.tricks && so?.next) {
    const seat = so.next;
    const played = new Set(current.plays.flat());
    const last = so.tricks[so.tricks.length - 1];
    const open = last && last.cards.length < 4 ? last : null;
    const trickNo = open ? so.tricks.length : so.tricks.length + 1;
    const onTable = open ? open.cards.map((card, i) => ({ seat: seatAfter(open.leader, i), card: cardName(card) })) : [];
    const known = Boolean(current.deal);
    const broken = so.tricks.some((t) => t.cards.length === 4 && t.cards.some((c) => deck.suit[c] === TRUMPS));
    const holder = new Map<string, Seat>();
    if (current.deal) for (const s of SEATS) for (const n of current.deal[s]) holder.set(n, s);
    const hand = current.deal ? current.deal[seat].filter((n) => !played.has(n)).map((n) => parseCard(n)!) : null;
    const legal = hand ? new Set(legalPlays(deck, hand, open ? open.cards[0]! : null, broken)) : null;
    const cell = (card: Card): EntryCard => {
      const name = cardName(card);
      const mine = !hand || hand.includes(card);
      const breaks =
        legal && mine && !legal.has(card) ? (open ? `a renege: ${SEAT_NAMES[seat]} holds the suit led` : 'a trump lead before trumps are broken') : null;
      return {
        card: name,
        state: played.has(name) ? 'played' : mine ? 'open' : 'elsewhere',
        breaks,
        holder: holder.get(name) ?? null,
        suit: deck.suit[card]!,
        power: deck.power[card]!,
      };
    };
    play = {
      seat,
      trick: trickNo,
      hand: current.number,
      played: current.plays.reduce((n, t) => n + t.length, 0),
      leader: open ? open.leader : seat,
      onTable,
      trumpsBroken: broken,
      known,
      rows: cardGrid(deck).map((row) => ({ suit: row.suit, cells: row.cards.map((card) => (card === null ? null : cell(card))) })),
    };
  }

  const handsSoFar = game.hands.length + (current ? 1 : 0);
  const claimHands: number[] = [];
  for (let h = handsSoFar; h >= Math.max(1, handsSoFar - 2); h--) claimHands.push(h);
  const over = game.winner
    ? `${name(game.teams[game.winner])} won game ${game.number}, ${game.score[game.winner]} to ${game.score[game.winner === 'NS' ? 'EW' : 'NS']}.`
    : null;
  return {
    gameId: game.gameId,
    number: game.number,
    teams: { NS: name(game.teams.NS), EW: name(game.teams.EW) },
    seats: game.seats,
    score: game.score,
    over,
    deal: !current && !game.winner ? { hand: game.hands.length + 1, dealer: dealerOfNextHand(game), blind: blindChances(game, rules.options, name) } : null,
    hand: current
      ? { number: current.number, dealer: current.dealer, order: biddingOrder(rules.options, current.dealer), bids: current.bids, dealt: Boolean(current.deal) }
      : null,
    bidding: current && bidder ? { seat: bidder, options: bidsOpenTo(game, bidder).map(bidValue) } : null,
    play,
    quick: Boolean(current && !bidder && current.plays.length === 0 && !current.tricks),
    misdealReasons: current && current.plays.length === 0 ? rules.options.misdealReasons : [],
    flags,
    last: lastEntry(game),
    undo: game.winner ? null : lastEntryLabel(game),
    claimHands: game.winner ? [] : claimHands,
    finding: game.winner ? null : unclaimedFinding(game),
    openClaims: game.claims
      .filter((c) => !c.ruling)
      .map((c) => `Renege claimed against ${SEAT_NAMES[c.seat]}, hand ${c.hand}${c.trick !== null ? `, trick ${c.trick}` : ''}: waiting for a judge`),
  };
}

/**
 * The deck laid out as the scorekeeper's grid: one row a suit (spades, hearts, clubs,
 * diamonds, so the colours alternate), ace down to two, and the jokers on a row of their own.
 * A card the preset takes out of the deck leaves its place empty, so every card has the same
 * place in every hand of every game played with the preset.
 */
function cardGrid(deck: Deck): { suit: 'S' | 'H' | 'C' | 'D' | 'J'; cards: (Card | null)[] }[] {
  const rows: { suit: 'S' | 'H' | 'C' | 'D' | 'J'; cards: (Card | null)[] }[] = (['S', 'H', 'C', 'D'] as const).map((suit) => ({
    suit,
    cards: Array.from({ length: 13 }, (_, i) => {
      const card = makeCard(suit, 14 - i);
      return inDeck(deck, card) ? card : null;
    }),
  }));
  const jokers = [BIG_JOKER, LITTLE_JOKER].filter((card) => inDeck(deck, card));
  if (jokers.length > 0) rows.push({ suit: 'J', cards: jokers });
  return rows;
}

/** The last entry at the game since its deal, in words, with the rule a card broke. */
function lastEntry(game: GameModel): EntryGame['last'] {
  const last = game.recent?.[game.recent.length - 1];
  if (!last) return game.current ? { text: `Hand ${game.current.number} dealt; ${SEAT_NAMES[game.current.dealer]} dealt.`, flag: null } : null;
  switch (last.type) {
    case 'BidMade':
      return { text: `${SEAT_NAMES[last.seat!]} bid ${String(last.bid)}.`, flag: null };
    case 'CardPlayed':
      return { text: `${SEAT_NAMES[last.seat!]} played ${cardText(last.card!)}.`, flag: flagOf(game, last.seat!, last.card!) };
    case 'TricksRecorded':
      return { text: `Tricks of hand ${last.hand} recorded.`, flag: null };
    case 'MisdealCalled':
      return { text: `Misdeal called on hand ${last.hand}.`, flag: null };
    case 'RenegeClaimed':
      return { text: 'Renege claimed; a judge will rule.', flag: null };
    default:
      return null;
  }
}

/** The newest renege the engine finds in the recorded plays that nobody has claimed yet. */
function unclaimedFinding(game: GameModel): EntryGame['finding'] {
  const found: { seat: Seat; hand: number; trick: number }[] = [];
  game.rows.forEach((row) => row.reneges.forEach((r) => found.push({ seat: r.seat, hand: row.number, trick: r.trick })));
  let so = null;
  try {
    so = handSoFar(game);
  } catch {
    so = null;
  }
  if (game.current && so) for (const r of so.reneges) found.push({ seat: r.seat, hand: game.current.number, trick: r.trick });
  const open = found.filter((f) => !game.claims.some((c) => c.hand === f.hand && c.seat === f.seat && (c.trick === null || c.trick === f.trick)));
  return open[open.length - 1] ?? null;
}

/**
 * A refusal as the scorekeeper's phone shows it: the ledger's sentence without the internal ids
 * (game and match ids mean nothing at the table), seats by name, a capital and a full stop, and
 * then what to do. The API's JSON answers keep the ledger's own sentence.
 */
export function phoneWords(message: string): string {
  let s = message
    .replace(/^game \S+ hand (\d+): /, 'Hand $1: ')
    .replace(/^game \S+ is over/, 'This game is over')
    .replace(/^game \S+: /, '')
    .replace(/\bgame (?!\d)[\w.-]+/g, 'this game')
    .replace(/\bclaim [\w.-]+-c\d+/g, 'that claim')
    .replace(/\b([NESW])'s\b/g, (_, seat: string) => `${seatName(seat)}’s`)
    .replace(/\bnot ([NESW])\b(?!,)/g, (_, seat: string) => `not ${seatName(seat)}`)
    .replace(/(^|: |; )([NESW]) (deals|bids|was|must|is)\b/g, (_, before: string, seat: string, verb: string) => `${before}${seatName(seat)} ${verb}`)
    .replace(/against ([NESW])\b/g, (_, seat: string) => `against ${seatName(seat)}`)
    .trim();
  s = s.charAt(0).toUpperCase() + s.slice(1);
  if (!/[.!?]$/.test(s)) s += '.';
  if (!/nothing was recorded/i.test(s)) s += ' Nothing was recorded; this page shows where the table stands now.';
  return s;
}

/**
 * The latest round's match at a progressive table: the one in play, or the one just over, so
 * the table's phone keeps its round's game (and what comes next) until the next round seats it.
 */
export function roundAtTable(tournament: TournamentModel, table: number): MatchModel | undefined {
  return tournament.matches.filter((m) => m.side === 'table' && m.table === table).sort((a, b) => b.round - a.round)[0];
}

/** What a progressive table's phone says of its round: the hand in the evening's words, and whether the evening is over. */
export function eveningAtTable(state: TournamentState, round: number, game: GameModel | null): NonNullable<EntryPanelProps['evening']> {
  return {
    round,
    words: game ? roundHandWords(round, game) : null,
    roundsInEvent: state.format.rounds ?? 1,
    over: state.model.status === 'finished',
    standings: tournamentLinks(state.model.tournamentId).leaderboard,
  };
}

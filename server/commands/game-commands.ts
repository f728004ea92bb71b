/**
 * A game's entries at the table: the deal, bids, cards, tricks, taking back the last entry,
 * renege claims and rulings, misdeals and score corrections. Each is decided against the game's
 * read model and the engine's rules, and either refused with a sentence naming what was wrong
 * and where, or turned into the events to append to the game's stream.
 */
import { SEAT_NAMES as SEAT_WORDS, type Seat, SEATS, cardName, isSeat, parseCard, seatAfter, teamOf } from '../../engine/cards.ts';
import { type Bid, EVENT_RULES, bidValue, parseBid, teamBidProblem } from '../../engine/bid.ts';
import { blindAtTurnProblem, blindDeclarationProblem, bidsAtTurn } from '../../engine/blind-declaration.ts';
import { misdealWords } from '../../engine/rule-lines.ts';
import { MISDEAL_REASONS } from '../../engine/rule-options.ts';
import { deckFor, inDeck } from '../../engine/deck.ts';
import { resolveRules } from '../../engine/rules.ts';
import type { Decision } from '../../events/store/served-ledger.ts';
import { gameStream } from '../../events/streams.ts';
import type { ReadModels } from '../../events/projections.ts';
import type { GameModel } from '../../events/read-models.ts';
import { dealerOfNextHand, handSoFar, nextBidder } from '../../events/game-projection.ts';
import { gameById } from '../../events/lookup.ts';
import { cardText } from '../../engine/card-names.ts';
import { CommandError } from './command-error.ts';

function gameOf(models: ReadModels, gameId: string): GameModel {
  const game = gameById(models, gameId);
  if (!game) throw new CommandError(`game ${gameId} does not exist`, 404);
  return game;
}

/** Who deals the game's next hand (worked out in the projection, so every page names the same seat). */
export { dealerOfNextHand };

/** Starts the next hand: the dealer by the rotation, and the system's shuffle seed when it deals. */
export function dealHand(
  models: ReadModels,
  input: { gameId: string; seed?: string; deal?: Record<Seat, string[]>; dealer?: string; blind?: Partial<Record<Seat, number>> },
): Decision {
  const game = gameOf(models, input.gameId);
  if (game.winner) throw new CommandError(`game ${game.gameId} is over: ${game.teams[game.winner]} won`, 409);
  if (game.current) throw new CommandError(`game ${game.gameId}: hand ${game.current.number} is still being played`, 409);
  const hand = game.hands.length + 1;
  const dealer = dealerOfNextHand(game);
  // The table says who dealt; a dealer other than the rotation's is a mistake to catch now.
  if (input.dealer !== undefined && input.dealer !== dealer) {
    const said = isSeat(input.dealer) ? input.dealer : `'${String(input.dealer)}'`;
    throw new CommandError(`game ${game.gameId} hand ${hand}: ${dealer} deals this hand by the rotation of the deal, not ${said}`, 409);
  }
  const payload: Record<string, unknown> = { gameId: game.gameId, hand, dealer };
  if (input.seed !== undefined) payload.seed = input.seed;
  // Blind bids declared before the deal (Pitt Boss), held to the rules and the score before the hand.
  const blind = Object.fromEntries(SEATS.filter((s) => input.blind?.[s] !== undefined).map((s) => [s, input.blind![s]!]));
  if (Object.keys(blind).length > 0) {
    const problem = blindDeclarationProblem(resolveRules(game.rules).options, blind, scoresBefore(game));
    if (problem) throw new CommandError(`game ${game.gameId} hand ${hand}: ${problem}`);
    payload.blind = blind;
  }
  if (input.deal) {
    const deck = deckFor(resolveRules(game.rules).options);
    const seen = new Set<string>();
    for (const seat of SEATS) {
      const cards = input.deal[seat];
      if (cards?.length !== 13) throw new CommandError(`game ${game.gameId} hand ${hand}: ${seat} must be dealt 13 cards`);
      for (const name of cards) {
        const card = parseCard(name);
        if (card === null || !inDeck(deck, card)) throw new CommandError(`game ${game.gameId} hand ${hand}: ${seat}'s ${name} is not in this deck`);
        if (seen.has(cardName(card))) throw new CommandError(`game ${game.gameId} hand ${hand}: ${cardName(card)} is dealt twice`);
        seen.add(cardName(card));
      }
    }
    payload.deal = Object.fromEntries(SEATS.map((s) => [s, input.deal![s].map((n) => cardName(parseCard(n)!))]));
  }
  return { stream: gameStream(game.gameId), events: [{ type: 'HandDealt', payload }] };
}

/** The bids the next bidder may make, in bid-pad order. */
export function bidsOpenTo(game: GameModel, seat: Seat): Bid[] {
  const current = game.current!;
  const bids: Partial<Record<Seat, Bid>> = {};
  for (const s of SEATS) if (current.bids[s] !== undefined) bids[s] = parseBid(current.bids[s])!;
  // Where blind bids are declared before the deal, none is open once the cards are out.
  return bidsAtTurn(resolveRules(game.rules).options, seat, bids, scoresBefore(game));
}

function scoresBefore(game: GameModel) {
  return { NS: game.score.NS, EW: game.score.EW };
}

/** Records a seat's bid, in the preset's order, refusing a bid the preset does not allow. */
export function makeBid(models: ReadModels, input: { gameId: string; seat: string; bid: unknown }): Decision {
  const game = gameOf(models, input.gameId);
  const current = game.current;
  if (!current) throw new CommandError(`game ${game.gameId}: no hand is being dealt; deal the next hand first`, 409);
  if (!isSeat(input.seat)) throw new CommandError(`seat must be N, E, S or W, not '${String(input.seat)}'`);
  const where = `game ${game.gameId} hand ${current.number}`;
  const seat = input.seat;
  const expected = nextBidder(game);
  if (expected === null) throw new CommandError(`${where}: all four seats have bid`, 409);
  if (seat !== expected) throw new CommandError(`${where}: it is ${expected}'s turn to bid, not ${seat}'s`, 409);
  const bid = parseBid(input.bid);
  if (!bid) throw new CommandError(`${where}: ${seat}'s bid ${JSON.stringify(input.bid)} is not a bid; bids are 0–13, "nil", "blind nil" or "blind N"`);
  const rules = resolveRules(game.rules);
  const late = blindAtTurnProblem(rules.options, bid);
  if (late) throw new CommandError(`${where}: ${late}`);
  const open = bidsOpenTo(game, seat);
  if (!open.some((b) => bidValue(b) === bidValue(bid))) {
    // Ask the engine for the sentence: which rule the bid breaks.
    const partner = seatAfter(seat, 2);
    const trial: Record<Seat, Bid> = { N: bid, E: bid, S: bid, W: bid };
    for (const s of SEATS) if (current.bids[s] !== undefined) trial[s] = parseBid(current.bids[s])!;
    trial[seat] = bid;
    if (current.bids[partner] === undefined) trial[partner] = bid.kind === 'blind' ? bid : { kind: 'number', tricks: 13 };
    // Only the bidder's own team is asked about: the other team's seats are placeholders here.
    const reason =
      teamBidProblem(rules.options, teamOf(seat), trial, scoresBefore(game), EVENT_RULES) ?? `${seat} may not bid ${bidValue(bid)} under this event’s rules`;
    throw new CommandError(`${where}: ${reason}`);
  }
  return { stream: gameStream(game.gameId), events: [{ type: 'BidMade', payload: { gameId: game.gameId, hand: current.number, seat, bid: bidValue(bid) } }] };
}

/**
 * Where a tap was made: the hand and how many cards of it had been recorded when the
 * scorekeeper tapped. A tap that reaches the ledger after the table has moved on (a second tap
 * of a double tap, an entry sent again after a network drop, another phone at the table) is
 * refused rather than recorded for whichever seat plays next.
 */
export interface TapPlace {
  hand?: number;
  played?: number;
}

/**
 * Records a card as played. Cards are physical: a card that breaks a rule (a renege, an
 * illegal lead) is recorded and flagged, but a card that cannot be on the table (not in the
 * deck, already played, not the seat's turn, not in the seat's dealt hand) is refused, and so
 * is a tap made for a moment of the hand that has passed (`expect`).
 */
export function playCard(models: ReadModels, input: { gameId: string; seat: string; card: string; expect?: TapPlace }): Decision {
  const game = gameOf(models, input.gameId);
  const current = game.current;
  const expected = input.expect ?? {};
  if (!current) {
    if (expected.hand !== undefined) {
      throw new CommandError(`game ${game.gameId}: this tap was for hand ${expected.hand}, which is over; nothing was recorded`, 409);
    }
    throw new CommandError(`game ${game.gameId}: no hand is being played`, 409);
  }
  const where = `game ${game.gameId} hand ${current.number}`;
  if (nextBidder(game) !== null) throw new CommandError(`${where}: bidding is not finished; ${nextBidder(game)} bids next`, 409);
  if (!isSeat(input.seat)) throw new CommandError(`seat must be N, E, S or W, not '${String(input.seat)}'`);
  const card = parseCard(String(input.card));
  const deck = deckFor(resolveRules(game.rules).options);
  if (card === null || !inDeck(deck, card)) throw new CommandError(`${where}: ${String(input.card)} is not a card of this deck`);
  const so = handSoFar(game)!;
  const played = current.plays.reduce((n, trick) => n + trick.length, 0);
  if ((expected.hand !== undefined && expected.hand !== current.number) || (expected.played !== undefined && expected.played !== played)) {
    const tapped =
      expected.played !== undefined
        ? `card ${expected.played + 1} of hand ${expected.hand ?? current.number} (trick ${Math.floor(expected.played / 4) + 1})`
        : `hand ${expected.hand}`;
    const now = so.next ? `${SEAT_WORDS[so.next]} is to play card ${played + 1} (trick ${Math.floor(played / 4) + 1})` : 'the hand is complete';
    throw new CommandError(
      `${where}: ${cardText(cardName(card))} was tapped for ${SEAT_WORDS[input.seat]} as ${tapped}, but the table has moved on: ${now}. Nothing was recorded; tap the card again if it is still to be entered`,
      409,
    );
  }
  if (so.next !== input.seat) throw new CommandError(`${where}: it is ${so.next}'s turn to play, not ${input.seat}'s`, 409);
  const name = cardName(card);
  if (current.plays.some((trick) => trick.includes(name))) throw new CommandError(`${where}: ${name} has already been played`, 409);
  if (current.deal && !current.deal[input.seat].includes(name)) {
    throw new CommandError(`${where}: ${input.seat} was not dealt ${name}`);
  }
  return {
    stream: gameStream(game.gameId),
    events: [{ type: 'CardPlayed', payload: { gameId: game.gameId, hand: current.number, seat: input.seat, card: name } }],
  };
}

/** Quick mode: records the tricks each seat took, for tables that do not track cards. */
export function recordTricks(models: ReadModels, input: { gameId: string; tricks: Record<string, unknown> }): Decision {
  const game = gameOf(models, input.gameId);
  const current = game.current;
  if (!current) throw new CommandError(`game ${game.gameId}: no hand is being played`, 409);
  const where = `game ${game.gameId} hand ${current.number}`;
  if (nextBidder(game) !== null) throw new CommandError(`${where}: bidding is not finished`, 409);
  if (current.plays.length > 0) throw new CommandError(`${where}: cards are being recorded for this hand; finish the plays instead`, 409);
  const tricks = {} as Record<Seat, number>;
  let sum = 0;
  for (const seat of SEATS) {
    const n = input.tricks[seat];
    if (typeof n !== 'number' || !Number.isInteger(n) || n < 0 || n > 13) throw new CommandError(`${where}: ${seat}'s tricks must be a whole number 0–13`);
    tricks[seat] = n;
    sum += n;
  }
  if (sum !== 13) throw new CommandError(`${where}: tricks add up to ${sum}; a hand has 13`);
  return { stream: gameStream(game.gameId), events: [{ type: 'TricksRecorded', payload: { gameId: game.gameId, hand: current.number, tricks } }] };
}

/** A renege claim against a seat, pointing at a trick of the hand in progress or an earlier hand. */
export function claimRenege(models: ReadModels, input: { gameId: string; claimId: string; hand?: number; seat: string; trick?: number | null }): Decision {
  const game = gameOf(models, input.gameId);
  if (!isSeat(input.seat)) throw new CommandError(`seat must be N, E, S or W, not '${String(input.seat)}'`);
  const hand = input.hand ?? game.current?.number ?? game.hands.length;
  if (hand < 1 || hand > game.hands.length + (game.current ? 1 : 0)) throw new CommandError(`game ${game.gameId}: there is no hand ${hand}`);
  const trick = input.trick ?? null;
  if (trick !== null && (!Number.isInteger(trick) || trick < 1 || trick > 13)) throw new CommandError(`game ${game.gameId} hand ${hand}: trick must be 1–13`);
  if (game.claims.some((c) => c.claimId === input.claimId)) throw new CommandError(`claim ${input.claimId} already exists`, 409);
  return {
    stream: gameStream(game.gameId),
    events: [{ type: 'RenegeClaimed', payload: { gameId: game.gameId, claimId: input.claimId, hand, seat: input.seat, trick } }],
  };
}

/** A judge's ruling on an open claim; the preset's penalty follows from it. */
export function giveRuling(models: ReadModels, input: { gameId: string; claimId: string; upheld: boolean; note: string; judge: string }): Decision {
  const game = gameOf(models, input.gameId);
  const claim = game.claims.find((c) => c.claimId === input.claimId);
  if (!claim) throw new CommandError(`game ${game.gameId}: claim ${input.claimId} does not exist`, 404);
  if (claim.ruling) throw new CommandError(`claim ${input.claimId} was already ruled on by ${claim.ruling.judge}`, 409);
  return {
    stream: gameStream(game.gameId),
    events: [{ type: 'RulingGiven', payload: { gameId: game.gameId, claimId: input.claimId, upheld: input.upheld, note: input.note, judge: input.judge } }],
  };
}

/** A misdeal called at the table, for one of the reasons the preset allows; the hand is dealt again. */
export function callMisdeal(models: ReadModels, input: { gameId: string; reason: string }): Decision {
  const game = gameOf(models, input.gameId);
  const current = game.current;
  if (!current) throw new CommandError(`game ${game.gameId}: no hand is being played, so there is no deal to call a misdeal on`, 409);
  const where = `game ${game.gameId} hand ${current.number}`;
  const rules = resolveRules(game.rules);
  const reasons = rules.options.misdealReasons;
  if (!reasons.includes(input.reason)) {
    // Said in the rules sheet's words: the reason given (an unknown one as sent), and those that stand.
    const given = MISDEAL_REASONS.some((r) => r.value === input.reason) ? misdealWords(input.reason) : `'${String(input.reason)}'`;
    throw new CommandError(`${where}: ${given} is not a misdeal under this event’s rules; a misdeal is called for ${reasons.map(misdealWords).join('; or ')}`);
  }
  if (current.plays.length > 0) {
    throw new CommandError(`${where}: cards have been played; a misdeal is called before the first lead, and a judge settles anything later`, 409);
  }
  return { stream: gameStream(game.gameId), events: [{ type: 'MisdealCalled', payload: { gameId: game.gameId, hand: current.number, reason: input.reason } }] };
}

const ENTRY_NAMES: Record<string, string> = {
  RenegeClaimed: 'a renege claim',
  RulingGiven: 'a judge’s ruling',
  ScoreCorrected: 'a judge’s score correction',
  RulingWithdrawn: 'a judge’s withdrawal of a ruling',
  TimeCalled: 'the time call',
};

/**
 * Takes back the game's last entry (a bid, a card, the tricks or a misdeal) with a compensating
 * event; the entry itself stays in the ledger. Anything recorded after it, or a finished game,
 * is for a judge.
 */
export function undoLastEntry(models: ReadModels, input: { gameId: string }): Decision {
  const game = gameOf(models, input.gameId);
  if (game.winner) {
    throw new CommandError(
      `game ${game.gameId} is over (${game.teams[game.winner]} won); a finished game is changed by a judge’s correction, not by undo`,
      409,
    );
  }
  const last = game.recent?.[game.recent.length - 1];
  if (!last) {
    const hand = game.current?.number;
    throw new CommandError(
      hand
        ? `game ${game.gameId} hand ${hand}: nothing has been entered since the deal; the deal itself is not undone`
        : `game ${game.gameId}: nothing has been entered yet`,
      409,
    );
  }
  const what = ENTRY_NAMES[last.type];
  if (what || last.hand === null) {
    throw new CommandError(
      `game ${game.gameId}: the last thing recorded is ${what ?? last.type}${last.seat ? ` (against ${last.seat})` : ''}; undo takes back only a bid, a card, tricks or a misdeal — ask a judge`,
      409,
    );
  }
  return {
    stream: gameStream(game.gameId),
    events: [{ type: 'EntryUndone', payload: { gameId: game.gameId, hand: last.hand, undone: last.position, entry: last.type } }],
  };
}

/** What an undo would take back, in words ("N’s bid of 4"), or null when there is nothing to undo. */
export function lastEntryLabel(game: GameModel): string | null {
  const last = game.recent?.[game.recent.length - 1];
  if (!last || ENTRY_NAMES[last.type]) return null;
  switch (last.type) {
    case 'BidMade':
      return `${last.seat ? SEAT_WORDS[last.seat] : 'the'}’s bid of ${String(last.bid)}`;
    case 'CardPlayed':
      return `${last.seat ? SEAT_WORDS[last.seat] : 'the'}’s ${cardText(last.card ?? '')}`;
    case 'TricksRecorded':
      return `the tricks of hand ${last.hand}`;
    case 'MisdealCalled':
      return `the misdeal of hand ${last.hand}`;
    default:
      return null;
  }
}

/** A judge's correction of a game's points, with the reason; it is added on top of the scored hands. */
export function correctScore(models: ReadModels, input: { gameId: string; points: { NS: number; EW: number }; reason: string; judge: string }): Decision {
  const game = gameOf(models, input.gameId);
  for (const team of ['NS', 'EW'] as const) {
    const n = input.points[team];
    if (!Number.isSafeInteger(n) || Math.abs(n) > 2000)
      throw new CommandError(`game ${game.gameId}: the correction for ${team} must be a whole number of points from -2000 to 2000`);
  }
  if (input.points.NS === 0 && input.points.EW === 0) throw new CommandError(`game ${game.gameId}: a correction of 0 points to each team changes nothing`);
  if (!input.reason.trim()) throw new CommandError(`game ${game.gameId}: a score correction says why (what the judge found)`);
  return {
    stream: gameStream(game.gameId),
    events: [
      {
        type: 'ScoreCorrected',
        payload: { gameId: game.gameId, points: { NS: input.points.NS, EW: input.points.EW }, reason: input.reason.trim(), judge: input.judge },
      },
    ],
  };
}

/**
 * The game projection: folds a game's events into the game as a `spades-game/1` record plus
 * the hand in progress and its claims, and scores the record with the engine's own scorer.
 * So a game exported as a record and scored offline gives exactly the scores shown live.
 */
import { type Seat, type Team, SEATS, cardName, parseCard } from '../engine/cards.ts';
import { biddingOrder, parseBid } from '../engine/bid.ts';
import { deckFor } from '../engine/deck.ts';
import { type GameState, nextDealer } from '../engine/game.ts';
import { dealFromSeed } from '../engine/random.ts';
import { type HandResult, RecordError, RECORD_FORMAT, readHeader, scoreNextHand, startRecordGame } from '../engine/record.ts';
import { resolveRules } from '../engine/rules.ts';
import { type TeamHandScore, isSixFour } from '../engine/scoring.ts';
import { PlayError, replayPlays } from '../engine/trick.ts';
import type {
  BidMade,
  CardPlayed,
  EntryUndone,
  GameStarted,
  HandDealt,
  MisdealCalled,
  RenegeClaimed,
  RulingGiven,
  RulingWithdrawn,
  ScoreCorrected,
  TimeCalled,
  TricksRecorded,
} from './event-catalogue.ts';
import type { GameModel, HandInProgress, HandOutcome, HandRow, RecentEntry, RecordHand } from './read-models.ts';

/** The game's events as the projection sees them, with the time each was appended. */
export type GameEvent = GameEventBody & { readonly at: string };

type GameEventBody =
  | { type: 'GameStarted'; payload: GameStarted }
  | { type: 'HandDealt'; payload: HandDealt }
  | { type: 'BidMade'; payload: BidMade }
  | { type: 'CardPlayed'; payload: CardPlayed }
  | { type: 'TricksRecorded'; payload: TricksRecorded }
  | { type: 'MisdealCalled'; payload: MisdealCalled }
  | { type: 'RenegeClaimed'; payload: RenegeClaimed }
  | { type: 'RulingGiven'; payload: RulingGiven }
  | { type: 'ScoreCorrected'; payload: ScoreCorrected }
  | { type: 'RulingWithdrawn'; payload: RulingWithdrawn }
  | { type: 'TimeCalled'; payload: TimeCalled }
  | { type: 'EntryUndone'; payload: EntryUndone };

/** Every event type the game fold takes (`GameEvent`). A time call is also the match's. */
export const GAME_EVENT_TYPES: ReadonlySet<string> = new Set<GameEvent['type']>([
  'GameStarted',
  'HandDealt',
  'BidMade',
  'CardPlayed',
  'TricksRecorded',
  'MisdealCalled',
  'RenegeClaimed',
  'RulingGiven',
  'ScoreCorrected',
  'RulingWithdrawn',
  'TimeCalled',
  'EntryUndone',
]);

/** A new game model from its first event. */
export function startGame(e: GameStarted): GameModel {
  return {
    gameId: e.gameId,
    matchId: e.matchId,
    tournamentId: e.tournamentId,
    number: e.number,
    rules: e.rules,
    teams: e.teams,
    seats: e.seats,
    dealer: e.dealer,
    ...(e.start ? { start: e.start } : {}),
    hands: [],
    handPositions: [],
    current: null,
    claims: [],
    corrections: [],
    timeCalled: null,
    rows: [],
    score: { NS: e.start?.NS.score ?? 0, EW: e.start?.EW.score ?? 0 },
    bags: { NS: e.start?.NS.bags ?? 0, EW: e.start?.EW.bags ?? 0 },
    sets: { NS: e.start?.NS.sets ?? 0, EW: e.start?.EW.sets ?? 0 },
    winner: null,
    reason: null,
    abandoned: false,
    scoring: null,
  };
}

/**
 * Folds one event into the game (mutating the model the projection owns). Returns true when
 * the game's score may have changed.
 */
export function evolveGame(game: GameModel, event: GameEvent, position: number): boolean {
  noteRecent(game, event, position);
  switch (event.type) {
    case 'GameStarted':
      return false;
    case 'HandDealt': {
      const e = event.payload;
      const current: HandInProgress = { number: e.hand, dealer: e.dealer, bids: {}, plays: [], playPositions: [] };
      // Blind bids declared before the deal are the team's bids, made before anyone else's.
      for (const [seat, tricks] of Object.entries(e.blind ?? {})) current.bids[seat as Seat] = `blind ${tricks}`;
      if (e.deal) current.deal = e.deal;
      else if (e.seed !== undefined) {
        const deck = deckFor(resolveRules(game.rules).options);
        const dealt = dealFromSeed(deck, e.seed, e.dealer);
        current.deal = Object.fromEntries(SEATS.map((s) => [s, dealt[s].map(cardName)])) as Record<Seat, string[]>;
      }
      game.current = current;
      return false;
    }
    case 'BidMade': {
      const current = game.current;
      if (!current) return false;
      current.bids[event.payload.seat] = event.payload.bid;
      if (SEATS.every((s) => current.bids[s] !== undefined)) {
        const options = resolveRules(game.rules).options;
        const bids = Object.fromEntries(SEATS.map((s) => [s, parseBid(current.bids[s])!])) as Record<Seat, NonNullable<ReturnType<typeof parseBid>>>;
        // The asher 6-4 hand is settled by its bids alone: it closes without play.
        if (isSixFour(options, bids)) return closeHand(game, position);
      }
      return false;
    }
    case 'CardPlayed': {
      const current = game.current;
      if (!current) return false;
      const last = current.plays[current.plays.length - 1];
      if (!last || last.length === 4) {
        current.plays.push([event.payload.card]);
        current.playPositions.push([position]);
      } else {
        last.push(event.payload.card);
        current.playPositions[current.playPositions.length - 1]!.push(position);
      }
      if (current.plays.length === 13 && current.plays[12]!.length === 4) return closeHand(game, position);
      return false;
    }
    case 'TricksRecorded': {
      const current = game.current;
      if (!current) return false;
      current.tricks = event.payload.tricks;
      if (event.payload.firstSeven) current.firstSeven = event.payload.firstSeven;
      return closeHand(game, position);
    }
    case 'MisdealCalled': {
      const current = game.current;
      game.closedHand = current ? structuredClone(current) : null;
      game.hands.push({ dealer: current?.dealer ?? game.dealer, misdeal: event.payload.reason });
      game.handPositions.push(position);
      game.current = null;
      return scoreLastHand(game);
    }
    case 'RenegeClaimed': {
      const e = event.payload;
      game.claims.push({ claimId: e.claimId, gameId: e.gameId, hand: e.hand, seat: e.seat, trick: e.trick, position, at: event.at });
      return false;
    }
    case 'RulingGiven': {
      const claim = game.claims.find((c) => c.claimId === event.payload.claimId);
      if (!claim) return false;
      claim.ruling = { upheld: event.payload.upheld, note: event.payload.note, judge: event.payload.judge, position, at: event.at };
      // A ruling on a hand already closed changes that hand's score and everything after it.
      const record = game.hands[claim.hand - 1];
      if (record && !record.misdeal) {
        record.reneges = renegesFor(game, claim.hand);
        return rescore(game);
      }
      return false;
    }
    case 'ScoreCorrected': {
      game.corrections.push({ points: event.payload.points, reason: event.payload.reason, judge: event.payload.judge, position, at: event.at });
      return rescore(game);
    }
    case 'RulingWithdrawn':
      return withdrawRuling(game, event.payload, position, event.at);
    case 'TimeCalled': {
      game.timeCalled = event.payload.hand;
      return rescore(game);
    }
    case 'EntryUndone':
      return undoEntry(game, event.payload);
    default: {
      const _exhaustive: never = event;
      return _exhaustive;
    }
  }
}

/**
 * Withdraws a ruling on a renege claim or a score correction: it stays on the game as given,
 * marked withdrawn, and the game is scored again without it. A ruling already withdrawn, or one
 * the game does not have, changes nothing.
 */
function withdrawRuling(game: GameModel, e: RulingWithdrawn, position: number, at: string): boolean {
  const withdrawal = { reason: e.reason, judge: e.judge, position, at };
  if (e.claimId !== undefined) {
    const claim = game.claims.find((c) => c.claimId === e.claimId);
    if (!claim?.ruling || claim.ruling.withdrawn) return false;
    claim.ruling.withdrawn = withdrawal;
    const record = game.hands[claim.hand - 1];
    if (!record || record.misdeal) return false;
    const reneges = renegesFor(game, claim.hand);
    if (reneges.length > 0) record.reneges = reneges;
    else delete record.reneges;
    return rescore(game);
  }
  const correction = game.corrections.find((c) => c.position === e.correction);
  if (!correction || correction.withdrawn) return false;
  correction.withdrawn = withdrawal;
  return rescore(game);
}

function renegesFor(game: GameModel, hand: number): NonNullable<RecordHand['reneges']> {
  return game.claims
    .filter((c) => c.hand === hand && c.ruling && !c.ruling.withdrawn)
    .map((c) => ({ seat: c.seat, ...(c.trick !== null ? { trick: c.trick } : {}), upheld: c.ruling!.upheld }));
}

function closeHand(game: GameModel, position: number): boolean {
  const current = game.current!;
  const hand: RecordHand = { dealer: current.dealer, bids: { ...current.bids } };
  if (current.deal) hand.deal = current.deal;
  if (current.plays.length > 0) hand.plays = current.plays.map((t) => [...t]);
  if (current.tricks) hand.tricks = current.tricks;
  if (current.firstSeven) hand.firstSeven = current.firstSeven;
  const reneges = renegesFor(game, current.number);
  if (reneges.length > 0) hand.reneges = reneges;
  game.hands.push(hand);
  game.handPositions.push(position);
  // The hand in progress ends here, so it is kept as it was rather than copied.
  game.closedHand = current;
  game.current = null;
  return scoreLastHand(game);
}

/**
 * Keeps what was recorded since the last deal, so the undo command can see the last entry and
 * whether a claim, ruling or correction came after it.
 */
function noteRecent(game: GameModel, event: GameEvent, position: number): void {
  if (event.type === 'HandDealt') {
    game.recent = [];
    game.closedHand = null;
    return;
  }
  if (event.type === 'GameStarted' || event.type === 'EntryUndone') return;
  // Cards and bids, nearly every entry, are noted whole in one step.
  if (event.type === 'CardPlayed') {
    (game.recent ??= []).push({ type: event.type, position, hand: event.payload.hand, seat: event.payload.seat, card: event.payload.card });
    return;
  }
  if (event.type === 'BidMade') {
    (game.recent ??= []).push({ type: event.type, position, hand: event.payload.hand, seat: event.payload.seat, bid: event.payload.bid });
    return;
  }
  const e = event.payload as { hand?: number; seat?: RecentEntry['seat']; card?: string; bid?: RecentEntry['bid']; claimId?: string };
  const entry: RecentEntry = { type: event.type, position, hand: e.hand ?? null };
  if (e.seat !== undefined) entry.seat = e.seat;
  if (e.card !== undefined) entry.card = e.card;
  if (e.bid !== undefined) entry.bid = e.bid;
  if (e.claimId !== undefined) entry.claimId = e.claimId;
  (game.recent ??= []).push(entry);
}

/**
 * Takes back the last entry: out of the hand in progress, or, when that entry closed the hand
 * (its last card, its tricks, a six-four bid, a misdeal), by reopening the hand and scoring the
 * game again without it. An undo that does not name the last entry changes nothing.
 */
function undoEntry(game: GameModel, e: EntryUndone): boolean {
  const recent = game.recent ?? [];
  const last = recent[recent.length - 1];
  if (!last || last.position !== e.undone || last.type !== e.entry) return false;
  recent.pop();
  let reopened = false;
  if (!game.current || game.current.number !== e.hand) {
    const closed = game.closedHand;
    if (!closed || closed.number !== e.hand || game.hands.length !== e.hand) return false;
    game.hands.pop();
    game.handPositions.pop();
    game.current = closed;
    game.closedHand = null;
    reopened = true;
  }
  const current = game.current!;
  switch (e.entry) {
    case 'BidMade':
      if (last.seat) delete current.bids[last.seat];
      break;
    case 'CardPlayed': {
      const trick = current.plays[current.plays.length - 1];
      trick?.pop();
      current.playPositions[current.playPositions.length - 1]?.pop();
      if (trick && trick.length === 0) {
        current.plays.pop();
        current.playPositions.pop();
      }
      break;
    }
    case 'TricksRecorded':
      delete current.tricks;
      delete current.firstSeven;
      break;
    case 'MisdealCalled':
      break;
    default: {
      const _exhaustive: never = e.entry;
      return _exhaustive;
    }
  }
  return reopened ? rescore(game) : false;
}

/** The game as a spades-game/1 record. */
export function gameRecord(game: GameModel): Record<string, unknown> {
  const record: Record<string, unknown> = { format: RECORD_FORMAT, rules: game.rules };
  if (Object.keys(game.seats).length > 0) record.seats = game.seats;
  record.dealer = game.dealer;
  if (game.start) record.start = game.start;
  if (game.timeCalled !== null && game.timeCalled <= game.hands.length) record.timeCalled = game.timeCalled;
  record.hands = game.hands;
  return record;
}

/**
 * Scores the whole game again from its record: after a ruling, a time call or a correction,
 * which may change hands already scored.
 */
function rescore(game: GameModel): boolean {
  return scoring(game, () => {
    const header = readHeader(gameRecord(game), { shapeChecked: true });
    let state = startRecordGame(header);
    const rows: HandRow[] = [];
    header.hands.forEach((raw, i) => {
      const next = scoreNextHand(header, state, raw, i + 1, { shapeChecked: true });
      state = next.state;
      rows.push(rowOf(game, i, next.result, next.tricks, next.state));
    });
    game.rows = rows;
    game.scoring = state;
  });
}

/** Scores the hand just closed on top of the game so far: the same step a whole record takes. */
function scoreLastHand(game: GameModel): boolean {
  if (!game.scoring) return rescore(game);
  const i = game.hands.length - 1;
  return scoring(game, () => {
    const next = scoreNextHand({ rules: game.scoring!.rules, timeCalled: game.timeCalled }, game.scoring!, game.hands[i], i + 1, { shapeChecked: true });
    game.scoring = next.state;
    game.rows.push(rowOf(game, i, next.result, next.tricks, next.state));
  });
}

/**
 * Runs a scoring step and settles the totals. Commands are checked before they are appended,
 * so a record that cannot be scored only comes from a ledger written by something else: the
 * last good scores stay, and the game says what is wrong.
 */
function scoring(game: GameModel, step: () => void): boolean {
  try {
    step();
  } catch (error) {
    if (error instanceof RecordError) {
      game.problem = error.message;
      game.scoring = null;
      return false;
    }
    throw error;
  }
  delete game.problem;
  settle(game);
  keepForUndo(game);
  return true;
}

function rowOf(game: GameModel, i: number, line: HandResult, tricks: Readonly<Record<Seat, number>> | null, after: GameState): HandRow {
  const hand = game.hands[i]!;
  const scored = hand.misdeal ? null : after.last;
  const previous = game.rows[i - 1];
  const dealer = hand.dealer ?? previous?.dealer ?? game.dealer;
  return {
    number: i + 1,
    dealer,
    ...(hand.misdeal ? { misdeal: hand.misdeal } : {}),
    ...(hand.bids ? { bids: hand.bids } : {}),
    // The tricks as the scorer counted them (from the plays when the hand was recorded card by card).
    ...(tricks ? { tricks: { ...tricks } } : {}),
    NS: line.NS,
    EW: line.EW,
    reneges: line.reneges,
    illegalLeads: line.illegalLeads,
    ...(scored ? { outcome: { NS: outcomeOf(after, scored.teams.NS), EW: outcomeOf(after, scored.teams.EW) } } : {}),
    position: game.handPositions[i]!,
  };
}

function outcomeOf(after: GameState, team: TeamHandScore): HandOutcome {
  return { set: team.set, bags: after.rules.options.bagsCounted ? team.overtricks : 0, bagPenalties: team.bagPenalties, counted: team.counted };
}

/** The game's totals from the engine's state, with judges' corrections on top. */
function settle(game: GameModel): void {
  const state = game.scoring!;
  const correction = (team: Team) => game.corrections.reduce((sum, c) => sum + (c.withdrawn ? 0 : (c.points[team] ?? 0)), 0);
  game.score = { NS: state.teams.NS.score + correction('NS'), EW: state.teams.EW.score + correction('EW') };
  game.bags = { NS: state.teams.NS.bags, EW: state.teams.EW.bags };
  game.sets = { NS: state.teams.NS.sets, EW: state.teams.EW.sets };
  game.winner = state.winner;
  game.reason = state.reason;
}

/**
 * A finished game takes no undo (a judge changes it), so of what was recorded since its last
 * deal only the last entry is kept, for the entry page to show, and the hand an undo would
 * reopen is let go: they would otherwise be carried in every game of every snapshot.
 */
function keepForUndo(game: GameModel): void {
  if (!game.winner) return;
  if (game.recent && game.recent.length > 1) game.recent = game.recent.slice(-1);
  game.closedHand = null;
}

/**
 * The hand in progress as the engine sees it: tricks so far, whose turn, and the reneges and
 * illegal leads the plays show. With the deal known (the system dealt it, or the table entered
 * it) a renege shows the moment it is played; without it, once the seat later plays the suit.
 */
export function handSoFar(game: GameModel): ReturnType<typeof replayPlays> | null {
  const current = game.current;
  if (!current) return null;
  const deck = deckFor(resolveRules(game.rules).options);
  const plays = current.plays.map((trick) => trick.map((name) => parseCard(name)!));
  if (current.deal) {
    const deal = Object.fromEntries(SEATS.map((s) => [s, current.deal![s].map((name) => parseCard(name)!)])) as Record<Seat, number[]>;
    try {
      return replayPlays(deck, current.dealer, plays, deal);
    } catch (error) {
      // Commands refuse a card the deal did not give the seat; a ledger written by something
      // else may hold one, and is still read from its plays alone.
      if (!(error instanceof PlayError)) throw error;
    }
  }
  return replayPlays(deck, current.dealer, plays);
}

/** Who deals the game's next hand: the first dealer, then the rotation (a misdeal's rule included). */
export function dealerOfNextHand(game: GameModel): Seat {
  const lastRow = game.rows[game.rows.length - 1];
  if (!lastRow) return game.dealer;
  return nextDealer(resolveRules(game.rules).options, lastRow.dealer, lastRow.misdeal ?? null);
}

/**
 * Who deals first in the game after `last` in the same match: where the rules carry the deal
 * across games (asher "the player to the left of the player that dealt the last hand of the prior
 * game will start the deal of the new game"), the next seat of the rotation; otherwise the
 * match's first dealer again.
 */
export function firstDealerAfter(last: GameModel): Seat {
  const carries = resolveRules(last.rules).options.dealerCarriesAcrossGames;
  return carries && last.rows.length > 0 ? dealerOfNextHand(last) : last.dealer;
}

/** The seat whose bid is next in the hand in progress, or null once all four have bid (or no hand is dealt). */
export function nextBidder(game: GameModel): Seat | null {
  const current = game.current;
  if (!current) return null;
  const order = biddingOrder(resolveRules(game.rules).options, current.dealer);
  return order.find((seat) => current.bids[seat] === undefined) ?? null;
}

/**
 * The `spades-game/1` record (spec/game-record.md): reading and checking one, and scoring it
 * through the same game fold the ledger uses. Every refusal is one line; when a hand is at fault
 * it starts `hand N:`.
 */
import { type Card, type Seat, type Team, SEATS, cardName, isSeat, parseCard, seatIndex } from './cards.ts';
import { type Bid, type Bids, BidError, parseBid } from './bid.ts';
import { type Deck, deckFor, inDeck } from './deck.ts';
import { type EndReason, type GameHand, type GameState, GameError, applyHand, callTime, checkTurn, newGame } from './game.ts';
import { type Rules, RulesError, resolveRules } from './rules.ts';
import type { RenegeRuling, TeamState } from './scoring.ts';
import { PlayError, type Violation, replayPlays } from './trick.ts';

export const RECORD_FORMAT = 'spades-game/1';

/** A record that is not valid; the message is the one line to show. */
export class RecordError extends Error {}

export interface TeamLine {
  points: number;
  score: number;
  bags: number;
  sets: number;
}

export interface HandResult {
  NS: TeamLine;
  EW: TeamLine;
  reneges: Violation[];
  illegalLeads: Violation[];
}

/** The scored record, exactly as `spades score` prints it. */
export interface RecordResult {
  hands: HandResult[];
  winner: Team | null;
  reason: EndReason | null;
  final: Record<Team, number>;
}

/** The record's fields outside its hands, checked. */
export interface RecordHeader {
  rules: Rules;
  seats: Partial<Record<Seat, string>>;
  dealer: Seat;
  start: Record<Team, Partial<TeamState>>;
  timeCalled: number | null;
  /** The hands as given, each read on its turn (a hand is read knowing who dealt it). */
  hands: unknown[];
}

/** One hand of a record, read and checked on its own: the game hand plus what its plays show. */
export interface RecordHand {
  hand: GameHand;
  reneges: Violation[];
  illegalLeads: Violation[];
}

const TOP_FIELDS = new Set(['format', 'rules', 'seats', 'dealer', 'start', 'timeCalled', 'hands']);
const HAND_FIELDS = new Set(['dealer', 'deal', 'bids', 'tricks', 'plays', 'firstSeven', 'reneges']);

/** Scores a `spades-game/1` record; throws RecordError with the one line saying what is wrong and where. */
export function scoreRecord(json: unknown): RecordResult {
  const header = readHeader(json);
  let state = startRecordGame(header);
  const hands: HandResult[] = [];
  header.hands.forEach((raw, i) => {
    const next = scoreNextHand(header, state, raw, i + 1);
    state = next.state;
    hands.push(next.result);
  });
  return resultOf(state, hands);
}

/** The game before the record's first hand. */
export function startRecordGame(header: RecordHeader): GameState {
  return newGame(header.rules, { dealer: header.dealer, teams: header.start });
}

/** The record's result once its hands are scored. */
export function resultOf(state: GameState, hands: HandResult[]): RecordResult {
  return { hands, winner: state.winner, reason: state.reason, final: { NS: state.teams.NS.score, EW: state.teams.EW.score } };
}

/**
 * Scores hand `number` of a record on top of the game so far: the one step `scoreRecord` takes
 * per hand, so a caller that learns hands one at a time (the ledger's projection) scores them
 * exactly as a whole record would. Throws RecordError starting `hand N:`.
 */
export function scoreNextHand(
  header: Pick<RecordHeader, 'rules' | 'timeCalled'>,
  before: GameState,
  raw: unknown,
  number: number,
): { state: GameState; result: HandResult; tricks: Readonly<Record<Seat, number>> | null } {
  try {
    let state = before;
    // Whose deal it is and whether the game is over come first: the plays are read from that dealer's left.
    checkTurn(state, isObject(raw) && isSeat(raw.dealer) ? raw.dealer : undefined);
    const read = readHand(header.rules, state.dealer, raw);
    if (header.timeCalled === number) state = callTime(state);
    state = applyHand(state, read.hand);
    const line = (team: Team): TeamLine => {
      const { score, bags, sets } = state.teams[team];
      return { points: state.last?.teams[team].points ?? 0, score, bags, sets };
    };
    const tricks = read.hand.kind === 'played' ? read.hand.tricks : null;
    return { state, result: { NS: line('NS'), EW: line('EW'), reneges: read.reneges, illegalLeads: read.illegalLeads }, tricks };
  } catch (error) {
    if (error instanceof RecordError || error instanceof GameError || error instanceof PlayError || error instanceof BidError) {
      throw new RecordError(`hand ${number}: ${error.message}`);
    }
    throw error;
  }
}

/** Reads the record's fields outside its hands; throws RecordError. */
export function readHeader(json: unknown): RecordHeader {
  if (!isObject(json)) throw new RecordError(`record: expected a JSON object, got ${kind(json)}`);
  for (const key of Object.keys(json)) {
    if (!TOP_FIELDS.has(key)) throw new RecordError(`record: unknown field '${key}'; the fields are ${[...TOP_FIELDS].join(', ')}`);
  }
  if (json.format !== RECORD_FORMAT) {
    throw new RecordError(`format: expected "${RECORD_FORMAT}", got ${json.format === undefined ? 'nothing' : JSON.stringify(json.format)}`);
  }
  if (json.rules === undefined) throw new RecordError('rules: missing; give a preset id such as "unc-300"');
  let rules: Rules;
  try {
    rules = resolveRules(json.rules);
  } catch (error) {
    if (error instanceof RulesError) throw new RecordError(error.message);
    throw error;
  }

  const seats: Partial<Record<Seat, string>> = {};
  if (json.seats !== undefined) {
    if (!isObject(json.seats)) throw new RecordError(`seats: expected an object of player names by seat, got ${kind(json.seats)}`);
    for (const [seat, name] of Object.entries(json.seats)) {
      if (!isSeat(seat)) throw new RecordError(`seats: '${seat}' is not a seat; seats are N, E, S, W`);
      if (typeof name !== 'string') throw new RecordError(`seats: ${seat}'s name must be a string, got ${kind(name)}`);
      seats[seat] = name;
    }
  }

  const dealer = json.dealer ?? 'N';
  if (!isSeat(dealer)) throw new RecordError(`dealer: ${JSON.stringify(dealer)} is not a seat; seats are N, E, S, W`);

  const start: Record<Team, Partial<TeamState>> = { NS: {}, EW: {} };
  if (json.start !== undefined) {
    if (!isObject(json.start)) throw new RecordError(`start: expected { "NS": {...}, "EW": {...} }, got ${kind(json.start)}`);
    for (const [team, value] of Object.entries(json.start)) {
      if (team !== 'NS' && team !== 'EW') throw new RecordError(`start: '${team}' is not a team; teams are NS and EW`);
      if (!isObject(value)) throw new RecordError(`start.${team}: expected { "score", "bags", "sets" }, got ${kind(value)}`);
      for (const [field, n] of Object.entries(value)) {
        if (field !== 'score' && field !== 'bags' && field !== 'sets') {
          throw new RecordError(`start.${team}: unknown field '${field}'; the fields are score, bags, sets`);
        }
        const ok = Number.isInteger(n) && (field === 'score' || (n as number) >= 0);
        if (!ok) throw new RecordError(`start.${team}.${field}: expected a whole number${field === 'score' ? '' : ' 0 or more'}, got ${JSON.stringify(n)}`);
        start[team][field] = n as number;
      }
    }
  }

  let timeCalled: number | null = null;
  if (json.timeCalled !== undefined) {
    if (!Number.isInteger(json.timeCalled) || (json.timeCalled as number) < 1) {
      throw new RecordError(`timeCalled: expected the 1-based number of a hand, got ${JSON.stringify(json.timeCalled)}`);
    }
    timeCalled = json.timeCalled as number;
  }

  if (!Array.isArray(json.hands)) {
    throw new RecordError(`hands: expected a list of hands, got ${json.hands === undefined ? 'nothing' : kind(json.hands)}`);
  }
  return { rules, seats, dealer, start, timeCalled, hands: json.hands };
}

/**
 * Reads one hand dealt by `dealer` (the rotation's dealer: plays are led from that dealer's
 * left); throws RecordError without the `hand N:` prefix, which the caller knows.
 */
export function readHand(rules: Rules, dealer: Seat, raw: unknown): RecordHand {
  if (!isObject(raw)) throw new RecordError(`expected a hand object, got ${kind(raw)}`);
  const recordedDealer = raw.dealer;
  if (recordedDealer !== undefined && !isSeat(recordedDealer)) {
    throw new RecordError(`dealer: ${JSON.stringify(recordedDealer)} is not a seat; seats are N, E, S, W`);
  }
  const dealerField = recordedDealer === undefined ? {} : { dealer: recordedDealer };

  if ('misdeal' in raw) {
    if (typeof raw.misdeal !== 'string' || raw.misdeal.trim() === '') {
      throw new RecordError(`misdeal: expected the reason as a non-empty string, got ${JSON.stringify(raw.misdeal)}`);
    }
    const extra = Object.keys(raw).find((key) => key !== 'misdeal' && key !== 'dealer');
    if (extra) throw new RecordError(`a misdealt hand has only its reason (and dealer), but it also has '${extra}'`);
    return { hand: { kind: 'misdeal', reason: raw.misdeal, ...dealerField }, reneges: [], illegalLeads: [] };
  }
  for (const key of Object.keys(raw)) {
    if (!HAND_FIELDS.has(key)) throw new RecordError(`unknown field '${key}'; a hand has ${[...HAND_FIELDS].join(', ')} or misdeal`);
  }

  const deck = deckFor(rules.options);
  const bids = readBids(raw.bids);
  const deal = raw.deal === undefined ? undefined : readDeal(deck, rules.name, raw.deal);
  let tricks = raw.tricks === undefined ? null : readSeatNumbers(raw.tricks, 'tricks');

  let reneges: Violation[] = [];
  let illegalLeads: Violation[] = [];
  let firstSeven: Team | null = null;
  let played: { reneges: Violation[] } | null = null;
  if (raw.plays !== undefined) {
    if (raw.firstSeven !== undefined) throw new RecordError('firstSeven is given with plays; with plays the first 7 tricks are counted from them');
    const plays = readPlays(deck, rules.name, raw.plays);
    const result = replayPlays(deck, dealer, plays, deal);
    if (tricks) {
      for (const seat of SEATS) {
        if (tricks[seat] !== result.taken[seat]) {
          throw new RecordError(`tricks say ${seat} took ${tricks[seat]}, but the plays give ${seat} ${result.taken[seat]}`);
        }
      }
    }
    tricks = result.taken;
    firstSeven = result.firstSeven;
    reneges = result.reneges;
    illegalLeads = result.illegalLeads;
    played = { reneges };
  } else if (raw.firstSeven !== undefined) {
    if (raw.firstSeven !== 'NS' && raw.firstSeven !== 'EW') {
      throw new RecordError(`firstSeven: expected "NS" or "EW", got ${JSON.stringify(raw.firstSeven)}`);
    }
    firstSeven = raw.firstSeven;
  }

  const rulings = raw.reneges === undefined ? [] : readRulings(raw.reneges, played);
  return {
    hand: { kind: 'played', ...dealerField, bids, tricks, firstSeven, reneges: rulings },
    reneges,
    illegalLeads,
  };
}

function readBids(raw: unknown): Bids {
  if (raw === undefined) throw new RecordError('bids: missing; a played hand needs all four bids');
  if (!isObject(raw)) throw new RecordError(`bids: expected each seat's bid, got ${kind(raw)}`);
  const bids = {} as Record<Seat, Bid>;
  for (const key of Object.keys(raw)) if (!isSeat(key)) throw new RecordError(`bids: '${key}' is not a seat; seats are N, E, S, W`);
  for (const seat of SEATS) {
    if (raw[seat] === undefined) throw new RecordError(`bids: ${seat} has no bid`);
    const bid = parseBid(raw[seat]);
    if (!bid) {
      throw new RecordError(`bids: ${seat}'s bid ${JSON.stringify(raw[seat])} is not a bid; a bid is 0–13, "nil", "blind nil" or "blind N"`);
    }
    bids[seat] = bid;
  }
  return bids;
}

function readSeatNumbers(raw: unknown, field: string): Record<Seat, number> {
  if (!isObject(raw)) throw new RecordError(`${field}: expected a number for each seat, got ${kind(raw)}`);
  for (const key of Object.keys(raw)) if (!isSeat(key)) throw new RecordError(`${field}: '${key}' is not a seat; seats are N, E, S, W`);
  const out = {} as Record<Seat, number>;
  for (const seat of SEATS) {
    const n = raw[seat];
    if (!Number.isInteger(n) || (n as number) < 0 || (n as number) > 13) {
      throw new RecordError(`${field}: ${seat} ${n === undefined ? 'is missing' : `has ${JSON.stringify(n)}`}; each seat takes a whole number 0–13`);
    }
    out[seat] = n as number;
  }
  return out;
}

function readCard(deck: Deck, rulesName: string, raw: unknown, where: string): Card {
  const card = typeof raw === 'string' ? parseCard(raw) : null;
  if (card === null) throw new RecordError(`${where}: ${JSON.stringify(raw)} is not a card`);
  if (!inDeck(deck, card)) throw new RecordError(`${where}: ${cardName(card)} is not in the ${rulesName} deck`);
  return card;
}

function readDeal(deck: Deck, rulesName: string, raw: unknown): Record<Seat, Card[]> {
  if (!isObject(raw)) throw new RecordError(`deal: expected each seat's 13 cards, got ${kind(raw)}`);
  for (const key of Object.keys(raw)) if (!isSeat(key)) throw new RecordError(`deal: '${key}' is not a seat; seats are N, E, S, W`);
  // dealtTo[card] = index of the seat it was dealt to, −1 until dealt.
  const dealtTo = new Int8Array(54).fill(-1);
  const deal = {} as Record<Seat, Card[]>;
  for (const seat of SEATS) {
    const cards = raw[seat];
    if (!Array.isArray(cards)) throw new RecordError(`deal: ${seat} has no list of cards`);
    if (cards.length !== 13) throw new RecordError(`deal: ${seat} has ${cards.length} cards; each seat is dealt 13`);
    deal[seat] = cards.map((name) => {
      const card = readCard(deck, rulesName, name, `deal: ${seat}`);
      const held = dealtTo[card]!;
      if (held >= 0) {
        const holder = SEATS[held]!;
        throw new RecordError(`deal: ${cardName(card)} is dealt ${holder === seat ? `twice to ${seat}` : `to both ${holder} and ${seat}`}`);
      }
      dealtTo[card] = seatIndex(seat);
      return card;
    });
  }
  return deal;
}

function readPlays(deck: Deck, rulesName: string, raw: unknown): Card[][] {
  if (!Array.isArray(raw)) throw new RecordError(`plays: expected the 13 tricks, got ${kind(raw)}`);
  if (raw.length !== 13) throw new RecordError(`plays: ${raw.length} tricks recorded; a hand has 13`);
  return raw.map((trick, t) => {
    if (!Array.isArray(trick) || trick.length !== 4) {
      throw new RecordError(`plays: trick ${t + 1} ${Array.isArray(trick) ? `has ${trick.length} cards` : 'is not a list of cards'}; a trick has 4`);
    }
    return trick.map((name) => readCard(deck, rulesName, name, `trick ${t + 1}`));
  });
}

function readRulings(raw: unknown, played: { reneges: Violation[] } | null): RenegeRuling[] {
  if (!Array.isArray(raw)) throw new RecordError(`reneges: expected a list of rulings, got ${kind(raw)}`);
  return raw.map((claim, i) => {
    const where = `reneges[${i}]`;
    if (!isObject(claim)) throw new RecordError(`${where}: expected { "seat", "trick", "upheld" }, got ${kind(claim)}`);
    for (const key of Object.keys(claim)) {
      if (key !== 'seat' && key !== 'trick' && key !== 'upheld') throw new RecordError(`${where}: unknown field '${key}'; a ruling has seat, trick, upheld`);
    }
    if (!isSeat(claim.seat)) throw new RecordError(`${where}: seat ${JSON.stringify(claim.seat)} is not a seat; seats are N, E, S, W`);
    if (typeof claim.upheld !== 'boolean') throw new RecordError(`${where}: upheld must be true or false, got ${JSON.stringify(claim.upheld)}`);
    const trick = claim.trick;
    if (trick !== undefined && (!Number.isInteger(trick) || (trick as number) < 1 || (trick as number) > 13)) {
      throw new RecordError(`${where}: trick must be a trick number 1–13, got ${JSON.stringify(trick)}`);
    }
    if (played) {
      // The judge's ruling stands even where the recorded plays show no renege (a card may have
      // been entered wrongly); the plays' own findings are reported beside it for the auditor.
      if (trick === undefined) throw new RecordError(`${where}: the renege claim against ${claim.seat} needs its trick, since the plays are given`);
    }
    return { seat: claim.seat, upheld: claim.upheld };
  });
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function kind(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object') return 'an object';
  return JSON.stringify(value);
}

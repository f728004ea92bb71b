/**
 * The `spades-game/1` record (docs/spec/game-record.md): reading and checking one, and scoring it
 * through the same game fold the ledger uses. Every refusal is one line; when a hand is at fault
 * it starts `hand N:`. The record's shape is checked by its schema (record-schema.ts, published as
 * docs/schemas/spades-game-1.schema.json); what depends on the preset and the game so far is checked here.
 */
import { type Card, type Seat, type Team, SEATS, cardName, isSeat, parseCard, seatIndex } from './cards.ts';
import { type Bids, BidError, parseBid } from './bid.ts';
import { type Deck, deckFor, inDeck } from './deck.ts';
import { type EndReason, type GameHand, type GameState, GameError, applyHand, callTime, checkTurn, newGame } from './game.ts';
import {
  type PlayedHandJson,
  type RecordHeaderJson,
  firstIssue,
  misdealHandSchema,
  playedHandSchema,
  recordHeaderSchema,
  rulesProblem,
} from './record-schema.ts';
import { type Rules, RulesError, resolveRules, rulesNaming } from './rules.ts';
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

export interface ShapeOptions {
  /**
   * The hand was built by the ledger's projection from events checked when they were
   * appended, so its shape is right by construction and is not checked again: a rebuild folds
   * every hand of the ledger and should not pay for that. What the game makes of the hand
   * (whose deal, the plays against the deal, the bids against the preset) is still checked.
   */
  shapeChecked?: boolean;
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
  options: ShapeOptions = {},
): { state: GameState; result: HandResult; tricks: Readonly<Record<Seat, number>> | null } {
  try {
    let state = before;
    // Whose deal it is and whether the game is over come first: the plays are read from that dealer's left.
    checkTurn(state, isObject(raw) && isSeat(raw.dealer) ? raw.dealer : undefined);
    const read = readHand(header.rules, state.dealer, raw, options);
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

/**
 * Reads the record's fields outside its hands; throws RecordError. A header the ledger's
 * projection built from events checked when they were appended (`shapeChecked`) is not checked
 * against the schema again; its rules are still resolved.
 */
export function readHeader(json: unknown, options: ShapeOptions = {}): RecordHeader {
  let record = json as RecordHeaderJson;
  if (!options.shapeChecked) {
    const parsed = recordHeaderSchema.safeParse(json);
    if (!parsed.success) {
      const issue = firstIssue(parsed.error.issues);
      // What is wrong with the rules is said by the rules' own checker, in the words a tournament's rules get.
      throw new RecordError(issue.path[0] === 'rules' ? rulesProblem((json as { rules?: unknown }).rules) : issue.message);
    }
    record = parsed.data as RecordHeaderJson;
  }
  let rules: Rules;
  try {
    rules = resolveRules(record.rules);
  } catch (error) {
    // The schema holds each option to its values; what holds between options is the rules' to say.
    if (error instanceof RulesError) throw new RecordError(error.message);
    throw error;
  }
  return {
    rules,
    seats: record.seats ?? {},
    dealer: record.dealer ?? 'N',
    start: { NS: { ...record.start?.NS }, EW: { ...record.start?.EW } },
    timeCalled: record.timeCalled ?? null,
    hands: record.hands,
  };
}

/**
 * Reads one hand dealt by `dealer` (the rotation's dealer: plays are led from that dealer's
 * left); throws RecordError without the `hand N:` prefix, which the caller knows.
 */
export function readHand(rules: Rules, dealer: Seat, raw: unknown, options: ShapeOptions = {}): RecordHand {
  // A hand is told apart as misdealt by its reason; either way its dealer is read first.
  if (isObject(raw) && 'misdeal' in raw) {
    let hand = raw as { dealer?: Seat; misdeal: string };
    if (!options.shapeChecked) {
      const parsed = misdealHandSchema.safeParse(raw);
      if (!parsed.success) throw new RecordError(firstIssue(parsed.error.issues, ['dealer', 'misdeal']).message);
      hand = parsed.data as typeof hand;
    }
    const { dealer: recorded, misdeal } = hand;
    return { hand: { kind: 'misdeal', reason: misdeal, ...(recorded === undefined ? {} : { dealer: recorded }) }, reneges: [], illegalLeads: [] };
  }
  let json = raw as PlayedHandJson;
  if (!options.shapeChecked) {
    const parsed = playedHandSchema.safeParse(raw);
    if (!parsed.success) throw new RecordError(firstIssue(parsed.error.issues, ['dealer']).message);
    json = parsed.data as PlayedHandJson;
  }
  const dealerField = json.dealer === undefined ? {} : { dealer: json.dealer };

  const deck = deckFor(rules.options);
  const bids = Object.fromEntries(SEATS.map((seat) => [seat, parseBid(json.bids[seat])!])) as Bids;
  const deal = json.deal === undefined ? undefined : readDeal(deck, deckName(rules), json.deal);
  let tricks: Record<Seat, number> | null = json.tricks ?? null;

  let reneges: Violation[] = [];
  let illegalLeads: Violation[] = [];
  let firstSeven: Team | null = json.firstSeven ?? null;
  if (json.plays !== undefined) {
    const plays = json.plays.map((trick, t) => trick.map((name) => readCard(deck, deckName(rules), name, 'trick', t + 1)));
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
  }

  // The judge's ruling stands even where the recorded plays show no renege (a card may have been
  // entered wrongly); the plays' own findings are reported beside it for the auditor.
  const rulings: RenegeRuling[] = (json.reneges ?? []).map((claim) => ({ seat: claim.seat, upheld: claim.upheld }));
  return {
    hand: { kind: 'played', ...dealerField, bids, tricks, firstSeven, reneges: rulings },
    reneges,
    illegalLeads,
  };
}

/**
 * A card the schema has read as a card name, held to the preset's deck. Where it stands (`trick
 * 3`, `deal: N`) is put into words only for a refusal: every card of every hand comes here.
 */
/** The deck as a refusal names it: "the unc-300 deck", or "this event’s deck" for rules changed from a preset. */
function deckName(rules: Rules): string {
  const naming = rulesNaming(rules);
  return typeof naming === 'string' ? `the ${naming}` : 'this event’s';
}

function readCard(deck: Deck, rulesName: string, name: string, where: 'trick' | 'deal', at: number | Seat): Card {
  const card = parseCard(name)!;
  if (!inDeck(deck, card)) throw new RecordError(`${where === 'trick' ? `trick ${at}` : `deal: ${at}`}: ${cardName(card)} is not in ${rulesName} deck`);
  return card;
}

function readDeal(deck: Deck, rulesName: string, json: Record<Seat, string[]>): Record<Seat, Card[]> {
  // dealtTo[card] = index of the seat it was dealt to, −1 until dealt.
  const dealtTo = new Int8Array(54).fill(-1);
  const deal = {} as Record<Seat, Card[]>;
  for (const seat of SEATS) {
    deal[seat] = json[seat].map((name) => {
      const card = readCard(deck, rulesName, name, 'deal', seat);
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

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * A game played on paper, entered afterwards: a `spades-game/1` record turned into the events
 * the table would have recorded had it been kept live (GameStarted, HandDealt, the bids in
 * bidding order, each card or the tricks counted, misdeals, renege claims and their rulings).
 * The record is scored first, so nothing is appended for a record the scorer refuses, and the
 * game folded from these events scores exactly as the record does.
 */
import { type Seat, type Team, cardName, parseCard, seatAfter } from '../engine/cards.ts';
import { biddingOrder, bidValue, parseBid } from '../engine/bid.ts';
import { rulesForMatch } from '../engine/formats.ts';
import { matchViews } from '../engine/bracket.ts';
import { deckFor } from '../engine/deck.ts';
import { nextDealer } from '../engine/game.ts';
import { readHeader, scoreRecord } from '../engine/record.ts';
import { resolveRules } from '../engine/rules.ts';
import { replayPlays } from '../engine/trick.ts';
import { canonicalJson } from './hash-chain.ts';
import { gameStream, matchGameId } from './streams.ts';
import type { Decision } from './store/sqlite/ledger.ts';
import type { ReadModels } from './projections.ts';
import type { RecordHand } from './read-models.ts';
import { canKeyReadModel, gameById, tournamentById } from './lookup.ts';
import { domainEvents } from './domain-events.ts';
import { InvalidPayloadError } from './event-types.ts';

/** An import refused before anything is appended; `status` is the HTTP answer (400, 404, 409, or 413 for a record larger than a game). */
export class RecordImportError extends Error {
  constructor(
    message: string,
    readonly status: 400 | 404 | 409 | 413 = 400,
  ) {
    super(message);
  }
}

/** Where an imported game goes: a match of a running tournament, or a game of its own. */
export type ImportTarget =
  | { tournamentId: string; matchId: string; gameId?: string }
  | { gameId: string; teams?: Record<Team, string> };

/**
 * What one game at one table can hold. A game ends at its target, its set-out or its clock (a
 * tournament-spades round after 4 hands and its tie hands); a hundred scored hands is some eight
 * hours of play, past any time limit of the five rulebooks. Misdeals score nothing and end
 * nothing, so they are bounded in a row: a table that misdeals five times running is a matter for
 * the judge on the spot, not for a record entered afterwards.
 */
export const RECORD_MAX_HANDS = 100;
export const RECORD_MAX_MISDEALS_IN_A_ROW = 5;

/**
 * A paper record larger than a game can hold, as a sentence naming the bound, or null. Read from
 * the record as sent, before it is scored, so an oversized record costs nothing to refuse.
 */
export function recordBoundProblem(record: unknown): string | null {
  const hands = (record as { hands?: unknown } | null)?.hands;
  if (!Array.isArray(hands)) return null;
  let scored = 0;
  let misdeals = 0;
  for (let i = 0; i < hands.length; i++) {
    const misdeal = typeof hands[i] === 'object' && hands[i] !== null && 'misdeal' in (hands[i] as object);
    misdeals = misdeal ? misdeals + 1 : 0;
    if (!misdeal) scored++;
    if (misdeals > RECORD_MAX_MISDEALS_IN_A_ROW) {
      return `hands[${i}]: more than ${RECORD_MAX_MISDEALS_IN_A_ROW} misdeals in a row (hands ${i - RECORD_MAX_MISDEALS_IN_A_ROW + 1}–${i + 1}); a game record holds at most ${RECORD_MAX_MISDEALS_IN_A_ROW} misdeals running`;
    }
    if (scored > RECORD_MAX_HANDS) {
      return `hands[${i}]: more than ${RECORD_MAX_HANDS} scored hands; a game record holds at most ${RECORD_MAX_HANDS} (about eight hours of play), and this one has ${hands.length} entries`;
    }
  }
  return null;
}

/** Who the rulings of a paper record are credited to: the record does not name the judge. */
export const PAPER_JUDGE = 'paper record';

/**
 * Decides the import of `record` into `target`: refuses a record the scorer refuses, a game id
 * already taken, a match that is not open for a game or plays under other rules; otherwise
 * returns the game's events. `at` is recorded as the time time was called, when the record says
 * it was (a paper record does not say when).
 */
export function importRecord(models: ReadModels, record: unknown, target: ImportTarget, at: string): Decision {
  const bound = recordBoundProblem(record);
  if (bound) throw new RecordImportError(inRecord(bound), 413);
  try {
    scoreRecord(record);
  } catch (error) {
    throw new RecordImportError(inRecord((error as Error).message));
  }
  const header = readHeader(record);
  // Checked by the scorer above: every field below is as the format describes it.
  const json = record as { rules: unknown; start?: unknown; hands: RecordHand[] };

  let gameId: string;
  let matchId: string | null = null;
  let tournamentId: string | null = null;
  let number = 1;
  let teams: Record<Team, string> = { NS: 'NS', EW: 'EW' };
  const seats: Partial<Record<Seat, string>> = { ...header.seats };

  if ('matchId' in target) {
    const tournament = tournamentById(models, target.tournamentId);
    if (!tournament) throw new RecordImportError(`tournament ${target.tournamentId} does not exist`, 404);
    const match = tournament.model.matches.find((m) => m.matchId === target.matchId);
    if (!match || !tournament.bracket) throw new RecordImportError(`tournament ${target.tournamentId} has no match ${target.matchId}`, 404);
    const where = `tournament ${target.tournamentId} match ${target.matchId}`;
    if (match.status !== 'ready' && match.status !== 'live') {
      throw new RecordImportError(`${where} is ${match.status}; a game can be entered only into a match that is ready or being played`, 409);
    }
    const last = match.games.length > 0 ? gameById(models, match.games[match.games.length - 1]!) : undefined;
    if (last && !last.winner) throw new RecordImportError(`${where}: game ${last.gameId} is still being played`, 409);
    const view = matchViews(tournament.bracket).find((v) => v.id === target.matchId)!;
    const matchRules = resolveRules(rulesForMatch(tournament.format, view));
    if (canonicalJson(matchRules.options) !== canonicalJson(header.rules.options)) {
      throw new RecordImportError(`${where} plays under ${matchRules.name}, but the record was played under ${header.rules.name}`);
    }
    matchId = target.matchId;
    tournamentId = target.tournamentId;
    number = match.games.length + 1;
    // The same game ids a live match gives its games, so a paper game reads like any other.
    gameId = target.gameId ?? matchGameId(tournamentId, matchId, number);
    teams = { NS: match.teams[0]!, EW: match.teams[1]! };
    const players = (teamId: string) => tournament.model.teams.find((t) => t.teamId === teamId)?.players ?? [];
    const [a, b] = [players(teams.NS), players(teams.EW)];
    const fromTeams: Partial<Record<Seat, string | undefined>> = { N: a[0], E: b[0], S: a[1], W: b[1] };
    for (const seat of ['N', 'E', 'S', 'W'] as const) if (seats[seat] === undefined && fromTeams[seat]) seats[seat] = fromTeams[seat];
  } else {
    gameId = target.gameId;
    if (target.teams) teams = target.teams;
    if (header.timeCalled !== null) {
      throw new RecordImportError(`record: timeCalled needs a match to be imported into; game ${gameId} would have no match clock to call time on`);
    }
  }
  if (!canKeyReadModel(gameId)) throw new RecordImportError(`'${gameId}' cannot be a game id; choose letters, digits and dashes`);
  if (gameId.length > GAME_ID_MAX) throw new RecordImportError(`the game id '${gameId.slice(0, 24)}…' is ${gameId.length} characters long; a game id is at most ${GAME_ID_MAX}`);
  if (gameById(models, gameId)) throw new RecordImportError(`game ${gameId} already exists`, 409);

  const options = header.rules.options;
  const deck = deckFor(options);
  const events: Decision['events'] = [];
  const add = (type: string, payload: Record<string, unknown>) => events.push({ type, payload: { gameId, ...payload } });
  const started: Record<string, unknown> = { matchId, tournamentId, number, rules: json.rules, teams, seats, dealer: header.dealer };
  if (json.start !== undefined) {
    const start = {} as Record<Team, { score: number; bags: number; sets: number }>;
    for (const team of ['NS', 'EW'] as const) {
      const given = header.start[team];
      start[team] = { score: given.score ?? 0, bags: given.bags ?? 0, sets: given.sets ?? 0 };
    }
    started.start = start;
  }
  add('GameStarted', started);

  let dealer: Seat = header.dealer;
  json.hands.forEach((hand, i) => {
    const number = i + 1;
    dealer = hand.dealer ?? dealer;
    const dealt: Record<string, unknown> = { hand: number, dealer };
    if (hand.deal) dealt.deal = Object.fromEntries(Object.entries(hand.deal).map(([seat, cards]) => [seat, cards.map(normalCard)]));
    add('HandDealt', dealt);
    if (header.timeCalled === number && matchId !== null && tournamentId !== null) {
      add('TimeCalled', { tournamentId, matchId, at, hand: number });
    }
    if (hand.misdeal !== undefined) {
      add('MisdealCalled', { hand: number, reason: hand.misdeal });
      dealer = nextDealer(options, dealer, true);
      return;
    }
    for (const seat of biddingOrder(options, dealer)) add('BidMade', { hand: number, seat, bid: bidValue(parseBid(hand.bids![seat])!) });
    // Claims and rulings go in just before the entry that closes the hand, as at a table where the
    // judge rules before the hand is scored; in the record's order, so the folded hand lists them
    // as the record does.
    const claims = () =>
      (hand.reneges ?? []).forEach((renege, k) => {
        const claimId = `${gameId}-h${number}-claim${k + 1}`;
        add('RenegeClaimed', { claimId, hand: number, seat: renege.seat, trick: renege.trick ?? null });
        add('RulingGiven', { claimId, upheld: renege.upheld, note: 'ruled at the table; entered from a spades-game/1 record', judge: PAPER_JUDGE });
      });
    if (hand.plays) {
      const cards = hand.plays.map((trick) => trick.map((name) => parseCard(name)!));
      const { tricks } = replayPlays(deck, dealer, cards);
      const played = tricks.flatMap((trick) => trick.cards.map((card, k) => ({ hand: number, seat: seatAfter(trick.leader, k), card: cardName(card) })));
      played.slice(0, -1).forEach((entry) => add('CardPlayed', entry));
      claims();
      add('CardPlayed', played[played.length - 1]!);
    } else if (hand.tricks) {
      claims();
      add('TricksRecorded', { hand: number, tricks: hand.tricks, ...(hand.firstSeven ? { firstSeven: hand.firstSeven } : {}) });
    }
    dealer = nextDealer(options, dealer, false);
  });
  // The record was checked in its own words above; should an event still not take a value, the
  // refusal names the record's field, not the event it would have become.
  for (const event of events) {
    try {
      domainEvents.validate(event.type, event.payload);
    } catch (error) {
      if (!(error instanceof InvalidPayloadError)) throw error;
      throw new RecordImportError(inRecord(`${recordField(event, error.field)}: ${error.problem.replace(/^must (have|be) /, '')}`));
    }
  }
  return { stream: gameStream(gameId), events };
}

/** The longest game id the ledger keeps. */
const GAME_ID_MAX = 120;

/** A refusal of the record, said once as such: the scorer's own refusals of the whole record already begin `record: `. */
function inRecord(problem: string): string {
  return problem.startsWith('record: ') ? problem : `record: ${problem}`;
}

/** Where in the record an event's payload field came from: `seats.N`, `start.NS.score`, `hands[2].bids.E`. */
function recordField(event: { type: string; payload: unknown }, field: string): string {
  const path = field.replace(/^payload\.?/, '');
  const hand = (event.payload as { hand?: unknown }).hand;
  if (event.type === 'GameStarted' || typeof hand !== 'number') return path || 'the record';
  const inHand = path.replace(/^(hand|gameId)(\.|$)/, '');
  return `hands[${hand - 1}]${inHand ? `.${inHand}` : ''}`;
}

function normalCard(name: string): string {
  return cardName(parseCard(name)!);
}

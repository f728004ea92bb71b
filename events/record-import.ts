/**
 * A game played on paper, entered afterwards: a `spades-game/1` record turned into the events
 * the table would have recorded had it been kept live (GameStarted, HandDealt, the bids in
 * bidding order, each card or the tricks counted, misdeals, renege claims and their rulings).
 * The record is scored first, so nothing is appended for a record the scorer refuses, and the
 * game folded from these events scores exactly as the record does.
 */
import { SEAT_NAMES as SEAT_WORDS, type Seat, type Team, SEATS, cardName, parseCard, seatAfter } from '../engine/cards.ts';
import { biddingOrder, bidValue, parseBid } from '../engine/bid.ts';
import { rulesForMatch } from '../engine/formats.ts';
import { matchViews } from '../engine/bracket.ts';
import { deckFor } from '../engine/deck.ts';
import { nextDealer } from '../engine/game.ts';
import { type RecordHeader, readHeader, scoreNextHand, scoreRecord, startRecordGame } from '../engine/record.ts';
import { resolveRules, rulesDifference } from '../engine/rules.ts';
import { replayPlays } from '../engine/trick.ts';
import { canonicalJson } from './hash-chain.ts';
import { gameStream, matchGameId } from './streams.ts';
import type { Decision } from './store/served-ledger.ts';
import type { ReadModels } from './projections.ts';
import type { RecordHand } from './read-models.ts';
import { gameById, tournamentById } from './lookup.ts';
import { idProblem, isPrototypeName, nameProblem, quoted } from './names.ts';
import { firstDealerAfter } from './game-projection.ts';
import { parseProgressiveMatchId } from './progressive-projection.ts';
import type { TournamentState } from './tournament-projection.ts';
import { domainEvents } from './event-catalogue.ts';
import { InvalidPayloadError } from './event-registry.ts';

/** An import refused before anything is appended; `status` is the HTTP answer (400, 404, 409, or 413 for a record larger than a game). */
export class RecordImportError extends Error {
  constructor(
    message: string,
    readonly status: 400 | 404 | 409 | 413 = 400,
  ) {
    super(message);
  }
}

/**
 * What is wrong with the ids and names a target carries, as a sentence, or null: the ids are
 * checked as registration checks them, and the teams of a game of its own, which name its sides
 * on every page that shows it, as names are.
 */
export function targetProblem(target: ImportTarget): string | null {
  const ids: [string | undefined, string, number?][] =
    'matchId' in target
      ? [
          [target.tournamentId, 'a tournament id'],
          [target.matchId, 'a match id'],
          [target.gameId, 'a game id', GAME_ID_MAX],
        ]
      : [[target.gameId, 'a game id', GAME_ID_MAX]];
  for (const [id, what, max] of ids) {
    const bad = id === undefined ? null : idProblem(id, what, max);
    if (bad) return bad;
  }
  if ('matchId' in target) return null;
  for (const side of ['NS', 'EW'] as const) {
    const team = target.teams?.[side];
    if (team === undefined) continue;
    if (isPrototypeName(team.trim())) return `teams.${side}: '${team.trim()}' cannot name a side: the server keeps that word for itself; give the team's name`;
    if (team.length > TEAM_NAME_MAX) return `teams.${side}: a team's name is at most ${TEAM_NAME_MAX} characters, and '${quoted(team)}' has ${team.length}`;
    const unseen = nameProblem(team, `the name of the ${side} team`);
    if (unseen) return `teams.${side}: ${unseen}`;
  }
  return null;
}

/** The longest name a side of a game of its own may have, as registration allows a team's. */
const TEAM_NAME_MAX = 120;

/** Where an imported game goes: a match of a running tournament, or a game of its own. */
export type ImportTarget = { tournamentId: string; matchId: string; gameId?: string } | { gameId: string; teams?: Record<Team, string> };

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
 * it was (a paper record does not say when). Into a progressive evening, `R<round>-T<table>`
 * names the game its round already started at that table, and the record is that table's score
 * sheet for the round (see roundSheetTarget).
 */
export function importRecord(models: ReadModels, record: unknown, target: ImportTarget, at: string): Decision {
  const unfit = targetProblem(target);
  if (unfit) throw new RecordImportError(unfit);
  const bound = recordBoundProblem(record);
  if (bound) throw new RecordImportError(inRecord(bound), 413);
  let header: RecordHeader;
  try {
    header = readHeader(record);
  } catch (error) {
    throw new RecordImportError(inRecord((error as Error).message));
  }
  for (const seat of SEATS) {
    const player = header.seats[seat];
    const unseen = player === undefined ? null : nameProblem(player, `the name in ${SEAT_WORDS[seat]}`);
    if (unseen) throw new RecordImportError(`record: seats.${seat}: ${unseen}`);
  }
  const place = placeOf(models, record, header, target);
  // The record as the game will hold it: its first dealer the one the match or round gives it.
  const json = { ...(record as object), dealer: place.dealer } as unknown as { rules: unknown; start?: unknown; hands: RecordHand[] };
  if (place.round) checkRoundSheet(json, place.round);
  else {
    try {
      scoreRecord(json);
    } catch (error) {
      throw new RecordImportError(inRecord((error as Error).message));
    }
  }
  const { gameId } = place;
  const badId = idProblem(gameId, 'a game id', GAME_ID_MAX);
  if (badId) throw new RecordImportError(badId);
  if (!place.round && gameById(models, gameId)) throw new RecordImportError(`game ${gameId} already exists`, 409);

  const options = header.rules.options;
  const deck = deckFor(options);
  const events: Decision['events'] = [];
  const add = (type: string, payload: Record<string, unknown>) => events.push({ type, payload: { gameId, ...payload } });
  if (!place.round) {
    const started: Record<string, unknown> = {
      matchId: place.matchId,
      tournamentId: place.tournamentId,
      number: place.number,
      rules: json.rules,
      teams: place.teams,
      seats: place.seats,
      dealer: place.dealer,
    };
    if (json.start !== undefined) {
      const start = {} as Record<Team, { score: number; bags: number; sets: number }>;
      for (const team of ['NS', 'EW'] as const) {
        const given = header.start[team];
        start[team] = { score: given.score ?? 0, bags: given.bags ?? 0, sets: given.sets ?? 0 };
      }
      started.start = start;
    }
    add('GameStarted', started);
  }

  let dealer: Seat = place.dealer;
  json.hands.forEach((hand, i) => {
    const number = i + 1;
    dealer = hand.dealer ?? dealer;
    const dealt: Record<string, unknown> = { hand: number, dealer };
    if (hand.deal) dealt.deal = Object.fromEntries(Object.entries(hand.deal).map(([seat, cards]) => [seat, cards.map(normalCard)]));
    add('HandDealt', dealt);
    if (header.timeCalled === number && place.matchId !== null && place.tournamentId !== null) {
      add('TimeCalled', { tournamentId: place.tournamentId, matchId: place.matchId, at, hand: number });
    }
    if (hand.misdeal !== undefined) {
      add('MisdealCalled', { hand: number, reason: hand.misdeal });
      dealer = nextDealer(options, dealer, hand.misdeal);
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
    dealer = nextDealer(options, dealer, null);
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

/** Where a record goes: a new game (of a match, or of its own), or the game a progressive round started at a table. */
interface Place {
  gameId: string;
  tournamentId: string | null;
  matchId: string | null;
  number: number;
  teams: Record<Team, string>;
  seats: Partial<Record<Seat, string>>;
  /** The game's first dealer. */
  dealer: Seat;
  /** Set for a progressive table's round: the game already started, that the sheet fills. */
  round?: { where: string; hands: number };
}

function placeOf(models: ReadModels, record: unknown, header: RecordHeader, target: ImportTarget): Place {
  const given = record as { dealer?: unknown };
  if (!('matchId' in target)) {
    if (header.timeCalled !== null) {
      throw new RecordImportError(`record: timeCalled needs a match to be imported into; game ${target.gameId} would have no match clock to call time on`);
    }
    return {
      gameId: target.gameId,
      tournamentId: null,
      matchId: null,
      number: 1,
      teams: target.teams ?? { NS: 'NS', EW: 'EW' },
      seats: { ...header.seats },
      dealer: header.dealer,
    };
  }
  const tournament = tournamentById(models, target.tournamentId);
  if (!tournament) throw new RecordImportError(`tournament ${target.tournamentId} does not exist`, 404);
  if (tournament.progressive) return roundSheetTarget(models, tournament, header, given.dealer !== undefined, target);
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
    throw new RecordImportError(
      `${where} plays under this event’s rules, not the record’s: ${rulesDifference(matchRules.options, header.rules.options, 'here', 'in the record')}`,
    );
  }
  const number = match.games.length + 1;
  let dealer = header.dealer;
  // asher "The deal will keep this rotation throughout the entire challenge": a later game's
  // first dealer is the one the games before it leave, as at the table.
  if (last && matchRules.options.dealerCarriesAcrossGames) {
    const carried = firstDealerAfter(last);
    if (given.dealer !== undefined && header.dealer !== carried) {
      throw new RecordImportError(
        `record: dealer: the deal keeps its rotation through the whole challenge; game ${last.number} of ${where} left the deal to ${carried}, so ${carried} deals first in game ${number}, not ${header.dealer}`,
      );
    }
    dealer = carried;
  }
  const teams = { NS: match.teams[0]!, EW: match.teams[1]! };
  const players = (teamId: string) => tournament.model.teams.find((t) => t.teamId === teamId)?.players ?? [];
  const [a, b] = [players(teams.NS), players(teams.EW)];
  const seats: Partial<Record<Seat, string>> = { ...header.seats };
  const fromTeams: Partial<Record<Seat, string | undefined>> = { N: a[0], E: b[0], S: a[1], W: b[1] };
  for (const seat of SEATS) if (seats[seat] === undefined && fromTeams[seat]) seats[seat] = fromTeams[seat];
  return {
    gameId: target.gameId ?? matchGameId(target.tournamentId, target.matchId, number),
    tournamentId: target.tournamentId,
    matchId: target.matchId,
    number,
    teams,
    seats,
    dealer,
  };
}

/**
 * A progressive table's score sheet for a round (tournament-spades "One player keeps the table's
 * bids and scores for the round"): it goes into the game the round started at that table, with
 * the players the seating put there and the first dealer drawn when the round was seated, and
 * only while nothing has been recorded there yet. What the sheet says of those is checked
 * against them; what it leaves out is taken from them.
 */
function roundSheetTarget(
  models: ReadModels,
  tournament: TournamentState,
  header: RecordHeader,
  dealerGiven: boolean,
  target: { tournamentId: string; matchId: string; gameId?: string },
): Place {
  const id = target.tournamentId;
  const progressive = tournament.progressive!;
  const at = parseProgressiveMatchId(target.matchId);
  if (!at) {
    throw new RecordImportError(
      `tournament ${id} is played at progressive tables: a table's round is named R<round>-T<table> (R2-T3 is round 2 at table 3), not '${target.matchId}'`,
      404,
    );
  }
  const round = progressive.rounds.find((r) => r.round === at.round);
  if (!round) {
    const seated = progressive.rounds.length;
    throw new RecordImportError(
      `tournament ${id}: round ${at.round} has not been seated${seated > 0 ? `; the rounds seated so far are 1–${seated}` : ' (no round has been seated yet)'}`,
      409,
    );
  }
  const table = round.seating.find((t) => t.table === at.table);
  if (!table)
    throw new RecordImportError(`tournament ${id}: round ${at.round} is played at tables 1–${round.seating.length}; there is no table ${at.table}`, 404);
  const where = `round ${at.round} at table ${at.table}`;
  const game = gameById(models, round.games[String(at.table)] ?? '');
  if (!game) throw new RecordImportError(`tournament ${id}: ${where} has no game started`, 409);
  if (target.gameId !== undefined && target.gameId !== game.gameId) {
    throw new RecordImportError(`gameId: ${where} is game ${game.gameId}, not ${target.gameId}`);
  }
  if (game.winner)
    throw new RecordImportError(
      `tournament ${id}: ${where} is over (NS ${game.score.NS}, EW ${game.score.EW}); its score stands as recorded, and a judge corrects it at /judge`,
      409,
    );
  const recorded = game.hands.length + (game.current ? 1 : 0);
  if (recorded > 0 || game.claims.length > 0 || game.corrections.length > 0) {
    throw new RecordImportError(
      `tournament ${id}: ${where} already has ${recorded > 0 ? `hand${recorded === 1 ? '' : 's'} 1${recorded > 1 ? `–${recorded}` : ''} recorded at the table` : 'entries recorded at the table'}; a score sheet is entered only into a table where nothing has been recorded yet (undo those entries at the table first)`,
      409,
    );
  }
  const rules = resolveRules(game.rules);
  if (canonicalJson(rules.options) !== canonicalJson(header.rules.options)) {
    throw new RecordImportError(
      `record: rules: the tables of tournament ${id} play this event’s rules, not the record’s: ${rulesDifference(rules.options, header.rules.options, 'here', 'in the record')}`,
    );
  }
  if (dealerGiven && header.dealer !== game.dealer) {
    throw new RecordImportError(
      `record: dealer: ${where} was seated with ${SEAT_WORDS[game.dealer]} (${game.dealer}) dealing first, drawn at random when the round was seated, not ${header.dealer}`,
    );
  }
  for (const seat of SEATS) {
    const named = header.seats[seat];
    const sitting = game.seats[seat];
    if (named !== undefined && sitting !== undefined && named.trim().toLowerCase() !== sitting.trim().toLowerCase()) {
      throw new RecordImportError(`record: seats.${seat}: ${where} has ${sitting} in ${SEAT_WORDS[seat]}, not ${named}`);
    }
  }
  for (const team of ['NS', 'EW'] as const) {
    const start = header.start[team];
    if ((start.score ?? 0) !== 0 || (start.bags ?? 0) !== 0 || (start.sets ?? 0) !== 0) {
      throw new RecordImportError(
        `record: start.${team}: a round at a progressive table starts from nothing for both sides; each round's score is added to the players' totals`,
      );
    }
  }
  if (header.timeCalled !== null) {
    throw new RecordImportError(`record: timeCalled: ${where} has no clock; a round is played to its ${rules.options.hands ?? 4} hands`);
  }
  return {
    gameId: game.gameId,
    tournamentId: id,
    matchId: target.matchId,
    number: game.number,
    teams: game.teams,
    seats: game.seats,
    dealer: game.dealer,
    round: { where, hands: rules.options.hands ?? 4 },
  };
}

/**
 * Scores a round's sheet hand by hand as the table would have recorded it: each hand checked as
 * live entry checks it, no hand after the round is over ("Four hands are played in each round";
 * a tie plays one more), and none missing: a sheet that leaves the round unfinished or tied is
 * refused, since the rest of it would have to be entered at the table anyway.
 */
function checkRoundSheet(json: { hands: RecordHand[] }, round: { where: string; hands: number }): void {
  let header: RecordHeader;
  try {
    header = readHeader(json);
  } catch (error) {
    throw new RecordImportError(inRecord((error as Error).message));
  }
  let state = startRecordGame(header);
  header.hands.forEach((raw, i) => {
    if (state.winner) {
      const { NS, EW } = { NS: state.teams.NS.score, EW: state.teams.EW.score };
      throw new RecordImportError(
        `record: hands[${i}]: ${round.where} was over after hand ${i} (NS ${NS}, EW ${EW}); a round is ${round.hands} hands, and one more only while the sides are tied, so the sheet cannot have hand ${i + 1}`,
      );
    }
    try {
      state = scoreNextHand(header, state, raw, i + 1).state;
    } catch (error) {
      throw new RecordImportError(inRecord((error as Error).message));
    }
  });
  if (!state.winner) {
    const { NS, EW } = { NS: state.teams.NS.score, EW: state.teams.EW.score };
    const count = `${header.hands.length} hand${header.hands.length === 1 ? '' : 's'}`;
    throw new RecordImportError(
      state.handsPlayed >= round.hands
        ? `record: hands: the sheet ends with the sides tied at ${NS} after ${count}; a tie at the table plays one more hand, and the sheet needs it`
        : `record: hands: ${round.where} is ${round.hands} hands (one more while the sides are tied), and the sheet has ${count}; enter the whole round (NS ${NS}, EW ${EW} so far)`,
    );
  }
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

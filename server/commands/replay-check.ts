/**
 * Whether a stored row is one a live command could have produced, decided the way the live
 * command decides it. A ledger brought in whole (`spades import-ledger`) carries rows that no
 * command was asked for, so each is checked here against the read models folded from the rows
 * before it: the row's stream must be the one its payload names, and the command the row
 * records, asked again of those models, must accept it and produce the same event (the same
 * hand, the same seat's turn, a card that was dealt and not yet played, tricks that sum to 13,
 * a registration before the start, one start). Where a command makes several events at once
 * (seating a match, a progressive round) the row is held to the state that command checks.
 */
import { isDeepStrictEqual } from 'node:util';
import type { Decision } from '../../events/store/served-ledger.ts';
import { type ImportTarget, RecordImportError, importRecord } from '../../events/record-import.ts';
import { type ReadModels, applyEvent, emptyModels } from '../../events/projections.ts';
import { gameStream, matchStream, tournamentStream } from '../../events/streams.ts';
import { gameById, tournamentById } from '../../events/lookup.ts';
import { matchViews } from '../../engine/bracket.ts';
import type { FormatId } from '../../engine/formats.ts';
import { CommandError } from './command-error.ts';
import { callMisdeal, claimRenege, correctScore, dealHand, giveRuling, makeBid, playCard, recordTricks, undoLastEntry } from './game-commands.ts';
import { callTime, correctGameResult, disqualifyTeam } from './ruling-commands.ts';
import { changeRounds, checkInTeam, createTournament, pinScreen, registerPlayer, registerTeam, withdrawTeam } from './tournament-commands.ts';
import { drawRound } from './round-commands.ts';
import { decidePartnerDraw } from './partner-commands.ts';
import { holderOf, placed, recordPaid, setSignUp, undoCheckIn, undoPaid, waitingList } from './registration-commands.ts';
import { withdrawRuling } from './ruling-withdrawals.ts';

/** A row with its payload already read through its schema. */
export interface ReplayRow {
  stream: string;
  type: string;
  payload: Record<string, unknown>;
}

/** A payload already read through its schema, its fields read by name. */
// biome-ignore lint/suspicious/noExplicitAny: each field is handed to the command that wrote it, whose own type checks it
type P = Record<string, any>;

/** The command each single-event row records, asked again with the row's own values. */
const REPLAYS: Record<string, (models: ReadModels, p: P) => Decision | Decision[]> = {
  TournamentCreated: (m, p) => createTournament(m, { tournamentId: p.tournamentId, name: p.name, format: p.format as FormatId, options: p.options }),
  TeamRegistered: (m, p) =>
    registerTeam(m, {
      tournamentId: p.tournamentId,
      teamId: p.teamId,
      name: p.name,
      players: p.players,
      ...(p.registeredOn ? { registeredOn: p.registeredOn } : {}),
      ...(p.codeSeed ? { codeSeed: p.codeSeed } : {}),
      // A desk registration past a full cap raised it in the same decision (or, before the desk asked, took a place anyway).
      overCap: 'raise',
    }),
  PlayerRegistered: (m, p) =>
    registerPlayer(m, {
      tournamentId: p.tournamentId,
      playerId: p.playerId,
      name: p.name,
      ...(p.gender ? { gender: p.gender } : {}),
      ...(p.registeredOn ? { registeredOn: p.registeredOn } : {}),
      ...(p.codeSeed ? { codeSeed: p.codeSeed } : {}),
      overCap: 'raise',
    }),
  TeamCheckedIn: (m, p) => checkInTeam(m, { tournamentId: p.tournamentId, teamId: p.teamId, at: p.at, ...(p.by ? { by: p.by } : {}) }),
  SignUpClosed: (m, p) => setSignUp(m, { tournamentId: p.tournamentId, open: false, cap: null, closes: null, at: new Date(0).toISOString() }),
  FeePaid: (m, p) => recordPaid(m, { tournamentId: p.tournamentId, teamId: p.teamId }),
  FeePaymentUndone: (m, p) => undoPaid(m, { tournamentId: p.tournamentId, teamId: p.teamId }),
  CheckInUndone: (m, p) => undoCheckIn(m, { tournamentId: p.tournamentId, teamId: p.teamId }),
  TeamWithdrawn: (m, p) => withdrawTeam(m, { tournamentId: p.tournamentId, teamId: p.teamId }),
  ScreenPinned: (m, p) => pinScreen(m, { tournamentId: p.tournamentId }),
  TeamDisqualified: (m, p) => disqualifyTeam(m, { tournamentId: p.tournamentId, teamId: p.teamId, reason: p.reason, ...(p.kind ? { kind: p.kind } : {}) }),
  TimeCalled: (m, p) => callTime(m, { tournamentId: p.tournamentId, matchId: p.matchId, at: p.at }),
  GameResultCorrected: (m, p) => correctGameResult(m, { tournamentId: p.tournamentId, gameId: p.gameId, winner: p.winner, reason: p.reason, judge: p.judge }),
  HandDealt: (m, p) =>
    dealHand(m, {
      gameId: p.gameId,
      dealer: p.dealer,
      ...(p.seed !== undefined ? { seed: p.seed } : {}),
      ...(p.deal ? { deal: p.deal } : {}),
      ...(p.blind ? { blind: p.blind } : {}),
    }),
  BidMade: (m, p) => makeBid(m, { gameId: p.gameId, seat: p.seat, bid: p.bid }),
  CardPlayed: (m, p) => playCard(m, { gameId: p.gameId, seat: p.seat, card: p.card }),
  TricksRecorded: (m, p) => recordTricks(m, { gameId: p.gameId, tricks: p.tricks }),
  MisdealCalled: (m, p) => callMisdeal(m, { gameId: p.gameId, reason: p.reason }),
  RenegeClaimed: (m, p) => claimRenege(m, { gameId: p.gameId, claimId: p.claimId, hand: p.hand, seat: p.seat, trick: p.trick }),
  RulingGiven: (m, p) => giveRuling(m, { gameId: p.gameId, claimId: p.claimId, upheld: p.upheld, note: p.note, judge: p.judge }),
  ScoreCorrected: (m, p) => correctScore(m, { gameId: p.gameId, points: p.points, reason: p.reason, judge: p.judge }),
  EntryUndone: (m, p) => undoLastEntry(m, { gameId: p.gameId }),
  RulingWithdrawn: (m, p) =>
    withdrawRuling(m, {
      gameId: p.gameId,
      ...(p.claimId !== undefined ? { claimId: p.claimId } : { correction: p.correction }),
      reason: p.reason,
      judge: p.judge,
    }),
  ProgressiveRoundsChanged: (m, p) => changeRounds(m, { tournamentId: p.tournamentId, rounds: p.rounds }),
  // Partners drawn again from the players checked in, with the seed and the odd player's choice the row records.
  PartnersDrawn: (m, p) => decidePartnerDraw(m, { tournamentId: p.tournamentId, seed: p.seed, odd: p.odd }).decision,
  // The round drawn again with the cards the row records for each group's bye.
  BracketRoundDrawn: (m, p) =>
    drawRound(m, {
      tournamentId: p.tournamentId,
      round: p.round,
      ...Object.fromEntries(
        (p.draws as { group: 'winners' | 'losers'; cards: Record<string, string>[]; bye: string }[]).map((d) => [d.group, { cards: d.cards, bye: d.bye }]),
      ),
      ...(p.seed ? { seed: p.seed } : {}),
    }),
};

/** Rows whose command makes several events at once: the stream the payload names, and the state that command checks. */
const STATE_RULES: Record<string, (models: ReadModels, p: P) => string | null> = {
  // Opening sign-up is decided against the time it was opened at, which the row does not hold.
  SignUpOpened: (m, p) => {
    const tournament = tournamentById(m, p.tournamentId);
    if (!tournament) return `tournament ${p.tournamentId} does not exist`;
    if (tournament.model.status !== 'registration') return `tournament ${p.tournamentId} has started; sign-up cannot open`;
    if (p.cap !== null && p.cap < placed(tournament).length)
      return `tournament ${p.tournamentId}: ${placed(tournament).length} entrants are already registered, over a cap of ${p.cap}`;
    return null;
  },
  TeamWaitlisted: (m, p) => {
    const tournament = tournamentById(m, p.tournamentId);
    if (!tournament) return `tournament ${p.tournamentId} does not exist`;
    const signUp = tournament.registration.signUp;
    if (tournament.model.status !== 'registration' || !signUp?.open) return `sign-up for tournament ${p.tournamentId} is not open`;
    if (signUp.cap === null || placed(tournament).length < signUp.cap)
      return `tournament ${p.tournamentId} has places left, so ${p.name} would be registered, not waitlisted`;
    if (holderOf(tournament, p.name)) return `'${p.name}' is already signed up for tournament ${p.tournamentId}`;
    return null;
  },
  WaitlistPromoted: (m, p) => {
    const tournament = tournamentById(m, p.tournamentId);
    if (!tournament) return `tournament ${p.tournamentId} does not exist`;
    if (tournament.model.status !== 'registration') return `tournament ${p.tournamentId} has started`;
    // The first waiting takes a freed place; at the start, the first of those checked in (registration-commands.ts).
    const queue = waitingList(tournament);
    const at = queue.findIndex((w) => w.teamId === p.teamId);
    const here = (id: string) => tournament.checkedIn.includes(id);
    if (at < 0 || (at > 0 && !(here(p.teamId) && queue.slice(0, at).every((w) => !here(w.teamId)))))
      return `${p.teamId} is not first on the waitlist of tournament ${p.tournamentId}`;
    const cap = tournament.registration.signUp?.cap ?? null;
    if (cap !== null && placed(tournament).length >= cap) return `tournament ${p.tournamentId} has no place free for ${p.teamId}`;
    return null;
  },
  TournamentStarted: (m, p) => {
    const tournament = tournamentById(m, p.tournamentId);
    if (!tournament) return `tournament ${p.tournamentId} does not exist`;
    if (tournament.model.status !== 'registration') return `tournament ${p.tournamentId} has already started`;
    const entrants = tournament.model.teams.filter((t) => !tournament.withdrawn.includes(t.teamId)).map((t) => t.teamId);
    const seeds = p.seeds as string[];
    const unknown = seeds.filter((s) => !entrants.includes(s));
    const missing = entrants.filter((t) => !seeds.includes(t));
    if (unknown.length || missing.length || new Set(seeds).size !== seeds.length) {
      return `tournament ${p.tournamentId}: the seeds must list each registered entrant once (unknown: ${unknown.join(', ') || 'none'}; missing: ${missing.join(', ') || 'none'})`;
    }
    return null;
  },
  MatchStarted: (m, p) => {
    const tournament = tournamentById(m, p.tournamentId);
    if (!tournament) return `tournament ${p.tournamentId} does not exist`;
    if (tournament.model.status !== 'running') return `tournament ${p.tournamentId} is ${tournament.model.status}, not being played`;
    if (tournament.matchInfo[p.matchId]?.started) return `match ${p.matchId} has already started`;
    if (!tournament.bracket) return `tournament ${p.tournamentId} has no bracket matches`;
    const view = matchViews(tournament.bracket).find((v) => v.id === p.matchId);
    if (!view) return `tournament ${p.tournamentId}: match ${p.matchId} does not exist`;
    if (view.teams[0] !== p.teams[0] || view.teams[1] !== p.teams[1]) {
      return `match ${p.matchId} is ${view.teams[0] ?? 'to be decided'} v ${view.teams[1] ?? 'to be decided'}, not ${p.teams[0]} v ${p.teams[1]}`;
    }
    return null;
  },
  ClockStarted: (m, p) => {
    const tournament = tournamentById(m, p.tournamentId);
    if (!tournament) return `tournament ${p.tournamentId} does not exist`;
    if (!tournament.matchInfo[p.matchId]?.started) return `match ${p.matchId} has not started, so its clock cannot`;
    return null;
  },
  ProgressiveRoundStarted: (m, p) => {
    const tournament = tournamentById(m, p.tournamentId);
    if (!tournament) return `tournament ${p.tournamentId} does not exist`;
    if (!tournament.progressive) return `tournament ${p.tournamentId} is not played at progressive tables`;
    if (tournament.model.status === 'registration') return `tournament ${p.tournamentId} has not started`;
    const next = tournament.progressive.rounds.length + 1;
    if (p.round !== next) return `tournament ${p.tournamentId}: the next round is ${next}, not ${p.round}`;
    return null;
  },
  GameStarted: (m, p) => {
    if (p.tournamentId === null) return p.matchId === null ? null : `game ${p.gameId} names match ${p.matchId} but no tournament`;
    const tournament = tournamentById(m, p.tournamentId);
    if (!tournament) return `game ${p.gameId}: tournament ${p.tournamentId} does not exist`;
    if (tournament.model.status !== 'running') return `game ${p.gameId}: tournament ${p.tournamentId} is ${tournament.model.status}, not being played`;
    if (p.matchId === null) return null;
    if (tournament.progressive) {
      const round = tournament.progressive.rounds.find((r) => p.matchId.startsWith(`R${r.round}-T`));
      return round ? null : `game ${p.gameId}: ${p.matchId} is not a table of a round that has started`;
    }
    if (tournament.matchInfo[p.matchId]?.started) return null;
    // A game entered from a paper record goes straight into a match ready to be played.
    const view = tournament.bracket ? matchViews(tournament.bracket).find((v) => v.id === p.matchId) : undefined;
    if (!view) return `game ${p.gameId}: tournament ${p.tournamentId} has no match ${p.matchId}`;
    if (view.status !== 'ready' || view.teams[0] !== p.teams.NS || view.teams[1] !== p.teams.EW) {
      return `game ${p.gameId}: match ${p.matchId} is ${view.status} (${view.teams[0] ?? 'to be decided'} v ${view.teams[1] ?? 'to be decided'}), not open to a game of ${p.teams.NS} v ${p.teams.EW}`;
    }
    return null;
  },
};

function paperTimeCall(models: ReadModels, p: P): string | null {
  const game = gameById(models, p.gameId);
  if (!game) return `game ${p.gameId} was never started`;
  if (game.tournamentId !== p.tournamentId || game.matchId !== p.matchId)
    return `game ${p.gameId} is not a game of match ${p.matchId} of tournament ${p.tournamentId}`;
  if (game.current?.number !== p.hand)
    return `game ${p.gameId}: time is called in the hand being played (${game.current?.number ?? 'none'}), not hand ${p.hand}`;
  return null;
}

const MATCH_EVENTS = new Set(['MatchStarted', 'ClockStarted', 'TimeCalled', 'GameResultCorrected']);

/** The stream a row belongs in, from its payload: its game's, its match's or its tournament's. */
function streamOf(type: string, p: P): string | null {
  if (MATCH_EVENTS.has(type)) return matchStream(p.tournamentId, p.matchId);
  if (typeof p.gameId === 'string' && (type === 'GameStarted' || !('tournamentId' in p))) return gameStream(p.gameId);
  if (typeof p.tournamentId === 'string') return tournamentStream(p.tournamentId);
  return null;
}

/** What no live command would have written about this row, as a sentence; null when one would have. */
export function replayProblem(models: ReadModels, row: ReplayRow): string | null {
  const p = row.payload as P;
  // A game entered from a paper record carries its time call in the game's own stream, at the
  // hand the record says; the record was scored whole before it was appended.
  if (row.type === 'TimeCalled' && row.stream === gameStream(p.gameId)) return paperTimeCall(models, p);
  const stream = streamOf(row.type, p);
  if (stream !== null && stream !== row.stream) return `${row.type} belongs in stream ${stream}, not ${row.stream}`;
  const state = STATE_RULES[row.type];
  if (state) return state(models, p);
  const replay = REPLAYS[row.type];
  if (!replay) return null;
  let decisions: Decision[];
  try {
    const made = replay(models, p);
    decisions = Array.isArray(made) ? made : [made];
  } catch (error) {
    if (error instanceof CommandError) return error.message;
    throw error;
  }
  const made = decisions.find((d) => d.events.some((e) => e.type === row.type));
  const event = made?.events.find((e) => e.type === row.type);
  if (!made || !event) return `${row.type} is not what that command records`;
  if (made.stream !== row.stream) return `${row.type} belongs in stream ${made.stream}, not ${row.stream}`;
  for (const [key, value] of Object.entries(event.payload as P)) {
    if (!isDeepStrictEqual(value, p[key])) {
      const game = typeof p.gameId === 'string' && gameById(models, p.gameId) ? `game ${p.gameId}: ` : '';
      return `${game}${row.type} records ${key} ${JSON.stringify(p[key])}, but at this point of the ledger it would be ${JSON.stringify(value)}`;
    }
  }
  return null;
}

/**
 * Whether every event of a decision made without the live commands (a game entered from a paper
 * record) is one they would have made, each checked on the models as the events before it left
 * them. Folded on a copy holding only what the decision touches, so nothing live is changed.
 */
export function replayDecisionProblem(models: ReadModels, decision: Decision): string | null {
  const scratch = emptyModels();
  scratch.position = models.position;
  const tournamentIds = new Set(decision.events.map((e) => (e.payload as P).tournamentId).filter((id): id is string => typeof id === 'string'));
  for (const id of tournamentIds) {
    const tournament = tournamentById(models, id);
    if (tournament) scratch.tournaments[id] = structuredClone(tournament);
  }
  for (const event of decision.events) {
    const payload = event.payload as P;
    const existing = typeof payload.gameId === 'string' ? gameById(models, payload.gameId) : undefined;
    if (existing && !scratch.games[existing.gameId]) scratch.games[existing.gameId] = structuredClone(existing);
    const problem = replayProblem(scratch, { stream: decision.stream, type: event.type, payload });
    if (problem) return problem;
    applyEvent(scratch, {
      position: scratch.position + 1,
      type: event.type,
      payload,
      at: new Date(0).toISOString(),
      stream: decision.stream,
      version: (scratch.streams[decision.stream] ?? models.streams[decision.stream] ?? 0) + 1,
    });
  }
  return null;
}

/**
 * The decision a paper record becomes (`importRecord`), refused as a RecordImportError unless
 * each of its events is one the table's own entries would have made on these models. What both
 * the import page and `spades import` append.
 */
export function checkedRecordImport(models: ReadModels, record: unknown, target: ImportTarget, at: string): Decision {
  const decision = importRecord(models, record, target, at);
  const problem = replayDecisionProblem(models, decision);
  if (problem) throw new RecordImportError(`record: ${problem}`);
  return decision;
}

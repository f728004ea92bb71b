/**
 * Bots at the tables: a director who seats ready matches, and scorekeepers who deal from a
 * seed, enter the bots' bids and cards one at a time, and claim the reneges the plays show.
 * The director also seats progressive rounds, draws the next round of a bracket drawn round by
 * round (blp-2024) from a seed once the last one is decided, and calls time on clocks that have
 * run out by the driver's `now`. A demo judge rules each claim once it has waited a little (a
 * claim holds its match until it is ruled on, so an unruled one would hold the demo forever),
 * recorded under its own name. Everything goes through the same commands people use, so the demo, the tests
 * and the benchmarks exercise the real path. Deterministic from the tournament's seed.
 */
import { type Card, type Seat, SEATS, cardName, parseCard, teamOf, otherTeam } from '../../engine/cards.ts';
import { type Bid, bidValue, parseBid } from '../../engine/bid.ts';
import { botBid, botBlindBeforeDeal, botPlay } from '../../engine/bot.ts';
import { deckFor, TRUMPS } from '../../engine/deck.ts';
import { createRandom } from '../../engine/random.ts';
import { resolveRules } from '../../engine/rules.ts';
import { handSoFar, nextBidder } from '../../events/game-projection.ts';
import { type Decision, type LedgerHandle, servedOf } from '../../events/store/served-ledger.ts';
import type { ReadModels } from '../../events/projections.ts';
import type { GameModel } from '../../events/read-models.ts';
import type { MatchModel } from '../../events/read-models.ts';
import type { TournamentState } from '../../events/tournament-projection.ts';
import { readyTables } from '../../events/table-assignment.ts';
import { gameInPlay } from '../../events/reopening.ts';
import { type FirstDealerDraw, drawFromSeed } from '../../engine/formats.ts';
import { CommandError } from '../commands/command-error.ts';
import { claimRenege, dealHand, giveRuling, makeBid, playCard } from '../commands/game-commands.ts';
import { CommandIdReusedError, VersionConflictError } from '../../events/store/append.ts';
import { startMatch, startNextGame, startRound } from '../commands/match-commands.ts';
import { callTime } from '../commands/ruling-commands.ts';
import { drawRound, roundToDraw } from '../commands/round-commands.ts';

export interface DriverOptions {
  tournamentId: string;
  seed: string;
  /** Chance a bot reneges when it could follow (the other team then claims it). */
  renegeChance?: number;
  /** The time to record for clocks, as ISO text. */
  now?: () => string;
  /** Whether the demo judge rules on the claims (it does unless told not to, so the demo never holds forever). */
  judge?: boolean;
  /** How long by `now` the demo judge lets a claim wait before ruling on it (20 seconds when not given). */
  judgeAfterMs?: number;
}

/** One thing the bots do; `by` names who does it in the event's meta when it is not a table bot. */
type Step = (() => Decision | Decision[] | null) & { by?: string };
const BY_BOTS = { meta: { by: 'table-bot' } };

/** The demo judge, as its rulings name it and as their meta records it. */
export const DEMO_JUDGE = { name: 'Demo judge', by: 'demo-judge' } as const;
const JUDGE_AFTER_MS = 20_000;

/** A bot's step as the command a ledger runs, and afterwards whether it decided an entry. */
function botEntry(step: Step): { decide: () => Decision | Decision[]; made: () => boolean } {
  let decided = false;
  return {
    decide: () => {
      const decision = step();
      decided = decision !== null;
      return decision ?? [];
    },
    made: () => decided,
  };
}

const EXPECTED = (error: unknown) => error instanceof CommandError || error instanceof VersionConflictError || error instanceof CommandIdReusedError;

/**
 * Takes one step at every table, one entry after another, through the served ledger of either
 * store: returns how many entries were made (0 when the tournament has nothing left for bots to do).
 */
export async function driveTables(handle: LedgerHandle, options: DriverOptions): Promise<number> {
  const ledger = servedOf(handle);
  let entries = 0;
  for (const step of tableSteps(ledger, options)) {
    const entry = botEntry(step);
    try {
      await ledger.append(entry.decide, step.by ? { meta: { by: step.by } } : BY_BOTS);
      if (entry.made()) entries++;
    } catch (error) {
      if (!EXPECTED(error)) throw error;
    }
  }
  return entries;
}

/**
 * The step at every table, each decided from the models as they stand when it is run (the
 * previous one recorded): seat ready matches, call time on clocks run out, start next games,
 * and make each live game's next entry.
 */
function* tableSteps(ledger: { readonly models: ReadModels }, options: DriverOptions): Generator<Step> {
  const now = options.now ?? (() => new Date().toISOString());
  const tournament = ledger.models.tournaments[options.tournamentId];
  if (tournament?.model.status !== 'running') return;

  if (options.judge !== false) yield* judgeSteps(ledger, options.tournamentId, now, options.judgeAfterMs ?? JUDGE_AFTER_MS);

  if (tournament.progressive) {
    yield* progressiveSteps(ledger, options);
    return;
  }

  const next = roundToDraw(ledger.models, options.tournamentId);
  if (next) yield () => drawRound(ledger.models, { tournamentId: options.tournamentId, round: next.round, seed: `${options.seed}:round-${next.round}` });

  const matches = ledger.models.tournaments[options.tournamentId]!.model.matches;
  // Each ready match at the table its phone and the director's desk would start it at.
  const tables = readyTables(matches);
  for (const match of matches) {
    const table = tables.get(match.matchId);
    if (table === undefined) continue;
    const draw = firstDealerDraw(tournament, match, `${options.seed}:${match.matchId}:${match.games.length}`);
    yield () => startMatch(ledger.models, { tournamentId: options.tournamentId, matchId: match.matchId, table, at: now(), draw });
  }

  for (const match of ledger.models.tournaments[options.tournamentId]!.model.matches) {
    const clock = match.clock;
    if (match.status !== 'live' || !clock || clock.calledAt) continue;
    if (Date.parse(now()) < Date.parse(clock.startedAt) + clock.minutes * 60_000) continue;
    const gameId = match.games[match.games.length - 1];
    if (gameId && ledger.models.games[gameId]?.winner) continue;
    yield () => callTime(ledger.models, { tournamentId: options.tournamentId, matchId: match.matchId, at: now() });
  }

  for (const match of ledger.models.tournaments[options.tournamentId]!.model.matches) {
    if (match.status !== 'live') continue;
    // The game a ruling reopened is played on first; otherwise the last one.
    const gameId = gameInPlay(match, ledger.models.games)?.gameId ?? match.games[match.games.length - 1];
    const game = gameId ? ledger.models.games[gameId] : undefined;
    if (!game || game.winner) {
      yield () => startNextGame(ledger.models, { tournamentId: options.tournamentId, matchId: match.matchId, at: now() });
      continue;
    }
    yield () => (ledger.models.games[game.gameId]?.winner ? null : nextEntry(ledger, ledger.models.games[game.gameId]!, options));
  }
}

/**
 * The demo judge: rules on each claim in the tournament's games once it has waited `afterMs` by
 * the driver's clock (or at once when the claim's recorded time is later than that clock says, so
 * two clocks that disagree hold nothing forever). Upheld when the engine finds that renege in the
 * recorded plays, denied when it does not.
 */
function* judgeSteps(ledger: { readonly models: ReadModels }, tournamentId: string, now: () => string, afterMs: number): Generator<Step> {
  for (const game of Object.values(ledger.models.games)) {
    if (game.tournamentId !== tournamentId || game.claims.length === 0) continue;
    for (const claim of game.claims) {
      if (claim.ruling) continue;
      const waited = Date.parse(now()) - Date.parse(claim.at);
      if (waited >= 0 && waited < afterMs) continue;
      const step: Step = () => {
        const current = ledger.models.games[game.gameId];
        const open = current?.claims.find((c) => c.claimId === claim.claimId);
        if (!current || !open || open.ruling) return null;
        const found = renegeFound(current, open);
        const note = found ? `${DEMO_JUDGE.name}: the recorded plays show it.` : `${DEMO_JUDGE.name}: the recorded plays do not show it.`;
        return giveRuling(ledger.models, { gameId: game.gameId, claimId: claim.claimId, upheld: found, note, judge: DEMO_JUDGE.name });
      };
      step.by = DEMO_JUDGE.by;
      yield step;
    }
  }
}

/** Whether the engine finds the claimed renege (that seat, and that trick when one is named) in the hand's recorded plays. */
function renegeFound(game: GameModel, claim: GameModel['claims'][number]): boolean {
  let found: { seat: Seat; trick: number }[];
  try {
    found = game.current?.number === claim.hand ? (handSoFar(game)?.reneges ?? []) : (game.rows[claim.hand - 1]?.reneges ?? []);
  } catch {
    found = [];
  }
  return found.some((r) => r.seat === claim.seat && (claim.trick === null || r.trick === claim.trick));
}

/** Seats the next progressive round when the last one is over, and plays every table's game. */
function* progressiveSteps(ledger: { readonly models: ReadModels }, options: DriverOptions): Generator<Step> {
  const tournament = ledger.models.tournaments[options.tournamentId]!;
  if (tournament.progressive?.nextSeating) yield () => startRound(ledger.models, { tournamentId: options.tournamentId, seed: options.seed });
  const round = ledger.models.tournaments[options.tournamentId]!.progressive!.rounds.at(-1);
  if (!round || round.results !== null) return;
  for (const gameId of Object.values(round.games)) {
    if (!ledger.models.games[gameId] || ledger.models.games[gameId]!.winner) continue;
    yield () => (ledger.models.games[gameId]?.winner ? null : nextEntry(ledger, ledger.models.games[gameId]!, options));
  }
}

/**
 * The first-dealer draw the players make at the table, simulated from a seed as the format
 * says: everyone draws a card, the lower seed calls a coin toss, or a random seat.
 */
function firstDealerDraw(tournament: TournamentState, match: MatchModel, seed: string): FirstDealerDraw {
  const method = tournament.format.firstDealer;
  switch (method) {
    case 'high-card':
      return { method, rounds: drawFromSeed(SEATS, seed) };
    case 'coin-toss': {
      const seedOf = (teamId: string | null) => tournament.model.teams.find((t) => t.teamId === teamId)?.seed ?? Infinity;
      const [a, b] = match.teams as [string, string];
      const caller = seedOf(a) <= seedOf(b) ? a : b;
      const random = createRandom(seed);
      const call = random.int(2) === 0 ? 'heads' : 'tails';
      const toss = random.int(2) === 0 ? 'heads' : 'tails';
      return { method, caller, call, toss, choice: SEATS[random.int(4)]! };
    }
    case 'random':
      return { method, seed };
    default: {
      const _exhaustive: never = method;
      return _exhaustive;
    }
  }
}

/** The next entry a scorekeeper makes for a game: a deal, a bid, a card, or a renege claim. */
export function nextEntry(
  ledger: { readonly models: ReadModels },
  game: GameModel,
  options: Pick<DriverOptions, 'seed' | 'renegeChance' | 'judge'>,
): Decision | null {
  const models = ledger.models;
  const current = game.current;
  const handNo = game.hands.length + 1;
  const seedFor = (what: string) => `${options.seed}:${game.gameId}:${handNo}:${what}`;
  if (!current) {
    // A ruling moves the score the next hand's bids are judged by (a blind bid needs the team far
    // enough behind), so while the demo judge is at work a table waits for it before dealing again.
    if (options.judge !== false && game.claims.some((claim) => !claim.ruling)) return null;
    // A team far enough behind may declare its blind bids before the cards are dealt (Pitt Boss).
    const blind = botBlindBeforeDeal(resolveRules(game.rules).options, game.score, createRandom(seedFor('blind')));
    return dealHand(models, { gameId: game.gameId, seed: seedFor('deal'), ...(blind ? { blind } : {}) });
  }

  const rules = resolveRules(game.rules);
  const deck = deckFor(rules.options);
  const dealt = (seat: Seat): Card[] => (current.deal?.[seat] ?? []).map((n) => parseCard(n)!);
  const bidder = nextBidder(game);
  if (bidder) {
    const bids: Partial<Record<Seat, Bid>> = {};
    for (const s of SEATS) if (current.bids[s] !== undefined) bids[s] = parseBid(current.bids[s])!;
    const team = teamOf(bidder);
    const bid = botBid({
      options: rules.options,
      seat: bidder,
      hand: dealt(bidder),
      bids,
      behind: game.score[otherTeam(team)] - game.score[team],
      random: createRandom(seedFor(`bid-${bidder}`)),
    });
    return makeBid(models, { gameId: game.gameId, seat: bidder, bid: bidValue(bid) });
  }

  const so = handSoFar(game)!;
  // The other team claims a renege as soon as the plays show it.
  for (const renege of so.reneges) {
    const claimId = `${game.gameId}-h${current.number}-t${renege.trick}-${renege.seat}`;
    if (!game.claims.some((c) => c.claimId === claimId)) {
      return claimRenege(models, { gameId: game.gameId, claimId, hand: current.number, seat: renege.seat, trick: renege.trick });
    }
  }
  const seat = so.next;
  if (!seat) return null;
  const played = new Uint8Array(54);
  for (const trick of current.plays) for (const name of trick) played[parseCard(name)!] = 1;
  const hand = dealt(seat).filter((c) => !played[c]);
  const last = so.tricks[so.tricks.length - 1];
  const trick = last && last.cards.length < 4 ? last.cards : [];
  // Only a lead asks whether trumps are broken, and a lead starts a trick: look at complete tricks.
  const trumpsBroken = so.tricks.some((t) => t.cards.length === 4 && t.cards.some((c) => deck.suit[c] === TRUMPS));
  const bids = Object.fromEntries(SEATS.map((s) => [s, parseBid(current.bids[s])!])) as Record<Seat, Bid>;
  const team = teamOf(seat);
  const card = botPlay({
    deck,
    options: rules.options,
    seat,
    hand,
    trick,
    trumpsBroken,
    bids,
    taken: so.taken,
    played,
    bags: game.bags[team],
    random: createRandom(seedFor(`play-${current.plays.flat().length}`)),
    style: { renege: options.renegeChance ?? 0 },
  });
  return playCard(models, { gameId: game.gameId, seat, card: cardName(card) });
}

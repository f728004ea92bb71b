/**
 * Match and round commands: what a director asks of an event once it has started. Seating
 * bracket matches with their first dealer, the next game of a match and progressive rounds (a
 * judge's rulings are in ruling-commands.ts). Each is decided against
 * the read models and the engine, and either refused with a sentence naming what was wrong and
 * where, or turned into events.
 */
import { seatedAtTables } from '../../engine/format-play.ts';
import { type MatchView, matchViews } from '../../engine/bracket.ts';
import { type Seat, SEATS } from '../../engine/cards.ts';
import { type FirstDealerDraw, clockForMatch, firstDealerFrom, rulesForMatch, rulesForRound, tossWinner } from '../../engine/formats.ts';
import { gameStream, matchGameId, matchStream, tournamentStream } from '../../events/streams.ts';
import type { Decision } from '../../events/store/served-ledger.ts';
import { progressiveMatchId } from '../../events/progressive-projection.ts';
import { firstDealerAfter } from '../../events/game-projection.ts';
import type { GameModel } from '../../events/read-models.ts';
import { resolveRules } from '../../engine/rules.ts';
import { choiceLabel } from '../../engine/rule-options.ts';
import type { ReadModels } from '../../events/projections.ts';
import { type TournamentState, matchDecidedAtTable } from '../../events/tournament-projection.ts';
import { CommandError } from './command-error.ts';
import { gameInPlay } from '../../events/reopening.ts';
import { gameById, tournamentById } from '../../events/lookup.ts';
import { tournamentOf } from './tournament-lookup.ts';

function bracketMatch(tournament: TournamentState, matchId: string): MatchView {
  if (!tournament.bracket)
    throw new CommandError(
      `tournament ${tournament.model.tournamentId} has no bracket ${seatedAtTables(tournament.format) ? '(it plays progressive tables)' : 'yet'}`,
      409,
    );
  const view = matchViews(tournament.bracket).find((m) => m.id === matchId);
  if (!view) throw new CommandError(`tournament ${tournament.model.tournamentId}: match ${matchId} does not exist`, 404);
  return view;
}

/** How a match's first dealer is decided when it is seated. */
export interface FirstDealerChoice {
  /** The draw or toss made at the table, in the event's own method (rules.md "Misdeals and the deal"). */
  draw?: FirstDealerDraw;
  /**
   * With a draw: the seat the table says deals first, checked against the draw. Without one: a
   * dealer named outright, which needs `namedBecause` (a match entered after the fact, the draw
   * made on paper).
   */
  firstDealer?: Seat;
  namedBecause?: string;
}

/** How a first dealer is chosen, in the words the rule option's choices say it. */
const methodWords = (method: unknown) => choiceLabel('firstDealer', method);

/** The first dealer of a match and what is recorded of how it was chosen, or a refusal naming what is wrong. */
function decideFirstDealer(
  tournament: TournamentState,
  matchId: string,
  teams: [string, string],
  choice: FirstDealerChoice,
): { dealer: Seat; record: Record<string, unknown> } {
  const method = tournament.format.firstDealer;
  const { draw, firstDealer } = choice;
  if (firstDealer !== undefined && !SEATS.includes(firstDealer))
    throw new CommandError(`match ${matchId}: the first dealer is N, E, S or W, not '${String(firstDealer)}'`);
  if (!draw) {
    if (firstDealer === undefined) {
      const how =
        method === 'coin-toss'
          ? 'record the toss: who called it, the call, how it came down and the dealer its winner chose'
          : method === 'high-card'
            ? 'record the card each seat drew'
            : 'give the seed it is drawn from';
      throw new CommandError(`match ${matchId}: the first dealer is chosen by ${methodWords(method)} in this event; ${how}`);
    }
    const because = choice.namedBecause?.trim();
    if (!because)
      throw new CommandError(
        `match ${matchId}: a first dealer named without ${methodWords(method)} needs a reason (for example, the draw was made on paper before the match was entered)`,
      );
    return { dealer: firstDealer, record: { method: 'named', dealer: firstDealer, because } };
  }
  if (draw.method !== method)
    throw new CommandError(
      `match ${matchId}: the first dealer is chosen by ${methodWords(method)} in this event, not by ${methodWords(draw.method) ?? `'${String(draw.method)}'`}`,
    );
  const seedOf = (teamId: string) => tournament.model.teams.find((t) => t.teamId === teamId)?.seed ?? null;
  let dealer: Seat;
  try {
    dealer = firstDealerFrom(draw, [
      { id: teams[0], seed: seedOf(teams[0]) },
      { id: teams[1], seed: seedOf(teams[1]) },
    ]);
  } catch (error) {
    throw new CommandError(`match ${matchId}: ${(error as Error).message}`);
  }
  if (firstDealer !== undefined && firstDealer !== dealer) {
    const why =
      draw.method === 'high-card'
        ? `${dealer} drew the highest card`
        : draw.method === 'coin-toss'
          ? `the toss's winner chose ${dealer}`
          : `the draw gives ${dealer}`;
    throw new CommandError(`match ${matchId}: ${why}, so ${dealer} deals first, not ${firstDealer}`);
  }
  return { dealer, record: { ...draw, dealer, ...(draw.method === 'coin-toss' ? { winner: tossWinner(draw, teams) } : {}) } };
}

/** What a match's clock times, as its format says (a ledger from before `clockPer` is per match). */
function clockPerIn(tournament: TournamentState): 'match' | 'game' {
  return tournament.format.clockPer ?? 'match';
}

/**
 * Seats a ready bracket match at a table, starts its clock and its first game. The first dealer
 * comes from the draw or toss made at the table (the format says which), or, only with a reason,
 * is named outright. The clock is the format's unless the director sets one (`clockMinutes`, or
 * null for none): the BLP final "If this game starts after 4 pm, a time limit may be imposed".
 * A match put under review by a correction is replayed the same way.
 */
export function startMatch(
  models: ReadModels,
  input: { tournamentId: string; matchId: string; table: number; at: string; clockMinutes?: number | null } & FirstDealerChoice,
): Decision[] {
  const tournament = tournamentOf(models, input.tournamentId);
  const view = bracketMatch(tournament, input.matchId);
  const info = tournament.matchInfo[input.matchId];
  const replay = view.status === 'under-review' && view.teams[0] !== null && view.teams[1] !== null;
  if (view.status !== 'ready' && !replay) throw new CommandError(`match ${input.matchId} is ${view.status}, not ready to play`, 409);
  if (info?.started) throw new CommandError(`match ${input.matchId} has already started`, 409);
  if (!Number.isInteger(input.table) || input.table < 1)
    throw new CommandError(`match ${input.matchId}: the table must be a number from 1, not ${String(input.table)}`);
  const minutes = input.clockMinutes === undefined ? clockForMatch(tournament.format, view) : input.clockMinutes;
  if (minutes !== null && (!Number.isInteger(minutes) || minutes < 1 || minutes > 600)) {
    throw new CommandError(`match ${input.matchId}: a time limit is whole minutes from 1 to 600, or none, not ${String(minutes)}`);
  }
  const teams = view.teams as [string, string];
  const carried = carriedFirstDealer(models, input.tournamentId, input.matchId);
  const { dealer, record } = carried ? keepRotation(input.matchId, carried, input) : decideFirstDealer(tournament, input.matchId, teams, input);
  const per = clockPerIn(tournament);
  const number = (info?.games.length ?? 0) + 1;
  const game = nextGame(tournament, input.matchId, teams, view, dealer, number);
  const events: Decision['events'] = [
    {
      type: 'MatchStarted',
      payload: { tournamentId: input.tournamentId, matchId: input.matchId, teams, table: input.table, firstDealer: record, clock: { per, minutes } },
    },
  ];
  if (minutes !== null) events.push(clockStarted(input.tournamentId, input.matchId, input.at, minutes, per === 'game' ? game.gameId : null));
  return [{ stream: matchStream(input.tournamentId, input.matchId), events }, game.decision];
}

/**
 * The first dealer of a match seated after games already entered from paper, where the rules
 * carry the deal across games (asher "The deal will keep this rotation throughout the entire
 * challenge"): the seat after the last dealer of the last game, which no toss decides again.
 * Null when the match has no finished game between its teams, or the rules deal afresh.
 */
export function carriedFirstDealer(models: ReadModels, tournamentId: string, matchId: string): { dealer: Seat; after: GameModel } | null {
  const tournament = tournamentById(models, tournamentId);
  const match = tournament?.model.matches.find((m) => m.matchId === matchId);
  const last = match && match.games.length > 0 ? gameById(models, match.games[match.games.length - 1]!) : undefined;
  if (!match || !last?.winner || last.teams.NS !== match.teams[0] || last.teams.EW !== match.teams[1]) return null;
  return resolveRules(last.rules).options.dealerCarriesAcrossGames ? { dealer: firstDealerAfter(last), after: last } : null;
}

function keepRotation(
  matchId: string,
  carried: { dealer: Seat; after: GameModel },
  choice: FirstDealerChoice,
): { dealer: Seat; record: Record<string, unknown> } {
  const { dealer, after } = carried;
  if (choice.firstDealer !== undefined && choice.firstDealer !== dealer) {
    throw new CommandError(
      `match ${matchId}: the deal keeps its rotation through the challenge; game ${after.number} left it to ${dealer}, so ${dealer} deals first, not ${choice.firstDealer}`,
    );
  }
  return { dealer, record: { method: 'rotation', dealer, after: after.gameId } };
}

function clockStarted(tournamentId: string, matchId: string, at: string, minutes: number, gameId: string | null): Decision['events'][number] {
  return { type: 'ClockStarted', payload: { tournamentId, matchId, at, minutes, ...(gameId ? { gameId } : {}) } };
}

function nextGame(
  tournament: TournamentState,
  matchId: string,
  teams: [string, string],
  view: MatchView,
  dealer: Seat,
  number: number,
): { gameId: string; decision: Decision } {
  const tournamentId = tournament.model.tournamentId;
  const rules = rulesForMatch(tournament.format, view);
  const gameId = matchGameId(tournamentId, matchId, number);
  const names = (teamId: string) => tournament.model.teams.find((t) => t.teamId === teamId)?.players ?? [];
  const [a, b] = [names(teams[0]), names(teams[1])];
  const seats: Partial<Record<Seat, string>> = {};
  if (a[0]) seats.N = a[0];
  if (b[0]) seats.E = b[0];
  if (a[1]) seats.S = a[1];
  if (b[1]) seats.W = b[1];
  return {
    gameId,
    decision: {
      stream: gameStream(gameId),
      events: [{ type: 'GameStarted', payload: { gameId, matchId, tournamentId, number, rules, teams: { NS: teams[0], EW: teams[1] }, seats, dealer } }],
    },
  };
}

/**
 * Starts the next game of a best-of-N match whose last game is over and that is not decided
 * yet. Where each game has its own clock (asher "Each challenge game is played to 350 points or
 * the 1-hour time limit"), the game's clock starts with it, as long as the one set at seating.
 */
export function startNextGame(models: ReadModels, input: { tournamentId: string; matchId: string; at: string }): Decision[] {
  const tournament = tournamentById(models, input.tournamentId);
  const match = tournament?.model.matches.find((m) => m.matchId === input.matchId);
  if (!tournament || !match) throw new CommandError(`match ${input.matchId} does not exist`, 404);
  if (match.status !== 'live') throw new CommandError(`match ${input.matchId} is ${match.status}, not live`, 409);
  const last = match.games.length ? gameById(models, match.games[match.games.length - 1]!) : undefined;
  if (last && !last.winner) throw new CommandError(`game ${last.gameId} is still being played`, 409);
  // A game a ruling reopened is finished before any further game of its match is started.
  const reopened = gameInPlay(match, models.games);
  if (reopened)
    throw new CommandError(
      `${match.label}: game ${reopened.number} was reopened by ${match.reopened?.by ?? 'a ruling'} and is played on before any further game`,
      409,
    );
  // Its games as played decide it: no further game is played while its result waits for a ruling.
  if (match.awaitingRuling && matchDecidedAtTable(tournament, input.matchId, models.games)) {
    throw new CommandError(
      `match ${input.matchId} needs no further game: its games decide it as played, and its result waits for a ruling on ${match.table !== null ? `table ${match.table}` : match.label}`,
      409,
    );
  }
  // The deal keeps rotating across the games of a match where the rules say so (asher: "The
  // deal will keep this rotation throughout the entire challenge").
  const dealer: Seat = last ? firstDealerAfter(last) : 'N';
  const view = bracketMatch(tournament, input.matchId);
  const game = nextGame(tournament, input.matchId, match.teams as [string, string], view, dealer, match.games.length + 1);
  const info = tournament.matchInfo[input.matchId];
  // A match seated before the plan was recorded keeps its one clock, as it was played.
  const plan = info?.clockPlan;
  if (plan?.per !== 'game' || plan.minutes === null) return [game.decision];
  return [
    { stream: matchStream(input.tournamentId, input.matchId), events: [clockStarted(input.tournamentId, input.matchId, input.at, plan.minutes, game.gameId)] },
    game.decision,
  ];
}

/**
 * Seats the next round of a progressive event at every table and starts each table's game
 * (4 hands; a tie plays one more). The seating (and who sits out) is the one the last round's
 * results give, recorded in the event; each table's first dealer is drawn at random from the
 * recorded seed.
 */
export function startRound(models: ReadModels, input: { tournamentId: string; seed: string }): Decision[] {
  const tournament = tournamentOf(models, input.tournamentId);
  const progressive = tournament.progressive;
  const id = input.tournamentId;
  if (!progressive) throw new CommandError(`tournament ${id} is a bracket event; its matches are started one by one`, 409);
  if (tournament.model.status === 'registration') throw new CommandError(`tournament ${id} has not started; start it to seat the first round`, 409);
  const total = tournament.format.rounds ?? 1;
  const round = progressive.rounds.length + 1;
  if (round > total) throw new CommandError(`tournament ${id}: all ${total} rounds have been played`, 409);
  const playing = progressive.rounds.find((r) => r.results === null);
  if (playing) {
    const open = playing.seating.filter((t) => !gameById(models, playing.games[String(t.table)] ?? '')?.winner).map((t) => t.table);
    throw new CommandError(`tournament ${id}: round ${playing.round} is still being played at table${open.length === 1 ? '' : 's'} ${open.join(', ')}`, 409);
  }
  const seating = progressive.nextSeating;
  if (!seating) throw new CommandError(`tournament ${id}: no seating for round ${round}${progressive.problem ? ` (${progressive.problem})` : ''}`, 409);
  const name = (playerId: string) => tournament.model.teams.find((t) => t.teamId === playerId)?.name ?? playerId;
  const rules = rulesForRound(tournament.format);
  const games: Decision[] = seating.map((table) => {
    const matchId = progressiveMatchId(round, table.table);
    const gameId = `${id}-${matchId}`;
    const dealer = firstDealerFrom({ method: 'random', seed: `${input.seed}:${matchId}` }, [
      { id: table.seats.N, seed: null },
      { id: table.seats.E, seed: null },
    ]);
    const seats = Object.fromEntries(SEATS.map((s) => [s, name(table.seats[s])]));
    return {
      stream: gameStream(gameId),
      events: [
        {
          type: 'GameStarted',
          payload: {
            gameId,
            matchId,
            tournamentId: id,
            number: 1,
            rules,
            teams: { NS: `${table.seats.N}+${table.seats.S}`, EW: `${table.seats.E}+${table.seats.W}` },
            seats,
            dealer,
          },
        },
      ],
    };
  });
  const sittingOut = progressive.nextSittingOut ?? [];
  const payload = { tournamentId: id, round, seating, ...(sittingOut.length > 0 ? { sittingOut } : {}) };
  return [{ stream: tournamentStream(id), events: [{ type: 'ProgressiveRoundStarted', payload }] }, ...games];
}

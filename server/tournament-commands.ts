/**
 * Tournament commands: what a director and judges ask of a whole event. Setting it up from a
 * format (or a custom one), registration with its fees, check-in, withdrawal, the start with its
 * seeding and bye draw, seating matches with their first dealer, progressive rounds, clocks,
 * disqualifications and corrections. Each is decided against the read models and the engine,
 * and either refused with a sentence naming what was wrong and where, or turned into events.
 */
import { type MatchView, buildBracket, matchViews } from '../engine/bracket.ts';
import { type Seat, SEATS } from '../engine/cards.ts';
import {
  type FirstDealerDraw,
  type FormatId,
  type FormatOptions,
  clockForMatch,
  drawFromSeed,
  feeFor,
  firstDealerFrom,
  formatOptions,
  formatProblem,
  rulesForMatch,
  rulesForRound,
  tossWinner,
} from '../engine/formats.ts';
import { nextDealer } from '../engine/game.ts';
import { initialSeating } from '../engine/progressive.ts';
import { resolveRules, RulesError } from '../engine/rules.ts';
import { type DrawRound, drawBye, randomSeeding, withByesTo } from '../engine/seeding.ts';
import { gameStream, matchGameId, matchStream, tournamentStream } from '../events/streams.ts';
import type { Decision } from '../events/ledger.ts';
import { progressiveMatchId } from '../events/progressive-projection.ts';
import type { ReadModels } from '../events/projections.ts';
import type { TournamentState } from '../events/tournament-projection.ts';
import { pinnedTournament, screenIsPinned } from '../events/screen-pin.ts';
import { CommandError } from './commands.ts';
import { canKeyReadModel, gameById, tournamentById } from '../events/lookup.ts';


function tournamentOf(models: ReadModels, tournamentId: string): TournamentState {
  const tournament = tournamentById(models, tournamentId);
  if (!tournament) throw new CommandError(`tournament ${tournamentId} does not exist`, 404);
  return tournament;
}

function entrantOf(tournament: TournamentState, teamId: string) {
  const row = tournament.model.teams.find((t) => t.teamId === teamId);
  const what = tournament.progressive ? 'player' : 'team';
  if (!row) throw new CommandError(`tournament ${tournament.model.tournamentId}: ${what} ${teamId} is not registered`, 404);
  return row;
}

const isDate = (text: string) => /^\d{4}-\d{2}-\d{2}$/.test(text);

/** Creates a tournament from a format; a custom event gives its own options on top of the format it starts from. */
export function createTournament(
  models: ReadModels,
  input: { tournamentId: string; name: string; format: FormatId; options?: Partial<FormatOptions> },
): Decision {
  if (!canKeyReadModel(input.tournamentId)) throw new CommandError(`'${input.tournamentId}' cannot be a tournament id; choose letters, digits and dashes`);
  if (tournamentById(models, input.tournamentId)) throw new CommandError(`tournament ${input.tournamentId} already exists`, 409);
  if (!input.name.trim()) throw new CommandError('the tournament needs a name');
  const options = formatOptions(input.format, input.options);
  const problem = formatProblem(options);
  if (problem) throw new CommandError(`tournament ${input.tournamentId}: ${problem}`);
  for (const rules of [options.rules, options.firstRoundRules, options.finalRules]) {
    if (rules === null) continue;
    try {
      resolveRules(rules);
    } catch (error) {
      if (error instanceof RulesError) throw new CommandError(`tournament ${input.tournamentId}: ${error.message}`);
      throw error;
    }
  }
  return {
    stream: tournamentStream(input.tournamentId),
    events: [{ type: 'TournamentCreated', payload: { tournamentId: input.tournamentId, name: input.name.trim(), format: input.format, options } }],
  };
}

function openRegistration(tournament: TournamentState, name: string): void {
  const id = tournament.model.tournamentId;
  if (tournament.model.status !== 'registration') throw new CommandError(`tournament ${id} has started; registration is closed`, 409);
  if (tournament.model.teams.some((t) => t.name.toLowerCase() === name.toLowerCase() && !tournament.withdrawn.includes(t.teamId))) {
    throw new CommandError(`tournament ${id}: '${name}' is already registered`, 409);
  }
}

function checkRegisteredOn(tournament: TournamentState, registeredOn: string | undefined, who: string): void {
  const id = tournament.model.tournamentId;
  if (registeredOn !== undefined && !isDate(registeredOn)) {
    throw new CommandError(`tournament ${id}: ${who}'s registration date must be a day such as 2024-09-12, not '${registeredOn}'`);
  }
}

/**
 * Registers a team of two named players. Where the format has fees, the registration day picks
 * the fee: early up to and including the deadline, late after it (blp-2024: "$30 fee for teams
 * registered by Sept 12th. $40 fee for late registrants").
 */
export function registerTeam(
  models: ReadModels,
  input: { tournamentId: string; teamId: string; name: string; players: string[]; registeredOn?: string },
): Decision {
  const tournament = tournamentOf(models, input.tournamentId);
  if (!canKeyReadModel(input.teamId)) throw new CommandError(`'${input.teamId}' cannot be a team id; choose letters, digits and dashes`);
  if (tournament.progressive) {
    throw new CommandError(`tournament ${input.tournamentId} plays progressive tables, where partners change every round; register individual players`);
  }
  if (tournament.model.teams.some((t) => t.teamId === input.teamId)) throw new CommandError(`team ${input.teamId} is already registered`, 409);
  openRegistration(tournament, input.name.trim());
  if (input.players.length !== 2 || input.players.some((p) => !p.trim())) throw new CommandError(`team '${input.name}' needs two named players`);
  // Without a registration day (the bots, the demo) the early fee applies.
  const registeredOn = input.registeredOn?.slice(0, 10);
  if (registeredOn !== undefined) checkRegisteredOn(tournament, registeredOn, `team '${input.name.trim()}'`);
  const payload: Record<string, unknown> = {
    tournamentId: input.tournamentId,
    teamId: input.teamId,
    name: input.name.trim(),
    players: input.players.map((p) => p.trim()),
    fee: feeFor(tournament.format, registeredOn),
  };
  if (registeredOn !== undefined) payload.registeredOn = registeredOn;
  return { stream: tournamentStream(input.tournamentId), events: [{ type: 'TeamRegistered', payload }] };
}

/** Registers one player for a progressive event (tournament-spades: partners change every round). */
export function registerPlayer(
  models: ReadModels,
  input: { tournamentId: string; playerId: string; name: string; gender?: 'male' | 'female'; registeredOn?: string },
): Decision {
  const tournament = tournamentOf(models, input.tournamentId);
  if (!tournament.progressive) throw new CommandError(`tournament ${input.tournamentId} is played by teams of two; register a team`);
  if (!canKeyReadModel(input.playerId)) throw new CommandError(`'${input.playerId}' cannot be a player id; choose letters, digits and dashes`);
  if (tournament.model.teams.some((t) => t.teamId === input.playerId)) throw new CommandError(`player ${input.playerId} is already registered`, 409);
  const name = input.name.trim();
  if (!name) throw new CommandError(`tournament ${input.tournamentId}: player ${input.playerId} needs a name`);
  openRegistration(tournament, name);
  if (input.gender !== undefined && input.gender !== 'male' && input.gender !== 'female') {
    throw new CommandError(`player '${name}': gender is recorded as male or female (for the high male / high female prizes), not '${String(input.gender)}'`);
  }
  const registeredOn = input.registeredOn?.slice(0, 10);
  if (registeredOn !== undefined) checkRegisteredOn(tournament, registeredOn, `player '${name}'`);
  const payload: Record<string, unknown> = { tournamentId: input.tournamentId, playerId: input.playerId, name, fee: feeFor(tournament.format, registeredOn) };
  if (input.gender) payload.gender = input.gender;
  if (registeredOn !== undefined) payload.registeredOn = registeredOn;
  return { stream: tournamentStream(input.tournamentId), events: [{ type: 'PlayerRegistered', payload }] };
}

/**
 * A director pins a tournament to the venue's `/screen` address: every TV left there shows it,
 * whatever is created later, until another is pinned.
 */
export function pinScreen(models: ReadModels, input: { tournamentId: string }): Decision {
  const tournament = tournamentOf(models, input.tournamentId);
  if (pinnedTournament(models) === input.tournamentId && screenIsPinned(models)) {
    throw new CommandError(`/screen already shows ${tournament.model.name}`, 409);
  }
  return { stream: tournamentStream(input.tournamentId), events: [{ type: 'ScreenPinned', payload: { tournamentId: input.tournamentId } }] };
}

/** A registered team (or player) has arrived at the venue. */
export function checkInTeam(models: ReadModels, input: { tournamentId: string; teamId: string; at: string }): Decision {
  const tournament = tournamentOf(models, input.tournamentId);
  const row = entrantOf(tournament, input.teamId);
  if (tournament.model.status !== 'registration') throw new CommandError(`tournament ${input.tournamentId} has started; check-in is closed`, 409);
  if (tournament.withdrawn.includes(input.teamId)) throw new CommandError(`tournament ${input.tournamentId}: '${row.name}' has withdrawn and cannot check in`, 409);
  if (tournament.checkedIn.includes(input.teamId)) throw new CommandError(`tournament ${input.tournamentId}: '${row.name}' is already checked in`, 409);
  return { stream: tournamentStream(input.tournamentId), events: [{ type: 'TeamCheckedIn', payload: { tournamentId: input.tournamentId, teamId: input.teamId, at: input.at } }] };
}

/** A team (or player) withdraws its registration: only before the start. */
export function withdrawTeam(models: ReadModels, input: { tournamentId: string; teamId: string }): Decision {
  const tournament = tournamentOf(models, input.tournamentId);
  const row = entrantOf(tournament, input.teamId);
  if (tournament.model.status !== 'registration') {
    throw new CommandError(
      `tournament ${input.tournamentId} has started, so '${row.name}' can no longer withdraw; a director disqualifies it or records a no-show, and its remaining matches are forfeited`,
      409,
    );
  }
  if (tournament.withdrawn.includes(input.teamId)) throw new CommandError(`tournament ${input.tournamentId}: '${row.name}' has already withdrawn`, 409);
  return { stream: tournamentStream(input.tournamentId), events: [{ type: 'TeamWithdrawn', payload: { tournamentId: input.tournamentId, teamId: input.teamId } }] };
}

/**
 * Seeds the entrants (in the given order, or shuffled from a recorded seed) and draws the
 * bracket. Once check-in has begun, everyone still registered must have checked in. An odd
 * count in a blp-2024 event gives the bye to the highest card of the recorded draw ("With an odd
 * number of teams, a team representative will select a card. The highest card drawn will
 * receive a BYE"); when no cards are given, the draw is made from the seed and recorded.
 */
export function startTournament(
  models: ReadModels,
  input: { tournamentId: string; order?: string[]; seed?: string; byeDraw?: DrawRound[] },
): Decision {
  const tournament = tournamentOf(models, input.tournamentId);
  const id = input.tournamentId;
  if (tournament.model.status !== 'registration') throw new CommandError(`tournament ${id} has already started`, 409);
  const teams = tournament.model.teams.filter((t) => !tournament.withdrawn.includes(t.teamId)).map((t) => t.teamId);
  const what = tournament.progressive ? 'players' : 'teams';
  if (teams.length < 2) throw new CommandError(`tournament ${id} needs at least 2 ${what} to start; it has ${teams.length}`);
  if (tournament.checkedIn.length > 0) {
    const absent = teams.filter((t) => !tournament.checkedIn.includes(t));
    if (absent.length > 0) {
      throw new CommandError(`tournament ${id}: ${absent.join(', ')} ${absent.length === 1 ? 'has' : 'have'} not checked in; check them in or withdraw them before the start`, 409);
    }
  }
  let seeds: string[];
  let seeding: Record<string, unknown>;
  if (input.order) {
    const unknown = input.order.filter((t) => !teams.includes(t));
    const missing = teams.filter((t) => !input.order!.includes(t));
    if (unknown.length || missing.length || input.order.length !== teams.length) {
      throw new CommandError(`the seeding order must list each registered entrant once (unknown: ${unknown.join(', ') || 'none'}; missing: ${missing.join(', ') || 'none'})`);
    }
    seeds = [...input.order];
    seeding = { method: 'manual' };
  } else {
    const seed = input.seed ?? 'seed';
    seeds = randomSeeding(teams, seed);
    seeding = { method: 'random', seed };
  }
  const payload: Record<string, unknown> = { tournamentId: id, seeds, seeding };
  if (tournament.progressive) {
    try {
      initialSeating(seeds);
    } catch (error) {
      throw new CommandError(`tournament ${id}: ${(error as Error).message}`);
    }
  } else {
    // Draw the bracket now, so a field the format cannot take is refused before anything is recorded.
    try {
      buildBracket(seeds, { format: tournament.format.elimination as Exclude<FormatOptions['elimination'], 'progressive'>, reset: tournament.format.reset });
    } catch (error) {
      throw new CommandError(`tournament ${id}: ${(error as Error).message}`);
    }
  }
  if (!tournament.progressive && tournament.format.byeByDraw && seeds.length % 2 === 1) {
    const rounds = input.byeDraw ?? drawFromSeed(seeds, `${input.seed ?? 'seed'}:bye`);
    try {
      const draw = drawBye(seeds, rounds as DrawRound[]);
      seeds = withByesTo(seeds, [draw.team]);
    } catch (error) {
      throw new CommandError(`tournament ${id}: ${(error as Error).message}`);
    }
    payload.seeds = seeds;
    payload.byeDraw = rounds;
  } else if (input.byeDraw) {
    throw new CommandError(`tournament ${id}: a bye draw is made only in a format that draws for the bye with an odd number of teams`);
  }
  return { stream: tournamentStream(id), events: [{ type: 'TournamentStarted', payload }] };
}

function bracketMatch(tournament: TournamentState, matchId: string): MatchView {
  if (!tournament.bracket) throw new CommandError(`tournament ${tournament.model.tournamentId} has no bracket ${tournament.progressive ? '(it plays progressive tables)' : 'yet'}`, 409);
  const view = matchViews(tournament.bracket).find((m) => m.id === matchId);
  if (!view) throw new CommandError(`tournament ${tournament.model.tournamentId}: match ${matchId} does not exist`, 404);
  return view;
}

/**
 * Seats a ready bracket match at a table, starts its clock and its first game. The first dealer
 * comes from the draw or toss made at the table (the format says which), or is named outright.
 * A match put under review by a correction is replayed the same way.
 */
export function startMatch(
  models: ReadModels,
  input: { tournamentId: string; matchId: string; table: number; at: string; firstDealer?: Seat; draw?: FirstDealerDraw },
): Decision[] {
  const tournament = tournamentOf(models, input.tournamentId);
  const view = bracketMatch(tournament, input.matchId);
  const info = tournament.matchInfo[input.matchId];
  const replay = view.status === 'under-review' && view.teams[0] !== null && view.teams[1] !== null;
  if (view.status !== 'ready' && !replay) throw new CommandError(`match ${input.matchId} is ${view.status}, not ready to play`, 409);
  if (info?.started) throw new CommandError(`match ${input.matchId} has already started`, 409);
  if (!Number.isInteger(input.table) || input.table < 1) throw new CommandError(`match ${input.matchId}: the table must be a number from 1, not ${String(input.table)}`);
  const teams = view.teams as [string, string];
  let dealer: Seat = input.firstDealer ?? 'N';
  let firstDealer: Record<string, unknown> | undefined;
  if (input.draw) {
    if (input.draw.method !== tournament.format.firstDealer) {
      throw new CommandError(`match ${input.matchId}: the first dealer is chosen by ${tournament.format.firstDealer} in this event, not by ${input.draw.method}`);
    }
    const seedOf = (teamId: string) => tournament.model.teams.find((t) => t.teamId === teamId)?.seed ?? null;
    try {
      dealer = firstDealerFrom(input.draw, [
        { id: teams[0], seed: seedOf(teams[0]) },
        { id: teams[1], seed: seedOf(teams[1]) },
      ]);
    } catch (error) {
      throw new CommandError(`match ${input.matchId}: ${(error as Error).message}`);
    }
    firstDealer = { ...input.draw, dealer, ...(input.draw.method === 'coin-toss' ? { winner: tossWinner(input.draw, teams) } : {}) };
  } else if (!SEATS.includes(dealer)) {
    throw new CommandError(`match ${input.matchId}: the first dealer is N, E, S or W, not '${String(dealer)}'`);
  }
  const matchStarted: Record<string, unknown> = { tournamentId: input.tournamentId, matchId: input.matchId, teams, table: input.table };
  if (firstDealer) matchStarted.firstDealer = firstDealer;
  const events: Decision['events'] = [{ type: 'MatchStarted', payload: matchStarted }];
  const minutes = clockForMatch(tournament.format, view);
  if (minutes !== null) events.push({ type: 'ClockStarted', payload: { tournamentId: input.tournamentId, matchId: input.matchId, at: input.at, minutes } });
  const number = (info?.games.length ?? 0) + 1;
  return [{ stream: matchStream(input.tournamentId, input.matchId), events }, nextGame(tournament, input.matchId, teams, view, dealer, number)];
}

function nextGame(tournament: TournamentState, matchId: string, teams: [string, string], view: MatchView, dealer: Seat, number: number): Decision {
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
    stream: gameStream(gameId),
    events: [{ type: 'GameStarted', payload: { gameId, matchId, tournamentId, number, rules, teams: { NS: teams[0], EW: teams[1] }, seats, dealer } }],
  };
}

/** Starts the next game of a best-of-N match whose last game is over and that is not decided yet. */
export function startNextGame(models: ReadModels, input: { tournamentId: string; matchId: string }): Decision {
  const tournament = tournamentById(models, input.tournamentId);
  const match = tournament?.model.matches.find((m) => m.matchId === input.matchId);
  if (!tournament || !match) throw new CommandError(`match ${input.matchId} does not exist`, 404);
  if (match.status !== 'live') throw new CommandError(`match ${input.matchId} is ${match.status}, not live`, 409);
  const last = match.games.length ? gameById(models, match.games[match.games.length - 1]!) : undefined;
  if (last && !last.winner) throw new CommandError(`game ${last.gameId} is still being played`, 409);
  // The deal keeps rotating across the games of a match where the rules say so (asher: "The
  // deal will keep this rotation throughout the entire challenge").
  let dealer: Seat = last?.dealer ?? 'N';
  if (last) {
    const options = resolveRules(last.rules).options;
    const lastRow = last.rows[last.rows.length - 1];
    if (options.dealerCarriesAcrossGames && lastRow) dealer = nextDealer(options, lastRow.dealer, Boolean(lastRow.misdeal));
  }
  const view = bracketMatch(tournament, input.matchId);
  return nextGame(tournament, input.matchId, match.teams as [string, string], view, dealer, match.games.length + 1);
}

/**
 * Puts a team out of the event at any moment: a disqualification, a no-show at its play time,
 * or a forfeit. Its remaining matches (a match in progress included) are forfeited to their
 * opponents and the bracket moves on; results already recorded stand. Before the start it
 * simply leaves the draw.
 */
export function disqualifyTeam(
  models: ReadModels,
  input: { tournamentId: string; teamId: string; reason: string; kind?: 'disqualified' | 'no-show' | 'forfeit' },
): Decision {
  const tournament = tournamentOf(models, input.tournamentId);
  const row = entrantOf(tournament, input.teamId);
  const id = input.tournamentId;
  if (!input.reason?.trim()) throw new CommandError(`tournament ${id}: say why '${row.name}' is put out (the rule or what happened)`);
  if (tournament.model.status === 'finished') throw new CommandError(`tournament ${id} is finished; its results stand`, 409);
  if (tournament.disqualified.some((d) => d.teamId === input.teamId)) throw new CommandError(`tournament ${id}: '${row.name}' is already out of the event`, 409);
  if (tournament.withdrawn.includes(input.teamId)) throw new CommandError(`tournament ${id}: '${row.name}' has withdrawn`, 409);
  if (tournament.progressive && tournament.model.status !== 'registration') {
    throw new CommandError(`tournament ${id}: progressive tables need all four seats filled every round, so a player cannot leave once play has started; a judge corrects the table's score instead`, 409);
  }
  const payload: Record<string, unknown> = { tournamentId: id, teamId: input.teamId, reason: input.reason.trim() };
  if (input.kind) payload.kind = input.kind;
  return { stream: tournamentStream(id), events: [{ type: 'TeamDisqualified', payload }] };
}

/**
 * Calls time on a match whose clock has run out. The hand in progress is played out, then the
 * team ahead wins; on a tie one more hand is played (the game projection ends the game). The
 * match goes to the team that wins the game time was called in.
 */
export function callTime(models: ReadModels, input: { tournamentId: string; matchId: string; at: string }): Decision {
  const tournament = tournamentOf(models, input.tournamentId);
  const match = tournament.model.matches.find((m) => m.matchId === input.matchId);
  if (!match) throw new CommandError(`tournament ${input.tournamentId}: match ${input.matchId} does not exist`, 404);
  if (match.status !== 'live') throw new CommandError(`match ${input.matchId} is ${match.status}; time is called only while it is played`, 409);
  const clock = match.clock;
  if (!clock) throw new CommandError(`match ${input.matchId} has no clock: this event sets no time limit for it`, 409);
  if (clock.calledAt) throw new CommandError(`time was already called in match ${input.matchId} at ${clock.calledAt}`, 409);
  const endsAt = new Date(Date.parse(clock.startedAt) + clock.minutes * 60_000);
  const at = Date.parse(input.at);
  if (Number.isNaN(at)) throw new CommandError(`match ${input.matchId}: the time of the call must be an ISO time, not '${input.at}'`);
  if (at < endsAt.getTime()) {
    throw new CommandError(`match ${input.matchId}: its ${clock.minutes}-minute clock started at ${clock.startedAt} and runs out at ${endsAt.toISOString()}; time cannot be called at ${input.at}`, 409);
  }
  const gameId = match.games[match.games.length - 1];
  const game = gameId ? gameById(models, gameId) : undefined;
  if (!game) throw new CommandError(`match ${input.matchId} has no game in play`, 409);
  if (game.winner) throw new CommandError(`game ${game.gameId} of match ${input.matchId} is over; start the next game, then call time in it`, 409);
  const hand = game.current ? game.current.number : Math.max(1, game.hands.length);
  return {
    stream: matchStream(input.tournamentId, input.matchId),
    events: [{ type: 'TimeCalled', payload: { tournamentId: input.tournamentId, matchId: input.matchId, gameId: game.gameId, at: new Date(at).toISOString(), hand } }],
  };
}

/**
 * A judge corrects the result of a finished game (a miscount found after the fact). Everything
 * after it is worked out again: the match result, the bracket, standings and placings; matches
 * downstream that were already played are marked under review, never erased.
 */
export function correctGameResult(
  models: ReadModels,
  input: { tournamentId: string; gameId: string; winner: string; reason: string; judge: string },
): Decision {
  const tournament = tournamentOf(models, input.tournamentId);
  const game = gameById(models, input.gameId);
  if (!game || game.tournamentId !== input.tournamentId || !game.matchId) {
    throw new CommandError(`tournament ${input.tournamentId}: game ${input.gameId} is not one of its games`, 404);
  }
  if (!tournament.bracket) throw new CommandError(`tournament ${input.tournamentId}: progressive tables are corrected by a score correction at the table, not by a game's winner`, 409);
  if (!game.winner) throw new CommandError(`game ${input.gameId} is still being played; a judge corrects a finished game's result`, 409);
  if (input.winner !== game.teams.NS && input.winner !== game.teams.EW) {
    throw new CommandError(`game ${input.gameId}: '${input.winner}' did not play in it (${game.teams.NS} v ${game.teams.EW})`);
  }
  if (!input.reason?.trim()) throw new CommandError(`game ${input.gameId}: a correction says why (what the judge found)`);
  if (!input.judge?.trim()) throw new CommandError(`game ${input.gameId}: a correction names the judge who made it`);
  const latest = [...tournament.corrections].reverse().find((c) => c.gameId === input.gameId);
  const standing = latest ? latest.winner : game.teams[game.winner];
  if (standing === input.winner) throw new CommandError(`game ${input.gameId}: '${input.winner}' is already its recorded winner; nothing to correct`, 409);
  return {
    stream: matchStream(input.tournamentId, game.matchId),
    events: [
      {
        type: 'GameResultCorrected',
        payload: { tournamentId: input.tournamentId, matchId: game.matchId, gameId: input.gameId, winner: input.winner, reason: input.reason.trim(), judge: input.judge.trim() },
      },
    ],
  };
}

/**
 * Seats the next round of a progressive event at every table and starts each table's game
 * (4 hands; a tie plays one more). The seating is the one the last round's results give; each
 * table's first dealer is drawn at random from the recorded seed.
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
  return [{ stream: tournamentStream(id), events: [{ type: 'ProgressiveRoundStarted', payload: { tournamentId: id, round, seating } }] }, ...games];
}

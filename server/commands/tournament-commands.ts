/**
 * Tournament set-up commands: what a director asks of a whole event before its matches are
 * played. Setting it up from a format (or a custom one), registration with its fees, check-in,
 * withdrawal, pinning the venue screen, and the start with its seeding and bye draw. Each is
 * decided against the read models and the engine, and either refused with a sentence naming
 * what was wrong and where, or turned into events. Matches, rounds, clocks, disqualifications
 * and corrections are in match-commands.ts.
 */
import { entrantsAlone } from '../../events/tournament-state.ts';
import { namedPlayers } from './circuit-commands.ts';
import { firstRoundPlan } from '../../engine/bracket-rounds.ts';
import { type FormatId, type FormatOptions, drawFromSeed, feeFor, formatOptions, formatProblem } from '../../engine/formats.ts';
import { initialSeating } from '../../engine/progressive.ts';
import { matchPlayOf, registersAlone, seatedAtTables } from '../../engine/format-play.ts';
import { drawnPartnersProblem } from './partner-rules.ts';
import { resolveRules, RulesError, rulesConflicts } from '../../engine/rules.ts';
import { type DrawRound, drawBye, randomSeeding, withByesTo } from '../../engine/seeding.ts';
import { tournamentStream } from '../../events/streams.ts';
import type { Decision } from '../../events/store/served-ledger.ts';
import type { ReadModels } from '../../events/projections.ts';
import type { TournamentState } from '../../events/tournament-projection.ts';
import { pinnedTournament, screenIsPinned } from '../../events/screen-pin.ts';
import { CommandError } from './command-error.ts';
import { tournamentById } from '../../events/lookup.ts';
import { entrantNameProblem, idProblem, nameKey, nameProblem, normalName } from '../../events/names.ts';
import { owed, waiting } from '../../events/registration-projection.ts';
import { type OverCap, deskRegistration, samePlayerProblem, startPromotions, withdrawalEvents } from './registration-commands.ts';
import { entrantOf, refuseProblem, tournamentOf } from './tournament-lookup.ts';

const isDate = (text: string) => /^\d{4}-\d{2}-\d{2}$/.test(text);

/** Creates a tournament from a format; a custom event gives its own options on top of the format it starts from. */
export function createTournament(
  models: ReadModels,
  input: { tournamentId: string; name: string; format: FormatId; options?: Partial<FormatOptions> },
): Decision {
  refuseProblem(idProblem(input.tournamentId, 'a tournament id'));
  if (tournamentById(models, input.tournamentId)) throw new CommandError(`tournament ${input.tournamentId} already exists`, 409);
  if (!input.name.trim()) throw new CommandError('the tournament needs a name');
  refuseProblem(nameProblem(input.name.trim(), 'the tournament’s name'));
  const options = formatOptions(input.format, input.options);
  const problem = formatProblem(options);
  if (problem) throw new CommandError(`tournament ${input.tournamentId}: ${problem}`);
  for (const rules of [options.rules, options.firstRoundRules, options.finalRules]) {
    if (rules === null) continue;
    try {
      // A new event's rules may not contradict themselves (a trump taken out of the deck).
      const conflict = rulesConflicts(resolveRules(rules).options)[0];
      if (conflict) throw new CommandError(`the rules of ${input.name.trim()}: ${conflict}`);
    } catch (error) {
      // Said of the event by the name the director gave it, not by ids.
      if (error instanceof RulesError) throw new CommandError(`the rules of ${input.name.trim()}: ${error.message.replace(/^rules: /, '')}`);
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
  const drawn = drawnPartnersProblem(tournament, 'register');
  if (drawn) throw new CommandError(drawn, 409);
  if (tournament.model.teams.some((t) => nameKey(t.name) === nameKey(name) && !tournament.withdrawn.includes(t.teamId))) {
    throw new CommandError(`tournament ${id}: '${name}' is already registered`, 409);
  }
  const queued = tournament.registration.waitlist.find((w) => !w.withdrawn && !w.promoted && nameKey(w.name) === nameKey(name));
  if (queued) throw new CommandError(`tournament ${id}: '${name}' is on the waitlist`, 409);
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
  input: { tournamentId: string; teamId: string; name: string; players: string[]; registeredOn?: string; codeSeed?: string; overCap?: OverCap; today?: string },
): Decision {
  const tournament = tournamentOf(models, input.tournamentId);
  refuseProblem(idProblem(input.teamId, 'a team id'));
  if (tournament.progressive) {
    throw new CommandError(`tournament ${input.tournamentId} plays progressive tables, where partners change every round; register individual players`);
  }
  refuseProblem(drawnPartnersProblem(tournament, 'register a team'));
  refuseProblem(entrantNameProblem(input.name, 'the team name'));
  const name = normalName(input.name);
  openRegistration(tournament, name);
  if (tournament.model.teams.some((t) => t.teamId === input.teamId) || tournament.registration.waitlist.some((w) => w.teamId === input.teamId)) {
    throw new CommandError(`team ${input.teamId} is already registered`, 409);
  }
  // A player may be named by their id across events (`#ana-lopez-2`): that person, under their name.
  const named = namedPlayers(models, input.players, (k) => `player ${k + 1}`);
  const players = named.names.map(normalName);
  if (players.length !== 2 || players.some((p) => !p)) throw new CommandError(`team '${name}' needs two named players`);
  named.names.forEach((p, k) => refuseProblem(entrantNameProblem(p, `player ${k + 1}’s name`)));
  refuseProblem(samePlayerProblem(players));
  // Without a registration day (the bots, the demo) the early fee applies.
  const registeredOn = input.registeredOn?.slice(0, 10);
  if (registeredOn !== undefined) checkRegisteredOn(tournament, registeredOn, `team '${name}'`);
  const payload: Record<string, unknown> = {
    tournamentId: input.tournamentId,
    teamId: input.teamId,
    name,
    players,
    fee: feeFor(tournament.format, registeredOn),
  };
  if (named.people) payload.people = named.people;
  if (registeredOn !== undefined) payload.registeredOn = registeredOn;
  if (input.codeSeed !== undefined) payload.codeSeed = input.codeSeed;
  const events = deskRegistration(tournament, input.overCap, { type: 'TeamRegistered', payload }, registeredOn ?? input.today?.slice(0, 10));
  return { stream: tournamentStream(input.tournamentId), events };
}

/** Registers one player for a progressive event (tournament-spades: partners change every round). */
export function registerPlayer(
  models: ReadModels,
  input: {
    tournamentId: string;
    playerId: string;
    name: string;
    gender?: 'male' | 'female';
    registeredOn?: string;
    codeSeed?: string;
    overCap?: OverCap;
    today?: string;
  },
): Decision {
  const tournament = tournamentOf(models, input.tournamentId);
  if (!registersAlone(tournament.format)) throw new CommandError(`tournament ${input.tournamentId} is played by teams of two; register a team`);
  refuseProblem(idProblem(input.playerId, 'a player id'));
  const named = namedPlayers(models, [input.name], () => 'the player');
  refuseProblem(entrantNameProblem(named.names[0]!, 'the player’s name'));
  const name = normalName(named.names[0]!);
  if (!name) throw new CommandError(`tournament ${input.tournamentId}: player ${input.playerId} needs a name`);
  openRegistration(tournament, name);
  const taken = tournament.model.teams.find((t) => t.teamId === input.playerId);
  if (taken) throw new CommandError(`tournament ${input.tournamentId}: player id ${input.playerId} is already ${taken.name}'s; give '${name}' another id`, 409);
  if (input.gender !== undefined && input.gender !== 'male' && input.gender !== 'female') {
    throw new CommandError(`player '${name}': gender is recorded as male or female (for the high male / high female prizes), not '${String(input.gender)}'`);
  }
  const registeredOn = input.registeredOn?.slice(0, 10);
  if (registeredOn !== undefined) checkRegisteredOn(tournament, registeredOn, `player '${name}'`);
  const payload: Record<string, unknown> = { tournamentId: input.tournamentId, playerId: input.playerId, name, fee: feeFor(tournament.format, registeredOn) };
  if (input.gender) payload.gender = input.gender;
  if (named.people) payload.people = named.people;
  if (registeredOn !== undefined) payload.registeredOn = registeredOn;
  if (input.codeSeed !== undefined) payload.codeSeed = input.codeSeed;
  const events = deskRegistration(tournament, input.overCap, { type: 'PlayerRegistered', payload }, registeredOn ?? input.today?.slice(0, 10));
  return { stream: tournamentStream(input.tournamentId), events };
}

/**
 * A director changes how many rounds a progressive event plays: before the start, or while it
 * is played, until its last round starts; never below the rounds already started.
 */
export function changeRounds(models: ReadModels, input: { tournamentId: string; rounds: number }): Decision {
  const tournament = tournamentOf(models, input.tournamentId);
  const id = input.tournamentId;
  const progressive = tournament.progressive;
  if (!progressive) throw new CommandError(`tournament ${id} is a bracket event; only progressive tables play a number of rounds`, 409);
  if (!Number.isInteger(input.rounds) || input.rounds < 1 || input.rounds > 99) {
    throw new CommandError(`tournament ${id}: the number of rounds must be a whole number from 1 to 99, not ${String(input.rounds)}`);
  }
  const planned = tournament.format.rounds ?? 1;
  const started = progressive.rounds.length;
  if (tournament.model.status === 'finished' || started >= planned) {
    throw new CommandError(`tournament ${id}: its last round (round ${planned}) has started, so the number of rounds can no longer change`, 409);
  }
  if (input.rounds < started) {
    throw new CommandError(`tournament ${id}: ${started} rounds have already started, so it cannot play only ${input.rounds}`, 409);
  }
  if (input.rounds === planned) throw new CommandError(`tournament ${id} already plays ${planned} rounds`, 409);
  return { stream: tournamentStream(id), events: [{ type: 'ProgressiveRoundsChanged', payload: { tournamentId: id, rounds: input.rounds } }] };
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
export function checkInTeam(models: ReadModels, input: { tournamentId: string; teamId: string; at: string; by?: string }): Decision {
  const tournament = tournamentOf(models, input.tournamentId);
  // A waitlisted entrant checks in too: at the start, places freed go to the waitlisted who are here.
  const row = waiting(tournament.registration, input.teamId) ?? entrantOf(tournament, input.teamId);
  if (tournament.model.status !== 'registration') throw new CommandError(`tournament ${input.tournamentId} has started; check-in is closed`, 409);
  const drawn = drawnPartnersProblem(tournament, 'check in');
  if (drawn) throw new CommandError(drawn, 409);
  if (tournament.withdrawn.includes(input.teamId))
    throw new CommandError(`tournament ${input.tournamentId}: '${row.name}' has withdrawn and cannot check in`, 409);
  if (tournament.checkedIn.includes(input.teamId)) throw new CommandError(`tournament ${input.tournamentId}: '${row.name}' is already checked in`, 409);
  const payload = { tournamentId: input.tournamentId, teamId: input.teamId, at: input.at, ...(input.by ? { by: input.by } : {}) };
  return { stream: tournamentStream(input.tournamentId), events: [{ type: 'TeamCheckedIn', payload }] };
}

/**
 * A team (or player) withdraws its registration, or leaves the waitlist: only before the start.
 * A place it frees under the sign-up's cap goes to the first waitlisted entrant, in the same decision.
 */
export function withdrawTeam(models: ReadModels, input: { tournamentId: string; teamId: string }): Decision {
  const tournament = tournamentOf(models, input.tournamentId);
  const queued = waiting(tournament.registration, input.teamId);
  const left = tournament.registration.waitlist.find((w) => w.teamId === input.teamId && w.withdrawn);
  if (!queued && left && !tournament.model.teams.some((t) => t.teamId === input.teamId))
    throw new CommandError(`'${left.name}' has already left the waitlist`, 409);
  const row = queued ?? entrantOf(tournament, input.teamId);
  if (tournament.model.status !== 'registration') {
    throw new CommandError(
      `tournament ${input.tournamentId} has started, so '${row.name}' can no longer withdraw; a director disqualifies it or records a no-show, and its remaining matches are forfeited`,
      409,
    );
  }
  if (tournament.withdrawn.includes(input.teamId)) throw new CommandError(`tournament ${input.tournamentId}: '${row.name}' has already withdrawn`, 409);
  return { stream: tournamentStream(input.tournamentId), events: withdrawalEvents(tournament, input.teamId) };
}

/**
 * Seeds the entrants (in the given order, or shuffled from a recorded seed) and draws the
 * bracket. Check-in gates the start: with `checkIn: 'required'` (the director's desk) every
 * entrant still registered must have checked in, and otherwise (the API, scripted set-ups)
 * only once check-in has begun. Entrants who have not checked in are named and the start is
 * refused, unless the director starts without them (`withdrawAbsent`): they are withdrawn in
 * the same decision as the start, before the draw. An odd count in a blp-2024 event gives the
 * bye to the highest card of the recorded draw ("With an odd number of teams, a team
 * representative will select a card. The highest card drawn will receive a BYE"); when no
 * cards are given, the draw is made from the seed and recorded. A bracket drawn round by round
 * (blp-2024) starts with round 1 alone: top seed v bottom seed among the teams not on the bye;
 * later rounds are drawn by round-commands.ts.
 */
export function startTournament(
  models: ReadModels,
  input: {
    tournamentId: string;
    order?: string[];
    seed?: string;
    byeDraw?: DrawRound[];
    checkIn?: 'required' | 'once-begun';
    withdrawAbsent?: boolean;
    requirePaid?: boolean;
  },
): Decision {
  const tournament = tournamentOf(models, input.tournamentId);
  const id = input.tournamentId;
  if (tournament.model.status !== 'registration') throw new CommandError(`tournament ${id} has already started`, 409);
  const undrawn = drawnPartnersProblem(tournament, 'start');
  if (undrawn) throw new CommandError(undrawn, 409);
  const registered = tournament.model.teams.filter((t) => !tournament.withdrawn.includes(t.teamId)).map((t) => t.teamId);
  const what = entrantsAlone(tournament) ? 'players' : 'teams';
  const here = registered.filter((t) => tournament.checkedIn.includes(t));
  const gated = input.checkIn === 'required' || tournament.checkedIn.length > 0;
  const absent = gated ? registered.filter((t) => !tournament.checkedIn.includes(t)) : [];
  // The places the absent free go to the waitlisted who checked in, in order (registration-commands.ts).
  const promoted = startPromotions(tournament, absent);
  if (absent.length > 0 && !input.withdrawAbsent) {
    const names = absent.map((t) => tournament.model.teams.find((x) => x.teamId === t)!.name);
    const takers = promoted.map((t) => waiting(tournament.registration, t)!.name);
    throw new CommandError(
      `tournament ${id}: ${names.join(', ')} ${absent.length === 1 ? 'has' : 'have'} not checked in (${here.length} of ${registered.length} checked in); check them in, or start without them and they are withdrawn${takers.length > 0 ? `, and ${takers.join(', ')} from the waitlist take${takers.length === 1 ? 's' : ''} the place${takers.length === 1 ? '' : 's'}` : ''}`,
      409,
    );
  }
  const teams = [...registered.filter((t) => !absent.includes(t)), ...promoted];
  const unpaid = input.requirePaid ? teams.filter((t) => owed(tournament.registration, t) > 0) : [];
  if (unpaid.length > 0) {
    const names = unpaid.map((t) => tournament.model.teams.find((x) => x.teamId === t)!.name);
    throw new CommandError(
      `tournament ${id}: ${names.join(', ')} ${unpaid.length === 1 ? 'has' : 'have'} not paid the entry fee (${teams.length - unpaid.length} of ${teams.length} paid); record their fees, or start without requiring payment`,
      409,
    );
  }
  if (teams.length < 2) {
    throw new CommandError(
      `tournament ${id} needs at least 2 ${what} to start; it has ${teams.length}${absent.length > 0 ? ` checked in (${absent.length} not checked in)` : ''}`,
    );
  }
  const withdrawals = [
    ...absent.map((teamId) => ({ type: 'TeamWithdrawn', payload: { tournamentId: id, teamId } })),
    ...promoted.map((teamId) => ({ type: 'WaitlistPromoted', payload: { tournamentId: id, teamId } })),
  ];
  let seeds: string[];
  let seeding: Record<string, unknown>;
  if (input.order) {
    const unknown = input.order.filter((t) => !teams.includes(t));
    const missing = teams.filter((t) => !input.order!.includes(t));
    if (unknown.length || missing.length || input.order.length !== teams.length) {
      throw new CommandError(
        `the seeding order must list each registered entrant once (unknown: ${unknown.join(', ') || 'none'}; missing: ${missing.join(', ') || 'none'})`,
      );
    }
    seeds = [...input.order];
    seeding = { method: 'manual' };
  } else {
    const seed = input.seed ?? 'seed';
    seeds = randomSeeding(teams, seed);
    seeding = { method: 'random', seed };
  }
  const payload: Record<string, unknown> = { tournamentId: id, seeds, seeding };
  if (seatedAtTables(tournament.format)) {
    try {
      initialSeating(seeds);
    } catch (error) {
      throw new CommandError(`tournament ${id}: ${(error as Error).message}`);
    }
  } else {
    // Draw the bracket now, so a field the format cannot take is refused before anything is recorded.
    try {
      if (tournament.format.roundByRound) firstRoundPlan(seeds);
      else matchPlayOf(tournament.format)!.start(seeds, tournament.format, null);
    } catch (error) {
      throw new CommandError(`tournament ${id}: ${(error as Error).message}`);
    }
  }
  // A bracket drawn round by round always draws its byes by high card.
  if (!seatedAtTables(tournament.format) && (tournament.format.byeByDraw || tournament.format.roundByRound) && seeds.length % 2 === 1) {
    const rounds = input.byeDraw ?? drawFromSeed(seeds, `${input.seed ?? 'seed'}:bye`);
    try {
      const draw = drawBye(seeds, rounds as DrawRound[]);
      // A bracket drawn round by round keeps the seeds and sits the bye out of round 1's pairing;
      // a bracket drawn whole gives byes to the top seeds, so the bye's team is moved up.
      if (!tournament.format.roundByRound) seeds = withByesTo(seeds, [draw.team]);
    } catch (error) {
      throw new CommandError(`tournament ${id}: ${(error as Error).message}`);
    }
    payload.seeds = seeds;
    payload.byeDraw = rounds;
  } else if (input.byeDraw) {
    throw new CommandError(`tournament ${id}: a bye draw is made only in a format that draws for the bye with an odd number of teams`);
  }
  return { stream: tournamentStream(id), events: [...withdrawals, { type: 'TournamentStarted', payload }] };
}

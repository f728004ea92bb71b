/**
 * Registration beyond one form at a time: public sign-up with a cap, a closing time and a
 * waitlist; fees paid; and what the cap and the waitlist do when an entrant withdraws. Pasted
 * lists are in bulk-registration.ts. Each command is decided from the read models and either
 * refused with a sentence or turned into events.
 */
import { feeFor } from '../../engine/formats.ts';
import { registersAlone } from '../../engine/format-play.ts';
import { entrantsAlone } from '../../events/tournament-state.ts';
import { drawnPartnersProblem } from './partner-rules.ts';
import type { TournamentState } from '../../events/tournament-projection.ts';
import type { TeamRow } from '../../events/read-models.ts';
import { owed, waiting } from '../../events/registration-projection.ts';
import { tournamentStream } from '../../events/streams.ts';
import type { Decision } from '../../events/store/served-ledger.ts';
import type { ReadModels } from '../../events/projections.ts';
import { entrantNameProblem, idProblem, nameKey, normalName } from '../../events/names.ts';
import { closingWords } from '../../events/time-words.ts';
import { CommandError } from './command-error.ts';
import { entrantOf, refuseProblem, tournamentOf } from './tournament-lookup.ts';

type NewEvent = Decision['events'][number];

/** Entrants holding a place: registered and not withdrawn (nor put out before the start). */
export function placed(tournament: TournamentState): TeamRow[] {
  return tournament.model.teams.filter((t) => !tournament.withdrawn.includes(t.teamId));
}

/** Entrants waiting for a place, in the order they signed up. */
export function waitingList(tournament: TournamentState) {
  return tournament.registration.waitlist.filter((w) => !w.withdrawn && !w.promoted);
}

/** The entrant (registered or waiting) already holding `name`, whatever its case. */
export function holderOf(tournament: TournamentState, name: string): { teamId: string; name: string; players: string[] } | undefined {
  const wanted = nameKey(name);
  return placed(tournament).find((t) => nameKey(t.name) === wanted) ?? waitingList(tournament).find((w) => nameKey(w.name) === wanted);
}

/** An id for a new entrant from `base` (made from its name) that no entrant, waiting or not, holds yet. */
export function freeId(tournament: TournamentState, base: string, taken: ReadonlySet<string> = new Set()): string {
  const used = (id: string) =>
    taken.has(id) || tournament.model.teams.some((t) => t.teamId === id) || tournament.registration.waitlist.some((w) => w.teamId === id);
  const root = base && !idProblem(base.slice(0, 52), 'an id') ? base.slice(0, 52) : entrantsAlone(tournament) ? 'player' : 'team';
  if (!used(root)) return root;
  for (let n = 2; ; n++) if (!used(`${root}-${n}`)) return `${root}-${n}`;
}

/** Why a team's two players cannot be `players`: one person cannot hold both seats. */
export function samePlayerProblem(players: string[]): string | null {
  if (players.length !== 2 || nameKey(players[0]!) !== nameKey(players[1]!)) return null;
  return `both players are '${players[0]}'; a team is two people, so name the second player`;
}

/**
 * Whether public sign-up takes entrants at `at`, and if not, why (as a sentence) and what a
 * person at the sign-up page can do next.
 */
export function signUpOpenAt(tournament: TournamentState, at: string): { open: true } | { open: false; why: string; next: string } {
  const name = tournament.model.name;
  const signUp = tournament.registration.signUp;
  const desk = 'to play, ask the director at the desk to register you';
  if (tournament.model.status !== 'registration')
    return { open: false, why: `${name} has started, so sign-up is closed`, next: 'its standings are on its page' };
  if (!signUp?.open) return { open: false, why: `sign-up for ${name} is not open`, next: desk };
  if (signUp.closes !== null && Date.parse(at) >= Date.parse(signUp.closes))
    return { open: false, why: `sign-up for ${name} closed at ${closingWords(signUp.closes)}`, next: desk };
  return { open: true };
}

/** The first waitlisted entrants promoted into the places free under `cap`. */
function promotions(tournament: TournamentState, cap: number | null, leaving = 0): NewEvent[] {
  const free = cap === null ? Number.MAX_SAFE_INTEGER : cap - (placed(tournament).length - leaving);
  return waitingList(tournament)
    .slice(0, Math.max(0, free))
    .map((w) => ({ type: 'WaitlistPromoted', payload: { tournamentId: tournament.model.tournamentId, teamId: w.teamId } }));
}

/**
 * A director opens public sign-up (or changes its cap or closing time), or closes it. A larger
 * cap promotes the first waitlisted entrants into the places it frees, in the same decision.
 */
export function setSignUp(models: ReadModels, input: { tournamentId: string; open: boolean; cap: number | null; closes: string | null; at: string }): Decision {
  const tournament = tournamentOf(models, input.tournamentId);
  const id = input.tournamentId;
  const stream = tournamentStream(id);
  if (!input.open) {
    if (!tournament.registration.signUp?.open) throw new CommandError(`sign-up for tournament ${id} is not open`, 409);
    return { stream, events: [{ type: 'SignUpClosed', payload: { tournamentId: id } }] };
  }
  if (tournament.model.status !== 'registration') throw new CommandError(`tournament ${id} has started; sign-up cannot open`, 409);
  const { cap, closes } = input;
  if (cap !== null && (!Number.isInteger(cap) || cap < 2 || cap > 512))
    throw new CommandError(`tournament ${id}: the cap must be a whole number of entrants from 2 to 512, not ${String(cap)}`);
  const holding = placed(tournament).length;
  if (cap !== null && cap < holding) {
    throw new CommandError(
      `tournament ${id}: ${holding} entrants are already registered, so the cap cannot be ${cap}; withdraw entrants first or set a cap of ${holding} or more`,
      409,
    );
  }
  let closing: string | null = null;
  if (closes !== null) {
    const time = Date.parse(closes);
    if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/.test(closes) || Number.isNaN(time)) {
      throw new CommandError(`tournament ${id}: closes must be a time such as 2024-09-14T13:00:00-04:00, not '${closes}'`);
    }
    if (time <= Date.parse(input.at)) throw new CommandError(`tournament ${id}: the closing time ${closes} has already passed`);
    closing = new Date(time).toISOString();
  }
  return { stream, events: [{ type: 'SignUpOpened', payload: { tournamentId: id, cap, closes: closing } }, ...promotions(tournament, cap)] };
}

export interface SignUpInput {
  tournamentId: string;
  teamId: string;
  name: string;
  /** A team's two players; none for a progressive evening's player. */
  players: string[];
  gender?: 'male' | 'female';
  /** When the sign-up came in: decides whether sign-up is still open, and the fee. */
  at: string;
  /** The random value the entrant's check-in code is made from. */
  codeSeed: string;
}

/**
 * A team (or a progressive player) signs itself up: registered at once within the cap, else
 * waitlisted in order. Refused once sign-up is closed, past its closing time, or after the start,
 * and for a name already signed up.
 */
export function signUp(models: ReadModels, input: SignUpInput): Decision {
  const tournament = tournamentOf(models, input.tournamentId);
  const id = input.tournamentId;
  const open = signUpOpenAt(tournament, input.at);
  if (!open.open) throw new CommandError(`${open.why}; ${open.next}`, 409);
  const alone = registersAlone(tournament.format);
  const drawn = drawnPartnersProblem(tournament, 'register');
  if (drawn) throw new CommandError(drawn, 409);
  const label = alone ? 'your name' : 'the team name';
  refuseProblem(entrantNameProblem(input.name, label));
  const name = normalName(input.name);
  if (!name) throw new CommandError(`sign-up for ${tournament.model.name}: ${label} is missing`);
  if (holderOf(tournament, name)) throw new CommandError(`'${name}' is already signed up for ${tournament.model.name}; choose another name`, 409);
  const players = input.players.map(normalName);
  if (!alone) {
    input.players.forEach((p, k) => refuseProblem(entrantNameProblem(p, `player ${k + 1}’s name`)));
    if (players.length !== 2 || players.some((p) => !p))
      throw new CommandError(`team '${name}' needs two named players: ${players[0] ? 'the second player' : 'the first player'} is missing`);
    refuseProblem(samePlayerProblem(players));
  }
  const registeredOn = input.at.slice(0, 10);
  const fee = feeFor(tournament.format, registeredOn);
  const common = { tournamentId: id, name, fee, registeredOn, codeSeed: input.codeSeed };
  const cap = tournament.registration.signUp!.cap;
  if (cap !== null && placed(tournament).length >= cap) {
    const payload = { ...common, teamId: input.teamId, players: alone ? [name] : players, ...(input.gender ? { gender: input.gender } : {}) };
    return { stream: tournamentStream(id), events: [{ type: 'TeamWaitlisted', payload }] };
  }
  if (alone) {
    return {
      stream: tournamentStream(id),
      events: [{ type: 'PlayerRegistered', payload: { ...common, playerId: input.teamId, ...(input.gender ? { gender: input.gender } : {}) } }],
    };
  }
  return { stream: tournamentStream(id), events: [{ type: 'TeamRegistered', payload: { ...common, teamId: input.teamId, players } }] };
}

/**
 * The events of a withdrawal before the start: the entrant leaves, and when it held a place
 * under the sign-up's cap, the first waitlisted entrant takes it in the same decision.
 */
export function withdrawalEvents(tournament: TournamentState, teamId: string): NewEvent[] {
  const withdrawn: NewEvent = { type: 'TeamWithdrawn', payload: { tournamentId: tournament.model.tournamentId, teamId } };
  if (waiting(tournament.registration, teamId)) return [withdrawn];
  const signUp = tournament.registration.signUp;
  return [withdrawn, ...(signUp && signUp.cap !== null ? promotions(tournament, signUp.cap, 1).slice(0, 1) : [])];
}

/**
 * The waitlisted entrants who take the places freed at the start by entrants not checked in
 * (`absent`): those checked in, in the waitlist's order, as many as the cap then has room for.
 * The rest are left waiting, and their pages say the event started without them.
 */
export function startPromotions(tournament: TournamentState, absent: readonly string[]): string[] {
  const signUp = tournament.registration.signUp;
  if (!signUp || absent.length === 0) return [];
  const room = signUp.cap === null ? Number.MAX_SAFE_INTEGER : signUp.cap - (placed(tournament).length - absent.length);
  return waitingList(tournament)
    .filter((w) => tournament.checkedIn.includes(w.teamId))
    .slice(0, Math.max(0, room))
    .map((w) => w.teamId);
}

/** What a director answered when a desk registration met a full cap: a place made by raising the cap, or the waitlist. */
export type OverCap = 'raise' | 'waitlist';

/**
 * How the sign-up's cap meets a registration at the desk, as it meets one from a phone: within
 * the cap it takes a place; past it, the director says whether to raise the cap by one (recorded,
 * so every page counts the same places) or to put the entrant on the waitlist; unasked, refused
 * with the question. `entrant` is the registration's own event, made as for a place.
 */
export function deskRegistration(tournament: TournamentState, overCap: OverCap | undefined, entrant: NewEvent, registeredOn: string | undefined): NewEvent[] {
  const signUp = tournament.registration.signUp;
  const cap = signUp?.open ? signUp.cap : null;
  const holding = placed(tournament).length;
  if (cap === null || holding < cap) return [entrant];
  const p = entrant.payload as {
    tournamentId: string;
    name: string;
    fee: number | null;
    codeSeed?: string;
    gender?: string;
    teamId?: string;
    playerId?: string;
    players?: string[];
    people?: (string | null)[];
  };
  if (overCap === 'raise') {
    if (cap >= 512) throw new CommandError(`${tournament.model.name} has 512 places, the most an event holds; put '${p.name}' on the waitlist instead`, 409);
    return [{ type: 'SignUpOpened', payload: { tournamentId: p.tournamentId, cap: cap + 1, closes: signUp!.closes } }, entrant];
  }
  if (overCap === 'waitlist') {
    if (!registeredOn) throw new CommandError(`'${p.name}' goes on the waitlist with the day it registered; give one such as 2024-09-12`);
    const teamId = p.teamId ?? p.playerId!;
    const payload = {
      tournamentId: p.tournamentId,
      teamId,
      name: p.name,
      players: p.players ?? [p.name],
      fee: p.fee,
      registeredOn,
      ...(p.gender ? { gender: p.gender } : {}),
      ...(p.codeSeed ? { codeSeed: p.codeSeed } : {}),
      ...(p.people ? { people: p.people } : {}),
    };
    return [{ type: 'TeamWaitlisted', payload }];
  }
  const waitingNow = waitingList(tournament).length;
  throw new CommandError(
    `${tournament.model.name} is full: ${holding} of ${cap} places are taken${waitingNow > 0 ? ` and ${waitingNow} wait${waitingNow === 1 ? 's' : ''}` : ''}. Raise the cap to ${cap + 1} to give '${p.name}' a place, or put '${p.name}' on the waitlist`,
    409,
  );
}

/** A director records an entrant's fee as paid: all it still owes. */
export function recordPaid(models: ReadModels, input: { tournamentId: string; teamId: string }): Decision {
  const tournament = tournamentOf(models, input.tournamentId);
  const id = input.tournamentId;
  const row = tournament.model.teams.find((t) => t.teamId === input.teamId);
  if (!row) {
    const queued = waiting(tournament.registration, input.teamId);
    if (queued) throw new CommandError(`tournament ${id}: '${queued.name}' is on the waitlist; its fee is taken once it has a place`, 409);
    throw new CommandError(`tournament ${id}: ${entrantsAlone(tournament) ? 'player' : 'team'} ${input.teamId} is not registered`, 404);
  }
  if (tournament.withdrawn.includes(row.teamId)) throw new CommandError(`tournament ${id}: '${row.name}' has withdrawn; it owes no fee`, 409);
  const fee = tournament.registration.fees[row.teamId]?.fee ?? null;
  if (fee === null) throw new CommandError(`tournament ${id} charges no entry fee, so there is nothing for '${row.name}' to pay`, 409);
  const amount = owed(tournament.registration, row.teamId);
  if (amount === 0) throw new CommandError(`tournament ${id}: '${row.name}' has already paid its $${fee} fee`, 409);
  return { stream: tournamentStream(id), events: [{ type: 'FeePaid', payload: { tournamentId: id, teamId: row.teamId, amount } }] };
}

/** A director takes back an entrant's last payment, recorded by mistake: a compensating event, the payment kept in the ledger. */
export function undoPaid(models: ReadModels, input: { tournamentId: string; teamId: string }): Decision {
  const tournament = tournamentOf(models, input.tournamentId);
  const row = entrantOf(tournament, input.teamId);
  const entry = tournament.registration.fees[row.teamId];
  if (!entry || entry.paid <= 0) throw new CommandError(`'${row.name}' has no payment recorded to take back`, 409);
  const amount = Math.min(entry.paid, entry.fee ?? entry.paid);
  return {
    stream: tournamentStream(input.tournamentId),
    events: [{ type: 'FeePaymentUndone', payload: { tournamentId: input.tournamentId, teamId: row.teamId, amount } }],
  };
}

/** A director takes back a check-in recorded by mistake, before the start: a compensating event. */
export function undoCheckIn(models: ReadModels, input: { tournamentId: string; teamId: string }): Decision {
  const tournament = tournamentOf(models, input.tournamentId);
  const row = waiting(tournament.registration, input.teamId) ?? entrantOf(tournament, input.teamId);
  if (tournament.model.status !== 'registration') throw new CommandError(`${tournament.model.name} has started, so '${row.name}'’s check-in stands`, 409);
  if (!tournament.checkedIn.includes(input.teamId)) throw new CommandError(`'${row.name}' is not checked in`, 409);
  refuseProblem(drawnPartnersProblem(tournament, 'undo a check-in'));
  return {
    stream: tournamentStream(input.tournamentId),
    events: [{ type: 'CheckInUndone', payload: { tournamentId: input.tournamentId, teamId: input.teamId } }],
  };
}

/** The fees of the entrants holding a place: due, paid, still outstanding. */
export function feeTotals(tournament: TournamentState): { due: number; paid: number; outstanding: number } {
  let due = 0;
  let paid = 0;
  let outstanding = 0;
  for (const row of placed(tournament)) {
    const entry = tournament.registration.fees[row.teamId];
    if (!entry) continue;
    due += entry.fee ?? 0;
    paid += entry.paid;
    outstanding += owed(tournament.registration, row.teamId);
  }
  return { due, paid, outstanding };
}

/**
 * What a tournament keeps of its registration beyond the entrants' rows: public sign-up with its
 * cap and closing time, the waitlist in order, each entrant's fee and what it has paid, the seed
 * of its check-in code, and who checked it in. Folded by tournament-projection.ts.
 */
import type { FeePaid, FeePaymentUndone, SignUpOpened, TeamWaitlisted } from './event-catalogue.ts';

/** An entrant signed up past the cap, in the order it signed up. */
export interface WaitlistEntry {
  teamId: string;
  name: string;
  players: string[];
  gender?: 'male' | 'female';
  fee: number | null;
  registeredOn?: string;
  codeSeed?: string;
  /** Withdrawn while waiting: kept, so the director's list shows it. */
  withdrawn: boolean;
  /** Registered since, when a place freed up. */
  promoted: boolean;
}

export interface RegistrationState {
  /** Public sign-up as a director last set it; null until first opened. */
  signUp: { open: boolean; cap: number | null; closes: string | null } | null;
  waitlist: WaitlistEntry[];
  /** Each entrant's fee as registered (null when the event charges none) and what it has paid. */
  fees: Record<string, { fee: number | null; paid: number }>;
  /** The recorded seed of each entrant's check-in code, where one was recorded. */
  codeSeeds: Record<string, string>;
  /** Who checked each entrant in: `team` for the entrant itself, else the director. */
  checkedInBy: Record<string, string>;
}

/** A tournament's registration before anything is recorded. */
export function emptyRegistration(): RegistrationState {
  return { signUp: null, waitlist: [], fees: {}, codeSeeds: {}, checkedInBy: {} };
}

/** An entrant registered (by a director, a sign-up, or a promotion): its fee and code seed. */
export function entrantRegistered(state: RegistrationState, teamId: string, fee: number | null, codeSeed: string | undefined): void {
  state.fees[teamId] = { fee, paid: state.fees[teamId]?.paid ?? 0 };
  if (codeSeed) state.codeSeeds[teamId] = codeSeed;
}

export function signUpOpened(state: RegistrationState, e: SignUpOpened): void {
  state.signUp = { open: true, cap: e.cap, closes: e.closes };
}

export function signUpClosed(state: RegistrationState): void {
  if (state.signUp) state.signUp.open = false;
}

export function waitlisted(state: RegistrationState, e: TeamWaitlisted): void {
  state.waitlist.push({
    teamId: e.teamId,
    name: e.name,
    players: [...e.players],
    ...(e.gender ? { gender: e.gender } : {}),
    fee: e.fee,
    ...(e.registeredOn ? { registeredOn: e.registeredOn } : {}),
    ...(e.codeSeed ? { codeSeed: e.codeSeed } : {}),
    withdrawn: false,
    promoted: false,
  });
  if (e.codeSeed) state.codeSeeds[e.teamId] = e.codeSeed;
}

/** The waitlisted entrant still waiting with this id, if any. */
export function waiting(state: RegistrationState, teamId: string): WaitlistEntry | undefined {
  return state.waitlist.find((w) => w.teamId === teamId && !w.withdrawn && !w.promoted);
}

export function feePaid(state: RegistrationState, e: FeePaid): void {
  const entry = (state.fees[e.teamId] ??= { fee: null, paid: 0 });
  entry.paid += e.amount;
}

/** A payment taken back: the entrant owes it again. */
export function feePaymentUndone(state: RegistrationState, e: FeePaymentUndone): void {
  const entry = state.fees[e.teamId];
  if (entry) entry.paid = Math.max(0, entry.paid - e.amount);
}

/** What an entrant still owes: its fee less what it paid, never below 0. */
export function owed(state: RegistrationState, teamId: string): number {
  const entry = state.fees[teamId];
  return entry && entry.fee !== null ? Math.max(0, entry.fee - entry.paid) : 0;
}

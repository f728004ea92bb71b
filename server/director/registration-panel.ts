/**
 * What the director's desk shows of registration: sign-up as it stands at this moment, the
 * waitlist in order, each entrant's fee, what it paid and its check-in code, and the totals.
 */
import { owed } from '../../events/registration-projection.ts';
import type { TournamentState } from '../../events/tournament-projection.ts';
import type { RegistrationPanelProps } from '../../views/registration-panel.tsx';
import { feeTotals, signUpOpenAt } from '../commands/registration-commands.ts';

/** The desk's registration panel of a tournament at `at`; `codeOf` makes an entrant's check-in code. */
export function registrationPanel(state: TournamentState, at: string, codeOf: (teamId: string, seed: string | undefined) => string): RegistrationPanelProps {
  const reg = state.registration;
  const id = state.model.tournamentId;
  const open = signUpOpenAt(state, at);
  let place = 0;
  const waitlist = reg.waitlist.map((w) => ({
    teamId: w.teamId,
    name: w.name,
    players: w.players,
    status: w.withdrawn ? ('withdrawn' as const) : w.promoted ? ('promoted' as const) : ('waiting' as const),
    place: w.withdrawn || w.promoted ? null : ++place,
  }));
  const entrants = [...state.model.teams.map((t) => t.teamId), ...reg.waitlist.filter((w) => !w.promoted).map((w) => w.teamId)];
  return {
    signUp: reg.signUp ? { ...reg.signUp, openNow: open.open, why: open.open ? null : open.why } : null,
    signUpLink: `/tournaments/${encodeURIComponent(id)}/sign-up`,
    waitlist,
    charges: state.format.fees !== null,
    fees: Object.fromEntries(
      state.model.teams.map((t) => {
        const fee = reg.fees[t.teamId];
        // A withdrawn entrant owes nothing more: its place is given up (feeTotals leaves it out too).
        return [t.teamId, { fee: fee?.fee ?? null, paid: fee?.paid ?? 0, owed: state.withdrawn.includes(t.teamId) ? 0 : owed(reg, t.teamId) }];
      }),
    ),
    totals: feeTotals(state),
    codes: Object.fromEntries(entrants.map((teamId) => [teamId, codeOf(teamId, reg.codeSeeds[teamId])])),
    checkedInBy: { ...reg.checkedInBy },
    counts: {
      registered: state.model.teams.filter((t) => !state.withdrawn.includes(t.teamId)).length,
      waitlisted: place,
      withdrawn: state.withdrawn.length + reg.waitlist.filter((w) => w.withdrawn).length,
    },
  };
}

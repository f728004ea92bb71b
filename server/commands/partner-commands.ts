/**
 * Drawing partners for a team structure whose players registered alone ("blind draw"). Once
 * check-in closes the director draws: the players checked in are paired from a seed (given, or
 * chosen by the server and recorded), and the player left over by an odd count plays on two
 * teams or sits out, as the event was created to do or the draw says. A preview decides the
 * draw and records nothing; the confirmed draw records it in one decision, with the players who
 * did not check in withdrawn and the waitlisted who did taking their places, as at a start.
 * The drawn teams are then the event's entrants, seeded and started like any team's.
 */
import { type OddPlayer, type PartnerDraw, drawPartners, drawnTeamName } from '../../engine/partner-draw.ts';
import { registersAlone } from '../../engine/format-play.ts';
import type { ReadModels } from '../../events/projections.ts';
import { waiting } from '../../events/registration-projection.ts';
import type { Decision } from '../../events/store/served-ledger.ts';
import { tournamentStream } from '../../events/streams.ts';
import { listed } from '../../events/tournament-state.ts';
import type { TournamentState } from '../../events/tournament-projection.ts';
import { CommandError } from './command-error.ts';
import { placed, startPromotions } from './registration-commands.ts';
import { tournamentOf } from './tournament-lookup.ts';

/** The most teams a bracket or league takes (TournamentStarted's seeds). */
const MOST_TEAMS = 64;

export interface PartnerDrawInput {
  tournamentId: string;
  /** The seed the draw is made from; the route gives one the server chose when the director gave none. */
  seed: string;
  /** What the player left over by an odd count does; the event's own choice when not given. */
  odd?: OddPlayer;
}

/** A draw decided and not yet recorded: the teams in names, and the decision that records it. */
export interface PartnerDrawDecision {
  draw: PartnerDraw;
  odd: OddPlayer;
  /** Each drawn team: its id, its name, and its players by id and name. */
  teams: { teamId: string; name: string; players: { playerId: string; name: string }[] }[];
  sittingOut: { playerId: string; name: string } | null;
  twice: { playerId: string; name: string } | null;
  /** Registered players left out of the draw because they did not check in (withdrawn by it). */
  absent: { playerId: string; name: string }[];
  /** Waitlisted players, checked in, who take the places of those absent. */
  promoted: { playerId: string; name: string }[];
  decision: Decision;
}

/** Why a tournament draws no partners now, as a sentence; null when it may. */
function drawProblem(tournament: TournamentState): { message: string; status: 409 } | null {
  const name = tournament.model.name;
  if (!tournament.partners || !registersAlone(tournament.format) || tournament.progressive) {
    return { message: `${name} is played by teams that register together; it has no partners to draw`, status: 409 };
  }
  if (tournament.partners.draw) {
    const n = tournament.partners.draw.teams.length;
    return { message: `partners for ${name} are already drawn (${n} teams); a draw is made once and stands`, status: 409 };
  }
  if (tournament.model.status !== 'registration') return { message: `${name} has started; partners are drawn before the start`, status: 409 };
  return null;
}

/**
 * Decides a partner draw from the players checked in: refused, saying why, for an event without
 * drawn partners, a second draw, a draw after the start, before anyone checks in, or with fewer
 * than 4 players here.
 */
export function decidePartnerDraw(models: ReadModels, input: PartnerDrawInput): PartnerDrawDecision {
  const tournament = tournamentOf(models, input.tournamentId);
  const problem = drawProblem(tournament);
  if (problem) throw new CommandError(problem.message, problem.status);
  const name = tournament.model.name;
  const odd = input.odd ?? tournament.format.oddPlayer ?? 'sit-out';
  if (odd !== 'twice' && odd !== 'sit-out') {
    throw new CommandError(`with an odd number of players the one left over plays twice ('twice') or sits out ('sit-out'), not '${String(odd)}'`);
  }
  if (typeof input.seed !== 'string' || input.seed.trim() === '' || input.seed.length > 200) {
    throw new CommandError('the seed of a partner draw is 1 to 200 characters of text');
  }
  const registered = placed(tournament);
  const here = registered.filter((p) => tournament.checkedIn.includes(p.teamId));
  const absent = registered.filter((p) => !tournament.checkedIn.includes(p.teamId));
  const promoted = startPromotions(
    tournament,
    absent.map((p) => p.teamId),
  );
  if (here.length + promoted.length === 0) {
    throw new CommandError(
      `nobody has checked in to ${name} yet (${registered.length} registered); partners are drawn from the players checked in, once check-in closes`,
      409,
    );
  }
  const players = [...here.map((p) => p.teamId), ...promoted];
  if (players.length < 4) {
    throw new CommandError(
      `only ${players.length} player${players.length === 1 ? ' has' : 's have'} checked in to ${name}; it takes at least 4 to draw two teams`,
      409,
    );
  }
  const draw = drawPartners(players, input.seed, odd);
  if (draw.teams.length > MOST_TEAMS) {
    throw new CommandError(
      `${players.length} players checked in to ${name} make ${draw.teams.length} teams; an event takes at most ${MOST_TEAMS} teams, so split the field into two events`,
    );
  }
  const nameOf = (id: string) => tournament.model.teams.find((t) => t.teamId === id)?.name ?? waiting(tournament.registration, id)?.name ?? id;
  const person = (id: string | null) => (id === null ? null : { playerId: id, name: nameOf(id) });
  const teams = draw.teams.map((t) => {
    const names: [string, string] = [nameOf(t.players[0]), nameOf(t.players[1])];
    return { teamId: t.teamId, name: drawnTeamName(names), players: t.players.map((p) => person(p)!) };
  });
  const id = input.tournamentId;
  const events = [
    ...absent.map((p) => ({ type: 'TeamWithdrawn', payload: { tournamentId: id, teamId: p.teamId } })),
    ...promoted.map((teamId) => ({ type: 'WaitlistPromoted', payload: { tournamentId: id, teamId } })),
    {
      type: 'PartnersDrawn',
      payload: {
        tournamentId: id,
        seed: draw.seed,
        odd,
        players: [...players].sort(),
        teams: teams.map((t) => ({ teamId: t.teamId, name: t.name, players: t.players.map((p) => p.playerId) })),
        sittingOut: draw.sittingOut,
        twice: draw.twice,
      },
    },
  ];
  return {
    draw,
    odd,
    teams,
    sittingOut: person(draw.sittingOut),
    twice: person(draw.twice),
    absent: absent.map((p) => ({ playerId: p.teamId, name: p.name })),
    promoted: promoted.map((p) => person(p)!),
    decision: { stream: tournamentStream(id), events },
  };
}

/** What a recorded draw did, in a sentence for the desk. */
export function drawnSentence(d: Pick<PartnerDrawDecision, 'teams' | 'sittingOut' | 'twice' | 'absent'>): string {
  const parts = [`Drew ${d.teams.length} teams: ${d.teams.map((t) => t.name).join('; ')}.`];
  if (d.twice) parts.push(`${d.twice.name} plays on two teams.`);
  if (d.sittingOut) parts.push(`${d.sittingOut.name} sits out.`);
  if (d.absent.length > 0) parts.push(`Not checked in, so withdrawn: ${listed(d.absent.map((p) => p.name))}.`);
  return parts.join(' ');
}

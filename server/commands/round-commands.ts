/**
 * Drawing the next round of a bracket drawn round by round (blp-2024, engine/bracket-rounds.ts):
 * once every match of a round is decided, a director draws the next one. Each group with an odd
 * count gives its bye to the highest card of a high-card draw among its teams that have had no
 * bye; the director brings the cards drawn at the table (rounds of cards by team, ties
 * redrawing), or, when none are given, the draw is made from a recorded seed. The cards, the
 * byes and the pairings are recorded in one `BracketRoundDrawn` event.
 */
import { type GroupDrawInput, type RoundGroup, decideByes, nextRoundPlan, pairRound } from '../../engine/bracket-rounds.ts';
import { tournamentStream } from '../../events/streams.ts';
import type { Decision } from '../../events/store/served-ledger.ts';
import type { ReadModels } from '../../events/projections.ts';
import { type MatchPlay, hasTable, matchPlayOf } from '../../engine/format-play.ts';
import type { TournamentState } from '../../events/tournament-projection.ts';
import { CommandError } from './command-error.ts';
import { tournamentOf } from './tournament-lookup.ts';

export interface DrawRoundInput {
  tournamentId: string;
  /** The round the director means to draw; refused when it is not the next one. */
  round?: number;
  /** The cards (and, to check, the bye) of each group's draw; a group without cards is drawn from `seed`. */
  winners?: GroupDrawInput;
  losers?: GroupDrawInput;
  seed?: string;
}

/** Draws the next round: refused, with the reason, while a match of the last round is open or when a draw is wrong. */
export function drawRound(models: ReadModels, input: DrawRoundInput): Decision {
  const tournament = tournamentOf(models, input.tournamentId);
  const id = input.tournamentId;
  const bracket = tournament.bracket;
  const structure = matchPlayOf(tournament.format);
  if (structure?.rounds !== 'drawn' && !tournament.format.roundByRound) {
    const whole = !structure ? 'evening' : hasTable(structure) ? 'schedule' : 'bracket';
    throw new CommandError(`tournament ${id} draws its whole ${whole} at the start; it has no rounds to draw`, 409);
  }
  if (tournament.model.status === 'registration' || !bracket) throw new CommandError(`tournament ${id} has not started; round 1 is drawn at the start`, 409);
  if (tournament.model.status === 'finished') throw new CommandError(`tournament ${id} is finished; there is no round to draw`, 409);
  if (structure && !tournament.format.roundByRound) return pairedRound(tournament, structure, input);
  let plan;
  try {
    plan = nextRoundPlan(bracket);
  } catch (error) {
    throw new CommandError(`tournament ${id}: ${(error as Error).message}`, 409);
  }
  if (input.round !== undefined && input.round !== plan.round) {
    throw new CommandError(`tournament ${id}: round ${plan.round} is the next to draw, not round ${input.round}`, 409);
  }
  const seed = input.seed || `${id}:round-${plan.round}`;
  const given: Partial<Record<RoundGroup, GroupDrawInput>> = {};
  if (input.winners) given.winners = input.winners;
  if (input.losers) given.losers = input.losers;
  let draws;
  try {
    draws = decideByes(plan, given, seed);
  } catch (error) {
    throw new CommandError(`tournament ${id}: ${(error as Error).message}`);
  }
  const drawn = pairRound(plan, draws);
  const payload: Record<string, unknown> = { tournamentId: id, round: drawn.round, draws: drawn.draws, matches: drawn.matches };
  const seeded = plan.groups.some((g) => g.drawing.length > 1 && !given[g.group]?.cards?.length);
  if (seeded) payload.seed = seed;
  return { stream: tournamentStream(id), events: [{ type: 'BracketRoundDrawn', payload }] };
}

/**
 * A round paired from the standings (Swiss): no cards are drawn; the pairing follows from the
 * recorded results, so the event records the pairs it made.
 */
function pairedRound(tournament: TournamentState, structure: MatchPlay, input: DrawRoundInput): Decision {
  const id = input.tournamentId;
  if (input.winners || input.losers)
    throw new CommandError(
      `tournament ${id}: ${structure.id === 'pools' ? 'the playoff is seeded from the pools’ standings' : 'a Swiss round is paired from the standings'}; no cards are drawn for it`,
    );
  let drawn;
  try {
    drawn = structure.nextRound(tournament.bracket!, tournament.model.league?.rows ?? [], tournament.format, { seed: input.seed || `${id}:round` });
  } catch (error) {
    throw new CommandError(`tournament ${id}: ${(error as Error).message}`, 409);
  }
  if (input.round !== undefined && input.round !== drawn.round) {
    throw new CommandError(`tournament ${id}: round ${drawn.round} is the next to draw, not round ${input.round}`, 409);
  }
  return {
    stream: tournamentStream(id),
    events: [
      {
        type: 'BracketRoundDrawn',
        payload: { tournamentId: id, round: drawn.round, draws: [], matches: drawn.matches, ...(drawn.playoff ? { playoff: drawn.playoff } : {}) },
      },
    ],
  };
}

/** The round a director can draw now, or null: the bracket is drawn round by round and every match of its last round is decided. */
export function roundToDraw(
  models: ReadModels,
  tournamentId: string,
): { round: number; final: boolean; drawing: Partial<Record<RoundGroup, string[]>>; paired?: true; playoff?: true } | null {
  const tournament = models.tournaments[tournamentId];
  if (!tournament?.bracket || tournament.model.status !== 'running') return null;
  const structure = matchPlayOf(tournament.format);
  if (structure?.rounds === 'drawn' && !tournament.format.roundByRound) {
    try {
      const drawn = structure.nextRound(tournament.bracket, tournament.model.league?.rows ?? [], tournament.format, { seed: tournamentId });
      return { round: drawn.round, final: false, drawing: {}, paired: true, ...(drawn.playoff ? { playoff: true as const } : {}) };
    } catch {
      return null;
    }
  }
  if (!tournament.format.roundByRound) return null;
  try {
    const plan = nextRoundPlan(tournament.bracket);
    const drawing: Partial<Record<RoundGroup, string[]>> = {};
    for (const g of plan.groups) if (g.drawing.length > 0) drawing[g.group] = g.drawing;
    return { round: plan.round, final: plan.final, drawing };
  } catch {
    return null;
  }
}

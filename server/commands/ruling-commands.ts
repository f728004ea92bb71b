/**
 * A judge's rulings once play has started: putting a team out (a disqualification, a no-show,
 * a forfeit), calling time on a match whose clock has run out, and correcting a finished game's
 * result. Each is decided against the read models and either refused with a sentence naming
 * what was wrong and where, or turned into one event.
 */
import { seatedAtTables } from '../../engine/format-play.ts';
import { matchStream, tournamentStream } from '../../events/streams.ts';
import type { Decision } from '../../events/store/served-ledger.ts';
import type { ReadModels } from '../../events/projections.ts';
import { gameById } from '../../events/lookup.ts';
import { CommandError } from './command-error.ts';
import { entrantOf, tournamentOf } from './tournament-lookup.ts';

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
  if (tournament.disqualified.some((d) => d.teamId === input.teamId))
    throw new CommandError(`tournament ${id}: '${row.name}' is already out of the event`, 409);
  if (tournament.withdrawn.includes(input.teamId)) throw new CommandError(`tournament ${id}: '${row.name}' has withdrawn`, 409);
  if (seatedAtTables(tournament.format) && tournament.model.status !== 'registration') {
    throw new CommandError(
      `tournament ${id}: progressive tables need all four seats filled every round, so a player cannot leave once play has started; a judge corrects the table's score instead`,
      409,
    );
  }
  const payload: Record<string, unknown> = { tournamentId: id, teamId: input.teamId, reason: input.reason.trim() };
  if (input.kind) payload.kind = input.kind;
  return { stream: tournamentStream(id), events: [{ type: 'TeamDisqualified', payload }] };
}

/**
 * Calls time on a match whose clock has run out. The hand in progress is played out, then the
 * team ahead wins; on a tie one more hand is played (the game projection ends the game). On a
 * match clock the match goes to the team that wins the game time was called in; on a game's
 * own clock (asher) time ends that game only and the match plays on.
 */
export function callTime(models: ReadModels, input: { tournamentId: string; matchId: string; at: string }): Decision {
  const tournament = tournamentOf(models, input.tournamentId);
  const match = tournament.model.matches.find((m) => m.matchId === input.matchId);
  if (!match) throw new CommandError(`tournament ${input.tournamentId}: match ${input.matchId} does not exist`, 404);
  if (match.status !== 'live') throw new CommandError(`match ${input.matchId} is ${match.status}; time is called only while it is played`, 409);
  const clock = match.clock;
  if (!clock) throw new CommandError(`match ${input.matchId} has no clock: no time limit was set for it when it was seated`, 409);
  const gameId = match.games[match.games.length - 1];
  const game = gameId ? gameById(models, gameId) : undefined;
  if (!game) throw new CommandError(`match ${input.matchId} has no game in play`, 409);
  const whose = clock.gameId ? `game ${game.number} of match ${input.matchId}` : `match ${input.matchId}`;
  if (clock.gameId && clock.gameId !== game.gameId)
    throw new CommandError(`${whose} has no clock of its own; time is called in the game its clock was started with`, 409);
  if (clock.calledAt) throw new CommandError(`time was already called in ${whose} at ${clock.calledAt}`, 409);
  const endsAt = new Date(Date.parse(clock.startedAt) + clock.minutes * 60_000);
  const at = Date.parse(input.at);
  if (Number.isNaN(at)) throw new CommandError(`match ${input.matchId}: the time of the call must be an ISO time, not '${input.at}'`);
  if (at < endsAt.getTime()) {
    throw new CommandError(
      `${whose}: its ${clock.minutes}-minute clock started at ${clock.startedAt} and runs out at ${endsAt.toISOString()}; time cannot be called at ${input.at}`,
      409,
    );
  }
  if (game.winner) throw new CommandError(`game ${game.gameId} of match ${input.matchId} is over; start the next game, then call time in it`, 409);
  const hand = game.current ? game.current.number : Math.max(1, game.hands.length);
  return {
    stream: matchStream(input.tournamentId, input.matchId),
    events: [
      { type: 'TimeCalled', payload: { tournamentId: input.tournamentId, matchId: input.matchId, gameId: game.gameId, at: new Date(at).toISOString(), hand } },
    ],
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
  if (!tournament.bracket)
    throw new CommandError(
      `tournament ${input.tournamentId}: progressive tables are corrected by a score correction at the table, not by a game's winner`,
      409,
    );
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
        payload: {
          tournamentId: input.tournamentId,
          matchId: game.matchId,
          gameId: input.gameId,
          winner: input.winner,
          reason: input.reason.trim(),
          judge: input.judge.trim(),
        },
      },
    ],
  };
}

/**
 * Withdrawing a judge's ruling: a renege ruling or a score correction is taken back by a later
 * RulingWithdrawn event, never erased, and the game is scored again without it. What each
 * ruling does to the score (and would stop doing) is worked out by folding that same event
 * into a copy of the game, so the console, the command and the projection agree.
 *
 * Which rulings can be withdrawn: a renege ruling and a score correction. A withdrawal follows
 * the rule a ruling follows, before and after the event is finished: one that would change a
 * decided match is a reopening, given only when asked as one (reopenings.ts).
 * Disqualifications, result corrections, time calls and misdeals are not withdrawn;
 * `REFUSED_KINDS` says why, in the words a judge reads.
 */
import type { Team } from '../../engine/cards.ts';
import type { Decision } from '../../events/store/served-ledger.ts';
import { evolveGame } from '../../events/game-projection.ts';
import { gameStream } from '../../events/streams.ts';
import type { ReadModels } from '../../events/projections.ts';
import type { GameModel } from '../../events/read-models.ts';
import { gameById } from '../../events/lookup.ts';
import { CommandError } from './command-error.ts';

/** The ruling a withdrawal names: a renege claim's ruling or a score correction (its ledger position). */
export type RulingRef = { claimId: string } | { correction: number };

/** Rulings a judge cannot withdraw, and why, keyed as the withdrawal form names them. */
export const REFUSED_KINDS: Record<string, string> = {
  disqualification:
    'a disqualification is not withdrawn: the team’s matches were forfeited and the bracket has moved on from them, so the teams since drawn against those results would be wrong',
  result: 'a corrected result is not withdrawn: correct the game’s result again, naming the rightful winner, and the bracket follows',
  time: 'a time call is not withdrawn: the clock ran out and the hand in play decided the match',
  misdeal: 'a misdeal is not withdrawn: the hand was dealt again and played',
};

const refName = (ref: RulingRef) => ('claimId' in ref ? `the ruling on claim ${ref.claimId}` : `the score correction at ledger position ${ref.correction}`);

/** The game as it would be with the ruling withdrawn (a copy; the live game is untouched). */
export function gameWithout(game: GameModel, ref: RulingRef, position: number): GameModel {
  const copy = structuredClone(game);
  evolveGame(
    copy,
    { type: 'RulingWithdrawn', payload: { gameId: game.gameId, ...ref, reason: 'what if', judge: 'what if' }, at: new Date(0).toISOString() },
    position,
  );
  return copy;
}

/** What a standing ruling adds to each team's score now: the score with it less the score without it. */
export function rulingEffect(game: GameModel, ref: RulingRef, position: number): Record<Team, number> {
  const without = gameWithout(game, ref, position);
  return { NS: game.score.NS - without.score.NS, EW: game.score.EW - without.score.EW };
}

/** A judge withdraws an earlier ruling on a game, saying why; refused when it cannot sensibly be taken back. */
export function withdrawRuling(models: ReadModels, input: RulingRef & { gameId: string; reason: string; judge: string }): Decision {
  const game = gameById(models, input.gameId);
  if (!game) throw new CommandError(`game ${input.gameId} does not exist`, 404);
  const ref: RulingRef =
    'claimId' in input && input.claimId !== undefined ? { claimId: input.claimId } : { correction: (input as { correction: number }).correction };
  const what = refName(ref);
  if ('claimId' in ref) {
    const claim = game.claims.find((c) => c.claimId === ref.claimId);
    if (!claim) throw new CommandError(`game ${game.gameId}: claim ${ref.claimId} does not exist`, 404);
    if (!claim.ruling) throw new CommandError(`game ${game.gameId}: claim ${ref.claimId} has not been ruled on, so there is no ruling to withdraw`, 409);
    if (claim.ruling.withdrawn) {
      throw new CommandError(`game ${game.gameId}: ${what} was already withdrawn by ${claim.ruling.withdrawn.judge} (${claim.ruling.withdrawn.reason})`, 409);
    }
  } else {
    const correction = game.corrections.find((c) => c.position === ref.correction);
    if (!correction) throw new CommandError(`game ${game.gameId} has no score correction at ledger position ${ref.correction}`, 404);
    if (correction.withdrawn)
      throw new CommandError(`game ${game.gameId}: ${what} was already withdrawn by ${correction.withdrawn.judge} (${correction.withdrawn.reason})`, 409);
  }
  if (!input.reason?.trim()) throw new CommandError(`game ${game.gameId}: say why ${what} is withdrawn`);
  if (!input.judge?.trim()) throw new CommandError(`game ${game.gameId}: a withdrawal names the judge who makes it`);
  return {
    stream: gameStream(game.gameId),
    events: [{ type: 'RulingWithdrawn', payload: { gameId: game.gameId, ...ref, reason: input.reason.trim(), judge: input.judge.trim() } }],
  };
}

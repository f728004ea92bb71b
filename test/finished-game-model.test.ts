/**
 * A finished game takes no undo, so its model keeps, of what was recorded since its last deal,
 * only the last entry (the entry page still shows it) and lets go of the hand an undo would
 * reopen. A game still being played keeps every entry since the deal.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { undoLastEntry } from '../server/commands/game-commands.ts';
import { type AuditLedger, playTournament, tempLedger } from './fixtures/audit-ledger.ts';
import { refusal } from './tournament-ledger.ts';

let fixture: AuditLedger;

beforeAll(async () => {
  fixture = tempLedger();
  await playTournament(fixture.ledger, { teams: 4, seed: 'finished-game' });
}, 60_000);
afterAll(() => fixture.remove());

describe('a finished game in the read models', () => {
  it('keeps only its last entry, the one that finished it, and no hand to reopen', () => {
    const finished = Object.values(fixture.ledger.models.games).filter((game) => game.winner !== null);
    expect(finished.length).toBeGreaterThan(0);
    for (const game of finished) {
      expect(game.recent).toHaveLength(1);
      // The last card (or tricks) closed the last hand, at the position its row records.
      expect(game.recent![0]!.position).toBe(game.rows.at(-1)!.position);
      expect(game.closedHand ?? null).toBeNull();
      expect(refusal(() => undoLastEntry(fixture.ledger.models, { gameId: game.gameId })).message).toContain('is over');
    }
  });

  it('keeps every entry since the deal while the game is played', async () => {
    const partial = tempLedger();
    try {
      // The same tournament stopped in the middle of its hands.
      await playTournament(partial.ledger, { teams: 4, seed: 'finished-game', stopAt: 300 });
      const playing = Object.values(partial.ledger.models.games).filter(
        (game) => game.winner === null && game.current !== null && game.current.plays.length > 1,
      );
      expect(playing.length).toBeGreaterThan(0);
      for (const game of playing) {
        const cards = (game.recent ?? []).filter((entry) => entry.type === 'CardPlayed').map((entry) => entry.card);
        expect(cards).toEqual(game.current!.plays.flat());
      }
    } finally {
      partial.remove();
    }
  });
});

/**
 * A disqualification in the middle of an event and a judge's correction of an early game,
 * through the ledger: the bracket moves on, matches already played downstream are flagged
 * under review and replayed, nothing recorded is lost, and a rebuild gives the same result.
 */
import { describe, expect, it } from 'vitest';
import type { Ledger } from '../events/store/sqlite/ledger.ts';
import type { MatchModel } from '../events/read-models.ts';
import { driveTables } from '../server/serve/table-driver.ts';
import { createTournament, registerTeam, startTournament } from '../server/commands/tournament-commands.ts';
import { correctGameResult, disqualifyTeam } from '../server/commands/ruling-commands.ts';
import { driveToEnd, eventsOf, expectRebuildEqualsLive, refusal, tempLedger } from './tournament-ledger.ts';
import { newsText } from '../views/news.ts';

const NOW = () => '2026-01-01T10:00:00.000Z';

function blpEvent(ledger: Ledger): void {
  ledger.execute(createTournament(ledger.models, { tournamentId: 'b', name: 'BLP 2024', format: 'blp-2024' }));
  for (let i = 1; i <= 8; i++)
    ledger.execute(registerTeam(ledger.models, { tournamentId: 'b', teamId: `t${i}`, name: `Team ${i}`, players: [`P${i}a`, `P${i}b`] }));
  ledger.execute(startTournament(ledger.models, { tournamentId: 'b', order: Array.from({ length: 8 }, (_, i) => `t${i + 1}`) }));
}

const matchesOf = (ledger: Ledger) => ledger.models.tournaments.b!.model.matches;
const match = (ledger: Ledger, id: string): MatchModel => matchesOf(ledger).find((m) => m.matchId === id)!;

/** Drives the tables one step at a time until `done` holds. */
async function driveUntil(ledger: Ledger, done: () => boolean): Promise<void> {
  for (let step = 0; !done(); step++) {
    if ((await driveTables(ledger, { tournamentId: 'b', seed: 'corrections', now: NOW })) === 0 || step > 50_000)
      throw new Error('the state was never reached');
  }
}

describe('a disqualification and a correction in the middle of an event', () => {
  it('moves the bracket on, flags played downstream matches, loses nothing, and rebuilds to the same result', async () => {
    const ledger = tempLedger();
    blpEvent(ledger);
    const firstMatch = () => match(ledger, 'W1-1');
    const [a, b] = firstMatch().teams as [string, string];
    const midMatch = () =>
      matchesOf(ledger).find(
        (m) => m.status === 'live' && !m.teams.includes(a) && !m.teams.includes(b) && (ledger.models.games[m.games.at(-1)!]?.hands.length ?? 0) > 0,
      );
    // Play on until the matches after W1-1 on both sides are played, and another match is under way.
    await driveUntil(ledger, () => match(ledger, 'W2-1')?.status === 'done' && match(ledger, 'L2-1')?.status === 'done' && midMatch() !== undefined);

    // A disqualification mid-match: the match in progress is forfeited, the opponent moves on.
    const live = midMatch()!;
    const [cheat, opponent] = live.teams as [string, string];
    const gamesBefore = Object.keys(ledger.models.games).length;
    ledger.execute(disqualifyTeam(ledger.models, { tournamentId: 'b', teamId: cheat, reason: 'caught cheating (blp-2024 "Disqualification")' }));
    expect(match(ledger, live.matchId)).toMatchObject({ status: 'forfeit', winner: opponent });
    expect(ledger.models.tournaments.b!.model.teams.find((t) => t.teamId === cheat)!.status).toBe('disqualified');
    expect(ledger.models.games[live.games.at(-1)!]!.hands.length).toBeGreaterThan(0); // the game so far is kept
    expect(refusal(() => disqualifyTeam(ledger.models, { tournamentId: 'b', teamId: cheat, reason: 'again' })).status).toBe(409);

    // A judge corrects W1-1's game: the other team won it.
    const game1 = firstMatch().games[0]!;
    const wrongWinner = firstMatch().winner!;
    const rightWinner = wrongWinner === a ? b : a;
    const w21 = structuredClone(match(ledger, 'W2-1'));
    const l21 = structuredClone(match(ledger, 'L2-1'));
    const recorded = structuredClone(ledger.models.tournaments.b!.bracket!.results);
    ledger.execute(
      correctGameResult(ledger.models, { tournamentId: 'b', gameId: game1, winner: rightWinner, reason: 'tricks miscounted in hand 3', judge: 'Judge Ray' }),
    );

    expect(firstMatch()).toMatchObject({ status: 'done', winner: rightWinner });
    for (const flagged of [w21, l21]) {
      // Played with a team that should not have been there: under review, the result and games kept.
      const now = match(ledger, flagged.matchId);
      expect(now.underReview, flagged.matchId).toBe(true);
      expect(now.games).toEqual(flagged.games);
      expect(ledger.models.tournaments.b!.bracket!.results[flagged.matchId]).toEqual(recorded[flagged.matchId]);
      expect(now.teams).toContain(flagged.matchId === 'W2-1' ? rightWinner : wrongWinner);
    }
    expect(ledger.models.tournaments.b!.reviews.map((r) => r.matchId).sort()).toEqual(['L2-1', 'W2-1']);
    expect(
      ledger.models.tournaments.b!.model.latest.some(
        (l) =>
          newsText(l, ledger.models.tournaments.b!.model) ===
          `Judge Judge Ray corrected game ${game1}: Team ${rightWinner.slice(1)} won (tricks miscounted in hand 3)`,
      ),
    ).toBe(true);

    // Play on to the end: the flagged matches are replayed between the right teams.
    await driveToEnd(ledger, 'b', 'corrections');
    const state = ledger.models.tournaments.b!;
    expect(state.model.status).toBe('finished');
    for (const flagged of [w21, l21]) {
      const now = match(ledger, flagged.matchId);
      expect(now).toMatchObject({ status: 'done', underReview: false });
      expect(now.games.slice(0, flagged.games.length)).toEqual(flagged.games);
      expect(now.games.length).toBeGreaterThan(flagged.games.length);
      const replay = ledger.models.games[now.games.at(-1)!]!;
      expect([replay.teams.NS, replay.teams.EW].sort()).toEqual([...now.teams].sort());
    }
    // The disqualified team forfeits everything after the call and wins nothing more.
    expect(state.model.matches.filter((m) => m.teams.includes(cheat) && m.status === 'forfeit').every((m) => m.winner !== cheat)).toBe(true);
    expect(state.model.placings.find((p) => p.place === 1)!.teamId).not.toBe(cheat);
    // Nothing is lost: every game ever started is still in the read models.
    const started = eventsOf<{ gameId: string }>(ledger, 'GameStarted').map((g) => g.gameId);
    expect(started.length).toBeGreaterThan(gamesBefore);
    expect(Object.keys(ledger.models.games).sort()).toEqual(started.sort());
    expectRebuildEqualsLive(ledger);
    expect(ledger.store.verifyChain().ok).toBe(true);
    ledger.close();
  });

  for (const [seed, outcome] of [
    ['reopen-2', '2–0 becomes 1–1: the match is open again and the event no longer finished'],
    ['reopen', '2–1 becomes 1–2: the match changes hands and so do the placings'],
  ] as const) {
    it(`a correction in a best-of-3 final: ${outcome}; a correction back restores it`, async () => {
      const ledger = tempLedger();
      ledger.execute(
        createTournament(ledger.models, { tournamentId: 'b', name: 'Two of three', format: 'custom', options: { rules: 'blp-r1', gamesToWin: 2 } }),
      );
      for (let i = 1; i <= 2; i++)
        ledger.execute(registerTeam(ledger.models, { tournamentId: 'b', teamId: `t${i}`, name: `Team ${i}`, players: [`P${i}a`, `P${i}b`] }));
      ledger.execute(startTournament(ledger.models, { tournamentId: 'b', order: ['t1', 't2'] }));
      await driveToEnd(ledger, 'b', seed);
      const final = () => match(ledger, 'F');
      const played = structuredClone(final());
      expect(ledger.models.tournaments.b!.model.status).toBe('finished');
      const winner = played.winner!;
      const loser = played.teams.find((t) => t !== winner)!;
      const wonGame = played.games.find((g) => {
        const game = ledger.models.games[g]!;
        return game.teams[game.winner!] === winner;
      })!;
      ledger.execute(
        correctGameResult(ledger.models, { tournamentId: 'b', gameId: wonGame, winner: loser, reason: 'renege found on the score sheet', judge: 'Judge Ann' }),
      );
      if (seed === 'reopen-2') {
        expect(played.games).toHaveLength(2);
        expect(final()).toMatchObject({ status: 'live', winner: null, gamesWon: [1, 1] });
        expect(ledger.models.tournaments.b!.model.status).toBe('running');
        expect(ledger.models.tournaments.b!.model.placings).toEqual([]);
        expect(ledger.models.tournaments.b!.prizes).toEqual([]);
      } else {
        expect(played.games).toHaveLength(3);
        expect(final()).toMatchObject({ status: 'done', winner: loser });
        expect(ledger.models.tournaments.b!.model.placings[0]).toEqual({ place: 1, teamId: loser });
      }
      expectRebuildEqualsLive(ledger);
      ledger.execute(
        correctGameResult(ledger.models, { tournamentId: 'b', gameId: wonGame, winner, reason: 'the sheet was right after all', judge: 'Judge Ann' }),
      );
      expect(final()).toMatchObject({ status: 'done', winner });
      expect(ledger.models.tournaments.b!.model.placings[0]).toEqual({ place: 1, teamId: winner });

      const same = refusal(() => correctGameResult(ledger.models, { tournamentId: 'b', gameId: wonGame, winner, reason: 'x', judge: 'Judge Ann' }));
      expect([same.status, same.message]).toEqual([409, `game ${wonGame}: '${winner}' is already its recorded winner; nothing to correct`]);
      const stranger = refusal(() => correctGameResult(ledger.models, { tournamentId: 'b', gameId: wonGame, winner: 't9', reason: 'x', judge: 'Judge Ann' }));
      expect(stranger.status).toBe(400);
      expect(stranger.message).toMatch(new RegExp(`^game ${wonGame}: 't9' did not play in it`));
      expect(refusal(() => correctGameResult(ledger.models, { tournamentId: 'b', gameId: 'nope', winner, reason: 'x', judge: 'Judge Ann' })).status).toBe(404);
      expectRebuildEqualsLive(ledger);
      ledger.close();
    });
  }
});

/**
 * Match clocks through the ledger. rules.md: "When time is called the hand in progress is played
 * out, the leader wins, a tie plays one more hand"; pitt-boss: "at stop the hand in progress is
 * played out and the team ahead in the current game wins the match; tie → one hand of overtime".
 */
import { describe, expect, it } from 'vitest';
import type { Seat } from '../engine/cards.ts';
import type { Ledger } from '../events/store/sqlite/ledger.ts';
import { nextBidder } from '../events/game-projection.ts';
import { dealHand, makeBid, recordTricks } from '../server/commands/game-commands.ts';
import { createTournament, registerTeam, startTournament } from '../server/commands/tournament-commands.ts';
import { startMatch, startNextGame } from '../server/commands/match-commands.ts';
import { callTime } from '../server/commands/ruling-commands.ts';
import { eventsOf, expectRebuildEqualsLive, refusal, tempLedger } from './tournament-ledger.ts';
import { newsText } from '../views/news.ts';

const START = '2026-01-01T10:00:00.000Z';
const at = (minutes: number) => new Date(Date.parse(START) + minutes * 60_000).toISOString();

function event(ledger: Ledger, format: 'unc-intramural' | 'pitt-boss', teams: number) {
  ledger.execute(createTournament(ledger.models, { tournamentId: 't', name: 'Clock test', format }));
  for (let i = 1; i <= teams; i++)
    ledger.execute(registerTeam(ledger.models, { tournamentId: 't', teamId: `t${i}`, name: `Team ${i}`, players: [`P${i}a`, `P${i}b`] }));
  ledger.execute(startTournament(ledger.models, { tournamentId: 't', order: Array.from({ length: teams }, (_, i) => `t${i + 1}`) }));
}

/** Deals the next hand and enters each seat's bid in the preset's bidding order. */
function dealAndBid(ledger: Ledger, gameId: string, bids: Record<Seat, number>): void {
  ledger.execute(dealHand(ledger.models, { gameId }));
  for (let seat = nextBidder(ledger.models.games[gameId]!); seat; seat = nextBidder(ledger.models.games[gameId]!)) {
    ledger.execute(makeBid(ledger.models, { gameId, seat, bid: bids[seat] }));
  }
}

function tricks(ledger: Ledger, gameId: string, taken: Record<Seat, number>): void {
  ledger.execute(recordTricks(ledger.models, { gameId, tricks: taken }));
}

const THREES = { N: 3, E: 3, S: 3, W: 3 };

describe('time called on a match clock', () => {
  it('mid-hand with one team ahead: the hand is played out and the team ahead wins the game and the match', () => {
    const ledger = tempLedger();
    event(ledger, 'unc-intramural', 2);
    // Two teams: the only match is the championship, played with unc-500 and 45 minutes.
    ledger.execute(
      startMatch(ledger.models, {
        tournamentId: 't',
        matchId: 'F',
        table: 1,
        at: START,
        draw: { method: 'high-card', rounds: [{ N: 'AS', E: 'KS', S: 'QS', W: 'JS' }] },
      }),
    );
    const gameId = 't-F-g1';
    dealAndBid(ledger, gameId, THREES);
    tricks(ledger, gameId, { N: 3, S: 3, E: 3, W: 4 }); // NS 60, EW 61
    dealAndBid(ledger, gameId, THREES);

    const early = refusal(() => callTime(ledger.models, { tournamentId: 't', matchId: 'F', at: at(44) }));
    expect(early.status).toBe(409);
    expect(early.message).toBe(`match F: its 45-minute clock started at ${START} and runs out at ${at(45)}; time cannot be called at ${at(44)}`);

    ledger.execute(callTime(ledger.models, { tournamentId: 't', matchId: 'F', at: at(45) }));
    expect(eventsOf(ledger, 'TimeCalled')).toEqual([{ tournamentId: 't', matchId: 'F', gameId, at: at(45), hand: 2 }]);
    expect(ledger.models.games[gameId]!.winner).toBeNull(); // the hand in progress is played out first
    expect(refusal(() => callTime(ledger.models, { tournamentId: 't', matchId: 'F', at: at(46) })).message).toBe(
      `time was already called in match F at ${at(45)}`,
    );

    tricks(ledger, gameId, { N: 3, S: 3, E: 3, W: 4 }); // NS 120, EW 122
    const game = ledger.models.games[gameId]!;
    expect(game.score).toEqual({ NS: 120, EW: 122 });
    expect([game.winner, game.reason, game.hands.length]).toEqual(['EW', 'time', 2]);
    expect(refusal(() => dealHand(ledger.models, { gameId })).status).toBe(409);

    const model = ledger.models.tournaments.t!.model;
    expect(model.matches[0]).toMatchObject({ matchId: 'F', status: 'done', winner: 't2', clock: { startedAt: START, minutes: 45, calledAt: at(45) } });
    expect(model.placings).toEqual([
      { place: 1, teamId: 't2' },
      { place: 2, teamId: 't1' },
    ]);
    expectRebuildEqualsLive(ledger);
    ledger.close();
  });

  it('tied at the end of the hand in progress: one more hand is played, and its leader wins', () => {
    const ledger = tempLedger();
    event(ledger, 'unc-intramural', 2);
    ledger.execute(
      startMatch(ledger.models, {
        tournamentId: 't',
        matchId: 'F',
        table: 1,
        at: START,
        draw: { method: 'high-card', rounds: [{ N: 'AS', E: 'KS', S: 'QS', W: 'JS' }] },
      }),
    );
    const gameId = 't-F-g1';
    dealAndBid(ledger, gameId, THREES);
    tricks(ledger, gameId, { N: 3, S: 3, E: 3, W: 4 }); // NS 60, EW 61
    dealAndBid(ledger, gameId, THREES);
    ledger.execute(callTime(ledger.models, { tournamentId: 't', matchId: 'F', at: at(50) }));
    tricks(ledger, gameId, { N: 4, S: 3, E: 3, W: 3 }); // NS 121, EW 121

    let game = ledger.models.games[gameId]!;
    expect(game.score).toEqual({ NS: 121, EW: 121 });
    expect(game.winner).toBeNull();
    expect(ledger.models.tournaments.t!.model.matches[0]!.status).toBe('live');

    dealAndBid(ledger, gameId, THREES);
    tricks(ledger, gameId, { N: 4, S: 3, E: 3, W: 3 }); // NS 182, EW 181
    game = ledger.models.games[gameId]!;
    expect([game.winner, game.reason, game.hands.length]).toEqual(['NS', 'time', 3]);
    expect(ledger.models.tournaments.t!.model.matches[0]).toMatchObject({ status: 'done', winner: 't1' });
    expectRebuildEqualsLive(ledger);
    ledger.close();
  });

  it('a best-of-3 match cut by the clock: the team ahead in the current game wins the match, though games stand 1–1', () => {
    const ledger = tempLedger();
    event(ledger, 'pitt-boss', 4);
    ledger.execute(
      startMatch(ledger.models, {
        tournamentId: 't',
        matchId: 'W1-1',
        table: 1,
        at: START,
        draw: { method: 'high-card', rounds: [{ N: 'AS', E: 'KS', S: 'QS', W: 'JS' }] },
      }),
    );
    const match = () => ledger.models.tournaments.t!.model.matches.find((m) => m.matchId === 'W1-1')!;
    expect(match().teams).toEqual(['t1', 't4']);

    // Game 1 to t1 (N–S): two made big bids of 10 at 200 each.
    const game1 = 't-W1-1-g1';
    for (let hand = 0; hand < 2; hand++) {
      dealAndBid(ledger, game1, { N: 5, S: 5, E: 2, W: 2 });
      tricks(ledger, game1, { N: 5, S: 5, E: 2, W: 1 });
    }
    expect([ledger.models.games[game1]!.winner, ledger.models.games[game1]!.reason]).toEqual(['NS', 'target']);
    expect(match()).toMatchObject({ status: 'live', gamesWon: [1, 0] });

    ledger.execute(startNextGame(ledger.models, { tournamentId: 't', matchId: 'W1-1', at: at(30) }));
    const game2 = 't-W1-1-g2';
    dealAndBid(ledger, game2, { N: 2, S: 2, E: 3, W: 3 });
    tricks(ledger, game2, { N: 2, S: 2, E: 4, W: 5 }); // NS 40, EW 63
    dealAndBid(ledger, game2, { N: 2, S: 2, E: 3, W: 3 });
    ledger.execute(callTime(ledger.models, { tournamentId: 't', matchId: 'W1-1', at: at(45) }));
    tricks(ledger, game2, { N: 2, S: 2, E: 4, W: 5 }); // NS 80, EW 126

    expect([ledger.models.games[game2]!.winner, ledger.models.games[game2]!.reason]).toEqual(['EW', 'time']);
    expect(match()).toMatchObject({ status: 'done', winner: 't4', gamesWon: [1, 1] });
    const third = refusal(() => startNextGame(ledger.models, { tournamentId: 't', matchId: 'W1-1', at: at(30) }));
    expect(third.message).toBe('match W1-1 is done, not live');
    // The bracket moves on: t4 to the winners' final, t1 to the losers bracket.
    const matches = ledger.models.tournaments.t!.model.matches;
    expect(matches.find((m) => m.matchId === 'F')!.teams).toContain('t4');
    expect(matches.find((m) => m.matchId === 'L1-1')!.teams).toContain('t1');
    expect(newsText(ledger.models.tournaments.t!.model.latest[0]!, ledger.models.tournaments.t!.model)).toBe('Team 4 beat Team 1 1–1');
    expectRebuildEqualsLive(ledger);
    ledger.close();
  });

  it('refuses a call on a match without a clock, or after its game is over', () => {
    const ledger = tempLedger();
    ledger.execute(createTournament(ledger.models, { tournamentId: 't', name: 'No clock', format: 'custom', options: { rules: 'blp-r1' } }));
    for (let i = 1; i <= 2; i++)
      ledger.execute(registerTeam(ledger.models, { tournamentId: 't', teamId: `t${i}`, name: `Team ${i}`, players: [`P${i}a`, `P${i}b`] }));
    ledger.execute(startTournament(ledger.models, { tournamentId: 't', order: ['t1', 't2'] }));
    ledger.execute(
      startMatch(ledger.models, {
        tournamentId: 't',
        matchId: 'F',
        table: 1,
        at: START,
        draw: { method: 'high-card', rounds: [{ N: 'AS', E: 'KS', S: 'QS', W: 'JS' }] },
      }),
    );
    const none = refusal(() => callTime(ledger.models, { tournamentId: 't', matchId: 'F', at: at(90) }));
    expect([none.status, none.message]).toEqual([409, 'match F has no clock: no time limit was set for it when it was seated']);
    expect(refusal(() => callTime(ledger.models, { tournamentId: 't', matchId: 'W9-9', at: at(90) })).status).toBe(404);
    ledger.close();
  });
});

/**
 * Setting an event up through the ledger: fees by the deadline, check-in, withdrawal before the
 * start (and its refusal after), the blp-2024 recorded bye draw, the first dealer's draw or toss,
 * custom events with their own options, and progressive registration.
 */
import { describe, expect, it } from 'vitest';
import { naturalRank, parseCard } from '../engine/cards.ts';
import type { Ledger } from '../events/store/sqlite/ledger.ts';
import { checkInTeam, createTournament, registerPlayer, registerTeam, startTournament, withdrawTeam } from '../server/commands/tournament-commands.ts';
import { startMatch, startRound } from '../server/commands/match-commands.ts';
import { disqualifyTeam } from '../server/commands/ruling-commands.ts';
import { driveToEnd, eventsOf, expectRebuildEqualsLive, refusal, tempLedger } from './tournament-ledger.ts';
import { newsText } from '../views/news.ts';

const AT = '2026-01-01T09:00:00.000Z';

function teams(ledger: Ledger, tournamentId: string, count: number): void {
  for (let i = 1; i <= count; i++)
    ledger.execute(registerTeam(ledger.models, { tournamentId, teamId: `t${i}`, name: `Team ${i}`, players: [`P${i}a`, `P${i}b`] }));
}

describe('registration', () => {
  it('blp-2024 charges $30 to teams registered by Sept 12th and $40 to late registrants', () => {
    const ledger = tempLedger();
    ledger.execute(createTournament(ledger.models, { tournamentId: 'b', name: 'BLP', format: 'blp-2024' }));
    const register = (teamId: string, registeredOn: string) =>
      registerTeam(ledger.models, { tournamentId: 'b', teamId, name: teamId, players: ['A', 'B'], registeredOn });
    ledger.execute(register('early', '2024-09-01'));
    ledger.execute(register('deadline', '2024-09-12T23:30:00.000Z'));
    ledger.execute(register('late', '2024-09-13'));
    expect(eventsOf(ledger, 'TeamRegistered').map((e) => [e.teamId, e.fee, e.registeredOn])).toEqual([
      ['early', 30, '2024-09-01'],
      ['deadline', 30, '2024-09-12'],
      ['late', 40, '2024-09-13'],
    ]);
    const bad = refusal(() => register('odd', 'Sept 12'));
    expect([bad.status, bad.message]).toEqual([400, "tournament b: team 'odd''s registration date must be a day such as 2024-09-12, not 'Sept 12'"]);
    ledger.close();
  });

  it('check-in: the start waits for everyone registered, a no-show withdraws, check-in closes at the start', () => {
    const ledger = tempLedger();
    ledger.execute(createTournament(ledger.models, { tournamentId: 'u', name: 'UNC', format: 'unc-intramural' }));
    teams(ledger, 'u', 5);
    for (const t of ['t1', 't2', 't3', 't4']) ledger.execute(checkInTeam(ledger.models, { tournamentId: 'u', teamId: t, at: AT }));
    expect(ledger.models.tournaments.u!.checkedIn).toEqual(['t1', 't2', 't3', 't4']);
    expect(refusal(() => checkInTeam(ledger.models, { tournamentId: 'u', teamId: 't1', at: AT })).message).toBe("tournament u: 'Team 1' is already checked in");
    expect(refusal(() => checkInTeam(ledger.models, { tournamentId: 'u', teamId: 't9', at: AT })).status).toBe(404);

    const waiting = refusal(() => startTournament(ledger.models, { tournamentId: 'u', seed: 's' }));
    expect([waiting.status, waiting.message]).toEqual([
      409,
      'tournament u: Team 5 has not checked in (4 of 5 checked in); check them in, or start without them and they are withdrawn',
    ]);

    ledger.execute(withdrawTeam(ledger.models, { tournamentId: 'u', teamId: 't5' }));
    expect(ledger.models.tournaments.u!.model.teams.find((t) => t.teamId === 't5')!.status).toBe('withdrawn');
    expect(refusal(() => withdrawTeam(ledger.models, { tournamentId: 'u', teamId: 't5' })).message).toBe("tournament u: 'Team 5' has already withdrawn");
    ledger.execute(startTournament(ledger.models, { tournamentId: 'u', seed: 's' }));
    const seeds = eventsOf(ledger, 'TournamentStarted')[0]!.seeds as string[];
    expect(seeds.sort()).toEqual(['t1', 't2', 't3', 't4']);
    expect(refusal(() => checkInTeam(ledger.models, { tournamentId: 'u', teamId: 't1', at: AT })).message).toBe('tournament u has started; check-in is closed');
    ledger.close();
  });

  it('withdrawal is for before the start; after it a team is disqualified or a no-show, and forfeits', () => {
    const ledger = tempLedger();
    ledger.execute(createTournament(ledger.models, { tournamentId: 'u', name: 'UNC', format: 'unc-intramural' }));
    teams(ledger, 'u', 4);
    // A disqualification before the start simply leaves the draw.
    ledger.execute(disqualifyTeam(ledger.models, { tournamentId: 'u', teamId: 't4', reason: 'profanity at registration' }));
    ledger.execute(startTournament(ledger.models, { tournamentId: 'u', order: ['t1', 't2', 't3'] }));
    const state = ledger.models.tournaments.u!;
    expect(state.model.teams.find((t) => t.teamId === 't4')!.status).toBe('disqualified');

    const late = refusal(() => withdrawTeam(ledger.models, { tournamentId: 'u', teamId: 't2' }));
    expect([late.status, late.message]).toEqual([
      409,
      "tournament u has started, so 'Team 2' can no longer withdraw; a director disqualifies it or records a no-show, and its remaining matches are forfeited",
    ]);
    // A no-show at its play time: its match is forfeited and the opponent moves on.
    const first = state.model.matches.find((m) => m.status === 'ready')!;
    const absent = first.teams[1]!;
    ledger.execute(disqualifyTeam(ledger.models, { tournamentId: 'u', teamId: absent, reason: 'not at table 1 at 10:00', kind: 'no-show' }));
    const after = ledger.models.tournaments.u!.model;
    expect(after.matches.find((m) => m.matchId === first.matchId)).toMatchObject({ status: 'forfeit', winner: first.teams[0] });
    expect(after.latest[0]).toEqual({ kind: 'team-out', teamId: absent, how: 'no-show', reason: 'not at table 1 at 10:00', position: expect.any(Number) });
    expect(newsText(after.latest[0]!, after)).toBe(`Team ${absent.slice(1)} is a no-show: not at table 1 at 10:00`);
    expect(eventsOf(ledger, 'TeamDisqualified').at(-1)).toEqual({ tournamentId: 'u', teamId: absent, reason: 'not at table 1 at 10:00', kind: 'no-show' });
    expect(refusal(() => disqualifyTeam(ledger.models, { tournamentId: 'u', teamId: 't1', reason: ' ' })).status).toBe(400);
    ledger.close();
  });
});

describe('the blp-2024 bye draw', () => {
  it('gives the bye to the highest card of the recorded draw, tied aces redrawing', () => {
    const ledger = tempLedger();
    ledger.execute(createTournament(ledger.models, { tournamentId: 'b', name: 'BLP', format: 'blp-2024' }));
    teams(ledger, 'b', 7);
    const order = ['t1', 't2', 't3', 't4', 't5', 't6', 't7'];
    const incomplete = refusal(() => startTournament(ledger.models, { tournamentId: 'b', order, byeDraw: [{ t1: 'AS', t2: 'KH' }] }));
    expect(incomplete.message).toBe("tournament b: bye draw: no card recorded for 't3', 't4', 't5', 't6', 't7'; the draw is incomplete");
    const tied = [{ t1: '4C', t2: 'AS', t3: 'KD', t4: 'AH', t5: '10C', t6: '2S', t7: 'QH' }];
    expect(refusal(() => startTournament(ledger.models, { tournamentId: 'b', order, byeDraw: tied })).message).toBe(
      "tournament b: bye draw: 't2', 't4' are still tied for the highest card; they redraw (record another round)",
    );

    const draw = [...tied, { t2: '3C', t4: '9S' }];
    ledger.execute(startTournament(ledger.models, { tournamentId: 'b', order, byeDraw: draw }));
    expect(eventsOf(ledger, 'TournamentStarted')[0]!.byeDraw).toEqual(draw);
    const state = ledger.models.tournaments.b!;
    expect(state.byeDraw).toEqual({ team: 't4', card: '9S', rounds: 2 });
    const byes = state.model.matches.filter((m) => m.status === 'bye');
    expect(byes.map((m) => m.winner)).toEqual(['t4']);
    // Only that one team sits out: the seeds stand as given and the six others play round 1,
    // top seed v bottom seed; nothing is padded to a power of two.
    expect(state.model.teams.find((t) => t.teamId === 't4')!.seed).toBe(4);
    expect(state.model.matches.map((m) => [m.matchId, ...m.teams])).toEqual([
      ['W1-1', 't1', 't7'],
      ['W1-2', 't2', 't6'],
      ['W1-3', 't3', 't5'],
      ['W1-4', 't4', null],
    ]);
    expectRebuildEqualsLive(ledger);
    ledger.close();
  });

  it('draws from the recorded seed when no cards are given, and the highest card still gets the bye', () => {
    const ledger = tempLedger();
    ledger.execute(createTournament(ledger.models, { tournamentId: 'b', name: 'BLP', format: 'blp-2024' }));
    teams(ledger, 'b', 7);
    ledger.execute(startTournament(ledger.models, { tournamentId: 'b', seed: 'draw-night' }));
    const rounds = eventsOf(ledger, 'TournamentStarted')[0]!.byeDraw as Record<string, string>[];
    const last = rounds.at(-1)!;
    const best = Math.max(...Object.values(last).map((c) => naturalRank(parseCard(c)!)));
    const winners = Object.keys(last).filter((t) => naturalRank(parseCard(last[t]!)!) === best);
    expect(winners).toHaveLength(1);
    expect(ledger.models.tournaments.b!.model.matches.filter((m) => m.status === 'bye').map((m) => m.winner)).toEqual(winners);
    ledger.close();
  });

  it('is refused for an even field, where no bye is drawn', () => {
    const ledger = tempLedger();
    ledger.execute(createTournament(ledger.models, { tournamentId: 'b', name: 'BLP', format: 'blp-2024' }));
    teams(ledger, 'b', 8);
    const even = refusal(() => startTournament(ledger.models, { tournamentId: 'b', seed: 's', byeDraw: [{ t1: 'AS' }] }));
    expect(even.message).toBe('tournament b: a bye draw is made only in a format that draws for the bye with an odd number of teams');
    ledger.close();
  });
});

describe('the first dealer', () => {
  it('is the highest card of the draw at the table (blp-2024 "The first dealer is chosen by a draw for high card")', () => {
    const ledger = tempLedger();
    ledger.execute(createTournament(ledger.models, { tournamentId: 'b', name: 'BLP', format: 'blp-2024' }));
    teams(ledger, 'b', 2);
    ledger.execute(startTournament(ledger.models, { tournamentId: 'b', order: ['t1', 't2'] }));
    const toss = refusal(() =>
      startMatch(ledger.models, {
        tournamentId: 'b',
        matchId: 'W1-1',
        table: 1,
        at: AT,
        draw: { method: 'coin-toss', caller: 't1', call: 'heads', toss: 'tails', choice: 'N' },
      }),
    );
    expect(toss.message).toBe('match W1-1: the first dealer is chosen by a draw for high card in this event, not by a coin toss');
    const draw = {
      method: 'high-card' as const,
      rounds: [
        { N: 'QS', E: 'QD', S: '4H', W: '9C' },
        { N: '2C', E: 'JH' },
      ],
    };
    ledger.execute(startMatch(ledger.models, { tournamentId: 'b', matchId: 'W1-1', table: 1, at: AT, draw }));
    expect(eventsOf(ledger, 'MatchStarted')[0]!.firstDealer).toEqual({ ...draw, dealer: 'E' });
    expect(eventsOf(ledger, 'GameStarted')[0]!.dealer).toBe('E');
    ledger.close();
  });

  it('asher: the lower seed calls the toss and its winner chooses the dealer', () => {
    const ledger = tempLedger();
    ledger.execute(createTournament(ledger.models, { tournamentId: 'a', name: 'Asher', format: 'asher-theatre' }));
    teams(ledger, 'a', 2);
    ledger.execute(startTournament(ledger.models, { tournamentId: 'a', order: ['t2', 't1'] }));
    const wrong = refusal(() =>
      startMatch(ledger.models, {
        tournamentId: 'a',
        matchId: 'F',
        table: 1,
        at: AT,
        draw: { method: 'coin-toss', caller: 't1', call: 'heads', toss: 'heads', choice: 'W' },
      }),
    );
    expect(wrong.message).toBe("match F: coin toss: 't2' has the lower seed number (1), so it calls the toss, not 't1'");
    ledger.execute(
      startMatch(ledger.models, {
        tournamentId: 'a',
        matchId: 'F',
        table: 1,
        at: AT,
        draw: { method: 'coin-toss', caller: 't2', call: 'heads', toss: 'tails', choice: 'W' },
      }),
    );
    expect(eventsOf(ledger, 'MatchStarted')[0]!.firstDealer).toMatchObject({ winner: 't1', dealer: 'W' });
    expect(eventsOf(ledger, 'GameStarted')[0]!.dealer).toBe('W');
    ledger.close();
  });
});

describe('a custom event', () => {
  it('refuses options that do not make sense, naming them', () => {
    const ledger = tempLedger();
    const create = (options: Record<string, unknown>) => () =>
      createTournament(ledger.models, { tournamentId: 'c', name: 'Custom', format: 'custom', options });
    expect(refusal(create({ elimination: 'single', reset: true })).message).toBe(
      'tournament c: a reset final exists only in double elimination, not in single elimination',
    );
    expect(refusal(create({ gamesToWin: 0 })).message).toBe('tournament c: games to win a match must be 1 to 4 (1 = one game, 2 = best of 3), not 0');
    expect(refusal(create({ clockMinutes: 0 })).message).toBe('tournament c: the clock must be whole minutes from 1 to 600, or none, not 0');
    expect(refusal(create({ fees: { early: 10, late: 20, deadline: 'soon' } })).message).toBe(
      "tournament c: the fee deadline must be a date such as 2024-09-12, not 'soon'",
    );
    expect(refusal(create({ elimination: 'progressive', rules: 'tournament-spades' })).message).toBe(
      'tournament c: a progressive event needs a number of rounds of 1 or more, not null',
    );
    expect(refusal(create({ rules: 'no-such-preset' })).status).toBe(400);
  });

  it('runs with its own options: double elimination with a reset, best of 3, its own preset per round, clock and prizes', async () => {
    const ledger = tempLedger();
    ledger.execute(
      createTournament(ledger.models, {
        tournamentId: 'c',
        name: 'Club championship',
        format: 'custom',
        options: {
          elimination: 'double',
          reset: true,
          gamesToWin: 2,
          clockMinutes: 40,
          rules: 'blp-r2',
          firstRoundRules: 'blp-r1',
          finalRules: 'blp-final',
          prizes: ['Cup', 'Plate'],
        },
      }),
    );
    teams(ledger, 'c', 5);
    ledger.execute(startTournament(ledger.models, { tournamentId: 'c', seed: 'club' }));
    await driveToEnd(ledger, 'c', 'club');
    const state = ledger.models.tournaments.c!;
    expect(state.model.status).toBe('finished');
    for (const game of eventsOf(ledger, 'GameStarted')) {
      const expected = game.matchId.startsWith('GF') ? 'blp-final' : game.matchId.startsWith('W1-') ? 'blp-r1' : 'blp-r2';
      expect(game.rules, game.matchId).toBe(expected);
    }
    expect(eventsOf(ledger, 'ClockStarted').every((c) => c.minutes === 40)).toBe(true);
    for (const match of state.model.matches.filter((m) => m.status === 'done')) expect(Math.max(...match.gamesWon)).toBe(2);
    const first = state.model.placings.find((p) => p.place === 1)!.teamId;
    const second = state.model.placings.find((p) => p.place === 2)!.teamId;
    expect(state.prizes).toEqual([
      { place: 1, prize: 'Cup', teams: [first] },
      { place: 2, prize: 'Plate', teams: [second] },
    ]);
    expectRebuildEqualsLive(ledger);
    ledger.close();
  });
});

describe('progressive registration', () => {
  it('takes individual players, refuses teams, needs tables of four, and seats one round at a time', () => {
    const ledger = tempLedger();
    ledger.execute(createTournament(ledger.models, { tournamentId: 'p', name: 'Progressive', format: 'tournament-spades' }));
    expect(refusal(() => registerTeam(ledger.models, { tournamentId: 'p', teamId: 't1', name: 'T', players: ['a', 'b'] })).message).toBe(
      'tournament p plays progressive tables, where partners change every round; register individual players',
    );
    for (let i = 1; i <= 10; i++) ledger.execute(registerPlayer(ledger.models, { tournamentId: 'p', playerId: `p${i}`, name: `Player ${i}` }));
    expect(refusal(() => startRound(ledger.models, { tournamentId: 'p', seed: 's' })).message).toBe(
      'tournament p has not started; start it to seat the first round',
    );
    for (const gone of ['p10', 'p9', 'p8']) ledger.execute(withdrawTeam(ledger.models, { tournamentId: 'p', teamId: gone }));
    expect(refusal(() => startTournament(ledger.models, { tournamentId: 'p', seed: 's' })).message).toBe(
      'tournament p: progressive tables: 7 players; it takes at least 8, two tables of four ("Two or more tables being played")',
    );
    ledger.execute(registerPlayer(ledger.models, { tournamentId: 'p', playerId: 'p11', name: 'Player 11' }));
    ledger.execute(startTournament(ledger.models, { tournamentId: 'p', seed: 's' }));
    ledger.execute(startRound(ledger.models, { tournamentId: 'p', seed: 's' }));
    expect(refusal(() => startRound(ledger.models, { tournamentId: 'p', seed: 's' })).message).toBe(
      'tournament p: round 1 is still being played at tables 1, 2',
    );
    expect(refusal(() => disqualifyTeam(ledger.models, { tournamentId: 'p', teamId: 'p1', reason: 'left' })).status).toBe(409);

    const bracket = tempLedger();
    bracket.execute(createTournament(bracket.models, { tournamentId: 'b', name: 'Teams', format: 'pitt-boss' }));
    expect(refusal(() => registerPlayer(bracket.models, { tournamentId: 'b', playerId: 'x', name: 'X' })).message).toBe(
      'tournament b is played by teams of two; register a team',
    );
    bracket.close();
    ledger.close();
  });
});

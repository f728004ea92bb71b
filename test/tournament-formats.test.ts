/**
 * Each of the five rulebook events run end to end through the ledger with bots at the tables:
 * registration, check-in, the start, every match or round, the champion, placings and prizes,
 * with the right rules preset in each round (rules.md, "Tournament formats").
 */
import { describe, expect, it } from 'vitest';
import { SEATS, type Seat } from '../engine/cards.ts';
import { nextDealer } from '../engine/game.ts';
import { playProgressive, progressiveTotals, type TableResult } from '../engine/progressive.ts';
import { resolveRules } from '../engine/rules.ts';
import type { Ledger } from '../events/store/sqlite/ledger.ts';
import { checkInTeam, createTournament, registerPlayer, registerTeam, startTournament } from '../server/commands/tournament-commands.ts';
import { driveToEnd, eventsOf, expectRebuildEqualsLive, tempLedger } from './tournament-ledger.ts';

type GameStarted = { gameId: string; matchId: string; rules: string; dealer: Seat; number: number; teams: { NS: string; EW: string } };

function setUpTeams(
  ledger: Ledger,
  tournamentId: string,
  format: 'blp-2024' | 'unc-intramural' | 'pitt-boss' | 'asher-theatre',
  teams: number,
  registeredOn?: (i: number) => string,
) {
  ledger.execute(createTournament(ledger.models, { tournamentId, name: `${format} open`, format }));
  for (let i = 1; i <= teams; i++) {
    ledger.execute(
      registerTeam(ledger.models, {
        tournamentId,
        teamId: `team${i}`,
        name: `Team ${i}`,
        players: [`P${i}a`, `P${i}b`],
        ...(registeredOn ? { registeredOn: registeredOn(i) } : {}),
      }),
    );
    ledger.execute(checkInTeam(ledger.models, { tournamentId, teamId: `team${i}`, at: '2026-01-01T09:00:00.000Z' }));
  }
}

/** The preset each match's games were started with, by match id. */
function rulesByMatch(ledger: Ledger): Map<string, Set<string>> {
  const byMatch = new Map<string, Set<string>>();
  for (const game of eventsOf<GameStarted>(ledger, 'GameStarted')) {
    byMatch.set(game.matchId, (byMatch.get(game.matchId) ?? new Set()).add(game.rules));
  }
  return byMatch;
}

describe('the five rulebook events through the ledger', () => {
  it('blp-2024: fees by the deadline, the recorded bye draw, blp-r1 in round 1, blp-r2 after, blp-final in the final, out after two losses', async () => {
    const ledger = tempLedger();
    setUpTeams(ledger, 'blp', 'blp-2024', 7, (i) => (i <= 4 ? '2024-09-12' : '2024-09-13'));
    const state = () => ledger.models.tournaments.blp!;
    expect(eventsOf<{ fee: number }>(ledger, 'TeamRegistered').map((e) => e.fee)).toEqual([30, 30, 30, 30, 40, 40, 40]);

    ledger.execute(startTournament(ledger.models, { tournamentId: 'blp', seed: 'blp-2024' }));
    const started = eventsOf<{ seeds: string[]; byeDraw: Record<string, string>[] }>(ledger, 'TournamentStarted')[0]!;
    expect(started.byeDraw.length).toBeGreaterThan(0);
    expect(Object.keys(started.byeDraw[0]!).sort()).toEqual(started.seeds.slice().sort());
    const byeTeam = state().byeDraw!.team;
    expect(state().model.matches.find((m) => m.status === 'bye')?.winner).toBe(byeTeam);

    await driveToEnd(ledger, 'blp', 'blp-2024');
    const model = state().model;
    expect(model.status).toBe('finished');
    for (const [matchId, rules] of rulesByMatch(ledger)) {
      const expected = matchId === 'F' ? 'blp-final' : matchId.startsWith('W1-') ? 'blp-r1' : 'blp-r2';
      expect([...rules], matchId).toEqual([expected]);
    }
    // One final, no bracket reset; drawn round by round, 2n-2 matches for 7 teams.
    expect(rulesByMatch(ledger).has('F')).toBe(true);
    expect(model.matches.filter((m) => m.side === 'final').map((m) => m.matchId)).toEqual(['F']);
    expect(model.matches.filter((m) => m.status !== 'bye')).toHaveLength(12);
    // "a team is out after its 2nd loss": the champion has lost at most once, everyone else twice,
    // except that the final is one game with no reset: a runner-up that came to it unbeaten
    // (the champion coming from the losers' bracket) is out after that one loss.
    const champion = model.teams.find((t) => t.teamId === model.placings.find((p) => p.place === 1)!.teamId)!;
    const runnerUp = model.placings.find((p) => p.place === 2)!.teamId;
    expect(champion.losses).toBeLessThanOrEqual(1);
    for (const team of model.teams) {
      if (team === champion) continue;
      expect(team.losses, team.teamId).toBe(team.teamId === runnerUp && champion.losses === 1 ? 1 : 2);
    }
    expect(model.placings.map((p) => p.place).slice(0, 3)).toEqual([1, 2, 3]);
    expectRebuildEqualsLive(ledger);
    ledger.close();
  });

  it('unc-intramural: unc-300 with a 30-minute clock, the championship unc-500 with 45; matches cut by the clock go to the team ahead', async () => {
    const ledger = tempLedger();
    setUpTeams(ledger, 'unc', 'unc-intramural', 6);
    ledger.execute(startTournament(ledger.models, { tournamentId: 'unc', seed: 'unc' }));
    // Six seconds a table entry: a long game to 300 runs past its 30 minutes and the director calls time.
    await driveToEnd(ledger, 'unc', 'unc', 6 / 60);
    const state = ledger.models.tournaments.unc!;
    expect(state.model.status).toBe('finished');
    for (const [matchId, rules] of rulesByMatch(ledger)) expect([...rules], matchId).toEqual([matchId === 'F' ? 'unc-500' : 'unc-300']);
    for (const clock of eventsOf<{ matchId: string; minutes: number }>(ledger, 'ClockStarted')) {
      expect(clock.minutes, clock.matchId).toBe(clock.matchId === 'F' ? 45 : 30);
    }
    const calls = eventsOf<{ matchId: string; gameId: string }>(ledger, 'TimeCalled');
    expect(calls.some((call) => ledger.models.games[call.gameId]!.reason === 'time')).toBe(true);
    for (const call of calls) {
      const game = ledger.models.games[call.gameId]!;
      const match = state.model.matches.find((m) => m.matchId === call.matchId)!;
      // Either the game was already heading to its target on the last hand, or it ended on time.
      if (game.reason === 'time') expect(match.winner).toBe(game.teams[game.winner!]);
      expect(match.status).toBe('done');
    }
    expect(state.model.placings[0]!.place).toBe(1);
    expect(state.model.teams.filter((t) => t.status === 'champion')).toHaveLength(1);
    expectRebuildEqualsLive(ledger);
    ledger.close();
  });

  it('pitt-boss: 16 teams, best 2 of 3 to 350, first-round losers play for 3rd, prizes $300 + trophies / $100 / $50', async () => {
    const ledger = tempLedger();
    setUpTeams(ledger, 'pitt', 'pitt-boss', 16);
    ledger.execute(startTournament(ledger.models, { tournamentId: 'pitt', seed: 'pitt' }));
    await driveToEnd(ledger, 'pitt', 'pitt');
    const state = ledger.models.tournaments.pitt!;
    expect(state.model.status).toBe('finished');
    for (const [matchId, rules] of rulesByMatch(ledger)) expect([...rules], matchId).toEqual(['pitt-boss']);
    for (const match of state.model.matches) {
      // No clock ran out, so every match went to the first team to win two games.
      expect(Math.max(...match.gamesWon), match.matchId).toBe(2);
      expect(match.games.length).toBeLessThanOrEqual(3);
    }
    const place = (n: number) => state.model.placings.filter((p) => p.place === n).map((p) => p.teamId);
    expect(state.prizes).toEqual([
      { place: 1, prize: '$300 + trophies', teams: place(1) },
      { place: 2, prize: '$100', teams: place(2) },
      { place: 3, prize: '$50', teams: place(3) },
    ]);
    // 3rd place is a first-round loser: only they enter the losers bracket.
    const firstRoundLosers = state.model.matches.filter((m) => m.side === 'winners' && m.round === 1).map((m) => m.teams.find((t) => t !== m.winner));
    expect(firstRoundLosers).toContain(place(3)[0]);
    expectRebuildEqualsLive(ledger);
    ledger.close();
  });

  it('asher-theatre: seeded single elimination, best 2 of 3 to 350 with a 1-hour clock, the lower seed calls the toss, the deal carries across games', async () => {
    const ledger = tempLedger();
    setUpTeams(ledger, 'asher', 'asher-theatre', 16);
    const order = Array.from({ length: 16 }, (_, i) => `team${16 - i}`);
    ledger.execute(startTournament(ledger.models, { tournamentId: 'asher', order }));
    await driveToEnd(ledger, 'asher', 'asher');
    const state = ledger.models.tournaments.asher!;
    expect(state.model.status).toBe('finished');
    expect(state.model.teams.find((t) => t.teamId === 'team16')!.seed).toBe(1);
    for (const [matchId, rules] of rulesByMatch(ledger)) expect([...rules], matchId).toEqual(['asher']);
    expect(eventsOf<{ minutes: number }>(ledger, 'ClockStarted').every((c) => c.minutes === 60)).toBe(true);

    const games = eventsOf<GameStarted>(ledger, 'GameStarted');
    for (const started of eventsOf<{ matchId: string; teams: string[]; firstDealer: Record<string, string> }>(ledger, 'MatchStarted')) {
      const seeds = started.teams.map((t) => state.model.teams.find((row) => row.teamId === t)!.seed!);
      expect(started.firstDealer.method).toBe('coin-toss');
      expect(started.firstDealer.caller).toBe(started.teams[seeds[0]! < seeds[1]! ? 0 : 1]);
      const first = games.find((g) => g.matchId === started.matchId && g.number === 1)!;
      expect(first.dealer).toBe(started.firstDealer.choice);
    }
    // "The deal will keep this rotation throughout the entire challenge."
    const options = resolveRules('asher').options;
    let carried = 0;
    for (const game of games.filter((g) => g.number > 1)) {
      const before = ledger.models.games[games.find((g) => g.matchId === game.matchId && g.number === game.number - 1)!.gameId]!;
      const lastRow = before.rows[before.rows.length - 1]!;
      expect(game.dealer, game.gameId).toBe(nextDealer(options, lastRow.dealer, lastRow.misdeal ?? null));
      carried++;
    }
    expect(carried).toBeGreaterThan(0);
    expect(state.model.placings.slice(0, 2).map((p) => p.place)).toEqual([1, 2]);
    expectRebuildEqualsLive(ledger);
    ledger.close();
  });

  it('tournament-spades: 16 players at 4 progressive tables, 4 rounds of 4 hands, winners up and split, individual totals, high player / male / female', async () => {
    const ledger = tempLedger();
    ledger.execute(createTournament(ledger.models, { tournamentId: 'prog', name: 'Progressive night', format: 'tournament-spades' }));
    for (let i = 1; i <= 16; i++) {
      ledger.execute(registerPlayer(ledger.models, { tournamentId: 'prog', playerId: `p${i}`, name: `Player ${i}`, gender: i % 2 === 0 ? 'female' : 'male' }));
    }
    ledger.execute(startTournament(ledger.models, { tournamentId: 'prog', seed: 'prog' }));
    await driveToEnd(ledger, 'prog', 'prog');
    const state = ledger.models.tournaments.prog!;
    const progressive = state.progressive!;
    expect(state.model.status).toBe('finished');
    expect(progressive.rounds).toHaveLength(4);

    const games = eventsOf<GameStarted>(ledger, 'GameStarted');
    expect(games).toHaveLength(16);
    for (const started of games) {
      expect(started.rules).toBe('tournament-spades');
      const game = ledger.models.games[started.gameId]!;
      // "Four hands are played in each round"; a tie plays on.
      expect(game.hands.length).toBeGreaterThanOrEqual(4);
      if (game.hands.length > 4) expect(game.reason).toBe('hands');
    }
    // The seating and the totals are what the engine makes of the recorded results.
    const seeds = eventsOf<{ seeds: string[] }>(ledger, 'TournamentStarted')[0]!.seeds;
    const results: TableResult[][] = progressive.rounds.map((r) => r.results!);
    const replayed = playProgressive(seeds, results);
    expect(progressive.rounds.map((r) => r.seating)).toEqual(replayed.rounds.map((r) => r.seating));
    expect(eventsOf<{ seating: unknown }>(ledger, 'ProgressiveRoundStarted').map((e) => e.seating)).toEqual(replayed.rounds.map((r) => r.seating));
    const totals = progressiveTotals(replayed.rounds);
    for (const player of progressive.players) expect(player.total, player.playerId).toBe(totals[player.playerId]);
    for (const round of progressive.rounds) {
      for (const result of round.results!) {
        const game = ledger.models.games[round.games[String(result.table)]!]!;
        expect(result.scores).toEqual(game.score);
        for (const seat of SEATS) expect(game.seats[seat]).toBe(`Player ${round.seating[result.table - 1]!.seats[seat].slice(1)}`);
      }
    }

    const best = Math.max(...Object.values(totals));
    const highest = (ids: string[]) => {
      const top = Math.max(...ids.map((id) => totals[id]!));
      return ids.filter((id) => totals[id] === top);
    };
    const all = Object.keys(totals);
    expect(progressive.prizes!.highPlayer.sort()).toEqual(all.filter((id) => totals[id] === best).sort());
    expect(progressive.prizes!.highMale.sort()).toEqual(highest(all.filter((id) => Number(id.slice(1)) % 2 === 1)).sort());
    expect(progressive.prizes!.highFemale.sort()).toEqual(highest(all.filter((id) => Number(id.slice(1)) % 2 === 0)).sort());
    expect(state.prizes.map((p) => p.prize)).toEqual(['High player', 'High male', 'High female']);
    // Final placings: best total first, equal totals share a place.
    const placings = state.model.placings;
    expect(placings).toHaveLength(16);
    for (let i = 1; i < placings.length; i++) {
      const [a, b] = [placings[i - 1]!, placings[i]!];
      expect(totals[a.teamId]!).toBeGreaterThanOrEqual(totals[b.teamId]!);
      expect(b.place).toBe(totals[a.teamId] === totals[b.teamId] ? a.place : i + 1);
    }
    expect(
      state.model.teams
        .filter((t) => t.status === 'champion')
        .map((t) => t.teamId)
        .sort(),
    ).toEqual(progressive.prizes!.highPlayer.sort());
    expectRebuildEqualsLive(ledger);
    ledger.close();
  });
});

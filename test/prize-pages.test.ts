/**
 * What the room reads when an event is over: the prizes on the tournament's page, and for
 * progressive tables the individual running totals instead of team standings.
 */
import { describe, expect, it } from 'vitest';
import { createApp } from '../server/app/app.ts';
import { createTournament, registerPlayer, registerTeam, startTournament } from '../server/commands/tournament-commands.ts';
import { driveToEnd, tempLedger } from './tournament-ledger.ts';

describe('prizes and individual totals on the pages', () => {
  it('pitt-boss: the home page lists $300 + trophies, $100 and $50 with the teams that won them', async () => {
    const ledger = tempLedger();
    ledger.execute(createTournament(ledger.models, { tournamentId: 'pb', name: 'Pitt Boss', format: 'pitt-boss' }));
    for (let i = 1; i <= 16; i++) ledger.execute(registerTeam(ledger.models, { tournamentId: 'pb', teamId: `t${i}`, name: `Team ${i}`, players: ['A', 'B'] }));
    ledger.execute(startTournament(ledger.models, { tournamentId: 'pb', seed: 'prizes' }));
    await driveToEnd(ledger, 'pb', 'prizes');
    const model = ledger.models.tournaments.pb!.model;
    const name = (place: number) => model.teams.find((t) => t.teamId === model.placings.find((p) => p.place === place)!.teamId)!.name;
    const { app, broadcaster } = createApp({ ledger });
    const html = await (await app.request('/tournaments/pb')).text();
    expect(html).toContain(`<strong>$300 + trophies</strong>: ${name(1)}`);
    expect(html).toContain(`<strong>$100</strong>: ${name(2)}`);
    expect(html).toContain(`<strong>$50</strong>: ${name(3)}`);
    broadcaster.close();
    ledger.close();
  });

  it("tournament-spades: the leaderboard shows each player's total, highest first, and the home page the high player", async () => {
    const ledger = tempLedger();
    ledger.execute(createTournament(ledger.models, { tournamentId: 'prog', name: 'Progressive night', format: 'tournament-spades' }));
    for (let i = 1; i <= 8; i++) {
      ledger.execute(registerPlayer(ledger.models, { tournamentId: 'prog', playerId: `p${i}`, name: `Player ${i}`, gender: i % 2 ? 'male' : 'female' }));
    }
    ledger.execute(startTournament(ledger.models, { tournamentId: 'prog', seed: 'prog' }));
    await driveToEnd(ledger, 'prog', 'prog');
    const players = ledger.models.tournaments.prog!.progressive!.players;
    const { app, broadcaster } = createApp({ ledger });
    const board = await (await app.request('/tournaments/prog/leaderboard')).text();
    expect(board).toContain('Individual totals');
    expect(board).toContain('>Player<');
    const order = [...board.matchAll(/data-team="(p\d+)"/g)].map((m) => m[1]);
    const byTotal = [...players].sort((a, b) => b.total - a.total).map((p) => p.total);
    expect(order.map((id) => players.find((p) => p.playerId === id)!.total)).toEqual(byTotal);
    const best = Math.max(...players.map((p) => p.total));
    const home = await (await app.request('/tournaments/prog')).text();
    const high = players.filter((p) => p.total === best).map((p) => p.name);
    expect(home).toContain(`<strong>High player</strong>: ${high.join(', ')}`);
    broadcaster.close();
    ledger.close();
  });
});

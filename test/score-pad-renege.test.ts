/**
 * The score pad after a renege ruling shows the tricks that count, not only those taken: under
 * Pitt Boss an upheld claim gives 3 of the reneging team's tricks to the other team, and the pad
 * says so beside what each team took.
 */
import { describe, expect, it } from 'vitest';
import type { Seat } from '../engine/cards.ts';
import { nextBidder } from '../events/game-projection.ts';
import { claimRenege, dealHand, giveRuling, makeBid, recordTricks } from '../server/commands/game-commands.ts';
import { startMatch } from '../server/commands/match-commands.ts';
import { createTournament, registerTeam, startTournament } from '../server/commands/tournament-commands.ts';
import { TableView } from '../views/table.tsx';
import { expectRebuildEqualsLive, tempLedger } from './tournament-ledger.ts';

describe('the score pad after a renege ruling', () => {
  it('shows the tricks that count after the ruling, and those taken', () => {
    const ledger = tempLedger();
    const m = ledger.models;
    ledger.execute(createTournament(m, { tournamentId: 't', name: 'Night', format: 'pitt-boss' }));
    ['Deuces', 'Treys', 'Fours', 'Fives'].forEach((name, i) =>
      ledger.execute(registerTeam(m, { tournamentId: 't', teamId: `team-${i + 1}`, name, players: [`${name} A`, `${name} B`] })),
    );
    ledger.execute(startTournament(m, { tournamentId: 't', order: ['team-1', 'team-2', 'team-3', 'team-4'] }));
    const matchId = m.tournaments.t!.model.matches.find((x) => x.status === 'ready')!.matchId;
    const draw = { method: 'high-card' as const, rounds: [{ N: 'AS', E: 'KS', S: 'QS', W: 'JS' }] };
    for (const d of startMatch(m, { tournamentId: 't', matchId, table: 1, at: '2026-01-01T10:00:00.000Z', draw })) ledger.execute(d);
    const gameId = m.tournaments.t!.model.matches.find((x) => x.matchId === matchId)!.games.at(-1)!;
    ledger.execute(dealHand(m, { gameId, seed: 'pad' }));
    for (let i = 0; i < 4; i++) {
      const seat = nextBidder(m.games[gameId]!) as Seat;
      ledger.execute(makeBid(m, { gameId, seat, bid: 3 }));
    }
    ledger.execute(recordTricks(m, { gameId, tricks: { N: 4, S: 3, E: 3, W: 3 } }));
    const pad = () => String(TableView({ game: m.games[gameId]!, teamNames: {} }));
    const cells = (html: string) => [...html.matchAll(/<td class="num">([^<]*)<\/td>/g)].map((x) => x[1]);
    expect(cells(pad())).toContain('7');
    expect(pad()).not.toContain('(took ');
    ledger.execute(claimRenege(m, { gameId, claimId: 'c1', hand: 1, seat: 'N', trick: 2 }));
    ledger.execute(giveRuling(m, { gameId, claimId: 'c1', upheld: true, note: 'N had a heart', judge: 'Jo' }));
    const row = m.games[gameId]!.rows[0]!;
    expect([row.outcome!.NS.counted, row.outcome!.EW.counted]).toEqual([4, 9]);
    expect(cells(pad())).toEqual(expect.arrayContaining(['4 (took 7)', '9 (took 6)']));
    expectRebuildEqualsLive(ledger);
    ledger.close();
  });
});

/**
 * Pitt Boss as written: "Any team down 100+ points can place a (minimum 6) blind bid. The team
 * must declare this bid before the cards are dealt." A blind bid comes with the deal, from the
 * team far enough behind, and no blind bid is open once the cards are out; under rules that
 * let a blind bid be made in turn (Asher's), it still is.
 */
import { describe, expect, it } from 'vitest';
import { bidValue } from '../engine/bid.ts';
import { blindDeclarable } from '../engine/blind-declaration.ts';
import type { Seat } from '../engine/cards.ts';
import { PRESETS } from '../engine/presets.ts';
import { nextBidder } from '../events/game-projection.ts';
import { handReplay } from '../events/hand-replay.ts';
import type { Ledger } from '../events/store/sqlite/ledger.ts';
import { bidsOpenTo, dealHand, makeBid, recordTricks } from '../server/commands/game-commands.ts';
import { startMatch } from '../server/commands/match-commands.ts';
import { createTournament, registerTeam, startTournament } from '../server/commands/tournament-commands.ts';
import { entryGame } from '../server/entry/entry-game.ts';
import { EntryPanel } from '../views/entry-table.tsx';
import { eventsOf, expectRebuildEqualsLive, refusal, tempLedger } from './tournament-ledger.ts';

/** A four-team event's first game, seated with North dealing first. */
function firstGame(ledger: Ledger, format: 'pitt-boss' | 'asher-theatre'): string {
  const m = ledger.models;
  ledger.execute(createTournament(m, { tournamentId: 't', name: 'Night', format }));
  ['Deuces', 'Treys', 'Fours', 'Fives'].forEach((name, i) =>
    ledger.execute(registerTeam(m, { tournamentId: 't', teamId: `team-${i + 1}`, name, players: [`${name} A`, `${name} B`] })),
  );
  ledger.execute(startTournament(m, { tournamentId: 't', order: ['team-1', 'team-2', 'team-3', 'team-4'] }));
  const matchId = m.tournaments.t!.model.matches.find((x) => x.status === 'ready')!.matchId;
  const draw =
    format === 'asher-theatre'
      ? { method: 'coin-toss' as const, caller: 'team-1', call: 'heads' as const, toss: 'heads' as const, choice: 'W' as const }
      : { method: 'high-card' as const, rounds: [{ N: 'AS', E: 'KS', S: 'QS', W: 'JS' }] };
  for (const d of startMatch(m, { tournamentId: 't', matchId, table: 1, at: '2026-01-01T10:00:00.000Z', draw })) ledger.execute(d);
  const match = m.tournaments.t!.model.matches.find((x) => x.matchId === matchId)!;
  return match.games.at(-1)!;
}

/** One hand in which North–South bid 10 and take nothing: set, they fall 100 or more behind. */
function setNorthSouth(ledger: Ledger, gameId: string): void {
  ledger.execute(dealHand(ledger.models, { gameId, seed: 'hand-1' }));
  for (let i = 0; i < 4; i++) {
    const seat = nextBidder(ledger.models.games[gameId]!) as Seat;
    ledger.execute(makeBid(ledger.models, { gameId, seat, bid: seat === 'N' || seat === 'S' ? 5 : 2 }));
  }
  ledger.execute(recordTricks(ledger.models, { gameId, tricks: { N: 0, S: 0, E: 7, W: 6 } }));
  const { NS, EW } = ledger.models.games[gameId]!.score;
  expect(EW - NS).toBeGreaterThanOrEqual(100);
}

describe('a Pitt Boss blind bid is declared before the cards are dealt', () => {
  it('is the rulebook’s, and only a team 100 or more behind may declare one, for at least 6', () => {
    expect(PRESETS['pitt-boss'].blindBidDeclared).toBe('before-deal');
    expect(PRESETS.asher.blindBidDeclared).toBe('in-turn');
    expect(blindDeclarable(PRESETS['pitt-boss'], { NS: 0, EW: 100 })).toEqual([{ team: 'NS', minimum: 6 }]);
    expect(blindDeclarable(PRESETS['pitt-boss'], { NS: 0, EW: 99 })).toEqual([]);
    expect(blindDeclarable(PRESETS.asher, { NS: 0, EW: 300 })).toEqual([]);
  });

  it('offers no blind bid once the cards are dealt, even to the team behind, and refuses one in words', () => {
    const ledger = tempLedger();
    const gameId = firstGame(ledger, 'pitt-boss');
    setNorthSouth(ledger, gameId);
    ledger.execute(dealHand(ledger.models, { gameId, seed: 'hand-2' }));
    // East deals hand 2; South bids first, then West, North.
    const order: Seat[] = [];
    for (let i = 0; i < 4; i++) {
      const game = ledger.models.games[gameId]!;
      const seat = nextBidder(game) as Seat;
      order.push(seat);
      expect(
        bidsOpenTo(game, seat)
          .map(bidValue)
          .filter((b) => String(b).startsWith('blind ')),
        seat,
      ).toEqual([]);
      if (seat === 'N' || seat === 'S') {
        expect(refusal(() => makeBid(ledger.models, { gameId, seat, bid: 'blind 3' })).message).toBe(
          `game ${gameId} hand 2: under this event’s rules a blind bid is declared before the cards are dealt, with the deal; once they are dealt it may not be bid`,
        );
      }
      ledger.execute(makeBid(ledger.models, { gameId, seat, bid: 3 }));
    }
    expect(order).toEqual(['S', 'W', 'N', 'E']);
    ledger.close();
  });

  it('takes the behind team’s blind bids with the deal, so the others bid after, and scores them blind', () => {
    const ledger = tempLedger();
    const gameId = firstGame(ledger, 'pitt-boss');
    setNorthSouth(ledger, gameId);
    const before = ledger.models.games[gameId]!.score;
    // The team ahead may not; nor the team behind for less than 6, nor one partner alone.
    expect(refusal(() => dealHand(ledger.models, { gameId, seed: 'hand-2', blind: { E: 3, W: 3 } })).message).toMatch(
      /EW bid blind with EW up \d+; this event’s rules allow a blind bid only for a team down 100 or more$/,
    );
    expect(refusal(() => dealHand(ledger.models, { gameId, seed: 'hand-2', blind: { N: 2, S: 2 } })).message).toMatch(
      /NS bid 4 \(N blind 2, S blind 2\); this event’s blind bid minimum is 6$/,
    );
    expect(refusal(() => dealHand(ledger.models, { gameId, seed: 'hand-2', blind: { N: 6 } })).message).toMatch(
      /a blind bid needs both partners to bid blind: N and S$/,
    );
    ledger.execute(dealHand(ledger.models, { gameId, seed: 'hand-2', blind: { N: 3, S: 3 } }));
    expect(eventsOf<{ blind?: unknown }>(ledger, 'HandDealt').at(-1)!.blind).toEqual({ N: 3, S: 3 });
    const game = ledger.models.games[gameId]!;
    expect(game.current!.bids).toEqual({ N: 'blind 3', S: 'blind 3' });
    // Only East and West are left to bid.
    for (const seat of ['W', 'E'] as const) {
      expect(nextBidder(ledger.models.games[gameId]!)).toBe(seat);
      ledger.execute(makeBid(ledger.models, { gameId, seat, bid: 2 }));
    }
    expect(nextBidder(ledger.models.games[gameId]!)).toBeNull();
    ledger.execute(recordTricks(ledger.models, { gameId, tricks: { N: 3, S: 3, E: 4, W: 3 } }));
    // The replay says the blind bids first, from the deal they were declared with.
    const replay = handReplay(ledger.models.games[gameId]!, 2, ledger.store.readAll())!;
    expect(replay.bids.map((b) => [b.seat, b.bid, b.ref.type])).toEqual([
      ['N', 'blind 3', 'HandDealt'],
      ['S', 'blind 3', 'HandDealt'],
      ['W', 2, 'BidMade'],
      ['E', 2, 'BidMade'],
    ]);
    // Made blind: double the 60 the bid is worth.
    expect(ledger.models.games[gameId]!.score.NS - before.NS).toBe(120);
    expectRebuildEqualsLive(ledger);
    ledger.close();
  });

  it('the phone offers the blind bid with the deal, to the team behind, and no Blind button once dealt', () => {
    const ledger = tempLedger();
    const gameId = firstGame(ledger, 'pitt-boss');
    const names = (id: string) => (id === 'team-1' ? 'Deuces' : 'Treys');
    const panel = (game: ReturnType<typeof entryGame>) =>
      String(EntryPanel({ csrf: 'token', tournamentId: 't', tournamentName: 'Night', table: 1, start: [], game }));
    // Level: nobody may.
    expect(entryGame(ledger.models.games[gameId]!, names).deal!.blind).toEqual([]);
    setNorthSouth(ledger, gameId);
    const before = entryGame(ledger.models.games[gameId]!, names);
    const ns = ledger.models.games[gameId]!.teams.NS;
    expect(before.deal!.blind).toEqual([{ name: names(ns), seats: ['N', 'S'], behind: expect.any(Number), minimum: 6 }]);
    const html = panel(before);
    expect(html).toContain('<h3>Blind bid, before the cards are dealt</h3>');
    expect(html).toContain('name="blindN"');
    expect(html).toContain('name="blindS"');
    expect(html).not.toContain('name="blindE"');
    ledger.execute(dealHand(ledger.models, { gameId, seed: 'hand-2' }));
    const after = entryGame(ledger.models.games[gameId]!, names);
    expect(after.deal).toBeNull();
    expect(after.bidding!.options.filter((b) => String(b).startsWith('blind '))).toEqual([]);
    expect(panel(after)).not.toMatch(/data-bid="blind \d+"/);
    ledger.close();
  });

  it('still lets a blind bid be made in turn where the rules say so (Asher)', () => {
    const ledger = tempLedger();
    const gameId = firstGame(ledger, 'asher-theatre');
    expect(refusal(() => dealHand(ledger.models, { gameId, seed: 'hand-1', blind: { N: 3, S: 3 } })).message).toMatch(
      /a blind bid is made at the bidder’s turn, not with the deal$/,
    );
    ledger.close();
  });
});

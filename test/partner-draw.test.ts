import { describe, expect, it } from 'vitest';
import { type OddPlayer, drawPartners } from '../engine/partner-draw.ts';
import { createRandom } from '../engine/random.ts';

const playersOf = (n: number) => Array.from({ length: n }, (_, i) => `p${i + 1}`);

describe('drawn partners', () => {
  it('over many seeds: every checked-in player on a team, nobody twice but the recycled player, the draw reproduced from its seed', () => {
    for (let s = 0; s < 200; s++) {
      const random = createRandom(`draw-${s}`);
      const n = 4 + random.int(60);
      const odd = random.int(2) === 0 ? 'twice' : 'sit-out';
      const players = playersOf(n);
      const seed = `seed-${s}`;
      const draw = drawPartners(players, seed, odd);
      const placed = draw.teams.flatMap((t) => t.players);
      const counts = new Map<string, number>();
      for (const p of placed) counts.set(p, (counts.get(p) ?? 0) + 1);
      if (n % 2 === 0) {
        // Everyone on exactly one team.
        expect(placed.sort()).toEqual([...players].sort());
        expect(draw.sittingOut).toBeNull();
        expect(draw.twice).toBeNull();
      } else if (odd === 'sit-out') {
        expect(draw.sittingOut).not.toBeNull();
        expect(placed.sort()).toEqual(players.filter((p) => p !== draw.sittingOut).sort());
      } else {
        // Everyone on a team, the recycled player on two.
        expect([...counts.keys()].sort()).toEqual([...players].sort());
        expect([...counts.entries()].filter(([, c]) => c > 1)).toEqual([[draw.twice, 2]]);
      }
      // No team of one player, and every team id names its two players.
      for (const t of draw.teams) {
        expect(t.players[0]).not.toBe(t.players[1]);
        expect(t.teamId).toBe(t.players.join('+'));
      }
      // The same players in another order, with the recorded seed, give the same draw.
      const shuffled = [...players].sort(() => random.float() - 0.5);
      expect(drawPartners(shuffled, seed, odd)).toEqual(draw);
    }
  });

  it('draws differently from different seeds', () => {
    const players = playersOf(16);
    expect(drawPartners(players, 'a', 'sit-out').teams).not.toEqual(drawPartners(players, 'b', 'sit-out').teams);
  });

  it('refuses too few players, a player listed twice, and an odd choice it does not know', () => {
    expect(() => drawPartners(playersOf(3), 's', 'sit-out')).toThrow('partner draw: 3 players checked in; it takes at least 4 to make two teams');
    expect(() => drawPartners(['a', 'b', 'a', 'c'], 's', 'twice')).toThrow("partner draw: player 'a' is listed twice");
    expect(() => drawPartners(playersOf(5), 's', 'maybe' as 'twice')).toThrow("an odd player plays 'twice' or 'sit-out', not 'maybe'");
  });
});

// ── The draw as the ledger records it ─────────────────────────────────────────────────────────
import { applyEvent, emptyModels, type ReadModels } from '../events/projections.ts';
import type { Decision } from '../events/store/served-ledger.ts';
import { decidePartnerDraw } from '../server/commands/partner-commands.ts';
import { checkInTeam, createTournament, registerPlayer } from '../server/commands/tournament-commands.ts';
import { domainEvents } from '../events/event-catalogue.ts';

/** Folds a decision's events into the models, each checked by the catalogue as the store checks it; returns them as recorded. */
function record(models: ReadModels, decision: Decision, ledger: { type: string; payload: unknown }[]): void {
  for (const e of decision.events) {
    const { payload } = domainEvents.validate(e.type, e.payload);
    ledger.push({ type: e.type, payload });
    applyEvent(models, { position: models.position + 1, type: e.type, payload, at: '2026-03-01T19:00:00.000Z' });
  }
}

describe('drawn partners through the ledger', () => {
  it('over many seeds: only the players checked in are drawn, each once (the odd one twice or out), and the ledger redraws the same teams', () => {
    for (let s = 0; s < 120; s++) {
      const random = createRandom(`ledger-draw-${s}`);
      const models = emptyModels();
      const events: { type: string; payload: unknown }[] = [];
      const odd: OddPlayer = random.int(2) === 0 ? 'twice' : 'sit-out';
      const id = `blind-${s}`;
      record(
        models,
        createTournament(models, {
          tournamentId: id,
          name: `Blind draw ${s}`,
          format: 'custom',
          options: [
            { elimination: 'single' as const, rounds: null },
            { elimination: 'double' as const, rounds: null },
            { elimination: 'round-robin' as const, rounds: 1 },
            { elimination: 'swiss' as const, rounds: 3 },
          ].map((o) => ({ ...o, partners: 'drawn' as const, oddPlayer: odd }))[random.int(4)]!,
        }),
        events,
      );
      const n = 5 + random.int(40);
      const players = playersOf(n);
      for (const p of players) record(models, registerPlayer(models, { tournamentId: id, playerId: p, name: `Player ${p}` }), events);
      // Some players never check in; at least four do.
      const here = players.filter((_, i) => i < 4 || random.int(4) > 0);
      for (const p of here) record(models, checkInTeam(models, { tournamentId: id, teamId: p, at: '2026-03-01T18:00:00.000Z' }), events);
      const seed = `seed-${random.int(1_000_000)}`;
      record(models, decidePartnerDraw(models, { tournamentId: id, seed }).decision, events);

      const state = models.tournaments[id]!;
      const drawn = events.find((e) => e.type === 'PartnersDrawn')!.payload as {
        seed: string;
        odd: 'twice' | 'sit-out';
        players: string[];
        teams: { teamId: string; players: string[] }[];
        sittingOut: string | null;
        twice: string | null;
      };
      // The draw holds exactly the players checked in, and the event's own choice for an odd one.
      expect([...drawn.players].sort()).toEqual([...here].sort());
      expect(drawn.odd).toBe(odd);
      const counts = new Map<string, number>();
      for (const t of drawn.teams) for (const p of t.players) counts.set(p, (counts.get(p) ?? 0) + 1);
      const left = here.filter((p) => !counts.has(p));
      if (here.length % 2 === 0) {
        expect(left).toEqual([]);
        expect([...counts.values()].every((c) => c === 1)).toBe(true);
      } else if (odd === 'sit-out') {
        expect(left).toEqual([drawn.sittingOut]);
        expect([...counts.values()].every((c) => c === 1)).toBe(true);
      } else {
        expect(left).toEqual([]);
        expect([...counts.entries()].filter(([, c]) => c !== 1)).toEqual([[drawn.twice, 2]]);
      }
      // Nobody who did not check in is on a team, and each of them was withdrawn by the draw.
      const absent = players.filter((p) => !here.includes(p));
      expect([...counts.keys()].filter((p) => absent.includes(p))).toEqual([]);
      expect(
        events
          .filter((e) => e.type === 'TeamWithdrawn')
          .map((e) => (e.payload as { teamId: string }).teamId)
          .sort(),
      ).toEqual([...absent].sort());
      // Drawn again from what the ledger recorded, the same teams.
      const again = drawPartners(drawn.players, drawn.seed, drawn.odd);
      expect(again.teams).toEqual(drawn.teams.map((t) => ({ teamId: t.teamId, players: t.players })));
      expect([again.sittingOut, again.twice]).toEqual([drawn.sittingOut, drawn.twice]);
      // The fold's entrants are the drawn teams, each checked in, its roster the players' own ids.
      expect(state.model.teams.map((t) => [t.teamId, t.playerIds])).toEqual(drawn.teams.map((t) => [t.teamId, t.players]));
      expect(state.checkedIn).toEqual(drawn.teams.map((t) => t.teamId));
      // A second draw is refused, and so is a player's check-in now.
      expect(() => decidePartnerDraw(models, { tournamentId: id, seed: 'again' })).toThrow(/already drawn/);
    }
  });
});

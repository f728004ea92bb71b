import { describe, expect, it } from 'vitest';
import { drawPartners } from '../engine/partner-draw.ts';
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

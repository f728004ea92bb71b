import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type Team, seatsOf } from '../engine/cards.ts';
import {
  type ProgressivePlayer,
  type ProgressiveSeating,
  type TableResult,
  firstRound,
  initialSeating,
  nextRound,
  nextSeating,
  sitOutScore,
  sitOuts,
  playProgressive,
  prizeWinners,
  progressiveTotals,
} from '../engine/progressive.ts';

const players = Array.from({ length: 12 }, (_, i) => `P${i + 1}`);
const result = (table: number, NS: number, EW: number, winner: Team = NS > EW ? 'NS' : 'EW'): TableResult => ({
  table,
  scores: { NS, EW },
  winner,
});
const seatsAt = (seating: ProgressiveSeating): string[][] => seating.map((t) => [t.seats.N, t.seats.E, t.seats.S, t.seats.W]);

describe('progressive tables: a three-table event checked by hand', () => {
  // "At the end of each round, the side with the higher score for that round advances to the
  // next table." "Upon advancement, the incoming partners split and join with the sitting
  // partners, so that they make 2 new couples."
  const rounds = [
    [result(1, 120, 80), result(2, 60, 95), result(3, 150, -40)],
    // Table 1 ties at 70; EW won the extra hand.
    [result(1, 70, 70, 'EW'), result(2, 43, 101), result(3, 110, 52)],
    [result(1, 30, 90), result(2, 200, 10), result(3, 0, 31)],
  ];
  const event = playProgressive(players, rounds);

  it('seats the seeded order four to a table, N E S W', () => {
    expect(seatsAt(event.rounds[0]!.seating)).toEqual([
      ['P1', 'P2', 'P3', 'P4'],
      ['P5', 'P6', 'P7', 'P8'],
      ['P9', 'P10', 'P11', 'P12'],
    ]);
  });

  it('moves winners up and splits them, keeps top-table winners and sends top-table losers to the last table', () => {
    // Round 1: table 1 NS (P1, P3) win and stay; EW (P2, P4) lose and go to table 3.
    // Table 2 EW (P6, P8) win and go up to table 1; NS (P5, P7) stay.
    // Table 3 NS (P9, P11) win and go up to table 2; EW (P10, P12) stay.
    expect(seatsAt(event.rounds[1]!.seating)).toEqual([
      ['P1', 'P3', 'P6', 'P8'],
      ['P5', 'P7', 'P9', 'P11'],
      ['P10', 'P12', 'P2', 'P4'],
    ]);
    // Round 2: table 1 EW (P3, P8) take the tie-break and stay; P1, P6 go to table 3.
    // Table 2 EW (P7, P11) go up; table 3 NS (P10, P2) go up.
    expect(seatsAt(event.rounds[2]!.seating)).toEqual([
      ['P3', 'P8', 'P7', 'P11'],
      ['P5', 'P9', 'P10', 'P2'],
      ['P12', 'P4', 'P1', 'P6'],
    ]);
    // Round 3: table 1 EW (P8, P11) stay; NS (P3, P7) go down to table 3.
    // Table 2 NS (P5, P10) go up; table 3 EW (P4, P6) go up.
    expect(seatsAt(event.seating)).toEqual([
      ['P8', 'P11', 'P5', 'P10'],
      ['P9', 'P2', 'P4', 'P6'],
      ['P12', 'P1', 'P3', 'P7'],
    ]);
  });

  it('adds each side’s round score to both of its players', () => {
    expect(progressiveTotals(playProgressive(players, rounds.slice(0, 1)).rounds)).toEqual({
      P1: 120,
      P3: 120,
      P2: 80,
      P4: 80,
      P5: 60,
      P7: 60,
      P6: 95,
      P8: 95,
      P9: 150,
      P11: 150,
      P10: -40,
      P12: -40,
    });
    expect(event.totals).toEqual({
      P1: 190,
      P2: 200,
      P3: 220,
      P4: 163,
      P5: 303,
      P6: 196,
      P7: 191,
      P8: 255,
      P9: 203,
      P10: 270,
      P11: 341,
      P12: 12,
    });
    expect(progressiveTotals(event.rounds)).toEqual(event.totals);
  });

  it('awards high player, high male and high female', () => {
    // "The individual(s) with the highest score wins. Some games may award prizes for high
    // player or high male and high female players."
    const roster: ProgressivePlayer[] = players.map((id, i) => ({ id, gender: i % 2 === 0 ? 'female' : 'male' }));
    roster[10] = { id: 'P11' }; // no gender recorded
    expect(prizeWinners(roster, event.totals)).toEqual({ highPlayer: ['P11'], highMale: ['P10'], highFemale: ['P5'] });
    expect(prizeWinners(roster, { ...event.totals, P9: 341 }).highPlayer).toEqual(['P9', 'P11']);
    expect(prizeWinners([{ id: 'P1' }, { id: 'P2' }], event.totals)).toEqual({ highPlayer: ['P2'], highMale: [], highFemale: [] });
    expect(() => prizeWinners([{ id: 'P13' }], event.totals)).toThrow("prizes: player 'P13' has no total");
  });
});

describe('progressive tables: refusals', () => {
  const seating = initialSeating(players);

  it('checks the players and the reported results, naming the table', () => {
    expect(() => initialSeating(players.slice(0, 7))).toThrow('progressive tables: 7 players; it takes at least 8, two tables of four');
    expect(() => initialSeating(players.slice(0, 4))).toThrow('two tables of four');
    expect(() => initialSeating([...players.slice(0, 7), 'P1'])).toThrow("progressive tables: player 'P1' is listed twice");
    expect(() => nextSeating(seating, [result(1, 100, 50), result(2, 10, 20)])).toThrow('round results: no result for table 3');
    expect(() => nextSeating(seating, [result(1, 100, 50), result(2, 10, 20), result(3, 80, 40, 'EW')])).toThrow(
      'round results, table 3: NS 80 v EW 40 but EW is reported as the winner; the side with the higher round score advances',
    );
    expect(() => nextSeating(seating, [result(1, 1, 0), result(2, 1, 0), result(3, 1, 0), result(4, 1, 0)])).toThrow(
      'round results, table 4: there is no such table (tables 1 to 3 are in play)',
    );
    expect(() => nextSeating(seating, [result(1, 1, 0), result(1, 1, 0), result(3, 1, 0)])).toThrow('round results, table 1: reported twice');
    expect(() => nextSeating(seating, [result(1, 1.5, 0), result(2, 1, 0), result(3, 1, 0)])).toThrow(
      'round results, table 1: the NS score must be a whole number, not 1.5',
    );
    expect(() => playProgressive(players, [[result(1, 1, 0)]])).toThrow('round 1: round results: no result for tables 2, 3');
  });
});

describe('progressive tables: invariants over random results', () => {
  const roundArb = (tables: number) =>
    fc.array(fc.tuple(fc.integer({ min: -200, max: 400 }), fc.integer({ min: -200, max: 400 }), fc.boolean()), { minLength: tables, maxLength: tables });
  const eventArb = fc.integer({ min: 2, max: 8 }).chain((tables) => fc.tuple(fc.constant(tables), fc.array(roundArb(tables), { minLength: 1, maxLength: 8 })));

  it('keeps four players a table, loses or duplicates no one, and pairs each stayer with a newcomer', () => {
    fc.assert(
      fc.property(eventArb, ([tables, raw]) => {
        const order = Array.from({ length: tables * 4 }, (_, i) => `p${i}`);
        let seating = initialSeating(order);
        let scored = 0;
        for (const round of raw) {
          const results = round.map(
            ([NS, EW, coin], i): TableResult => ({
              table: i + 1,
              scores: { NS, EW },
              winner: NS > EW ? 'NS' : EW > NS ? 'EW' : coin ? 'NS' : 'EW',
            }),
          );
          scored += results.reduce((sum, r) => sum + 2 * (r.scores.NS + r.scores.EW), 0);
          const next = nextSeating(seating, results);
          expect(next).toHaveLength(tables);
          const everyone = next.flatMap((t) => [t.seats.N, t.seats.E, t.seats.S, t.seats.W]);
          expect([...everyone].sort()).toEqual([...order].sort());

          const sideOf = (table: number, team: Team): string[] => seatsOf(team).map((s) => seating[table - 1]!.seats[s]);
          const loser = (r: TableResult): Team => (r.winner === 'NS' ? 'EW' : 'NS');
          for (const { table, seats } of next) {
            const staying = table === 1 ? sideOf(1, results[0]!.winner) : sideOf(table, loser(results[table - 1]!));
            const incoming = table === tables ? sideOf(1, loser(results[0]!)) : sideOf(table + 1, results[table]!.winner);
            for (const team of ['NS', 'EW'] as const) {
              const pair = seatsOf(team).map((s) => seats[s]);
              expect(pair.filter((p) => staying.includes(p))).toHaveLength(1);
              expect(pair.filter((p) => incoming.includes(p))).toHaveLength(1);
            }
            // Stayers were already at this table; newcomers come from one table below (or,
            // at the last table, from the top table's losers).
            const was = (id: string): number => seating.find((t) => Object.values(t.seats).includes(id))!.table;
            for (const id of staying) expect(was(id)).toBe(table);
            for (const id of incoming) expect(was(id)).toBe(table === tables ? 1 : table + 1);
          }
          seating = next;
        }
        const { totals } = playProgressive(
          order,
          raw.map((round) =>
            round.map(([NS, EW, coin], i): TableResult => ({ table: i + 1, scores: { NS, EW }, winner: NS > EW ? 'NS' : EW > NS ? 'EW' : coin ? 'NS' : 'EW' })),
          ),
        );
        expect(Object.values(totals).reduce((a, b) => a + b, 0)).toBe(scored);
      }),
      { seed: 2024, numRuns: 200 },
    );
  });
});

describe('progressive tables: sitting out when the count is not a multiple of 4', () => {
  // rules.md: "the extra players sit out a round in turn (nobody twice before everyone once)
  // and a sit-out scores the round's average individual score, rounded to the nearest point."
  const thirteen = Array.from({ length: 13 }, (_, i) => `P${i + 1}`);

  it('seats three tables of 13 and rests the last of the seeded order first, then the one before', () => {
    const first = firstRound(thirteen);
    expect(seatsAt(first.seating)).toEqual([
      ['P1', 'P2', 'P3', 'P4'],
      ['P5', 'P6', 'P7', 'P8'],
      ['P9', 'P10', 'P11', 'P12'],
    ]);
    expect(first.sittingOut).toEqual(['P13']);
    expect([1, 2, 3, 13, 14].map((r) => sitOuts(thirteen, r))).toEqual([['P13'], ['P12'], ['P11'], ['P1'], ['P13']]);
  });

  it('makes the movement over the tables, then the returning player takes the seat of the next to rest', () => {
    const first = firstRound(thirteen);
    const results = [result(1, 120, 80), result(2, 60, 95), result(3, 150, -40)];
    const next = nextRound(thirteen, 1, first.seating, first.sittingOut, results);
    // The movement alone gives table 2 P5 P7 P9 P11 (see the three-table event above); P12 rests
    // in round 2, so P13 takes P12's seat at table 3.
    expect(seatsAt(next.seating)).toEqual([
      ['P1', 'P3', 'P6', 'P8'],
      ['P5', 'P7', 'P9', 'P11'],
      ['P10', 'P13', 'P2', 'P4'],
    ]);
    expect(next.sittingOut).toEqual(['P12']);
  });

  it('scores a sit-out the average individual score of the round, rounded to the nearest point', () => {
    const seating = firstRound(thirteen).seating;
    // Individual scores: 120 ×2, 80 ×2, 60 ×2, 95 ×2, 150 ×2, -40 ×2: 930 / 12 = 77.5, rounded 78.
    const results = [result(1, 120, 80), result(2, 60, 95), result(3, 150, -40)];
    expect(sitOutScore(seating, results)).toBe(78);
    const event = playProgressive(thirteen, [results]);
    expect(event.totals.P13).toBe(78);
    expect(event.totals.P1).toBe(120);
    // 924 / 12 = 77: nothing to round.
    expect(sitOutScore(seating, [result(1, 117, 80), result(2, 60, 95), result(3, 150, -40)])).toBe(77);
  });

  it('never rests anyone twice before everyone once, and keeps every table full, for 9 to 23 players', () => {
    for (let n = 9; n <= 23; n++) {
      if (n % 4 === 0) continue;
      const order = Array.from({ length: n }, (_, i) => `p${i}`);
      const tables = Math.floor(n / 4);
      const raw = Array.from({ length: 2 * n }, (_, r) =>
        Array.from({ length: tables }, (_, t) => result(t + 1, (r * 7 + t * 13) % 50, (r * 11 + t * 5) % 50, (r + t) % 2 === 0 ? 'NS' : 'EW')),
      );
      const fixed = raw.map((round) =>
        round.map((x) => ({ ...x, winner: x.scores.NS > x.scores.EW ? 'NS' : x.scores.EW > x.scores.NS ? 'EW' : x.winner }) as TableResult),
      );
      const event = playProgressive(order, fixed);
      const rested = new Map(order.map((p) => [p, 0]));
      for (const round of event.rounds) {
        const seated = round.seating.flatMap((t) => [t.seats.N, t.seats.E, t.seats.S, t.seats.W]);
        expect([...seated, ...round.sittingOut!].sort()).toEqual([...order].sort());
        for (const p of round.sittingOut!) rested.set(p, rested.get(p)! + 1);
        const counts = [...rested.values()];
        expect(Math.max(...counts) - Math.min(...counts), `${n} players`).toBeLessThanOrEqual(1);
      }
    }
  });
});

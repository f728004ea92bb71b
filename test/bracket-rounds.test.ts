/**
 * The engine's bracket drawn round by round (engine/bracket-rounds.ts), over every field size:
 * one bye per odd group per round, 2n-2 matches, one final with no reset, placings; and the
 * draw's refusals.
 */
import { describe, expect, it } from 'vitest';
import { type BracketState, isFinished, matchViews, placings, recordResult, startBracket } from '../engine/bracket.ts';
import { appendRound, decideByes, firstRoundBracket, firstRoundPlan, nextRoundPlan, pairRound } from '../engine/bracket-rounds.ts';
import { createRandom } from '../engine/random.ts';
import { drawHighCard } from '../engine/seeding.ts';
import { FORMATS, formatOptions, formatProblem } from '../engine/formats.ts';
import { createTournament, registerTeam, startTournament } from '../server/commands/tournament-commands.ts';
import { driveToEnd, tempLedger } from './tournament-ledger.ts';

const teams = (n: number) => Array.from({ length: n }, (_, i) => `t${i + 1}`);

/** Plays a whole bracket with results from a seed, drawing every round from the seed. */
function playOut(n: number, seed: string): { state: BracketState; rounds: number } {
  const seeds = teams(n);
  const first = decideByes(firstRoundPlan(seeds), {}, seed);
  let state = startBracket(firstRoundBracket(seeds, first[0]?.bye ?? null));
  const random = createRandom(seed);
  let rounds = 1;
  for (;;) {
    for (const view of matchViews(state)) if (view.status === 'ready') state = recordResult(state, view.id, view.teams[random.int(2)]!);
    if (isFinished(state)) return { state, rounds };
    const plan = nextRoundPlan(state);
    state = { ...state, bracket: appendRound(state.bracket, pairRound(plan, decideByes(plan, {}, seed))) };
    rounds++;
    if (rounds > 200) throw new Error('the bracket never finished');
  }
}

describe('a double-elimination bracket drawn round by round', () => {
  it('plays 2n-2 matches for 2 to 64 teams, one bye per odd group per round, one final, and places everyone', () => {
    for (let n = 2; n <= 64; n++) {
      const { state } = playOut(n, `rounds-${n}`);
      const views = matchViews(state);
      expect(
        views.filter((v) => v.status === 'played'),
        `${n} teams`,
      ).toHaveLength(2 * n - 2);
      expect(views.filter((v) => v.side === 'final').map((v) => v.id)).toEqual(['F']);
      const byRoundAndSide = new Map<string, { teams: number; byes: number }>();
      for (const v of views) {
        if (v.side === 'final') continue;
        const key = `${v.round}:${v.side}`;
        const entry = byRoundAndSide.get(key) ?? { teams: 0, byes: 0 };
        entry.teams += v.status === 'bye' ? 1 : 2;
        entry.byes += v.status === 'bye' ? 1 : 0;
        byRoundAndSide.set(key, entry);
      }
      for (const [key, { teams: count, byes }] of byRoundAndSide) expect(byes, `${n} teams, ${key}`).toBe(count % 2);
      const placed = placings(state).flatMap((p) => p.teams);
      expect(placed.sort(), `${n} teams`).toEqual(teams(n).sort());
    }
  });

  it('has no next round while a match is open, and none after the final', () => {
    const seeds = teams(4);
    let state = startBracket(firstRoundBracket(seeds, null));
    expect(() => nextRoundPlan(state)).toThrow('round 1 is not over: W1-1 (ready), W1-2 (ready) still to be decided');
    state = recordResult(recordResult(state, 'W1-1', 't1'), 'W1-2', 't2');
    const plan = nextRoundPlan(state);
    expect(plan.groups.map((g) => [g.group, g.entrants.map((e) => e.team)])).toEqual([
      ['winners', ['t1', 't2']],
      ['losers', ['t4', 't3']],
    ]);
    expect(isFinished(state)).toBe(false);
    expect(() => placings(state)).toThrow('placings: the bracket is not finished; its final is not drawn yet');
    const { state: done } = playOut(4, 'done');
    expect(() => nextRoundPlan(done)).toThrow('the final is drawn; there is no round after it');
  });

  it('gives the bye to the highest card among the teams of the group that have had none, and refuses a wrong draw', () => {
    // 5 teams: t3 sits out round 1; round 2's winners' bracket (t1, t2, t3) draws among t1 and t2.
    let state = startBracket(firstRoundBracket(teams(5), 't3'));
    state = recordResult(recordResult(state, 'W1-1', 't1'), 'W1-2', 't2');
    const plan = nextRoundPlan(state);
    expect(plan.groups.find((g) => g.group === 'winners')!.drawing).toEqual(['t1', 't2']);
    expect(() => decideByes(plan, { winners: { cards: [{ t1: 'AS', t3: 'KS' }] } }, 's')).toThrow(
      "round 2, winners’ bracket: bye draw: team 't3' is not one of the teams drawing for this bye (t1, t2)",
    );
    expect(() => decideByes(plan, { winners: { cards: [{ t1: 'AS', t2: 'KS' }], bye: 't2' } }, 's')).toThrow(
      "round 2, winners’ bracket: the bye goes to the highest card, 't1' with AS, not to 't2'",
    );
    expect(() => decideByes(plan, { losers: { cards: [{ t4: 'AS' }] } }, 's')).toThrow(
      'round 2: the losers’ bracket has no bye to draw (it has 2 teams, an even count)',
    );
    const draws = decideByes(
      plan,
      {
        winners: {
          cards: [
            { t1: 'AS', t2: 'AH' },
            { t1: '2C', t2: '3C' },
          ],
        },
      },
      's',
    );
    expect(draws).toEqual([
      {
        group: 'winners',
        teams: ['t1', 't2'],
        cards: [
          { t1: 'AS', t2: 'AH' },
          { t1: '2C', t2: '3C' },
        ],
        bye: 't2',
        card: '3C',
      },
    ]);
    const round = pairRound(plan, draws);
    expect(round.matches.map((m) => [m.id, m.slots])).toEqual([
      [
        'W2-1',
        [
          { kind: 'winner', match: 'W1-1' },
          { kind: 'winner', match: 'W1-3' },
        ],
      ],
      ['W2-2', [{ kind: 'winner', match: 'W1-2' }, { kind: 'bye' }]],
      [
        'L2-1',
        [
          { kind: 'loser', match: 'W1-1' },
          { kind: 'loser', match: 'W1-2' },
        ],
      ],
    ]);
    expect(() => appendRound(state.bracket, { ...round, round: 3 })).toThrow('round 3 cannot follow round 1');
  });

  it('draws high card among any count of teams, ties redrawing', () => {
    expect(
      drawHighCard(
        ['a', 'b'],
        [
          { a: 'KS', b: 'KH' },
          { a: '4C', b: '9D' },
        ],
      ),
    ).toEqual({ team: 'b', card: '9D', rounds: 2 });
    expect(() => drawHighCard(['a', 'b'], [{ a: 'KS', b: 'KH' }])).toThrow("'a', 'b' are still tied for the highest card");
  });

  it('is a format option: on for blp-2024, and only for a double elimination without a reset', () => {
    expect(FORMATS['blp-2024'].roundByRound).toBe(true);
    expect(FORMATS['pitt-boss'].roundByRound).toBeFalsy();
    expect(formatProblem(formatOptions('custom', { elimination: 'double', roundByRound: true }))).toBeNull();
    expect(formatProblem(formatOptions('custom', { elimination: 'single', roundByRound: true }))).toBe(
      'a bracket drawn round by round is a double elimination with no reset final, not single elimination',
    );
    expect(formatProblem(formatOptions('custom', { elimination: 'double', reset: true, roundByRound: true }))).toBe(
      'a bracket drawn round by round is a double elimination with no reset final, not double elimination with a reset',
    );
  });

  it('draws round 1’s bye by high card in a custom event drawn round by round, and plays it through', async () => {
    const ledger = tempLedger();
    ledger.execute(
      createTournament(ledger.models, { tournamentId: 'c', name: 'Custom', format: 'custom', options: { elimination: 'double', roundByRound: true } }),
    );
    for (let i = 1; i <= 5; i++) ledger.execute(registerTeam(ledger.models, { tournamentId: 'c', teamId: `t${i}`, name: `Team ${i}`, players: ['a', 'b'] }));
    ledger.execute(startTournament(ledger.models, { tournamentId: 'c', seed: 'custom' }));
    const state = ledger.models.tournaments.c!;
    expect(state.byeDraw).not.toBeNull();
    expect(state.model.matches.filter((m) => m.status === 'bye').map((m) => m.winner)).toEqual([state.byeDraw!.team]);
    await driveToEnd(ledger, 'c', 'custom');
    expect(ledger.models.tournaments.c!.model.status).toBe('finished');
    expect(ledger.models.tournaments.c!.model.matches.filter((m) => m.status !== 'bye')).toHaveLength(8);
    ledger.close();
  });
});

import { describe, expect, it } from 'vitest';
import { buildBracket, matchViews, startBracket } from '../engine/bracket.ts';
import { byeCount, byeRecipients, drawBye, manualSeeding, randomSeeding, withByesTo } from '../engine/seeding.ts';

const BLP_TEAMS = ['Aces', 'Books', 'Cutthroats', 'Deuces', 'Eights', 'Fives', 'Gamblers'];

describe('seeded orders', () => {
  it('keeps a manual order and refuses duplicates or empty ids', () => {
    expect(manualSeeding(['B', 'A', 'C'])).toEqual(['B', 'A', 'C']);
    expect(() => manualSeeding(['A', 'B', 'A'])).toThrow("seeding: team 'A' is listed twice");
    expect(() => manualSeeding(['A', ' '])).toThrow('seeding: a team id is empty');
    expect(() => manualSeeding(['A'])).toThrow('seeding: 1 listed; it takes at least 2');
  });

  it('gives the same random order for the same recorded seed', () => {
    const teams = Array.from({ length: 20 }, (_, i) => `T${i + 1}`);
    const once = randomSeeding(teams, 'blp-2024-09-14');
    expect(randomSeeding(teams, 'blp-2024-09-14')).toEqual(once);
    expect([...once].sort()).toEqual([...teams].sort());
    expect(once).not.toEqual(teams);
    expect(randomSeeding(teams, 'another seed')).not.toEqual(once);
    expect(randomSeeding(teams, 7)).toEqual(randomSeeding(teams, 7));
  });

  it('counts byes up to the next power of two and gives them to the top seeds', () => {
    expect([2, 3, 5, 7, 8, 9, 16, 33, 64].map(byeCount)).toEqual([0, 1, 3, 1, 0, 7, 0, 31, 0]);
    expect(byeRecipients(['A', 'B', 'C', 'D', 'E'])).toEqual(['A', 'B', 'C']);
    expect(() => byeCount(65)).toThrow('a bracket holds 2 to 64 teams, not 65');
  });
});

describe('blp-2024 bye by high card', () => {
  // "With an odd number of teams, a team representative will select a card. The highest card
  // drawn will receive a BYE for the first round of play."
  const draw = { Aces: '9H', Books: 'KD', Cutthroats: '3S', Deuces: '10C', Eights: 'QS', Fives: '2D', Gamblers: 'JH' };

  it('gives the bye to the highest card, A high', () => {
    expect(drawBye(BLP_TEAMS, [draw])).toEqual({ team: 'Books', card: 'KD', rounds: 1 });
    expect(drawBye(BLP_TEAMS, [{ ...draw, Fives: 'AC' }])).toEqual({ team: 'Fives', card: 'AC', rounds: 1 });
  });

  it('has the teams tied for the highest card redraw, and only them', () => {
    const tied = { ...draw, Eights: 'KS', Gamblers: 'KH' };
    expect(() => drawBye(BLP_TEAMS, [tied])).toThrow(
      "bye draw: 'Books', 'Eights', 'Gamblers' are still tied for the highest card; they redraw (record another round)",
    );
    const redraw = { Books: '4D', Eights: '7S', Gamblers: '5C' };
    expect(drawBye(BLP_TEAMS, [tied, redraw])).toEqual({ team: 'Eights', card: '7S', rounds: 2 });
    expect(() => drawBye(BLP_TEAMS, [tied, { ...redraw, Aces: 'AS' }])).toThrow(
      "bye draw, redraw 1: team 'Aces' was not tied for the highest card, so it does not redraw",
    );
    expect(() => drawBye(BLP_TEAMS, [tied, { Books: '4D', Eights: '7S' }])).toThrow(
      "bye draw, redraw 1: no card recorded for 'Gamblers'; the draw is incomplete",
    );
    // A tie on the redraw goes round again.
    expect(drawBye(BLP_TEAMS, [tied, { Books: '8D', Eights: '8S', Gamblers: '5C' }, { Books: 'QC', Eights: '10S' }])).toEqual({
      team: 'Books',
      card: 'QC',
      rounds: 3,
    });
  });

  it('says what is wrong with an incomplete or impossible draw', () => {
    const { Gamblers: _, ...short } = draw;
    expect(() => drawBye(BLP_TEAMS, [short])).toThrow("bye draw: no card recorded for 'Gamblers'; the draw is incomplete");
    expect(() => drawBye(BLP_TEAMS, [])).toThrow('bye draw: no cards recorded; each of the 7 teams draws one');
    expect(() => drawBye(BLP_TEAMS, [{ ...draw, Aces: 'KD' }])).toThrow("bye draw: teams 'Aces' and 'Books' both drew KD");
    expect(() => drawBye(BLP_TEAMS, [{ ...draw, Aces: '1H' }])).toThrow("bye draw: team 'Aces' drew '1H', which is not a card of the draw");
    expect(() => drawBye(BLP_TEAMS, [{ ...draw, Aces: 'BJ' }])).toThrow("team 'Aces' drew 'BJ'");
    expect(() => drawBye(BLP_TEAMS, [{ ...draw, Hearts: '5H' }])).toThrow("bye draw: team 'Hearts' is not one of the teams alive in this round");
    expect(() => drawBye(BLP_TEAMS.slice(0, 6), [draw])).toThrow('bye draw: 6 teams are alive, an even count, so there is no bye to draw');
    expect(() => drawBye(BLP_TEAMS, [draw, { Books: '2C' }])).toThrow("bye draw, redraw 1: not needed, 'Books' already won the draw with KD");
  });

  it('repeats in a later round with an odd count: only the teams alive draw', () => {
    const alive = ['Books', 'Deuces', 'Gamblers'];
    expect(drawBye(alive, [{ Books: '6H', Deuces: '9D', Gamblers: '2S' }])).toEqual({ team: 'Deuces', card: '9D', rounds: 1 });
    expect(() => drawBye(alive, [draw])).toThrow("team 'Aces' is not one of the teams alive in this round");
  });

  it('the 7-team event: the draw winner sits out round 1 of a reset-less double elimination', () => {
    const seeded = randomSeeding(BLP_TEAMS, 'blp-2024');
    const bye = drawBye(seeded, [
      { ...draw, Eights: 'KS' },
      { Books: '3H', Eights: 'JC' },
    ]);
    expect(bye.team).toBe('Eights');
    const order = withByesTo(seeded, [bye.team]);
    expect(order[0]).toBe('Eights');
    expect(order.slice(1)).toEqual(seeded.filter((t) => t !== 'Eights'));
    const bracket = buildBracket(order, { format: 'double', reset: false });
    const firstRound = matchViews(startBracket(bracket)).filter((v) => v.side === 'winners' && v.round === 1);
    expect(firstRound.filter((v) => v.status === 'bye')).toEqual([expect.objectContaining({ winner: 'Eights' })]);
    expect(firstRound.filter((v) => v.status === 'ready')).toHaveLength(3);
    expect(bracket.matches.some((m) => m.id === 'GF2')).toBe(false);
    expect(() => withByesTo(seeded, ['Eights', 'Books'])).toThrow('7 teams leave 1 bye, not 2');
    expect(() => withByesTo(seeded, ['Hearts'])).toThrow("bye: team 'Hearts' is not in the seeding");
  });
});

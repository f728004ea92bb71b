/**
 * docs/spec/rules.md "Preset ids" and "Deck and trumps" tables, one test per row and preset, quoting
 * the rulebook; and `resolveRules`, which turns a record's `rules` into these options.
 */
import { describe, expect, it } from 'vitest';
import { cardName } from '../engine/cards.ts';
import { deckFor } from '../engine/deck.ts';
import { PRESETS, PRESET_IDS, type PresetId } from '../engine/presets.ts';
import { RulesError, resolveRules } from '../engine/rules.ts';

describe('Preset ids: targets', () => {
  const rows: [PresetId, number | null, string][] = [
    ['blp-r1', 200, '"Round 1: Goal: to be the first team to reach 200 points."'],
    ['blp-r2', 350, '"Round 2 ( or more as needed): Goal: to be the first team to reach 350 points."'],
    ['blp-final', 500, '"Final Round: Goal: to be the first team to reach 500 points."'],
    ['unc-300', 300, '"Games will be played to 300"'],
    ['unc-500', 500, '"The Championship Match will be played to 500 points"'],
    ['pitt-boss', 350, '"Double elimination play to 350 points."'],
    ['asher', 350, '"Each challenge game is played to 350 points"'],
    ['tournament-spades', null, '"Four hands are played in each round."'],
  ];
  for (const [preset, target, quote] of rows) {
    it(`${preset}: ${target ?? '4 hands, no target'} (${quote})`, () => {
      expect(PRESETS[preset].target).toBe(target);
      expect(PRESETS[preset].hands).toBe(target === null ? 4 : null);
    });
  }
});

const trumps = (preset: PresetId) => deckFor(PRESETS[preset]).trumpOrder.map(cardName);
const spadesDown = (from: number) => ['A', 'K', 'Q', 'J', '10', '9', '8', '7', '6', '5', '4', '3', '2'].slice(0, from).map((r) => `${r}S`);

describe('Deck and trumps', () => {
  for (const preset of ['blp-r1', 'tournament-spades'] as const) {
    it(`${preset}: none removed, A♠ K♠ … 2♠ ("No jokers. No wild cards." / "A standard pack of 52 cards is used.")`, () => {
      expect(trumps(preset)).toEqual(spadesDown(13));
      expect(deckFor(PRESETS[preset]).cards).toHaveLength(52);
    });
  }
  it('blp-r2: 2♥ 2♣ removed, BJ LJ A♠ … 2♠ ("the 2 of hearts and the 2 of clubs are removed")', () => {
    expect(trumps('blp-r2')).toEqual(['BJ', 'LJ', ...spadesDown(13)]);
    expect(PRESETS['blp-r2'].removed).toEqual(['2H', '2C']);
  });
  it('blp-final: BJ LJ 2♦ 2♠ A♠ … 3♠ ("Big Joker, Little Joker, deuce of Diamonds, deuce of Spades, A, K")', () => {
    expect(trumps('blp-final')).toEqual(['BJ', 'LJ', '2D', '2S', ...spadesDown(12)]);
    const deck = deckFor(PRESETS['blp-final']);
    // "2♦ is a trump; diamonds run A…3"
    expect(deck.cards.map(cardName).filter((c) => c.endsWith('D'))).toEqual(['2D', 'AD', 'KD', 'QD', 'JD', '10D', '9D', '8D', '7D', '6D', '5D', '4D', '3D']);
  });
  for (const preset of ['unc-300', 'unc-500'] as const) {
    it(`${preset}: 2♥ 2♦ removed, BJ LJ 2♠ A♠ … 3♠ ("BIG JOKER (SPADE), LITTLE JOKER(SPADE), 2 OF SPADES, ACES OF SPADES")`, () => {
      expect(trumps(preset)).toEqual(['BJ', 'LJ', '2S', ...spadesDown(12)]);
      expect(PRESETS[preset].removed).toEqual(['2H', '2D']);
    });
  }
  for (const preset of ['pitt-boss', 'asher'] as const) {
    it(`${preset}: 2♥ 2♦ removed, BJ LJ A♠ … 2♠ ("The deuce of spades is simply a deuce and is considered the lowest spade")`, () => {
      expect(trumps(preset)).toEqual(['BJ', 'LJ', ...spadesDown(13)]);
      expect(PRESETS[preset].removed).toEqual(['2H', '2D']);
    });
  }
});

describe('resolveRules', () => {
  it('takes every preset id as it is', () => {
    for (const id of PRESET_IDS) expect(resolveRules(id)).toEqual({ preset: id, name: id, options: PRESETS[id] });
  });
  it('applies overrides to a preset without changing the preset', () => {
    const rules = resolveRules({ preset: 'unc-300', target: 250, nil: null });
    expect(rules.options.target).toBe(250);
    expect(rules.options.nil).toBeNull();
    expect(rules.options.bagLimit).toBe(6);
    expect(rules.name).toBe('unc-300 (overridden)');
    expect(PRESETS['unc-300'].target).toBe(300);
  });
  const refusals: [unknown, string][] = [
    ['unc-400', "rules: unknown preset 'unc-400'; the presets are blp-r1, blp-r2, blp-final, unc-300, unc-500, pitt-boss, asher, tournament-spades, standard"],
    [{ target: 200 }, 'rules: the "preset" field is missing'],
    [{ preset: 'asher', bagLimt: 5 }, "rules: 'bagLimt' is not a rule option; see the rule options at /help/rule-options (docs/rule-options.md)"],
    [{ preset: 'asher', target: -5 }, 'rules: Points to win a game must be a whole number 1 or more, or none (a game of a number of hands), got -5'],
    [
      { preset: 'asher', renegePenalty: 'fine' },
      'rules: Renege penalty must be one of transfer (the tricks go to the other team), unc (the tricks are lost, and must still make the bid), asher (credited now, the rest owed from the next hand), pitt-boss (the side that loses the claim pays), got "fine"',
    ],
    [{ preset: 'asher', blindBid: { deficit: 100 } }, 'rules: Blind bids: strictly more behind than that (strict) is missing from {"deficit":100}'],
    [
      { preset: 'asher', blindBid: 100 },
      'rules: Blind bids must be none (no blind bids), or its values written as deficit 100, strict false, minimumTeam 4, got 100',
    ],
    [
      { preset: 'asher', bigBid: { from: 10, madeFloor: 200, madeBonus: 0, setPoints: -1 } },
      'rules: Big bids (10 for 200): set, it loses (setPoints) must be a whole number 0 or more, or none (10 a trick bid), got -1',
    ],
    [
      { preset: 'asher', blindBid: { deficit: 100, strict: true, minimumTeam: 4, over: 1 } },
      'rules: Blind bids: over is not one of its values; write none (no blind bids), or deficit 100, strict false, minimumTeam 4',
    ],
    [{ preset: 'blp-r1', jokers: true }, 'rules: the deck has 54 cards (0 taken out, jokers in); four hands of 13 need 52'],
    [{ preset: 'blp-r1', teamMinimum: 9, teamMaximum: 8 }, 'rules: Board (the least a team may bid), 9, is above the most a team may bid, 8'],
    [
      { preset: 'tournament-spades', hands: null },
      'rules: a game needs points to win or a number of hands (Points to win a game and Hands in a game are both none)',
    ],
    [42, 'rules: expected a preset id or { "preset": id, ...options }, got 42'],
  ];
  for (const [value, message] of refusals) {
    it(`refuses ${JSON.stringify(value)}`, () => {
      expect(() => resolveRules(value)).toThrow(new RulesError(message));
    });
  }
  it('answers a value resolved before from what it holds now, not from what it held', () => {
    const value: Record<string, unknown> = { preset: 'pitt-boss', target: 500 };
    const first = resolveRules(value);
    // The same value, unchanged, is not checked again: the same answer comes back.
    expect(resolveRules(value)).toBe(first);
    value.target = 350;
    expect(resolveRules(value).options.target).toBe(350);
    value.bagLimt = 5;
    expect(() => resolveRules(value)).toThrow(
      new RulesError("rules: 'bagLimt' is not a rule option; see the rule options at /help/rule-options (docs/rule-options.md)"),
    );
    delete value.bagLimt;
    delete value.target;
    expect(resolveRules(value)).toEqual({ preset: 'pitt-boss', name: 'pitt-boss', options: PRESETS['pitt-boss'] });
    // A copy with the same fields resolves to the same options.
    expect(resolveRules({ preset: 'pitt-boss', target: 500 }).options).toEqual(first.options);
  });
});

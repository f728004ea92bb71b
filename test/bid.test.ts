/**
 * Bids: the record's forms, the bidding order, and the table of docs/spec/rules.md "Bidding", one test
 * per row and preset, each quoting the sentence it implements.
 */
import { describe, expect, it } from 'vitest';
import { type Bid, BidError, allowedBids, bidValue, biddingOrder, checkBids, parseBid, teamBidOf } from '../engine/bid.ts';
import type { Seat } from '../engine/cards.ts';
import { PRESETS, type PresetId } from '../engine/presets.ts';
import { type RawBids, bids } from './hand-builders.ts';

const LEVEL = { NS: 0, EW: 0 };
const NS_DOWN = (n: number) => ({ NS: 0, EW: n });

function problem(preset: PresetId, raw: RawBids, before = LEVEL): string | null {
  try {
    checkBids(PRESETS[preset], bids(raw), before, preset);
    return null;
  } catch (error) {
    if (error instanceof BidError) return error.message;
    throw error;
  }
}

const names = (list: Bid[]) => list.map(bidValue);

describe('parseBid reads the record forms', () => {
  it('reads numbers, nil, blind nil and blind N, case- and space-insensitively', () => {
    expect(parseBid(5)).toEqual({ kind: 'number', tricks: 5 });
    expect(parseBid(0)).toEqual({ kind: 'number', tricks: 0 });
    expect(parseBid('nil')).toEqual({ kind: 'nil' });
    expect(parseBid('Blind  Nil')).toEqual({ kind: 'blind-nil' });
    expect(parseBid('blind 6')).toEqual({ kind: 'blind', tricks: 6 });
  });
  it('refuses what is not a bid', () => {
    for (const bad of [14, -1, 2.5, '5', 'blind', 'blind 14', 'nill', null, true]) expect(parseBid(bad)).toBeNull();
  });
  it('writes each bid back in its record form', () => {
    for (const raw of [7, 'nil', 'blind nil', 'blind 6']) expect(bidValue(parseBid(raw)!)).toBe(raw);
  });
});

describe('biddingOrder', () => {
  for (const preset of ['blp-r1', 'blp-r2', 'blp-final', 'unc-300', 'unc-500'] as const) {
    it(`${preset}: "non-dealing team first" ("The non-dealing team places their bid first, and then the dealer's team")`, () => {
      expect(biddingOrder(PRESETS[preset], 'N')).toEqual(['E', 'W', 'S', 'N']);
      expect(biddingOrder(PRESETS[preset], 'W')).toEqual(['N', 'S', 'E', 'W']);
    });
  }
  for (const preset of ['pitt-boss', 'asher', 'tournament-spades'] as const) {
    it(`${preset}: "clockwise from dealer's left" ("The bidding starts with the player left of the dealer and continues clockwise")`, () => {
      expect(biddingOrder(PRESETS[preset], 'N')).toEqual(['E', 'S', 'W', 'N']);
      expect(biddingOrder(PRESETS[preset], 'S')).toEqual(['W', 'N', 'E', 'S']);
    });
  }
});

describe('team bid 4–13 ("the minimum bid per team is 4 (board), maximum is 13")', () => {
  for (const preset of ['blp-r1', 'blp-r2', 'blp-final', 'unc-300', 'unc-500', 'pitt-boss', 'asher'] as const) {
    it(`${preset}: a team bid of 3 is refused naming the team, the seats and the rule`, () => {
      expect(problem(preset, { N: 4, E: 1, S: 4, W: 2 })).toBe(`EW bid 3 (E 1, W 2); the ${preset} team minimum is 4`);
    });
    it(`${preset}: 4 and 13 are allowed`, () => {
      expect(problem(preset, { N: 7, E: 2, S: 6, W: 2 })).toBeNull();
    });
  }
  it("unc-300: the spec's own example message", () => {
    expect(problem('unc-300', { N: 3, E: 1, S: 3, W: 2 })).toBe('EW bid 3 (E 1, W 2); the unc-300 team minimum is 4');
  });
  it('tournament-spades: "any 0–13" ("in theory any number from 0 to 13 is allowed")', () => {
    expect(problem('tournament-spades', { N: 0, E: 0, S: 0, W: 1 })).toBeNull();
    expect(problem('tournament-spades', { N: 7, E: 0, S: 7, W: 0 })).toBe('NS bid 14 (N 7, S 7); the tournament-spades team maximum is 13');
  });
});

describe('nil', () => {
  for (const preset of ['blp-r1', 'blp-r2', 'blp-final', 'asher'] as const) {
    it(`${preset}: no nil ("No Blind Bids. No Nil bids.")`, () => {
      expect(problem(preset, { N: 'nil', E: 2, S: 4, W: 2 })).toBe(`N bid nil; there are no nil bids under ${preset}`);
    });
  }
  for (const preset of ['unc-300', 'unc-500', 'pitt-boss', 'tournament-spades'] as const) {
    it(`${preset}: nil is allowed`, () => {
      expect(problem(preset, { N: 'nil', E: 2, S: 4, W: 2 })).toBeNull();
    });
  }
  for (const preset of ['unc-300', 'unc-500'] as const) {
    it(`${preset}: "a nil bidder's partner bids ≥ 4 unless both bid nil" ("If one player bids nil, their partner must still bid a minimum of four tricks")`, () => {
      expect(problem(preset, { N: 'nil', E: 2, S: 3, W: 2 })).toMatch(/^NS bid 3 \(N nil, S 3\); the unc-\d00 team minimum is 4/);
      expect(problem(preset, { N: 'nil', E: 2, S: 'nil', W: 2 })).toBeNull();
    });
  }
  it('"A plain individual bid of 0 is a number, not a nil": blp allows N 0 with S 4', () => {
    expect(problem('blp-r1', { N: 0, E: 2, S: 4, W: 2 })).toBeNull();
  });
});

describe('blind nil: unc "only for a team down ≥ 100 before the hand" ("A team must be down by a minimum of 100 points")', () => {
  for (const preset of ['unc-300', 'unc-500'] as const) {
    it(`${preset}: down 100 may, down 99 may not`, () => {
      const raw = { N: 'blind nil', E: 2, S: 4, W: 2 };
      expect(problem(preset, raw, NS_DOWN(100))).toBeNull();
      expect(problem(preset, raw, NS_DOWN(99))).toBe(`N bid blind nil with NS down 99; the ${preset} rules allow blind nil only for a team down 100 or more`);
    });
  }
  for (const preset of ['blp-r1', 'pitt-boss', 'asher', 'tournament-spades'] as const) {
    it(`${preset}: no blind nil`, () => {
      expect(problem(preset, { N: 'blind nil', E: 2, S: 4, W: 2 }, NS_DOWN(300))).toBe(`N bid blind nil; there are no blind nil bids under ${preset}`);
    });
  }
});

describe('blind bids', () => {
  it('pitt-boss: "Any team down 100+ points can place a (minimum 6) blind bid"', () => {
    expect(problem('pitt-boss', { N: 'blind 3', E: 2, S: 'blind 3', W: 2 }, NS_DOWN(100))).toBeNull();
    expect(problem('pitt-boss', { N: 'blind 3', E: 2, S: 'blind 3', W: 2 }, NS_DOWN(90))).toBe(
      'NS bid blind with NS down 90; the pitt-boss rules allow a blind bid only for a team down 100 or more',
    );
    expect(problem('pitt-boss', { N: 'blind 3', E: 2, S: 'blind 2', W: 2 }, NS_DOWN(100))).toBe(
      'NS bid 5 (N blind 3, S blind 2); the pitt-boss blind bid minimum is 6',
    );
  });
  it('pitt-boss: "both partners bid blind"', () => {
    expect(problem('pitt-boss', { N: 'blind 3', E: 2, S: 4, W: 2 }, NS_DOWN(100))).toBe(
      'N bid blind 3 but S bid 4; a blind bid needs both partners to bid blind',
    );
  });
  it('asher: "team down > 100 (strictly)" ("BLINDS ... is offered only is down over 100 points")', () => {
    const raw = { N: 'blind 2', E: 2, S: 'blind 2', W: 2 };
    expect(problem('asher', raw, NS_DOWN(101))).toBeNull();
    expect(problem('asher', raw, NS_DOWN(100))).toBe('NS bid blind with NS down 100; the asher rules allow a blind bid only for a team down more than 100');
  });
  for (const preset of ['blp-r1', 'blp-r2', 'blp-final', 'unc-300', 'unc-500', 'tournament-spades'] as const) {
    it(`${preset}: no blind bids`, () => {
      expect(problem(preset, { N: 'blind 3', E: 2, S: 'blind 3', W: 2 }, NS_DOWN(300))).toBe(`N bid blind 3; there are no blind bids under ${preset}`);
    });
  }
});

describe('teamBidOf', () => {
  it("\"The partner's bid is the team's contract\" for a nil; a double nil's contract is 0", () => {
    expect(teamBidOf(bids({ N: 'nil', E: 3, S: 5, W: 4 }), 'NS')).toEqual({ contract: 5, blind: false, nilSeats: ['N'], doubleNil: false });
    expect(teamBidOf(bids({ N: 'nil', E: 3, S: 'blind nil', W: 4 }), 'NS')).toEqual({
      contract: 0,
      blind: false,
      nilSeats: ['N', 'S'],
      doubleNil: true,
    });
    expect(teamBidOf(bids({ N: 'blind 3', E: 3, S: 'blind 4', W: 4 }), 'NS').blind).toBe(true);
  });
});

describe('allowedBids offers only what keeps the team legal', () => {
  const options = PRESETS['unc-300'];
  it('unc-300, partner not yet bid: numbers and nil, no blind nil while level', () => {
    expect(names(allowedBids(options, 'E', {}, LEVEL))).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 'nil']);
  });
  it('unc-300, partner bid 1: at least 3, and no nil (the partner of a nil bids at least 4)', () => {
    const partner: Partial<Record<Seat, Bid>> = { W: parseBid(1)! };
    expect(names(allowedBids(options, 'E', partner, LEVEL))).toEqual([3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
  });
  it('unc-300, partner bid nil: 4–13 or nil; blind nil too when down 100', () => {
    const partner = { W: parseBid('nil')! };
    expect(names(allowedBids(options, 'E', partner, LEVEL))).toEqual([4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 'nil']);
    expect(names(allowedBids(options, 'E', partner, { NS: 100, EW: 0 }))).toContain('blind nil');
  });
  it('pitt-boss, partner bid blind 2 while down 100: only blind bids of 4 or more', () => {
    const partner = { S: parseBid('blind 2')! };
    expect(names(allowedBids(PRESETS['pitt-boss'], 'N', partner, NS_DOWN(100)))).toEqual([4, 5, 6, 7, 8, 9, 10, 11].map((n) => `blind ${n}`));
  });
  it('blp-r1: no nil, no blind, every number while the partner has not bid', () => {
    expect(names(allowedBids(PRESETS['blp-r1'], 'N', {}, NS_DOWN(500)))).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13]);
  });
});

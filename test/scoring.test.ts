/**
 * docs/spec/rules.md "Scoring a hand" and "Bidding" (its scoring rows), one test per row and per
 * preset the row applies to. Each describe quotes the sentence it implements.
 */
import { describe, expect, it } from 'vitest';
import type { PresetId } from '../engine/presets.ts';
import { points, score, teams } from './hand-builders.ts';

const COUNTING_PRESETS: PresetId[] = ['blp-r1', 'blp-r2', 'blp-final', 'unc-300', 'unc-500', 'pitt-boss', 'tournament-spades'];

describe('rules.md 1: "Contract: made → 10 × bid + 1 per overtrick; set → −10 × bid."', () => {
  for (const preset of COUNTING_PRESETS) {
    it(`${preset}: bid 5 took 7 → 52; bid 4 took 6 → 42`, () => {
      // given NS bid 3 + 2 and took 7, EW bid 2 + 2 and took 6
      const hand = { bids: { N: 3, E: 2, S: 2, W: 2 }, tricks: { N: 4, E: 3, S: 3, W: 3 } };
      // then both made, with their overtricks as points
      expect(points(preset, hand)).toEqual({ NS: 52, EW: 42 });
    });
    it(`${preset}: bid 8 took 6 → −80 and a set`, () => {
      const result = score(preset, { bids: { N: 4, E: 2, S: 4, W: 2 }, tricks: { N: 3, E: 4, S: 3, W: 3 } });
      expect(result.teams.NS.points).toBe(-80);
      expect(result.after.NS.sets).toBe(1);
      expect(result.teams.EW.points).toBe(43);
      expect(result.after.EW.sets).toBe(0);
    });
  }
  it('asher: "A team will only get credit for what they bid" — bid 5 took 7 → 50, no bags', () => {
    const result = score('asher', { bids: { N: 3, E: 2, S: 2, W: 2 }, tricks: { N: 4, E: 3, S: 3, W: 3 } });
    expect(result.teams.NS.points).toBe(50);
    expect(result.teams.EW.points).toBe(40);
    expect(result.after.NS.bags).toBe(0);
  });
  it('asher: "the amount of books bid will be deducted" — bid 8 took 6 → −80', () => {
    expect(points('asher', { bids: { N: 4, E: 2, S: 4, W: 2 }, tricks: { N: 3, E: 4, S: 3, W: 3 } }).NS).toBe(-80);
  });
});

describe('rules.md 2: 10-for-200, "when the team bid is 10 or more"', () => {
  const bigMade = (tricksNS: number) => ({
    bids: { N: 5, E: 2, S: 5, W: 2 },
    tricks: { N: tricksNS - 5, E: 13 - tricksNS, S: 5, W: 0 },
  });
  describe('unc-*: "made → max(120 in unc-300 / 200 in unc-500, 10 × bid) + overtricks; set → −10 × bid"', () => {
    it('unc-300: bid 10 took 11 → 121 ("will receive 120 points (in games played to 300)")', () => {
      expect(points('unc-300', bigMade(11)).NS).toBe(121);
    });
    it('unc-300: bid 13 took 13 → 130, since 10 × 13 is more than 120', () => {
      expect(points('unc-300', { bids: { N: 7, E: 2, S: 6, W: 2 }, tricks: { N: 7, E: 0, S: 6, W: 0 } }).NS).toBe(130);
    });
    it('unc-500: bid 10 took 11 → 201 ("200 points (in games played to 500)")', () => {
      expect(points('unc-500', bigMade(11)).NS).toBe(201);
    });
    for (const preset of ['unc-300', 'unc-500'] as const) {
      it(`${preset}: bid 10 took 9 → −100`, () => {
        expect(points(preset, bigMade(9)).NS).toBe(-100);
      });
    }
  });
  describe('pitt-boss: "made → max(200, 10 × bid) + overtricks; set → −100"', () => {
    it('"Any team to bid and successfully win 10 books ... will receive 200 points": bid 10 took 11 → 201', () => {
      expect(points('pitt-boss', bigMade(11)).NS).toBe(201);
    });
    it('"The team loses 100 points if bid is unsuccessful": bid 11 took 9 → −100, not −110', () => {
      expect(points('pitt-boss', { bids: { N: 6, E: 1, S: 5, W: 1 }, tricks: { N: 5, E: 4, S: 4, W: 0 } }).NS).toBe(-100);
    });
  });
  describe('asher: "made → 10 × bid + 100; set → −10 × bid"', () => {
    it('"they are awarded 100 Bonus Points or a total of 200 Points": bid 10 took 10 → 200', () => {
      expect(points('asher', bigMade(10)).NS).toBe(200);
    });
    it('bid 11 took 12 → 210 (no overtrick points)', () => {
      expect(points('asher', { bids: { N: 6, E: 1, S: 5, W: 1 }, tricks: { N: 7, E: 1, S: 5, W: 0 } }).NS).toBe(210);
    });
    it('bid 11 took 9 → −110', () => {
      expect(points('asher', { bids: { N: 6, E: 1, S: 5, W: 1 }, tricks: { N: 5, E: 4, S: 4, W: 0 } }).NS).toBe(-110);
    });
  });
  for (const preset of ['blp-r1', 'blp-r2', 'blp-final', 'tournament-spades'] as const) {
    it(`${preset} has no 10-for-200: bid 10 took 11 → 101`, () => {
      expect(points(preset, bigMade(11)).NS).toBe(101);
    });
  }
});

describe('rules.md 3 and Bidding: "Nil: the nil bidder must take no trick. Made: +nil value; failed: −nil value."', () => {
  const nilHand = (nilTricks: number, partnerTricks: number) => ({
    bids: { N: 'nil', E: 4, S: 5, W: 4 },
    tricks: { N: nilTricks, E: 13 - nilTricks - partnerTricks - 0, S: partnerTricks, W: 0 },
  });
  const cases: [PresetId, number][] = [
    ['unc-300', 60],
    ['unc-500', 100],
    ['pitt-boss', 100],
    ['tournament-spades', 100],
  ];
  for (const [preset, value] of cases) {
    it(`${preset}: nil made with partner bid 5 took 5 → ${value} + 50`, () => {
      expect(points(preset, nilHand(0, 5)).NS).toBe(value + 50);
    });
    it(`${preset}: nil failed, partner made → −${value} + 50 ± the nil tricks`, () => {
      const overtrickPoint = preset.startsWith('unc') ? 0 : 1;
      expect(points(preset, nilHand(1, 5)).NS).toBe(-value + 50 + overtrickPoint);
    });
  }
  it('"Tricks taken by a nil bidder never count toward the partner\'s contract": S bid 5 took 4, N (nil) took 2 → set', () => {
    for (const preset of ['unc-300', 'pitt-boss', 'tournament-spades'] as const) {
      const result = score(preset, nilHand(2, 4));
      expect(result.teams.NS.set).toBe(true);
    }
  });
  it('pitt-boss / tournament-spades: "In pitt-boss and tournament-spades they count as overtricks (a point and a bag each)"', () => {
    for (const preset of ['pitt-boss', 'tournament-spades'] as const) {
      const result = score(preset, nilHand(2, 6));
      // −100 nil, 50 contract, 1 overtrick from S, 2 from the nil bidder
      expect(result.teams.NS.points).toBe(-100 + 50 + 3);
      expect(result.after.NS.bags).toBe(3);
    }
  });
  it('pitt-boss: "tricks won by that player ... do count as bags for the partnership" even when the partner is set', () => {
    const result = score('pitt-boss', nilHand(2, 4));
    expect(result.teams.NS.points).toBe(-100 - 50 + 2);
    expect(result.after.NS.bags).toBe(2);
  });
  it('unc-*: "in unc-* they score nothing at all": nil took 2, partner bid 5 took 6 → −60 + 51, one bag', () => {
    const result = score('unc-300', nilHand(2, 6));
    expect(result.teams.NS.points).toBe(-60 + 51);
    expect(result.after.NS.bags).toBe(1);
  });
  it('"A plain individual bid of 0 is a number, not a nil: it has no bonus and no penalty" (tournament-spades)', () => {
    const zero = { bids: { N: 0, E: 4, S: 5, W: 4 }, tricks: { N: 0, E: 8, S: 5, W: 0 } };
    expect(points('tournament-spades', zero).NS).toBe(50);
    const zeroTook = { bids: { N: 0, E: 4, S: 5, W: 4 }, tricks: { N: 2, E: 6, S: 5, W: 0 } };
    // N's 2 tricks count for the team like any bid's: 7 on a bid of 5.
    expect(points('tournament-spades', zeroTook).NS).toBe(52);
  });
});

describe('Bidding: "Double nil (both partners nil) is each nil scored on its own (so unc gives +2v, 0 or −2v)"', () => {
  const doubleNil = (n: number, s: number) => ({
    bids: { N: 'nil', E: 6, S: 'nil', W: 6 },
    tricks: { N: n, E: 13 - n - s, S: s, W: 0 },
  });
  it('unc-300: "both partners make their nil bid then the team will receive 120 points"', () => {
    expect(points('unc-300', doubleNil(0, 0)).NS).toBe(120);
  });
  it('unc-300: "If one partner makes their nil bid and the other partner does not, then the team will receive 0 points"', () => {
    expect(points('unc-300', doubleNil(2, 0)).NS).toBe(0);
  });
  it('unc-500: "If both partners fail to make their nil bid then the team will lose ... 200 points"', () => {
    expect(points('unc-500', doubleNil(1, 1)).NS).toBe(-200);
  });
  it('"The team contract is 0": a double nil is never set', () => {
    const result = score('unc-300', doubleNil(1, 1));
    expect(result.teams.NS.set).toBe(false);
    expect(result.after.NS.sets).toBe(0);
  });
  it('pitt-boss: a failed double nil\'s tricks are bags ("they do count as bags for the partnership")', () => {
    const result = score('pitt-boss', doubleNil(1, 1));
    expect(result.teams.NS.points).toBe(-200 + 2);
    expect(result.after.NS.bags).toBe(2);
  });
});

describe('Bidding: "Blind nil is a nil with the blind value" (unc ±120 / ±200)', () => {
  const down = teams({ score: 0 }, { score: 150 });
  it('unc-300: blind nil made → +120 ("his/her team will receive 120 points (in games played to 300)")', () => {
    const hand = { bids: { N: 'blind nil', E: 4, S: 5, W: 4 }, tricks: { N: 0, E: 8, S: 5, W: 0 } };
    expect(points('unc-300', hand, down).NS).toBe(170);
  });
  it('unc-500: blind nil failed → −200 ("his/her team will lose ... 200 points (in games played to 500)")', () => {
    const hand = { bids: { N: 'blind nil', E: 4, S: 5, W: 4 }, tricks: { N: 1, E: 7, S: 5, W: 0 } };
    expect(points('unc-500', hand, down).NS).toBe(-150);
  });
});

describe('Bidding: "A blind bid doubles the team\'s contract result when made ((10 × bid + overtricks) × 2); when set it is an ordinary set"', () => {
  const blindHand = (tricksNS: number) => ({
    bids: { N: 'blind 3', E: 3, S: 'blind 3', W: 3 },
    tricks: { N: tricksNS - 3, E: 13 - tricksNS, S: 3, W: 0 },
  });
  it('pitt-boss: "Successfully winning the blind bid doubles the point total for that hand": blind 6 took 8 → 124', () => {
    expect(points('pitt-boss', blindHand(8), teams({ score: 0 }, { score: 100 })).NS).toBe(124);
  });
  it('pitt-boss: "Team is considered set if the bid is unsuccessful": blind 6 took 5 → −60, a set', () => {
    const result = score('pitt-boss', blindHand(5), teams({ score: 0 }, { score: 100 }));
    expect(result.teams.NS.points).toBe(-60);
    expect(result.after.NS.sets).toBe(1);
  });
  it('"Overtricks still add to the bag count once, undoubled": blind 6 took 8 → 2 bags', () => {
    expect(score('pitt-boss', blindHand(8), teams({ score: 0 }, { score: 100 })).after.NS.bags).toBe(2);
  });
  it('asher: blind 6 took 8 → (60) × 2 = 120, no overtrick points', () => {
    expect(points('asher', blindHand(8), teams({ score: 0 }, { score: 101 })).NS).toBe(120);
  });
});

describe('rules.md 4: pitt-boss "a team that wins the first 7 tricks of the hand gets +100, whatever its contract did"', () => {
  const hand = { bids: { N: 5, E: 2, S: 4, W: 2 }, tricks: { N: 4, E: 3, S: 4, W: 2 }, firstSeven: 'NS' as const };
  it('pitt-boss: "Any team to win the first 7 books of any hand receives 100 bonus points" — set by one, still +100', () => {
    expect(points('pitt-boss', hand).NS).toBe(-90 + 100);
  });
  for (const preset of ['blp-r1', 'unc-300', 'asher', 'tournament-spades'] as const) {
    it(`${preset} has no first-seven bonus`, () => {
      expect(points(preset, hand).NS).toBe(-90);
    });
  }
});

describe('rules.md 5: renege penalties for an upheld claim', () => {
  // NS bid 5 and took 6, EW bid 6 and took 7; N reneged.
  const base = { bids: { N: 3, E: 3, S: 2, W: 3 }, tricks: { N: 3, E: 4, S: 3, W: 3 } };
  const upheld = { ...base, reneges: [{ seat: 'N' as const, upheld: true }] };
  const denied = { ...base, reneges: [{ seat: 'N' as const, upheld: false }] };

  for (const preset of ['blp-r1', 'blp-r2', 'blp-final', 'tournament-spades'] as const) {
    it(`${preset}: "3 tricks move from the reneging team to the other team" ("your team loses 3 books to the other team")`, () => {
      const result = score(preset, upheld);
      expect(result.teams.NS.counted).toBe(3);
      expect(result.teams.NS.points).toBe(-50);
      // "they count for the receivers' contract and bags": 10 on a bid of 6
      expect(result.teams.EW.points).toBe(64);
      expect(result.after.EW.bags).toBe(4);
    });
    it(`${preset}: "(all it has if it has fewer than 3)"`, () => {
      const few = { bids: { N: 2, E: 4, S: 2, W: 4 }, tricks: { N: 1, E: 6, S: 1, W: 5 }, reneges: [{ seat: 'S' as const, upheld: true }] };
      const result = score(preset, few);
      expect(result.teams.NS.counted).toBe(0);
      expect(result.teams.EW.counted).toBe(13);
    });
    it(`${preset}: a denied claim changes nothing ("only an upheld renege claim changes the score")`, () => {
      expect(points(preset, denied)).toEqual(points(preset, base));
    });
  }
  for (const preset of ['unc-300', 'unc-500'] as const) {
    it(`${preset}: "the reneging team's tricks drop by 3 (not below 0); the other team gets +30 points flat" ("The team receiving the tricks will be awarded 30 points")`, () => {
      const result = score(preset, upheld);
      expect(result.teams.NS.points).toBe(-50);
      // "the 3 tricks do not count for its contract or bags": 7 on a bid of 6 → 61, one bag
      expect(result.teams.EW.points).toBe(61 + 30);
      expect(result.after.EW.bags).toBe(1);
    });
    it(`${preset}: not below 0`, () => {
      const few = { bids: { N: 2, E: 4, S: 2, W: 4 }, tricks: { N: 1, E: 6, S: 1, W: 5 }, reneges: [{ seat: 'S' as const, upheld: true }] };
      expect(score(preset, few).teams.NS.counted).toBe(0);
    });
  }
  it('asher: "the other team is credited with 3 tricks now; the reneging team gives up as many as it has (up to 3) now and the rest from its tricks in its next hand"', () => {
    // NS bid 5 took 2; EW bid 4 took 11. N reneged: NS gives 2 now and owes 1.
    const first = score('asher', {
      bids: { N: 3, E: 2, S: 2, W: 2 },
      tricks: { N: 1, E: 6, S: 1, W: 5 },
      reneges: [{ seat: 'N', upheld: true }],
    });
    expect(first.teams.NS.counted).toBe(0);
    expect(first.teams.EW.counted).toBe(14);
    expect(first.after.NS.renegeDebt).toBe(1);
    // Next hand NS bid 4 and took 4: the owed trick comes out, so they are set; EW is not credited again.
    const second = score('asher', { bids: { N: 2, E: 3, S: 2, W: 2 }, tricks: { N: 2, E: 5, S: 2, W: 4 } }, first.after);
    expect(second.teams.NS.counted).toBe(3);
    expect(second.teams.NS.points).toBe(-40);
    expect(second.teams.EW.counted).toBe(9);
    expect(second.after.NS.renegeDebt).toBe(0);
  });
  it('pitt-boss: "an upheld claim moves 3 tricks from the reneging team" ("The losing team of the renege challenge is typically penalized 3 books")', () => {
    const result = score('pitt-boss', upheld);
    expect(result.teams.NS.counted).toBe(3);
    expect(result.teams.EW.counted).toBe(10);
  });
  it('pitt-boss: "a denied claim moves 3 tricks from the claiming team"', () => {
    const result = score('pitt-boss', denied);
    // EW claimed N reneged and lost the challenge: EW pays 3.
    expect(result.teams.EW.counted).toBe(4);
    expect(result.teams.EW.points).toBe(-60);
    expect(result.teams.NS.counted).toBe(9);
    expect(result.teams.NS.points).toBe(54);
  });
});

describe("renege trick pool: renege tricks come out of the team's counted tricks, never a nil bidder's own", () => {
  // N bid nil and took 2; S bid 4 and took 1. S reneged: the team's counted tricks are S's 1.
  const hand = {
    bids: { N: 'nil', E: 4, S: 4, W: 4 },
    tricks: { N: 2, E: 6, S: 1, W: 4 },
    reneges: [{ seat: 'S' as const, upheld: true }],
  };
  it("pitt-boss: only 1 trick moves; N's 2 stay as bags and N's nil is still judged failed", () => {
    const result = score('pitt-boss', hand);
    expect(result.teams.NS.counted).toBe(0);
    expect(result.teams.EW.counted).toBe(11);
    expect(result.teams.NS.points).toBe(-100 - 40 + 2);
    expect(result.after.NS.bags).toBe(2);
  });
  it('blp-style transfer with a double-nil team: nothing to give', () => {
    const result = score('tournament-spades', {
      bids: { N: 'nil', E: 4, S: 'nil', W: 4 },
      tricks: { N: 1, E: 6, S: 0, W: 6 },
      reneges: [{ seat: 'N', upheld: true }],
    });
    expect(result.teams.NS.counted).toBe(0);
    expect(result.teams.EW.counted).toBe(12);
  });
});

describe('rules.md 6: bags', () => {
  const over3 = { bids: { N: 2, E: 3, S: 2, W: 3 }, tricks: { N: 4, E: 3, S: 3, W: 3 } };
  for (const preset of ['blp-r1', 'blp-r2', 'blp-final', 'pitt-boss', 'unc-500'] as const) {
    it(`${preset}: "every 10th bag costs −100 and the count restarts at 0 (so surplus carries)"`, () => {
      const result = score(preset, over3, teams({ bags: 8 }));
      expect(result.teams.NS.points).toBe(43 - 100);
      expect(result.after.NS.bags).toBe(1);
      expect(result.teams.NS.bagPenalties).toBe(1);
    });
  }
  it('unc-300: "every 6th bag costs −60, same restart" ("on the 6th Sandbag the team will be penalized 60 points")', () => {
    const result = score('unc-300', over3, teams({ bags: 5 }));
    expect(result.teams.NS.points).toBe(43 - 60);
    expect(result.after.NS.bags).toBe(2);
  });
  it('tournament-spades: "no bag penalty", but "the bag count is kept in every preset that scores overtricks"', () => {
    const result = score('tournament-spades', over3, teams({ bags: 8 }));
    expect(result.teams.NS.points).toBe(43);
    expect(result.after.NS.bags).toBe(11);
  });
  it('asher: "in asher overtricks are not bags and the count stays 0" ("NO SANDBAGGING")', () => {
    const result = score('asher', over3);
    expect(result.teams.NS.points).toBe(40);
    expect(result.after.NS.bags).toBe(0);
  });
});

describe('rules.md 7: asher 6-4 "the hand is not played: +60 and +40, no bags" ("A BID OF 6-4 = BOOKS MADE")', () => {
  it('asher: NS 6, EW 4 → +60 / +40 with no tricks', () => {
    const result = score('asher', { bids: { N: 3, E: 2, S: 3, W: 2 } });
    expect(result.notPlayed).toBe(true);
    expect(result.teams.NS.points).toBe(60);
    expect(result.teams.EW.points).toBe(40);
    expect(result.after.NS.bags).toBe(0);
  });
  it('asher: 6-5 is played as usual', () => {
    const result = score('asher', { bids: { N: 3, E: 2, S: 3, W: 3 }, tricks: { N: 3, E: 2, S: 3, W: 5 } });
    expect(result.notPlayed).toBe(false);
    expect(result.teams.NS.points).toBe(60);
    expect(result.teams.EW.points).toBe(50);
  });
});

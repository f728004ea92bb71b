/**
 * The game fold: docs/spec/rules.md "Ending a game" (in its order), the dealer rotation and the
 * "Misdeals and the deal" table, one test per row and preset.
 */
import { describe, expect, it } from 'vitest';
import { type GameHand, type GameState, GameError, applyHand, callTime, nextDealer } from '../engine/game.ts';
import { PRESETS, PRESET_IDS, type PresetId } from '../engine/presets.ts';
import { type RawHand, game, played } from './hand-builders.ts';

function play(state: GameState, ...hands: (RawHand | GameHand)[]): GameState {
  return hands.reduce((s, h) => applyHand(s, 'kind' in h ? h : played(h)), state);
}

const MISDEAL: GameHand = { kind: 'misdeal', reason: 'wrong-card-count' };
// NS bid 5 and take 8; EW bid 4 and take 5.
const NS_53: RawHand = { bids: { N: 3, E: 2, S: 2, W: 2 }, tricks: { N: 4, E: 3, S: 4, W: 2 } };
// NS bid 8 and take 8, EW bid 5 and take 5: no overtricks, so no bags to muddy a second hand.
const NS_80: RawHand = { bids: { N: 4, E: 3, S: 4, W: 2 }, tricks: { N: 4, E: 3, S: 4, W: 2 } };
// Bids of 6 each: NS takes 7 (61 to 60), then EW takes 7 (60 to 61).
const NS_BY_ONE: RawHand = { bids: { N: 3, E: 3, S: 3, W: 3 }, tricks: { N: 4, E: 3, S: 3, W: 3 } };
const EW_BY_ONE: RawHand = { bids: { N: 3, E: 3, S: 3, W: 3 }, tricks: { N: 3, E: 4, S: 3, W: 3 } };
// NS bid 8 and take 6: set.
const NS_SET: RawHand = { bids: { N: 4, E: 2, S: 4, W: 2 }, tricks: { N: 3, E: 4, S: 3, W: 3 } };

describe('Ending a game, 1: "Boston (asher only): a team that took all 13 tricks wins at once"', () => {
  it('asher: "A BOSTON (i.e., when a team gets all 13 books in a single hand) will result in ... a winning game"', () => {
    const end = play(game('asher'), { bids: { N: 3, E: 2, S: 2, W: 2 }, tricks: { N: 7, E: 0, S: 6, W: 0 } });
    expect([end.winner, end.reason]).toEqual(['NS', 'boston']);
  });
  for (const preset of ['blp-r1', 'unc-300', 'pitt-boss', 'tournament-spades'] as const) {
    it(`${preset}: all 13 tricks do not end the game`, () => {
      const end = play(game(preset), { bids: { N: 3, E: 2, S: 2, W: 2 }, tricks: { N: 7, E: 0, S: 6, W: 0 } });
      expect(end.winner).toBeNull();
    });
  }
});

describe('Ending a game, 2: set-out', () => {
  it('blp-*: "If during normal play a team is set 3 times, the game is over. The team experiencing 3 sets is the losing team."', () => {
    for (const preset of ['blp-r1', 'blp-r2', 'blp-final'] as const) {
      const two = play(game(preset), NS_SET, NS_SET);
      expect(two.winner).toBeNull();
      const three = play(two, NS_SET);
      expect([three.winner, three.reason]).toEqual(['EW', 'set-out']);
    }
  });
  it('asher: "If a team is SET twice in one game, the game is over, and that team loses the game."', () => {
    const end = play(game('asher'), NS_SET, NS_SET);
    expect([end.winner, end.reason]).toEqual(['EW', 'set-out']);
  });
  it('asher: the set-out team loses even when ahead on points', () => {
    const end = play(game('asher', { teams: { NS: { score: 300, sets: 1 } } }), NS_SET);
    expect([end.winner, end.reason, end.teams.NS.score > end.teams.EW.score]).toEqual(['EW', 'set-out', true]);
  });
  it('"If both teams set out on the same hand, the higher score wins."', () => {
    const both = { bids: { N: 4, E: 4, S: 4, W: 4 }, tricks: { N: 3, E: 3, S: 4, W: 3 } };
    const end = play(game('asher', { teams: { NS: { sets: 1, score: 50 }, EW: { sets: 1 } } }), both);
    expect([end.winner, end.reason]).toEqual(['NS', 'set-out']);
  });
  for (const preset of ['unc-300', 'pitt-boss', 'tournament-spades'] as const) {
    it(`${preset}: no set-out`, () => {
      expect(play(game(preset), NS_SET, NS_SET, NS_SET).winner).toBeNull();
    });
  }
});

describe('Ending a game, 3: "Target: a team at or above the target with the higher score wins"', () => {
  const targets: [PresetId, number][] = [
    ['blp-r1', 200],
    ['blp-r2', 350],
    ['blp-final', 500],
    ['unc-300', 300],
    ['unc-500', 500],
    ['pitt-boss', 350],
    ['asher', 350],
  ];
  for (const [preset, target] of targets) {
    it(`${preset}: "The first team to reach ${target} points is the winner"`, () => {
      const below = play(game(preset, { teams: { NS: { score: target - 81 } } }), NS_80);
      expect(below.winner).toBeNull();
      const at = play(game(preset, { teams: { NS: { score: target - 80 } } }), NS_80);
      expect([at.winner, at.reason, at.teams.NS.score]).toEqual(['NS', 'target', target]);
    });
    it(`${preset}: "If both teams reach ${target} in the same hand, the team with the highest score is the winner"`, () => {
      const end = play(game(preset, { teams: { NS: { score: target - 50 }, EW: { score: target - 20 } } }), NS_53);
      expect([end.winner, end.reason]).toEqual(['EW', 'target']);
    });
    it(`${preset}: "A tie at any of these points is broken by one more hand"`, () => {
      // NS 50 + 3 and EW 40 + 1 (asher: 50 and 40) leave both on the same score at the target.
      const ns = target - (preset === 'asher' ? 50 : 53);
      const ew = target - (preset === 'asher' ? 40 : 41);
      const tied = play(game(preset, { teams: { NS: { score: ns }, EW: { score: ew } } }), NS_53);
      expect(tied.teams.NS.score).toBe(tied.teams.EW.score);
      expect(tied.winner).toBeNull();
      const next = play(tied, { ...NS_80, dealer: tied.dealer });
      expect([next.winner, next.reason]).toEqual(['NS', 'target']);
    });
  }
});

describe('Ending a game, 4: "tournament-spades ends after its 4 hands; higher score wins"', () => {
  it('tournament-spades: "Four hands are played in each round."', () => {
    const three = play(game('tournament-spades'), NS_53, NS_53, NS_53);
    expect(three.winner).toBeNull();
    const four = play(three, NS_53);
    expect([four.winner, four.reason, four.handsPlayed]).toEqual(['NS', 'hands', 4]);
  });
  it('tournament-spades: a misdeal is not one of the 4 hands', () => {
    const end = play(game('tournament-spades'), NS_53, MISDEAL, NS_53, NS_53);
    expect(end.winner).toBeNull();
  });
  it('tournament-spades: tied after 4 hands plays another', () => {
    const tied = play(game('tournament-spades'), NS_BY_ONE, EW_BY_ONE, NS_BY_ONE, EW_BY_ONE);
    expect(tied.teams.NS.score).toBe(tied.teams.EW.score);
    expect(tied.winner).toBeNull();
    expect([play(tied, NS_80).winner, play(tied, NS_80).reason]).toEqual(['NS', 'hands']);
  });
});

describe('Ending a game, 5: "once time is called, the hand in progress is played out; then the higher score wins"', () => {
  for (const preset of PRESET_IDS) {
    it(`${preset}: time called during a hand ends the game after it`, () => {
      const end = play(callTime(game(preset)), NS_53);
      expect([end.winner, end.reason]).toEqual(['NS', 'time']);
    });
  }
  it('pitt-boss: "Should there be a tie score ... a one hand overtime will be played"', () => {
    const tied = play(callTime(game('pitt-boss', { teams: { EW: { score: 1 } } })), NS_BY_ONE);
    expect(tied.teams.NS.score).toBe(tied.teams.EW.score);
    expect(tied.winner).toBeNull();
    expect([play(tied, NS_80).winner, play(tied, NS_80).reason]).toEqual(['NS', 'time']);
  });
  it('a misdeal after time is called does not end the game: the redeal is played out', () => {
    const state = play(callTime(game('unc-300', { teams: { NS: { score: 10 } } })), MISDEAL);
    expect(state.winner).toBeNull();
  });
});

describe('Ending a game: the order of the checks', () => {
  it('asher: boston is checked before set-out (NS takes all 13 while EW is set for the 2nd time)', () => {
    // EW on its 2nd set (bid 4, took 0) while NS took all 13: boston, checked before set-out.
    const end = play(game('asher', { teams: { EW: { sets: 1 } } }), { bids: { N: 3, E: 2, S: 2, W: 2 }, tricks: { N: 7, E: 0, S: 6, W: 0 } });
    expect([end.winner, end.reason]).toEqual(['NS', 'boston']);
  });
  it('blp-r1: set-out is checked before the target: the team on its 3rd set loses though the other is short of 200', () => {
    const end = play(game('blp-r1', { teams: { NS: { score: 190, sets: 2 } } }), NS_SET);
    expect([end.winner, end.reason]).toEqual(['EW', 'set-out']);
  });
});

describe('a hand after the game is won', () => {
  it('is refused, naming the winner', () => {
    const end = play(game('asher'), NS_SET, NS_SET);
    expect(() => play(end, NS_53)).toThrow(new GameError('the game was already won by EW (set-out) after hand 2'));
  });
});

describe('Misdeals and the deal: first dealer', () => {
  const firstDealer: [PresetId[], string, string][] = [
    [['blp-r1', 'blp-r2', 'blp-final'], 'high-card', '"The first dealer is chosen by a draw for high card"'],
    [['unc-300', 'unc-500'], 'high-card', '"The first dealer will be determined by high card drawn."'],
    [['pitt-boss'], 'high-card', '"The first dealer is chosen by a draw for high card"'],
    [['asher'], 'coin-toss', '"A coin toss will determine who will deal first."'],
    [['tournament-spades'], 'random', '"The first dealer is chosen at random"'],
  ];
  for (const [presets, how, quote] of firstDealer) {
    for (const preset of presets) {
      it(`${preset}: ${how} (${quote})`, () => expect(PRESETS[preset].firstDealer).toBe(how));
    }
  }
  it('asher: "rotation continues across the games of a match"', () => {
    expect(PRESET_IDS.filter((p) => PRESETS[p].dealerCarriesAcrossGames)).toEqual(['asher']);
  });
});

describe('Misdeals and the deal: what a misdeal may be called for', () => {
  const reasons: [PresetId, string[]][] = [
    ['blp-r1', ['wrong-card-count']],
    ['blp-r2', ['wrong-card-count']],
    ['blp-final', ['wrong-card-count']],
    ['unc-300', ['no-face-cards', 'no-trumps', 'wrong-card-count', 'leaked-card-details']],
    ['unc-500', ['no-face-cards', 'no-trumps', 'wrong-card-count', 'leaked-card-details']],
    ['pitt-boss', ['card-flipped', 'wrong-card-count', 'uneven-deal']],
    ['asher', ['no-cut-offered', 'card-exposed', 'uneven-deal']],
    ['tournament-spades', ['wrong-card-count']],
  ];
  for (const [preset, list] of reasons) {
    it(`${preset}: ${list.join(', ')}`, () => expect(PRESETS[preset].misdealReasons).toEqual(list));
  }
});

describe('Misdeals and the deal: after a misdeal, and "A misdeal scores nothing"', () => {
  const same: [PresetId, string][] = [
    ['blp-r1', 'same dealer redeals'],
    ['blp-r2', 'same dealer redeals'],
    ['blp-final', 'same dealer redeals'],
    ['unc-300', 'same dealer redeals'],
    ['unc-500', 'same dealer redeals'],
    ['tournament-spades', 'same dealer redeals'],
  ];
  for (const [preset] of same) {
    it(`${preset}: "same dealer redeals"`, () => {
      expect(nextDealer(PRESETS[preset], 'N', 'wrong-card-count')).toBe('N');
      const state = play(game(preset), MISDEAL);
      expect([state.dealer, state.teams.NS.score, state.teams.EW.score, state.handsPlayed]).toEqual(['N', 0, 0, 0]);
    });
  }
  it('pitt-boss: a card flipped in the deal, "This will result in a misdeal and your turn to deal will be forfeited."', () => {
    expect(nextDealer(PRESETS['pitt-boss'], 'N', 'card-flipped')).toBe('E');
    expect(play(game('pitt-boss'), { kind: 'misdeal', reason: 'card-flipped' }).dealer).toBe('E');
  });
  it('pitt-boss: any other misdeal, "The hand is voided and re-dealt": the same dealer deals again', () => {
    expect(nextDealer(PRESETS['pitt-boss'], 'N', 'wrong-card-count')).toBe('N');
    expect(play(game('pitt-boss'), MISDEAL).dealer).toBe('N');
  });
  it('asher: "it is a misdeal, and the dealer forfeits his/her deal for that hand. The deal is then passed to the next player."', () => {
    expect(nextDealer(PRESETS.asher, 'W', 'uneven-deal')).toBe('N');
  });
  for (const preset of PRESET_IDS) {
    it(`${preset}: after a played hand "the player to the dealer's left becomes the new dealer"`, () => {
      expect(nextDealer(PRESETS[preset], 'W', null)).toBe('N');
      expect(play(game(preset, { dealer: 'S' }), NS_53).dealer).toBe('W');
    });
  }
  it("a hand's dealer must match the rotation", () => {
    const state = play(game('unc-300'), MISDEAL);
    expect(() => play(state, { ...NS_53, dealer: 'E' })).toThrow("E is recorded as dealer, but the deal is N's by the rotation");
    expect(play(state, { ...NS_53, dealer: 'N' }).dealer).toBe('E');
  });
});

describe('hands the game refuses', () => {
  it('tricks that do not add up to 13', () => {
    expect(() => play(game('blp-r1'), { bids: NS_53.bids, tricks: { N: 4, E: 3, S: 4, W: 3 } })).toThrow(
      'tricks add up to 14 (N 4, E 3, S 4, W 3); a hand has 13',
    );
  });
  it('a bid the preset forbids', () => {
    expect(() => play(game('blp-r1'), { bids: { N: 'nil', E: 2, S: 4, W: 2 }, tricks: NS_53.tricks })).toThrow('N bid nil; there are no nil bids under blp-r1');
  });
  it('blind bids are judged on the score before the hand', () => {
    const blind = { bids: { N: 'blind 3', E: 2, S: 'blind 3', W: 2 }, tricks: { N: 4, E: 3, S: 4, W: 2 } };
    expect(() => play(game('pitt-boss'), blind)).toThrow(/only for a team down 100 or more/);
    const down = play(game('pitt-boss', { teams: { EW: { score: 100 } } }), blind);
    expect(down.teams.NS.score).toBe((60 + 2) * 2);
  });
  it('asher 6-4 with tricks', () => {
    expect(() => play(game('asher'), { bids: { N: 3, E: 2, S: 3, W: 2 }, tricks: NS_53.tricks })).toThrow(/not played under asher/);
  });
  it('a played hand with no tricks', () => {
    expect(() => play(game('asher'), { bids: NS_53.bids })).toThrow('the hand needs tricks or plays');
  });
});

describe("asher renege debt is carried in the game state into the team's next hand", () => {
  it('owes 1 after a renege with only 2 tricks, and pays it in the next hand', () => {
    const first = play(game('asher'), {
      bids: { N: 3, E: 2, S: 2, W: 2 },
      tricks: { N: 1, E: 6, S: 1, W: 5 },
      reneges: [{ seat: 'N', upheld: true }],
    });
    expect(first.teams.NS.renegeDebt).toBe(1);
    const second = play(first, { bids: { N: 2, E: 3, S: 2, W: 2 }, tricks: { N: 2, E: 5, S: 2, W: 4 } });
    expect(second.teams.NS.renegeDebt).toBe(0);
    expect(second.last!.teams.NS.points).toBe(-40);
  });
});

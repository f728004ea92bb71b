/**
 * The rulebooks' own worked examples give their own numbers.
 */
import { describe, expect, it } from 'vitest';
import { biddingOrder, teamBidOf } from '../engine/bid.ts';
import { PRESETS } from '../engine/presets.ts';
import { scoreHand } from '../engine/scoring.ts';
import { applyHand } from '../engine/game.ts';
import { bids, game, played, points, teams } from './hand-builders.ts';

describe('blp-2024 "Score"', () => {
  it('"if the player\'s bid is 7 and they make 7 tricks (books), the score would be 70"', () => {
    expect(points('blp-r1', { bids: { N: 4, E: 3, S: 3, W: 3 }, tricks: { N: 4, E: 3, S: 3, W: 3 } }).NS).toBe(70);
  });
  it('"If the bid was 5 and the player won 8 tricks (books), the score would be 53 points"', () => {
    expect(points('blp-r1', { bids: { N: 3, E: 2, S: 2, W: 2 }, tricks: { N: 4, E: 3, S: 4, W: 2 } }).NS).toBe(53);
  });
  it('"if a team bids 4 and wins only 3 tricks (books), the team has been set and loses 40 points"', () => {
    const hand = { bids: { N: 2, E: 4, S: 2, W: 4 }, tricks: { N: 2, E: 5, S: 1, W: 5 } };
    expect(points('blp-r1', hand).NS).toBe(-40);
  });
});

describe('unc-intramural "Scoring Nil and Blind Nil": "One partner bids nil and the other partner bids 5 tricks" (game to 300)', () => {
  // N bids nil, S bids 5; EW bid 4 and take the rest.
  const hand = (nTricks: number, sTricks: number) => ({
    bids: { N: 'nil', E: 2, S: 5, W: 2 },
    tricks: { N: nTricks, E: 13 - nTricks - sTricks, S: sTricks, W: 0 },
  });
  it('"Situation #1: Both partners make their bid. Receive 110 pts."', () => {
    expect(points('unc-300', hand(0, 5)).NS).toBe(110);
  });
  it('"Situation #2: Nil bid is made and the other partner is “set”. Receive 10 pts."', () => {
    expect(points('unc-300', hand(0, 4)).NS).toBe(10);
  });
  it('"Situation #3: Nil bidder takes a trick and the other partner gets 5 tricks. Lose 10 points."', () => {
    expect(points('unc-300', hand(1, 5)).NS).toBe(-10);
  });
  it('"Situation #4: Nil bidder takes a trick and the other partner is “set”. Lose 110 points"', () => {
    expect(points('unc-300', hand(1, 4)).NS).toBe(-110);
  });
});

describe('unc-intramural "SCORING"', () => {
  it('"a team bids 7 tricks and takes 8, they earn 71 points"', () => {
    expect(points('unc-300', { bids: { N: 4, E: 3, S: 3, W: 2 }, tricks: { N: 4, E: 3, S: 4, W: 2 } }).NS).toBe(71);
  });
  it('"a team bids 7 tricks and takes 5 tricks; the team will be penalized 70 points"', () => {
    expect(points('unc-300', { bids: { N: 4, E: 3, S: 3, W: 2 }, tricks: { N: 3, E: 5, S: 2, W: 3 } }).NS).toBe(-70);
  });
});

describe('pitt-boss "SCORING" and "SANDBAGGING"', () => {
  it('"Beth and David bid 5 tricks and they won 7 tricks. They score 52 points"', () => {
    expect(points('pitt-boss', { bids: { N: 2, E: 2, S: 2, W: 3 }, tricks: { N: 3, E: 3, S: 3, W: 4 } }).EW).toBe(52);
  });
  it('"bid 4 tricks and win 7, then they bid 3 and win 6, then they bid 4 and win 9. They now have 11 bags (3+3+5) and receive a 100-point penalty. The additional bag carries over."', () => {
    // The example's bid of 3 is under the pitt-boss board of 4, so it is scored directly
    // rather than through the game, which would refuse the bid.
    const options = PRESETS['pitt-boss'];
    const hand = (bid: number, won: number) => ({
      bids: bids({ N: bid - 2, E: 2, S: 2, W: 2 }),
      tricks: { N: won - 2, E: 13 - won, S: 2, W: 0 },
      firstSeven: null,
      reneges: [],
    });
    const first = scoreHand(options, teams(), hand(4, 7));
    const second = scoreHand(options, first.after, hand(3, 6));
    const third = scoreHand(options, second.after, hand(4, 9));
    expect([first.after.NS.bags, second.after.NS.bags]).toEqual([3, 6]);
    expect(third.teams.NS.bagPenalties).toBe(1);
    expect(third.teams.NS.points).toBe(45 - 100);
    expect(third.after.NS.bags).toBe(1);
  });
});

describe('tournament-spades "Example: South deals; West bids 3; North bids 1; East bids 4; South bids 4."', () => {
  it('"The bidding begins with the player to dealer\'s left and continues clockwise"', () => {
    expect(biddingOrder(PRESETS['tournament-spades'], 'S')).toEqual(['W', 'N', 'E', 'S']);
  });
  it('"The objective of North and South is to win at least 5 ticks (4+1), East and West try to win at least 7 (4+3)."', () => {
    const made = bids({ W: 3, N: 1, E: 4, S: 4 });
    expect(teamBidOf(made, 'NS').contract).toBe(5);
    expect(teamBidOf(made, 'EW').contract).toBe(7);
    // and the game takes those bids from South's deal
    const state = applyHand(
      game('tournament-spades', { dealer: 'S' }),
      played({
        dealer: 'S',
        bids: { W: 3, N: 1, E: 4, S: 4 },
        tricks: { N: 2, E: 4, S: 3, W: 4 },
      }),
    );
    expect([state.teams.NS.score, state.teams.EW.score]).toEqual([50, 71]);
  });
});

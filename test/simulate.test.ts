import { describe, expect, it } from 'vitest';
import { SEATS, TEAMS } from '../engine/cards.ts';
import { biddingOrder } from '../engine/bid.ts';
import { deckFor } from '../engine/deck.ts';
import { PRESETS, PRESET_IDS } from '../engine/presets.ts';
import { dealFromSeed } from '../engine/random.ts';
import { scoreRecord } from '../engine/record.ts';
import { resolveRules } from '../engine/rules.ts';
import { isSixFour } from '../engine/scoring.ts';
import { randomHand, recordHand, simulateGame, simulateHand } from '../engine/simulate.ts';
import { replayPlays } from '../engine/trick.ts';

describe('simulateHand', () => {
  for (const id of PRESET_IDS) {
    const options = PRESETS[id];
    const deck = deckFor(options);

    it(`${id}: given a seed and dealer, then the deal is the seed's deal, bids come in bidding order, and 13 tricks agree with a replay`, () => {
      for (let seed = 0; seed < 40; seed++) {
        const dealer = SEATS[seed % 4]!;
        const hand = simulateHand({ options, dealer, seed });
        expect(hand.deal).toEqual(dealFromSeed(deck, seed, dealer));
        expect(hand.bidOrder).toEqual(biddingOrder(options, dealer));
        expect(Object.keys(hand.bids)).toEqual(hand.bidOrder);
        if (isSixFour(options, hand.bids)) {
          expect(hand.plays).toEqual([]);
          continue;
        }
        expect(hand.plays).toHaveLength(13);
        const replay = replayPlays(deck, dealer, hand.plays, hand.deal);
        expect(hand.winners).toEqual(replay.winners);
        expect(hand.taken).toEqual(replay.taken);
      }
    });
  }

  it('given the same input, then the same hand; given another seed, then another hand', () => {
    const input = { options: PRESETS['pitt-boss'], dealer: 'W' as const, seed: 'table 7, hand 3' };
    expect(simulateHand(input)).toEqual(simulateHand(input));
    expect(simulateHand({ ...input, seed: 'table 7, hand 4' }).deal).not.toEqual(simulateHand(input).deal);
  });

  it('"the hand is not played": under asher, bids of 6 and 4 leave the hand without plays, other bids play 13 tricks', () => {
    let sixFours = 0;
    for (let seed = 0; seed < 200; seed++) {
      const hand = simulateHand({ options: PRESETS.asher, dealer: 'N', seed });
      if (isSixFour(PRESETS.asher, hand.bids)) {
        sixFours++;
        expect(hand.plays).toEqual([]);
        expect(hand.taken).toEqual({ N: 0, E: 0, S: 0, W: 0 });
      } else {
        expect(hand.plays).toHaveLength(13);
      }
    }
    expect(sixFours).toBeGreaterThan(0);
  });
});

describe('recordHand', () => {
  it('given a simulated hand, then it is written with card names and bids in the order made', () => {
    const hand = simulateHand({ options: PRESETS['unc-300'], dealer: 'N', seed: 11 });
    const json = recordHand(hand, [{ seat: 'E', trick: 4 }]);
    expect(Object.keys(json.bids)).toEqual(['E', 'W', 'S', 'N']);
    expect(json.plays).toHaveLength(13);
    expect(json.plays![0]).toHaveLength(4);
    for (const name of json.plays!.flat()) expect(name).toMatch(/^(10|[2-9JQKA])[SHDC]$|^[BL]J$/);
    expect(json.deal.N).toHaveLength(13);
    expect(json.reneges).toEqual([{ seat: 'E', trick: 4, upheld: true }]);
  });
});

describe('simulateGame', () => {
  for (const id of PRESET_IDS) {
    it(`${id}: given a seed, then bots play until the game is won, and the record scores to the same result`, () => {
      const game = simulateGame({ rules: resolveRules(id), seed: `game ${id}` });
      expect(game.state.winner).not.toBeNull();
      expect(game.hands.length).toBeGreaterThan(0);
      expect(game.record.hands).toHaveLength(game.hands.length);
      const scored = scoreRecord(game.record);
      expect(scored.winner).toBe(game.state.winner);
      expect(scored.reason).toBe(game.state.reason);
      expect(scored.final).toEqual({ NS: game.state.teams.NS.score, EW: game.state.teams.EW.score });
      if (id === 'tournament-spades') expect(game.state.reason).toBe('hands');
    });
  }

  it('given a renege chance, then reneges are claimed in the record and scored the same way offline', () => {
    const game = simulateGame({ rules: resolveRules('blp-r2'), seed: 3, style: { renege: 0.03 } });
    const claims = game.record.hands.flatMap((h) => h.reneges ?? []);
    expect(claims.length).toBeGreaterThan(0);
    const scored = scoreRecord(game.record);
    expect(scored.final).toEqual({ NS: game.state.teams.NS.score, EW: game.state.teams.EW.score });
    expect(scored.hands.flatMap((h) => h.reneges)).toEqual(claims.map(({ seat, trick }) => ({ seat, trick })));
  });

  it('given the same seed, then the same game', () => {
    const rules = resolveRules('unc-300');
    expect(simulateGame({ rules, seed: 9 })).toEqual(simulateGame({ rules, seed: 9 }));
  });

  it('given rules overridden from a preset, then the record carries just the overrides', () => {
    const rules = resolveRules({ preset: 'blp-r1', target: 100 });
    const game = simulateGame({ rules, seed: 1 });
    expect(game.record.rules).toEqual({ preset: 'blp-r1', target: 100 });
    expect(TEAMS.some((t) => game.state.teams[t].score >= 100) || game.state.reason === 'set-out').toBe(true);
  });
});

describe('randomHand', () => {
  it('given no renege asked for, then none is inserted', () => {
    const deck = deckFor(PRESETS['blp-r1']);
    for (let seed = 0; seed < 20; seed++) expect(randomHand({ deck, dealer: 'S', seed }).renege).toBeNull();
  });
});

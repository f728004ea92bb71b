/**
 * spades-game/1 records (docs/spec/game-record.md): a whole game with plays, reneges and a misdeal,
 * and every kind of record the scorer refuses, each with its one line.
 */
import { describe, expect, it } from 'vitest';
import { RecordError, scoreRecord } from '../engine/record.ts';
import { dealFor, dealNames, fullGameRecord, names, playOut, renegeOnce } from './record-builders.ts';

type Json = Record<string, unknown>;

function refusal(record: unknown): string {
  try {
    scoreRecord(record);
  } catch (error) {
    if (error instanceof RecordError) return error.message;
    throw error;
  }
  throw new Error('the record was accepted');
}

const record = (hands: unknown[], extra: Json = {}): Json => ({ format: 'spades-game/1', rules: 'unc-300', hands, ...extra });
const NS_53 = { bids: { N: 3, E: 2, S: 2, W: 2 }, tricks: { N: 4, E: 3, S: 4, W: 2 } };
// No overtricks, so repeating it never reaches a bag penalty.
const NS_80 = { bids: { N: 4, E: 3, S: 4, W: 2 }, tricks: { N: 4, E: 3, S: 4, W: 2 } };

describe('a whole game: plays, an upheld renege, a misdeal, a tricks-only nil hand, and the target', () => {
  const result = scoreRecord(fullGameRecord());

  it('hand 1: W reneged at trick 2 and it was upheld: EW lose 3 of their 10 tricks, NS get 30 flat', () => {
    // Plays give N 1, E 7, S 2, W 3. NS bid 4 and took 3: −40, +30 for the renege.
    // EW bid 6 and counted 7 of their 10: 61 and one bag.
    expect(result.hands[0]).toEqual({
      NS: { points: -10, score: 140, bags: 0, sets: 1 },
      EW: { points: 61, score: 211, bags: 1, sets: 0 },
      reneges: [{ seat: 'W', trick: 2 }],
      illegalLeads: [],
    });
  });
  it('hand 2: the misdeal scores nothing', () => {
    expect(result.hands[1]).toEqual({
      NS: { points: 0, score: 140, bags: 0, sets: 1 },
      EW: { points: 0, score: 211, bags: 1, sets: 0 },
      reneges: [],
      illegalLeads: [],
    });
  });
  it('hand 3: E redeals (unc-300: "same dealer redeals"); N made nil (+60), S bid 5 took 6 (51); EW bid 6 took 7 (61)', () => {
    expect(result.hands[2]!.NS).toEqual({ points: 111, score: 251, bags: 1, sets: 1 });
    expect(result.hands[2]!.EW).toEqual({ points: 61, score: 272, bags: 2, sets: 0 });
  });
  it('hand 4: S deals; NS bid 4 took 4, EW bid 8 took 9 and pass 300', () => {
    expect(result.hands[3]!.NS).toEqual({ points: 40, score: 291, bags: 1, sets: 1 });
    expect(result.hands[3]!.EW).toEqual({ points: 81, score: 353, bags: 3, sets: 0 });
    expect([result.winner, result.reason, result.final]).toEqual(['EW', 'target', { NS: 291, EW: 353 }]);
  });
  it('scoring the same record twice gives the same result', () => {
    expect(scoreRecord(fullGameRecord())).toEqual(result);
  });
  it('a denied renege claim leaves the hand scored on the plays as they fell', () => {
    const game = fullGameRecord();
    (game.hands[0] as Json).reneges = [{ seat: 'W', trick: 2, upheld: false }];
    const denied = scoreRecord(game).hands[0]!;
    expect([denied.NS.points, denied.EW.points]).toEqual([-40, 64]);
    expect(denied.reneges).toEqual([{ seat: 'W', trick: 2 }]);
  });
  it("a ruling stands where the plays show no renege: the penalty applies, and the plays' own findings are still reported", () => {
    const game = fullGameRecord();
    const ruled = { ...(game.hands[0] as Json), reneges: [{ seat: 'N', trick: 5, upheld: true }] };
    (game as Json).hands = [ruled];
    const hand = scoreRecord(game).hands[0]!;
    const unruled = scoreRecord({ ...game, hands: [{ ...ruled, reneges: [] }] }).hands[0]!;
    // unc: the reneging team (NS, already set here) loses 3 tricks; EW get 30 flat.
    expect(hand.EW.points).toBe(unruled.EW.points + 30);
    expect(hand.reneges).toEqual([{ seat: 'W', trick: 2 }]);
  });
});

describe('the spec example', () => {
  it("scores the first hand of game-record.md's example: NS 51 after a bag penalty, EW 70", () => {
    const result = scoreRecord({
      format: 'spades-game/1',
      rules: 'unc-300',
      seats: { N: 'Ana', E: 'Ben', S: 'Cy', W: 'Dee' },
      dealer: 'N',
      start: { NS: { score: 148, bags: 8, sets: 0 }, EW: { score: 90, bags: 0, sets: 1 } },
      timeCalled: 7,
      hands: [{ bids: { E: 3, S: 'nil', W: 4, N: 5 }, tricks: { N: 6, E: 3, S: 0, W: 4 } }],
    });
    expect(result).toEqual({
      hands: [
        {
          NS: { points: 51, score: 199, bags: 3, sets: 0 },
          EW: { points: 70, score: 160, bags: 0, sets: 1 },
          reneges: [],
          illegalLeads: [],
        },
      ],
      winner: null,
      reason: null,
      final: { NS: 199, EW: 160 },
    });
  });
});

describe('what the plays show', () => {
  it('reports an illegal lead whether or not anyone claimed it', () => {
    const deal = dealFor('unc-300', 'N', 3);
    const plays = names(playOut('unc-300', 'N', deal, renegeOnce('W', 2)));
    const result = scoreRecord(record([{ bids: { N: 2, E: 2, S: 2, W: 4 }, deal: dealNames(deal), plays }]));
    expect(result.hands[0]!.illegalLeads).toEqual([{ seat: 'W', trick: 2 }]);
    expect(result.hands[0]!.reneges).toEqual([]);
  });
  it('reads cards case-insensitively, with T for ten, and counts tricks that agree with the given ones', () => {
    const deal = dealFor('blp-r1', 'N', 11);
    const plays = names(playOut('blp-r1', 'N', deal)).map((t) => t.map((c) => c.replace('10', 'T').toLowerCase()));
    const plain = scoreRecord({ ...record([{ bids: NS_53.bids, plays }]), rules: 'blp-r1' });
    expect(plain.hands).toHaveLength(1);
  });
  it('a 6-4 hand under asher has neither tricks nor plays', () => {
    const result = scoreRecord({ ...record([{ bids: { N: 3, E: 2, S: 3, W: 2 } }]), rules: 'asher' });
    expect([result.hands[0]!.NS.points, result.hands[0]!.EW.points]).toEqual([60, 40]);
  });
  it('firstSeven without plays gives pitt-boss its bonus', () => {
    const result = scoreRecord({ ...record([{ ...NS_53, firstSeven: 'NS' }]), rules: 'pitt-boss' });
    expect(result.hands[0]!.NS.points).toBe(153);
  });
  it('timeCalled ends the game after that hand, on the higher score', () => {
    const result = scoreRecord(record([NS_80, NS_80], { timeCalled: 2 }));
    expect([result.winner, result.reason]).toEqual(['NS', 'time']);
  });
  it('a hand after time ended the game is refused', () => {
    expect(refusal(record([NS_80, NS_80, NS_80], { timeCalled: 2 }))).toBe('hand 3: the game was already won by NS (time) after hand 2');
  });
  it('rules may override a preset', () => {
    const result = scoreRecord(record([NS_53], { rules: { preset: 'unc-300', target: 50 } }));
    expect([result.winner, result.reason]).toEqual(['NS', 'target']);
  });
});

describe('records the scorer refuses, each with one line naming the hand', () => {
  const deal = dealFor('unc-300', 'N', 2);
  const plays = names(playOut('unc-300', 'N', deal));
  const cases: [string, unknown, string][] = [
    [
      'an unknown preset',
      record([NS_53], { rules: 'spades-9000' }),
      "rules: unknown preset 'spades-9000'; the presets are blp-r1, blp-r2, blp-final, unc-300, unc-500, pitt-boss, asher, tournament-spades, standard",
    ],
    ['a wrong format', { ...record([NS_53]), format: 'spades-game/2' }, 'format: expected "spades-game/1", got "spades-game/2"'],
    [
      'nil where there is none',
      { ...record([{ ...NS_53, bids: { N: 'nil', E: 2, S: 5, W: 2 } }]), rules: 'blp-r1' },
      'hand 1: N bid nil; there are no nil bids under blp-r1',
    ],
    ['a team under its minimum', record([{ ...NS_53, bids: { N: 3, E: 1, S: 3, W: 2 } }]), 'hand 1: EW bid 3 (E 1, W 2); the unc-300 team minimum is 4'],
    [
      'a blind bid by a team not far enough behind',
      { ...record([{ ...NS_53, bids: { N: 'blind 3', E: 2, S: 'blind 3', W: 2 } }], { start: { EW: { score: 99 } } }), rules: 'pitt-boss' },
      'hand 1: NS bid blind with NS down 99; the pitt-boss rules allow a blind bid only for a team down 100 or more',
    ],
    [
      'tricks that do not add up to 13',
      record([{ ...NS_53, tricks: { N: 4, E: 3, S: 4, W: 3 } }]),
      'hand 1: tricks add up to 14 (N 4, E 3, S 4, W 3); a hand has 13',
    ],
    [
      "a card not in the preset's deck (in the plays)",
      record([{ bids: NS_53.bids, plays: plays.map((t, i) => (i === 4 ? ['2H', ...t.slice(1)] : t)) }]),
      'hand 1: trick 5: 2H is not in the unc-300 deck',
    ],
    [
      'nil where rules changed from a preset have none: named as the event’s, never as an overridden preset',
      { ...record([{ ...NS_53, bids: { N: 'nil', E: 2, S: 5, W: 2 } }]), rules: { preset: 'blp-r1', target: 250 } },
      'hand 1: N bid nil; there are no nil bids under this event’s rules',
    ],
    [
      'a card not in the deck of rules changed from a preset',
      { ...record([{ bids: NS_53.bids, plays: plays.map((t, i) => (i === 4 ? ['2H', ...t.slice(1)] : t)) }]), rules: { preset: 'unc-300', target: 250 } },
      'hand 1: trick 5: 2H is not in this event’s deck',
    ],
    [
      "a card not in the preset's deck (in the deal)",
      record([{ bids: NS_53.bids, tricks: NS_53.tricks, deal: { ...dealNames(deal), E: ['2D', ...dealNames(deal).E.slice(1)] } }]),
      'hand 1: deal: E: 2D is not in the unc-300 deck',
    ],
    [
      'something that is not a card',
      record([{ bids: NS_53.bids, plays: plays.map((t, i) => (i === 0 ? ['ZZ', ...t.slice(1)] : t)) }]),
      'hand 1: trick 1: "ZZ" is not a card',
    ],
    [
      'a card played twice',
      record([{ bids: NS_53.bids, plays: plays.map((t, i) => (i === 6 ? [plays[0]![0]!, ...t.slice(1)] : t)) }]),
      `hand 1: trick 7: ${plays[0]![0]} was already played in trick 1`,
    ],
    [
      'a card played by a seat the deal did not give it to',
      record([{ bids: NS_53.bids, deal: { ...dealNames(deal), E: dealNames(deal).N, N: dealNames(deal).E }, plays }]),
      `hand 1: trick 1: E played ${plays[0]![0]}, which the deal gave to N`,
    ],
    [
      'plays and tricks that disagree',
      record([{ bids: NS_53.bids, plays, tricks: { N: 2, E: 3, S: 4, W: 4 } }]),
      'hand 1: tricks say N took 2, but the plays give N 1',
    ],
    [
      'a hand after the game was already won',
      record([NS_53, NS_53], { start: { NS: { score: 290 } } }),
      'hand 2: the game was already won by NS (target) after hand 1',
    ],
    [
      'a hand with 12 cards dealt to a seat',
      record([{ ...NS_53, deal: { ...dealNames(deal), S: dealNames(deal).S.slice(1) } }]),
      'hand 1: deal: S has 12 cards; each seat is dealt 13',
    ],
    [
      'a card dealt twice',
      record([{ ...NS_53, deal: { ...dealNames(deal), S: [dealNames(deal).N[0], ...dealNames(deal).S.slice(1)] } }]),
      `hand 1: deal: ${dealNames(deal).N[0]} is dealt to both N and S`,
    ],
    [
      'firstSeven with plays',
      record([{ bids: NS_53.bids, plays, firstSeven: 'NS' }]),
      'hand 1: firstSeven is given with plays; with plays the first 7 tricks are counted from them',
    ],
    [
      'a renege claim without its trick when plays are given',
      record([{ bids: NS_53.bids, plays, reneges: [{ seat: 'W', upheld: true }] }]),
      'hand 1: reneges[0]: the renege claim against W needs its trick, since the plays are given',
    ],
    [
      'a misdeal with other fields',
      record([{ misdeal: 'no-trumps', bids: NS_53.bids }]),
      "hand 1: a misdealt hand has only its reason (and dealer), but it also has 'bids'",
    ],
    ['a misdeal without a reason', record([{ misdeal: '' }]), 'hand 1: misdeal: expected the reason as a non-empty string, got ""'],
    ['a dealer out of rotation', record([NS_53, { ...NS_53, dealer: 'S' }]), "hand 2: S is recorded as dealer, but the deal is E's by the rotation"],
    ['a hand with neither tricks nor plays', record([{ bids: NS_53.bids }]), 'hand 1: the hand needs tricks or plays'],
    [
      'a bid that is not a bid',
      record([{ ...NS_53, bids: { ...NS_53.bids, W: 'blind' } }]),
      'hand 1: bids: W\'s bid "blind" is not a bid; a bid is 0–13, "nil", "blind nil" or "blind N"',
    ],
    ['a missing bid', record([{ ...NS_53, bids: { N: 3, E: 2, S: 2 } }]), 'hand 1: bids: W has no bid'],
    [
      'an unknown hand field',
      record([{ ...NS_53, trick: 3 }]),
      "hand 1: unknown field 'trick'; a hand has dealer, deal, bids, tricks, plays, firstSeven, reneges or misdeal",
    ],
    ['12 tricks of plays', record([{ bids: NS_53.bids, plays: plays.slice(1) }]), 'hand 1: plays: 12 tricks recorded; a hand has 13'],
    ['not an object', [1, 2], 'record: expected a JSON object, got a list'],
  ];
  for (const [what, input, message] of cases) {
    it(what, () => {
      expect(refusal(input)).toBe(message);
    });
  }
});

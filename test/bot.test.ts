import { describe, expect, it } from 'vitest';
import { type Card, type Seat, type Team, SEATS, TEAMS, cardName, parseCard, seatsOf, teamOf } from '../engine/cards.ts';
import { deckFor } from '../engine/deck.ts';
import { PRESETS, PRESET_IDS, type RuleOptions } from '../engine/presets.ts';
import { createRandom, dealFromSeed } from '../engine/random.ts';
import { type Bid, type Bids, bidValue, checkBids, parseBid } from '../engine/bid.ts';
import { type BotPlayInput, botBid, botBlindBeforeDeal, botPlay, nilDanger } from '../engine/bot.ts';
import { simulateHand } from '../engine/simulate.ts';
import { replayPlays } from '../engine/trick.ts';

function cards(text: string): Card[] {
  return text.split(/\s+/).map((name) => {
    const card = parseCard(name);
    if (card === null) throw new Error(`test hand: '${name}' is not a card`);
    return card;
  });
}

const NIL_HAND = cards('2S 3S 2H 4H 6H 8H 3D 5D 7D 9D 2C 4C 6C');
const STRONG_HAND = cards('AS KS QS JS 10S AH KH AD KD AC KC 2H 2D');
const MIDDLING_HAND = cards('AS 7S 4S KH 9H 5H QD 8D 3D JC 9C 6C 2C');

/** A bid or bids from the record's way of writing them. */
type Written = number | string;
function toBid(value: Written): Bid {
  const bid = parseBid(value);
  if (bid === null) throw new Error(`test bids: '${value}' is not a bid`);
  return bid;
}
function toBids(written: Partial<Record<Seat, Written>>): Bids {
  return Object.fromEntries(Object.entries(written).map(([seat, value]) => [seat, toBid(value!)])) as Bids;
}

/** The bot's bid for S, written as the record writes it. */
function bid(options: RuleOptions, hand: Card[], bids: Partial<Record<Seat, Written>> = {}, extra: { behind?: number; nil?: number; blind?: number } = {}) {
  return bidValue(
    botBid({
      options,
      seat: 'S',
      hand,
      bids: toBids(bids),
      behind: extra.behind ?? 0,
      random: createRandom(1),
      style: { nil: extra.nil ?? 1, blind: extra.blind ?? 1 },
    }),
  );
}

/**
 * What the rules table allows a team to bid, read here straight from the options so the bots
 * are held to the rules page rather than to their own arithmetic.
 */
function teamProblem(options: RuleOptions, team: Team, bids: Bids, behind: number): string | null {
  const [a, b] = seatsOf(team);
  const pair = [bidValue(bids[a]), bidValue(bids[b])];
  const nils = pair.filter((x) => x === 'nil' || x === 'blind nil').length;
  const blinds = pair.filter((x) => typeof x === 'string' && /^blind \d+$/.test(x)).length;
  for (const x of pair) {
    if (x === 'nil' && options.nil === null) return 'nil without nil';
    if (x === 'blind nil' && (options.blindNil === null || behind < options.blindNilDeficit)) return 'blind nil not allowed';
    if (typeof x === 'number' && !(Number.isInteger(x) && x >= 0 && x <= 13)) return `bid ${x} out of range`;
  }
  const tricks = pair.reduce<number>((sum, x) => sum + (typeof x === 'number' ? x : x.startsWith('blind ') && x !== 'blind nil' ? Number(x.slice(6)) : 0), 0);
  if (blinds === 1) return 'only one partner bid blind';
  if (blinds === 2) {
    const blind = options.blindBid;
    if (!blind) return 'blind bid without blind bids';
    if (blind.strict ? behind <= blind.deficit : behind < blind.deficit) return 'blind bid while not far enough behind';
    if (tricks < blind.minimumTeam) return 'blind bid under its minimum';
  }
  if (nils === 2) return null;
  if (tricks < options.teamMinimum) return `team bid ${tricks} under ${options.teamMinimum}`;
  if (tricks > options.teamMaximum) return `team bid ${tricks} over ${options.teamMaximum}`;
  return null;
}

describe('botBid', () => {
  const blp = PRESETS['blp-r1'];

  it('given a hand of top trumps and side aces and kings, then it bids far more than a hand with nothing', () => {
    const strong = bid(blp, STRONG_HAND, {}, { nil: 0 });
    const weak = bid(blp, NIL_HAND, {}, { nil: 0 });
    expect(typeof strong === 'number' && strong >= 8).toBe(true);
    expect(weak).toBe(0);
  });

  it('"the minimum bid per team is 4": given the partner bid 1 and a weak hand, then the second partner tops the team up to 4', () => {
    expect(bid(blp, NIL_HAND, { N: 1 })).toBe(3);
  });

  it('"maximum is 13": given the partner bid 11 and a strong hand, then the team stays at 13', () => {
    expect(bid(blp, STRONG_HAND, { N: 11 })).toBe(2);
  });

  it('"No Nil bids": given a hand fit for nil under blp, then it bids a number', () => {
    expect(typeof bid(blp, NIL_HAND)).toBe('number');
  });

  it('given a hand fit for nil under a preset with nil, then it bids nil; with a nil chance of 0 it does not', () => {
    expect(bid(PRESETS['tournament-spades'], NIL_HAND)).toBe('nil');
    expect(bid(PRESETS['tournament-spades'], NIL_HAND, {}, { nil: 0 })).toBe(0);
  });

  it('given a hand with an ace, then it does not bid nil', () => {
    expect(bid(PRESETS['pitt-boss'], MIDDLING_HAND)).not.toBe('nil');
  });

  it('"a nil bidder\'s partner bids ≥ 4": given the partner bid 2 under unc-300, then a nil-fit hand bids 2, not nil', () => {
    expect(bid(PRESETS['unc-300'], NIL_HAND, { N: 2 })).toBe(2);
  });

  it('given the partner bid nil under unc-300, then the bot carries the team minimum of 4 alone', () => {
    expect(bid(PRESETS['unc-300'], NIL_HAND, { N: 'nil' })).toBe(4);
    expect(bid(PRESETS['unc-300'], NIL_HAND, { N: 'blind nil' })).toBe(4);
  });

  it('"blind nil … only for a team down ≥ 100": under unc-300, down 100 bids blind nil, down 99 does not', () => {
    expect(bid(PRESETS['unc-300'], MIDDLING_HAND, {}, { behind: 100 })).toBe('blind nil');
    expect(bid(PRESETS['unc-300'], MIDDLING_HAND, {}, { behind: 99 })).not.toBe('blind nil');
  });

  it('"blind bid: team down ≥ 100, both partners bid blind, team total ≥ 6": said at the turn, both partners bid blind to 6', () => {
    const inTurn = { ...PRESETS['pitt-boss'], blindBidDeclared: 'in-turn' as const };
    const first = bid(inTurn, MIDDLING_HAND, {}, { behind: 100 });
    expect(first).toBe('blind 3');
    expect(bid(inTurn, MIDDLING_HAND, { N: 'blind 3' }, { behind: 100 })).toBe('blind 3');
    expect(bid(inTurn, MIDDLING_HAND, { N: 'blind 1' }, { behind: 100 })).toBe('blind 5');
  });

  it('"The team must declare this bid before the cards are dealt": under pitt-boss a bot declares with the deal, never at its turn', () => {
    expect(typeof bid(PRESETS['pitt-boss'], MIDDLING_HAND, {}, { behind: 100 })).toBe('number');
    const declared = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9].map((n) =>
      botBlindBeforeDeal(PRESETS['pitt-boss'], { NS: 0, EW: 100 }, createRandom(`d${n}`), { blind: 0.5 }),
    );
    expect(declared).toContainEqual({ N: 3, S: 3 });
    expect(declared).toContain(null);
    expect(botBlindBeforeDeal(PRESETS['pitt-boss'], { NS: 0, EW: 99 }, createRandom('d'), { blind: 1 })).toBeNull();
  });

  it('"team down > 100 (strictly)": under asher, down 100 bids in the open, down 101 bids blind', () => {
    expect(typeof bid(PRESETS.asher, MIDDLING_HAND, {}, { behind: 100 })).toBe('number');
    expect(bid(PRESETS.asher, MIDDLING_HAND, {}, { behind: 101 })).toBe('blind 2');
  });

  for (const id of PRESET_IDS) {
    it(`${id}: given many seeded deals and standings, then every pair of bids is one the rules allow`, () => {
      const options = PRESETS[id];
      const problems: string[] = [];
      let nils = 0;
      for (let seed = 0; seed < 400; seed++) {
        const behindNs = [0, 100, 101, 150][seed % 4]!;
        const behind = { NS: behindNs, EW: -behindNs };
        const hand = simulateHand({ options, dealer: SEATS[seed % 4]!, seed, behind, style: { blind: 0.5 } });
        for (const team of TEAMS) {
          const problem = teamProblem(options, team, hand.bids, behind[team]);
          if (problem) problems.push(`seed ${seed} ${team}: ${problem} (${JSON.stringify(hand.bids)})`);
        }
        // The bid checker records and the ledger use must agree with the rules page.
        const scores = { NS: 0, EW: behind.NS };
        try {
          checkBids(options, hand.bids, scores, id);
        } catch (error) {
          problems.push(`seed ${seed}: ${(error as Error).message}`);
        }
        nils += SEATS.filter((s) => hand.bids[s].kind === 'nil').length;
      }
      expect(problems).toEqual([]);
      if (options.nil !== null) expect(nils).toBeGreaterThan(0);
      else expect(nils).toBe(0);
    });
  }
});

describe('botPlay', () => {
  const options = PRESETS['blp-r1'];
  const deck = deckFor(options);
  const even = toBids({ N: 3, E: 3, S: 3, W: 3 });
  const none: Record<Seat, number> = { N: 0, E: 0, S: 0, W: 0 };

  function play(input: Partial<BotPlayInput> & { hand: Card[]; trick: Card[] }): string {
    const played = new Uint8Array(54);
    for (const c of input.trick) played[c] = 1;
    const card = botPlay({
      deck,
      options,
      seat: 'S',
      trumpsBroken: false,
      bids: even,
      taken: none,
      played,
      random: createRandom(5),
      ...input,
    });
    return cardName(card);
  }

  it('given the partner is winning the trick, then it follows low rather than overtake', () => {
    // N led K♥, E followed 3♥; S holds A♥.
    expect(play({ hand: cards('AH 5H 9C'), trick: cards('KH 3H') })).toBe('5H');
  });

  it('given an opponent is winning and the team still needs tricks, then it wins with the cheapest card that does', () => {
    // W led 10♥, N played 4♥, E played 8♥... S is last: J♥ is enough.
    expect(play({ hand: cards('AH QH JH 2H'), trick: cards('10H 4H 8H') })).toBe('JH');
  });

  it('given the trick cannot be won, then it follows with its lowest card', () => {
    expect(play({ hand: cards('KH 9H 4H'), trick: cards('AH 2H 3H') })).toBe('4H');
  });

  it('given the contract is made and the bag limit is near, then it ducks under with its highest losing card', () => {
    const taken = { N: 3, S: 2, E: 2, W: 2 };
    const bids = toBids({ N: 2, S: 2, E: 2, W: 1 });
    const trick = cards('5H 6H 9H');
    expect(play({ hand: cards('KH 8H 3H'), trick, taken, bids, bags: 8 })).toBe('8H');
    // Far from the limit and nobody left to set, it just follows low.
    expect(play({ hand: cards('KH 8H 3H'), trick, taken, bids, bags: 0 })).toBe('3H');
  });

  it('given trumps are not broken, then it leads a side suit even with the top trumps; once broken it leads the boss trump', () => {
    expect(play({ hand: cards('AS KS QS 4H'), trick: [] })).toBe('4H');
    expect(play({ hand: cards('AS KS QS 4H'), trick: [], trumpsBroken: true })).toBe('AS');
  });

  it('given the team needs tricks and holds the best card left in a suit, then it leads it', () => {
    expect(play({ hand: cards('AH 3H 5C 7D'), trick: [] })).toBe('AH');
  });

  it('given it bid nil, then it plays the highest card that still loses the trick', () => {
    const bids = toBids({ N: 4, E: 3, S: 'nil', W: 3 });
    expect(play({ hand: cards('JH 9H 2H'), trick: cards('10H'), seat: 'S', bids })).toBe('9H');
  });

  it('given the nil partner is winning, then it overtakes to cover the nil', () => {
    const bids = toBids({ N: 'nil', E: 3, S: 5, W: 3 });
    // W led 3♥, N (nil) is winning with 9♥, E played 5♥; S is last.
    expect(play({ hand: cards('KH 10H 2H'), trick: cards('3H 9H 5H'), bids })).toBe('10H');
  });

  it('given an opponent who bid nil is winning the trick, then it stays under to leave the nil broken', () => {
    // N led 2♥, E played 7♥.
    const trick = cards('2H 7H');
    const hand = cards('AH 8H 3H');
    expect(play({ hand, trick, bids: toBids({ N: 4, E: 'nil', S: 3, W: 5 }) })).toBe('3H');
    expect(play({ hand, trick, bids: toBids({ N: 4, E: 3, S: 3, W: 5 }) })).toBe('8H');
  });

  it('given a renege chance of 1 and a hand that can follow, then it plays off the led suit', () => {
    const card = botPlay({
      deck,
      options,
      seat: 'S',
      hand: cards('AH 5H 9C 4D'),
      trick: cards('KH 3H'),
      trumpsBroken: false,
      bids: even,
      taken: none,
      random: createRandom(5),
      style: { renege: 1 },
    });
    expect(cards('9C 4D')).toContain(card);
  });

  for (const id of PRESET_IDS) {
    it(`${id}: given many seeded hands, then bots play only legal cards`, () => {
      const opts = PRESETS[id];
      const d = deckFor(opts);
      for (let seed = 0; seed < 150; seed++) {
        const hand = simulateHand({ options: opts, dealer: SEATS[seed % 4]!, seed });
        if (hand.plays.length === 0) continue;
        const result = replayPlays(d, hand.dealer, hand.plays, hand.deal);
        expect(result.reneges, `seed ${seed}`).toEqual([]);
        expect(result.illegalLeads, `seed ${seed}`).toEqual([]);
      }
    });
  }

  it('given a renege chance, then some reneges happen, leads stay legal, and the same seed repeats them', () => {
    const opts = PRESETS['unc-300'];
    const d = deckFor(opts);
    let reneges = 0;
    for (let seed = 0; seed < 60; seed++) {
      const input = { options: opts, dealer: 'E' as Seat, seed, style: { renege: 0.05 } };
      const hand = simulateHand(input);
      expect(simulateHand(input)).toEqual(hand);
      const result = replayPlays(d, hand.dealer, hand.plays, hand.deal);
      reneges += result.reneges.length;
      expect(result.illegalLeads).toEqual([]);
    }
    expect(reneges).toBeGreaterThan(0);
  });
});

describe('the bots bid nil as people do', () => {
  /**
   * Every bid of `deals` seeded deals, bid round the table from East as the demo's bots bid them
   * (their own seeded Random per seat, the default style), with the bidding team `behind`.
   */
  function bidRound(options: RuleOptions, deals: number, behind: number, seed = 'nil-rates') {
    const deck = deckFor(options);
    const made: { bid: Bid; hand: Card[]; first: boolean }[] = [];
    for (let d = 0; d < deals; d++) {
      const deal = dealFromSeed(deck, `${seed}:${d}`, 'N');
      const bids: Partial<Record<Seat, Bid>> = {};
      for (const seat of ['E', 'S', 'W', 'N'] as const) {
        const first = bids[seatsOf(teamOf(seat)).find((s) => s !== seat)!] === undefined;
        const bid = botBid({ options, seat, hand: deal[seat], bids, behind, random: createRandom(`${seed}:${d}:${seat}`) });
        bids[seat] = bid;
        made.push({ bid, hand: deal[seat], first });
      }
    }
    return made;
  }
  const share = (made: { bid: Bid }[], kind: Bid['kind']) => made.filter((m) => m.bid.kind === kind).length / made.length;

  for (const id of PRESET_IDS) {
    const options = PRESETS[id];
    it(`${id}: over 2,000 seeded deals, ${options.nil === null ? 'no seat bids nil, as the rules have none' : 'about one hand in five to thirty holds a nil, each from a hand with no high trump'}`, () => {
      const made = bidRound(options, 2000, 0);
      if (options.nil === null) {
        expect(share(made, 'nil')).toBe(0);
      } else {
        // Per hand (four seats), a nil now and then: neither never nor every other hand.
        const perHand = share(made, 'nil') * 4;
        expect(perHand).toBeGreaterThan(1 / 30);
        expect(perHand).toBeLessThan(1 / 5);
        // A nil is bid only from a hand a player would nil: no trump above the eight lowest, and no ace with fewer than five beside it.
        const deck = deckFor(options);
        for (const { hand } of made.filter((m) => m.bid.kind === 'nil')) {
          expect(nilDanger(deck, hand)).toBeLessThanOrEqual(1);
        }
      }
      // Level, nobody bids blind nil.
      expect(share(made, 'blind-nil')).toBe(0);
    });
  }

  it('bid blind nil only where the rules allow it and the team is far behind, now and then, never every time', () => {
    for (const id of PRESET_IDS) {
      const options = PRESETS[id];
      const far = bidRound(options, 500, options.blindNilDeficit + 50);
      const near = bidRound(options, 500, options.blindNilDeficit - 1);
      expect(share(near, 'blind-nil'), id).toBe(0);
      if (options.blindNil === null) {
        expect(share(far, 'blind-nil'), id).toBe(0);
        continue;
      }
      // Only the first of a team to bid declares it, before looking at the cards.
      const firsts = far.filter((m) => m.first);
      const rate = share(firsts, 'blind-nil');
      expect(rate, id).toBeGreaterThan(0.05);
      expect(rate, id).toBeLessThan(0.4);
      expect(
        far.filter((m) => m.bid.kind === 'blind-nil' && !m.first),
        id,
      ).toEqual([]);
    }
  });

  it("bid nil a little more readily when the team is behind by a nil's worth", () => {
    const options = PRESETS['pitt-boss'];
    const level = share(bidRound(options, 2000, 0), 'nil');
    const behind = share(bidRound(options, 2000, options.nil!), 'nil');
    expect(behind).toBeGreaterThan(level);
  });

  it('bid the same from the same seed, and differently from another', () => {
    const options = PRESETS['unc-300'];
    const once = bidRound(options, 300, 150).map((m) => bidValue(m.bid));
    expect(bidRound(options, 300, 150).map((m) => bidValue(m.bid))).toEqual(once);
    expect(bidRound(options, 300, 150, 'another seed').map((m) => bidValue(m.bid))).not.toEqual(once);
  });
});

/**
 * The published JSON Schema of a `spades-game/1` record: current with the zod schema the scorer
 * reads records with, taking every record the project writes (the server's game export in every
 * rulebook format, the demo bots' games under every preset, the test records), and, through an
 * independent validator (ajv), refusing the malformed records the scorer refuses, while the
 * refusals that depend on the preset or the game so far stay the scorer's alone.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv2020 from 'ajv/dist/2020.js';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseBid } from '../engine/bid.ts';
import { parseCard } from '../engine/cards.ts';
import type { FormatId } from '../engine/formats.ts';
import { PRESETS, PRESET_IDS } from '../engine/presets.ts';
import { RecordError, scoreRecord } from '../engine/record.ts';
import { BID_TEXT_PATTERN, CARD_PATTERN, NATURAL_CARD_PATTERN, RULE_OPTION_NAMES } from '../engine/record-schema.ts';
import { RulesError, resolveRules } from '../engine/rules.ts';
import { ruleOption } from '../engine/rule-options.ts';
import { simulateGame } from '../engine/simulate.ts';
import { domainEvents } from '../events/event-catalogue.ts';
import { publishedSchemas } from '../events/event-catalogue-schema.ts';
import type { GameModel } from '../events/read-models.ts';
import { createApp } from '../server/app/app.ts';
import { type AuditLedger, playTournament, tempLedger } from './fixtures/audit-ledger.ts';
import { dealFor, dealNames, fullGameRecord, names, playOut } from './record-builders.ts';

type Json = Record<string, unknown>;

const FILE = 'spades-game-1.schema.json';
const published = readFileSync(join(import.meta.dirname, '..', 'docs', 'schemas', FILE), 'utf8');
const schema = JSON.parse(published) as Json;
const validate = new Ajv2020({ allErrors: false, strict: false }).compile(schema);

function refusal(record: unknown): string {
  try {
    scoreRecord(record);
  } catch (error) {
    if (error instanceof RecordError) return error.message;
    throw error;
  }
  return 'the record was accepted';
}

const record = (hands: unknown[], extra: Json = {}): Json => ({ format: 'spades-game/1', rules: 'unc-300', hands, ...extra });
const NS_53 = { bids: { N: 3, E: 2, S: 2, W: 2 }, tricks: { N: 4, E: 3, S: 4, W: 2 } };
const deal = dealFor('unc-300', 'N', 2);
const plays = names(playOut('unc-300', 'N', deal));

/**
 * The rulebooks' team formats, each played out by the bots and exported game by game.
 * tournament-spades seats individual players at progressive tables, which the ledger fixture
 * does not register; its preset's games are among the bots' games below.
 */
const FORMATS: FormatId[] = ['blp-2024', 'unc-intramural', 'pitt-boss', 'asher-theatre'];
const ledgers: AuditLedger[] = [];
const exported: { format: FormatId; gameId: string; record: Json }[] = [];
beforeAll(async () => {
  for (const format of FORMATS) {
    const l = tempLedger();
    ledgers.push(l);
    await playTournament(l.ledger, { format, teams: 4, renegeChance: 0.05, seed: `schema ${format}`, stopAt: 2500 });
    const { app } = createApp({ ledger: l.ledger });
    for (const game of Object.values(l.ledger.models.games) as GameModel[]) {
      const res = await app.request(`/games/${game.gameId}/record`);
      expect(res.status).toBe(200);
      exported.push({ format, gameId: game.gameId, record: (await res.json()) as Json });
    }
  }
}, 120_000);
afterAll(() => {
  for (const l of ledgers) l.remove();
});

function expectValid(what: string, value: unknown): void {
  const ok = validate(value);
  expect(ok, `${what}: ${JSON.stringify(validate.errors)}`).toBe(true);
}

describe('the game record schema', () => {
  it('is the file the schemas generate (npm run schemas writes it), draft 2020-12 with its $id and title', () => {
    expect(published).toBe(publishedSchemas(domainEvents)[FILE]);
    expect(schema.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
    expect(schema.$id).toMatch(/\/schemas\/spades-game-1\.schema\.json$/);
    expect(schema.title).toEqual(expect.stringContaining('spades-game/1'));
  });

  it('is served at /schemas/ as the same bytes', async () => {
    const { app } = createApp({ ledger: ledgers[0]!.ledger });
    const res = await app.request(`/schemas/${FILE}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/schema\+json/);
    expect(await res.text()).toBe(published);
  });
});

describe('records the project writes pass the schema', () => {
  it('every game the server exports, in tournaments of every team format', () => {
    const formats = new Set(exported.map((e) => e.format));
    expect([...formats].sort()).toEqual([...FORMATS].sort());
    const withPlays = exported.filter((e) => (e.record.hands as Json[]).some((h) => h.plays !== undefined));
    const withRulings = exported.filter((e) => (e.record.hands as Json[]).some((h) => h.reneges !== undefined));
    expect(exported.length).toBeGreaterThanOrEqual(15);
    expect(withPlays.length).toBeGreaterThan(0);
    expect(withRulings.length).toBeGreaterThan(0);
    for (const e of exported) {
      expectValid(`${e.format} ${e.gameId}`, e.record);
      // and the scorer reads it too
      expect(() => scoreRecord(e.record), `${e.format} ${e.gameId}`).not.toThrow();
    }
  });

  it("the demo bots' games under every preset (tournament-spades among them), and with a preset's options overridden", () => {
    const cases = PRESET_IDS.flatMap((preset) => [0, 1, 2].map((seed) => ({ rules: resolveRules(preset), seed: `${preset} ${seed}` })));
    cases.push({ rules: resolveRules({ preset: 'unc-300', target: 150, bagLimit: 5 }), seed: 'overridden' });
    for (const { rules, seed } of cases) {
      const game = simulateGame({ rules, seed, maxHands: 40 });
      expectValid(`${rules.name} ${seed}`, game.record);
      expect(scoreRecord(game.record).final).toEqual({ NS: game.state.teams.NS.score, EW: game.state.teams.EW.score });
    }
  });

  it("the test records: a whole game with a renege, a misdeal and a nil, and the spec's example", () => {
    expectValid('fullGameRecord', fullGameRecord());
    expectValid('spec example', {
      format: 'spades-game/1',
      rules: 'unc-300',
      seats: { N: 'Ana', E: 'Ben', S: 'Cy', W: 'Dee' },
      dealer: 'N',
      start: { NS: { score: 148, bags: 8, sets: 0 }, EW: { score: 90, bags: 0, sets: 1 } },
      timeCalled: 7,
      hands: [{ bids: { E: 3, S: 'nil', W: 4, N: 5 }, tricks: { N: 6, E: 3, S: 0, W: 4 } }, { misdeal: 'no-face-cards' }],
    });
    // Cards and bids as a person may type them: lower case, T for ten, spaces.
    const typed = names(playOut('blp-r1', 'N', dealFor('blp-r1', 'N', 11))).map((t) => t.map((c) => ` ${c.replace('10', 'T').toLowerCase()}`));
    const loose = { ...record([{ bids: { N: ' Blind  3 ', E: 'NIL', S: 'blind 3', W: 2 }, plays: typed }]), rules: 'blp-r1' };
    expectValid('typed cards and bids', loose);
  });
});

describe('a record the scorer refuses for its shape, ajv refuses too', () => {
  const cases: [string, unknown, string][] = [
    [
      'an unknown preset',
      record([NS_53], { rules: 'spades-9000' }),
      "rules: unknown preset 'spades-9000'; the presets are blp-r1, blp-r2, blp-final, unc-300, unc-500, pitt-boss, asher, tournament-spades, standard",
    ],
    [
      'an unknown rule option',
      record([NS_53], { rules: { preset: 'unc-300', bagLimt: 5 } }),
      "rules: 'bagLimt' is not a rule option; see the rule options at /help/rule-options (docs/rule-options.md)",
    ],
    [
      'a rule option with a bad value',
      record([NS_53], { rules: { preset: 'unc-300', target: 0 } }),
      'rules: Points to win a game must be a whole number 1 or more, or none (a game of a number of hands), got 0',
    ],
    ['a wrong format', { ...record([NS_53]), format: 'spades-game/2' }, 'format: expected "spades-game/1", got "spades-game/2"'],
    ['not an object', [1, 2], 'record: expected a JSON object, got a list'],
    [
      'an unknown record field',
      record([NS_53], { players: [] }),
      "record: unknown field 'players'; the fields are format, rules, seats, dealer, start, timeCalled, hands",
    ],
    ['a seat that is not a seat', record([NS_53], { seats: { X: 'Ana' } }), "seats: 'X' is not a seat; seats are N, E, S, W"],
    ['a negative bag count to start from', record([NS_53], { start: { NS: { bags: -1 } } }), 'start.NS.bags: expected a whole number 0 or more, got -1'],
    ['timeCalled 0', record([NS_53], { timeCalled: 0 }), 'timeCalled: expected the 1-based number of a hand, got 0'],
    ['no hands', { format: 'spades-game/1', rules: 'unc-300' }, 'hands: expected a list of hands, got nothing'],
    [
      'a hand with 12 cards dealt to a seat',
      record([{ ...NS_53, deal: { ...dealNames(deal), S: dealNames(deal).S.slice(1) } }]),
      'hand 1: deal: S has 12 cards; each seat is dealt 13',
    ],
    [
      'something that is not a card',
      record([{ bids: NS_53.bids, plays: plays.map((t, i) => (i === 0 ? ['ZZ', ...t.slice(1)] : t)) }]),
      'hand 1: trick 1: "ZZ" is not a card',
    ],
    [
      'a trick of 3 cards',
      record([{ bids: NS_53.bids, plays: plays.map((t, i) => (i === 3 ? t.slice(1) : t)) }]),
      'hand 1: plays: trick 4 has 3 cards; a trick has 4',
    ],
    ['12 tricks of plays', record([{ bids: NS_53.bids, plays: plays.slice(1) }]), 'hand 1: plays: 12 tricks recorded; a hand has 13'],
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
      'a ruling that is neither upheld nor not',
      record([{ ...NS_53, reneges: [{ seat: 'W', trick: 3, upheld: 'yes' }] }]),
      'hand 1: reneges[0]: upheld must be true or false, got "yes"',
    ],
    [
      'a misdeal with other fields',
      record([{ misdeal: 'no-trumps', bids: NS_53.bids }]),
      "hand 1: a misdealt hand has only its reason (and dealer), but it also has 'bids'",
    ],
    ['a misdeal without a reason', record([{ misdeal: '' }]), 'hand 1: misdeal: expected the reason as a non-empty string, got ""'],
    ["a hand's dealer that is not a seat", record([{ ...NS_53, dealer: 'X' }]), 'hand 1: dealer: "X" is not a seat; seats are N, E, S, W'],
    [
      'a bid that is not a bid',
      record([{ ...NS_53, bids: { ...NS_53.bids, W: 'blind' } }]),
      'hand 1: bids: W\'s bid "blind" is not a bid; a bid is 0–13, "nil", "blind nil" or "blind N"',
    ],
    [
      'a bid of 14',
      record([{ ...NS_53, bids: { ...NS_53.bids, N: 14 } }]),
      'hand 1: bids: N\'s bid 14 is not a bid; a bid is 0–13, "nil", "blind nil" or "blind N"',
    ],
    ['a missing bid', record([{ ...NS_53, bids: { N: 3, E: 2, S: 2 } }]), 'hand 1: bids: W has no bid'],
    ['a hand without bids', record([{ tricks: NS_53.tricks }]), 'hand 1: bids: missing; a played hand needs all four bids'],
    [
      'a seat that took 14 tricks',
      record([{ ...NS_53, tricks: { N: 14, E: 0, S: 0, W: 0 } }]),
      'hand 1: tricks: N has 14; each seat takes a whole number 0–13',
    ],
    [
      'an unknown hand field',
      record([{ ...NS_53, trick: 3 }]),
      "hand 1: unknown field 'trick'; a hand has dealer, deal, bids, tricks, plays, firstSeven, reneges or misdeal",
    ],
    ['a hand that is not an object', record([NS_53, 'pass']), 'hand 2: expected a hand object, got "pass"'],
  ];
  for (const [what, input, message] of cases) {
    it(what, () => {
      expect(validate(input), `ajv took ${what}`).toBe(false);
      expect(refusal(input)).toBe(message);
    });
  }
});

describe("what depends on the preset or the game so far is the scorer's to refuse; the schema takes the shape", () => {
  // game-record.md's list of invalid records, and the other refusals that need the rules or the
  // game: each is well-formed, so the schema takes it, and the scorer gives its one line.
  const cases: [string, unknown, string][] = [
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
      "a card not in the preset's deck",
      record([{ bids: NS_53.bids, plays: plays.map((t, i) => (i === 4 ? ['2H', ...t.slice(1)] : t)) }]),
      'hand 1: trick 5: 2H is not in the unc-300 deck',
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
      'a hand recorded after the game was already won',
      record([NS_53, NS_53], { start: { NS: { score: 290 } } }),
      'hand 2: the game was already won by NS (target) after hand 1',
    ],
    [
      'a card dealt twice',
      record([{ ...NS_53, deal: { ...dealNames(deal), S: [dealNames(deal).N[0], ...dealNames(deal).S.slice(1)] } }]),
      `hand 1: deal: ${dealNames(deal).N[0]} is dealt to both N and S`,
    ],
    ['a dealer out of rotation', record([NS_53, { ...NS_53, dealer: 'S' }]), "hand 2: S is recorded as dealer, but the deal is E's by the rotation"],
    ['a hand with neither tricks nor plays', record([{ bids: NS_53.bids }]), 'hand 1: the hand needs tricks or plays'],
    [
      'options that cannot make a game together',
      record([NS_53], { rules: { preset: 'unc-300', target: null, hands: null } }),
      'rules: a game needs points to win or a number of hands (Points to win a game and Hands in a game are both none)',
    ],
  ];
  for (const [what, input, message] of cases) {
    it(what, () => {
      expectValid(what, input);
      expect(refusal(input)).toBe(message);
    });
  }
});

describe("the schema's patterns read what the scorer reads", () => {
  // JSON Schema patterns are ECMA-262 with the u flag, as ajv compiles them.
  const card = new RegExp(CARD_PATTERN.source, 'u');
  const natural = new RegExp(NATURAL_CARD_PATTERN.source, 'u');
  const bidText = new RegExp(BID_TEXT_PATTERN.source, 'u');
  const cardish = fc.string({
    unit: fc.constantFrom(
      'A',
      'k',
      'Q',
      'j',
      't',
      'T',
      '1',
      '0',
      '2',
      '9',
      's',
      'S',
      'H',
      'd',
      'C',
      'B',
      'l',
      'J',
      'X',
      ' ',
      '\t',
      '\u017f',
      '\u00df',
      '♦',
      '♠',
      '♡',
      '♧',
    ),
    maxLength: 5,
  });
  const bidish = fc.string({ unit: fc.constantFrom('n', 'I', 'l', 'B', 'L', 'i', 'N', 'd', ' ', '\n', '0', '1', '3', '4', '9', 'x'), maxLength: 12 });

  it('a card name matches the card pattern exactly when parseCard reads it (natural cards: without the jokers)', () => {
    for (const name of ['AS', '10h', 'Td', ' 2c ', 'BJ', 'lj', 'A\u017f', '1S', 'T10', 'ZZ', '', '11S', 'AS AS']) {
      expect(card.test(name), name).toBe(parseCard(name) !== null);
    }
    fc.assert(
      fc.property(cardish, (name) => {
        expect(card.test(name), JSON.stringify(name)).toBe(parseCard(name) !== null);
        expect(natural.test(name), JSON.stringify(name)).toBe(parseCard(name) !== null && parseCard(name)! < 52);
      }),
      { numRuns: 3000 },
    );
  });

  it('a bid written as text matches the bid pattern exactly when parseBid reads it', () => {
    for (const text of ['nil', ' NIL ', 'blind nil', 'Blind  Nil', 'blind 0', 'blind 09', 'blind 13', 'blind 14', 'blind', 'blindnil', '5', 'blind 100']) {
      expect(bidText.test(text), text).toBe(parseBid(text) !== null);
    }
    fc.assert(
      fc.property(bidish, (text) => {
        expect(bidText.test(text), JSON.stringify(text)).toBe(parseBid(text) !== null);
      }),
      { numRuns: 3000 },
    );
  });
});

describe('rule options in the schema are the options resolveRules checks', () => {
  const optionsSchema = () => {
    const rules = (schema.properties as Json).rules as { anyOf: Json[] };
    return rules.anyOf.find((s) => s.type === 'object')!.properties as Json;
  };

  it('names every option of every preset, and takes each preset written out in full', () => {
    for (const id of PRESET_IDS) {
      expect([...RULE_OPTION_NAMES].sort()).toEqual(Object.keys(PRESETS[id]).sort());
      expect(Object.keys(optionsSchema()).sort()).toEqual(['preset', ...RULE_OPTION_NAMES].sort());
      const full = { preset: id, ...PRESETS[id] };
      expect(() => resolveRules(full)).not.toThrow();
      expectValid(`${id} in full`, record([], { rules: full }));
    }
  });

  it('an override the schema refuses is one resolveRules refuses, and one it takes, resolveRules takes (unless options clash)', () => {
    const value = fc.oneof(
      fc.constantFrom(
        null,
        true,
        false,
        0,
        1,
        13,
        14,
        -1,
        1.5,
        500,
        '',
        'x',
        'clockwise',
        'unc',
        'overtricks',
        'high-card',
        'next-dealer',
        [],
        ['2H'],
        ['BJ'],
        ['2♦'],
        ['x'],
        [''],
      ),
      fc.record({ deficit: fc.integer({ min: -1, max: 200 }), strict: fc.boolean(), minimumTeam: fc.integer({ min: 0, max: 14 }) }),
      fc.record({ from: fc.integer({ min: 0, max: 14 }), madeFloor: fc.nat(), madeBonus: fc.nat(), setPoints: fc.option(fc.nat()) }),
    );
    fc.assert(
      fc.property(fc.constantFrom(...RULE_OPTION_NAMES), value, (name, override) => {
        const rules = { preset: 'unc-300', [name]: override };
        let problem: string | null = null;
        try {
          resolveRules(rules);
        } catch (error) {
          if (!(error instanceof RulesError)) throw error;
          problem = error.message;
        }
        const label = ruleOption(name)!.label;
        const optionRefused = problem !== null && (problem.startsWith(`rules: ${label} must be`) || problem.startsWith(`rules: ${label}: `));
        expect(validate(record([], { rules })), `${name}: ${JSON.stringify(override)} (${problem})`).toBe(!optionRefused);
      }),
      { numRuns: 2000 },
    );
  });
});

/**
 * What an event is and which rules its games use, chosen apart: `format` names a structure
 * (single elimination, double elimination with or without only first-round losers, progressive
 * tables) and `rules` a standard game or a preset, the five rulebook events staying shorthands
 * for both; the create form offers the two choices from the one list of structures, in words.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatProblem } from '../engine/formats.ts';
import { resolveRules } from '../engine/rules.ts';
import { RULEBOOK_EVENTS, RULES_IDS, RULES_NAMES, STRUCTURES, StructureError, eventKindName, eventStart, structureOf } from '../engine/structures.ts';
import { type Fixture, copyOf, makeFixture, send } from './routes-fixture.ts';

let fixture: Fixture;
beforeAll(async () => {
  fixture = await makeFixture();
});
afterAll(() => fixture?.close());

const sheetLine = (html: string, key: string) =>
  [...html.matchAll(new RegExp(`<li data-rule="${key}"[^>]*>(?:<strong class="house-mark">House rule:</strong> )?([^<]*)</li>`, 'g'))].map((m) => m[1]!);

describe('a structure and its rules, chosen apart', () => {
  it('every structure with every rules choice makes an event that is that structure and plays those rules', () => {
    for (const structure of STRUCTURES) {
      for (const rules of RULES_IDS) {
        const start = eventStart(structure.id, rules);
        expect(formatProblem(start.options), `${structure.id} ${rules}`).toBeNull();
        expect(structureOf(start.options)?.id, `${structure.id} ${rules}`).toBe(structure.id);
        // A structure the house records as a rulebook's event (progressive tables) keeps that name.
        const kind = structure.recordedAs === 'custom' ? structure.name : RULEBOOK_EVENTS.find((r) => r.id === structure.recordedAs)!.name;
        expect(eventKindName(start.format, start.options)).toBe(kind);
        const played = resolveRules(start.options.rules);
        expect(played.preset).toBe(rules);
        for (const [key, value] of Object.entries(structure.game ?? {})) expect((played.options as unknown as Record<string, unknown>)[key]).toEqual(value);
        expect([start.options.firstRoundRules, start.options.finalRules]).toEqual([null, null]);
      }
      // Without `rules`, a standard game.
      expect(resolveRules(eventStart(structure.id, undefined).options.rules).preset).toBe('standard');
    }
  });

  it('keeps the five rulebook events as shorthands for both halves, and their rounds’ presets', () => {
    for (const rulebook of RULEBOOK_EVENTS) {
      const start = eventStart(rulebook.id, undefined);
      expect([start.format, start.rules, start.name]).toEqual([rulebook.id, 'rulebook', rulebook.name]);
      expect(structureOf(start.options)).toBeDefined();
    }
    expect(eventStart('unc-intramural', undefined).options.finalRules).toBe('unc-500');
    // A rulebook's structure with other rules: every round plays them.
    const other = eventStart('pitt-boss', 'unc-300').options;
    expect([other.elimination, other.gamesToWin, other.rules, other.finalRules]).toEqual(['first-round-losers', 2, 'unc-300', null]);
  });

  it('refuses a format or rules that is not a choice, naming the choices', () => {
    expect(() => eventStart('round-the-clock', 'standard')).toThrow(StructureError);
    expect(() => eventStart('round-the-clock', 'standard')).toThrow(
      /^format must be one of single-elimination, double-elimination, .*, not "round-the-clock"$/,
    );
    expect(() => eventStart('single-elimination', 'house')).toThrow(/^rules must be standard or one of the presets .*unc-300.*, not "house"$/);
  });

  it('names every rules choice in words', () => {
    for (const rules of RULES_IDS.filter((r) => r.includes('-'))) expect(RULES_NAMES[rules]).not.toContain(rules);
  });
});

describe('POST /director/tournaments with a structure and rules', () => {
  it('creates a single elimination for 8 teams playing UNC’s games to 300 in every round, the final too', async () => {
    const { app, ledger } = copyOf(fixture);
    const director = fixture.clients.director;
    const res = await send(app, director, 'POST', '/director/tournaments', {
      json: {
        tournamentId: 'block',
        name: 'Block Party',
        format: 'single-elimination',
        rules: 'unc-300',
        teams: 8,
        gamesToWin: 1,
        clockMinutes: 30,
        ruleOverrides: { bagLimit: 5 },
      },
    });
    expect(res.status).toBe(200);
    const t = ledger.models.tournaments.block!;
    expect(t.model.format).toBe('custom');
    expect(t.format).toMatchObject({ elimination: 'single', teams: 8, gamesToWin: 1, clockMinutes: 30, finalRules: null, firstRoundRules: null });
    expect(resolveRules(t.format.rules).options).toMatchObject({ target: 300, bagLimit: 5, jokers: true });
    const sheet = await (await app.request('/tournaments/block/rules')).text();
    expect(sheetLine(sheet, 'structure')).toEqual([
      'Single elimination: teams of two partners, seated across from each other; a team that loses a match is out. The event is made for 8 teams.',
    ]);
    expect(sheetLine(sheet, 'game').every((l) => l.startsWith('A game is won at 300 points'))).toBe(true);
    expect(sheet).not.toContain('unc-300');
    // The event's kind in words, on the director's pages and the public page, never an id.
    for (const page of [
      await (await send(app, director, 'GET', '/director/tournaments/block')).text(),
      await (await app.request('/tournaments/block')).text(),
      await (await app.request('/')).text(),
    ]) {
      expect(page).toContain('Single elimination');
      expect(page).not.toMatch(/single-elimination|\bcustom\b|unc-300/);
    }
    ledger.close();
  });

  it('creates both double eliminations and a progressive evening, each a standard game unless told', async () => {
    const { app, ledger } = copyOf(fixture);
    const director = fixture.clients.director;
    for (const [id, format, elimination] of [
      ['de', 'double-elimination', 'double'],
      ['frl', 'double-elimination-first-round-losers', 'first-round-losers'],
      ['prog', 'progressive', 'progressive'],
    ] as const) {
      const res = await send(app, director, 'POST', '/director/tournaments', { json: { tournamentId: id, name: `Night ${id}`, format } });
      expect(res.status, id).toBe(200);
      const t = ledger.models.tournaments[id]!;
      expect(t.format.elimination).toBe(elimination);
      const rules = resolveRules(t.format.rules);
      expect(rules.preset).toBe('standard');
      if (format === 'progressive') expect([rules.options.hands, rules.options.target, Boolean(t.progressive)]).toEqual([4, null, true]);
      else expect(rules.options.target).toBe(500);
    }
    ledger.close();
  });

  it('refuses an unknown structure or rules with the sentence, creating nothing', async () => {
    const { app, ledger } = copyOf(fixture);
    const director = fixture.clients.director;
    const bad = await send(app, director, 'POST', '/director/tournaments', { json: { tournamentId: 'x', name: 'X', format: 'round-the-clock' } });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: string }).error).toMatch(/^format must be one of single-elimination, /);
    const rules = await send(app, director, 'POST', '/director/tournaments', {
      json: { tournamentId: 'x', name: 'X', format: 'single-elimination', rules: 'house' },
    });
    expect(rules.status).toBe(400);
    expect(((await rules.json()) as { error: string }).error).toMatch(/^rules must be standard or one of the presets /);
    expect(ledger.models.tournaments.x).toBeUndefined();
    ledger.close();
  });

  it('offers the two choices on the create form from the one list, in words, and builds the rules of the pair chosen', async () => {
    const { app, ledger } = copyOf(fixture);
    const director = fixture.clients.director;
    const home = await (await send(app, director, 'GET', '/director')).text();
    const select = (name: string) => new RegExp(`<select name="${name}"[^>]*>([\\s\\S]*?)</select>`).exec(home)![1]!;
    const formats = [...select('format').matchAll(/<option value="([^"]*)"[^>]*>([^<]*)</g)].map((m) => [m[1], m[2]]);
    for (const s of STRUCTURES) expect(formats).toContainEqual([s.id, s.name]);
    for (const r of RULEBOOK_EVENTS) expect(formats.some(([v, words]) => v === r.id && words!.startsWith(r.name))).toBe(true);
    const rules = [...select('rules').matchAll(/<option value="([^"]*)"[^>]*>([^<]*)</g)].map((m) => m[2]!);
    // The first format offered is a structure: a standard game first, then every preset in words.
    expect(rules).toEqual(RULES_IDS.map((r) => RULES_NAMES[r]));
    // No id of a format or preset is read on the page, only sent.
    const text = home.replace(/<[^>]*>/g, ' ');
    for (const id of [...STRUCTURES.map((s) => s.id), ...RULEBOOK_EVENTS.map((r) => r.id), 'unc-300', 'blp-final'].filter((i) => i.includes('-')))
      expect(text, id).not.toContain(id);
    // The builder for single elimination on Asher's rules starts from Asher's values.
    const builder = await (
      await send(app, director, 'POST', '/director/rules-builder', {
        form: { format: 'single-elimination', rulesFormat: 'single-elimination', rules: 'asher' },
      })
    ).text();
    expect(builder).toMatch(/<input name="rule\.target" id="rule\.target" value="350"/);
    ledger.close();
  });
});

/**
 * The create form's rules builder as a director meets it: a round that plays a value of its own
 * (the UNC final to 500) shows its own field and follows what is typed there; an event starts
 * from a rulebook or from a standard game; a trump taken out of the deck is explained before it
 * is saved and refused when it is; a refused form comes back with every field as typed and the
 * problem beside its field.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Fixture, copyOf, makeFixture, send } from './routes-fixture.ts';

let fixture: Fixture;
beforeAll(async () => {
  fixture = await makeFixture();
});
afterAll(() => fixture?.close());

/** The fields a form holds as it is shown: inputs' values, selects' chosen options, textareas' text. */
function formFields(html: string): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const m of html.matchAll(/<input ([^>]*)>/g)) {
    const name = /name="([^"]+)"/.exec(m[1]!)?.[1];
    // A box not ticked sends nothing.
    if (/type="checkbox"/.test(m[1]!) && !/ checked/.test(m[1]!)) continue;
    if (name) fields[name] = /value="([^"]*)"/.exec(m[1]!)?.[1] ?? '';
  }
  for (const m of html.matchAll(/<select name="([^"]+)"[^>]*>([\s\S]*?)<\/select>/g))
    fields[m[1]!] = /<option value="([^"]*)" selected/.exec(m[2]!)?.[1] ?? /<option value="([^"]*)"/.exec(m[2]!)![1]!;
  for (const m of html.matchAll(/<textarea name="([^"]+)"[^>]*>([^<]*)<\/textarea>/g)) fields[m[1]!] = m[2]!;
  return fields;
}

const sheetText = (html: string) =>
  [...html.matchAll(/<li data-rule="game"[^>]*>(?:<strong class="house-mark">House rule:<\/strong> )?([^<]*)<\/li>/g)].map((m) => m[1]);

describe('the rules builder', () => {
  it('shows the final’s own value beside the one every other round plays, and the final follows what is typed there', async () => {
    const { app, ledger } = copyOf(fixture);
    const director = fixture.clients.director;
    const builder = await (await send(app, director, 'POST', '/director/rules-builder', { form: { format: 'unc-intramural' } })).text();
    const fields = formFields(builder);
    expect(fields['rule.target']).toBe('300');
    expect(fields['rule.target@final']).toBe('500');
    expect(builder).toContain('<label for="rule.target@final">in the final</label>');
    // A rule the final plays as the other rounds do has one field only.
    expect(fields['rule.jokers']).toBe('true');
    expect(fields['rule.jokers@final']).toBeUndefined();
    const preview = await (
      await send(app, director, 'POST', '/director/rules-preview', { form: { format: 'unc-intramural', ...fields, 'rule.target@final': '300' } })
    ).text();
    expect(sheetText(preview).join(' ')).not.toContain('500');
    const created = await send(app, director, 'POST', '/director/tournaments', {
      form: { tournamentId: 'flyer', name: 'Block Party', format: 'unc-intramural', ...fields, 'rule.target@final': '300' },
    });
    expect(created.status).toBe(303);
    const sheet = await (await app.request('/tournaments/flyer/rules')).text();
    expect(sheetText(sheet).every((line) => line!.startsWith('A game is won at 300 points'))).toBe(true);
    expect(sheetText(sheet)).toHaveLength(2);
    // The sheet says first what the event is: its structure and its teams.
    expect(sheet).toContain(
      '<li data-rule="structure">Single elimination: teams of two partners, seated across from each other; a team that loses a match is out.</li>',
    );
    ledger.close();
  });

  it('starts from a standard game, the rulebook’s extras undone in one choice, in every round', async () => {
    const { app, ledger } = copyOf(fixture);
    const director = fixture.clients.director;
    const builder = await (
      await send(app, director, 'POST', '/director/rules-builder', { form: { format: 'unc-intramural', rulesFormat: 'unc-intramural', rules: 'standard' } })
    ).text();
    const fields = formFields(builder);
    expect(fields).toMatchObject({
      rules: 'standard',
      'rule.target': '500',
      'rule.jokers': 'false',
      'rule.removed': 'none',
      'rule.nil': '100',
      'rule.renegePenalty': 'transfer',
      'rule.overtricks': 'point-and-bag',
      'rule.blindNil': 'none',
      'rule.misdealReasons': 'checks',
      'rule.misdealReasons.wrong-card-count': 'on',
    });
    expect(fields['rule.misdealReasons.no-trumps']).toBeUndefined();
    expect(fields['rule.target@final']).toBeUndefined();
    const created = await send(app, director, 'POST', '/director/tournaments', {
      form: { tournamentId: 'plain', name: 'Plain Spades', format: 'unc-intramural', ...fields, 'rule.target': '300' },
    });
    expect(created.status).toBe(303);
    const sheet = await (await app.request('/tournaments/plain/rules')).text();
    expect(sheet).toContain('The deck is the standard 52 cards, without jokers.');
    expect(sheet).toContain('Blind nil may not be bid.');
    expect(sheetText(sheet).every((line) => line!.startsWith('A game is won at 300 points'))).toBe(true);
    // The same from the API: `rules: 'standard'`.
    const api = await send(app, director, 'POST', '/director/tournaments', {
      json: { tournamentId: 'plain-api', name: 'Plain API', format: 'unc-intramural', rules: 'standard' },
    });
    expect(api.status).toBe(200);
    expect(await (await app.request('/tournaments/plain-api/rules')).text()).toContain('The deck is the standard 52 cards, without jokers.');
    ledger.close();
  });

  it('asks “Game to ___ points, or ___ minutes” together, the final with its own where it has one, and a clock set once holds in the final', async () => {
    const { app, ledger } = copyOf(fixture);
    const director = fixture.clients.director;
    const unc = await (await send(app, director, 'POST', '/director/rules-builder', { form: { format: 'unc-intramural' } })).text();
    expect(unc).toContain('<label for="rule.target">Game to</label>');
    expect(formFields(unc)).toMatchObject({ 'rule.target': '300', clockMinutes: '30', 'rule.target@final': '500', finalClockMinutes: '45' });
    // A single elimination with no clock of the final's own: the final's field is empty, and follows the others.
    const single = await (await send(app, director, 'POST', '/director/rules-builder', { form: { format: 'single-elimination' } })).text();
    const fields = formFields(single);
    expect([fields.clockMinutes, fields.finalClockMinutes]).toEqual(['none', '']);
    const created = await send(app, director, 'POST', '/director/tournaments', {
      form: { tournamentId: 'clocked', name: 'Clocked', format: 'single-elimination', ...fields, 'rule.target': '300', clockMinutes: '30' },
    });
    expect(created.status).toBe(303);
    const sheet = await (await app.request('/tournaments/clocked/rules')).text();
    expect(sheetText(sheet)).toEqual([
      'A game is won at 300 points, or by the team ahead when 30 minutes are called (the hand in progress is played out); if both teams reach 300 on the same hand, the higher score wins, and a tie plays one more hand.',
    ]);
    ledger.close();
  });

  it('explains a deuce both promoted and taken out before it is saved, and refuses to save it', async () => {
    const { app, ledger } = copyOf(fixture);
    const director = fixture.clients.director;
    const fields = formFields(await (await send(app, director, 'POST', '/director/rules-builder', { form: { format: 'unc-intramural' } })).text());
    const flyer = { ...fields, 'rule.promoted': '2D 2S', 'rule.promoted@final': '2D 2S' };
    const preview = await (await send(app, director, 'POST', '/director/rules-preview', { form: { format: 'unc-intramural', ...flyer } })).text();
    const said = '2♦ is both taken out of the deck (Cards taken out) and ranked as a trump (Trumps above the ace of spades); take it out of one of the two';
    expect(preview).toContain(said);
    const refused = await send(app, director, 'POST', '/director/tournaments', {
      form: { tournamentId: 'flyer', name: 'Block Party', format: 'unc-intramural', ...flyer },
    });
    expect(refused.status).toBe(400);
    expect(await refused.text()).toContain(said);
    expect(ledger.models.tournaments.flyer).toBeUndefined();
    ledger.close();
  });

  it('gives a refused form back with every field as typed, and the problem beside its field', async () => {
    const { app, ledger } = copyOf(fixture);
    const director = fixture.clients.director;
    const fields = formFields(await (await send(app, director, 'POST', '/director/rules-builder', { form: { format: 'asher-theatre' } })).text());
    const typed = {
      ...fields,
      tournamentId: 'flyer',
      name: 'Block Party',
      format: 'asher-theatre',
      gamesToWin: '1',
      clockMinutes: '30',
      ruleOverrides: 'renegePoints = 0',
      'rule.target': '300',
      'rule.jokers': 'true',
      'rule.blindBid': 'yes',
      'rule.blindBid.deficit': 'lots',
    };
    const refused = await send(app, director, 'POST', '/director/tournaments', { form: typed }, { 'hx-request': 'true' });
    expect(refused.status).toBe(400);
    const html = await refused.text();
    const shown = formFields(html);
    for (const [name, value] of Object.entries(typed)) if (name !== '_csrf') expect(shown[name], name).toBe(value);
    // The problem, in words, beside the field it is about.
    expect(html).toMatch(/<input name="rule\.blindBid\.deficit" id="rule\.blindBid\.deficit" value="lots"/);
    expect(html).toContain('data-problem="rule.blindBid">Blind bids, “only when behind by”: a whole number 0 or more is needed, not &quot;lots&quot;</p>');
    expect(ledger.models.tournaments.flyer).toBeUndefined();
    ledger.close();
  });
});

describe('an entry fee on any event', () => {
  it('a rulebook that names none may still charge: the desk’s fee column, the paid button and the sign-up page follow it', async () => {
    const { app, ledger } = copyOf(fixture);
    const director = fixture.clients.director;
    const created = await send(app, director, 'POST', '/director/tournaments', {
      json: { tournamentId: 'fees', name: 'Fee Night', format: 'unc-intramural', entryFee: 20, earlyFee: 15, earlyUntil: '2026-02-20' },
    });
    expect(created.status).toBe(200);
    expect(ledger.models.tournaments.fees!.format.fees).toEqual({ early: 15, late: 20, deadline: '2026-02-20' });
    for (const [name, on] of [
      ['Early Birds', '2026-02-10'],
      ['Late Owls', '2026-02-25'],
    ] as const) {
      expect(
        (
          await send(app, director, 'POST', '/director/tournaments/fees/teams', {
            json: { name, player1: `${name} A`, player2: `${name} B`, registeredOn: on },
          })
        ).status,
      ).toBe(200);
    }
    const desk = await (await send(app, director, 'GET', '/director/tournaments/fees')).text();
    expect(desk).toContain('<th scope="col">Fee</th>');
    expect(desk).toContain('Paid $15');
    expect(desk).toContain('Paid $20');
    const one = await send(app, director, 'POST', '/director/tournaments', {
      json: { tournamentId: 'one-price', name: 'One Price', format: 'asher-theatre', entryFee: 25 },
    });
    expect(one.status).toBe(200);
    expect(ledger.models.tournaments['one-price']!.format.fees).toMatchObject({ early: 25, late: 25 });
    ledger.close();
  });

  it('an early price without its last day is refused, saying what to give', async () => {
    const { app, ledger } = copyOf(fixture);
    const res = await send(app, fixture.clients.director, 'POST', '/director/tournaments', {
      json: { tournamentId: 'fees', name: 'Fee Night', format: 'unc-intramural', entryFee: 20, earlyFee: 15 },
    });
    expect([res.status, ((await res.json()) as { error: string }).error]).toEqual([
      400,
      'an early price needs the day it ends, and a day needs the early price; give both or neither',
    ]);
    expect(ledger.models.tournaments.fees).toBeUndefined();
    ledger.close();
  });
});

/**
 * The director's desk through HTTP: nothing starts by mistake. A start waits for check-in (or
 * withdraws the absent in its own decision when the director says so), shows the draw before
 * anything is recorded and records exactly the draw it showed; a withdrawal asks once; seeding
 * is by seed numbers, moved rows or pasted names; each format is described on the create form;
 * a single-elimination event never speaks of a winners' bracket.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Ledger } from '../events/store/sqlite/ledger.ts';
import { checkInTeam, createTournament, registerPlayer, registerTeam } from '../server/commands/tournament-commands.ts';
import { type Fixture, copyOf, makeFixture, send } from './routes-fixture.ts';
import { eventsOf } from './tournament-ledger.ts';
import { htmlText } from './fixtures/html.ts';

let fixture: Fixture;
beforeAll(async () => {
  fixture = await makeFixture();
});
afterAll(() => fixture?.close());

const AT = '2026-03-01T10:00:00.000Z';
const NAMES = ['Aces', 'Kings', 'Queens', 'Jacks', 'Tens', 'Nines', 'Eights', 'Sevens'];

type App = ReturnType<typeof copyOf>['app'];

function eventWith(ledger: Ledger, id: string, format: string, count: number, checkedIn: number): void {
  ledger.execute(createTournament(ledger.models, { tournamentId: id, name: `${id} day`, format: format as never }));
  NAMES.slice(0, count).forEach((name, i) => {
    ledger.execute(registerTeam(ledger.models, { tournamentId: id, teamId: `t${i + 1}`, name, players: [`${name} One`, `${name} Two`] }));
  });
  for (let i = 0; i < checkedIn; i++) ledger.execute(checkInTeam(ledger.models, { tournamentId: id, teamId: `t${i + 1}`, at: AT }));
}

/** The hidden fields of the form whose button carries `data-action="<action>"`. */
function formFields(html: string, action: string): Record<string, string> {
  const end = html.indexOf(`data-action="${action}"`);
  expect(end, `no ${action} button`).toBeGreaterThan(0);
  const start = html.lastIndexOf('<form', end);
  const form = html.slice(start, end);
  const out: Record<string, string> = {};
  for (const m of form.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)"/g)) out[m[1]!] = htmlText(m[2]!);
  delete out._csrf;
  return out;
}

const post = (app: App, path: string, form: Record<string, string>, hx = false) =>
  send(app, fixture.clients.director, 'POST', path, { form }, hx ? { 'hx-request': 'true' } : {});

describe('check-in gates the start', () => {
  it('refuses a start with 0 of 8 checked in, naming every team, and records nothing', async () => {
    const { app, ledger } = copyOf(fixture);
    eventWith(ledger, 'd1', 'unc-intramural', 8, 0);
    const before = ledger.models.position;
    const res = await post(app, '/director/tournaments/d1/start', {});
    expect(res.status).toBe(409);
    const text = htmlText(await res.text());
    expect(text).toContain('0 of 8 checked in');
    for (const name of NAMES) expect(text).toContain(name);
    // Asked to confirm without a preview, it is still refused: the gate is in the command.
    expect((await post(app, '/director/tournaments/d1/start', { confirm: 'yes' })).status).toBe(409);
    expect(ledger.models.position).toBe(before);
    expect(ledger.models.tournaments.d1!.model.status).toBe('registration');
    ledger.close();
  });

  it('starting without the absent withdraws them in the same decision as the start, as the preview said', async () => {
    const { app, ledger } = copyOf(fixture);
    eventWith(ledger, 'd2', 'unc-intramural', 8, 6);
    const before = ledger.models.position;
    const asked = await post(app, '/director/tournaments/d2/start', { withdrawAbsent: 'yes' });
    expect(asked.status).toBe(200);
    const html = htmlText(await asked.text());
    expect(html).toContain('Record this draw and start?');
    expect(html).toMatch(/withdrawn by this start: Eights, Sevens/);
    expect(ledger.models.position).toBe(before);

    const confirmed = await post(app, '/director/tournaments/d2/start', formFields(html, 'confirm-start'));
    expect(confirmed.status).toBe(303);
    const recorded = ledger.store.readAll().slice(-3);
    expect(recorded.map((e) => e.type)).toEqual(['TeamWithdrawn', 'TeamWithdrawn', 'TournamentStarted']);
    expect(ledger.models.tournaments.d2!.withdrawn).toEqual(['t7', 't8']);
    expect((eventsOf(ledger, 'TournamentStarted').at(-1)!.seeds as string[]).sort()).toEqual(['t1', 't2', 't3', 't4', 't5', 't6']);
    ledger.close();
  });
});

describe('a preview of the draw, then the confirmation', () => {
  it('shows the seeds and round 1 with its byes, records nothing, and the confirmation records that very draw', async () => {
    const { app, ledger } = copyOf(fixture);
    eventWith(ledger, 'd3', 'unc-intramural', 6, 6);
    const before = ledger.models.position;
    const asked = await post(app, '/director/tournaments/d3/start', {}, true);
    expect(asked.status).toBe(200);
    const html = htmlText(await asked.text());
    expect(html).toMatch(/^<section id="director-panel"/);
    const seeds = /data-seeds="([^"]+)"/.exec(html)![1]!.split(',');
    expect(seeds.sort()).toEqual(['t1', 't2', 't3', 't4', 't5', 't6']);
    const shown = [...html.matchAll(/<li data-match="?[^>]*>([^<]+)</g)].map((m) => m[1]);
    // Six teams in a bracket of eight: the top two seeds have byes.
    expect(shown.filter((s) => s!.endsWith('has a bye'))).toHaveLength(2);
    expect(ledger.models.position).toBe(before);
    expect(ledger.models.tournaments.d3!.model.status).toBe('registration');

    const fields = formFields(html, 'confirm-start');
    expect(fields.confirm).toBe('yes');
    expect(fields.seed).toMatch(/^d3:/);
    const confirmed = await post(app, '/director/tournaments/d3/start', fields, true);
    expect(confirmed.status).toBe(200);
    const started = eventsOf(ledger, 'TournamentStarted').at(-1)!;
    expect((started.seeds as string[]).join(',')).toBe(fields.expect);
    expect(started.seeding).toEqual({ method: 'random', seed: fields.seed });
    // Round 1 on the director's list is the round 1 the preview showed.
    const t = ledger.models.tournaments.d3!.model;
    const name = (id: string | null) => t.teams.find((x) => x.teamId === id)?.name;
    const drawn = t.matches
      .filter((m) => m.round === 1 && m.side === 'winners')
      .map((m) =>
        m.teams.includes(null) || m.status === 'bye'
          ? `${m.label}: ${m.teams.filter(Boolean).map(name).join('')} has a bye`
          : `${m.label}: ${name(m.teams[0])} vs ${name(m.teams[1])}`,
      );
    expect(drawn).toEqual(shown);
    ledger.close();
  });

  it('refuses a confirmation whose draw is no longer the one previewed, and records nothing', async () => {
    const { app, ledger } = copyOf(fixture);
    eventWith(ledger, 'd4', 'unc-intramural', 6, 5);
    const html = htmlText(await (await post(app, '/director/tournaments/d4/start', { withdrawAbsent: 'yes' })).text());
    const fields = formFields(html, 'confirm-start');
    // The absent team arrives after the preview: the draw would now include it.
    ledger.execute(checkInTeam(ledger.models, { tournamentId: 'd4', teamId: 't6', at: AT }));
    const before = ledger.models.position;
    const res = await post(app, '/director/tournaments/d4/start', fields);
    expect(res.status).toBe(409);
    expect(htmlText(await res.text())).toContain('no longer the one previewed');
    expect(ledger.models.position).toBe(before);
    ledger.close();
  });

  it('previews a progressive evening’s first seating, and records it as shown', async () => {
    const { app, ledger } = copyOf(fixture);
    ledger.execute(createTournament(ledger.models, { tournamentId: 'p1', name: 'Evening', format: 'tournament-spades' }));
    const players = ['Ann', 'Bea', 'Cy', 'Dot', 'Eve', 'Fay', 'Gus', 'Hal', 'Ida'];
    players.forEach((name, i) => ledger.execute(registerPlayer(ledger.models, { tournamentId: 'p1', playerId: `p${i + 1}`, name })));
    players.forEach((_, i) => ledger.execute(checkInTeam(ledger.models, { tournamentId: 'p1', teamId: `p${i + 1}`, at: AT })));
    const before = ledger.models.position;
    const html = htmlText(await (await post(app, '/director/tournaments/p1/start', { seed: 'evening' })).text());
    expect(html).toContain('Record this seating and start?');
    const tables = [...html.matchAll(/<li data-table="(\d+)">([^<]+)</g)].map((m) => m[2]!.replace(/\s+/g, ' ').trim());
    expect(tables).toHaveLength(2);
    expect(html).toMatch(/Sitting out round 1: \w+\./);
    expect(ledger.models.position).toBe(before);
    await post(app, '/director/tournaments/p1/start', formFields(html, 'confirm-start'));
    const seating = ledger.models.tournaments.p1!.progressive!.nextSeating!;
    const name = (id: string) => players[Number(id.slice(1)) - 1];
    expect(seating.map((t) => `Table ${t.table}: ${[t.seats.N, t.seats.E, t.seats.S, t.seats.W].map(name).join(', ')}`)).toEqual(tables);
    ledger.close();
  });
});

describe('withdraw asks once', () => {
  it('a form without confirm=yes asks and records nothing; confirm=yes withdraws', async () => {
    const { app, ledger } = copyOf(fixture);
    eventWith(ledger, 'd5', 'unc-intramural', 4, 0);
    const page = await (await send(app, fixture.clients.director, 'GET', '/director/tournaments/d5')).text();
    expect(formFields(page, 'preview-draw')).not.toHaveProperty('confirm');
    const before = ledger.models.position;
    const asked = await post(app, '/director/tournaments/d5/withdraw', { teamId: 't2' }, true);
    expect(asked.status).toBe(200);
    const html = htmlText(await asked.text());
    expect(html).toContain('Withdraw Kings?');
    expect(ledger.models.position).toBe(before);
    expect(ledger.models.tournaments.d5!.withdrawn).toEqual([]);
    const done = await post(app, '/director/tournaments/d5/withdraw', formFields(html, 'confirm-withdraw'), true);
    expect(done.status).toBe(200);
    expect(ledger.models.tournaments.d5!.withdrawn).toEqual(['t2']);
    // Asking again for one already withdrawn is refused with its sentence, before any question.
    const again = await post(app, '/director/tournaments/d5/withdraw', { teamId: 't2' }, true);
    expect(again.status).toBe(409);
    expect(htmlText(await again.text())).toContain("'Kings' has already withdrawn");
    ledger.close();
  });
});

describe('seeding without typing ids', () => {
  it('records the order of seed numbers typed beside the names, and of rows moved up and down in the preview', async () => {
    const { app, ledger } = copyOf(fixture);
    eventWith(ledger, 'd6', 'unc-intramural', 4, 4);
    const numbers = { 'seedOf-t1': '3', 'seedOf-t2': '1', 'seedOf-t3': '4', 'seedOf-t4': '2' };
    const html = htmlText(await (await post(app, '/director/tournaments/d6/start', numbers)).text());
    expect(/data-seeds="([^"]+)"/.exec(html)![1]).toBe('t2,t4,t1,t3');
    // Aces (seed 3) moved up a row: a new preview, nothing recorded.
    const up = formFields(html.slice(html.indexOf('data-team="t1"')), 'seed-up');
    const moved = htmlText(await (await post(app, '/director/tournaments/d6/start', up)).text());
    expect(/data-seeds="([^"]+)"/.exec(moved)![1]).toBe('t2,t1,t4,t3');
    expect(ledger.models.tournaments.d6!.model.status).toBe('registration');
    await post(app, '/director/tournaments/d6/start', formFields(moved, 'confirm-start'));
    const started = eventsOf(ledger, 'TournamentStarted').at(-1)!;
    expect([started.seeds, started.seeding]).toEqual([['t2', 't1', 't4', 't3'], { method: 'manual' }]);
    ledger.close();
  });

  it('takes a pasted list of names, and refuses a name nobody registered or a seed given twice', async () => {
    const { app, ledger } = copyOf(fixture);
    eventWith(ledger, 'd7', 'unc-intramural', 4, 4);
    const html = htmlText(await (await post(app, '/director/tournaments/d7/start', { order: 'jacks\nQueens\nKings\nAces' })).text());
    expect(/data-seeds="([^"]+)"/.exec(html)![1]).toBe('t4,t3,t2,t1');
    const unknown = await post(app, '/director/tournaments/d7/start', { order: 'Jacks\nJokers\nKings\nAces' });
    expect(unknown.status).toBe(400);
    expect(htmlText(await unknown.text())).toContain("seeding, line 2: 'Jokers' is not the name or id of an entrant still registered");
    const twice = await post(app, '/director/tournaments/d7/start', { 'seedOf-t1': '1', 'seedOf-t2': '1' });
    expect(twice.status).toBe(400);
    expect(htmlText(await twice.text())).toContain('seed 1 is given to Aces and Kings; each seed once');
    expect(ledger.models.tournaments.d7!.model.status).toBe('registration');
    ledger.close();
  });
});

describe('words that fit the format', () => {
  it('describes each format in a sentence on the create form', async () => {
    const { app, ledger } = copyOf(fixture);
    // Read as the page reads, each name in bold before its sentence.
    const html = htmlText(await (await send(app, fixture.clients.director, 'GET', '/director')).text()).replace(/<[^>]+>/g, '');
    expect(html).toContain('UNC intramural: single elimination of one-game matches to 300');
    expect(html).toContain('Pitt Boss: 16 teams');
    expect(html).toContain('BLP 2024: double elimination drawn round by round');
    expect(html).toContain('Asher Theatre: 64 seeded teams, single elimination');
    expect(html).toContain('Tournament Spades: players register one by one');
    // And each structure, for an event chosen apart from its rules.
    expect(html).toContain('Double elimination for first-round losers only: Teams of two; a team that loses its first match plays on');
    ledger.close();
  });

  it('never labels a team of a single-elimination event as in a winners’ bracket', async () => {
    const { app, ledger } = copyOf(fixture);
    eventWith(ledger, 'd8', 'unc-intramural', 8, 8);
    const html = htmlText(await (await post(app, '/director/tournaments/d8/start', { seed: 's' })).text());
    await post(app, '/director/tournaments/d8/start', formFields(html, 'confirm-start'));
    const page = await (await send(app, fixture.clients.director, 'GET', '/director/tournaments/d8')).text();
    expect(page).toContain('Playing round 1');
    expect(page).not.toMatch(/Winners(’|&#39;|')? bracket/i);
    ledger.close();
  });
});

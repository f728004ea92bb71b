/**
 * The sign-up's cap and its waitlist held the same way at every way in: the desk asks before it
 * registers past a full cap, the public page and the desk count the same places, and the start
 * gives the places of teams not there to the waitlisted who are, and tells the rest.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Ledger } from '../events/store/sqlite/ledger.ts';
import { createTournament } from '../server/commands/tournament-commands.ts';
import { closingWords } from '../events/time-words.ts';
import { type Fixture, copyOf, makeFixture, send } from './routes-fixture.ts';
import { applyEvent, emptyModels } from '../events/projections.ts';
import { projected } from '../events/store/served-ledger.ts';
import { replayProblem } from '../server/commands/replay-check.ts';
import { htmlText } from './fixtures/html.ts';

/** Every row of the ledger is one a live command would have recorded at its point. */
function expectReplays(ledger: Ledger): void {
  const models = emptyModels();
  for (const row of ledger.store.readAll({})) {
    expect(
      replayProblem(models, { stream: row.stream, type: row.type, payload: row.payload as Record<string, unknown> }),
      `${row.position} ${row.type}`,
    ).toBeNull();
    applyEvent(models, projected(row));
  }
}

let fixture: Fixture;
beforeAll(async () => {
  fixture = await makeFixture();
});
afterAll(() => fixture?.close());

type App = ReturnType<typeof copyOf>['app'];
const director = () => fixture.clients.director;
const json = async (res: Response) => (await res.json()) as Record<string, any>;

function api(app: App, address: string, method: string, path: string, body?: unknown): Promise<Response> {
  const init: RequestInit = { method, headers: body !== undefined ? { 'content-type': 'application/json' } : { accept: 'application/json' } };
  if (body !== undefined) init.body = JSON.stringify(body);
  return Promise.resolve(app.request(path, init, { incoming: { socket: { remoteAddress: address } } }));
}
const html = (app: App, path: string) =>
  Promise.resolve(app.request(path, { headers: { accept: 'text/html' } }))
    .then((r) => r.text())
    .then(unescape);

async function openEvent(app: App, ledger: Ledger, id: string, body: Record<string, unknown>) {
  ledger.execute(createTournament(ledger.models, { tournamentId: id, name: `${id} night`, format: 'pitt-boss' }));
  const res = await send(app, director(), 'POST', `/director/tournaments/${id}/sign-up`, { json: body });
  expect(res.status, await res.clone().text()).toBe(200);
  return json(res);
}

describe('the cap binds every way in', () => {
  it('asks the desk before it registers past a full cap, and the public page and the desk then count the same places', async () => {
    const { app, ledger } = copyOf(fixture);
    const opened = await openEvent(app, ledger, 'cap', { open: true, cap: 2, closes: '2026-03-02T13:00:00Z' });
    // The desk's notice says the closing time in words.
    expect(opened.done).toBe(`Sign-up is open for 2 entrants until ${closingWords('2026-03-02T13:00:00Z')}.`);
    const desk = (body: Record<string, string>) => send(app, director(), 'POST', '/director/tournaments/cap/teams', { json: body });
    expect((await desk({ name: 'One', player1: 'A1', player2: 'B1' })).status).toBe(200);
    expect((await api(app, '10.4.0.1', 'POST', '/tournaments/cap/sign-up', { name: 'Two', player1: 'A2', player2: 'B2' })).status).toBe(200);

    // Full: the API hears the question, and nothing is recorded.
    const before = ledger.models.position;
    const full = await desk({ name: 'Three', player1: 'A3', player2: 'B3' });
    expect([full.status, (await json(full)).error]).toEqual([
      409,
      "cap night is full: 2 of 2 places are taken. Raise the cap to 3 to give 'Three' a place, or put 'Three' on the waitlist",
    ]);
    expect(ledger.models.position).toBe(before);

    // The desk's form asks it, with both answers carrying what was typed.
    const asked = htmlText(
      await (await send(app, director(), 'POST', '/director/tournaments/cap/teams', { form: { name: 'Three', player1: 'A3', player2: 'B3' } })).text(),
    );
    expect(asked).toContain('The event is full: register Three?');
    expect(asked).toContain('Raise the cap to 3 and register Three');
    expect(asked).toContain('Put Three on the waitlist, number 1');
    expect(ledger.models.position).toBe(before);

    // Raising the cap is recorded, and the public page words the new cap.
    const raised = await desk({ name: 'Three', player1: 'A3', player2: 'B3', overCap: 'raise' });
    expect((await json(raised)).done).toBe('Registered Three (A3 & B3). The cap is now 3.');
    const waitlisted = await desk({ name: 'Four', player1: 'A4', player2: 'B4', overCap: 'waitlist' });
    expect((await json(waitlisted)).done).toBe('Put Four (A4 & B4) on the waitlist.');
    const publicState = await json(await api(app, '10.4.0.2', 'GET', '/tournaments/cap/sign-up'));
    expect(publicState).toMatchObject({ cap: 3, registered: ['one', 'two', 'three'], waitlist: ['four'] });
    expect(await html(app, '/tournaments/cap/sign-up')).toContain('3 of 3 places taken: you join the waitlist (1 waiting)');
    const deskView = htmlText(await (await send(app, director(), 'GET', '/director/tournaments/cap')).text());
    expect(deskView).toContain('3 of 3 places taken');
    expect(deskView).not.toContain('2026-03-02T13:00');
    expectReplays(ledger);
    ledger.close();
  });

  it('asks the same of a progressive evening’s desk, and takes its answer', async () => {
    const { app, ledger } = copyOf(fixture);
    ledger.execute(createTournament(ledger.models, { tournamentId: 'eve', name: 'Eve', format: 'tournament-spades' }));
    expect((await send(app, director(), 'POST', '/director/tournaments/eve/sign-up', { json: { open: true, cap: 2 } })).status).toBe(200);
    const desk = (body: Record<string, string>) => send(app, director(), 'POST', '/director/tournaments/eve/players', { json: body });
    for (const name of ['Ann Lee', 'Bo Kim']) expect((await desk({ name })).status).toBe(200);
    const full = await desk({ name: 'Cy Dee' });
    expect([full.status, (await json(full)).error]).toEqual([
      409,
      "Eve is full: 2 of 2 places are taken. Raise the cap to 3 to give 'Cy Dee' a place, or put 'Cy Dee' on the waitlist",
    ]);
    const asked = htmlText(await (await send(app, director(), 'POST', '/director/tournaments/eve/players', { form: { name: 'Cy Dee' } })).text());
    expect(asked).toContain('Put Cy Dee on the waitlist, number 1');
    expect((await json(await desk({ name: 'Cy Dee', overCap: 'waitlist' }))).done).toBe('Put Cy Dee on the waitlist.');
    expect((await json(await api(app, '10.6.0.1', 'GET', '/tournaments/eve/sign-up'))).waitlist).toEqual(['cy-dee']);
    expectReplays(ledger);
    ledger.close();
  });

  it('says who takes a withdrawn team’s place, by name, and that a team gone from the waitlist has already left it', async () => {
    const { app, ledger } = copyOf(fixture);
    await openEvent(app, ledger, 'cap', { open: true, cap: 2 });
    for (const name of ['Alpha', 'Bravo', 'Charlie', 'Delta'])
      expect((await api(app, '10.4.1.1', 'POST', '/tournaments/cap/sign-up', { name, player1: `${name} 1`, player2: `${name} 2` })).status).toBe(200);
    const asked = htmlText(await (await send(app, director(), 'POST', '/director/tournaments/cap/withdraw', { form: { teamId: 'alpha' } })).text());
    expect(asked).toContain('Charlie, first on the waitlist, takes its place.');
    const out = await send(app, director(), 'POST', '/director/tournaments/cap/withdraw', { json: { teamId: 'alpha' } });
    expect((await json(out)).done).toBe('Team Alpha withdrew. Charlie takes the place from the waitlist.');
    const left = await send(app, director(), 'POST', '/director/tournaments/cap/withdraw', { json: { teamId: 'delta' } });
    expect((await json(left)).done).toBe('Team Delta withdrew.');
    const again = await send(app, director(), 'POST', '/director/tournaments/cap/withdraw', { json: { teamId: 'delta' } });
    expect([again.status, (await json(again)).error]).toEqual([409, "'Delta' has already left the waitlist"]);
    ledger.close();
  });
});

describe('fees at the desk', () => {
  it('charges a pasted line without a date the fee of the day it is recorded, and asks nothing of a withdrawn team', async () => {
    const { app, ledger } = copyOf(fixture);
    ledger.execute(createTournament(ledger.models, { tournamentId: 'blp', name: 'BLP', format: 'blp-2024' }));
    const lines = 'Early Birds, Ann, Bob, 2024-09-10\nWalk Ins, Cy, Di';
    const pasted = await send(app, director(), 'POST', '/director/tournaments/blp/teams/bulk', { json: { lines, confirm: 'yes' } });
    expect((await json(pasted)).entrants.map((e: { name: string; fee: number; registeredOn: string }) => [e.name, e.fee, e.registeredOn])).toEqual([
      ['Early Birds', 30, '2024-09-10'],
      ['Walk Ins', 40, '2026-03-01'],
    ]);
    expect((await send(app, director(), 'POST', '/director/tournaments/blp/withdraw', { json: { teamId: 'walk-ins' } })).status).toBe(200);
    const deskView = htmlText(await (await send(app, director(), 'GET', '/director/tournaments/blp')).text());
    expect(deskView).toContain('$40, nothing owed');
    expect(deskView).not.toContain('$40 owed');
    ledger.close();
  });
});

describe('undoing at the desk', () => {
  it('takes back a payment and a check-in recorded by mistake with compensating events, the ledger keeping both', async () => {
    const { app, ledger } = copyOf(fixture);
    ledger.execute(createTournament(ledger.models, { tournamentId: 'blp', name: 'BLP', format: 'blp-2024' }));
    await send(app, director(), 'POST', '/director/tournaments/blp/teams/bulk', { json: { lines: 'Early Birds, Ann, Bob, 2024-09-10', confirm: 'yes' } });
    expect((await send(app, director(), 'POST', '/director/tournaments/blp/teams/early-birds/paid', { json: {} })).status).toBe(200);
    expect((await send(app, director(), 'POST', '/director/tournaments/blp/check-in', { json: { teamId: 'early-birds' } })).status).toBe(200);
    const deskBefore = htmlText(await (await send(app, director(), 'GET', '/director/tournaments/blp')).text());
    expect(deskBefore).toContain('data-action="unpaid"');
    expect(deskBefore).toContain('data-action="undo-check-in"');
    const before = ledger.models.position;
    const unpaid = await send(app, director(), 'POST', '/director/tournaments/blp/teams/early-birds/unpaid', { json: {} });
    expect((await json(unpaid)).done).toBe('Took back the $30 recorded as paid by Early Birds.');
    const undone = await send(app, director(), 'POST', '/director/tournaments/blp/teams/early-birds/check-in/undo', { json: {} });
    expect((await json(undone)).done).toBe('Early Birds is no longer checked in.');
    expect(ledger.store.readAll({ after: before }).map((e) => e.type)).toEqual(['FeePaymentUndone', 'CheckInUndone']);
    expect(ledger.models.tournaments.blp!.registration.fees['early-birds']).toEqual({ fee: 30, paid: 0 });
    expect(ledger.models.tournaments.blp!.checkedIn).toEqual([]);
    const deskAfter = htmlText(await (await send(app, director(), 'GET', '/director/tournaments/blp')).text());
    expect(deskAfter).toContain('$30, $30 owed');
    // Nothing more to take back: said in words.
    const again = await send(app, director(), 'POST', '/director/tournaments/blp/teams/early-birds/unpaid', { json: {} });
    expect([again.status, (await json(again)).error]).toEqual([409, "'Early Birds' has no payment recorded to take back"]);
    const twice = await send(app, director(), 'POST', '/director/tournaments/blp/teams/early-birds/check-in/undo', { json: {} });
    expect([twice.status, (await json(twice)).error]).toEqual([409, "'Early Birds' is not checked in"]);
    expectReplays(ledger);
    ledger.close();
  });
});

describe('the start decides the waitlist', () => {
  it('gives the places of teams not checked in to the waitlisted who are, in order, and tells the rest on their pages', async () => {
    const { app, ledger } = copyOf(fixture);
    await openEvent(app, ledger, 'go', { open: true, cap: 4 });
    const signed: Record<string, { code: string; page: string }> = {};
    for (const name of ['Ace', 'Bee', 'Cee', 'Dee', 'Wait One', 'Wait Two', 'Wait Three']) {
      const res = await json(await api(app, '10.5.0.1', 'POST', '/tournaments/go/sign-up', { name, player1: `${name} A`, player2: `${name} B` }));
      signed[res.teamId] = { code: res.code, page: res.page };
    }
    expect(Object.keys(signed)).toEqual(['ace', 'bee', 'cee', 'dee', 'wait-one', 'wait-two', 'wait-three']);
    // A waitlisted team's page before the start offers "We're here", and says what it is for.
    const waitingPage = await html(app, signed['wait-two']!.page);
    expect(waitingPage).toContain('on the waitlist, number 2');
    expect(waitingPage).toContain('freed places go to the waitlisted who are checked in, in order');
    expect(waitingPage).toContain(`action="${signed['wait-two']!.page}/check-in"`);
    for (const id of ['ace', 'bee', 'wait-two', 'wait-three']) {
      expect((await api(app, '10.5.0.2', 'POST', `${signed[id]!.page}/check-in`, { code: signed[id]!.code })).status).toBe(200);
    }
    // Unasked, the start names who is missing and who would take their places.
    const refused = await send(app, director(), 'POST', '/director/tournaments/go/start', { json: { seed: 's' } });
    expect([refused.status, (await json(refused)).error]).toEqual([
      409,
      'tournament go: Cee, Dee have not checked in (2 of 4 checked in); check them in, or start without them and they are withdrawn, and Wait Two, Wait Three from the waitlist take the places',
    ]);
    const before = ledger.models.position;
    const started = await send(app, director(), 'POST', '/director/tournaments/go/start', { json: { seed: 's', withdrawAbsent: true } });
    expect(started.status, await started.clone().text()).toBe(200);
    expect((await json(started)).done).toContain('Withdrew 2 not checked in. From the waitlist: Wait Two, Wait Three.');
    expect(ledger.store.readAll({ after: before }).map((e) => [e.type, (e.payload as { teamId?: string }).teamId ?? null])).toEqual([
      ['TeamWithdrawn', 'cee'],
      ['TeamWithdrawn', 'dee'],
      ['WaitlistPromoted', 'wait-two'],
      ['WaitlistPromoted', 'wait-three'],
      ['TournamentStarted', null],
    ]);
    const seeds = (ledger.store.readAll({ after: before }).at(-1)!.payload as { seeds: string[] }).seeds;
    expect([...seeds].sort()).toEqual(['ace', 'bee', 'wait-three', 'wait-two']);
    // The promoted team's page is a team's page; the one left waiting is told plainly.
    expect(await html(app, signed['wait-two']!.page)).toContain('id="team-status"');
    const left = await html(app, signed['wait-one']!.page);
    expect(left).toContain('Wait One: no place this time');
    expect(left).toContain('go night has started without you');
    expect(left).not.toContain('may get a place');
    expect(left).not.toContain('check-in');
    // Brought in whole, every row is one the commands would record: the check-ins of the waitlisted and the start's promotions too.
    expectReplays(ledger);
    ledger.close();
  });
});

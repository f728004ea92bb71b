/**
 * Registration at scale through the routes: a pasted list previewed, refused while any line has
 * a problem and recorded whole in one decision; public sign-up with a cap, a waitlist, a closing
 * time and the start; a team checking itself in from its page with its code; fees by the
 * rulebook's dates, paid, totalled, and required by the start when the director asks.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Ledger } from '../events/store/sqlite/ledger.ts';
import { LedgerUnavailableError } from '../events/store/append.ts';
import { createTournament } from '../server/commands/tournament-commands.ts';
import { type Fixture, copyOf, makeFixture, send } from './routes-fixture.ts';
import { eventsOf, expectRebuildEqualsLive } from './tournament-ledger.ts';
import { applyEvent, emptyModels } from '../events/projections.ts';
import { projected } from '../events/store/served-ledger.ts';
import { replayProblem } from '../server/commands/replay-check.ts';
import { SIGN_UPS_PER_TEN_MINUTES } from '../server/auth/rate-limits.ts';
import { closingWords } from '../events/time-words.ts';
import { htmlText } from './fixtures/html.ts';

let fixture: Fixture;
beforeAll(async () => {
  fixture = await makeFixture();
});
afterAll(() => fixture?.close());

type App = ReturnType<typeof copyOf>['app'];

const director = () => fixture.clients.director;
const json = async (res: Response) => (await res.json()) as Record<string, any>;

/** A request from a phone at `address`, as the per-address limits count it. */
function from(app: App, address: string, method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Response> {
  const init: RequestInit = {
    method,
    headers: { ...(body !== undefined ? { 'content-type': 'application/json' } : { accept: 'application/json' }), ...headers },
  };
  if (body !== undefined) init.body = JSON.stringify(body);
  return Promise.resolve(app.request(path, init, { incoming: { socket: { remoteAddress: address } } }));
}

function create(ledger: Ledger, id: string, format: 'blp-2024' | 'pitt-boss' | 'tournament-spades'): void {
  ledger.execute(createTournament(ledger.models, { tournamentId: id, name: `${id} day`, format }));
}

/** 64 teams, the first 40 registered by BLP's Sept 12th deadline, the rest after it. */
function paste(): string[] {
  return Array.from({ length: 64 }, (_, i) => `Team ${i + 1}, Player ${i + 1}a, Player ${i + 1}b, 2024-09-${i < 40 ? '10' : '13'}`);
}

describe('bulk entry with a preview', () => {
  it('names each bad line, records nothing until they are fixed, then all 64 in one decision, and nothing the second time', async () => {
    const { app, ledger } = copyOf(fixture);
    create(ledger, 'blp', 'blp-2024');
    const good = paste();
    const bad = [...good];
    bad[4] = 'Team 5, Player 5a,';
    bad[19] = 'Team 20, Player 20a, Player 20b, Sept 13';
    bad[39] = 'Team 2, Player 40a, Player 40b';
    const path = '/director/tournaments/blp/teams/bulk';
    const before = ledger.models.position;

    const preview = await send(app, director(), 'POST', path, { json: { lines: bad.join('\n') } });
    expect(preview.status).toBe(200);
    const shown = await json(preview);
    expect(shown.problems.map((p: { line: number; field: string }) => [p.line, p.field])).toEqual([
      [5, 'player2'],
      [20, 'registeredOn'],
      [40, 'name'],
    ]);
    expect(shown.problems[2].problem).toBe("'Team 2' is given twice in this paste (first on line 2)");
    expect(shown.entrants).toHaveLength(61);
    expect(shown.recorded).toBe(0);
    expect(ledger.models.position).toBe(before);

    const refused = await send(app, director(), 'POST', path, { json: { lines: bad.join('\n'), confirm: 'yes' } });
    expect(refused.status).toBe(400);
    const refusal = await json(refused);
    expect(refusal.error).toContain('3 problems in the paste, so nothing was recorded: line 5, player 2: is missing');
    expect(refusal.problems).toHaveLength(3);
    expect(ledger.models.position).toBe(before);
    expect(eventsOf(ledger, 'TeamRegistered').filter((e) => e.tournamentId === 'blp')).toEqual([]);

    // The director's page names each problem by line and field, and offers no confirmation.
    const page = htmlText(await (await send(app, director(), 'POST', path, { form: { lines: bad.join('\n') } })).text());
    expect(page).toContain("Line 20, date registered: must be a day such as 2024-09-12, not 'Sept 13'");
    expect(page).not.toContain('data-action="confirm-bulk"');

    // The desk's preview of the fixed paste carries the very lines to its confirmation.
    const fixedPage = await (await send(app, director(), 'POST', path, { form: { lines: good.join('\n') } })).text();
    expect(fixedPage).toContain('Yes, register these 64');
    const carried = /<input type="hidden" name="lines" value="([^"]*)"/.exec(fixedPage)![1]!.replace(/&#10;/g, '\n');
    expect(htmlText(carried)).toBe(good.join('\n'));
    expect(ledger.models.position).toBe(before);

    const recorded = await send(app, director(), 'POST', path, { form: { lines: htmlText(carried), confirm: 'yes' } });
    expect(recorded.status).toBe(200);
    expect(await recorded.text()).toContain('Registered 64 entrants in one decision.');
    const events = ledger.store.readAll({ after: before, limit: 100 });
    expect(events).toHaveLength(64);
    // One decision: one append of every entrant, on the tournament's stream, in order.
    expect(events.map((e) => e.position)).toEqual(Array.from({ length: 64 }, (_, i) => before + 1 + i));
    expect(new Set(events.map((e) => String(e.meta.at))).size).toBe(1);
    const registered = eventsOf(ledger, 'TeamRegistered').filter((e) => e.tournamentId === 'blp');
    expect(registered.map((e) => e.fee)).toEqual([...Array(40).fill(30), ...Array(24).fill(40)]);
    expect(registered[0]).toMatchObject({ teamId: 'team-1', name: 'Team 1', players: ['Player 1a', 'Player 1b'], registeredOn: '2024-09-10' });

    const again = await send(app, director(), 'POST', path, { json: { lines: good.join('\n'), confirm: 'yes' } });
    expect(again.status).toBe(200);
    const second = await json(again);
    expect([second.recorded, second.already.length]).toEqual([0, 64]);
    expect(ledger.models.position).toBe(before + 64);
    ledger.close();
  });

  it('takes a progressive evening’s names with a prize category, and a CSV file upload', async () => {
    const { app, ledger } = copyOf(fixture);
    create(ledger, 'eve', 'tournament-spades');
    const form = new FormData();
    form.set('_csrf', director().csrf);
    form.set('confirm', 'yes');
    form.set('file', new Blob(['name,category\nAnn,female\nBob,male\nCy,\nDee,other\n'], { type: 'text/csv' }), 'players.csv');
    const refused = await Promise.resolve(
      app.request('/director/tournaments/eve/players/bulk', { method: 'POST', headers: { cookie: director().cookie }, body: form }),
    );
    expect(refused.status).toBe(400);
    expect(htmlText(await refused.text())).toContain("Line 5, prize category: must be male or female (for the high male / high female prizes), not 'other'");
    expect(ledger.models.tournaments.eve!.model.teams).toEqual([]);
    const ok = await send(app, director(), 'POST', '/director/tournaments/eve/players/bulk', { json: { lines: 'Ann, female\nBob, male\nCy', confirm: 'yes' } });
    expect((await json(ok)).recorded).toBe(3);
    expect(
      eventsOf(ledger, 'PlayerRegistered')
        .filter((e) => e.tournamentId === 'eve')
        .map((e) => [e.name, e.gender]),
    ).toEqual([
      ['Ann', 'female'],
      ['Bob', 'male'],
      ['Cy', undefined],
    ]);
    ledger.close();
  });
});

describe('public sign-up', () => {
  async function openSignUp(app: App, id: string, body: Record<string, unknown>) {
    const res = await send(app, director(), 'POST', `/director/tournaments/${id}/sign-up`, { json: body });
    expect(res.status, await res.clone().text()).toBe(200);
  }

  it('registers 8 of 10 teams from 10 addresses, waitlists 2 in order, and a withdrawal promotes the first', async () => {
    const { app, ledger } = copyOf(fixture);
    create(ledger, 'pb', 'pitt-boss');
    // Without sign-up open, the page says so and takes nobody.
    const shut = await from(app, '10.0.0.99', 'POST', '/tournaments/pb/sign-up', { name: 'Early', player1: 'A', player2: 'B' });
    expect([shut.status, (await json(shut)).error]).toEqual([409, 'sign-up for pb day is not open; to play, ask the director at the desk to register you']);
    await openSignUp(app, 'pb', { open: true, cap: 8 });
    const answers = [];
    for (let i = 1; i <= 10; i++) {
      const res = await from(app, `10.0.0.${i}`, 'POST', '/tournaments/pb/sign-up', { name: `Club ${i}`, player1: `P${i} One`, player2: `P${i} Two` });
      expect(res.status).toBe(200);
      answers.push(await json(res));
    }
    expect(answers.map((a) => a.status)).toEqual([...Array(8).fill('registered'), 'waitlisted', 'waitlisted']);
    expect(answers[0]).toMatchObject({ teamId: 'club-1', page: '/tournaments/pb/teams/club-1' });
    expect(answers[0].code).toMatch(/^[A-Z2-9]{10}$/);
    expect(JSON.stringify(ledger.store.readAll({}))).not.toContain(answers[0].code);

    const state = await from(app, '10.0.0.50', 'GET', '/tournaments/pb/sign-up');
    expect(state.headers.get('etag')).toBe(`"${ledger.models.position}"`);
    expect(state.headers.get('access-control-allow-origin')).toBe('*');
    expect(await json(state)).toMatchObject({
      open: true,
      cap: 8,
      registered: answers.slice(0, 8).map((a) => a.teamId),
      waitlist: ['club-9', 'club-10'],
    });
    const same = await from(app, '10.0.0.50', 'GET', '/tournaments/pb/sign-up', undefined, { 'if-none-match': state.headers.get('etag')! });
    expect(same.status).toBe(304);

    const twice = await from(app, '10.0.0.11', 'POST', '/tournaments/pb/sign-up', { name: 'club 3', player1: 'X', player2: 'Y' });
    expect([twice.status, (await json(twice)).error]).toEqual([409, "'club 3' is already signed up for pb day; choose another name"]);

    const before = ledger.models.position;
    const out = await send(app, director(), 'POST', '/director/tournaments/pb/withdraw', { json: { teamId: 'club-3' } });
    expect(out.status).toBe(200);
    const decision = ledger.store.readAll({ after: before });
    expect(decision.map((e) => [e.type, (e.payload as { teamId: string }).teamId])).toEqual([
      ['TeamWithdrawn', 'club-3'],
      ['WaitlistPromoted', 'club-9'],
    ]);
    const after = await json(await from(app, '10.0.0.50', 'GET', '/tournaments/pb/sign-up'));
    expect(after.registered).toContain('club-9');
    expect(after.registered).not.toContain('club-3');
    expect(after.waitlist).toEqual(['club-10']);

    const desk = htmlText(await (await send(app, director(), 'GET', '/director/tournaments/pb')).text());
    expect(desk).toContain('8 registered · 1 waitlisted · 1 withdrawn');
    expect(desk).toMatch(/<tr data-team="club-10"><td>1<\/td><td>Club 10<\/td>/);
    expect(desk).toContain('registered from the waitlist');

    // Leaving the waitlist frees no place, so it promotes nobody; the desk asks once first.
    const asked = await send(app, director(), 'POST', '/director/tournaments/pb/withdraw', { form: { teamId: 'club-10' } });
    expect(await asked.text()).toContain('Withdraw Club 10?');
    const left = ledger.models.position;
    expect((await send(app, director(), 'POST', '/director/tournaments/pb/withdraw', { json: { teamId: 'club-10' } })).status).toBe(200);
    expect(ledger.store.readAll({ after: left }).map((e) => e.type)).toEqual(['TeamWithdrawn']);
    expect((await json(await from(app, '10.0.0.50', 'GET', '/tournaments/pb/sign-up'))).waitlist).toEqual([]);
    expect(htmlText(await (await send(app, director(), 'GET', '/director/tournaments/pb')).text())).toContain('8 registered · 0 waitlisted · 2 withdrawn');
    ledger.close();
  });

  it('holds the cap when ten sign-ups arrive at once: each is decided from the version it appends on', async () => {
    const { app, ledger } = copyOf(fixture);
    create(ledger, 'pb', 'pitt-boss');
    await openSignUp(app, 'pb', { open: true, cap: 8 });
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        from(app, `10.3.0.${i + 1}`, 'POST', '/tournaments/pb/sign-up', { name: `Rush ${i + 1}`, player1: 'A', player2: 'B' }).then(json),
      ),
    );
    expect(answers.filter((a) => a.status === 'registered')).toHaveLength(8);
    expect(answers.filter((a) => a.status === 'waitlisted')).toHaveLength(2);
    expect(ledger.models.tournaments.pb!.model.teams).toHaveLength(8);
    ledger.close();
  });

  it('refuses a sign-up after the closing time and after the start, and limits sign-ups per address', async () => {
    let clock = '2026-03-01T10:00:00.000Z';
    const { app, ledger } = copyOf(fixture, () => clock);
    create(ledger, 'pb', 'pitt-boss');
    await openSignUp(app, 'pb', { open: true, cap: 16, closes: '2026-03-01T13:00:00Z' });
    const page = await (await from(app, '10.0.0.1', 'GET', '/tournaments/pb/sign-up', undefined, { accept: 'text/html' })).text();
    expect(page).toContain('until <time datetime="2026-03-01T13:00:00.000Z">');
    for (let i = 1; i <= 5; i++) {
      expect((await from(app, '10.0.0.1', 'POST', '/tournaments/pb/sign-up', { name: `Duo ${i}`, player1: 'A', player2: 'B' })).status).toBe(200);
    }
    // The rest of the address's share is taken by refused sign-ups (the cap is 16): a flood is still stopped.
    for (let i = 6; i <= SIGN_UPS_PER_TEN_MINUTES; i++)
      await from(app, '10.0.0.1', 'POST', '/tournaments/pb/sign-up', { name: 'Duo 1', player1: 'A', player2: 'B' });
    const flood = await from(app, '10.0.0.1', 'POST', '/tournaments/pb/sign-up', { name: 'Duo 97', player1: 'A', player2: 'B' });
    expect(flood.status).toBe(429);
    expect(flood.headers.get('retry-after')).toMatch(/^\d+$/);
    expect((await json(flood)).error).toBe(
      `${SIGN_UPS_PER_TEN_MINUTES} sign-ups have come from this network in the last ten minutes, more than a room makes; try again in 10 minutes, or sign up at the director's desk`,
    );

    clock = '2026-03-01T13:00:00.000Z';
    const late = await from(app, '10.0.0.2', 'POST', '/tournaments/pb/sign-up', { name: 'Late pair', player1: 'A', player2: 'B' });
    expect([late.status, (await json(late)).error]).toEqual([
      409,
      `sign-up for pb day closed at ${closingWords('2026-03-01T13:00:00.000Z')}; to play, ask the director at the desk to register you`,
    ]);
    expect((await json(await from(app, '10.0.0.2', 'GET', '/tournaments/pb/sign-up'))).open).toBe(false);

    clock = '2026-03-01T12:00:00.000Z';
    const started = await send(app, director(), 'POST', '/director/tournaments/pb/start', { json: { seed: 's' } });
    expect(started.status).toBe(200);
    const afterStart = await from(app, '10.0.0.3', 'POST', '/tournaments/pb/sign-up', { name: 'Too late', player1: 'A', player2: 'B' });
    expect([afterStart.status, (await json(afterStart)).error]).toEqual([409, 'pb day has started, so sign-up is closed; its standings are on its page']);
    expect(eventsOf(ledger, 'TeamRegistered').filter((e) => e.tournamentId === 'pb')).toHaveLength(5);
    ledger.close();
  });

  it('counts a sign-up the ledger could not record against no one, and one it answered, even refused, against its address', async () => {
    const { app, ledger } = copyOf(fixture);
    create(ledger, 'pb', 'pitt-boss');
    await openSignUp(app, 'pb', { open: true, cap: 16 });
    // The ledger refuses every write for a while, as a full disk does.
    const mend = ledger.store.onAppendInTransaction(() => {
      throw new LedgerUnavailableError('the disk is full', 'SQLITE_FULL');
    });
    for (let i = 1; i <= 6; i++) {
      const refused = await from(app, '10.0.0.9', 'POST', '/tournaments/pb/sign-up', { name: `Duo ${i}`, player1: 'A', player2: 'B' });
      expect(refused.status).toBe(503);
    }
    mend();
    // None of those six counted: the address has its whole share of sign-ups, refused ones among them.
    for (let i = 1; i <= 4; i++) {
      expect((await from(app, '10.0.0.9', 'POST', '/tournaments/pb/sign-up', { name: `Duo ${i}`, player1: 'A', player2: 'B' })).status).toBe(200);
    }
    for (let i = 5; i <= SIGN_UPS_PER_TEN_MINUTES; i++) {
      expect((await from(app, '10.0.0.9', 'POST', '/tournaments/pb/sign-up', { name: 'Duo 1', player1: 'A', player2: 'B' })).status).toBe(409);
    }
    expect((await from(app, '10.0.0.9', 'POST', '/tournaments/pb/sign-up', { name: 'Duo 5', player1: 'A', player2: 'B' })).status).toBe(429);
    expect(eventsOf(ledger, 'TeamRegistered').filter((e) => e.tournamentId === 'pb')).toHaveLength(4);
    ledger.close();
  });

  it('lets a team check itself in from its page with its code; wrong codes are refused and counted', async () => {
    const { app, ledger } = copyOf(fixture);
    create(ledger, 'pb', 'pitt-boss');
    await openSignUp(app, 'pb', { open: true, cap: null });
    const signed = await json(await from(app, '10.0.0.1', 'POST', '/tournaments/pb/sign-up', { name: 'Spade Kings', player1: 'Al', player2: 'Bo' }));
    const teamPage = await (await from(app, '10.0.0.1', 'GET', signed.page, undefined, { accept: 'text/html' })).text();
    expect(teamPage).toContain(`action="${signed.page}/check-in"`);
    expect(teamPage).toContain('We’re here');

    const checkIn = `${signed.page}/check-in`;
    const wrong = await from(app, '10.0.0.66', 'POST', checkIn, { code: 'AAAAAAAAAA' });
    expect([wrong.status, (await json(wrong)).error]).toEqual([
      403,
      "that is not the check-in code of Spade Kings; it is on the card or the sign-up answer it was given, and the director's desk can check you in",
    ]);
    for (let i = 0; i < 9; i++) expect((await from(app, '10.0.0.66', 'POST', checkIn, { code: 'AAAAAAAAAA' })).status).toBe(403);
    // Without a phone's cookie, the address has had its ten wrong codes: even the right one waits there.
    expect((await from(app, '10.0.0.66', 'POST', checkIn, { code: signed.code })).status).toBe(429);
    expect(ledger.models.tournaments.pb!.checkedIn).toEqual([]);

    const right = await from(app, '10.0.0.7', 'POST', checkIn, { code: signed.code.toLowerCase() });
    expect(right.status).toBe(200);
    expect(await json(right)).toMatchObject({ ok: true, teamId: signed.teamId, checkedIn: true });
    expect(eventsOf(ledger, 'TeamCheckedIn').at(-1)).toMatchObject({ tournamentId: 'pb', teamId: signed.teamId, by: 'team' });
    const desk = await (await send(app, director(), 'GET', '/director/tournaments/pb')).text();
    expect(desk).toContain('checked in by the team');
    expect((await from(app, '10.0.0.7', 'POST', checkIn, { code: signed.code })).status).toBe(409);
    ledger.close();
  });
});

describe('a progressive evening’s sign-up', () => {
  it('signs players up with a prize category and checks them in from their own pages', async () => {
    const { app, ledger } = copyOf(fixture);
    create(ledger, 'eve', 'tournament-spades');
    expect((await send(app, director(), 'POST', '/director/tournaments/eve/sign-up', { json: { open: true, cap: 8 } })).status).toBe(200);
    const ann = await json(await from(app, '10.2.0.1', 'POST', '/tournaments/eve/sign-up', { name: 'Ann Lee', gender: 'female' }));
    expect(ann).toMatchObject({ status: 'registered', teamId: 'ann-lee', page: '/tournaments/eve/players/ann-lee' });
    expect(eventsOf(ledger, 'PlayerRegistered').at(-1)).toMatchObject({ tournamentId: 'eve', playerId: 'ann-lee', name: 'Ann Lee', gender: 'female' });
    const odd = await from(app, '10.2.0.2', 'POST', '/tournaments/eve/sign-up', { name: 'Bo', gender: 'other' });
    expect([odd.status, (await json(odd)).error]).toEqual([400, "gender (the prize category) is male or female, not 'other'"]);
    expect((await from(app, '10.2.0.1', 'POST', `${ann.page}/check-in`, { code: ann.code })).status).toBe(200);
    expect(ledger.models.tournaments.eve!.checkedIn).toEqual(['ann-lee']);
    ledger.close();
  });
});

describe('the sign-up link in the room', () => {
  it('prints the link and its QR code on the code sheet and shows them on /screen while the event takes sign-ups', async () => {
    const { app, ledger } = copyOf(fixture);
    create(ledger, 'pb', 'pitt-boss');
    const pin = await send(app, director(), 'POST', '/director/tournaments/pb/screen', { json: {} });
    expect(pin.status).toBe(200);
    const screen = () => send(app, null, 'GET', '/screen', {}, { host: 'venue.example:3000' }).then((r) => r.text());
    const sheet = () => send(app, director(), 'GET', '/director/tournaments/pb/codes').then((r) => r.text());
    expect(await screen()).not.toContain('data-sign-up-link');
    expect(await sheet()).not.toContain('data-sign-up-link');
    expect((await send(app, director(), 'POST', '/director/tournaments/pb/sign-up', { json: { open: true, cap: 16 } })).status).toBe(200);
    const shown = await screen();
    expect(shown).toMatch(/data-sign-up-link="http:\/\/[^"]+\/tournaments\/pb\/sign-up"/);
    expect(shown).toContain('aria-label="QR link to sign up for pb day"');
    const printed = await sheet();
    expect(printed).toMatch(/data-sign-up-link="http:\/\/[^"]+\/tournaments\/pb\/sign-up"/);
    expect(printed).toContain('<svg class="qr"');
    expect((await send(app, director(), 'POST', '/director/tournaments/pb/sign-up', { json: { open: false } })).status).toBe(200);
    expect(await screen()).not.toContain('data-sign-up-link');
    ledger.close();
  });
});

describe('the ledger of a sign-up, brought in whole', () => {
  it('holds every sign-up, waitlisting, promotion, fee paid and check-in to the commands that record them', async () => {
    const { app, ledger } = copyOf(fixture);
    create(ledger, 'blp', 'blp-2024');
    const from0 = ledger.models.position;
    expect((await send(app, director(), 'POST', '/director/tournaments/blp/sign-up', { json: { open: true, cap: 2 } })).status).toBe(200);
    const codes: string[] = [];
    for (let i = 1; i <= 3; i++)
      codes.push((await json(await from(app, `10.1.0.${i}`, 'POST', '/tournaments/blp/sign-up', { name: `Pair ${i}`, player1: 'A', player2: 'B' }))).code);
    expect((await send(app, director(), 'POST', '/director/tournaments/blp/teams/pair-1/paid', { json: {} })).status).toBe(200);
    expect((await from(app, '10.1.0.1', 'POST', '/tournaments/blp/teams/pair-1/check-in', { code: codes[0] })).status).toBe(200);
    expect((await send(app, director(), 'POST', '/director/tournaments/blp/withdraw', { json: { teamId: 'pair-2' } })).status).toBe(200);
    expect((await send(app, director(), 'POST', '/director/tournaments/blp/sign-up', { json: { open: false } })).status).toBe(200);
    const rows = ledger.store.readAll({});
    expect(rows.slice(from0).map((r) => r.type)).toEqual([
      'SignUpOpened',
      'TeamRegistered',
      'TeamRegistered',
      'TeamWaitlisted',
      'FeePaid',
      'TeamCheckedIn',
      'TeamWithdrawn',
      'WaitlistPromoted',
      'SignUpClosed',
    ]);
    const models = emptyModels();
    for (const row of rows) {
      expect(
        replayProblem(models, { stream: row.stream, type: row.type, payload: row.payload as Record<string, unknown> }),
        `${row.position} ${row.type}`,
      ).toBeNull();
      applyEvent(models, projected(row));
    }
    // A promotion the waitlist does not give is not one a command would have recorded.
    const forged = replayProblem(models, { stream: 'tournament-blp', type: 'WaitlistPromoted', payload: { tournamentId: 'blp', teamId: 'pair-1' } });
    expect(forged).toBe('pair-1 is not first on the waitlist of tournament blp');
    // The waitlist, fees paid, code seeds and check-ins fold again from position 0 to the live models.
    expectRebuildEqualsLive(ledger);
    expect(ledger.models.tournaments.blp!.registration.fees['pair-1']).toEqual({ fee: 40, paid: 40 });
    ledger.close();
  });
});

describe('fees', () => {
  it('totals BLP’s $30 / $40 fees by date, records payments, and gates the start on payment when asked', async () => {
    const { app, ledger } = copyOf(fixture);
    create(ledger, 'blp', 'blp-2024');
    const lines = ['Aces, A1, A2, 2024-09-01', 'Kings, K1, K2, 2024-09-12', 'Queens, Q1, Q2, 2024-09-13'].join('\n');
    expect((await json(await send(app, director(), 'POST', '/director/tournaments/blp/teams/bulk', { json: { lines, confirm: 'yes' } }))).recorded).toBe(3);
    const desk = async () => htmlText(await (await send(app, director(), 'GET', '/director/tournaments/blp')).text());
    expect(await desk()).toContain('Fees: $100 due · $0 paid · $100 outstanding');

    const paid = await send(app, director(), 'POST', '/director/tournaments/blp/teams/aces/paid', { json: {} });
    expect([paid.status, (await json(paid)).done]).toEqual([200, 'Recorded $30 paid by Aces.']);
    expect(eventsOf(ledger, 'FeePaid')).toEqual([{ tournamentId: 'blp', teamId: 'aces', amount: 30 }]);
    expect(await desk()).toContain('Fees: $100 due · $30 paid · $70 outstanding');
    const again = await send(app, director(), 'POST', '/director/tournaments/blp/teams/aces/paid', { json: {} });
    expect([again.status, (await json(again)).error]).toEqual([409, "tournament blp: 'Aces' has already paid its $30 fee"]);

    const gated = await send(app, director(), 'POST', '/director/tournaments/blp/start', { json: { seed: 's', requirePaid: true } });
    expect([gated.status, (await json(gated)).error]).toEqual([
      409,
      'tournament blp: Kings, Queens have not paid the entry fee (1 of 3 paid); record their fees, or start without requiring payment',
    ]);
    for (const team of ['kings', 'queens'])
      expect((await send(app, director(), 'POST', `/director/tournaments/blp/teams/${team}/paid`, { json: {} })).status).toBe(200);
    expect(eventsOf(ledger, 'FeePaid').map((e) => e.amount)).toEqual([30, 30, 40]);
    expect(await desk()).toContain('Fees: $100 due · $100 paid · $0 outstanding');
    expect((await send(app, director(), 'POST', '/director/tournaments/blp/start', { json: { seed: 's', requirePaid: true } })).status).toBe(200);
    ledger.close();
  });

  it('keeps registration, sign-up and fees to directors', async () => {
    const { app, ledger } = copyOf(fixture);
    create(ledger, 'blp', 'blp-2024');
    for (const path of ['/director/tournaments/blp/teams/bulk', '/director/tournaments/blp/sign-up', '/director/tournaments/blp/teams/x/paid']) {
      expect((await send(app, null, 'POST', path, { json: { lines: 'A, B, C', open: true } })).status).toBe(401);
      expect((await send(app, fixture.clients.judge, 'POST', path, { json: { lines: 'A, B, C', open: true } })).status).toBe(403);
    }
    ledger.close();
  });
});

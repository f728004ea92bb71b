/**
 * Registration as a venue meets it, through the app: a whole room signing up and checking in
 * from one address while a flood and a guesser are still held; names that only look different
 * refused; and every answer a phone gets a page it can go on from.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Ledger } from '../events/store/sqlite/ledger.ts';
import { createTournament } from '../server/commands/tournament-commands.ts';
import { CHECK_IN_FAILURES_PER_ENTRANT, SIGN_UPS_PER_TEN_MINUTES } from '../server/auth/rate-limits.ts';
import { type Fixture, copyOf, makeFixture, send } from './routes-fixture.ts';
import { eventsOf } from './tournament-ledger.ts';
import { htmlText } from './fixtures/html.ts';

let fixture: Fixture;
beforeAll(async () => {
  fixture = await makeFixture();
});
afterAll(() => fixture?.close());

type App = ReturnType<typeof copyOf>['app'];
const ROOM = '203.0.113.7';

/** A phone at `address`: it keeps the cookies the server sets, as a browser does. */
function phone(app: App, address = ROOM) {
  const jar = new Map<string, string>();
  const request = async (method: string, path: string, form?: Record<string, string>, headers: Record<string, string> = {}) => {
    const h: Record<string, string> = { accept: 'text/html', ...headers };
    if (jar.size > 0) h.cookie = [...jar].map(([k, v]) => `${k}=${v}`).join('; ');
    if (form) h['content-type'] = 'application/x-www-form-urlencoded';
    const res = await app.request(
      path,
      { method, headers: h, ...(form ? { body: new URLSearchParams(form).toString() } : {}) },
      { incoming: { socket: { remoteAddress: address } } },
    );
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const at = pair!.indexOf('=');
      jar.set(pair!.slice(0, at), pair!.slice(at + 1));
    }
    return res;
  };
  return { request, jar };
}

/** An API client at `address`, with no cookies. */
function api(app: App, address: string, method: string, path: string, body?: unknown): Promise<Response> {
  const init: RequestInit = { method, headers: body !== undefined ? { 'content-type': 'application/json' } : { accept: 'application/json' } };
  if (body !== undefined) init.body = JSON.stringify(body);
  return Promise.resolve(app.request(path, init, { incoming: { socket: { remoteAddress: address } } }));
}

async function openEvent(app: App, ledger: Ledger, id: string, body: Record<string, unknown> = { open: true, cap: null }) {
  ledger.execute(createTournament(ledger.models, { tournamentId: id, name: `${id} night`, format: 'pitt-boss' }));
  const res = await send(app, fixture.clients.director, 'POST', `/director/tournaments/${id}/sign-up`, { json: body });
  expect(res.status, await res.clone().text()).toBe(200);
}

/** The check-in code a page shows, if any. */
const codeOn = (page: string) => /data-code="([A-Z2-9]{10})"/.exec(page)?.[1] ?? null;

describe('a room behind one address', () => {
  it('signs up 64 teams and checks in all 64 from one address within ten minutes, and refuses a flood in minutes', async () => {
    const { app, ledger } = copyOf(fixture);
    await openEvent(app, ledger, 'room');
    const teams: { page: string; code: string; device: ReturnType<typeof phone> }[] = [];
    for (let i = 1; i <= 64; i++) {
      const device = phone(app);
      expect((await device.request('GET', '/tournaments/room/sign-up')).status).toBe(200);
      const signed = await device.request('POST', '/tournaments/room/sign-up', { name: `Table ${i} Pair`, player1: `Ann ${i}`, player2: `Bob ${i}` });
      expect(signed.status).toBe(303);
      const answer = await device.request('GET', signed.headers.get('location')!);
      const code = codeOn(await answer.text());
      expect(code).not.toBeNull();
      teams.push({ page: signed.headers.get('location')!.replace(/\/signed-up$/, ''), code: code!, device });
    }
    expect(ledger.models.tournaments.room!.model.teams).toHaveLength(64);
    // At the venue each pair taps "We're here" on its own page with its code.
    for (const team of teams) {
      const res = await team.device.request('POST', `${team.page}/check-in`, { code: team.code });
      expect(res.status).toBe(303);
    }
    expect(ledger.models.tournaments.room!.checkedIn).toHaveLength(64);

    // The address's share is a room's, not a flood's: past it, the answer speaks in minutes.
    for (let i = 65; i <= SIGN_UPS_PER_TEN_MINUTES; i++)
      expect((await api(app, ROOM, 'POST', '/tournaments/room/sign-up', { name: `Extra ${i}`, player1: 'C', player2: 'D' })).status).toBe(200);
    const flood = await api(app, ROOM, 'POST', '/tournaments/room/sign-up', { name: 'One too many', player1: 'C', player2: 'D' });
    expect(flood.status).toBe(429);
    const said = ((await flood.json()) as { error: string }).error;
    expect(said).toContain('try again in 10 minutes');
    expect(said).not.toMatch(/\d+ seconds/);
    ledger.close();
  });

  it('takes the right code from a phone at the same address after 15 wrong ones from another, and bounds guessing at one entrant', async () => {
    const { app, ledger } = copyOf(fixture);
    await openEvent(app, ledger, 'room');
    const owner = phone(app);
    await owner.request('GET', '/tournaments/room/sign-up');
    const signed = await owner.request('POST', '/tournaments/room/sign-up', { name: 'Spade Kings', player1: 'Al', player2: 'Bo' });
    const page = signed.headers.get('location')!.replace(/\/signed-up$/, '');
    const code = codeOn(await (await owner.request('GET', `${page}/signed-up`)).text())!;

    const guesser = phone(app);
    await guesser.request('GET', page);
    const answers = [];
    for (let i = 0; i < 15; i++) answers.push((await guesser.request('POST', `${page}/check-in`, { code: 'AAAAAAAAAA' })).status);
    expect(answers).toEqual([...Array(10).fill(403), ...Array(5).fill(429)]);
    // Even the right code waits on the guesser's phone…
    const held = await guesser.request('POST', `${page}/check-in`, { code });
    expect(held.status).toBe(429);
    expect(htmlText(await held.text())).toContain('this phone has tried 10 wrong check-in codes in the last minute; try again in a minute');
    // …while the partner's phone, behind the same address, checks the team in with it.
    const partner = phone(app);
    await partner.request('GET', page);
    expect((await partner.request('POST', `${page}/check-in`, { code })).status).toBe(303);
    expect(ledger.models.tournaments.room!.checkedIn).toEqual(['spade-kings']);
    ledger.close();
  });

  it('holds one entrant’s code to its limit a minute from fresh phones on many addresses, but not its own phone', async () => {
    const { app, ledger } = copyOf(fixture);
    await openEvent(app, ledger, 'room');
    const owner = phone(app);
    await owner.request('GET', '/tournaments/room/sign-up');
    const signed = await owner.request('POST', '/tournaments/room/sign-up', { name: 'Night Owls', player1: 'Cy', player2: 'Di' });
    const page = signed.headers.get('location')!.replace(/\/signed-up$/, '');
    const code = codeOn(await (await owner.request('GET', page)).text())!;
    expect(code).not.toBeNull();
    for (let i = 0; i < CHECK_IN_FAILURES_PER_ENTRANT; i++) {
      expect((await api(app, `198.51.100.${i + 1}`, 'POST', `${page}/check-in`, { code: 'BBBBBBBBBB' })).status).toBe(403);
    }
    // A fresh address and phone, even with the right code, waits out the entrant's minute…
    expect((await api(app, '192.0.2.200', 'POST', `${page}/check-in`, { code })).status).toBe(429);
    expect(ledger.models.tournaments.room!.checkedIn).toEqual([]);
    // …and the phone that signed it up does not.
    expect((await owner.request('POST', `${page}/check-in`, { code })).status).toBe(303);
    expect(ledger.models.tournaments.room!.checkedIn).toEqual(['night-owls']);
    ledger.close();
  });
});

describe('one name, one entrant', () => {
  it('refuses the names that only look different, with a sentence and nothing recorded', async () => {
    const { app, ledger } = copyOf(fixture);
    await openEvent(app, ledger, 'names');
    const signUp = (body: Record<string, string>) => api(app, '10.9.0.1', 'POST', '/tournaments/names/sign-up', body);
    expect((await signUp({ name: 'Red Aces', player1: 'Ann', player2: 'Bob' })).status).toBe(200);
    const before = ledger.models.position;
    const cases: [Record<string, string>, number, string][] = [
      [{ name: 'Red  Aces', player1: 'Cy', player2: 'Di' }, 409, "'Red Aces' is already signed up for names night; choose another name"],
      [{ name: ' RED\u00a0aces ', player1: 'Cy', player2: 'Di' }, 409, "'RED aces' is already signed up for names night; choose another name"],
      [{ name: 'Ｒｅｄ Ａｃｅｓ', player1: 'Cy', player2: 'Di' }, 409, "'Red Aces' is already signed up for names night; choose another name"],
      [{ name: 'Пиковые\u200b Дамы', player1: 'Cy', player2: 'Di' }, 400, 'the team name holds a character that cannot be seen (U+200B) at character 8'],
      [
        { name: 'Evil\u202eGNP.exe', player1: 'Cy', player2: 'Di' },
        400,
        'the team name holds a character that changes the direction of the text (U+202E) at character 5',
      ],
      [{ name: '!!!', player1: 'Cy', player2: 'Di' }, 400, 'the team name has no letter or digit; write the name in letters or digits'],
      [{ name: 'Solo Act', player1: 'Cy Young', player2: 'cy  young' }, 400, "both players are 'Cy Young'; a team is two people, so name the second player"],
      [{ name: 'Two\nLines', player1: 'Cy', player2: 'Di' }, 400, 'the team name holds a line break (U+000A) at character 4'],
      [{ name: 'Fine', player1: 'Cy\nYoung', player2: 'Di' }, 400, 'player 1’s name holds a line break (U+000A) at character 3'],
      [{ name: 'x'.repeat(5000), player1: 'Cy', player2: 'Di' }, 400, 'the team name is 5,000 characters long; a name is at most 60, so shorten it'],
    ];
    for (const [body, status, sentence] of cases) {
      const res = await signUp(body);
      const error = ((await res.json()) as { error: string }).error;
      expect([status, error.startsWith(sentence)], `${JSON.stringify(body.name!.slice(0, 30))}: ${error.slice(0, 200)}`).toEqual([res.status, true]);
    }
    expect(ledger.models.position).toBe(before);

    // A name stored is the one compared: its spaces collapsed, its compatibility forms folded.
    const spaced = await signUp({ name: '  Queen\u3000of   Hearts ', player1: 'Eve', player2: 'Fay' });
    expect(await spaced.json()).toMatchObject({ teamId: 'queen-of-hearts', name: 'Queen of Hearts' });
    ledger.close();
  });

  it('holds names the same way at the desk and in a paste, which comes back as typed with its problems in words', async () => {
    const { app, ledger } = copyOf(fixture);
    await openEvent(app, ledger, 'names');
    const desk = (body: Record<string, string>) => send(app, fixture.clients.director, 'POST', '/director/tournaments/names/teams', { json: body });
    expect((await desk({ name: 'Red Aces', player1: 'Ann', player2: 'Bob' })).status).toBe(200);
    const twin = await desk({ name: 'red   ACES', player1: 'Cy', player2: 'Di' });
    expect([twin.status, ((await twin.json()) as { error: string }).error]).toEqual([409, "tournament names: 'red ACES' is already registered"]);
    const same = await desk({ name: 'Solo', player1: 'Cy Young', player2: 'CY YOUNG' });
    expect(((await same.json()) as { error: string }).error).toBe("both players are 'Cy Young'; a team is two people, so name the second player");
    expect((await desk({ name: '???', player1: 'Cy', player2: 'Di' })).status).toBe(400);

    const lines = ['Queen  of Hearts, Eve, Fay', 'queen of hearts, Gil, Hal', 'Mirror, Ivy, ivy', '—, Jo, Kim', 'Evil\u202eGNP.exe, Lu, Mo'].join('\n');
    const page = htmlText(await (await send(app, fixture.clients.director, 'POST', '/director/tournaments/names/teams/bulk', { form: { lines } })).text());
    expect(page).toContain("Line 2, name: 'queen of hearts' is given twice in this paste (first on line 1)");
    expect(page).toContain("Line 3, player 2: both players are 'Ivy'");
    expect(page).toContain('Line 4, name: has no letter or digit');
    expect(page).toContain('Line 5, name: holds a character that changes the direction of the text (U+202E)');
    expect(page.replace(/<[^>]*>/g, '')).not.toMatch(/player2|registeredOn/);
    // The paste is in its box again, as typed, to fix.
    expect(page).toContain(`<textarea name="lines" rows="6">${lines}</textarea>`);
    ledger.close();
  });

  it('gives names in any script a readable id', async () => {
    const { app, ledger } = copyOf(fixture);
    await openEvent(app, ledger, 'names');
    const ids = [];
    for (const name of ['Пиковые Дамы', 'Пиковые Короли', '黑桃皇后', 'Άσσοι Μπαστούνι']) {
      ids.push(
        ((await (await api(app, '10.9.0.2', 'POST', '/tournaments/names/sign-up', { name, player1: 'Ann', player2: 'Bob' })).json()) as { teamId: string })
          .teamId,
      );
    }
    expect(ids).toEqual(['pikovye-damy', 'pikovye-koroli', 'heitaohuanghou', 'assoi-mpastoyni']);
    ledger.close();
  });

  it('keeps what was typed, over-long name and all, on the page that refuses it', async () => {
    const { app, ledger } = copyOf(fixture);
    await openEvent(app, ledger, 'names');
    const device = phone(app);
    const page = await (await device.request('GET', '/tournaments/names/sign-up')).text();
    // No maxlength cuts a paste short without a word: the server answers it.
    expect(page).not.toMatch(/maxlength/);
    const long = 'Long '.repeat(30).trim();
    const res = await device.request('POST', '/tournaments/names/sign-up', { name: long, player1: 'Ann', player2: 'Bob' });
    expect(res.status).toBe(400);
    const text = htmlText(await res.text());
    expect(text).toContain('the team name is 149 characters long; a name is at most 60, so shorten it.');
    expect(text).toContain(`value="${long}"`);
    expect(text).toContain('value="Ann"');
    ledger.close();
  });
});

describe('no dead ends on a phone', () => {
  it('answers a sign-up with a page a reload shows again, code and all, without signing up twice', async () => {
    const { app, ledger } = copyOf(fixture);
    await openEvent(app, ledger, 'eve');
    const device = phone(app);
    await device.request('GET', '/tournaments/eve/sign-up');
    const signed = await device.request('POST', '/tournaments/eve/sign-up', { name: 'Night Owls', player1: 'Cy', player2: 'Di' });
    expect([signed.status, signed.headers.get('location')]).toEqual([303, '/tournaments/eve/teams/night-owls/signed-up']);
    const first = await (await device.request('GET', '/tournaments/eve/teams/night-owls/signed-up')).text();
    const position = ledger.models.position;
    const again = await (await device.request('GET', '/tournaments/eve/teams/night-owls/signed-up')).text();
    expect(codeOn(first)).not.toBeNull();
    expect(codeOn(again)).toBe(codeOn(first));
    expect(again).toContain('Night Owls is registered');
    expect(ledger.models.position).toBe(position);
    expect(eventsOf(ledger, 'TeamRegistered').filter((e) => e.tournamentId === 'eve')).toHaveLength(1);
    // The team's page shows the code to the phone that signed up, and to no other.
    expect(codeOn(await (await device.request('GET', '/tournaments/eve/teams/night-owls')).text())).toBe(codeOn(first));
    const stranger = phone(app, '10.1.1.1');
    expect(codeOn(await (await stranger.request('GET', '/tournaments/eve/teams/night-owls')).text())).toBeNull();
    const elsewhere = await stranger.request('GET', '/tournaments/eve/teams/night-owls/signed-up');
    expect([elsewhere.status, elsewhere.headers.get('location')]).toEqual([303, '/tournaments/eve/teams/night-owls']);
    ledger.close();
  });

  it('answers a wrong code and a second “We’re here” with the team’s page: header, viewport, the reason and the form', async () => {
    const { app, ledger } = copyOf(fixture);
    await openEvent(app, ledger, 'eve');
    const owner = phone(app);
    await owner.request('GET', '/tournaments/eve/sign-up');
    await owner.request('POST', '/tournaments/eve/sign-up', { name: 'Night Owls', player1: 'Cy', player2: 'Di' });
    const code = codeOn(await (await owner.request('GET', '/tournaments/eve/teams/night-owls')).text())!;
    const other = phone(app);
    await other.request('GET', '/tournaments/eve/teams/night-owls');
    const wrong = await other.request('POST', '/tournaments/eve/teams/night-owls/check-in', { code: 'ZZZZZZZZZZ' });
    expect(wrong.status).toBe(403);
    const page = htmlText(await wrong.text());
    expect(page).toContain('<meta name="viewport" content="width=device-width, initial-scale=1"');
    expect(page).toContain('class="skip-link"');
    expect(page).toContain('<a href="/tournaments/eve">eve night</a>');
    expect(page).toContain('that is not the check-in code of Night Owls');
    expect(page).toContain('action="/tournaments/eve/teams/night-owls/check-in"');
    // The form comes before the team's standing: at the top of its page before the start.
    expect(page.indexOf('check-in-form')).toBeLessThan(page.indexOf('id="team-status"'));

    expect((await other.request('POST', '/tournaments/eve/teams/night-owls/check-in', { code })).status).toBe(303);
    const twice = await other.request('POST', '/tournaments/eve/teams/night-owls/check-in', { code });
    expect([twice.status, twice.headers.get('location')]).toEqual([303, '/tournaments/eve/teams/night-owls']);
    expect(await (await other.request('GET', '/tournaments/eve/teams/night-owls')).text()).toContain('Night Owls is checked in');
    expect(eventsOf(ledger, 'TeamCheckedIn').filter((e) => e.tournamentId === 'eve')).toHaveLength(1);
    ledger.close();
  });

  it('says once, in words and with a next step, that sign-up has closed', async () => {
    let clock = '2026-03-01T10:00:00.000Z';
    const { app, ledger } = copyOf(fixture, () => clock);
    await openEvent(app, ledger, 'eve', { open: true, cap: 16, closes: '2026-03-01T13:00:00Z' });
    clock = '2026-03-01T13:05:00.000Z';
    const device = phone(app);
    for (const res of [
      await device.request('GET', '/tournaments/eve/sign-up'),
      await device.request('POST', '/tournaments/eve/sign-up', { name: 'Late Pair', player1: 'A', player2: 'B' }),
    ]) {
      const text = htmlText(await res.text());
      expect(text).not.toContain('2026-03-01T13:00');
      expect(text.match(/closed at/g)).toHaveLength(1);
      expect(text).toContain('ask the director at the desk to register you');
      expect(text).not.toMatch(/player2|registeredOn/);
    }
    ledger.close();
  });
});

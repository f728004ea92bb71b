/**
 * A progressive evening as the room reads it, through the public pages in process: every
 * standings view places players the same way (equal totals share a place), a player's standing
 * says where they sit or that they rest, the seating says how each player moved, and the venue
 * screen holds "where to sit now" from a round's end to the next round's first entry.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SEATS, type Seat } from '../engine/cards.ts';
import type { Ledger } from '../events/store/sqlite/ledger.ts';
import { createTournament, registerPlayer, startTournament } from '../server/commands/tournament-commands.ts';
import { startRound } from '../server/commands/match-commands.ts';
import { nextEntry } from '../server/serve/table-driver.ts';
import { channelOf, livePartials } from '../server/app/live-channels.tsx';
import { movementWords, progressiveView } from '../views/progressive-panels.tsx';
import { type Fixture, copyOf, makeFixture, send } from './routes-fixture.ts';
import { element } from './fixtures/html.ts';

let fixture: Fixture;
let ledger: Ledger;
let app: ReturnType<typeof copyOf>['app'];
beforeAll(async () => {
  fixture = await makeFixture();
  ({ ledger, app } = copyOf(fixture));
  const m = ledger.models;
  ledger.execute(createTournament(m, { tournamentId: 'eve', name: 'Thursday Progressive', format: 'tournament-spades', options: { rounds: 2 } }));
  for (const name of NAMES) ledger.execute(registerPlayer(m, { tournamentId: 'eve', playerId: name.toLowerCase(), name }));
  ledger.execute(startTournament(m, { tournamentId: 'eve', seed: 'room' }));
});
afterAll(() => fixture.close());

const NAMES = ['Ana', 'Ben', 'Cy', 'Dee', 'Eli', 'Fay', 'Gus', 'Hana', 'Ike'];
const SEAT_NAMES: Record<Seat, string> = { N: 'North', E: 'East', S: 'South', W: 'West' };
const state = () => ledger.models.tournaments.eve!;
const progressive = () => state().progressive!;
const get = async (path: string) => {
  const res = await app.request(path);
  expect(res.status, path).toBe(200);
  return res.text();
};

function playRound(): void {
  for (let step = 0; step < 100_000; step++) {
    const round = progressive().rounds.at(-1)!;
    if (round.results) return;
    for (const gameId of Object.values(round.games)) {
      if (!ledger.models.games[gameId]!.winner) ledger.execute(() => nextEntry(ledger, ledger.models.games[gameId]!, { seed: 'room' }) ?? []);
    }
  }
  throw new Error('the round did not finish');
}

/** Each row's player and the place it shows, in the order a table lists them. */
function placesIn(html: string, rowAttr: 'data-team' | 'data-player'): [string, number][] {
  return [...html.matchAll(new RegExp(`<tr[^>]*${rowAttr}="([^"]+)"[^>]*><td class="num[^"]*">([^<]*)</td>`, 'g'))].map((m) => [m[1]!, Number(m[2])]);
}

/** The places the rulebook gives: one more than the number of players with a higher total. */
function expectedPlaces(): Map<string, number> {
  const totals = progressive().players.map((p) => [p.playerId, p.total] as const);
  return new Map(totals.map(([id, total]) => [id, 1 + totals.filter(([, t]) => t > total).length]));
}

describe('one ranking for every standings view of an evening', () => {
  const views = async () => {
    const page = await get('/tournaments/eve/leaderboard');
    const tv = await get('/tournaments/eve/screen');
    const fragment = livePartials(channelOf('screen', 'eve'), ledger.models)!.get('individual-standings')!;
    const csv = (await get('/tournaments/eve/standings.csv'))
      .trimEnd()
      .split('\r\n')
      .slice(1)
      .map((line) => line.split(','));
    const playerPages = new Map<string, number>();
    for (const p of progressive().players) {
      const html = await get(`/tournaments/eve/players/${p.playerId}`);
      playerPages.set(p.playerId, Number(/data-place="(\d+)"/.exec(html)![1]));
    }
    return {
      totals: placesIn(element(page, /<section id="leaderboard"/), 'data-team'),
      individual: placesIn(element(page, /<section id="individual-standings"/), 'data-player'),
      tv: placesIn(element(tv, /<section id="individual-standings"/), 'data-player'),
      fragment: placesIn(fragment, 'data-player'),
      csv: csv.map((cells) => [cells[1]!, Number(cells[0])] as [string, number]),
      playerPages,
    };
  };

  it('places equal totals together in the totals table, the individual standings, the TV, its live fragment, the CSV and each player page', async () => {
    ledger.execute(startRound(ledger.models, { tournamentId: 'eve', seed: 'room' }));
    playRound();
    const expected = expectedPlaces();
    // Partners score their side's round score: after one round every seated pair is tied.
    const shared = [...expected.values()].filter((place, _, all) => all.indexOf(place) !== all.lastIndexOf(place));
    expect(shared.length).toBeGreaterThanOrEqual(2);
    const v = await views();
    for (const [name, rows] of Object.entries({ totals: v.totals, individual: v.individual, tv: v.tv, fragment: v.fragment, csv: v.csv })) {
      expect(new Map(rows), name).toEqual(expected);
      // The same order too: best total first, a shared place by name.
      expect(
        rows.map(([id]) => id),
        name,
      ).toEqual(v.individual.map(([id]) => id));
    }
    expect(v.playerPages).toEqual(expected);
    const tied = [...expected].find(([id, place]) => [...expected].some(([other, p]) => other !== id && p === place))!;
    expect(await get(`/tournaments/eve/players/${tied[0]}`)).toContain(`Tied `);
  });
});

describe('a player’s standing says where they sit, or that they rest', () => {
  const badges = async () => {
    const page = element(await get('/tournaments/eve/leaderboard'), /<section id="leaderboard"/);
    return new Map([...page.matchAll(/data-team="([^"]+)".*?data-standing="[^"]+"[^>]*>([^<]+)</g)].map((m) => [m[1]!, m[2]!]));
  };
  const seatWords = (seating: { table: number; seats: Record<Seat, string> }[], id: string) => {
    for (const t of seating) for (const seat of SEATS) if (t.seats[seat] === id) return `table ${t.table}, ${SEAT_NAMES[seat]}`;
    return null;
  };

  it('reads "round 2: table 2, North" once the next seating is drawn, "table 2, North" while it is played, "sitting out round 2", and never "Playing"', async () => {
    expect(progressive().rounds).toHaveLength(1);
    const next = progressive().nextSeating!;
    const resting = progressive().nextSittingOut;
    expect(resting).toHaveLength(1);
    let shown = await badges();
    expect(shown.size).toBe(9);
    for (const [id, words] of shown) {
      expect(words, id).toBe(resting.includes(id) ? 'sitting out round 2' : `round 2: ${seatWords(next, id)}`);
    }
    ledger.execute(startRound(ledger.models, { tournamentId: 'eve', seed: 'room' }));
    const seating = progressive().rounds[1]!.seating;
    shown = await badges();
    for (const [id, words] of shown) expect(words, id).toBe(resting.includes(id) ? 'sitting out round 2' : seatWords(seating, id));
    expect([...shown.values()]).not.toContain('Playing');
    // The player's own page says the same.
    const rester = await get(`/tournaments/eve/players/${resting[0]}`);
    expect(rester).toContain('data-standing="sitting out round 2"');
    const north = seating[1]!.seats.N;
    expect(await get(`/tournaments/eve/players/${north}`)).toContain('data-standing="table 2, North"');
  });

  it('reads the final place once the last round is over, shared on equal totals', async () => {
    playRound();
    expect(state().model.status).toBe('finished');
    const shown = await badges();
    const places = expectedPlaces();
    for (const [id, words] of shown) {
      const place = places.get(id)!;
      const shared = [...places.values()].filter((p) => p === place).length > 1;
      expect(words, id).toMatch(new RegExp(`^${place}(st|nd|rd|th) place${shared ? ', shared' : ''}$`));
    }
  });
});

describe('the movement, in words, on where to sit now', () => {
  it('words a move up, a stay, the top table’s losers going to the last table, and a return from rest', () => {
    expect(movementWords({ table: 3 }, 2)).toBe('up from table 3');
    expect(movementWords({ table: 2 }, 2)).toBe('stays at table 2');
    expect(movementWords({ table: 1 }, 4)).toBe('from table 1 to table 4');
    expect(movementWords('sat-out', 1)).toBe('back from sitting out');
    expect(movementWords(null, 1)).toBeNull();
  });

  it('gives each player of round 2 the move their table’s result gave them, on the screen', async () => {
    const [one, two] = progressive().rounds;
    const last = one!.seating.length;
    const expected = new Map<string, string>();
    for (const t of one!.seating) {
      const result = one!.results!.find((r) => r.table === t.table)!;
      for (const seat of SEATS) {
        const id = t.seats[seat];
        const won = (seat === 'N' || seat === 'S' ? 'NS' : 'EW') === result.winner;
        const to = t.table === 1 ? (won ? 1 : last) : won ? t.table - 1 : t.table;
        expected.set(id, to === t.table ? `stays at table ${to}` : to === t.table - 1 ? `up from table ${t.table}` : `from table ${t.table} to table ${to}`);
      }
    }
    for (const id of one!.sittingOut) expected.set(id, 'back from sitting out');
    const view = progressiveView(state(), ledger.models.games)!;
    // The evening is over: the screen shows the last round's seating, each row with its move.
    expect(view.sitting!.round).toBe(2);
    for (const row of view.sitting!.seats) expect(row.move, row.playerId).toBe(expected.get(row.playerId));
    expect(two!.sittingOut.every((id) => !view.sitting!.seats.some((r) => r.playerId === id))).toBe(true);
    const tv = await get('/tournaments/eve/screen');
    for (const row of view.sitting!.seats) expect(tv).toContain(`<span class="sit-move">${row.move}</span>`);
  });
});

describe('the screen holds where to sit while the room moves', () => {
  it('holds from the last table finishing to the next round’s first deal, and not before the first round or after the last', () => {
    const { ledger: l } = copyOf(fixture);
    const m = l.models;
    l.execute(createTournament(m, { tournamentId: 'hold', name: 'Hold', format: 'tournament-spades', options: { rounds: 2 } }));
    for (const name of NAMES.slice(0, 8)) l.execute(registerPlayer(m, { tournamentId: 'hold', playerId: name.toLowerCase(), name }));
    l.execute(startTournament(m, { tournamentId: 'hold', seed: 'hold' }));
    const hold = () => progressiveView(m.tournaments.hold!, m.games)!.sitting!.hold;
    const html = () => livePartials(channelOf('screen', 'hold'), m)!.get('where-to-sit')!;
    expect(hold()).toBe(false);
    l.execute(startRound(m, { tournamentId: 'hold', seed: 'hold' }));
    expect(hold()).toBe(false);
    const play = () => {
      for (let step = 0; step < 100_000 && !m.tournaments.hold!.progressive!.rounds.at(-1)!.results; step++) {
        for (const id of Object.values(m.tournaments.hold!.progressive!.rounds.at(-1)!.games))
          if (!m.games[id]!.winner) l.execute(() => nextEntry(l, m.games[id]!, { seed: 'hold' }) ?? []);
      }
    };
    play();
    expect(hold()).toBe(true);
    expect(html()).toContain('data-hold="true"');
    l.execute(startRound(m, { tournamentId: 'hold', seed: 'hold' }));
    expect(hold()).toBe(true);
    const first = Object.values(m.tournaments.hold!.progressive!.rounds[1]!.games)[0]!;
    l.execute(() => nextEntry(l, m.games[first]!, { seed: 'hold' }) ?? []);
    expect(hold()).toBe(false);
    expect(html()).toContain('data-hold="false"');
    play();
    expect(m.tournaments.hold!.model.status).toBe('finished');
    expect(hold()).toBe(false);
  });
});

describe('the director’s desk during a round', () => {
  it('puts each table’s state at the top, lists players by name with who sits out, and draws the first dealers unless a seed is given under Advanced', async () => {
    const { ledger: l, app: a } = copyOf(fixture);
    const m = l.models;
    const long = 'Maximiliana Bartholomew-Featherstonehaugh Okonkwo-Villanueva';
    l.execute(createTournament(m, { tournamentId: 'desk', name: 'Desk', format: 'tournament-spades', options: { rounds: 2 } }));
    for (const name of [...NAMES.slice(0, 8), long]) l.execute(registerPlayer(m, { tournamentId: 'desk', playerId: name.slice(0, 3).toLowerCase(), name }));
    l.execute(startTournament(m, { tournamentId: 'desk', seed: 'desk' }));
    const desk = async () => {
      const res = await send(a, fixture.clients.director, 'GET', '/director/tournaments/desk');
      expect(res.status).toBe(200);
      return res.text();
    };
    // Before round 1: the seat button, with the seed tucked away and said in one sentence.
    let html = await desk();
    const seatForm = html.slice(
      html.lastIndexOf('<form', html.indexOf('data-action="seat-round"')),
      html.indexOf('</form>', html.indexOf('data-action="seat-round"')),
    );
    expect(seatForm).toMatch(/<details class="advanced"><summary>Advanced<\/summary><label>Seed for the first dealers <input name="seed"/);
    expect(seatForm).toContain('The system draws each table&#39;s first dealer at random');
    const seated = await send(a, fixture.clients.director, 'POST', '/director/tournaments/desk/rounds', { json: {} });
    expect(seated.status).toBe(200);
    const round = m.tournaments.desk!.progressive!.rounds[0]!;
    const started = l.store.readAll().filter((e) => e.type === 'GameStarted' && (e.payload as { tournamentId?: string }).tournamentId === 'desk');
    expect(started).toHaveLength(2);

    // Table 1 plays to its end, table 2 into its second hand.
    const [g1, g2] = [round.games['1']!, round.games['2']!];
    for (let i = 0; i < 100_000 && !m.games[g1]!.winner; i++) l.execute(() => nextEntry(l, m.games[g1]!, { seed: 'desk' }) ?? []);
    for (let i = 0; i < 100_000 && m.games[g2]!.rows.length < 1; i++) l.execute(() => nextEntry(l, m.games[g2]!, { seed: 'desk' }) ?? []);
    l.execute(() => nextEntry(l, m.games[g2]!, { seed: 'desk' }) ?? []);
    html = await desk();
    const tables = element(html, /<section class="desk-tables"/);
    // At the top of the desk, before the screen and the players' list.
    expect(html.indexOf('class="desk-tables"')).toBeLessThan(html.indexOf('id="screen-pin-title"'));
    const nameOf = (id: string) => m.tournaments.desk!.model.teams.find((t) => t.teamId === id)!.name;
    const g = m.games[g1]!;
    expect(tables).toContain(
      `<li data-table="1" data-state="done"><strong>Table 1</strong>: <span class="desk-table-state">done, N–S ${g.score.NS} · E–W ${g.score.EW}</span>`,
    );
    expect(tables).toMatch(/<li data-table="2" data-state="playing"><strong>Table 2<\/strong>: <span class="desk-table-state">hand 2 of 4<\/span>/);
    const seats = round.seating[1]!.seats;
    expect(tables).toContain(`${nameOf(seats.N)} &amp; ${nameOf(seats.S)} (N–S) v ${nameOf(seats.E)} &amp; ${nameOf(seats.W)} (E–W)`.replace(/'/g, '&#39;'));
    expect(tables).toContain(`Sitting out round 1: ${nameOf(round.sittingOut[0]!)}`);

    // The players' list: names, never ids, and where each one is, the sit-out included.
    const players = element(html, /<table class="director-teams director-teams--players"/);
    expect(players).not.toContain('<th scope="col">Id</th>');
    expect(players).toContain(long);
    for (const t of m.tournaments.desk!.model.teams) expect(players).not.toContain(`<td>${t.teamId}</td>`);
    const restingRow = element(players, new RegExp(`<tr data-team="${round.sittingOut[0]}"`));
    expect(restingRow).toContain('sitting out round 1');
    expect(element(players, new RegExp(`<tr data-team="${seats.N}"`))).toContain('table 2, North');
  });
});

describe('progressive words on the live tables and the table’s phone', () => {
  it('says "Round 1 · Hand 1 of 4" on the screen, the table page and the phone, without games won, and the evening’s end on the phone with the final standings', async () => {
    const made = copyOf(fixture);
    const { ledger: l, app: a } = made;
    const m = l.models;
    l.execute(createTournament(m, { tournamentId: 'words', name: 'Words', format: 'tournament-spades', options: { rounds: 2 } }));
    for (const name of NAMES.slice(0, 8)) l.execute(registerPlayer(m, { tournamentId: 'words', playerId: name.toLowerCase(), name }));
    l.execute(startTournament(m, { tournamentId: 'words', seed: 'words' }));
    l.execute(startRound(m, { tournamentId: 'words', seed: 'words' }));
    const join = await a.request('/join', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ code: await made.auth.tableCode('words', 1) }),
    });
    const keeper = { cookie: (join.headers.get('set-cookie') ?? '').split(';')[0]!, csrf: ((await join.json()) as { csrf: string }).csrf };
    const phone = async () => {
      const res = await send(a, keeper, 'GET', '/entry/tables/words/1');
      expect(res.status).toBe(200);
      return res.text();
    };
    const gameId = m.tournaments.words!.progressive!.rounds[0]!.games['1']!;
    l.execute(() => nextEntry(l, m.games[gameId]!, { seed: 'words' }) ?? []);

    const tables = livePartials(channelOf('screen', 'words'), m)!.get('live-tables')!;
    expect(tables).toContain('Round 1 · Hand 1 of 4');
    expect(tables).not.toMatch(/games won|class="games"|Games won/);
    const publicTable = await (await a.request(`/tournaments/words/games/${gameId}`)).text();
    expect(publicTable).toContain('<p class="table-meta">Round 1 · Hand 1 of 4</p>');
    expect(publicTable).not.toContain('Game 1');
    let html = await phone();
    expect(html).toContain('<p class="entry-score">Round 1 · Hand 1 of 4 · ');
    expect(html).not.toContain('Game 1');

    const playAll = () => {
      for (let step = 0; step < 100_000 && !m.tournaments.words!.progressive!.rounds.at(-1)!.results; step++) {
        for (const id of Object.values(m.tournaments.words!.progressive!.rounds.at(-1)!.games))
          if (!m.games[id]!.winner) l.execute(() => nextEntry(l, m.games[id]!, { seed: 'words' }) ?? []);
      }
    };
    playAll();
    html = await phone();
    expect(html).toContain('data-evening="between"');
    expect(html).toContain('Round 1 is over at this table.');
    l.execute(startRound(m, { tournamentId: 'words', seed: 'words' }));
    playAll();
    expect(m.tournaments.words!.model.status).toBe('finished');
    html = await phone();
    expect(element(html, /<p class="entry-waiting" data-evening="over"/)).toBe(
      '<p class="entry-waiting" data-evening="over">The evening is over: all 2 rounds are played. <a href="/tournaments/words/leaderboard">See the final standings</a></p>',
    );
    expect(html).not.toContain('No match is ready for this table yet.');
  });
});

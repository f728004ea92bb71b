/**
 * Progressive evenings (tournament-spades) run the way a director runs one: created with its
 * number of rounds, players registered one by one, checked in, a no-show withdrawn, the first
 * seating drawn, and each round seated through the director's routes; the bots play the tables
 * through the scorekeepers' commands. After every round the seating is checked against the
 * movement of rules.md, and the sit-outs against "nobody twice before everyone once" and "a
 * sit-out scores the round's average individual score, rounded to the nearest point".
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Seat, SEATS, type Team } from '../engine/cards.ts';
import type { Ledger } from '../events/store/sqlite/ledger.ts';
import type { ProgressiveRoundModel } from '../events/progressive-projection.ts';
import type { ProgressiveSeating } from '../engine/progressive.ts';
import { nextEntry } from '../server/serve/table-driver.ts';
import { type Fixture, copyOf, makeFixture, send } from './routes-fixture.ts';
import { expectRebuildEqualsLive } from './tournament-ledger.ts';
import { openDatabase } from '../events/store/sqlite/database.ts';
import { verifyChain } from '../events/store/sqlite/event-store.ts';
import { formatDigest } from '../events/hash-chain.ts';
import { importLedger } from '../events/store/sqlite/ledger-tools.ts';

let fixture: Fixture;
beforeAll(async () => {
  fixture = await makeFixture();
});
afterAll(() => fixture.close());

type App = ReturnType<typeof copyOf>['app'];
const NAMES = ['Ada', 'Ben', 'Cy', 'Dee', 'Eve', 'Fay', 'Gus', 'Hal', 'Ivy', 'Jo', 'Kit', 'Lou', 'Mo', 'Ned', 'Oona', 'Pat'];

async function director(
  app: App,
  path: string,
  json: Record<string, unknown>,
): Promise<{ status: number; body: { ok?: boolean; done?: string; error?: string } }> {
  const res = await send(app, fixture.clients.director, 'POST', path, { json });
  return { status: res.status, body: (await res.json()) as { ok?: boolean; done?: string; error?: string } };
}

/** Plays every table of the round in play to its end with the bots' entries. */
function playRound(ledger: Ledger, id: string): void {
  for (let step = 0; step < 100_000; step++) {
    const round = ledger.models.tournaments[id]!.progressive!.rounds.at(-1)!;
    const open = Object.values(round.games)
      .map((g) => ledger.models.games[g]!)
      .filter((g) => !g.winner);
    if (open.length === 0 && Object.keys(round.games).length === round.seating.length) return;
    for (const game of open) {
      ledger.execute(() => nextEntry(ledger, ledger.models.games[game.gameId]!, { seed: 'evening' }) ?? []);
    }
  }
  throw new Error('the round did not finish');
}

const seatOf = (round: ProgressiveRoundModel, player: string): { table: number; seat: Seat } | null => {
  for (const t of round.seating) for (const seat of SEATS) if (t.seats[seat] === player) return { table: t.table, seat };
  return null;
};
const sideOf = (seat: Seat): Team => (seat === 'N' || seat === 'S' ? 'NS' : 'EW');

/**
 * Checks round r+1's seating against round r's results by the rule itself: table k's winners
 * move up to k-1, its losers stay; table 1's winners stay and its losers go to the last table;
 * at each table the two who stayed are split; the players returning from a rest take the
 * seats of those who rest next.
 */
function checkMovement(before: ProgressiveRoundModel, after: ProgressiveRoundModel): void {
  const last = before.seating.length;
  const resting = new Set(after.sittingOut);
  for (const t of before.seating) {
    const result = before.results!.find((r) => r.table === t.table)!;
    for (const seat of SEATS) {
      const player = t.seats[seat];
      const won = sideOf(seat) === result.winner;
      const expected = t.table === 1 ? (won ? 1 : last) : won ? t.table - 1 : t.table;
      if (resting.has(player)) {
        expect(seatOf(after, player), `${player} rests in round ${after.round}`).toBeNull();
        continue;
      }
      expect(seatOf(after, player)?.table, `${player}, ${won ? 'winner' : 'loser'} at table ${t.table} in round ${before.round}`).toBe(expected);
    }
  }
  for (const t of after.seating) {
    // "The incoming partners split and join with the sitting partners": the two who were at this
    // table before are partners no more.
    const stayers = SEATS.filter((seat) => seatOf(before, t.seats[seat])?.table === t.table);
    expect(stayers.length, `table ${t.table} keeps at most its two stayers in round ${after.round}`).toBeLessThanOrEqual(2);
    if (stayers.length === 2) expect(sideOf(stayers[0]!), `table ${t.table} splits its stayers in round ${after.round}`).not.toBe(sideOf(stayers[1]!));
  }
  for (const player of before.sittingOut) expect(seatOf(after, player), `${player} returns from rest in round ${after.round}`).not.toBeNull();
}

async function runEvening(players: number, rounds: number, opts: { noShow?: boolean } = {}) {
  const { ledger, app } = copyOf(fixture);
  const id = `eve-${players}`;
  expect(
    (await director(app, '/director/tournaments', { tournamentId: id, name: `${players}-player evening`, format: 'tournament-spades', rounds })).status,
  ).toBe(200);
  expect(ledger.models.tournaments[id]!.format.rounds).toBe(rounds);
  const registered = players + (opts.noShow ? 1 : 0);
  for (let i = 0; i < registered; i++) {
    const res = await director(app, `/director/tournaments/${id}/players`, { name: NAMES[i]!, ...(i % 2 === 0 ? { gender: 'female' } : { gender: 'male' }) });
    expect(res.status, res.body.error).toBe(200);
  }
  const entrants = ledger.models.tournaments[id]!.model.teams;
  const ids = entrants.map((t) => t.teamId);
  // The confirmations name the player, as the director knows them, not the id the ledger keys them by.
  if (opts.noShow) {
    expect((await director(app, `/director/tournaments/${id}/withdraw`, { teamId: ids.at(-1) })).body.done).toBe(`Player ${entrants.at(-1)!.name} withdrew.`);
  }
  for (const { teamId, name } of entrants.slice(0, players)) {
    expect((await director(app, `/director/tournaments/${id}/check-in`, { teamId })).body.done).toBe(`Player ${name} checked in.`);
  }
  const start = await director(app, `/director/tournaments/${id}/start`, { seed: `draw-${players}` });
  expect(start.status, start.body.error).toBe(200);
  const started = ledger.store.readAll().find((e) => e.type === 'TournamentStarted' && (e.payload as { tournamentId: string }).tournamentId === id)!;
  expect(started.payload).toMatchObject({ seeding: { method: 'random', seed: `draw-${players}` } });
  // One code card a table: four players a table, the extras sitting out.
  const codes = await (await send(app, fixture.clients.director, 'GET', `/director/tournaments/${id}/codes`)).text();
  expect(codes.match(/data-code="/g)).toHaveLength(Math.floor(players / 4));

  const rested = new Map(ids.slice(0, players).map((p) => [p, 0]));
  for (let r = 1; r <= rounds; r++) {
    const seated = await director(app, `/director/tournaments/${id}/rounds`, { seed: `dealers-${r}` });
    expect(seated.status, seated.body.error).toBe(200);
    const state = ledger.models.tournaments[id]!.progressive!;
    const round = state.rounds.at(-1)!;
    expect(round.round).toBe(r);
    expect(round.seating).toHaveLength(Math.floor(players / 4));
    expect(round.sittingOut).toHaveLength(players % 4);
    for (const p of round.sittingOut) rested.set(p, rested.get(p)! + 1);
    const counts = [...rested.values()];
    expect(Math.max(...counts) - Math.min(...counts), `round ${r}: nobody rests twice before everyone once`).toBeLessThanOrEqual(1);
    playRound(ledger, id);
    const done = ledger.models.tournaments[id]!.progressive!.rounds.at(-1)!;
    expect(done.results).not.toBeNull();
    // Each player scores their side's round score; a sit-out the rounded average of everyone seated.
    const scores: number[] = [];
    for (const t of done.seating) {
      const game = ledger.models.games[done.games[String(t.table)]!]!;
      expect(game.hands.length).toBeGreaterThanOrEqual(4);
      for (const seat of SEATS) {
        expect(done.scores![t.seats[seat]]).toBe(game.score[sideOf(seat)]);
        scores.push(game.score[sideOf(seat)]);
      }
    }
    const average = Math.round(scores.reduce((a, b) => a + b, 0) / scores.length);
    for (const p of done.sittingOut) expect(done.scores![p], `${p} sat out round ${r}`).toBe(average);
    if (r > 1) checkMovement(ledger.models.tournaments[id]!.progressive!.rounds[r - 2]!, done);
    if (r < rounds) {
      // The next seating is known as soon as the round is over, before the director seats it.
      const next = ledger.models.tournaments[id]!.progressive!.nextSeating;
      expect(next).not.toBeNull();
    }
  }
  const tournament = ledger.models.tournaments[id]!;
  expect(tournament.model.status).toBe('finished');
  // The winner: the highest sum of each player's round scores, worked out here from the games.
  const totals = new Map<string, number>();
  for (const round of tournament.progressive!.rounds) for (const [p, s] of Object.entries(round.scores!)) totals.set(p, (totals.get(p) ?? 0) + s);
  const best = Math.max(...totals.values());
  const winners = [...totals]
    .filter(([, t]) => t === best)
    .map(([p]) => p)
    .sort();
  expect(
    tournament.model.placings
      .filter((p) => p.place === 1)
      .map((p) => p.teamId)
      .sort(),
  ).toEqual(winners);
  expect(tournament.model.prizes!.find((p) => p.prize === 'High player')!.teams.sort()).toEqual(winners);
  const refused = await director(app, `/director/tournaments/${id}/rounds`, { seed: 'late' });
  expect(refused).toEqual({ status: 409, body: { error: `tournament ${id}: all ${rounds} rounds have been played` } });
  return { ledger, app, id };
}

describe('progressive evenings played to the end through the director routes', () => {
  it('8 players, two tables, 3 rounds', async () => {
    const { ledger } = await runEvening(8, 3);
    ledger.close();
  }, 120_000);

  it('12 players, three tables, 4 rounds, with a no-show withdrawn before the start', async () => {
    const { ledger } = await runEvening(12, 4, { noShow: true });
    ledger.close();
  }, 120_000);

  it('13 players: three tables and one sits out each round in turn, 5 rounds', async () => {
    const { ledger, app, id } = await runEvening(13, 5);
    // Replay from position 0 gives the same seatings, sit-outs and totals, and the chain verifies.
    expectRebuildEqualsLive(ledger);
    // The exported ledger imports into an empty file that verifies to the same head.
    const text = await (await app.request('/api/ledger.ndjson')).text();
    const database = openDatabase({ path: join(fixture.dir, `imported-${id}.db`) });
    try {
      expect(importLedger(database, text).ok).toBe(true);
      expect(formatDigest(verifyChain(database).head)).toBe(ledger.store.digest());
    } finally {
      database.close();
    }
    expect(await (await app.request('/verify')).text()).toContain('intact');
    // As of the end of round 2: the totals then, not now.
    const round3 = ledger.store.readAll().find((e) => e.type === 'ProgressiveRoundStarted' && (e.payload as { round: number }).round === 3)!;
    const asOf = await (await app.request(`/tournaments/${id}/as-of?position=${round3.position}`)).text();
    const then = ledger.models.tournaments[id]!.progressive!.rounds.slice(0, 2);
    const leader = ledger.models.tournaments[id]!.progressive!.players.map((p) => ({
      name: p.name,
      total: then.reduce((sum, r) => sum + r.scores![p.playerId]!, 0),
    }));
    for (const row of leader) expect(asOf).toContain(row.name);
    expect(asOf).toContain(String(Math.max(...leader.map((r) => r.total))));
    // A hand of a progressive table replays like any other.
    const gameId = ledger.models.tournaments[id]!.progressive!.rounds[1]!.games['2']!;
    expect((await app.request(`/games/${gameId}/hands/2/replay`)).status).toBe(200);
    ledger.close();
  }, 180_000);
});

describe('a progressive evening set up and corrected through the routes', () => {
  async function eightPlayers(rounds: number) {
    const made = copyOf(fixture);
    const id = 'eve';
    await director(made.app, '/director/tournaments', { tournamentId: id, name: 'Evening', format: 'tournament-spades', rounds });
    for (const name of NAMES.slice(0, 8)) await director(made.app, `/director/tournaments/${id}/players`, { name });
    return { ...made, id };
  }

  it('registers players one by one, refusing what does not fit, with a sentence and nothing recorded', async () => {
    const { ledger, app, id } = await eightPlayers(4);
    const head = ledger.models.position;
    expect(await director(app, `/director/tournaments/${id}/players`, { name: 'Ada' })).toEqual({
      status: 409,
      body: { error: `tournament ${id}: 'Ada' is already registered` },
    });
    expect(await director(app, `/director/tournaments/${id}/players`, { name: 'Quin', gender: 'other' })).toEqual({
      status: 400,
      body: { error: "the prize category is male, female or left empty, not 'other'" },
    });
    expect(await director(app, `/director/tournaments/t2/players`, { name: 'Quin' })).toEqual({
      status: 400,
      body: { error: 'tournament t2 is played by teams of two; register a team' },
    });
    expect(await director(app, `/director/tournaments/${id}/teams`, { name: 'Pair', player1: 'A', player2: 'B' })).toEqual({
      status: 400,
      body: { error: `tournament ${id} plays progressive tables, where partners change every round; register individual players` },
    });
    expect(ledger.models.position).toBe(head);
    const ok = await director(app, `/director/tournaments/${id}/players`, { name: 'Quin Ray', gender: 'female' });
    expect(ok.body.done).toBe('Registered Quin Ray (female) as player quin-ray.');
    expect(ledger.models.tournaments[id]!.progressive!.players.at(-1)).toEqual({ playerId: 'quin-ray', name: 'Quin Ray', gender: 'female', total: 0 });
    const page = await (await send(app, fixture.clients.director, 'GET', `/director/tournaments/${id}`)).text();
    expect(page).toContain('Register the player');
    expect(page).toContain('Check the player in');
    expect(page).toContain('Withdraw the player');
    expect(page).not.toContain('Register a team');
    // Starting cannot be taken back: the button previews the seating first, and records nothing.
    expect(page).toContain('Preview the draw');
    const before = ledger.models.position;
    // Nobody has checked in: the desk refuses to start, naming who is missing.
    const asked = await send(app, fixture.clients.director, 'POST', `/director/tournaments/${id}/start`, { form: {} });
    expect(asked.status).toBe(409);
    expect(await asked.text()).toContain('Quin Ray');
    expect(ledger.models.position).toBe(before);
    ledger.close();
  });

  it('creates the event with the rounds asked for, and changes them until the last round starts', async () => {
    const { ledger, app, id } = await eightPlayers(2);
    const rounds = () => ledger.models.tournaments[id]!.format.rounds;
    expect(rounds()).toBe(2);
    expect((await director(app, '/director/tournaments', { tournamentId: 'cup', name: 'Cup', format: 'pitt-boss', rounds: 3 })).body.error).toBe(
      'tournament cup: a number of rounds belongs to progressive tables, round robins and Swiss events, not to an elimination bracket',
    );
    expect((await director(app, `/director/tournaments/${id}/round-count`, { rounds: 0 })).status).toBe(400);
    expect((await director(app, `/director/tournaments/${id}/round-count`, { rounds: 3 })).body.done).toBe('The evening now plays 3 rounds.');
    expect(rounds()).toBe(3);
    await director(app, `/director/tournaments/${id}/start`, { seed: 'x' });
    await director(app, `/director/tournaments/${id}/rounds`, { seed: 'r1' });
    playRound(ledger, id);
    await director(app, `/director/tournaments/${id}/rounds`, { seed: 'r2' });
    expect(await director(app, `/director/tournaments/${id}/round-count`, { rounds: 1 })).toEqual({
      status: 409,
      body: { error: `tournament ${id}: 2 rounds have already started, so it cannot play only 1` },
    });
    // Round 2, in play, becomes the last.
    expect((await director(app, `/director/tournaments/${id}/round-count`, { rounds: 2 })).status).toBe(200);
    expect(await director(app, `/director/tournaments/${id}/round-count`, { rounds: 5 })).toEqual({
      status: 409,
      body: { error: `tournament ${id}: its last round (round 2) has started, so the number of rounds can no longer change` },
    });
    playRound(ledger, id);
    expect(ledger.models.tournaments[id]!.model.status).toBe('finished');
    expect(ledger.models.tournaments[id]!.progressive!.nextSeating).toBeNull();
    expect(
      ledger.store
        .readAll()
        .filter((e) => e.type === 'ProgressiveRoundsChanged')
        .map((e) => (e.payload as { rounds: number }).rounds),
    ).toEqual([3, 2]);
    ledger.close();
  });

  it("a judge's score correction to a finished round moves the totals and standings, and leaves the seatings played", async () => {
    const { ledger, app, id } = await eightPlayers(2);
    await director(app, `/director/tournaments/${id}/start`, { seed: 'x' });
    for (const r of [1, 2]) {
      await director(app, `/director/tournaments/${id}/rounds`, { seed: `r${r}` });
      playRound(ledger, id);
    }
    const state = () => ledger.models.tournaments[id]!.progressive!;
    const seatings = JSON.stringify(state().rounds.map((r) => r.seating));
    const round1 = state().rounds[0]!;
    const table1 = round1.seating[0]!;
    const before = Object.fromEntries(state().players.map((p) => [p.playerId, p.total]));
    const gameId = round1.games['1']!;
    const loser = ledger.models.games[gameId]!.winner === 'NS' ? 'EW' : 'NS';
    const res = await send(app, fixture.clients.judge, 'POST', '/judge/corrections', {
      json: { gameId, NS: loser === 'NS' ? 500 : 0, EW: loser === 'EW' ? 500 : 0, reason: 'miscounted hand 2' },
    });
    expect(res.status, await res.clone().text()).toBe(200);
    const seats = loser === 'NS' ? [table1.seats.N, table1.seats.S] : [table1.seats.E, table1.seats.W];
    for (const p of state().players) expect(p.total, p.playerId).toBe(before[p.playerId]! + (seats.includes(p.playerId) ? 500 : 0));
    expect(JSON.stringify(state().rounds.map((r) => r.seating))).toBe(seatings);
    const top = Math.max(...state().players.map((p) => p.total));
    expect(
      ledger.models.tournaments[id]!.model.placings.filter((p) => p.place === 1)
        .map((p) => p.teamId)
        .sort(),
    ).toEqual(
      state()
        .players.filter((p) => p.total === top)
        .map((p) => p.playerId)
        .sort(),
    );
    expectRebuildEqualsLive(ledger);
    ledger.close();
  });
});

describe('the room sees a progressive evening', () => {
  const rowsOf = (html: string) =>
    [...html.matchAll(/<li class="sit-row" data-player="([^"]+)" data-table="(\d+)" data-seat="([NESW])"><span class="sit-name">([^<]+)<\/span>/g)].map(
      (m) => ({
        player: m[1]!,
        table: Number(m[2]),
        seat: m[3]!,
        name: m[4]!,
      }),
    );

  it('the screen says where everyone sits, sorted by name, who sits out, and the individual standings; each table shows its four players by seat', async () => {
    const made = copyOf(fixture);
    const { ledger, app, id } = { ...made, id: 'room' };
    await director(app, '/director/tournaments', { tournamentId: id, name: 'Room', format: 'tournament-spades', rounds: 3 });
    for (let i = 0; i < 13; i++) await director(app, `/director/tournaments/${id}/players`, { name: NAMES[12 - i]!, gender: i % 2 ? 'male' : 'female' });
    await director(app, `/director/tournaments/${id}/screen`, {});
    await director(app, `/director/tournaments/${id}/start`, { seed: 'room' });
    const screen = async () => (await send(app, null, 'GET', '/screen')).text();

    // Before round 1 is seated the drawn seating is already up, so players can find their seats.
    let html = await screen();
    const state = () => ledger.models.tournaments[id]!.progressive!;
    const check = (seating: ProgressiveSeating | null, out: string[], round: number, heading: string) => {
      const rows = rowsOf(html);
      expect(rows.map((r) => r.name)).toEqual([...rows.map((r) => r.name)].sort((a, b) => a.localeCompare(b)));
      expect(rows).toHaveLength(12);
      for (const row of rows) expect(seating!.find((t) => t.table === row.table)!.seats[row.seat as Seat]).toBe(row.player);
      expect(html).toContain(`Round ${round} of 3: ${heading}`);
      expect(html).toContain(`data-sitting-out="${out.join(' ')}"`);
    };
    check(state().nextSeating, state().nextSittingOut, 1, 'where to sit now');
    await director(app, `/director/tournaments/${id}/rounds`, { seed: 'd1' });
    html = await screen();
    check(state().rounds[0]!.seating, state().rounds[0]!.sittingOut, 1, 'where everyone sits');
    // The public standings are individual totals: no team columns a player does not have.
    const totalsPage = await (await send(app, null, 'GET', `/tournaments/${id}/leaderboard`)).text();
    expect(totalsPage).toContain('<h2 id="leaderboard-title">Individual totals</h2>');
    expect(totalsPage).not.toMatch(/>\s*(Bags|Sets|<abbr title="Games won–lost">Games<\/abbr>)\s*</);

    // Each table's public page and the scorekeeper's phone name the four players by seat.
    const table1 = state().rounds[0]!.seating[0]!;
    const gameId = state().rounds[0]!.games['1']!;
    const names = (ids: string[]) => ids.map((p) => ledger.models.tournaments[id]!.model.teams.find((t) => t.teamId === p)!.name);
    const [n, e, s, w] = names([table1.seats.N, table1.seats.E, table1.seats.S, table1.seats.W]);
    const seatList = `<li data-seat="N"><span class="seat-list-seat">North</span> ${n}</li><li data-seat="E"><span class="seat-list-seat">East</span> ${e}</li><li data-seat="S"><span class="seat-list-seat">South</span> ${s}</li><li data-seat="W"><span class="seat-list-seat">West</span> ${w}</li>`;
    const publicTable = await (await send(app, null, 'GET', `/tournaments/${id}/games/${gameId}`)).text();
    expect(publicTable).toContain(seatList);
    expect(publicTable).toContain(`${n} &amp; ${s}`);
    expect(await (await send(app, null, 'GET', `/tournaments/${id}`)).text()).toContain(`${n} &amp; ${s} vs ${e} &amp; ${w}`);
    const join = await app.request('/join', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ code: await made.auth.tableCode(id, 1) }),
    });
    const keeper = { cookie: (join.headers.get('set-cookie') ?? '').split(';')[0]!, csrf: ((await join.json()) as { csrf: string }).csrf };
    const phone = await (await send(app, keeper, 'GET', `/entry/tables/${id}/1`)).text();
    expect(phone).toContain(seatList);

    playRound(ledger, id);
    html = await screen();
    // The movement is on the screen as soon as the round is over.
    check(state().nextSeating, state().nextSittingOut, 2, 'where to sit now');
    const standings = html.slice(html.indexOf('id="individual-standings"'));
    const order = [...standings.matchAll(/<tr data-player="([^"]+)">/g)].map((m) => m[1]);
    expect(order).toEqual(state().standings.map((s) => s.playerId));
    const top = state().standings[0]!;
    expect(standings).toContain(`<td class="num total">${top.total}</td>`);
    expect(standings).toMatch(/data-prize="High player">High player so far: <strong>[^<]+<\/strong>/);
    expect(standings).toContain('data-prize="High female"');
    expect(standings).toContain('* sat out: the round');
    const leaderboard = await (await send(app, null, 'GET', `/tournaments/${id}/leaderboard`)).text();
    expect(leaderboard).toContain('id="individual-standings"');
    ledger.close();
  });
});

/**
 * A series of three events with overlapping players, played to the end by the bots: its
 * standings per player and per partnership equal the points this test counts from each event's
 * placings by the series' table; its page, CSV, embed and read API answer agree; a judge's
 * correction of a result moves the series; a merge and a split of players move the totals.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ReadModels } from '../events/projections.ts';
import { documentChecked } from './fixtures/api-document.ts';
import { playEvent, teamEvent } from './fixtures/circuit-season.ts';
import { correctGameResult } from '../server/commands/ruling-commands.ts';
import { type Fixture, copyOf, makeFixture, send } from './routes-fixture.ts';
import { eventsOf, expectRebuildEqualsLive } from './tournament-ledger.ts';

let fixture: Fixture;
beforeAll(async () => {
  fixture = await makeFixture();
});
afterAll(() => fixture?.close());

const POINTS = { '1': 10, '2': 7, '3': 5, '4': 3, played: 1 } as const;
const EVENTS = ['s1', 's2', 's3'] as const;

type Copy = ReturnType<typeof copyOf>;
const director = (copy: Copy, path: string, json: unknown) => send(copy.app, fixture.clients.director, 'POST', path, { json });

/** The same person however the name was typed: the key this test keeps for itself. */
const key = (name: string) => name.toLowerCase().replace(/[^a-z]/g, '');

/** Points per player and per partnership, counted here from each event's placings and rosters. */
function counted(models: ReadModels, events: readonly string[], who: (tournamentId: string, name: string) => string = (_t, name) => key(name)) {
  const players = new Map<string, number>();
  const pairs = new Map<string, number>();
  for (const id of events) {
    const model = models.tournaments[id]!.model;
    if (model.placings.length === 0) continue;
    for (const team of model.teams) {
      if (team.status === 'withdrawn') continue;
      const place = model.placings.find((p) => p.teamId === team.teamId)?.place;
      const points = (place === undefined ? 0 : ((POINTS as Record<string, number>)[String(place)] ?? 0)) + POINTS.played;
      const people = team.players.map((name) => who(id, name));
      for (const person of people) players.set(person, (players.get(person) ?? 0) + points);
      const pair = [...people].sort().join('+');
      pairs.set(pair, (pairs.get(pair) ?? 0) + points);
    }
  }
  return { players, pairs };
}

interface SeriesBody {
  players: { playerId: string; name: string; points: number; events: number; place: number; best: number | null; tiebreak: string | null }[];
  partnerships: { players: { playerId: string; name: string }[]; points: number }[];
  events: { tournamentId: string; counted: boolean }[];
}

/** Three Thursday events: Ana and Ben play every week, with and against the others, names typed differently. */
async function season(copy: Copy): Promise<void> {
  const { ledger } = copy;
  teamEvent(ledger, 's1', 'Week 1', [
    { name: 'Aces', players: ['Ana Lopez', 'Ben Ortiz'] },
    { name: 'Kings', players: ['Cy Diaz', 'Dee Park'] },
    { name: 'Queens', players: ['Eve Moss', 'Fay Wu'] },
    { name: 'Jacks', players: ['Gus Roy', 'Hal Kim'] },
  ]);
  teamEvent(ledger, 's2', 'Week 2', [
    { name: 'Aces', players: ['ana lopez', 'Cy Diaz'] },
    { name: 'Bens', players: ['BEN ORTIZ', 'Eve Moss'] },
    { name: 'Parks', players: ['Dee Park', 'Gus Roy'] },
    { name: 'Wus', players: ['Fay Wu', 'Ivy Lane'] },
  ]);
  teamEvent(ledger, 's3', 'Week 3', [
    { name: 'Aces', players: ['Ana Lopez', 'Ben Ortiz'] },
    { name: 'Dees', players: ['Dee Park.', 'Hal Kim'] },
    { name: 'Ivies', players: ['Ivy Lane', 'Jo Reyes'] },
    { name: 'Cys', players: ['Cy Diaz', 'Eve Moss'] },
  ]);
  const created = await director(copy, '/director/series', { seriesId: 'thursdays', name: 'Thursday League', points: POINTS });
  expect(created.status, await created.clone().text()).toBe(200);
  for (const id of EVENTS) {
    const joined = await director(copy, `/director/tournaments/${id}/series`, { seriesId: 'thursdays' });
    expect(joined.status, await joined.clone().text()).toBe(200);
  }
  for (const id of EVENTS) await playEvent(ledger, id, `season-${id}`);
}

function expectStandingsAsCounted(body: SeriesBody, models: ReadModels): void {
  const { players, pairs } = counted(models, EVENTS);
  expect(new Map(body.players.map((p) => [key(p.name), p.points]))).toEqual(players);
  expect(
    new Map(
      body.partnerships.map((p) => [
        p.players
          .map((x) => key(x.name))
          .sort()
          .join('+'),
        p.points,
      ]),
    ),
  ).toEqual(pairs);
  // Most points first.
  const points = body.players.map((p) => p.points);
  expect(points).toEqual([...points].sort((a, b) => b - a));
}

describe('a series of three events', () => {
  it('stands as the points counted from each event’s placings, on every page and answer, and moves with a correction, a merge and a split', {
    timeout: 120_000,
  }, async () => {
    const copy = copyOf(fixture);
    const { ledger, app } = copy;
    await season(copy);
    for (const id of EVENTS) expect(ledger.models.tournaments[id]!.model.status).toBe('finished');
    const { api } = await documentChecked(app);
    const answer = async () => (await api('/api/v1/series/thursdays', '/api/v1/series/{seriesId}')).body as unknown as SeriesBody;

    const first = await answer();
    expect(first.events.map((e) => e.counted)).toEqual([true, true, true]);
    expectStandingsAsCounted(first, ledger.models);
    // Ana played every week: three events, and her total is her three events' points.
    const ana = first.players.find((p) => p.playerId === 'ana-lopez')!;
    expect(ana.events).toBe(3);
    // Ties are said in words when points are level.
    for (let i = 1; i < first.players.length; i++) {
      if (first.players[i]!.points === first.players[i - 1]!.points) expect(first.players[i]!.tiebreak).toMatch(/^Level/);
      else expect(first.players[i]!.tiebreak).toBeNull();
    }

    // As of the moment before week 3 started, only weeks 1 and 2 counted.
    const beforeWeek3 =
      ledger.store.readAll().find((e) => e.type === 'TournamentStarted' && (e.payload as { tournamentId: string }).tournamentId === 's3')!.position - 1;
    const then = (await api(`/api/v1/series/thursdays?asOf=${beforeWeek3}`, '/api/v1/series/{seriesId}')).body as unknown as SeriesBody;
    expect(then.events.map((e) => e.counted)).toEqual([true, true, false]);
    expect(new Map(then.players.map((p) => [key(p.name), p.points]))).toEqual(counted(ledger.models, ['s1', 's2']).players);

    // The page, the CSV and the embed say the same standings.
    const page = await (await app.request('/series/thursdays')).text();
    expect(page).toContain('Thursday League');
    for (const p of first.players) expect(page).toContain(`<a href="/players/${p.playerId}">${p.name}</a>`);
    const csv = await app.request('/series/thursdays/standings.csv');
    expect(csv.headers.get('content-type')).toContain('text/csv');
    const rows = (await csv.text()).trim().split('\r\n');
    expect(rows[0]).toBe('standing,place,player_id,name,events,points,best_finish,tiebreak');
    for (const p of first.players)
      expect(rows).toContainEqual(expect.stringMatching(new RegExp(`^player,${p.place},${p.playerId},${p.name},${p.events},${p.points},`)));
    const embed = await app.request('/embed/series/thursdays');
    expect(embed.status).toBe(200);
    expect(embed.headers.get('content-security-policy') ?? '').toContain('frame-ancestors *');
    expect((await app.request('/series/nothing')).status).toBe(404);
    expect((await api('/api/v1/series/nothing', '/api/v1/series/{seriesId}')).res.status).toBe(404);

    // A judge corrects the winner of week 3's final: the placings, and the series, move with it.
    const s3 = ledger.models.tournaments.s3!.model;
    const final = s3.matches.find((m) => m.side === 'final' || m.label === 'Final') ?? s3.matches.at(-1)!;
    const [winner, loser] = [final.winner!, final.teams.find((t) => t !== final.winner)!];
    const deciding = final.games.find((g) => ledger.models.games[g]!.teams[ledger.models.games[g]!.winner!] === winner)!;
    ledger.execute(correctGameResult(ledger.models, { tournamentId: 's3', gameId: deciding, winner: loser, reason: 'tricks miscounted', judge: 'Judge Ray' }));
    const corrected = await answer();
    const s3now = ledger.models.tournaments.s3!.model;
    if (s3now.placings.length > 0) {
      expectStandingsAsCounted(corrected, ledger.models);
      expect(corrected).not.toEqual(first);
    } else {
      // The final is open again: week 3 no longer counts until it is decided.
      expect(corrected.events.map((e) => e.counted)).toEqual([true, true, false]);
      const { players } = counted(ledger.models, ['s1', 's2']);
      expect(new Map(corrected.players.map((p) => [key(p.name), p.points]))).toEqual(players);
    }

    // Hal Kim's second record: "Hal Kim" of week 3 split off as someone else, then merged back.
    const hal = first.players.find((p) => p.playerId === 'hal-kim')!;
    const split = await director(copy, '/director/players/hal-kim/split', { tournaments: ['s3'], name: 'Hal Kim' });
    expect(split.status, await split.clone().text()).toBe(200);
    const afterSplit = await answer();
    const otherHal = afterSplit.players.find((p) => p.playerId === 'hal-kim-2')!;
    const firstHal = afterSplit.players.find((p) => p.playerId === 'hal-kim')!;
    const whoAfterSplit = (t: string, name: string) => (t === 's3' && key(name) === 'halkim' ? 'halkim2' : key(name));
    const splitCount = counted(ledger.models, EVENTS, whoAfterSplit).players;
    expect(firstHal.points).toBe(splitCount.get('halkim'));
    expect(otherHal.points).toBe(splitCount.get('halkim2'));
    expect(await (await app.request('/players/hal-kim-2')).text()).toContain('Week 3');
    const merged = await director(copy, '/director/players/hal-kim-2/merge', { into: 'hal-kim' });
    expect(merged.status, await merged.clone().text()).toBe(200);
    const afterMerge = await answer();
    expect(afterMerge.players.find((p) => p.playerId === 'hal-kim')!.points).toBe(firstHal.points + otherHal.points);
    expect(afterMerge.players.some((p) => p.playerId === 'hal-kim-2')).toBe(false);
    expect(hal.playerId).toBe('hal-kim');
    expect(eventsOf(ledger, 'TournamentJoinedSeries')).toHaveLength(3);
    expectRebuildEqualsLive(ledger);
    ledger.close();
  });

  it('refuses a series or a join that cannot be, recording nothing', async () => {
    const copy = copyOf(fixture);
    const head = copy.ledger.models.position;
    const cases: [string, unknown, number, string][] = [
      [
        '/director/series',
        { seriesId: 'x', name: 'X', points: { first: 10 } },
        400,
        "points names places as whole numbers from 1 to 999, and 'played' for playing, not 'first'",
      ],
      ['/director/series', { seriesId: 'x', name: 'X', points: { '1': -2 } }, 400, 'the points for place 1 must be a whole number from 0 to 100,000, not -2'],
      ['/director/series', { seriesId: 'x', name: 'X', points: { played: 1 } }, 400, 'points must give the points for at least one place, such as { "1": 10 }'],
      ['/director/series', { seriesId: 'a b', name: 'X', points: { '1': 1 } }, 400, "a series id is letters, digits and dashes, not 'a b'"],
      ['/director/tournaments/t2/series', { seriesId: 'none' }, 404, "there is no series 'none'; create it first"],
      ['/director/series', { name: 'X', points: { '1': 1 } }, 400, 'the series’ short name for its address is missing'],
      ['/director/tournaments/t2/series', {}, 400, 'the series to count toward is missing'],
    ];
    for (const [path, body, status, error] of cases) {
      const res = await director(copy, path, body);
      expect(res.status, path).toBe(status);
      expect(((await res.json()) as { error: string }).error).toBe(error);
    }
    expect(copy.ledger.models.position).toBe(head);
    expect((await director(copy, '/director/series', { seriesId: 'x', name: 'X', points: '1: 10, 2: 5, played: 1' })).status).toBe(200);
    // The desk offers the series on an event's page, and joins it from there.
    const desk = await send(copy.app, fixture.clients.director, 'GET', '/director/tournaments/t2');
    const html = await desk.text();
    expect(html).toContain('<option value="x">X</option>');
    expect(html).toContain('data-action="join-series"');
    expect((await director(copy, '/director/tournaments/t2/series', { seriesId: 'x' })).status).toBe(200);
    expect(await (await send(copy.app, fixture.clients.director, 'GET', '/director/tournaments/t2')).text()).toContain('Take it out of X');
    // An event created naming a series joins it in the same decision; a series that is not there is refused, creating nothing.
    const before = copy.ledger.models.position;
    const wrong = await director(copy, '/director/tournaments', { tournamentId: 'wk9', name: 'Week 9', format: 'pitt-boss', series: 'nope' });
    expect(wrong.status).toBe(404);
    expect(((await wrong.json()) as { error: string }).error).toBe("there is no series 'nope'; create it first");
    expect(copy.ledger.models.position).toBe(before);
    const made = await director(copy, '/director/tournaments', { tournamentId: 'wk9', name: 'Week 9', format: 'pitt-boss', series: 'x' });
    expect(made.status, await made.clone().text()).toBe(200);
    const appended = copy.ledger.store.readAll().filter((e) => e.position > before);
    expect(appended.map((e) => e.type)).toEqual(['TournamentCreated', 'TournamentJoinedSeries']);
    expect(copy.ledger.models.circuit.series.x!.tournaments).toEqual(['t2', 'wk9']);
    // The create form offers the series by name, and a form's choice joins it as the JSON's does.
    const home = await (await send(copy.app, fixture.clients.director, 'GET', '/director')).text();
    expect(home).toMatch(/<select name="series">\s*<option value="" selected="">No series<\/option>\s*<option value="x">X<\/option>/);
    const formed = await send(copy.app, fixture.clients.director, 'POST', '/director/tournaments', {
      form: { tournamentId: 'wk10', name: 'Week 10', format: 'pitt-boss', series: 'x' },
    });
    expect(formed.status).toBeLessThan(400);
    expect(copy.ledger.models.circuit.series.x!.tournaments).toEqual(['t2', 'wk9', 'wk10']);
    const again = await director(copy, '/director/tournaments/t2/series', { seriesId: 'x' });
    expect(again.status).toBe(409);
    expect(((await again.json()) as { error: string }).error).toBe('Autumn Open already counts toward X');
    copy.ledger.close();
  });
});

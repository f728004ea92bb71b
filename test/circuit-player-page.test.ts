/**
 * A player's page and read API answer across events: every event with its place and record as
 * the event's own standings give them, the partners and the results with each, the statistics of
 * every hand summed over the events (equal to the sum of each event's own statistics for the
 * player), and the rating with its history.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { statsOfTournament } from '../events/tournament-stats.ts';
import { documentChecked } from './fixtures/api-document.ts';
import { playEvent, teamEvent } from './fixtures/circuit-season.ts';
import { type Fixture, copyOf, makeFixture } from './routes-fixture.ts';

let fixture: Fixture;
beforeAll(async () => {
  fixture = await makeFixture();
});
afterAll(() => fixture?.close());

interface PlayerBody {
  playerId: string;
  name: string;
  events: {
    tournamentId: string;
    place: number | null;
    wins: number;
    losses: number;
    gamesWon: number;
    gamesLost: number;
    partner: { playerId: string } | null;
    team: { teamId: string } | null;
  }[];
  partners: { playerId: string; events: number; gamesWon: number; gamesLost: number }[];
  totals: Record<string, number>;
  rating: { mu: number; sigma: number; games: number; history: unknown[] };
}

describe('a player across events', () => {
  it('has every event with place and record, partners, hands summed over the events and the rating, on the page and in the read API', {
    timeout: 120_000,
  }, async () => {
    const copy = copyOf(fixture);
    const { ledger, app } = copy;
    teamEvent(ledger, 'p1', 'Monday pairs', [
      { name: 'Aces', players: ['Ana Lopez', 'Ben Ortiz'] },
      { name: 'Kings', players: ['Cy Diaz', 'Dee Park'] },
    ]);
    teamEvent(ledger, 'p2', 'Tuesday pairs', [
      { name: 'Kings', players: ['Cy Diaz', 'Dee Park'] },
      { name: 'Anas', players: ['ana lopez', 'Eve Moss'] },
    ]);
    await playEvent(ledger, 'p1', 'page-1');
    await playEvent(ledger, 'p2', 'page-2');
    const { api } = await documentChecked(app);
    const answer = await api('/api/v1/players/ana-lopez', '/api/v1/players/{playerId}');
    expect(answer.res.status).toBe(200);
    const body = answer.body as unknown as PlayerBody;
    expect(body.name).toBe('Ana Lopez');
    expect(body.events.map((e) => e.tournamentId)).toEqual(['p1', 'p2']);
    for (const event of body.events) {
      const model = ledger.models.tournaments[event.tournamentId]!.model;
      const row = model.teams.find((t) => t.teamId === event.team!.teamId)!;
      expect(event).toMatchObject({
        wins: row.wins,
        losses: row.losses,
        gamesWon: row.gamesWon,
        gamesLost: row.gamesLost,
        place: model.placings.find((p) => p.teamId === row.teamId)!.place,
      });
    }
    expect(body.events.map((e) => e.partner!.playerId)).toEqual(['ben-ortiz', 'eve-moss']);
    expect(body.partners.map((p) => [p.playerId, p.events, p.gamesWon, p.gamesLost])).toEqual(
      body.events.map((e) => [e.partner!.playerId, 1, e.gamesWon, e.gamesLost]).sort((a, b) => String(a[0]).localeCompare(String(b[0]))),
    );
    // Her hands summed over both events: what each event's own statistics give her.
    const fields = ['hands', 'bid', 'taken', 'nilsBid', 'nilsMade', 'blindNilsBid', 'blindNilsMade'] as const;
    const summed = Object.fromEntries(fields.map((f) => [f, 0]));
    for (const [tournamentId, entry] of [
      ['p1', 'team1:1'],
      ['p2', 'team2:1'],
    ] as const) {
      const line = statsOfTournament(ledger.models, tournamentId)!.stats.players.find(
        (p) => p.teamId === entry.split(':')[0] && p.name.toLowerCase() === 'ana lopez',
      )!;
      for (const f of fields) summed[f]! += line[f];
    }
    expect(Object.fromEntries(fields.map((f) => [f, body.totals[f]]))).toEqual(summed);
    expect(body.totals.hands).toBeGreaterThan(0);
    expect(body.rating.games).toBe(body.rating.history.length);
    expect(body.rating.games).toBeGreaterThan(0);

    const page = await app.request('/players/ana-lopez');
    expect(page.status).toBe(200);
    const html = await page.text();
    for (const text of [
      'Ana Lopez',
      'Monday pairs',
      'Tuesday pairs',
      'Ben Ortiz',
      'Eve Moss',
      `Rating ${body.rating.mu.toFixed(1)} ± ${body.rating.sigma.toFixed(1)}`,
    ])
      expect(html).toContain(text);
    expect(html).not.toContain('ana-lopez:');
    const missing = await app.request('/players/nobody-at-all');
    expect(missing.status).toBe(404);
    expect(await missing.text()).toContain('There is no player');
    expect((await api('/api/v1/players/nobody-at-all', '/api/v1/players/{playerId}')).res.status).toBe(404);
    const list = await app.request('/players');
    expect(await list.text()).toContain('<a href="/players/ana-lopez">Ana Lopez</a>');
    ledger.close();
  });
});

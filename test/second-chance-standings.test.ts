/**
 * A second-chance bracket's own places and prizes, apart from the main bracket's: set on the
 * create request, shown on the standings page while it plays and once it is over, and given in
 * the read API (checked against the OpenAPI document), counted here from the results entered.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { documentChecked } from './fixtures/api-document.ts';
import { importWin } from './paper-records.ts';
import { type Fixture, copyOf, makeFixture, send } from './routes-fixture.ts';

let fixture: Fixture;
beforeAll(async () => {
  fixture = await makeFixture();
}, 60_000);
afterAll(() => fixture.close());

/** A page's words as a reader gets them. */
const words = (html: string) =>
  html
    .replace(/<[^>]+>/g, ' ')
    .replace(/&amp;/g, '&')
    .replace(/\s+([.,:;])/g, '$1')
    .replace(/\s+/g, ' ');

describe('a second-chance bracket’s own places and prizes', () => {
  it('gives its prizes by its own places on the standings page and in the API, apart from the main bracket’s', async () => {
    const { app, ledger } = copyOf(fixture);
    const director = fixture.clients.director;
    const id = 'chance';
    const created = await send(app, director, 'POST', '/director/tournaments', {
      json: {
        tournamentId: id,
        name: 'Second chance',
        format: 'single-elimination',
        rules: 'blp-r1',
        consolation: 'first-round',
        prizes: '$300\n$100',
        secondChancePrizes: ['$50', '$20'],
      },
    });
    expect(created.status, await created.clone().text()).toBe(200);
    for (let i = 1; i <= 8; i++)
      await send(app, director, 'POST', `/director/tournaments/${id}/teams`, {
        json: { teamId: `t${i}`, name: `Team ${i}`, player1: `P${i}a`, player2: `P${i}b` },
      });
    await send(app, director, 'POST', `/director/tournaments/${id}/start`, { json: { order: ['t1', 't2', 't3', 't4', 't5', 't6', 't7', 't8'] } });
    const model = () => ledger.models.tournaments[id]!.model;
    const page = async () => words(await (await app.request(`/tournaments/${id}/leaderboard`)).text());
    expect(await page()).toContain('Second chance The first round’s losers play a knockout of their own, for its own places and prizes. Its teams are known');
    // The better seed (first named) always wins. Counted here: round 1 is 1 v 8, 4 v 5, 2 v 7,
    // 3 v 6, so 8, 5, 7 and 6 go to the second chance, which meets 8 v 5 and 7 v 6, then 8 v 7.
    const play = async (until: () => boolean) => {
      for (let guard = 0; !until(); guard++) {
        expect(guard).toBeLessThan(20);
        const match = model().matches.find((m) => m.status === 'ready')!;
        await importWin(app, fixture.clients.judge, id, match, match.teams[0]!, 'blp-r1', match.matchId);
      }
    };
    await play(() => model().matches.filter((m) => m.side === 'consolation' && m.status === 'done').length === 1);
    expect(await page()).toContain('Still in: Team 8, Team 7 and Team 6; out of it: Team 5.');
    await play(() => model().status === 'finished');
    const text = await page();
    expect(text).toContain('1st: Team 8 · $50 2nd: Team 7 · $20 3rd, shared: Team 5 and Team 6');

    // The event's page gives both prize lists apart.
    const home = words(await (await app.request(`/tournaments/${id}`)).text());
    expect(home).toContain('Prizes $300: Team 1 $100: Team 2');
    expect(home).toContain('Second-chance prizes $50: Team 8 $20: Team 7');

    const { api } = await documentChecked(app);
    const { body } = await api(`/api/v1/tournaments/${id}`, '/api/v1/tournaments/{tournamentId}');
    expect(body!.prizes).toEqual([
      { place: 1, prize: '$300', teams: ['t1'] },
      { place: 2, prize: '$100', teams: ['t2'] },
    ]);
    expect(body!.secondChancePrizes).toEqual([
      { place: 1, prize: '$50', teams: ['t8'] },
      { place: 2, prize: '$20', teams: ['t7'] },
    ]);
    // An event without a second chance has none.
    expect((await api('/api/v1/tournaments/t1', '/api/v1/tournaments/{tournamentId}')).body!.secondChancePrizes).toBeNull();
  });

  it('takes the second chance and both prize lists from the create form, one prize a line', async () => {
    const { app, ledger } = copyOf(fixture);
    const director = fixture.clients.director;
    const desk = await (await send(app, director, 'GET', '/director')).text();
    expect(desk).toContain('name="prizes"');
    expect(desk).toContain('name="consolation" value="first-round"');
    expect(desk).toContain('name="secondChancePrizes"');
    const res = await send(app, director, 'POST', '/director/tournaments', {
      form: {
        tournamentId: 'formed',
        name: 'Formed',
        format: 'single-elimination',
        consolation: 'first-round',
        prizes: 'Trophies\r\n$100\r\n',
        secondChancePrizes: ' $40 \n\n$10',
      },
    });
    expect(res.status).toBeLessThan(400);
    expect(ledger.models.tournaments.formed!.format).toMatchObject({
      consolation: 'first-round',
      prizes: ['Trophies', '$100'],
      secondChancePrizes: ['$40', '$10'],
    });
  });

  it('refuses second-chance prizes without a second chance, and a prize list it cannot read, changing nothing', async () => {
    const { app, ledger } = copyOf(fixture);
    const director = fixture.clients.director;
    const before = ledger.store.head().position;
    const refuse = async (json: Record<string, unknown>, error: string) => {
      const res = await send(app, director, 'POST', '/director/tournaments', {
        json: { tournamentId: 'nope', name: 'Nope', format: 'single-elimination', ...json },
      });
      expect(res.status).toBe(400);
      expect(((await res.json()) as { error: string }).error).toBe(error);
    };
    await refuse({ secondChancePrizes: ['$50'] }, 'tournament nope: second-chance prizes need a second-chance bracket for the first round’s losers');
    await refuse({ prizes: [300] }, 'prizes are up to 20 descriptions of up to 200 characters, one a line, 1st first');
    expect(ledger.store.head().position).toBe(before);
  });
});

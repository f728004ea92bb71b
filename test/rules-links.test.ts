/**
 * The rules sheet is one tap from every page of an event: its table pages, a team's page, the
 * standings, the sign-up page and the as-of page each link it, as the event page and the
 * bracket do.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Fixture, copyOf, makeFixture, seatMatch } from './routes-fixture.ts';

let fixture: Fixture;
beforeAll(async () => {
  fixture = await makeFixture();
});
afterAll(() => fixture?.close());

const rulesLink = (id: string) => `href="/tournaments/${id}/rules"`;

describe('every page of an event links its rules sheet', () => {
  it('the table page, a team’s page, the standings and the as-of page of a running event', async () => {
    const { app, ledger } = copyOf(fixture);
    const gameId = seatMatch(ledger, fixture.matchId);
    for (const path of [`/tournaments/t1/games/${gameId}`, '/tournaments/t1/teams/team-1', '/tournaments/t1/leaderboard', '/tournaments/t1/as-of']) {
      const res = await app.request(path);
      expect(res.status, path).toBe(200);
      expect(await res.text(), path).toContain(rulesLink('t1'));
    }
    ledger.close();
  });

  it('the sign-up page of an event taking registrations', async () => {
    const { app, ledger } = copyOf(fixture);
    const res = await app.request('/tournaments/t2/sign-up');
    expect(res.status).toBe(200);
    expect(await res.text()).toContain(rulesLink('t2'));
    ledger.close();
  });
});

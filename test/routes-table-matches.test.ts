/**
 * A table's phone starts only its own match: the ready matches go to the free tables in order,
 * so table 1's code sees one match and is refused, with why, on the match that is table 2's.
 * The director still seats any match at any table.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Fixture, copyOf, makeFixture, send } from './routes-fixture.ts';

let fixture: Fixture;
beforeAll(async () => {
  fixture = await makeFixture();
});
afterAll(() => fixture?.close());

const draw = { cardN: 'AS', cardE: 'KD', cardS: '4C', cardW: '9H' };

describe('a table’s phone and the matches it may start', () => {
  it('offers table 1 only the first ready match, and table 2 only the second', async () => {
    const { app, ledger } = copyOf(fixture);
    const ready = ledger.models.tournaments.t1!.model.matches.filter((m) => m.status === 'ready');
    expect(ready.length).toBeGreaterThanOrEqual(2);
    const one = await (await send(app, fixture.clients.scorekeeper, 'GET', '/entry/tables/t1/1')).text();
    const two = await (await send(app, fixture.clients['other-scorekeeper'], 'GET', '/entry/tables/t1/2')).text();
    const offered = (html: string) => [...html.matchAll(/name="matchId" value="([^"]+)"/g)].map((m) => m[1]);
    expect(offered(one)).toEqual([ready[0]!.matchId]);
    expect(offered(two)).toEqual([ready[1]!.matchId]);
    ledger.close();
  });

  it('refuses table 1’s code on table 2’s match with why, and records nothing', async () => {
    const { app, ledger } = copyOf(fixture);
    const ready = ledger.models.tournaments.t1!.model.matches.filter((m) => m.status === 'ready');
    const before = ledger.models.position;
    const res = await send(app, fixture.clients.scorekeeper, 'POST', '/entry/tables/t1/1/start', { json: { matchId: ready[1]!.matchId, ...draw } });
    expect(res.status).toBe(403);
    expect(((await res.json()) as { error: string }).error).toBe(
      `${ready[1]!.label} is to be started at table 2, not table 1: the ready matches go to the free tables in order, and only the director seats a match elsewhere`,
    );
    expect(ledger.models.position).toBe(before);
    // Its own match starts.
    const own = await send(app, fixture.clients.scorekeeper, 'POST', '/entry/tables/t1/1/start', { json: { matchId: ready[0]!.matchId, ...draw } });
    expect(own.status).toBe(200);
    expect(ledger.models.tournaments.t1!.model.matches.find((m) => m.matchId === ready[0]!.matchId)!.table).toBe(1);
    ledger.close();
  });

  it('lets the director seat a match at another table, after which that table’s phone plays it', async () => {
    const { app, ledger } = copyOf(fixture);
    const ready = ledger.models.tournaments.t1!.model.matches.filter((m) => m.status === 'ready');
    const seated = await send(app, fixture.clients.director, 'POST', `/director/tournaments/t1/matches/${ready[1]!.matchId}/start`, {
      json: { table: 1, ...draw },
    });
    expect(seated.status).toBe(200);
    const one = await (await send(app, fixture.clients.scorekeeper, 'GET', '/entry/tables/t1/1')).text();
    expect(one).toContain('data-next="deal:1"');
    // The first ready match now goes to table 2, the lowest free one.
    const two = await (await send(app, fixture.clients['other-scorekeeper'], 'GET', '/entry/tables/t1/2')).text();
    expect([...two.matchAll(/name="matchId" value="([^"]+)"/g)].map((m) => m[1])).toEqual([ready[0]!.matchId]);
    ledger.close();
  });
});

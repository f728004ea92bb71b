/**
 * The judge console and the director's pages through HTTP: the queue, rulings signed with the
 * judge's name and time, a second ruling refused in the page and the API, and the printed
 * table codes with their QR links.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rebuildModels } from '../events/store/sqlite/ledger-tools.ts';
import { claimRenege } from '../server/commands/game-commands.ts';
import { type Fixture, copyOf, deal, makeFixture, seatMatch, send } from './routes-fixture.ts';

let fixture: Fixture;
beforeAll(async () => {
  fixture = await makeFixture();
});
afterAll(() => fixture?.close());

describe('the judge console', () => {
  it('queues an open claim, lists the ruling with the judge’s name and time, and refuses a second ruling', async () => {
    const { app, ledger } = copyOf(fixture);
    const gameId = seatMatch(ledger, fixture.matchId);
    deal(ledger, gameId);
    ledger.execute(claimRenege(ledger.models, { gameId, claimId: 'c1', seat: 'W', trick: 3 }));
    const before = await (await send(app, fixture.clients.judge, 'GET', '/judge')).text();
    expect(before).toContain('data-claim="c1"');
    expect(before).toContain('renege claimed against West (Jacks), hand 1, trick 3');
    expect(before).toContain('No cards were recorded for this hand');
    // Tables are listed with their event, and the correction form starts empty: no game chosen, no points.
    expect(before).toMatch(/<select name="match" required=""><option value="t1\/[^"]+">Spring Cup · Table 1 · [^<]+<\/option>/);
    expect(before).toMatch(/<select name="gameId" required=""><option value="" selected="">Choose a game…<\/option>/);
    expect(before).toContain('<input name="NS" type="number" required="" inputmode="numeric" placeholder="e.g. -30"/>');
    expect(before).not.toMatch(/name="(NS|EW)" type="number" value=/);

    const path = `/judge/games/${gameId}/claims/c1/ruling`;
    // The button asks once: what the ruling does, with nothing recorded yet.
    const head = ledger.store.head().position;
    const asked = await send(app, fixture.clients.judge, 'POST', path, { form: { upheld: 'yes', note: 'saw it' } }, { 'hx-request': 'true' });
    expect(asked.status).toBe(200);
    const question = await asked.text();
    // The question takes the focus as the step appears.
    expect(question).toContain('<h2 id="confirm-ruling-title" tabindex="-1" autofocus="">Uphold this claim?</h2>');
    expect(question).toContain('Renege claimed against West in Spring Cup, Table 1: Aces vs Jacks, game 1, hand 1, trick 3.');
    // The penalty in the rules sheet's own words (unc-300's renege line).
    expect(question).toContain(
      'Upheld: An upheld renege takes 3 tricks from the reneging team, which must still make its bid with what is left; the other team does not count them, and the other team scores 30 points.',
    );
    expect(question).toContain('Your note: “saw it”.');
    expect(question).toContain('name="confirm" value="yes"');
    expect(ledger.store.head().position).toBe(head);
    const ruled = await send(app, fixture.clients.judge, 'POST', path, { form: { upheld: 'yes', note: 'saw it', confirm: 'yes' } }, { 'hx-request': 'true' });
    expect(ruled.status).toBe(200);
    const html = await ruled.text();
    expect(html).toContain('Upheld the renege claim against West (Spring Cup, Table 1: Aces vs Jacks, game 1).');
    expect(html).toMatch(
      /<time datetime="2026-03-01T10:00:\d\d\.000Z">10:00<\/time> <strong>Jo Judge<\/strong>: upheld the renege claim against West \(Spring Cup, Table 1: Aces vs Jacks, game 1, hand 1, trick 3\)/,
    );

    const again = await send(app, fixture.clients.judge, 'POST', path, { json: { upheld: false, note: '' } });
    expect(again.status).toBe(409);
    expect(await again.json()).toEqual({ error: 'claim c1 was already ruled on by Jo Judge' });
    const page = await send(app, fixture.clients.judge, 'POST', path, { form: { upheld: 'no', confirm: 'yes' } });
    expect(page.status).toBe(409);
    // Asked again after it was ruled on, the question is not even put.
    const late = await send(app, fixture.clients.judge, 'POST', path, { form: { upheld: 'no' } });
    expect(late.status).toBe(409);
    expect(await page.text()).toContain('claim c1 was already ruled on by Jo Judge');

    // The ruling keeps the time it was appended, and a rebuild from position 0 reads the same time.
    const live = structuredClone(ledger.models);
    expect(live.games[gameId]!.claims.find((c) => c.claimId === 'c1')?.ruling?.at).toMatch(/^2026-03-01T10:00:\d\d\.000Z$/);
    expect(rebuildModels(ledger.database, ledger.store)).toEqual(live);
    ledger.close();
  });
});

describe('the director’s pages', () => {
  it('print one card per table with its code and a QR link to join', async () => {
    const { app, ledger, auth } = copyOf(fixture);
    const res = await send(app, fixture.clients.director, 'GET', '/director/tournaments/t1/codes');
    const html = await res.text();
    expect(res.status).toBe(200);
    for (const table of [1, 2]) {
      const code = await auth.tableCode('t1', table);
      expect(html).toContain(`data-code="${code}"`);
      expect(html).toContain(`/join?code=${code}`);
    }
    // Two table cards, then a card for each of the four teams with a QR link to its own page.
    expect(html.match(/<svg class="qr"/g)).toHaveLength(6);
    expect(html.match(/<li class="table-card team-card">/g)).toHaveLength(4);
    expect(html).toContain('/tournaments/t1/teams/team-1</p>');
    expect(html).not.toContain('style=');
    ledger.close();
  });

  it('are the director’s only', async () => {
    const { app, ledger } = copyOf(fixture);
    expect((await send(app, fixture.clients.judge, 'GET', '/director', {}, { accept: 'application/json' })).status).toBe(403);
    expect((await send(app, null, 'GET', '/director', {}, { accept: 'application/json' })).status).toBe(401);
    expect((await send(app, fixture.clients.director, 'GET', '/director/tournaments/t2')).status).toBe(200);
    ledger.close();
  });
});

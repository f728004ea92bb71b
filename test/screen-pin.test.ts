/**
 * The venue's `/screen` address is a director's decision, recorded in the ledger: a TV left on
 * `/screen` keeps showing the tournament a director pinned when another one is created, and
 * the home page lists every tournament with where it stands.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openLedger } from '../events/store/sqlite/ledger.ts';
import { rebuildModels } from '../events/store/sqlite/ledger-tools.ts';
import { pinnedTournament } from '../events/screen-pin.ts';
import { livePartials } from '../server/app/live-channels.tsx';
import { createTournament, registerTeam, startTournament } from '../server/commands/tournament-commands.ts';
import { type Fixture, copyOf, makeFixture, send } from './routes-fixture.ts';

let fixture: Fixture;
beforeAll(async () => {
  fixture = await makeFixture();
});
afterAll(() => fixture?.close());

const screenTitle = (html: string) => /<h1 class="screen-title">([^<]*)<\/h1>/.exec(html)?.[1];

describe('the pinned venue screen', () => {
  it('keeps showing the pinned tournament at /screen when another is created', async () => {
    const { ledger, app, broadcaster } = copyOf(fixture);
    try {
      // Nothing pinned: /screen shows the tournament being played (Spring Cup), not the newest
      // (Autumn Open, made after it and still taking registrations).
      expect(screenTitle(await (await app.request('/screen')).text())).toBe('Spring Cup');

      // The director pins Spring Cup from its page.
      const pinned = await send(app, fixture.clients.director, 'POST', '/director/tournaments/t1/screen', { form: {} });
      expect(pinned.status).toBe(303);
      const event = ledger.store.readAll().at(-1)!;
      expect(event.type).toBe('ScreenPinned');
      expect(event.payload).toEqual({ tournamentId: 't1' });
      expect(screenTitle(await (await app.request('/screen')).text())).toBe('Spring Cup');

      // A tournament created afterwards does not take the screen.
      ledger.execute(createTournament(ledger.models, { tournamentId: 't3', name: 'Winter Classic', format: 'pitt-boss' }));
      expect(ledger.models.currentTournament).toBe('t3');
      const screen = await app.request('/screen');
      expect(screen.status).toBe(200);
      expect(screenTitle(await screen.text())).toBe('Spring Cup');
      expect(pinnedTournament(ledger.models)).toBe('t1');

      // The live stream of /screen carries the marker a page reloads on when another is pinned.
      expect(livePartials('pinned:', ledger.models)!.get('screen-pin')).toContain('data-tournament="t1"');
      const again = await send(app, fixture.clients.director, 'POST', '/director/tournaments/t1/screen', { json: {} });
      expect(again.status).toBe(409);
      expect(await again.json()).toEqual({ error: '/screen already shows Spring Cup' });
      await send(app, fixture.clients.director, 'POST', '/director/tournaments/t3/screen', { form: {} });
      expect(screenTitle(await (await app.request('/screen')).text())).toBe('Winter Classic');
      expect(livePartials('pinned:', ledger.models)!.get('screen-pin')).toContain('data-tournament="t3"');

      // The pin is folded from the ledger like everything else.
      expect(pinnedTournament(rebuildModels(ledger.database, ledger.store))).toBe('t3');
    } finally {
      broadcaster.close();
      ledger.close();
    }
  });

  it('with nothing pinned, shows the event being played: creating another never moves it, starting another only once it is over', () => {
    const { ledger, broadcaster } = copyOf(fixture);
    try {
      const m = () => ledger.models;
      expect(pinnedTournament(m())).toBe('t1');
      // Next week's event is created, registered and even started while Spring Cup is played.
      ledger.execute(createTournament(m(), { tournamentId: 'next', name: 'Next Week', format: 'unc-intramural' }));
      expect(pinnedTournament(m())).toBe('t1');
      for (const team of ['a', 'b']) ledger.execute(registerTeam(m(), { tournamentId: 'next', teamId: team, name: `Team ${team}`, players: ['x', 'y'] }));
      ledger.execute(startTournament(m(), { tournamentId: 'next', order: ['a', 'b'] }));
      expect(pinnedTournament(m())).toBe('t1');
      expect(pinnedTournament(rebuildModels(ledger.database, ledger.store))).toBe('t1');
    } finally {
      broadcaster.close();
      ledger.close();
    }
    // On a fresh ledger the first tournament created is shown until one starts, then the started one.
    const fresh = openLedger({ path: ':memory:' });
    try {
      const m = () => fresh.models;
      expect(pinnedTournament(m())).toBeNull();
      fresh.execute(createTournament(m(), { tournamentId: 'later', name: 'Later', format: 'pitt-boss' }));
      fresh.execute(createTournament(m(), { tournamentId: 'today', name: 'Today', format: 'unc-intramural' }));
      expect(pinnedTournament(m())).toBe('later');
      for (const team of ['a', 'b']) fresh.execute(registerTeam(m(), { tournamentId: 'today', teamId: team, name: `Team ${team}`, players: ['x', 'y'] }));
      fresh.execute(startTournament(m(), { tournamentId: 'today', order: ['a', 'b'] }));
      expect(pinnedTournament(m())).toBe('today');
    } finally {
      fresh.close();
    }
  });

  it('refuses a pin from anyone but a director, and of a tournament that does not exist', async () => {
    const { ledger, app, broadcaster } = copyOf(fixture);
    try {
      const judge = await send(app, fixture.clients.judge, 'POST', '/director/tournaments/t1/screen', { json: {} });
      expect(judge.status).toBe(403);
      const missing = await send(app, fixture.clients.director, 'POST', '/director/tournaments/nope/screen', { json: {} });
      expect(missing.status).toBe(404);
      expect(await missing.json()).toEqual({ error: 'tournament nope does not exist' });
    } finally {
      broadcaster.close();
      ledger.close();
    }
  });

  it('lists every tournament on the home page with its state, and which one is on /screen', async () => {
    const { ledger, app, broadcaster } = copyOf(fixture);
    try {
      const home = await app.request('/');
      expect(home.status).toBe(200);
      const html = await home.text();
      expect(html).toContain('<a href="/tournaments/t1">Spring Cup</a>');
      expect(html).toContain('<a href="/tournaments/t2">Autumn Open</a>');
      expect(html).toMatch(/data-tournament="t1">[\s\S]*?In play[\s\S]*?4 teams[\s\S]*?On \/screen[\s\S]*?Round 1 in play · 0 tables live\./);
      expect(html).toMatch(/data-tournament="t2">[\s\S]*?Registration open[\s\S]*?2 teams/);
      expect(html.match(/On \/screen/g)).toHaveLength(1);
      expect(html).toContain('hx-sse:connect="/stream?after=');
    } finally {
      broadcaster.close();
      ledger.close();
    }
  });
});

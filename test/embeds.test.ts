/**
 * The embeds: a tournament's bracket and standings that any site may frame, live over the
 * bracket and standings pages' own streams, with no site header and no sign-in, and their links
 * opening outside the frame. Every other address still refuses to be framed.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { openLedger } from '../events/store/sqlite/ledger.ts';
import { createApp } from '../server/app/app.ts';
import { createTournament, registerTeam, startTournament } from '../server/commands/tournament-commands.ts';

const open: { close(): void }[] = [];
afterEach(() => {
  for (const item of open.splice(0)) item.close();
});

function setUp() {
  const ledger = openLedger({ path: ':memory:' });
  const { app, broadcaster } = createApp({ ledger });
  open.push(broadcaster, ledger);
  ledger.execute(createTournament(ledger.models, { tournamentId: 'cup', name: 'Friday Cup', format: 'unc-intramural' }));
  for (const i of [1, 2, 3, 4])
    ledger.execute(registerTeam(ledger.models, { tournamentId: 'cup', teamId: `team-${i}`, name: `Team ${i}`, players: [`P${i}a`, `P${i}b`] }));
  ledger.execute(startTournament(ledger.models, { tournamentId: 'cup', order: ['team-1', 'team-2', 'team-3', 'team-4'] }));
  return { ledger, app };
}

describe('the embeds', () => {
  it('may be framed by any site, while every other page may not', async () => {
    const { app } = setUp();
    for (const view of ['bracket', 'standings']) {
      const res = await app.request(`/embed/tournaments/cup/${view}`);
      expect(res.status, view).toBe(200);
      const policy = res.headers.get('content-security-policy')!;
      expect(policy, view).toContain('frame-ancestors *');
      expect(policy, view).toContain("script-src 'self'");
      expect(res.headers.get('x-frame-options'), view).toBeNull();
    }
    for (const path of ['/tournaments/cup/bracket', '/tournaments/cup/leaderboard', '/', '/login', '/embed/elsewhere']) {
      const res = await app.request(path);
      expect(res.headers.get('content-security-policy'), path).toContain("frame-ancestors 'none'");
      expect(res.headers.get('x-frame-options'), path).toBe('SAMEORIGIN');
    }
  });

  it('show the bracket and the standings without the site header or a sign-in, live on the pages’ streams, links opening outside the frame', async () => {
    const { ledger, app } = setUp();
    const bracket = await (await app.request('/embed/tournaments/cup/bracket')).text();
    expect(bracket).toContain('id="bracket"');
    expect(bracket).toContain(`hx-sse:connect="/tournaments/cup/bracket/stream?after=${ledger.models.position}"`);
    const standings = await (await app.request('/embed/tournaments/cup/standings')).text();
    expect(standings).toContain('id="leaderboard"');
    expect(standings).toContain(`hx-sse:connect="/tournaments/cup/leaderboard/stream?after=${ledger.models.position}"`);
    for (const html of [bracket, standings]) {
      expect(html).toContain('<base target="_blank"/>');
      expect(html).toContain('class="embed-main"');
      expect(html).not.toContain('/login');
      expect(html).not.toContain('site-header');
      expect(html).toContain('Team 1');
    }
  });

  it('say so in the frame for a tournament the ledger does not hold', async () => {
    const { app } = setUp();
    const res = await app.request('/embed/tournaments/nope/standings');
    expect(res.status).toBe(404);
    const html = await res.text();
    expect(html).toContain('There is no tournament &#39;nope&#39; to show here.');
    expect(html).not.toContain('/login');
  });
});

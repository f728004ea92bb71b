/**
 * The application's plain routes, in process: health, the files it serves, the way to the
 * venue screen, and a plain sentence for what does not exist.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openLedger } from '../events/store/sqlite/ledger.ts';
import { createApp } from '../server/app/app.ts';
import { createTournament } from '../server/commands/tournament-commands.ts';

const STATIC = join(import.meta.dirname, '..', 'static');
const open: { close(): void }[] = [];
afterEach(() => {
  for (const item of open.splice(0)) item.close();
});

function setUp() {
  const ledger = openLedger({ path: ':memory:' });
  const { app, broadcaster } = createApp({ ledger });
  open.push(broadcaster, ledger);
  return { ledger, app };
}

describe('the application', () => {
  it('answers /healthz with the ledger head position', async () => {
    const { ledger, app } = setUp();
    expect(await (await app.request('/healthz')).json()).toEqual({ ok: true, writable: true, position: 0 });
    ledger.execute(createTournament(ledger.models, { tournamentId: 't1', name: 'Friday', format: 'pitt-boss' }));
    expect(await (await app.request('/healthz')).json()).toEqual({ ok: true, writable: true, position: 1 });
  });

  it('serves the stylesheet, htmx, its SSE extension and the icon with their types, and refuses other names', async () => {
    const { app } = setUp();
    for (const [file, type] of [
      ['app.css', 'text/css'],
      ['htmx.min.js', 'text/javascript'],
      ['hx-sse.js', 'text/javascript'],
      ['clock.js', 'text/javascript'],
      ['favicon.svg', 'image/svg+xml'],
    ]) {
      const response = await app.request(`/static/${file}`);
      expect(response.status, file).toBe(200);
      expect(response.headers.get('content-type'), file).toContain(type);
      expect((await response.text()).length, file).toBeGreaterThan(50);
    }
    const missing = await app.request('/static/secrets.txt');
    expect(missing.status).toBe(404);
    expect(await missing.text()).toBe("no static file 'secrets.txt'");
    const icon = await app.request('/favicon.ico');
    expect(icon.status).toBe(301);
    expect(icon.headers.get('location')).toBe('/static/favicon.svg');
  });

  it('serves the stylesheet kept in parts as one file, each part written in where app.css lists it', async () => {
    const { app } = setUp();
    const listed = readFileSync(join(STATIC, 'app.css'), 'utf8');
    const parts = [...listed.matchAll(/^@import url\((['"])(app\/[\w-]+\.css)\1\);/gm)].map((m) => m[2]!);
    // Split by page and component: several parts, each a file of its own, every one listed once.
    expect(parts.length).toBeGreaterThan(10);
    expect(parts.map((part) => part.slice(4)).sort()).toEqual(readdirSync(join(STATIC, 'app')).sort());
    const response = await app.request('/static/app.css');
    expect(response.headers.get('cache-control')).toBe('public, max-age=300');
    const served = await response.text();
    // Nothing left for the browser to fetch one by one, and the parts in the cascade order listed.
    expect(served).not.toContain('@import');
    let from = 0;
    for (const part of parts) {
      const text = readFileSync(join(STATIC, part), 'utf8');
      const at = served.indexOf(text, from);
      expect(at, part).toBeGreaterThanOrEqual(from);
      from = at + text.length;
    }
  });

  it('shows the pinned tournament’s venue screen at /screen, and says so when there is none', async () => {
    const { ledger, app } = setUp();
    const none = await app.request('/screen');
    expect(none.status).toBe(404);
    expect(await none.text()).toContain('No tournament has been set up yet');
    ledger.execute(createTournament(ledger.models, { tournamentId: 'friday', name: 'Friday', format: 'pitt-boss' }));
    const screen = await app.request('/screen');
    expect(screen.status).toBe(200);
    expect(screen.headers.get('content-security-policy')).toContain("script-src 'self'");
    const html = await screen.text();
    expect(html).toContain('<h1 class="screen-title">Friday</h1>');
    expect(html).toContain('hx-sse:connect="/screen/stream?after=1"');
    expect(html).toContain('<link rel="icon" href="/static/favicon.svg"');
  });

  it('answers an unknown address with a styled page and a way home', async () => {
    const { app } = setUp();
    const response = await app.request('/no/such/page');
    expect(response.status).toBe(404);
    const html = await response.text();
    expect(html).toContain('<link rel="stylesheet" href="/static/app.css"/>');
    expect(html).toContain('<code>/no/such/page</code>');
    expect(html).toContain('<a href="/">See every tournament</a>');
    const json = await app.request('/no/such/page', { headers: { accept: 'application/json' } });
    expect(await json.json()).toEqual({ error: 'there is nothing at /no/such/page' });
  });

  it('moves a game page from its old address under tables/ for good, its stream and query kept', async () => {
    const { app } = setUp();
    const page = await app.request('/tournaments/friday/tables/friday-W1-1-g1');
    expect(page.status).toBe(301);
    expect(page.headers.get('location')).toBe('/tournaments/friday/games/friday-W1-1-g1');
    const stream = await app.request('/tournaments/fri%20day/tables/g%2F1/stream?after=12');
    expect(stream.status).toBe(301);
    expect(stream.headers.get('location')).toBe('/tournaments/fri%20day/games/g%2F1/stream?after=12');
  });

  it('names the game that does not exist', async () => {
    const { app } = setUp();
    const response = await app.request('/games/nope/record');
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ error: 'game nope does not exist' });
  });

  it('answers 404 for a tournament or game it does not hold on every page and stream, inherited names included', async () => {
    const { ledger, app } = setUp();
    ledger.execute(createTournament(ledger.models, { tournamentId: 'friday', name: 'Friday', format: 'pitt-boss' }));
    for (const id of ['nope', '__proto__', 'constructor', 'toString']) {
      for (const suffix of ['', '/leaderboard', '/bracket', '/screen']) {
        for (const tail of ['', '/stream']) {
          const path = `/tournaments/${id}${suffix}${tail}`;
          const response = await app.request(path, { signal: AbortSignal.timeout(5000) });
          expect(response.status, path).toBe(404);
          if (tail) expect(await response.json(), path).toEqual({ error: `tournament ${id} does not exist` });
        }
      }
      for (const path of [`/games/${id}/stream`, `/tournaments/friday/games/${id}/stream`]) {
        const response = await app.request(path, { signal: AbortSignal.timeout(5000) });
        expect(response.status, path).toBe(404);
        expect(await response.json(), path).toEqual({ error: `game ${id} does not exist` });
      }
    }
    const known = await app.request('/tournaments/friday/leaderboard/stream');
    expect(known.status).toBe(200);
    await known.body?.cancel();
  });
});

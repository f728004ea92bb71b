/**
 * An embed as another site shows it: a club's page served from a second port (another origin)
 * frames the standings, which load in the frame (no framing refusal), fill the width the host
 * gives the frame, offer no sign-in, and update by themselves, without a reload, when a result
 * is appended to the ledger.
 */
import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import type { Ledger } from '../events/store/sqlite/ledger.ts';
import { startMatch } from '../server/commands/match-commands.ts';
import { createTournament, registerTeam, startTournament } from '../server/commands/tournament-commands.ts';
import { SSE_LOG, sseLog } from './fixtures/browser-page.ts';
import {
  hasChromium,
  type InProcessServer,
  launchChromium,
  noteMissingChromium,
  removeTempDirs,
  serveInProcess,
  tempDir,
  waitFor,
} from './fixtures/live-server.ts';
import { finishGame, open } from './routes-fixture.ts';

noteMissingChromium('browser-embed');

const FRAME_WIDTH = 1400;

describe.skipIf(!hasChromium)('an embed on another site', () => {
  let browser: Browser;
  let ledger: Ledger;
  let server: InProcessServer;
  let host: Server;
  let hostUrl: string;
  beforeAll(async () => {
    ledger = open(`${tempDir('spades-embed-')}/ledger.db`);
    const m = ledger.models;
    ledger.execute(createTournament(m, { tournamentId: 'cup', name: 'Friday Cup', format: 'unc-intramural' }));
    for (const i of [1, 2, 3, 4])
      ledger.execute(registerTeam(m, { tournamentId: 'cup', teamId: `team-${i}`, name: `Team ${i}`, players: [`P${i}a`, `P${i}b`] }));
    ledger.execute(startTournament(m, { tournamentId: 'cup', order: ['team-1', 'team-2', 'team-3', 'team-4'] }));
    server = await serveInProcess(ledger);
    // The club's own page, on a port of its own: another origin, framing the standings.
    const page = `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>Club news</title></head><body style="margin:0"><h1>Club news</h1><iframe title="Friday Cup standings" src="${server.url}/embed/tournaments/cup/standings" style="border:0;width:${FRAME_WIDTH}px;height:600px"></iframe></body></html>`;
    host = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page));
    await new Promise<void>((resolve) => host.listen(0, 'localhost', resolve));
    hostUrl = `http://localhost:${(host.address() as AddressInfo).port}/`;
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await new Promise((resolve) => host?.close(resolve));
    await server?.close();
    ledger?.close();
    removeTempDirs();
  });

  it('loads in the frame, fills its width without a sign-in, and follows a result live', async () => {
    const context = await browser.newContext({ viewport: { width: 1600, height: 900 }, deviceScaleFactor: 1 });
    const page = await context.newPage();
    await page.addInitScript(SSE_LOG);
    const refused: string[] = [];
    page.on('console', (message) => {
      if (/frame|Content Security Policy/i.test(message.text())) refused.push(message.text());
    });
    await page.goto(hostUrl);
    const frame = await waitFor('the embed to load in the frame', () =>
      page.frames().find((f) => f.url().includes('/embed/tournaments/cup/standings') && f !== page.mainFrame()),
    );
    await frame.waitForSelector('#leaderboard', { timeout: 10_000 });
    expect(new URL(frame.url()).origin).not.toBe(new URL(page.url()).origin);
    await waitFor('the embed to connect to its stream', async () => (await sseLog(frame as never)).opened === 1, 20_000);
    expect(refused).toEqual([]);
    // Sized by the host page: as wide as the frame it is given (no page width of its own), nothing wider.
    const size = await frame.evaluate(() => ({
      main: document.querySelector('main')!.getBoundingClientRect().width,
      scroll: document.documentElement.scrollWidth,
      client: document.documentElement.clientWidth,
      signIn: document.querySelectorAll('a[href="/login"], .site-header').length,
    }));
    expect(size.client).toBe(FRAME_WIDTH);
    expect(size.main).toBe(FRAME_WIDTH);
    expect(size.scroll).toBeLessThanOrEqual(size.client);
    expect(size.signIn).toBe(0);
    const row = (teamId: string) => frame.evaluate((id) => document.querySelector(`#leaderboard tr[data-team="${id}"]`)?.textContent ?? '', teamId);
    await frame.evaluate(() => {
      (window as unknown as { __notReloaded: boolean }).__notReloaded = true;
    });

    // A semi-final is seated and won: the standings in the frame show the winner's 1–0.
    const semi = ledger.models.tournaments.cup!.model.matches.find((x) => x.status === 'ready')!;
    ledger.execute(
      startMatch(ledger.models, {
        tournamentId: 'cup',
        matchId: semi.matchId,
        table: 1,
        at: new Date().toISOString(),
        draw: { method: 'high-card', rounds: [{ N: 'AS', E: 'KS', S: 'QS', W: 'JS' }] },
      }),
    );
    finishGame(ledger, ledger.models.tournaments.cup!.model.matches.find((x) => x.matchId === semi.matchId)!.games[0]!);
    const winner = ledger.models.tournaments.cup!.model.matches.find((x) => x.matchId === semi.matchId)!.winner!;
    await waitFor('the frame to show the result', async () => (await row(winner)).includes('1–0'), 10_000);
    expect(await frame.evaluate(() => (window as unknown as { __notReloaded?: boolean }).__notReloaded)).toBe(true);
    await context.close();
  });
});

/**
 * The example overlay in docs/, served from another origin as a streamer's page would be, in a
 * real browser: it reads one tournament through the read API and follows that tournament's
 * events on the live feed, updating while another tournament plays beside it without stirring.
 */
import { readFileSync } from 'node:fs';
import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import type { Ledger } from '../events/store/sqlite/ledger.ts';
import { PROGRESSIVE_DEMO, createDemo } from '../server/serve/serve.ts';
import { driveTables } from '../server/serve/table-driver.ts';
import {
  demoLedger,
  hasChromium,
  type InProcessServer,
  launchChromium,
  noteMissingChromium,
  play,
  removeTempDirs,
  serveInProcess,
  tempDir,
  waitFor,
} from './fixtures/live-server.ts';

noteMissingChromium('browser-overlay');

const OVERLAY = readFileSync(new URL('../docs/overlay.html', import.meta.url), 'utf8');

describe.skipIf(!hasChromium)('the example overlay on another site', () => {
  let browser: Browser;
  let ledger: Ledger;
  let server: InProcessServer;
  let host: Server;
  let hostUrl: string;
  const playEvening = async (steps: number) => {
    for (let i = 0; i < steps; i++) await driveTables(ledger, { tournamentId: PROGRESSIVE_DEMO, seed: 'overlay-evening' });
  };
  beforeAll(async () => {
    ledger = await demoLedger(tempDir());
    await createDemo(ledger, 'progressive');
    await play(ledger, 5);
    await playEvening(5);
    server = await serveInProcess(ledger);
    // The streamer's own page, on a port of its own: another origin.
    host = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(OVERLAY));
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

  it('shows one tournament and follows its feed, untouched by another playing beside it', async () => {
    const context = await browser.newContext({ viewport: { width: 800, height: 600 } });
    const page = await context.newPage();
    const refused: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') refused.push(message.text());
    });
    // The server's address as 127.0.0.1, the page's as localhost: two origins.
    await page.goto(`${hostUrl}?server=${encodeURIComponent(server.url.replace('localhost', '127.0.0.1'))}&tournament=${PROGRESSIVE_DEMO}`);
    const evening = ledger.models.tournaments[PROGRESSIVE_DEMO]!.model;
    await page.waitForFunction((name) => document.getElementById('name')?.textContent === name, evening.name, { timeout: 10_000 });
    await page.waitForFunction(() => document.getElementById('status')?.textContent === 'Live', undefined, { timeout: 10_000 });
    expect(await page.locator('#standings li').count()).toBeGreaterThan(0);
    const first = Number(await page.evaluate(() => document.body.dataset.position));
    expect(first).toBeGreaterThan(0);

    // The other tournament plays: nothing of it reaches the overlay.
    await play(ledger, 5);
    await new Promise((resolve) => setTimeout(resolve, 800));
    expect(await page.evaluate(() => document.body.dataset.lastEvent)).toBeUndefined();

    // The evening plays: the overlay hears it and reads the tournament again.
    await playEvening(2);
    const heard = Number(await waitFor('an event of the evening', () => page.evaluate(() => document.body.dataset.lastEvent)));
    const event = ledger.store.readAll({ after: heard - 1, limit: 1 })[0]!;
    const payload = event.payload as { tournamentId?: string; gameId?: string };
    expect(payload.tournamentId ?? ledger.models.games[payload.gameId!]!.tournamentId).toBe(PROGRESSIVE_DEMO);
    await page.waitForFunction((before) => Number(document.body.dataset.position) > before, first, { timeout: 10_000 });
    const scores = evening.matches.filter((m) => m.status === 'live').length;
    if (scores > 0) expect(await page.locator('#tables li').count()).toBeGreaterThan(0);
    expect(refused).toEqual([]);
    await context.close();
  });
});

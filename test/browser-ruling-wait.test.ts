/**
 * A match waiting for a ruling, in a browser: a team's page on a phone is told live, when the
 * claim is made, that its match waits for a ruling on its table (and the page meets WCAG 2.2 AA),
 * and the venue's TV keeps counting how long it has waited between ledger events.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { type Ledger, openLedger } from '../events/store/sqlite/ledger.ts';
import { claimRenege } from '../server/commands/game-commands.ts';
import { createTournament, registerTeam, startTournament } from '../server/commands/tournament-commands.ts';
import { driveTables } from '../server/serve/table-driver.ts';
import { axeViolations, regionText, SSE_LOG, sseLog } from './fixtures/browser-page.ts';
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

noteMissingChromium('browser-ruling-wait');

describe.skipIf(!hasChromium)('a match waiting for a ruling, in a browser', () => {
  let browser: Browser;
  let ledger: Ledger;
  let server: InProcessServer;
  const game = () => ledger.models.games[ledger.models.tournaments.a!.model.matches.find((x) => x.round === 1)!.games[0] ?? '']!;
  const first = () => ledger.models.tournaments.a!.model.matches.find((x) => x.round === 1)!;
  beforeAll(async () => {
    // The ledger's clock is the real one, as the server's and the browser's are.
    ledger = openLedger({ path: `${tempDir('spades-ruling-wait-')}/ledger.db`, synchronous: 'NORMAL' });
    const m = ledger.models;
    ledger.execute(createTournament(m, { tournamentId: 'a', name: 'Asher Cup', format: 'asher-theatre' }));
    ['Aces', 'Kings', 'Queens', 'Jacks'].forEach((name, i) =>
      ledger.execute(registerTeam(m, { tournamentId: 'a', teamId: `t${i + 1}`, name, players: [`${name} One`, `${name} Two`] })),
    );
    ledger.execute(startTournament(m, { tournamentId: 'a', order: ['t1', 't2', 't3', 't4'] }));
    for (let n = 0; !((game()?.current?.plays.length ?? 0) >= 3); n++) {
      if ((await driveTables(ledger, { tournamentId: 'a', seed: 'browser-wait', judge: false })) === 0 || n > 5000) throw new Error('no trick was played');
    }
    server = await serveInProcess(ledger);
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
    ledger?.close();
    removeTempDirs();
  });

  it('tells a team’s phone live, and the TV keeps counting the wait', async () => {
    const table = first().table!;
    // axe-core is added to the page as a script of its own, which the page's CSP would refuse.
    const phone = await browser.newContext({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 1, isMobile: true, hasTouch: true, bypassCSP: true });
    const page = await phone.newPage();
    await page.addInitScript(SSE_LOG);
    expect((await page.goto(`${server.url}/tournaments/a/teams/${first().teams[0]}`))?.status()).toBe(200);
    await waitFor('the page to connect', async () => (await sseLog(page)).opened === 1, 20_000);
    expect(await page.locator('[data-awaiting-ruling]').count()).toBe(0);

    ledger.execute(claimRenege(ledger.models, { gameId: game().gameId, claimId: 'c1', seat: 'S', trick: 2 }));
    await page.waitForSelector('.team-next-ruling', { timeout: 5000 });
    expect((await regionText(page, '.team-next-ruling')).trim()).toBe(`Waiting for a ruling on table ${table} for less than a minute`);
    const wide = await page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth);
    expect(wide).toBe(true);
    expect(await axeViolations(page)).toEqual([]);
    await phone.close();

    // The TV, its clock moved on by four and a half minutes with no ledger event in between.
    const tv = await browser.newContext({ viewport: { width: 1920, height: 1080 } });
    const screen = await tv.newPage();
    await screen.clock.install({ time: new Date() });
    expect((await screen.goto(`${server.url}/screen`))?.status()).toBe(200);
    const line = () => screen.evaluate(() => document.querySelector('.screen-table [data-awaiting-ruling]')?.textContent?.trim() ?? '');
    expect(await line()).toBe(`Waiting for a ruling on table ${table} for less than a minute`);
    await screen.clock.fastForward('04:30');
    await waitFor('the TV to count the wait', async () => (await line()) === `Waiting for a ruling on table ${table} for 4 minutes`, 5000);
    await tv.close();
  }, 60_000);
});

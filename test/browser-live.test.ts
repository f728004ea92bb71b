import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import type { Ledger } from '../events/store/sqlite/ledger.ts';
import { LIVE_TABLES_ID, TICKER_ID } from '../views/screen.tsx';
import {
  demoLedger,
  hasChromium,
  type InProcessServer,
  killHard,
  launchChromium,
  noteMissingChromium,
  play,
  playUntil,
  removeTempDirs,
  serveInProcess,
  type ServeProcess,
  startServeProcess,
  tempDir,
  TOURNAMENT,
  waitFor,
} from './fixtures/live-server.ts';
import { SSE_LOG, regionText, sseLog } from './fixtures/browser-page.ts';
import { newsText } from '../views/news.ts';

noteMissingChromium('browser-live');

/** Marks the window, so a reload (which would make a new one) shows. */
async function markWindow(page: Page): Promise<void> {
  await page.evaluate(() => {
    (window as unknown as { __notReloaded: boolean }).__notReloaded = true;
  });
}
const stillSameWindow = (page: Page) => page.evaluate(() => (window as unknown as { __notReloaded?: boolean }).__notReloaded === true);

describe.skipIf(!hasChromium)('the venue screen in a browser', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    removeTempDirs();
  });

  describe('served in process', () => {
    let ledger: Ledger;
    let server: InProcessServer;
    let page: Page;
    beforeAll(async () => {
      ledger = await demoLedger(tempDir());
      // One match decided, so the results ticker has something to scroll.
      await playUntil(ledger, () => ledger.models.tournaments[TOURNAMENT]!.model.latest.length > 0);
      server = await serveInProcess(ledger);
      page = await browser.newPage({ viewport: { width: 1920, height: 1080 } });
      await page.addInitScript(SSE_LOG);
      const response = await page.goto(`${server.url}/screen`);
      expect(response?.status()).toBe(200);
      // The venue's address stays the address: the page is the pinned tournament's screen.
      expect(page.url()).toBe(`${server.url}/screen`);
      expect(await page.textContent('.screen-title')).toBe(ledger.models.tournaments[TOURNAMENT]!.model.name);
      await waitFor('the screen to connect', async () => server.broadcaster.hasClients('pinned:') && (await sseLog(page)).opened === 1, 20_000);
      await markWindow(page);
    });
    afterAll(async () => {
      await page?.close();
      await server?.close();
      ledger?.close();
    });

    it('shows an entry within 1 s of its append, without a reload', async () => {
      const before = await regionText(page, LIVE_TABLES_ID);
      await page.evaluate((id) => {
        const w = window as unknown as { __changedAt?: number };
        const region = document.getElementById(id)!.parentElement!;
        new MutationObserver((_, observer) => {
          w.__changedAt = performance.now();
          observer.disconnect();
        }).observe(region, { childList: true, subtree: true, characterData: true });
      }, LIVE_TABLES_ID);
      const appendedAt = await page.evaluate(() => performance.now());
      expect(await play(ledger, 1)).toBeGreaterThan(0);

      const changedAt = await waitFor('the live tables to change', () => page.evaluate(() => (window as unknown as { __changedAt?: number }).__changedAt));
      expect(changedAt - appendedAt).toBeLessThan(1000);
      await waitFor('the page to reach the ledger position', async () => (await sseLog(page)).ids.at(-1) === ledger.models.position);
      expect(await regionText(page, LIVE_TABLES_ID)).not.toBe(before);
      expect(await stillSameWindow(page)).toBe(true);
      expect((await sseLog(page)).opened).toBe(1);

      // What the live page shows is what a page loaded now shows.
      const fresh = await browser.newPage({ viewport: { width: 1920, height: 1080 } });
      await fresh.goto(`${server.url}/screen`);
      expect(await regionText(page, LIVE_TABLES_ID)).toBe(await regionText(fresh, LIVE_TABLES_ID));
      await fresh.close();
    });

    it('leaves the results ticker scrolling through entries, and shows a new result when a match ends', async () => {
      await page.evaluate((id) => {
        (document.getElementById(id) as unknown as { __kept: boolean }).__kept = true;
      }, TICKER_ID);
      const tickerKept = () => page.evaluate((id) => (document.getElementById(id) as unknown as { __kept?: boolean }).__kept === true, TICKER_ID);
      const results = ledger.models.tournaments[TOURNAMENT]!.model.latest.length;
      const tickerBefore = await regionText(page, TICKER_ID);

      await play(ledger, 2);
      await waitFor('the page to reach the ledger position', async () => (await sseLog(page)).ids.at(-1) === ledger.models.position);
      expect(await tickerKept()).toBe(true);

      await playUntil(ledger, () => ledger.models.tournaments[TOURNAMENT]!.model.latest.length > results);
      const newest = newsText(ledger.models.tournaments[TOURNAMENT]!.model.latest[0]!, ledger.models.tournaments[TOURNAMENT]!.model);
      await waitFor('the new result in the ticker', async () => (await regionText(page, TICKER_ID)).includes(newest));
      expect(await regionText(page, TICKER_ID)).not.toBe(tickerBefore);
      expect(await stillSameWindow(page)).toBe(true);
      expect((await sseLog(page)).errors).toBe(0);
    });
  });

  describe('served by `spades serve`', () => {
    let server: ServeProcess | undefined;
    afterAll(async () => {
      if (server) await killHard(server.child);
    });

    it('reconnects by itself after the server is killed and restarted, and shows what was entered meanwhile', async () => {
      const dataDir = tempDir();
      const setup = await demoLedger(dataDir);
      await play(setup, 3);
      setup.close();
      server = await startServeProcess(dataDir);
      const port = server.port;

      const page = await browser.newPage({ viewport: { width: 1920, height: 1080 } });
      await page.addInitScript(SSE_LOG);
      await page.goto(`${server.url}/screen`);
      // Generous: on a busy machine the first stream of a freshly started server can be slow.
      await waitFor('the screen to connect', async () => (await sseLog(page)).opened === 1, 20_000);
      // The page caps the wait between attempts, so a screen is back within seconds of the server.
      expect(
        await page.evaluate(() => (window as unknown as { htmx: { config: { sse: { reconnectMaxDelay: number } } } }).htmx.config.sse.reconnectMaxDelay),
      ).toBe(5000);
      await markWindow(page);
      const before = await regionText(page, LIVE_TABLES_ID);

      const badge = () =>
        page.evaluate(() => {
          const el = document.querySelector<HTMLElement>('[data-connection]')!;
          return { shown: !el.hidden && el.getBoundingClientRect().height > 0, text: el.textContent };
        });
      expect((await badge()).shown).toBe(false);
      await killHard(server.child);
      server = undefined;
      // The room is told the screen lost the server, in words, for as long as it is down.
      await waitFor('the reconnecting badge', async () => (await badge()).shown, 10_000);
      expect((await badge()).text).toContain('Reconnecting');
      // Entries made while the server is down, straight into its ledger.
      const meanwhile = await demoLedger(dataDir);
      await play(meanwhile, 2);
      const position = meanwhile.models.position;
      meanwhile.close();
      server = await startServeProcess(dataDir, port);

      // The extension waits longer between each failed attempt; give it a few of them.
      await waitFor('the page to resume at the new ledger position', async () => (await sseLog(page)).ids.at(-1) === position, 30_000);
      const log = await sseLog(page);
      expect(log.opened).toBe(2);
      expect((await badge()).shown).toBe(false);
      expect(await stillSameWindow(page)).toBe(true);
      const after = await regionText(page, LIVE_TABLES_ID);
      expect(after).not.toBe(before);
      const fresh = await browser.newPage({ viewport: { width: 1920, height: 1080 } });
      await fresh.goto(`${server.url}/screen`);
      expect(after).toBe(await regionText(fresh, LIVE_TABLES_ID));
      await fresh.close();
      await page.close();
    });
  });
});

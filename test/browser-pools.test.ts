/**
 * Pools into a playoff as the room sees it in a browser: 16 teams in 4 pools, two rounds of pool
 * play entered and the third begun, then another event whose pool play is over and whose playoff
 * is drawn. The venue screen at 1920×1080 shows every pool's table whole, nothing cut off, in type
 * read across the room, and the playoff's bracket once it is drawn; the standings page shows a
 * table for each pool and then the playoff, and fits a 390 px phone; axe-core finds no WCAG 2.2
 * A or AA violation on any of them.
 */
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Ledger, openLedger } from '../events/store/sqlite/ledger.ts';
import { drawRound } from '../server/commands/round-commands.ts';
import { createTournament, registerTeam, startTournament } from '../server/commands/tournament-commands.ts';
import { LEAGUE_NAMES, enterRound } from './fixtures/league-events.ts';
import { hasChromium, type InProcessServer, launchChromium, noteMissingChromium, removeTempDirs, serveInProcess, tempDir } from './fixtures/live-server.ts';
import { axeViolations, showPanel, shownTexts } from './fixtures/browser-page.ts';

noteMissingChromium('browser-pools');

const TV = { width: 1920, height: 1080 };
const PHONE = { width: 390, height: 844 };

/** 16 teams in 4 pools of 4, the top 2 of each going on to a double elimination playoff. */
function startPools(ledger: Ledger, tournamentId: string, name: string): void {
  ledger.execute(
    createTournament(ledger.models, {
      tournamentId,
      name,
      format: 'custom',
      options: { elimination: 'pools', pools: 4, advance: 2, playoff: 'double', rules: 'blp-r1', gamesToWin: 1 },
    }),
  );
  for (let i = 1; i <= 16; i++) {
    ledger.execute(
      registerTeam(ledger.models, { tournamentId, teamId: `${tournamentId}-${i}`, name: LEAGUE_NAMES[i - 1]!, players: [`Player ${i}A`, `Player ${i}B`] }),
    );
  }
  ledger.execute(startTournament(ledger.models, { tournamentId, order: Array.from({ length: 16 }, (_, i) => `${tournamentId}-${i + 1}`) }));
}

describe.skipIf(!hasChromium)('pools into a playoff in the browser', () => {
  let browser: Browser;
  let ledger: Ledger;
  let server: InProcessServer;
  beforeAll(async () => {
    ledger = openLedger({ path: join(tempDir(), 'spades.db'), synchronous: 'NORMAL' });
    // In pool play: rounds 1 and 2 entered, round 3 half.
    startPools(ledger, 'pools16', 'Pools Saturday');
    enterRound(ledger, 'pools16', 1, 'pools-1');
    enterRound(ledger, 'pools16', 2, 'pools-2');
    enterRound(ledger, 'pools16', 3, 'pools-3', 4);
    // Pool play over and the playoff drawn, its first two matches entered.
    startPools(ledger, 'playoff16', 'Pools Sunday');
    for (let round = 1; round <= 3; round++) enterRound(ledger, 'playoff16', round, `playoff-${round}`);
    ledger.execute(drawRound(ledger.models, { tournamentId: 'playoff16', round: 4 }));
    enterRound(ledger, 'playoff16', 1, 'playoff-w1', 2);
    server = await serveInProcess(ledger);
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
    ledger?.close();
    removeTempDirs();
  });

  async function open(path: string, viewport: { width: number; height: number }): Promise<Page> {
    const context = await browser.newContext({ viewport, bypassCSP: true, reducedMotion: 'reduce' });
    const page = await context.newPage();
    await page.goto(`${server.url}${path}`);
    return page;
  }

  for (const id of ['pools16', 'playoff16']) {
    it(`shows ${id}’s four pool tables on the TV at 1920×1080, whole and large, then its pairings or playoff, with nothing for axe`, async () => {
      const page = await open(`/tournaments/${id}/screen`, TV);
      await showPanel(page, 0);
      expect(await page.locator('#leaderboard .league-board h2').allTextContents()).toEqual(['Pool A', 'Pool B', 'Pool C', 'Pool D']);
      const rows = await shownTexts(page, '#leaderboard tbody tr');
      expect(rows).toHaveLength(16);
      expect(rows.filter((r) => !r.onScreen).map((r) => r.text)).toEqual([]);
      const cells = await shownTexts(page, '#leaderboard h2, #leaderboard th, #leaderboard td, #leaderboard .team-name, .pools-notes p');
      expect(cells.filter((c) => c.cut).map((c) => c.text)).toEqual([]);
      expect(cells.filter((c) => !c.onScreen).map((c) => c.text)).toEqual([]);
      expect(Math.min(...cells.map((c) => c.fontSize))).toBeGreaterThanOrEqual(28);
      expect(await axeViolations(page)).toEqual([]);

      await showPanel(page, 1);
      if (id === 'pools16') {
        expect(await page.locator('#league-rounds h2').textContent()).toBe('Round 3 of 3: pairings');
      } else {
        // The playoff's bracket takes the pairings' turn once it is drawn.
        expect(await page.locator('#league-rounds').count()).toBe(0);
        expect(await page.locator('#bracket h2').first().textContent()).toBe('Playoff');
      }
      expect(await axeViolations(page)).toEqual([]);
      expect(await page.evaluate(() => [document.documentElement.scrollWidth, document.documentElement.scrollHeight])).toEqual([1920, 1080]);
      await page.context().close();
    });
  }

  it('shows a table for each pool and then the playoff on the standings page, fitting a 390 px phone, with nothing for axe', async () => {
    for (const id of ['pools16', 'playoff16']) {
      const page = await open(`/tournaments/${id}/leaderboard`, PHONE);
      expect(await page.locator('#leaderboard .league-board h2').allTextContents()).toEqual(['Pool A', 'Pool B', 'Pool C', 'Pool D']);
      expect(await page.locator('#leaderboard tbody tr').count()).toBe(16);
      expect(await page.locator('#bracket-title').textContent()).toBe('Playoff');
      if (id === 'pools16') expect(await page.locator('#bracket .empty').textContent()).toContain('The playoff is drawn once every pool match is decided');
      else expect(await page.locator('#bracket .match, #bracket [data-match]').count()).toBeGreaterThan(0);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
      expect(await axeViolations(page)).toEqual([]);
      await page.context().close();
    }
  });
});

/**
 * A blp-2024 event drawn round by round, in the browser: the bracket page on a phone and the
 * venue screen on a TV show the rounds drawn so far, each bye with the high card that won it,
 * and the next round as to be drawn, with nothing running off the page.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { type Ledger, openLedger } from '../events/store/sqlite/ledger.ts';
import { createTournament, pinScreen, registerTeam, startTournament } from '../server/commands/tournament-commands.ts';
import { driveTables } from '../server/serve/table-driver.ts';
import {
  hasChromium,
  type InProcessServer,
  launchChromium,
  noteMissingChromium,
  removeTempDirs,
  ROOT,
  serveInProcess,
  tempDir,
} from './fixtures/live-server.ts';

noteMissingChromium('browser-blp-rounds');
const OUTPUT = join(ROOT, 'test-output');

/** Whether the page scrolls sideways (a bracket's own scroll region may; the page may not). */
const widerThanScreen = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth > innerWidth);

describe.skipIf(!hasChromium)('a blp event drawn round by round in the browser', () => {
  let browser: Browser;
  let ledger: Ledger;
  let server: InProcessServer;
  beforeAll(async () => {
    mkdirSync(OUTPUT, { recursive: true });
    ledger = openLedger({ path: join(tempDir(), 'spades.db'), synchronous: 'NORMAL' });
    ledger.execute(createTournament(ledger.models, { tournamentId: 'blp', name: 'BLP 2024', format: 'blp-2024' }));
    for (let i = 1; i <= 9; i++)
      ledger.execute(registerTeam(ledger.models, { tournamentId: 'blp', teamId: `team${i}`, name: `Team ${i}`, players: ['A', 'B'] }));
    ledger.execute(startTournament(ledger.models, { tournamentId: 'blp', seed: 'blp' }));
    ledger.execute(pinScreen(ledger.models, { tournamentId: 'blp' }));
    // Play until round 3 is drawn and every one of its matches is decided: round 4 is then still to be drawn.
    const round3Done = () => {
      const matches = ledger.models.tournaments.blp!.model.matches;
      return matches.some((m) => m.round === 3) && matches.filter((m) => m.round >= 3).every((m) => m.status === 'done' || m.status === 'bye');
    };
    for (let i = 0; i < 50_000 && !round3Done(); i++) {
      // One step at a time, stopping before the bots draw round 4.
      await driveTables(ledger, { tournamentId: 'blp', seed: 'blp', now: () => '2026-01-01T10:00:00.000Z' });
    }
    expect(round3Done()).toBe(true);
    server = await serveInProcess(ledger);
    browser = await launchChromium();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await server?.close();
    ledger?.close();
    removeTempDirs();
  });

  it('shows the byes with their cards and the round to be drawn on a phone, without the page scrolling sideways', async () => {
    const page = await browser.newPage({ viewport: { width: 390, height: 844 } });
    await page.goto(`${server.url}/tournaments/blp/bracket`);
    const next = page.locator('#bracket .bracket-next');
    await expect(next.textContent()).resolves.toBe('Round 4 to be drawn once round 3 is decided');
    expect(await next.isVisible()).toBe(true);
    const byes = await page.locator('#bracket .match--bye .slot.is-bye').allTextContents();
    expect(byes.length).toBeGreaterThan(0);
    for (const text of byes) expect(text).toMatch(/^bye( · high card (10|[2-9AKQJ])[SHDC]| \(the only team yet to have one\))$/);
    expect(await page.locator('#bracket .round-title').allTextContents()).toEqual(expect.arrayContaining(['Round 1', 'Round 2', 'Round 3']));
    await page.screenshot({ path: join(OUTPUT, 'bracket-390x844-blp-rounds.png'), fullPage: true });
    expect(await widerThanScreen(page)).toBe(false);
    await page.close();
  });

  it('shows the same on the venue screen at 1920×1080', async () => {
    const page = await browser.newPage({ viewport: { width: 1920, height: 1080 } });
    await page.goto(`${server.url}/screen`);
    await page.evaluate(() => {
      for (const animation of document.getAnimations()) {
        animation.pause();
        animation.currentTime = 15_000 + 7_000;
      }
    });
    expect(await page.locator('#bracket .bracket-next').textContent()).toBe('Round 4 to be drawn once round 3 is decided');
    // The screen's narrow cards give the bye's card alone.
    for (const text of await page.locator('#bracket .match--bye .slot.is-bye').allTextContents()) expect(text).toMatch(/^bye( · (10|[2-9AKQJ])[SHDC])?$/);
    await page.screenshot({ path: join(OUTPUT, 'screen-1920x1080-blp-rounds-bracket.png') });
    const off = await page.evaluate(
      () =>
        Array.from(document.querySelectorAll('#bracket .match, #bracket .bracket-next'))
          .map((m) => m.getBoundingClientRect())
          .filter((box) => box.top < 0 || box.left < 0 || box.bottom > innerHeight || box.right > innerWidth).length,
    );
    expect(off).toBe(0);
    expect(await widerThanScreen(page)).toBe(false);
    await page.close();
  });
});

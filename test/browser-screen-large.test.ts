/**
 * A 64-team event on the venue screen: the bracket panel shows the whole road from the round in
 * play to the final, each match with its number, live matches first, and says how many it left
 * to the bracket page; nothing runs off the TV, in
 * the page as served and after live updates rewrite the bracket.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { type Ledger, openLedger } from '../events/store/sqlite/ledger.ts';
import { createTournament, registerTeam, startTournament } from '../server/commands/tournament-commands.ts';
import { driveTables } from '../server/serve/table-driver.ts';
import { screenBracket } from '../views/screen.tsx';
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

noteMissingChromium('browser-screen-large');
const OUTPUT = join(ROOT, 'test-output');

/** Matches of the bracket panel that do not lie wholly on the 1920×1080 screen. */
function offScreen(page: Page) {
  return page.evaluate(() =>
    Array.from(document.querySelectorAll('#bracket .match'))
      .map((m) => ({ id: (m as HTMLElement).dataset.match, box: m.getBoundingClientRect() }))
      .filter(({ box }) => box.top < 0 || box.left < 0 || box.bottom > innerHeight || box.right > innerWidth)
      .map(({ id }) => id),
  );
}

/** Puts the bracket panel up by stopping the rotation in the middle of its turn. */
async function showBracket(page: Page): Promise<void> {
  await page.evaluate(() => {
    for (const animation of document.getAnimations()) {
      animation.pause();
      animation.currentTime = 15_000 + 7_000;
    }
  });
}

describe.skipIf(!hasChromium)('a 64-team event on the venue screen', () => {
  let browser: Browser;
  let ledger: Ledger;
  let server: InProcessServer;
  const step = () => driveTables(ledger, { tournamentId: 'big', seed: 'big', now: () => '2026-01-01T10:00:00.000Z' });
  beforeAll(async () => {
    mkdirSync(OUTPUT, { recursive: true });
    ledger = openLedger({ path: join(tempDir(), 'spades.db'), synchronous: 'NORMAL' });
    ledger.execute(createTournament(ledger.models, { tournamentId: 'big', name: 'Asher 64', format: 'asher-theatre' }));
    for (let i = 1; i <= 64; i++)
      ledger.execute(registerTeam(ledger.models, { tournamentId: 'big', teamId: `team${i}`, name: `Team ${i}`, players: ['A', 'B'] }));
    ledger.execute(startTournament(ledger.models, { tournamentId: 'big', seed: 'big' }));
    await step();
    server = await serveInProcess(ledger);
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
    ledger?.close();
    removeTempDirs();
  });

  it('shows the whole road from round 1: the final’s box, named by the numbers of the matches feeding it', async () => {
    const page = await browser.newPage({ viewport: { width: 1920, height: 1080 } });
    await page.goto(`${server.url}/screen`);
    await showBracket(page);
    const matches = ledger.models.tournaments.big!.model.matches;
    const final = matches.find((m) => m.side === 'final')!;
    const number = (id: string) => matches.findIndex((m) => m.matchId === id) + 1;
    const box = page.locator(`#bracket [data-match="${final.matchId}"]`);
    expect(await box.isVisible()).toBe(true);
    expect(await box.locator('.match-label').textContent()).toBe(`Final · match ${number(final.matchId)}`);
    // Its slots name the semi-finals by number, and those boxes are on the screen with their numbers.
    const lastRound = Math.max(...matches.filter((m) => m.side === 'winners').map((m) => m.round));
    const feeders = matches.filter((m) => m.side === 'winners' && m.round === lastRound);
    expect(feeders).toHaveLength(2);
    const slots = (await box.locator('.slot-name').allTextContents()).map((t) => t.replace(/\s+/g, ' ').trim());
    expect(slots).toEqual(feeders.map((m) => `Winner of match ${number(m.matchId)}`));
    for (const m of feeders) expect(await page.locator(`#bracket [data-match="${m.matchId}"] .match-label`).textContent()).toBe(`Match ${number(m.matchId)}`);
    // Every round is there, from round 1 to the final.
    const rounds = await page.locator('#bracket .round-title').allTextContents();
    expect(rounds).toEqual(['Round 1', 'Round 2', 'Round 3', 'Round 4', 'Round 5', 'Final']);
    expect(await offScreen(page)).toEqual([]);
    await page.close();
  });

  it('fits the bracket on the TV with the live matches shown, as served and after live updates', async () => {
    const page = await browser.newPage({ viewport: { width: 1920, height: 1080 } });
    await page.goto(`${server.url}/screen`);
    await showBracket(page);
    const live = ledger.models.tournaments.big!.model.matches.filter((m) => m.status === 'live').map((m) => m.matchId);
    expect(live.length).toBe(32);
    await page.screenshot({ path: join(OUTPUT, 'screen-1920x1080-64-teams-bracket.png') });
    expect(await offScreen(page)).toEqual([]);
    const shown = await page.evaluate(() => Array.from(document.querySelectorAll('#bracket .match')).map((m) => (m as HTMLElement).dataset.match));
    expect(shown.length).toBeGreaterThan(0);
    for (const id of shown.filter((id) => id?.startsWith('W1-'))) expect(live).toContain(id);
    const kept = screenBracket(ledger.models.tournaments.big!.model).matches;
    expect(await page.locator('#bracket .more-matches').first().textContent()).toBe(`+ ${32 - kept} more on the bracket page`);
    const noScroll = await page.evaluate(() => document.documentElement.scrollHeight <= innerHeight && document.documentElement.scrollWidth <= innerWidth);
    expect(noScroll).toBe(true);

    // Play on until results are in; the bracket the stream pushes still fits.
    const before = await page.evaluate(() => document.querySelector('#bracket')!.outerHTML);
    for (let i = 0; i < 3000 && ledger.models.tournaments.big!.model.latest.length < 3; i++) await step();
    await page.waitForFunction((old) => document.querySelector('#bracket')!.outerHTML !== old, before, { timeout: 10_000 });
    await showBracket(page);
    expect(await offScreen(page)).toEqual([]);
    await page.close();
    // The bots enter one entry after another, as the server's demo does, and the open screen is
    // sent a message for each, which it swaps in one by one: about 25 s on a quiet machine, and
    // 290 s with three busy processes on its two cores, as the page's queue of messages grows.
  }, 420_000);
});

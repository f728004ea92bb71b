/**
 * The venue screen's highlights panel at 1920×1080: it takes no turn while nothing has happened
 * since it last showed, and after a Boston is entered it takes the next turn, across the room in
 * type no smaller than 28 px, holding the rotation for its turn.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { type Ledger, openLedger } from '../events/store/sqlite/ledger.ts';
import { importRecord } from '../events/record-import.ts';
import { createTournament, registerTeam, startTournament } from '../server/commands/tournament-commands.ts';
import { hasChromium, type InProcessServer, launchChromium, noteMissingChromium, removeTempDirs, serveInProcess, tempDir } from './fixtures/live-server.ts';

noteMissingChromium('browser-screen-highlights');

/** Moves the rotation to just before the end of its 45 s round, so the next turn comes at once. */
async function nearTurnEnd(page: Page): Promise<void> {
  await page.evaluate(() => {
    for (const animation of document.getAnimations()) animation.currentTime = 44_600;
  });
}

const highlightsShown = (page: Page) =>
  page.evaluate(() => {
    const panel = document.querySelector<HTMLElement>('.panel--highlights')!;
    return getComputedStyle(panel).visibility === 'visible' && getComputedStyle(panel).opacity === '1';
  });

describe.skipIf(!hasChromium)('the highlights panel on the venue screen', () => {
  let browser: Browser;
  let ledger: Ledger;
  let server: InProcessServer;
  beforeAll(async () => {
    ledger = openLedger({ path: join(tempDir(), 'spades.db'), synchronous: 'NORMAL' });
    ledger.execute(
      createTournament(ledger.models, {
        tournamentId: 'cup',
        name: 'Highlight Cup',
        format: 'custom',
        options: { elimination: 'single', gamesToWin: 1, rules: 'unc-300' },
      }),
    );
    ledger.execute(registerTeam(ledger.models, { tournamentId: 'cup', teamId: 'aces', name: 'Aces', players: ['Ana', 'Cy'] }));
    ledger.execute(registerTeam(ledger.models, { tournamentId: 'cup', teamId: 'kings', name: 'Kings', players: ['Ben', 'Dee'] }));
    ledger.execute(startTournament(ledger.models, { tournamentId: 'cup', seed: 'cup' }));
    server = await serveInProcess(ledger);
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
    ledger?.close();
    removeTempDirs();
  });

  it('takes a turn only once something has happened, in type read across the room', async () => {
    const page = await browser.newPage({ viewport: { width: 1920, height: 1080 } });
    await page.goto(`${server.url}/tournaments/cup/screen`);
    await page.waitForSelector('.panel--highlights #highlights', { state: 'attached' });

    // Nothing has happened: the round ends and the standings come round again.
    await nearTurnEnd(page);
    await page.waitForTimeout(1500);
    expect(await highlightsShown(page)).toBe(false);

    // A game entered from its paper record: the first team to sit North–South takes all 13 tricks.
    const match = ledger.models.tournaments.cup!.model.matches[0]!;
    const boston = { format: 'spades-game/1', rules: 'unc-300', hands: [{ bids: { N: 5, E: 4, S: 5, W: 4 }, tricks: { N: 7, E: 0, S: 6, W: 0 } }] };
    ledger.execute(importRecord(ledger.models, boston, { tournamentId: 'cup', matchId: match.matchId }, '2026-01-01T12:00:00.000Z'));
    const name = ledger.models.tournaments.cup!.model.teams.find((t) => t.teamId === match.teams[0])!.name;
    await page.waitForFunction(() => Number(document.getElementById('highlights')?.getAttribute('data-newest')) > 0);
    expect(await highlightsShown(page)).toBe(false);

    await nearTurnEnd(page);
    await page.waitForFunction(() => document.body.classList.contains('showing-highlights'), undefined, { timeout: 5000 });
    expect(await highlightsShown(page)).toBe(true);
    const shown = await page.evaluate(() => {
      const items = Array.from(document.querySelectorAll<HTMLElement>('.panel--highlights li, .panel--highlights h2'));
      const others = Array.from(document.querySelectorAll<HTMLElement>('.panels > .panel:not(.panel--highlights)')).map((p) => getComputedStyle(p).visibility);
      return {
        texts: items.map((el) => el.textContent ?? ''),
        smallest: Math.min(...items.map((el) => parseFloat(getComputedStyle(el).fontSize))),
        others,
        held: document.getAnimations().filter((a) => a.playState === 'paused').length,
      };
    });
    expect(shown.texts).toContain(`${name} took all 13 tricks: a Boston (Final, game 1, hand 1)`);
    expect(shown.smallest).toBeGreaterThanOrEqual(28);
    expect(shown.others).toEqual(['hidden', 'hidden', 'hidden']);
    expect(shown.held).toBeGreaterThanOrEqual(6);
    await page.close();
  });
});

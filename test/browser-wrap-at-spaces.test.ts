/**
 * Names and headers wrap only at spaces, on a TV across the room and on a phone: the standings'
 * header cells each read as their own words (never "Points, tiebreakStanding" run into the
 * next), and the bracket's team names never break inside a word ("Nil Desperandu / m").
 */
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Ledger, openLedger } from '../events/store/sqlite/ledger.ts';
import { createTournament, registerTeam, startTournament } from '../server/commands/tournament-commands.ts';
import { driveTables } from '../server/serve/table-driver.ts';
import { showPanel, wordBreaks } from './fixtures/browser-page.ts';
import {
  hasChromium,
  type InProcessServer,
  launchChromium,
  noteMissingChromium,
  PHONE,
  removeTempDirs,
  serveInProcess,
  tempDir,
} from './fixtures/live-server.ts';

noteMissingChromium('browser-wrap-at-spaces');

/** The demo's first eight teams: names of one to four words, the longest word eleven letters. */
const NAMES = ['Big Joker Energy', 'Books & Bags', 'Set Them Twice', 'Nil Desperandum', 'The Renegers', 'Spade Runners', 'Boston Tea Party', 'Cut Card Crew'];
const HEADERS = '#leaderboard thead th';
const TEXTS = '#bracket .slot-name, #bracket .round-title, #bracket .match-label, #leaderboard .team-name';

describe.skipIf(!hasChromium)('names and headers wrap at spaces', () => {
  let browser: Browser;
  let ledger: Ledger;
  let server: InProcessServer;
  const finished = () => ledger.models.tournaments.t8!.model.status === 'finished';
  const drive = async (steps: number) => {
    for (let s = 0; s < steps && !finished(); s++) await driveTables(ledger, { tournamentId: 't8', seed: 't8', now: () => '2026-01-01T10:00:00.000Z' });
  };
  beforeAll(async () => {
    ledger = openLedger({ path: join(tempDir(), 'spades.db'), synchronous: 'NORMAL' });
    // Eight teams: the TV draws them in its larger type, so its bracket columns are the narrowest for their words.
    ledger.execute(createTournament(ledger.models, { tournamentId: 't8', name: 'Cup of 8', format: 'pitt-boss', options: { teams: 8 } }));
    NAMES.forEach((name, i) => ledger.execute(registerTeam(ledger.models, { tournamentId: 't8', teamId: `t8-${i + 1}`, name, players: ['A', 'B'] })));
    ledger.execute(startTournament(ledger.models, { tournamentId: 't8', seed: 't8' }));
    server = await serveInProcess(ledger);
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
    ledger?.close();
    removeTempDirs();
  });

  it('breaks no team name inside a word in the TV’s bracket, from the draw to the final', async () => {
    const pages = await Promise.all([
      browser.newPage({ viewport: { width: 1920, height: 1080 } }),
      browser.newPage({ viewport: { width: 1280, height: 720 } }),
    ]);
    const found = new Set<string>();
    let looks = 0;
    for (let look = 0; look < 30; look++) {
      for (const page of pages) {
        await page.goto(`${server.url}/screen?t=t8`);
        await showPanel(page, 1);
        for (const problem of await wordBreaks(page, TEXTS)) found.add(problem);
        // A name that takes two lines does not slide under the next match's card.
        const covered = await page.evaluate(() => {
          const boxes = Array.from(document.querySelectorAll<HTMLElement>('#bracket .match')).map((m) => ({
            text: (m.textContent ?? '').replace(/\s+/g, ' ').trim(),
            box: m.getBoundingClientRect(),
          }));
          return boxes.flatMap((a, i) =>
            boxes
              .slice(i + 1)
              .filter((b) => a.box.left < b.box.right - 1 && b.box.left < a.box.right - 1 && a.box.top < b.box.bottom - 1 && b.box.top < a.box.bottom - 1)
              .map((b) => `${a.text} covers ${b.text}`),
          );
        });
        for (const problem of covered) found.add(`${page.viewportSize()!.width}: ${problem}`);
      }
      looks++;
      if (finished()) break;
      await drive(250);
    }
    // Every stage of the event was looked at: the draw, each round in play, and the final.
    expect(finished()).toBe(true);
    expect(looks).toBeGreaterThan(5);
    expect([...found]).toEqual([]);
    await Promise.all(pages.map((page) => page.close()));
  }, 180_000);

  for (const [width, height] of [
    [1920, 1080],
    [1280, 720],
  ] as const) {
    it(`keeps the TV's standings headers apart and whole at ${width}×${height}`, async () => {
      const page = await browser.newPage({ viewport: { width, height } });
      await page.goto(`${server.url}/screen?t=t8`);
      await showPanel(page, 0);
      // The knockout's points column, "Points, tiebreak", beside "Standing".
      expect(await page.locator(`${HEADERS}.tiebreak`).count()).toBe(1);
      expect(await wordBreaks(page, HEADERS)).toEqual([]);
      await page.close();
    });
  }

  for (const path of ['leaderboard', 'bracket']) {
    it(`breaks no header or name inside a word on a phone's ${path} page`, async () => {
      const page = await browser.newPage(PHONE);
      await page.goto(`${server.url}/tournaments/t8/${path}`);
      expect(await page.locator(`${HEADERS}, ${TEXTS}`).count()).toBeGreaterThan(5);
      expect(await wordBreaks(page, `${HEADERS}, ${TEXTS}`)).toEqual([]);
      await page.close();
    });
  }
});

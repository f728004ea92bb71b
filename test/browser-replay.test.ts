/**
 * A hand replayed in a real browser: from the table's score pad to the replay, through all 13
 * tricks with the → key and back with the Previous button and the ← key, the hands shrinking
 * and the renege marked at the trick the plays show it, under the site's Content-Security-Policy.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GameModel, HandRow } from '../events/read-models.ts';
import { type AuditLedger, playTournament, tempLedger } from './fixtures/audit-ledger.ts';
import { hasChromium, type InProcessServer, launchChromium, noteMissingChromium, serveInProcess } from './fixtures/live-server.ts';

noteMissingChromium('browser-replay');

// Each step is a page of its own; once its document is parsed, what the test reads is there.
const LOADED = { waitUntil: 'domcontentloaded' } as const;

/** What the page shows at the current step: its number, the cards each seat holds, and the reneges marked. */
function shown(page: Page) {
  return page.evaluate(() => {
    const step = Number(document.getElementById('replay-step')!.getAttribute('data-step'));
    const holding = Array.from(document.querySelectorAll('[data-holding]')).map((el) => el.querySelectorAll('[data-card]').length);
    const reneges = Array.from(document.querySelectorAll('.trick-cards [data-violation="renege"]')).map((el) => el.getAttribute('data-seat'));
    const trick = document.querySelector('.trick-title[data-trick]')?.getAttribute('data-trick') ?? null;
    return { step, holding, reneges, trick };
  });
}

describe.skipIf(!hasChromium)('a hand replayed in a browser', () => {
  let fixture: AuditLedger;
  let server: InProcessServer;
  let browser: Browser;
  let game: GameModel;
  let row: HandRow;
  const problems: string[] = [];

  beforeAll(async () => {
    fixture = tempLedger();
    await playTournament(fixture.ledger, { renegeChance: 0.05 });
    // A hand recorded card by card in which the plays show a renege.
    for (const g of Object.values(fixture.ledger.models.games)) {
      const found = g.rows.find((r) => r.reneges.length > 0 && g.hands[r.number - 1]!.plays);
      if (found) {
        game = g;
        row = found;
        break;
      }
    }
    server = await serveInProcess(fixture.ledger);
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
    fixture?.remove();
  });

  it('steps through all 13 tricks and back, with the renege marked at its trick', async () => {
    expect(row).toBeDefined();
    const page = await browser.newPage();
    page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
    page.on('console', (message) => {
      // The browser asks for /favicon.ico by itself; the site has none, and that is not the replay's concern.
      if (message.type() === 'error' && !message.location().url.endsWith('/favicon.ico'))
        problems.push(`console: ${message.text()} (${message.location().url})`);
    });
    page.on('response', (response) => {
      if (response.status() >= 400) problems.push(`${response.status()} ${response.url()}`);
    });

    // given the table's page, whose score pad links every hand to its replay
    await page.goto(`${server.url}/tournaments/t1/games/${game.gameId}`);
    const replayUrl = `${server.url}/games/${game.gameId}/hands/${row.number}/replay`;
    await Promise.all([page.waitForURL(replayUrl), page.click(`.pad a[href="/games/${game.gameId}/hands/${row.number}/replay"]`)]);
    expect(await shown(page)).toEqual({ step: 0, holding: [13, 13, 13, 13], reneges: [], trick: null });

    // when → is pressed 13 times
    const forward: string[][] = [];
    for (let step = 1; step <= 13; step++) {
      await Promise.all([page.waitForURL(`${replayUrl}?step=${step}`, LOADED), page.keyboard.press('ArrowRight')]);
      const now = await shown(page);
      expect(now.step).toBe(step);
      expect(now.trick).toBe(String(step));
      expect(now.holding).toEqual([13 - step, 13 - step, 13 - step, 13 - step]);
      forward.push(now.reneges as string[]);
    }
    // then the last trick has no Next, and the hand's score is shown
    expect(await page.locator('a[data-replay="next"]').count()).toBe(0);
    expect(await page.locator('#hand-score tr[data-team="NS"]').getAttribute('data-score')).toBe(String(row.NS.score));

    // and back: once with the Previous button, then with ← down to the deal
    const backward = new Map<number, string[]>();
    await Promise.all([page.waitForURL(`${replayUrl}?step=12`, LOADED), page.click('a[data-replay="prev"]')]);
    backward.set(12, (await shown(page)).reneges as string[]);
    for (let step = 11; step >= 0; step--) {
      await Promise.all([page.waitForURL(`${replayUrl}?step=${step}`, LOADED), page.keyboard.press('ArrowLeft')]);
      const now = await shown(page);
      expect(now.step).toBe(step);
      expect(now.holding).toEqual([13 - step, 13 - step, 13 - step, 13 - step]);
      backward.set(step, now.reneges as string[]);
    }
    expect(await page.locator('a[data-replay="prev"]').count()).toBe(0);

    // the renege is marked exactly at the tricks the recorded plays show, going either way
    const expected = Array.from({ length: 13 }, (_, i) =>
      row.reneges
        .filter((r) => r.trick === i + 1)
        .map((r) => r.seat)
        .sort(),
    );
    expect(forward.map((seats) => [...seats].sort())).toEqual(expected);
    for (let step = 1; step <= 12; step++) expect([...backward.get(step)!].sort()).toEqual(expected[step - 1]);
    expect(backward.get(0)).toEqual([]);
    expect(problems).toEqual([]);
    await page.close();
  }, 60_000);
});

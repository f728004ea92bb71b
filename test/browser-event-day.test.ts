/**
 * The day of the event, in Chromium, as the people in the room use the pages: a claim filed
 * from a table's phone reaches an open judge console within a second; two taps 250 ms apart on
 * one card record one card, and no entry button moves from one tap to the next; every page fits
 * a 390px phone without scrolling sideways; and the venue screen at 1920×1080 shows no text
 * under 28px on any panel, with a clock that keeps one format as it ticks.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { createTournament, pinScreen, registerTeam, startTournament } from '../server/commands/tournament-commands.ts';
import { driveTables } from '../server/serve/table-driver.ts';
import { claimRenege } from '../server/commands/game-commands.ts';
import { hasChromium, launchChromium, noteMissingChromium, removeTempDirs, waitFor } from './fixtures/live-server.ts';
import { type EventDay, eventDay, joinTable, playableCard, recordedCards, settled } from './fixtures/event-day.ts';
import { showPanel } from './fixtures/browser-page.ts';

noteMissingChromium('browser-event-day');

const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 } as const;

/** Signs a browser context in at /login as a director or judge. */
async function signIn(context: BrowserContext, url: string, name: string, password: string): Promise<void> {
  const page = await context.newPage();
  await page.goto(`${url}/login`);
  await page.fill('input[name=name]', name);
  await page.fill('input[name=password]', password);
  await page.click('.login-form button[type=submit]');
  await page.waitForURL((u) => !u.pathname.startsWith('/login'));
  await page.close();
}

/** Every button of the entry panel, by what it is, with where it is on the screen. */
function buttonBoxes(page: Page): Promise<Record<string, { x: number; y: number; w: number; h: number }>> {
  return page.evaluate(() => {
    const boxes: Record<string, { x: number; y: number; w: number; h: number }> = {};
    for (const button of Array.from(document.querySelectorAll<HTMLButtonElement>('#entry-panel button'))) {
      const key = button.dataset.card ? `card ${button.dataset.card}` : button.dataset.action ? `action ${button.dataset.action}` : null;
      if (!key) continue;
      const r = button.getBoundingClientRect();
      boxes[key] = { x: r.x, y: r.y, w: r.width, h: r.height };
    }
    return boxes;
  });
}

/**
 * Every card of the grid and Undo are shown before and after, in the same place and size. (The
 * claim and misdeal forms further down may come and go as the hand goes on.)
 */
function expectUnmoved(before: Record<string, { x: number; y: number; w: number; h: number }>, after: typeof before, when: string): void {
  const entry = (boxes: typeof before) =>
    Object.fromEntries(Object.entries(boxes).filter(([key, box]) => (key.startsWith('card ') || key === 'action undo') && box.w > 0));
  const a = entry(before);
  expect(Object.keys(a).length, when).toBeGreaterThanOrEqual(53);
  expect(entry(after), when).toEqual(a);
}

describe.skipIf(!hasChromium)('the day of the event in a browser', () => {
  let browser: Browser;
  let day: EventDay;
  beforeAll(async () => {
    browser = await launchChromium();
    day = await eventDay();
  });
  afterAll(async () => {
    await browser?.close();
    await day?.close();
    removeTempDirs();
  });

  it('shows a claim filed from a phone on an open judge console within 1 s, announced as new', async () => {
    const judgeContext = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const phoneContext = await browser.newContext(PHONE);
    try {
      await signIn(judgeContext, day.url, 'Jo Judge', 'judge-password');
      const judge = await judgeContext.newPage();
      const errors: string[] = [];
      judge.on('pageerror', (e) => errors.push(e.message));
      await judge.goto(`${day.url}/judge`);
      await waitFor('the console’s stream to open', () => judge.evaluate(() => document.querySelector('.live') !== null));
      await judge.waitForTimeout(300);
      expect(await judge.locator('[data-claim]').count()).toBe(0);

      const phone = await joinTable(phoneContext, day);
      await phone.click('details.claims summary');
      await phone.selectOption('.claim-form select[name=seat]', 'E');
      await phone.selectOption('.claim-form select[name=trick]', '1');
      const filed = Date.now();
      await phone.click('[data-action=claim-renege]');
      await judge.waitForSelector('[data-claim]', { timeout: 5000 });
      const shownAfter = Date.now() - filed;
      expect(shownAfter).toBeLessThan(1000);

      const claim = judge.locator('[data-claim]').first();
      expect(await claim.locator('.claim-where').textContent()).toBe('Friday Cup · Table 1 · Round 1, game 1');
      expect(await claim.locator('h3').textContent()).toContain('renege claimed against East (Set Busters), hand 1, trick 1');
      // New since the page was opened: flashed, and said in words at the top.
      expect(await claim.getAttribute('class')).toContain('is-new');
      await judge.waitForFunction(() => document.querySelector('[data-judge-alert]')?.textContent?.startsWith('New claim: Friday Cup · Table 1'));
      expect(await judge.title()).toBe('(1) Judge console');
      expect(errors).toEqual([]);
      // Ruled on from the console: asked once, with nothing recorded yet, then the claim leaves the queue.
      const head = day.ledger.store.head().position;
      await judge.click('[data-action=deny]');
      await judge.waitForSelector('[data-confirm-ruling]');
      expect(await judge.textContent('#confirm-ruling-title')).toBe('Deny this claim?');
      expect(day.ledger.store.head().position).toBe(head);
      await judge.click('[data-action=confirm-ruling]');
      await judge.waitForSelector('[data-claim]', { state: 'detached' });
      expect(day.ledger.store.readAll().at(-1)!.type).toBe('RulingGiven');
    } finally {
      await judgeContext.close();
      await phoneContext.close();
    }
  });

  it('records one card for two taps 250 ms apart on it, and moves no entry button from one tap to the next', async () => {
    const context = await browser.newContext(PHONE);
    try {
      const phone = await joinTable(context, day);
      const before = recordedCards(day.ledger, day.gameId).length;

      // Two taps on one card, a quarter of a second apart: one card is recorded, for the seat it was tapped for.
      const seat = (await phone.getAttribute('.card-grid', 'data-seat'))!;
      const card = await playableCard(phone);
      const layout = await buttonBoxes(phone);
      await phone.tap(`.card-grid button[data-card="${card}"]`, { force: true });
      await phone.waitForTimeout(250);
      await phone.tap(`.card-grid button[data-card="${card}"]`, { force: true });
      await settled(phone);
      await phone.waitForTimeout(300);
      const recorded = recordedCards(day.ledger, day.gameId);
      expect(recorded.slice(before).map(({ seat: s, card: c }) => ({ seat: s, card: c }))).toEqual([{ seat, card }]);
      expectUnmoved(layout, await buttonBoxes(phone), `after tapping ${card} twice`);

      // Tap after tap, across the end of a trick: every button stays exactly where it was.
      for (let i = 0; i < 6; i++) {
        const next = await playableCard(phone);
        const boxes = await buttonBoxes(phone);
        await phone.tap(`.card-grid button[data-card="${next}"]`);
        await settled(phone);
        expectUnmoved(boxes, await buttonBoxes(phone), `after tapping ${next}`);
      }
      expect(recordedCards(day.ledger, day.gameId)).toHaveLength(before + 7);
      // The whole grid and Undo are on the phone's screen without scrolling.
      const lowest = Math.max(
        ...Object.entries(await buttonBoxes(phone))
          .filter(([key]) => key.startsWith('card ') || key === 'action undo')
          .map(([, b]) => b.y + b.h),
      );
      expect(lowest).toBeLessThanOrEqual(844);
    } finally {
      await context.close();
    }
  });

  it('fits every page on a 390px phone with no sideways scrolling', async () => {
    // A claim, a finished match and the replay exist to be shown.
    const m = day.ledger.models;
    if (!m.games[day.gameId]!.claims.length) day.ledger.execute(claimRenege(m, { gameId: day.gameId, claimId: 'fit-1', seat: 'N', trick: 1 }));
    const pages = [
      '/',
      '/tournaments/cup',
      '/tournaments/cup/leaderboard',
      '/tournaments/cup/bracket',
      `/tournaments/cup/games/${day.gameId}`,
      `/games/${day.gameId}/hands/1/replay`,
      '/tournaments/cup/as-of',
      '/verify',
      '/login',
      '/join',
      '/no/such/page',
    ];
    const staff = ['/judge', '/director', '/director/tournaments/cup', '/director/tournaments/cup/codes'];
    const context = await browser.newContext(PHONE);
    const keeper = await browser.newContext(PHONE);
    try {
      await signIn(context, day.url, 'Dana Director', 'director-password');
      const phone = await joinTable(keeper, day);
      const page = await context.newPage();
      const overflow: string[] = [];
      const check = async (p: Page, path: string) => {
        const widths = await p.evaluate(() => ({ doc: document.documentElement.scrollWidth, body: document.body.scrollWidth }));
        if (widths.doc > 390 || widths.body > 390) {
          const wide = await p.evaluate(() =>
            Array.from(document.querySelectorAll('body *'))
              .filter((el) => el.getBoundingClientRect().right > 391)
              .slice(0, 3)
              .map((el) => `${el.tagName.toLowerCase()}.${el.className}`),
          );
          overflow.push(`${path}: ${widths.doc}px (${wide.join(', ')})`);
        }
      };
      for (const path of [...pages, ...staff]) {
        const response = await page.goto(`${day.url}${path}`);
        expect(response!.status(), path).toBeLessThan(path === '/no/such/page' ? 500 : 400);
        await check(page, path);
      }
      await check(phone, '/entry/tables/cup/1');
      expect(overflow).toEqual([]);

      // The director's id field checks what it says in a pattern the browser accepts.
      await page.goto(`${day.url}/director`);
      const id = page.locator('input[name=tournamentId]');
      await id.fill('friday-cup-2');
      expect(await id.evaluate((el: HTMLInputElement) => el.checkValidity())).toBe(true);
      await id.fill('no spaces!');
      expect(await id.evaluate((el: HTMLInputElement) => el.validity.patternMismatch)).toBe(true);
    } finally {
      await context.close();
      await keeper.close();
    }
  });

  it('keeps a TV on /screen on the pinned tournament, and moves it when a director pins another', async () => {
    const m = day.ledger.models;
    day.ledger.execute(pinScreen(m, { tournamentId: 'cup' }));
    const tv = await browser.newPage({ viewport: { width: 1920, height: 1080 } });
    // Each step says what it waited for, well before the test's own time runs out.
    tv.setDefaultTimeout(20_000);
    // Counts the page's stream connections from before its first script runs.
    await tv.addInitScript(() => {
      const w = window as unknown as { __opened: number };
      w.__opened = 0;
      document.addEventListener('htmx:sse:after:connection', () => w.__opened++, true);
    });
    try {
      await tv.goto(`${day.url}/screen`);
      expect(await tv.textContent('.screen-title')).toBe('Friday Cup');
      await tv.waitForFunction(() => (window as unknown as { __opened: number }).__opened > 0);
      // Another tournament is created: the TV stays where it is.
      day.ledger.execute(createTournament(m, { tournamentId: 'late', name: 'Late Night Open', format: 'pitt-boss' }));
      await tv.waitForTimeout(800);
      expect(await tv.textContent('.screen-title')).toBe('Friday Cup');
      // The director pins it: the TV follows, at the same address.
      day.ledger.execute(pinScreen(m, { tournamentId: 'late' }));
      await tv.waitForFunction(() => document.querySelector('.screen-title')?.textContent === 'Late Night Open', undefined, { timeout: 15_000 });
      expect(new URL(tv.url()).pathname).toBe('/screen');
      // Pinned back, it follows back. Waited for so the page is not closed in the middle of that
      // reload: chromium can take minutes to close a page whose navigation is under way.
      day.ledger.execute(pinScreen(m, { tournamentId: 'cup' }));
      await tv.waitForFunction(() => document.querySelector('.screen-title')?.textContent === 'Friday Cup', undefined, { timeout: 15_000 });
    } finally {
      await tv.close();
    }
  }, 120_000);

  describe('the venue screen at 1920×1080', () => {
    /** Every piece of text the screen shows, with its computed size, for the panel that is up. */
    function textSizes(page: Page) {
      return page.evaluate(() => {
        const found: { text: string; size: number }[] = [];
        const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
        for (let node = walker.nextNode(); node; node = walker.nextNode()) {
          const el = node.parentElement;
          if (!el || !node.textContent?.trim()) continue;
          if (!el.checkVisibility({ opacityProperty: true, visibilityProperty: true })) continue;
          const box = el.getBoundingClientRect();
          // Text for screen readers only sits in a 1px box; anything off the screen is not shown.
          if (box.width <= 1 || box.height <= 1 || box.bottom <= 0 || box.top >= innerHeight) continue;
          found.push({ text: node.textContent.trim().slice(0, 40), size: parseFloat(getComputedStyle(el).fontSize) });
        }
        return found;
      });
    }

    it('shows no text under 28px on any panel, for events of 4, 16 and 64 teams', async () => {
      const m = day.ledger.models;
      for (const [id, teams] of [
        ['four', 4],
        ['sixteen', 16],
        ['sixty-four', 64],
      ] as const) {
        if (m.tournaments[id]) continue;
        day.ledger.execute(createTournament(m, { tournamentId: id, name: `${teams}-team Open`, format: 'pitt-boss' }));
        for (let i = 1; i <= teams; i++)
          day.ledger.execute(registerTeam(m, { tournamentId: id, teamId: `${id}-${i}`, name: `Team ${i} of ${teams}`, players: ['A', 'B'] }));
        day.ledger.execute(startTournament(m, { tournamentId: id, seed: id }));
        for (let step = 0; step < 60; step++) await driveTables(day.ledger, { tournamentId: id, seed: id });
      }
      const page = await browser.newPage({ viewport: { width: 1920, height: 1080 } });
      try {
        const small: string[] = [];
        for (const id of ['four', 'sixteen', 'sixty-four', 'cup']) {
          await page.goto(`${day.url}/tournaments/${id}/screen`);
          await page.evaluate(() => document.fonts.ready);
          for (const [index, panel] of ['standings', 'bracket', 'tables'].entries()) {
            await showPanel(page, index);
            const sizes = await textSizes(page);
            expect(sizes.length, `${id} ${panel}`).toBeGreaterThan(3);
            for (const { text, size } of sizes) if (size < 28) small.push(`${id} ${panel}: "${text}" at ${size}px`);
          }
        }
        expect(small).toEqual([]);
      } finally {
        await page.close();
      }
    });

    it('ticks the match clock in one format, second after second', async () => {
      const page = await browser.newPage({ viewport: { width: 1920, height: 1080 } });
      try {
        // As served, before any script has run.
        const served = await (await fetch(`${day.url}/tournaments/cup/screen`)).text();
        const first = /<time class="clock-value"[^>]*>([^<]*)<\/time>/.exec(served)![1]!;
        expect(first).toMatch(/^\d{1,3}:[0-5]\d$/);
        await page.goto(`${day.url}/tournaments/cup/screen`);
        await showPanel(page, 2);
        const seen: string[] = [];
        for (let i = 0; i < 14; i++) {
          seen.push((await page.locator('#live-tables .clock-value').first().textContent())!.trim());
          await page.waitForTimeout(250);
        }
        for (const text of seen) expect(text).toMatch(/^\d{1,3}:[0-5]\d$/);
        // It ticked while we watched, and never showed another shape (no "38 min" between seconds).
        expect(new Set(seen).size).toBeGreaterThan(1);
      } finally {
        await page.close();
      }
    });
  });
});

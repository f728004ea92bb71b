import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import type { Ledger } from '../events/store/sqlite/ledger.ts';
import {
  demoLedger,
  hasChromium,
  type InProcessServer,
  launchChromium,
  noteMissingChromium,
  playUntil,
  removeTempDirs,
  ROOT,
  serveInProcess,
  tempDir,
  TOURNAMENT,
} from './fixtures/live-server.ts';
import { showPanel } from './fixtures/browser-page.ts';

noteMissingChromium('browser-layout');

/** Where the screenshots go for a person to look at (git-ignored). */
const OUTPUT = join(ROOT, 'test-output');

/**
 * Runs in the page: every visible text that is cut off or overlaps another. Cut off: an
 * element that hides its overflow has content wider or taller than its box (a results ticker
 * scrolled by an animation is meant to run past its box, and is left out). Overlapping: two
 * sibling blocks, both showing text, whose boxes intersect by more than a pixel; a sibling
 * positioned over another on purpose (a table number in a table's corner) must clear every
 * line of text of the block it sits on instead.
 */
function layoutProblems(): string[] {
  const problems: string[] = [];
  const name = (el: Element) => {
    const classes = typeof el.className === 'string' && el.className.trim() ? '.' + el.className.trim().split(/\s+/).join('.') : '';
    return `${el.tagName.toLowerCase()}${el.id ? '#' + el.id : ''}${classes} "${(el.textContent ?? '').trim().replace(/\s+/g, ' ').slice(0, 50)}"`;
  };
  const shown = (el: Element) => {
    if (!el.checkVisibility({ opacityProperty: true, visibilityProperty: true })) return false;
    const box = el.getBoundingClientRect();
    // Text for screen readers only is kept in a 1px box on purpose.
    return box.width > 1 && box.height > 1;
  };
  // innerText, not textContent: text hidden by the page's own styles is not text a reader sees.
  // biome-ignore lint/performance/useDomNodeTextContent: what is rendered is the point here
  const showsText = (el: Element) => shown(el) && ((el as HTMLElement).innerText ?? '').trim().length > 0;
  const overlap = (a: DOMRect, b: DOMRect) => {
    const across = Math.min(a.right, b.right) - Math.max(a.left, b.left);
    const down = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
    return across > 1 && down > 1 ? `${Math.round(across)}×${Math.round(down)}px` : null;
  };
  /** The boxes of the lines of text an element shows. */
  const textLines = (el: Element) => {
    const lines: DOMRect[] = [];
    const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      if (!node.textContent?.trim() || !node.parentElement || !shown(node.parentElement)) continue;
      const range = document.createRange();
      range.selectNodeContents(node);
      lines.push(...Array.from(range.getClientRects()));
    }
    return lines;
  };
  const overlaid = (el: Element) => ['absolute', 'fixed'].includes(getComputedStyle(el).position);
  const scrolled = document
    .getAnimations()
    .filter((a) => (a.effect as KeyframeEffect | null)?.getKeyframes().some((k) => 'transform' in k))
    .map((a) => (a.effect as KeyframeEffect).target)
    .filter((t): t is Element => t instanceof Element);

  document.body.querySelectorAll('*').forEach((el) => {
    if (!showsText(el)) return;
    const style = getComputedStyle(el);
    const marquee = scrolled.some((t) => t !== el && el.contains(t));
    if (!marquee && /hidden|clip/.test(style.overflowX) && el.scrollWidth > el.clientWidth) {
      problems.push(`cut off, ${el.scrollWidth}px of text in ${el.clientWidth}px: ${name(el)}`);
    }
    if (!marquee && /hidden|clip/.test(style.overflowY) && el.scrollHeight > el.clientHeight) {
      problems.push(`cut off, ${el.scrollHeight}px of text in ${el.clientHeight}px high: ${name(el)}`);
    }
    const blocks = Array.from(el.children).filter((c) => showsText(c) && getComputedStyle(c).display !== 'inline');
    for (let i = 0; i < blocks.length; i++) {
      for (let j = i + 1; j < blocks.length; j++) {
        const [a, b] = [blocks[i]!, blocks[j]!];
        const boxes = overlap(a.getBoundingClientRect(), b.getBoundingClientRect());
        if (!boxes) continue;
        if (overlaid(a) !== overlaid(b)) {
          const [top, under] = overlaid(a) ? [a, b] : [b, a];
          for (const line of textLines(under)) {
            const hit = overlap(top.getBoundingClientRect(), line);
            if (hit) problems.push(`overlapping text by ${hit}: ${name(top)} over a line of ${name(under)}`);
          }
        } else {
          problems.push(`overlapping by ${boxes}: ${name(a)} and ${name(b)}`);
        }
      }
    }
  });
  return problems;
}

const PANELS = ['standings', 'bracket', 'tables'] as const;

/** Tournament states to lay out, in the order the ledger reaches them. */
const STATES = [
  // The first round: all eight tables in play at once, the most crowded the tables panel gets.
  { state: 'round-1', reached: (ledger: Ledger) => ledger.models.position > 400 },
  // Part-way: results in, teams in both brackets, fewer tables playing.
  { state: 'part-way', reached: (ledger: Ledger) => ledger.models.tournaments[TOURNAMENT]!.model.latest.length >= 5 },
] as const;

describe.skipIf(!hasChromium)('the venue pages laid out in chromium', () => {
  let browser: Browser;
  let ledger: Ledger;
  let server: InProcessServer;
  beforeAll(async () => {
    mkdirSync(OUTPUT, { recursive: true });
    ledger = await demoLedger(tempDir());
    server = await serveInProcess(ledger);
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
    ledger?.close();
    removeTempDirs();
  });

  for (const { state, reached } of STATES) {
    it(`fits the venue screen on a 1920×1080 TV (${state}), every panel, with no text cut off or overlapping and no scrolling`, async () => {
      await playUntil(ledger, () => reached(ledger));
      const page = await browser.newPage({ viewport: { width: 1920, height: 1080 } });
      await page.goto(`${server.url}/screen`);
      await page.evaluate(() => document.fonts.ready);
      const problems: string[] = [];
      for (const [index, panel] of PANELS.entries()) {
        await showPanel(page, index);
        const up = await page.evaluate((i) => Array.from(document.querySelectorAll('.panel')).map((p) => getComputedStyle(p).visibility)[i], index);
        expect(up, `the ${panel} panel is up`).toBe('visible');
        await page.screenshot({ path: join(OUTPUT, `screen-1920x1080-${state}-${panel}.png`) });
        problems.push(...(await page.evaluate(layoutProblems)).map((p) => `${panel} panel: ${p}`));
        const size = await page.evaluate(() => ({
          height: document.documentElement.scrollHeight,
          width: document.documentElement.scrollWidth,
          innerHeight,
          innerWidth,
        }));
        expect(size.height, `${panel} panel: page height`).toBeLessThanOrEqual(size.innerHeight);
        expect(size.width, `${panel} panel: page width`).toBeLessThanOrEqual(size.innerWidth);
      }
      expect(problems).toEqual([]);
      await page.close();
    });

    it(`fits the standings on a 390×844 phone (${state}) with no text cut off or overlapping`, async () => {
      await playUntil(ledger, () => reached(ledger));
      const page = await browser.newPage({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true });
      await page.goto(`${server.url}/tournaments/${TOURNAMENT}/leaderboard`);
      await page.evaluate(() => document.fonts.ready);
      await page.screenshot({ path: join(OUTPUT, `leaderboard-390x844-${state}.png`), fullPage: true });
      expect(await page.evaluate(layoutProblems)).toEqual([]);
      // The page may scroll down, never sideways, and neither may the standings in their own box.
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
      const sideways = await page.evaluate(() =>
        Array.from(document.querySelectorAll('#leaderboard .table-scroll')).map((box) => box.scrollWidth - box.clientWidth),
      );
      expect(sideways.length).toBeGreaterThan(0);
      for (const extra of sideways) expect(extra, 'the standings scroll sideways on a phone').toBeLessThanOrEqual(0);
      // The knockout's points say they only break ties, and the headers read apart ("Points, tiebreakStanding" did not).
      expect(await page.locator('#leaderboard thead').textContent()).toMatch(/points, tiebreak/i);
      expect(await page.locator('#leaderboard thead').textContent()).not.toMatch(/[a-z][A-Z]/);
      const rows = await page.locator('#leaderboard tbody tr').count();
      expect(rows).toBe(ledger.models.tournaments[TOURNAMENT]!.model.teams.length);
      await page.close();
    });
  }

  it(`shows both teams' columns of a table's score pad on a 390×844 phone`, async () => {
    const scored = () => Object.values(ledger.models.games).find((g) => g.tournamentId === TOURNAMENT && g.rows.length >= 2);
    await playUntil(ledger, () => scored() !== undefined);
    const game = scored()!;
    const page = await browser.newPage({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true });
    await page.goto(`${server.url}/tournaments/${TOURNAMENT}/games/${game.gameId}`);
    await page.evaluate(() => document.fonts.ready);
    await page.screenshot({ path: join(OUTPUT, 'score-pad-390x844.png'), fullPage: true });
    // Every column of both teams, head and scores, inside the phone's width with the pad scrolled to its start.
    const outside = await page.evaluate(() => {
      const pad = document.querySelector('.score-pad table.pad')!;
      const box = pad.closest('.table-scroll')!.getBoundingClientRect();
      const cells = Array.from(pad.querySelectorAll('thead th:not(.notes), tbody td:not(.notes)')).filter((cell) => cell.getBoundingClientRect().width > 0);
      return cells.filter((cell) => cell.getBoundingClientRect().right > Math.min(box.right, innerWidth)).map((cell) => (cell.textContent ?? '').trim());
    });
    expect(outside).toEqual([]);
    expect(await page.locator('.score-pad .team-head--ew').isVisible()).toBe(true);
    expect(await page.locator('.score-pad tbody tr').count()).toBe(game.rows.length);
    await page.close();
  });
});

/**
 * The bracket embed in a 600 px column, as a club's sidebar frames it: every match card of every
 * round clear of the next one's, and the rounds' titles readable, however narrow the frame.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import type { Ledger } from '../events/store/sqlite/ledger.ts';
import {
  TOURNAMENT,
  demoLedger,
  hasChromium,
  type InProcessServer,
  launchChromium,
  noteMissingChromium,
  play,
  removeTempDirs,
  serveInProcess,
  tempDir,
} from './fixtures/live-server.ts';

noteMissingChromium('browser-embed-bracket');

describe.skipIf(!hasChromium)('the bracket embed in a 600 px column', () => {
  let browser: Browser;
  let ledger: Ledger;
  let server: InProcessServer;
  beforeAll(async () => {
    ledger = await demoLedger(tempDir());
    await play(ledger, 30);
    server = await serveInProcess(ledger);
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
    ledger?.close();
    removeTempDirs();
  });

  it('shows no match card over another, nor over a round’s title', async () => {
    for (const width of [600, 360]) {
      const context = await browser.newContext({ viewport: { width, height: 900 }, deviceScaleFactor: 1 });
      const page = await context.newPage();
      await page.goto(`${server.url}/embed/tournaments/${TOURNAMENT}/bracket`);
      await page.waitForSelector('.cell > .match');
      const boxes = await page.$$eval('.cell > .match, .round-title', (nodes) =>
        nodes.map((node) => {
          const r = node.getBoundingClientRect();
          return {
            text: (node.textContent ?? '').trim().slice(0, 40),
            left: r.left + window.scrollX,
            top: r.top + window.scrollY,
            right: r.right + window.scrollX,
            bottom: r.bottom + window.scrollY,
          };
        }),
      );
      expect(boxes.length).toBeGreaterThan(4);
      const overlaps: string[] = [];
      for (let i = 0; i < boxes.length; i++) {
        for (let j = i + 1; j < boxes.length; j++) {
          const [a, b] = [boxes[i]!, boxes[j]!];
          const x = Math.min(a.right, b.right) - Math.max(a.left, b.left);
          const y = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
          if (x > 1 && y > 1) overlaps.push(`${width}px: "${a.text}" over "${b.text}"`);
        }
      }
      expect(overlaps).toEqual([]);
      await context.close();
    }
  });
});

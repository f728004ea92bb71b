/**
 * The scorekeeper's phone at the table, in Chromium at 390×844: a refusal shows whole, in the
 * table's words, with no internal id; the dealer it names is the dealer the table page names;
 * every card is a thumb-sized target; and the panel follows entries made elsewhere at its table
 * without a tap.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext } from 'playwright-core';
import { playCard, recordTricks } from '../server/commands/game-commands.ts';
import { hasChromium, launchChromium, noteMissingChromium, PHONE, removeTempDirs } from './fixtures/live-server.ts';
import { type EventDay, eventDay, joinTable, playableCard } from './fixtures/event-day.ts';

noteMissingChromium('browser-phone-table');

const SEAT_NAMES: Record<string, string> = { N: 'North', E: 'East', S: 'South', W: 'West' };

describe.skipIf(!hasChromium)('the scorekeeper’s phone at the table', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    removeTempDirs();
  });

  async function withPhone(run: (day: EventDay, context: BrowserContext) => Promise<void>): Promise<void> {
    const day = await eventDay();
    const context = await browser.newContext(PHONE);
    try {
      await run(day, context);
    } finally {
      await context.close();
      await day.close();
    }
  }

  it('shows a refusal whole, inside the screen, in the table’s words and without the game’s id', async () => {
    await withPhone(async (day, context) => {
      const phone = await joinTable(context, day);
      await context.setOffline(true);
      const first = await playableCard(phone);
      const seat = (await phone.getAttribute('.card-grid', 'data-seat'))!;
      await phone.tap(`.card-grid button[data-card="${first}"]`);
      const second = await playableCard(phone);
      await phone.tap(`.card-grid button[data-card="${second}"]`);
      // Another phone at the table entered the first card meanwhile: this phone's is refused.
      day.ledger.execute(playCard(day.ledger.models, { gameId: day.gameId, seat, card: first }));
      await context.setOffline(false);
      await phone.waitForSelector('[data-outbox-state].is-conflict');

      const box = await phone.evaluate(() => {
        const line = document.querySelector<HTMLElement>('[data-outbox-state]')!;
        const holder = line.closest<HTMLElement>('.entry-last')!;
        const rect = line.getBoundingClientRect();
        return {
          text: line.textContent ?? '',
          panel: document.getElementById('entry-panel')!.textContent ?? '',
          clipped: [line, holder].some((el) => el.scrollHeight > el.clientHeight + 1),
          top: rect.top,
          bottom: rect.bottom,
          viewport: window.innerHeight,
          buttons: Array.from(line.querySelectorAll('button'), (b) => {
            const r = b.getBoundingClientRect();
            return { top: r.top, bottom: r.bottom, height: r.height };
          }),
        };
      });
      expect(box.clipped).toBe(false);
      expect(box.top).toBeGreaterThanOrEqual(0);
      expect(box.bottom).toBeLessThanOrEqual(box.viewport);
      expect(box.text).toContain('the table has moved on');
      expect(box.text).toContain('Compare the cards on the table with this page');
      expect(box.text).not.toContain(day.gameId);
      expect(box.text).not.toMatch(/\bgame [\w-]+-g\d/);
      // Said once: the line above the panel, not again in the panel's own notice.
      expect(box.panel.split('the table has moved on').length - 1).toBe(1);
      expect(box.buttons).toHaveLength(2);
      for (const b of box.buttons) {
        expect(b.height).toBeGreaterThanOrEqual(40);
        expect(b.bottom).toBeLessThanOrEqual(box.viewport);
      }
    });
  });

  it('names the same dealer for hand 2 on the entry page and the table page, and offers the physical deal first', async () => {
    await withPhone(async (day, context) => {
      const m = day.ledger.models;
      const firstDealer = m.games[day.gameId]!.dealer;
      const page = await joinTable(context, day);
      day.ledger.execute(recordTricks(m, { gameId: day.gameId, tricks: { N: 3, E: 3, S: 3, W: 4 } }));
      await page.goto(`${day.url}/entry/tables/cup/1`);
      const turn = (await page.textContent('#entry-panel [data-turn]'))!.trim();
      const card = (await page.textContent('.table-waiting'))!.trim();
      const table = await context.newPage();
      await table.goto(`${day.url}/tournaments/cup/games/${encodeURIComponent(day.gameId)}`);
      const publicLine = (await table.textContent('.table-waiting'))!.trim();
      const dealer = turn.split(' ')[0]!;
      expect(turn).toBe(`${dealer} deals hand 2`);
      expect(dealer).not.toBe(SEAT_NAMES[firstDealer]);
      expect(card).toContain(`${dealer} deals hand 2`);
      expect(publicLine).toContain(`${dealer} deals hand 2`);
      // The physical cards first and prominent; the system's shuffle after, quiet.
      const actions = await page.$$eval('#entry-panel [data-action^=deal]', (bs) => bs.map((b) => `${b.getAttribute('data-action')} ${b.className}`));
      expect(actions[0]).toMatch(/^deal-table big-button$/);
      expect(actions[1]).toMatch(/^deal-system .*big-button--quiet/);
    });
  });

  it('makes every card button at least 44×44 px at 390×844', async () => {
    await withPhone(async (day, context) => {
      const phone = await joinTable(context, day);
      const keys = await phone.$$('.card-grid button.card-key');
      expect(keys.length).toBe(52);
      for (const key of keys) {
        const box = (await key.boundingBox())!;
        expect(box.width).toBeGreaterThanOrEqual(44);
        expect(box.height).toBeGreaterThanOrEqual(44);
        expect(box.x).toBeGreaterThanOrEqual(0);
        expect(box.x + box.width).toBeLessThanOrEqual(390);
      }
    });
  });

  it('redraws the panel within a second of an entry made elsewhere at its table, without a tap', async () => {
    await withPhone(async (day, context) => {
      const phone = await joinTable(context, day);
      await phone.waitForFunction(() => document.querySelector('.live')?.getAttribute('hx-sse:connect') !== null);
      // Let the page's stream attach before the entry.
      await phone.waitForTimeout(500);
      const seat = (await phone.getAttribute('.card-grid', 'data-seat'))!;
      const card = await playableCard(phone);
      expect(await phone.getAttribute('.card-grid', 'data-played')).toBe('0');
      const started = Date.now();
      day.ledger.execute(playCard(day.ledger.models, { gameId: day.gameId, seat, card }));
      await phone.waitForFunction(() => document.querySelector('.card-grid')?.getAttribute('data-played') === '1', undefined, { timeout: 1000 });
      expect(Date.now() - started).toBeLessThan(1000);
      expect(await phone.getAttribute(`.card-grid button[data-card="${card}"]`, 'disabled')).not.toBeNull();
      expect(await phone.getAttribute('.card-grid', 'data-seat')).not.toBe(seat);
    });
  });
});

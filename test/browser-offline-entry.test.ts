/**
 * Entry through a Wi-Fi drop, in Chromium: the phone's browser is put offline, the scorekeeper
 * taps ten cards, each kept on the phone with its command id while the page says how many wait
 * and follows the trick (the turn passes, the fourth card's winner leads); the network comes
 * back, and exactly those ten cards are in the ledger, in the order tapped, for the seats they
 * were tapped for, each once. A refusal met on the way back is shown with what to do.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { playCard } from '../server/commands/game-commands.ts';
import { hasChromium, launchChromium, noteMissingChromium, PHONE, removeTempDirs } from './fixtures/live-server.ts';
import { type EventDay, eventDay, joinTable, playableCard, recordedCards, settled } from './fixtures/event-day.ts';

noteMissingChromium('browser-offline-entry');

describe.skipIf(!hasChromium)('a scorekeeper through a Wi-Fi drop', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    removeTempDirs();
  });

  it('keeps ten taps on the phone while offline and records exactly those ten, in order, once each, when the network returns', async () => {
    const day: EventDay = await eventDay();
    const context = await browser.newContext(PHONE);
    try {
      const phone = await joinTable(context, day);
      const errors: string[] = [];
      phone.on('pageerror', (e) => errors.push(e.message));

      await context.setOffline(true);
      const tapped: { seat: string; card: string }[] = [];
      for (let i = 0; i < 10; i++) {
        const seat = (await phone.getAttribute('.card-grid', 'data-seat'))!;
        const card = await playableCard(phone);
        await phone.tap(`.card-grid button[data-card="${card}"]`);
        tapped.push({ seat, card });
        // The tap is greyed in its place, and the page says how many entries wait.
        expect(await phone.getAttribute(`.card-grid button[data-card="${card}"]`, 'disabled')).not.toBeNull();
        await phone.waitForFunction(
          (n) => document.querySelector('[data-outbox-state]')?.textContent?.startsWith(`Offline: ${n} ${n === 1 ? 'entry' : 'entries'} waiting`),
          i + 1,
        );
      }
      // Nothing has reached the ledger; the phone holds all ten, each with its own command id.
      expect(recordedCards(day.ledger, day.gameId)).toEqual([]);
      const held = await phone.evaluate(() => {
        const key = Object.keys(localStorage).find((k) => k.startsWith('spades-outbox:'))!;
        return JSON.parse(localStorage.getItem(key)!) as { id: string; body: string }[];
      });
      expect(held).toHaveLength(10);
      expect(new Set(held.map((h) => h.id)).size).toBe(10);
      // The phone followed the tricks: after the fourth and eighth cards the winner leads.
      expect(await phone.getAttribute('.card-grid', 'data-played')).toBe('10');
      expect(await phone.getAttribute('.card-grid', 'data-trick')).toBe('3');

      await context.setOffline(false);
      await settled(phone);

      const recorded = recordedCards(day.ledger, day.gameId);
      expect(recorded.map(({ seat, card }) => ({ seat, card }))).toEqual(tapped);
      expect(new Set(recorded.map((r) => r.commandId)).size).toBe(10);
      // The page is the ledger's again: card 11 of the hand, for the seat the engine says.
      const game = day.ledger.models.games[day.gameId]!;
      expect(game.current!.plays.flat()).toEqual(tapped.map((t) => t.card));
      expect(await phone.getAttribute('.card-grid', 'data-played')).toBe('10');
      expect(await phone.isHidden('[data-outbox-state]')).toBe(true);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
      await day.close();
    }
  });

  it('stops at a refusal found on the way back, says what was not recorded and what to do, and records nothing after it', async () => {
    const day: EventDay = await eventDay();
    const context = await browser.newContext(PHONE);
    try {
      const phone = await joinTable(context, day);
      await context.setOffline(true);
      const first = await playableCard(phone);
      const firstSeat = (await phone.getAttribute('.card-grid', 'data-seat'))!;
      await phone.tap(`.card-grid button[data-card="${first}"]`);
      const second = await playableCard(phone);
      await phone.tap(`.card-grid button[data-card="${second}"]`);
      // Meanwhile another phone at the table entered the same first card.
      day.ledger.execute(playCard(day.ledger.models, { gameId: day.gameId, seat: firstSeat, card: first }));

      await context.setOffline(false);
      await phone.waitForSelector('[data-outbox-state].is-conflict');
      const said = (await phone.textContent('[data-outbox-state]'))!;
      expect(said).toContain('Not recorded:');
      expect(said).toContain('the table has moved on');
      expect(said).toContain('1 entry tapped after it is still on this phone');
      expect(await phone.isVisible('[data-outbox-action=drop]')).toBe(true);
      // Only the other phone's card is in the ledger.
      expect(recordedCards(day.ledger, day.gameId).map((r) => r.card)).toEqual([first]);

      // Dropping the rest shows the ledger's own panel, ready for the next card.
      await phone.click('[data-outbox-action=drop]');
      await phone.waitForSelector('[data-outbox-state][hidden]', { state: 'attached' });
      expect(await phone.getAttribute('.card-grid', 'data-played')).toBe('1');
      expect(recordedCards(day.ledger, day.gameId)).toHaveLength(1);
    } finally {
      await context.close();
      await day.close();
    }
  });
});

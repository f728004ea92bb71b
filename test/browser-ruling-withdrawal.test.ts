/**
 * A judge withdraws a ruling from the console on a phone (390×844): the renege is upheld after
 * one confirmation, listed with its effect on the score, then withdrawn after one confirmation
 * more; the console shows who withdrew it and why, the penalty no longer counts, and nothing is
 * recorded until each confirmation is given.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { claimRenege, recordTricks } from '../server/commands/game-commands.ts';
import { hasChromium, launchChromium, noteMissingChromium, PHONE, removeTempDirs } from './fixtures/live-server.ts';
import { eventDay } from './fixtures/event-day.ts';

noteMissingChromium('browser-ruling-withdrawal');

describe.skipIf(!hasChromium)('withdrawing a ruling from the judge console', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    removeTempDirs();
  });

  it('upholds a renege, then withdraws the ruling, each after one confirmation, and the score goes back', async () => {
    const day = await eventDay();
    const context = await browser.newContext(PHONE);
    try {
      const m = day.ledger.models;
      const gameId = day.gameId;
      day.ledger.execute(recordTricks(m, { gameId, tricks: { N: 3, E: 3, S: 4, W: 3 } }));
      const plain = { ...m.games[gameId]!.score };
      day.ledger.execute(claimRenege(m, { gameId, claimId: 'c1', hand: 1, seat: 'E', trick: null }));
      const head = () => day.ledger.store.head().position;

      const judge = await context.newPage();
      const errors: string[] = [];
      judge.on('pageerror', (e) => errors.push(e.message));
      await judge.goto(`${day.url}/login?next=%2Fjudge`);
      await judge.fill('input[name=name]', 'Jo Judge');
      await judge.fill('input[name=password]', 'judge-password');
      await judge.click('.login-form button[type=submit]');
      await judge.waitForURL(/\/judge$/);

      // Uphold: asked first, recorded only when confirmed.
      let before = head();
      await judge.click('[data-claim="c1"] [data-action=uphold]');
      await judge.waitForSelector('[data-confirm-ruling]');
      expect(head()).toBe(before);
      await judge.click('[data-action=confirm-ruling]');
      await judge.waitForSelector('.rulings li[data-ruling="c1"]');
      const upheld = { ...m.games[gameId]!.score };
      expect(upheld).not.toEqual(plain);
      const line = judge.locator('.rulings li[data-ruling="c1"]');
      const effect = (await line.locator('[data-effect]').textContent())!.replace(/\s+/g, ' ').trim();
      // Under pitt-boss an upheld renege moves tricks: the effect names both teams and the hand.
      expect(effect).toMatch(/^Effect: [+-]\d+ to .+ \(N\/S\), [+-]\d+ to .+ \(E\/W\), hand 1\.$/);

      // Withdraw: a reason, a confirmation that says what it undoes, then the record.
      before = head();
      await line.locator('input[name=reason]').fill('the card was found under the table');
      await line.locator('[data-action=withdraw]').click();
      const confirm = judge.locator('[data-confirm-withdrawal]');
      await confirm.waitFor();
      expect(await confirm.textContent()).toContain(`Its effect now: ${effect.replace(/^Effect: /, '').replace(/\.$/, '')}.`);
      expect(head()).toBe(before);
      const button = confirm.locator('[data-action=confirm-withdraw]');
      const box = (await button.boundingBox())!;
      expect(box.x + box.width).toBeLessThanOrEqual(390);
      await button.click();
      await judge.waitForSelector('.rulings li.is-withdrawn[data-ruling="c1"]');
      const withdrawn = (await judge.textContent('.rulings li[data-ruling="c1"]'))!.replace(/\s+/g, ' ');
      expect(withdrawn).toContain('Effect: none: withdrawn.');
      expect(withdrawn).toMatch(/Withdrawn at \d\d:\d\d by Jo Judge: the card was found under the table/);
      expect(await judge.locator('.rulings li[data-ruling="c1"] [data-action=withdraw]').count()).toBe(0);
      expect(head()).toBe(before + 1);
      expect(day.ledger.store.readAll().at(-1)!.type).toBe('RulingWithdrawn');
      expect(m.games[gameId]!.score).toEqual(plain);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
      await day.close();
    }
  });
});

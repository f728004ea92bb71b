/**
 * Signing up and checking in from a phone (390×844): the sign-up page says until when it is
 * open, fits the screen with fields and buttons a thumb can hit, answers with the team's code,
 * and the team's own page takes that code for "We're here".
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import type { Ledger } from '../events/store/sqlite/ledger.ts';
import { setSignUp } from '../server/commands/registration-commands.ts';
import { createTournament } from '../server/commands/tournament-commands.ts';
import {
  PHONE,
  hasChromium,
  type InProcessServer,
  launchChromium,
  noteMissingChromium,
  removeTempDirs,
  serveInProcess,
  tempDir,
} from './fixtures/live-server.ts';
import { open } from './routes-fixture.ts';

noteMissingChromium('browser-sign-up');

describe.skipIf(!hasChromium)('signing up on a phone', () => {
  let browser: Browser;
  let ledger: Ledger;
  let server: InProcessServer;
  const closes = new Date(Date.now() + 24 * 3600_000).toISOString();
  beforeAll(async () => {
    ledger = open(`${tempDir('spades-sign-up-')}/ledger.db`);
    ledger.execute(createTournament(ledger.models, { tournamentId: 'open', name: 'Saturday Open', format: 'pitt-boss' }));
    ledger.execute(setSignUp(ledger.models, { tournamentId: 'open', open: true, cap: 8, closes, at: new Date().toISOString() }));
    server = await serveInProcess(ledger);
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
    ledger?.close();
    removeTempDirs();
  });

  it('signs a team up, shows its code, and checks it in from its own page', async () => {
    const context = await browser.newContext({ ...PHONE, deviceScaleFactor: 1 });
    const page = await context.newPage();
    expect((await page.goto(`${server.url}/tournaments/open/sign-up`))?.status()).toBe(200);
    expect(await page.getAttribute('[data-sign-up-open] time', 'datetime')).toBe(closes);
    const fits = () => page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth);
    expect(await fits()).toBe(true);
    // Every field and the button: at least 44 px tall, inside the screen's width.
    const boxes = await page.$$eval('.sign-up-form input, .sign-up-form button', (els) =>
      els.map((el) => el.getBoundingClientRect()).map((r) => ({ h: r.height, right: r.right })),
    );
    expect(boxes).toHaveLength(4);
    for (const box of boxes) {
      expect(box.h).toBeGreaterThanOrEqual(44);
      expect(box.right).toBeLessThanOrEqual(390);
    }
    await page.getByLabel('Team name').fill('Night Owls');
    await page.getByLabel('First player').fill('Ada');
    await page.getByLabel('Second player').fill('Bea');
    await page.getByRole('button', { name: 'Sign up' }).click();
    await page.waitForSelector('[data-sign-up-status="registered"]');
    const code = (await page.getAttribute('.check-in-code', 'data-code'))!;
    expect(code).toMatch(/^[A-Z2-9]{10}$/);
    const codeBox = (await page.locator('.check-in-code').boundingBox())!;
    expect(codeBox.x + codeBox.width).toBeLessThanOrEqual(390);
    expect(await fits()).toBe(true);

    await page.getByRole('link', { name: 'Open your page' }).click();
    await page.waitForURL(/\/tournaments\/open\/teams\/night-owls$/);
    await page.getByLabel('Check-in code').fill(code.toLowerCase());
    const button = page.getByRole('button', { name: 'We’re here' });
    expect((await button.boundingBox())!.height).toBeGreaterThanOrEqual(44);
    await button.click();
    await page.waitForSelector('[data-checked-in]');
    expect(await page.textContent('[data-checked-in]')).toContain('Night Owls is checked in (by the team, with its code).');
    expect(ledger.models.tournaments.open!.checkedIn).toEqual(['night-owls']);
    expect(await fits()).toBe(true);
    await context.close();
  });
});

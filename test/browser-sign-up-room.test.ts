/**
 * A phone at the venue (390×844) meets no dead end: the sign-up's answer survives a reload with
 * its code and signs nobody up twice, and a wrong check-in code answers the team's own page,
 * laid out for the phone, with the reason above the form and the way back to the event.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
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
import { axeViolations } from './fixtures/browser-page.ts';

noteMissingChromium('browser-sign-up-room');

const fits = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth);

describe.skipIf(!hasChromium)('no dead ends on a phone', () => {
  let browser: Browser;
  let ledger: Ledger;
  let server: InProcessServer;
  beforeAll(async () => {
    ledger = open(`${tempDir('spades-sign-up-room-')}/ledger.db`);
    ledger.execute(createTournament(ledger.models, { tournamentId: 'open', name: 'Saturday Open', format: 'pitt-boss' }));
    ledger.execute(setSignUp(ledger.models, { tournamentId: 'open', open: true, cap: 8, closes: null, at: new Date().toISOString() }));
    server = await serveInProcess(ledger);
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
    ledger?.close();
    removeTempDirs();
  });

  it('keeps the sign-up’s answer and code through a reload, and a wrong code leads back to the form and the event', async () => {
    const signing = await browser.newContext({ ...PHONE, deviceScaleFactor: 1, bypassCSP: true, reducedMotion: 'reduce' });
    const phone = await signing.newPage();
    await phone.goto(`${server.url}/tournaments/open/sign-up`);
    await phone.getByLabel('Team name').fill('Night Owls');
    await phone.getByLabel('First player').fill('Ada');
    await phone.getByLabel('Second player').fill('Bea');
    await phone.getByRole('button', { name: 'Sign up' }).click();
    await phone.waitForSelector('[data-sign-up-status="registered"]');
    const code = (await phone.getAttribute('[data-sign-up-status] ~ .check-in-code', 'data-code'))!;
    expect(code).toMatch(/^[A-Z2-9]{10}$/);
    const reloaded = await phone.reload();
    expect(reloaded?.status()).toBe(200);
    expect(reloaded?.request().method()).toBe('GET');
    expect(await phone.getAttribute('[data-sign-up-status] ~ .check-in-code', 'data-code')).toBe(code);
    expect(ledger.models.tournaments.open!.model.teams.map((t) => t.name)).toEqual(['Night Owls']);
    expect(await fits(phone)).toBe(true);
    expect(await axeViolations(phone)).toEqual([]);

    // Another phone at the table types a wrong code.
    const partner = await browser.newContext({ ...PHONE, deviceScaleFactor: 1, bypassCSP: true, reducedMotion: 'reduce' });
    const other = await partner.newPage();
    await other.goto(`${server.url}/tournaments/open/teams/night-owls`);
    await other.getByLabel('Check-in code').fill('WRONGCODE2');
    await other.getByRole('button', { name: 'We’re here' }).click();
    await other.waitForSelector('[data-refusal]');
    expect(await other.textContent('[data-refusal]')).toContain('that is not the check-in code of Night Owls');
    // Laid out for the phone (the viewport is the phone's, not 980 px), the form to try again below the reason.
    expect(await other.evaluate(() => window.innerWidth)).toBe(390);
    expect(await fits(other)).toBe(true);
    const reason = (await other.locator('[data-refusal]').boundingBox())!;
    const field = (await other.getByLabel('Check-in code').boundingBox())!;
    expect(field.y).toBeGreaterThan(reason.y);
    expect(field.x + field.width).toBeLessThanOrEqual(390);
    expect(await axeViolations(other)).toEqual([]);
    // A tab opened before the check-in, still showing the form.
    const stale = await partner.newPage();
    await stale.goto(`${server.url}/tournaments/open/teams/night-owls`);
    await other.getByLabel('Check-in code').fill(code);
    await other.getByRole('button', { name: 'We’re here' }).click();
    await other.waitForSelector('[data-checked-in]');
    // A second "We're here" lands on the team's page saying it is checked in, not a bare refusal.
    await stale.getByLabel('Check-in code').fill(code);
    await stale.getByRole('button', { name: 'We’re here' }).click();
    await stale.waitForSelector('[data-checked-in]');
    expect(await fits(stale)).toBe(true);
    expect(ledger.models.tournaments.open!.checkedIn).toEqual(['night-owls']);
    await other.getByRole('link', { name: 'Saturday Open' }).first().click();
    await other.waitForURL(/\/tournaments\/open$/);
    await signing.close();
    await partner.close();
  });
});

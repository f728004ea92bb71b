/**
 * Drawing partners at the desk in a real browser, on a laptop and a phone: the players checked in,
 * the draw previewed (nothing recorded) and then recorded as shown on one confirmation, the teams
 * on the desk, and a drawn player's page naming their partner; every step checked with axe-core
 * against WCAG 2.2 AA, and nothing wider than the screen.
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Ledger } from '../events/store/sqlite/ledger.ts';
import { checkInTeam, createTournament, registerPlayer } from '../server/commands/tournament-commands.ts';
import { hasChromium, launchChromium, noteMissingChromium, removeTempDirs, serveInProcess, tempDir } from './fixtures/live-server.ts';
import { open } from './routes-fixture.ts';
import { axeViolations } from './fixtures/browser-page.ts';

noteMissingChromium('browser-partner-draw');

const AT = '2026-03-01T10:00:00.000Z';
const NAMES = ['Ann Avery', 'Bob Baker', 'Cy Carter', 'Di Dunn', 'Ed Evans', 'Flo Fisher', 'Gus Gray'];

describe.skipIf(!hasChromium)('drawing partners at the desk in a browser', () => {
  let ledger: Ledger;
  let browser: Browser;
  let url: string;
  let close: () => Promise<void>;

  beforeAll(async () => {
    ledger = open(`${tempDir('spades-browser-partners-')}/ledger.db`);
    const m = ledger.models;
    for (const id of ['laptop', 'phone']) {
      ledger.execute(
        createTournament(m, { tournamentId: id, name: `${id} blind draw`, format: 'custom', options: { elimination: 'single', partners: 'drawn' } }),
      );
      NAMES.forEach((name, i) => ledger.execute(registerPlayer(m, { tournamentId: id, playerId: `${id}-${i + 1}`, name })));
      for (let i = 1; i <= 5; i++) ledger.execute(checkInTeam(m, { tournamentId: id, teamId: `${id}-${i}`, at: AT }));
    }
    const served = await serveInProcess(ledger);
    await served.auth.users.add('Dee Director', 'director', 'director-password');
    url = served.url;
    close = served.close;
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    await close?.();
    ledger?.close();
    removeTempDirs();
  });

  for (const size of [
    { name: 'laptop', width: 1366, height: 768 },
    { name: 'phone', width: 390, height: 844 },
  ] as const) {
    it(`${size.name}: previews the draw, records it on one confirmation, and shows each player their partner`, async () => {
      const id = size.name;
      const context = await browser.newContext({ viewport: { width: size.width, height: size.height }, bypassCSP: true, reducedMotion: 'reduce' });
      const page = await context.newPage();
      await page.goto(`${url}/login`);
      await page.fill('input[name=name]', 'Dee Director');
      await page.fill('input[name=password]', 'director-password');
      await page.click('button[type=submit]');
      await page.waitForURL((u) => !u.pathname.startsWith('/login'));
      await page.goto(`${url}/director/tournaments/${id}`);
      const wide = () => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      expect(await page.locator('[data-partners=waiting]').textContent()).toContain('(5 of 7)');
      expect(await axeViolations(page)).toEqual([]);

      const before = ledger.models.position;
      await page.check('input[name=odd][value=twice]');
      await page.click('[data-action=preview-partner-draw]');
      await page.locator('[data-confirm-partners]').waitFor();
      expect(ledger.models.position).toBe(before);
      const shown = await page.locator('[data-confirm-partners] .drawn-teams li').allTextContents();
      expect(shown).toHaveLength(3);
      expect(await page.locator('[data-confirm-partners] [data-twice]').textContent()).toMatch(/plays on two teams/);
      expect(await axeViolations(page)).toEqual([]);
      expect(await wide()).toBeLessThanOrEqual(1);

      await page.click('[data-action=confirm-partner-draw]');
      await page.locator('[data-partners=drawn]').waitFor();
      const drawn = ledger.models.tournaments[id]!.partners!.draw!;
      expect(drawn.teams.map((t) => t.name)).toEqual(shown);
      expect(await page.locator('[data-partners=drawn] .drawn-teams li').allTextContents()).toEqual(shown);
      expect(await axeViolations(page)).toEqual([]);
      expect(await wide()).toBeLessThanOrEqual(1);

      // A drawn player's own page names their partner, readable on the phone in the room.
      const team = drawn.teams[0]!;
      const partner = NAMES[Number(team.players[1].split('-')[1]) - 1]!;
      await page.goto(`${url}/tournaments/${id}/players/${team.players[0]}`);
      expect(await page.locator('.team-next-headline').textContent()).toContain(`Your partner`);
      expect(await page.locator('.team-next-headline').textContent()).toContain(partner);
      expect(await axeViolations(page)).toEqual([]);
      expect(await wide()).toBeLessThanOrEqual(1);
      await context.close();
    });
  }
});

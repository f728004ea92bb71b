/**
 * The director's desk in a real browser, on a laptop (1366×768) and a phone (390×844): a
 * withdrawal asks once, seeding by numbers and moved rows, the draw previewed and recorded only
 * when confirmed, and the printed table codes, each code on one line at a narrow width and on
 * paper.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Ledger } from '../events/store/sqlite/ledger.ts';
import { checkInTeam, createTournament, registerTeam, startTournament } from '../server/commands/tournament-commands.ts';
import { hasChromium, launchChromium, noteMissingChromium, removeTempDirs, ROOT, serveInProcess, tempDir } from './fixtures/live-server.ts';
import { open } from './routes-fixture.ts';

noteMissingChromium('browser-director-desk');

const OUTPUT = join(ROOT, 'test-output');
const AT = '2026-03-01T10:00:00.000Z';
const NAMES = ['Aces', 'Kings', 'Queens', 'Jacks', 'Tens'];

/** Runs in the page: how many lines each printed code takes (the distinct tops of its text's boxes). */
function codeLines(): number[] {
  return Array.from(document.querySelectorAll('.table-card-code')).map((el) => {
    const range = document.createRange();
    range.selectNodeContents(el);
    return new Set(
      Array.from(range.getClientRects())
        .filter((r) => r.width > 0)
        .map((r) => Math.round(r.top)),
    ).size;
  });
}

describe.skipIf(!hasChromium)('the director’s desk in a browser', () => {
  let ledger: Ledger;
  let browser: Browser;
  let url: string;
  let close: () => Promise<void>;

  beforeAll(async () => {
    ledger = open(`${tempDir('spades-browser-desk-')}/ledger.db`);
    const m = ledger.models;
    for (const id of ['laptop', 'phone']) {
      ledger.execute(createTournament(m, { tournamentId: id, name: `${id} cup`, format: 'unc-intramural' }));
      NAMES.forEach((name, i) =>
        ledger.execute(registerTeam(m, { tournamentId: id, teamId: `${id}-${i + 1}`, name, players: [`${name} One`, `${name} Two`] })),
      );
      for (let i = 1; i <= 4; i++) ledger.execute(checkInTeam(m, { tournamentId: id, teamId: `${id}-${i}`, at: AT }));
    }
    ledger.execute(createTournament(m, { tournamentId: 'codes', name: 'Codes cup', format: 'unc-intramural' }));
    for (let i = 1; i <= 16; i++) ledger.execute(registerTeam(m, { tournamentId: 'codes', teamId: `c${i}`, name: `Team ${i}`, players: [`A${i}`, `B${i}`] }));
    ledger.execute(startTournament(m, { tournamentId: 'codes', seed: 'c' }));
    const served = await serveInProcess(ledger);
    await served.auth.users.add('Dee Director', 'director', 'director-password');
    url = served.url;
    close = served.close;
    browser = await launchChromium();
    mkdirSync(OUTPUT, { recursive: true });
  });

  afterAll(async () => {
    await browser?.close();
    await close?.();
    ledger?.close();
    removeTempDirs();
  });

  async function signedIn(width: number, height: number): Promise<Page> {
    const page = await browser.newPage({ viewport: { width, height } });
    await page.goto(`${url}/login`);
    await page.fill('input[name=name]', 'Dee Director');
    await page.fill('input[name=password]', 'director-password');
    await page.click('button[type=submit]');
    await page.waitForURL((u) => !u.pathname.startsWith('/login'));
    return page;
  }

  for (const size of [
    { name: 'laptop', width: 1366, height: 768 },
    { name: 'phone', width: 390, height: 844 },
  ] as const) {
    it(`${size.name}: withdraw asks once; seeds by number and moved rows; the draw is previewed, then recorded as shown`, async () => {
      const id = size.name;
      const page = await signedIn(size.width, size.height);
      await page.goto(`${url}/director/tournaments/${id}`);
      const position = () => ledger.models.position;

      // On a phone each entrant is a card with its actions beside its name, inside the screen.
      if (size.width < 600) {
        const name = (await page.locator('tr', { hasText: 'Tens' }).locator('.entrant-name').boundingBox())!;
        const withdraw = (await page.locator('tr', { hasText: 'Tens' }).locator('button', { hasText: 'Withdraw' }).boundingBox())!;
        expect(withdraw.x + withdraw.width).toBeLessThanOrEqual(size.width);
        expect(Math.abs(withdraw.y - name.y)).toBeLessThan(60);
      }
      // Tens never came: withdrawing asks first, and only the confirmation records.
      const before = position();
      await page.locator('tr', { hasText: 'Tens' }).locator('button', { hasText: 'Withdraw' }).click();
      await page.locator('[data-confirm-withdraw]').waitFor();
      expect(await page.locator('[data-confirm-withdraw] h2').textContent()).toBe('Withdraw Tens?');
      expect(position()).toBe(before);
      await page.click('[data-action=confirm-withdraw]');
      await page.locator('[data-confirm-withdraw]').waitFor({ state: 'detached' });
      expect(ledger.models.tournaments[id]!.withdrawn).toEqual([`${id}-5`]);

      // Seeds typed beside the names: Jacks 1, Queens 2, Kings 3, Aces 4.
      for (const [name, seed] of [
        ['Jacks', '1'],
        ['Queens', '2'],
        ['Kings', '3'],
        ['Aces', '4'],
      ] as const) {
        await page.locator('.seed-list li', { hasText: name }).locator('input').fill(seed);
      }
      const asked = position();
      await page.click('[data-action=preview-draw]');
      await page.locator('[data-confirm-start]').waitFor();
      expect(await page.locator('.seed-order .seed-name').allTextContents()).toEqual(['Jacks', 'Queens', 'Kings', 'Aces']);
      expect(position()).toBe(asked);
      expect(ledger.models.tournaments[id]!.model.status).toBe('registration');

      // Aces moved up a row: a new preview, still nothing recorded.
      await page.locator('.seed-order li', { hasText: 'Aces' }).locator('[data-action=seed-up]').click();
      await page.waitForFunction(
        () =>
          Array.from(document.querySelectorAll('.seed-order .seed-name'))
            .map((e) => e.textContent)
            .join(',') === 'Jacks,Queens,Aces,Kings',
      );
      expect(position()).toBe(asked);
      const shown = (await page.locator('.preview-matches li').allTextContents()).map((t) => t.trim());
      expect(shown.join(' / ')).toContain('Jacks vs Kings');
      const wide = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      expect(wide).toBeLessThanOrEqual(1);
      await page.screenshot({ path: join(OUTPUT, `director-desk-preview-${size.name}.png`), fullPage: true });

      await page.click('[data-action=confirm-start]');
      await page.getByText('Seeded in the order given and drew the bracket.').waitFor();
      const started = ledger.models.tournaments[id]!.model;
      expect(started.status).toBe('running');
      const name = (teamId: string | null) => started.teams.find((t) => t.teamId === teamId)?.name;
      expect(started.matches.filter((m) => m.round === 1).map((m) => `${m.label}: ${name(m.teams[0])} vs ${name(m.teams[1])}`)).toEqual(shown);
      expect(
        [...started.teams]
          .filter((t) => t.seed !== null)
          .sort((a, b) => a.seed! - b.seed!)
          .map((t) => t.name),
      ).toEqual(['Jacks', 'Queens', 'Aces', 'Kings']);
      // Started, nothing of the desk runs past the screen's edge, not even inside the entrants' box.
      const past = await page.evaluate(() =>
        Array.from(document.querySelectorAll('main *'))
          .filter((e) => e.getBoundingClientRect().right > window.innerWidth + 1)
          .map((e) => `${e.tagName}.${e.className}`),
      );
      expect(past).toEqual([]);
      await page.close();
    });
  }

  it('prints each table code on one line, at a narrow width and on paper', async () => {
    const page = await signedIn(300, 700);
    await page.goto(`${url}/director/tournaments/codes/codes`);
    const screen = await page.evaluate(codeLines);
    expect(screen.length).toBeGreaterThanOrEqual(8);
    expect(
      screen.every((n) => n === 1),
      `lines per code: ${screen.join(' ')}`,
    ).toBe(true);
    await page.emulateMedia({ media: 'print' });
    await page.setViewportSize({ width: 240, height: 700 });
    const paper = await page.evaluate(codeLines);
    expect(
      paper.every((n) => n === 1),
      `lines per code in print: ${paper.join(' ')}`,
    ).toBe(true);
    await page.screenshot({ path: join(OUTPUT, 'director-table-codes-narrow.png'), fullPage: true });
    await page.close();
  });
});

/**
 * Seating forms in a real browser, on a phone (390×844) and a TV-sized screen (1920×1080): the
 * table phone's coin toss for an Asher challenge, filled in and sent by taps, and the director's
 * seating and create forms, every field on the screen and nothing wider than it.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Ledger } from '../events/store/sqlite/ledger.ts';
import { createTournament, registerTeam, startTournament } from '../server/commands/tournament-commands.ts';
import { hasChromium, launchChromium, noteMissingChromium, removeTempDirs, ROOT, serveInProcess, tempDir } from './fixtures/live-server.ts';
import { open } from './routes-fixture.ts';

noteMissingChromium('browser-seating');

const OUTPUT = join(ROOT, 'test-output');
const SIZES = [
  { name: 'phone', width: 390, height: 844 },
  { name: 'tv', width: 1920, height: 1080 },
] as const;

/** Runs in the page: a page wider than the window, or a field of the seating and create forms reaching past its right edge. */
function overflowing(): string[] {
  const width = document.documentElement.clientWidth;
  const wide: string[] = [];
  if (document.documentElement.scrollWidth > width + 1) wide.push(`the page is ${document.documentElement.scrollWidth}px wide`);
  for (const el of Array.from(
    document.querySelectorAll(
      ':is(.seat-form, .start-form, .create-choices, form[action="/director/tournaments"]) :is(fieldset, label, input, select, textarea, button, summary)',
    ),
  )) {
    const box = el.getBoundingClientRect();
    if (box.width > 0 && box.right > width + 1)
      wide.push(
        `${el.tagName.toLowerCase()}[name=${el.getAttribute('name') ?? ''}] "${(el.textContent ?? '').trim().slice(0, 40)}" (${el.className}) reaches ${Math.round(box.right)}px`,
      );
  }
  return wide;
}

describe.skipIf(!hasChromium)('seating forms on a phone and a TV', () => {
  let ledger: Ledger;
  let browser: Browser;
  let url: string;
  let code: string;
  let close: () => Promise<void>;

  beforeAll(async () => {
    ledger = open(`${tempDir('spades-browser-seating-')}/ledger.db`);
    const m = ledger.models;
    for (const [id, format] of [
      ['asher', 'asher-theatre'],
      ['blp', 'blp-2024'],
    ] as const) {
      ledger.execute(createTournament(m, { tournamentId: id, name: `${format} day`, format }));
      ['Aces', 'Kings', 'Queens', 'Jacks'].forEach((name, i) => {
        ledger.execute(registerTeam(m, { tournamentId: id, teamId: `${id}-${i + 1}`, name, players: [`${name} One`, `${name} Two`] }));
      });
      ledger.execute(startTournament(m, { tournamentId: id, order: [1, 2, 3, 4].map((i) => `${id}-${i}`) }));
    }
    const served = await serveInProcess(ledger);
    await served.auth.users.add('Dee Director', 'director', 'director-password');
    code = await served.auth.tableCode('asher', 1);
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

  async function look(page: Page, shot: string): Promise<void> {
    expect(await page.evaluate(overflowing), shot).toEqual([]);
    await page.screenshot({ path: join(OUTPUT, `${shot}.png`), fullPage: true });
  }

  it('the table phone records the coin toss by taps, the lower seed calling', async () => {
    const context = await browser.newContext({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });
    const phone = await context.newPage();
    await phone.goto(`${url}/join?code=${code}`);
    await phone.click('button[type=submit]');
    await phone.waitForURL(/\/entry\/tables\/asher\/1$/);
    const form = phone.locator('.start-form').first();
    await expect(form.locator('.first-dealer .hint').textContent()).resolves.toContain('Aces (seed 1) has the lower seed number, so it calls heads or tails.');
    await look(phone, 'seating-phone-toss');
    // Aces call tails, the coin comes down tails: Aces win and choose West.
    await form.locator('select[name=call]').selectOption('tails');
    await form.locator('select[name=result]').selectOption('tails');
    await form.locator('select[name=choice]').selectOption('W');
    await form.locator('[data-action=start]').click();
    await phone.waitForFunction(() => document.querySelector('#entry-panel')?.getAttribute('data-next') === 'deal:1');
    expect(await phone.locator('#entry-panel').textContent()).toContain('West deals hand 1');
    const started = ledger.store.readStream('match-asher-W1-1').find((e) => e.type === 'MatchStarted')!;
    expect((started.payload as { firstDealer: unknown }).firstDealer).toMatchObject({ method: 'coin-toss', caller: 'asher-1', winner: 'asher-1', dealer: 'W' });
    await context.close();
  });

  for (const size of SIZES) {
    it(`the director’s seating and create forms fit a ${size.name}`, async () => {
      const context = await browser.newContext({ viewport: { width: size.width, height: size.height } });
      const page = await context.newPage();
      await page.goto(`${url}/login`);
      await page.fill('input[name=name]', 'Dee Director');
      await page.fill('input[name=password]', 'director-password');
      await page.click('button[type=submit]');
      await page.waitForURL((u) => !u.pathname.startsWith('/login'));
      await page.goto(`${url}/director`);
      // Each format in a sentence from its rulebook, then its values.
      expect(await page.locator('.format-defaults li[data-format=asher-theatre]').textContent()).toMatch(
        /^Asher Theatre: 64 seeded teams, single elimination;.* best of 3 · 60 min on each game$/,
      );
      await look(page, `seating-${size.name}-create`);
      // The rules builder follows the format chosen, and its preview the values changed.
      await page.locator('select[name=format]').selectOption('asher-theatre');
      await page.waitForFunction(() => document.querySelector<HTMLInputElement>('#rules-builder input[name=rulesFormat]')?.value === 'asher-theatre');
      await page.fill('#rules-builder input[name="rule.target"]', '400');
      await page.waitForFunction(() => (document.getElementById('rules-preview')?.textContent ?? '').includes('House rule: A game is won at 400 points'));
      await page.goto(`${url}/director/tournaments/blp`);
      expect(await page.locator('.seat-form').first().locator('input[name=cardN]').isVisible()).toBe(true);
      await look(page, `seating-${size.name}-draw`);
      await page.goto(`${url}/director/tournaments/asher`);
      await page.locator('.seat-form').last().locator('summary').click();
      expect(await page.locator('.seat-form').last().locator('input[name=namedBecause]').isVisible()).toBe(true);
      await look(page, `seating-${size.name}-toss`);
      await context.close();
    });
  }
});

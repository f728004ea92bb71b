/**
 * A new director's flyer built in a browser with the create form's controls alone, at 1280 and
 * 390 px: jokers in, Big > Little > 2♦ > 2♠ > A♠, 2♥ and 2♣ out, games to 300 or 30 minutes,
 * overtricks score nothing, blind bids only 100 or more behind, a renege costs 3 tricks, single
 * elimination. A bad value first: the form comes back with every field as typed and the problem
 * beside its field. Then the rules sheet reads the six flyer rules, 300 in every round including
 * the final, and the structure. Each page meets WCAG 2.2 AA (axe-core) and fits the window.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Ledger } from '../events/store/sqlite/ledger.ts';
import { hasChromium, launchChromium, noteMissingChromium, removeTempDirs, ROOT, serveInProcess, tempDir } from './fixtures/live-server.ts';
import { open } from './routes-fixture.ts';
import { axeViolations } from './fixtures/browser-page.ts';

noteMissingChromium('browser-rules-builder');

const OUTPUT = join(ROOT, 'test-output');
const SIZES = [
  { name: 'laptop', width: 1280, height: 800 },
  { name: 'phone', width: 390, height: 844 },
] as const;

/** Runs in the page: anything reaching past the window's right edge. */
function overflowing(): string[] {
  const width = document.documentElement.clientWidth;
  const wide: string[] = [];
  if (document.documentElement.scrollWidth > width + 1) wide.push(`the page is ${document.documentElement.scrollWidth}px wide`);
  for (const el of Array.from(
    document.querySelectorAll('form[action="/director/tournaments"] :is(fieldset, label, input, select, textarea, button), .rules-sheet li'),
  )) {
    const box = el.getBoundingClientRect();
    if (box.width > 0 && box.right > width + 1)
      wide.push(`${el.tagName.toLowerCase()}[name=${el.getAttribute('name') ?? ''}] reaches ${Math.round(box.right)}px`);
  }
  return wide;
}

describe.skipIf(!hasChromium)('a flyer’s rules built with the create form', () => {
  let ledger: Ledger;
  let browser: Browser;
  let url: string;
  let close: () => Promise<void>;

  beforeAll(async () => {
    ledger = open(`${tempDir('spades-browser-rules-')}/ledger.db`);
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

  for (const size of SIZES) {
    it(`builds the flyer’s event on a ${size.name} (${size.width} px), and its sheet reads the flyer`, async () => {
      const context = await browser.newContext({ viewport: { width: size.width, height: size.height }, bypassCSP: true, reducedMotion: 'reduce' });
      const page = await context.newPage();
      await page.goto(`${url}/login`);
      await page.fill('input[name=name]', 'Dee Director');
      await page.fill('input[name=password]', 'director-password');
      await page.click('button[type=submit]');
      await page.waitForURL((u) => !u.pathname.startsWith('/login'));
      await page.goto(`${url}/director`);
      const id = `block-party-${size.name}`;
      await page.fill('input[name=tournamentId]', id);
      await page.fill('input[name=name]', `Block Party ${size.name}`);
      // What the event is, chosen apart from its rules: single elimination for 8 teams, a standard game to change from.
      await page.locator('select[name=format]').selectOption({ label: 'Single elimination' });
      await page.waitForFunction(() => document.querySelector<HTMLInputElement>('#rules-builder input[name=rulesFormat]')?.value === 'single-elimination');
      await page
        .locator('#rules-builder select[name=rules]')
        .selectOption({ label: 'A standard game: 52 cards, spades trump, 10 a trick, 1 a bag, 10 bags −100, nil ±100, to 500' });
      await page.waitForFunction(() => document.querySelector<HTMLInputElement>('#rules-builder input[name="rule.nil"]')?.value === '100');
      await page.fill('input[name=teams]', '8');
      await page.fill('input[name=gamesToWin]', '1');
      // "Games to 300 or 30 minutes", said once: the final follows.
      await page.fill('input[name=clockMinutes]', '30');
      const b = page.locator('#rules-builder');
      await b.locator('select[name="rule.jokers"]').selectOption('true');
      await b.locator('input[name="rule.removed"]').fill('2♥ 2♣');
      await b.locator('input[name="rule.promoted"]').fill('2♦ 2♠');
      await b.locator('input[name="rule.target"]').fill('300');
      await b.locator('select[name="rule.overtricks"]').selectOption({ label: 'score nothing (a team is credited only with its bid)' });
      await b.locator('select[name="rule.blindBid"]').selectOption('yes');
      await b.locator('input[name="rule.blindBid.deficit"]').fill('a hundred');
      await b.locator('input[name="rule.blindBid.minimumTeam"]').fill('4');
      await b.locator('input[name="rule.renegeTricks"]').fill('3');
      await page.getByRole('button', { name: 'Create the tournament' }).click();

      // Refused: every field as typed, and the problem beside its field.
      const problem = page.locator('[data-problem="rule.blindBid"]');
      await problem.waitFor();
      expect(await problem.textContent()).toContain('only when behind by');
      expect(await page.inputValue('input[name=tournamentId]')).toBe(id);
      expect(await page.inputValue('input[name=name]')).toBe(`Block Party ${size.name}`);
      expect(await page.inputValue('select[name=format]')).toBe('single-elimination');
      expect(await page.inputValue('input[name=teams]')).toBe('8');
      expect(await page.inputValue('input[name=clockMinutes]')).toBe('30');
      expect(await page.inputValue('#rules-builder select[name=rules]')).toBe('standard');
      expect(await b.locator('input[name="rule.removed"]').inputValue()).toBe('2♥ 2♣');
      expect(await b.locator('input[name="rule.promoted"]').inputValue()).toBe('2♦ 2♠');
      expect(await b.locator('input[name="rule.target"]').inputValue()).toBe('300');
      expect(await b.locator('select[name="rule.overtricks"]').inputValue()).toBe('nothing');
      expect(await b.locator('select[name="rule.jokers"]').inputValue()).toBe('true');
      expect(await b.locator('input[name="rule.blindBid.deficit"]').inputValue()).toBe('a hundred');
      expect(await page.evaluate(overflowing)).toEqual([]);
      expect(await axeViolations(page)).toEqual([]);
      await b.screenshot({ path: `${OUTPUT}/rules-builder-${size.name}-refused.png` });

      await b.locator('input[name="rule.blindBid.deficit"]').fill('100');
      await page.getByRole('button', { name: 'Create the tournament' }).click();
      await page.waitForFunction((name) => (document.querySelector('#director-title')?.textContent ?? '') === name, `Block Party ${size.name}`);

      await page.goto(`${url}/tournaments/${id}/rules`);
      const lines = await page.locator('.rules-sheet li').allTextContents();
      const line = (start: string) => lines.filter((l) => l.replace(/^House rule: /, '').startsWith(start));
      expect(
        line('Single elimination: teams of two partners, seated across from each other; a team that loses a match is out. The event is made for 8 teams.'),
      ).toHaveLength(1);
      expect(line('The deck is 52 cards: the Big and Little Jokers are in, the 2♥ and 2♣ are taken out.')).toHaveLength(1);
      expect(line('Trumps, high to low: Big Joker, Little Joker, 2♦, 2♠, A♠ … 3♠.')).toHaveLength(1);
      expect(line('Overtricks score nothing')).toHaveLength(1);
      expect(line('A team may bid blind (both partners, before seeing their cards) only when it is 100 or more points behind;')).toHaveLength(1);
      expect(line('An upheld renege takes 3 tricks from the reneging team')).toHaveLength(1);
      // Games to 300 or 30 minutes in every round, the final too.
      const games = line('A game is won at');
      expect(games.length).toBeGreaterThan(0);
      for (const g of games) expect(g).toMatch(/^(House rule: )?A game is won at 300 points, or by the team ahead when 30 minutes are called/);
      expect(lines.join(' ')).not.toContain('500');
      expect(await page.evaluate(overflowing)).toEqual([]);
      expect(await axeViolations(page)).toEqual([]);
      await context.close();
    });
  }
});

/**
 * A Swiss event in the middle of its third round and a round robin four rounds in, as the room
 * sees them in a browser: the venue screen at 1920×1080 shows all 16 teams' standings rows and the
 * round's pairings without scrolling, nothing cut off, in type read across the room, and a result
 * entered reaches the pairings over the screen's stream; the standings page and a team's page on
 * a 390 px phone fit the phone; axe-core finds no WCAG 2.2 A or AA violation on any of them.
 */
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importRecord } from '../events/record-import.ts';
import { type Ledger, openLedger } from '../events/store/sqlite/ledger.ts';
import { roundRobinMidway, swissMidway } from './fixtures/league-events.ts';
import { hasChromium, type InProcessServer, launchChromium, noteMissingChromium, removeTempDirs, serveInProcess, tempDir } from './fixtures/live-server.ts';
import { wonRecord } from './paper-records.ts';
import { axeViolations, showPanel, shownTexts } from './fixtures/browser-page.ts';

noteMissingChromium('browser-structures');

const TV = { width: 1920, height: 1080 };
const PHONE = { width: 390, height: 844 };

describe.skipIf(!hasChromium)('league structures in the browser', () => {
  let browser: Browser;
  let ledger: Ledger;
  let server: InProcessServer;
  beforeAll(async () => {
    ledger = openLedger({ path: join(tempDir(), 'spades.db'), synchronous: 'NORMAL' });
    swissMidway(ledger);
    roundRobinMidway(ledger);
    server = await serveInProcess(ledger);
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
    ledger?.close();
    removeTempDirs();
  });

  async function open(path: string, viewport: { width: number; height: number }): Promise<Page> {
    // axe is added as a script element of its own, which the site's policy would refuse; motion
    // reduced, so the panels cut rather than fade and axe never measures one halfway through.
    const context = await browser.newContext({ viewport, bypassCSP: true, reducedMotion: 'reduce' });
    const page = await context.newPage();
    await page.goto(`${server.url}${path}`);
    return page;
  }

  for (const id of ['swiss16', 'robin16']) {
    it(`shows every one of ${id}’s 16 standings rows and its round’s pairings on the TV, whole and large, with nothing for axe`, async () => {
      const page = await open(`/tournaments/${id}/screen`, TV);
      await showPanel(page, 0);
      const rows = await shownTexts(page, '#leaderboard tbody tr');
      expect(rows).toHaveLength(16);
      expect(rows.filter((r) => !r.onScreen).map((r) => r.text)).toEqual([]);
      const cells = await shownTexts(page, '#leaderboard th, #leaderboard td, #leaderboard .team-name, .league-notes p');
      expect(cells.filter((c) => c.cut).map((c) => c.text)).toEqual([]);
      expect(cells.filter((c) => !c.onScreen).map((c) => c.text)).toEqual([]);
      expect(Math.min(...cells.map((c) => c.fontSize))).toBeGreaterThanOrEqual(28);
      expect(await axeViolations(page)).toEqual([]);

      await showPanel(page, 1);
      const lines = await shownTexts(page, '#league-rounds h2, #league-rounds h3, .pairing-table, .pairing-team, .pairing-vs, .pairing-state, .league-to-pair');
      // Eight matches a round: the round in play, and a round robin's next round under it.
      expect(lines.filter((l) => l.text.startsWith('Table ') || l.text === 'against').length).toBeGreaterThanOrEqual(8);
      expect(lines.filter((l) => !l.onScreen).map((l) => l.text)).toEqual([]);
      expect(lines.filter((l) => l.cut).map((l) => l.text)).toEqual([]);
      expect(Math.min(...lines.map((l) => l.fontSize))).toBeGreaterThanOrEqual(28);
      expect(await page.locator('#league-rounds h2').textContent()).toBe(id === 'swiss16' ? 'Round 3 of 5: pairings' : 'Round 4 of 15: pairings');
      expect(await axeViolations(page)).toEqual([]);
      // The page never scrolls: the TV has nobody at it.
      expect(await page.evaluate(() => [document.documentElement.scrollWidth, document.documentElement.scrollHeight])).toEqual([1920, 1080]);
      await page.context().close();
    });

    it(`fits ${id}’s standings page and a team’s page on a 390 px phone, with nothing for axe`, async () => {
      const standings = await open(`/tournaments/${id}/leaderboard`, PHONE);
      expect(await standings.locator('#leaderboard tbody tr').count()).toBe(16);
      expect(await standings.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
      expect(await axeViolations(standings)).toEqual([]);
      // A folded round opens by keyboard and shows its pairings.
      await standings.locator('details.league-round summary').first().focus();
      await standings.keyboard.press('Enter');
      expect(await standings.locator('details.league-round').first().getAttribute('open')).toBe('');
      expect(await axeViolations(standings)).toEqual([]);
      await standings.context().close();

      const match = ledger.models.tournaments[id]!.model.matches.find((m) => m.status === 'ready')!;
      const team = await open(`/tournaments/${id}/teams/${match.teams[0]}`, PHONE);
      expect(await team.locator('.team-next-headline').textContent()).toMatch(/^Round \d+: table 1 against /);
      expect(await team.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
      expect(await axeViolations(team)).toEqual([]);
      await team.context().close();
    });
  }

  it('brings a result entered on paper to the TV’s pairings over its stream', async () => {
    const page = await open('/tournaments/swiss16/screen', TV);
    await showPanel(page, 1);
    const model = ledger.models.tournaments.swiss16!.model;
    const match = model.matches.find((m) => m.round === 3 && m.status === 'ready')!;
    const winner = model.teams.find((t) => t.teamId === match.teams[0])!.name;
    const line = page.locator(`.pairing[data-match="${match.matchId}"] .pairing-state`);
    expect(await line.textContent()).toBe('To be seated');
    ledger.execute(
      importRecord(ledger.models, wonRecord('blp-r1', 'NS', 'tv'), { tournamentId: 'swiss16', matchId: match.matchId }, '2026-03-01T14:00:00.000Z'),
    );
    await page.waitForFunction((id) => document.querySelector(`.pairing[data-match="${id}"] .pairing-state`)?.textContent?.endsWith(' won'), match.matchId, {
      timeout: 20_000,
    });
    expect(await line.textContent()).toBe(`${winner} won`);
    await page.context().close();
  });
});

/**
 * A team's own page on a phone (390×844): it reads "Your next match: Table N" without scrolling
 * sideways, and moves by itself, without a reload, when the director seats the team's match.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import type { Ledger } from '../events/store/sqlite/ledger.ts';
import { startMatch } from '../server/commands/match-commands.ts';
import { createTournament, registerTeam, startTournament } from '../server/commands/tournament-commands.ts';
import { TEAM_STATUS_ID } from '../views/team-page.tsx';
import { SSE_LOG, regionText, sseLog } from './fixtures/browser-page.ts';
import {
  hasChromium,
  type InProcessServer,
  launchChromium,
  noteMissingChromium,
  removeTempDirs,
  serveInProcess,
  tempDir,
  waitFor,
} from './fixtures/live-server.ts';
import { finishGame, open } from './routes-fixture.ts';

noteMissingChromium('browser-team-page');

const TEAMS = ['The Renegade Rangers of North Carolina', 'Big Books', 'Nil Nation', 'Boston Tea'];
const seat = (ledger: Ledger, matchId: string, table: number) =>
  ledger.execute(
    startMatch(ledger.models, {
      tournamentId: 'cup',
      matchId,
      table,
      at: new Date().toISOString(),
      draw: { method: 'high-card', rounds: [{ N: 'AS', E: 'KS', S: 'QS', W: 'JS' }] },
    }),
  );

describe.skipIf(!hasChromium)('a team’s page on a phone', () => {
  let browser: Browser;
  let ledger: Ledger;
  let server: InProcessServer;
  let team: string;
  let final: string;
  beforeAll(async () => {
    ledger = open(`${tempDir('spades-team-page-')}/ledger.db`);
    const m = ledger.models;
    ledger.execute(createTournament(m, { tournamentId: 'cup', name: 'Friday Cup', format: 'unc-intramural' }));
    TEAMS.forEach((name, i) =>
      ledger.execute(registerTeam(m, { tournamentId: 'cup', teamId: `team-${i + 1}`, name, players: [`${name} One`, `${name} Two`] })),
    );
    ledger.execute(startTournament(m, { tournamentId: 'cup', order: TEAMS.map((_, i) => `team-${i + 1}`) }));
    // Both semi-finals played: the final is ready, to be seated.
    for (const [i, match] of m.tournaments.cup!.model.matches.filter((x) => x.status === 'ready').entries()) {
      seat(ledger, match.matchId, i + 1);
      finishGame(ledger, m.tournaments.cup!.model.matches.find((x) => x.matchId === match.matchId)!.games[0]!);
    }
    const ready = m.tournaments.cup!.model.matches.find((x) => x.status === 'ready')!;
    final = ready.matchId;
    // The team with the long name if it got there, so its name must wrap on the phone.
    team = ready.teams.includes('team-1') ? 'team-1' : ready.teams[0]!;
    server = await serveInProcess(ledger);
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
    ledger?.close();
    removeTempDirs();
  });

  it('says where to go next in large type, without scrolling sideways, and follows the director’s seating live', async () => {
    const context = await browser.newContext({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 1, isMobile: true, hasTouch: true });
    const page = await context.newPage();
    await page.addInitScript(SSE_LOG);
    const response = await page.goto(`${server.url}/tournaments/cup/teams/${team}`);
    expect(response?.status()).toBe(200);
    await waitFor('the page to connect', async () => (await sseLog(page)).opened === 1, 20_000);
    expect(await regionText(page, '.team-next-headline')).toBe('Your next match: Table 1, waiting for the director to seat it');
    const wide = () => page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth }));
    let width = await wide();
    expect(width.scroll).toBeLessThanOrEqual(width.client);
    // Large enough to read across the room.
    const size = await page.evaluate(() => parseFloat(getComputedStyle(document.querySelector('.team-next-headline')!).fontSize));
    expect(size).toBeGreaterThanOrEqual(24);

    await page.evaluate(() => {
      (window as unknown as { __notReloaded: boolean }).__notReloaded = true;
    });
    const before = await page.evaluate(() => performance.now());
    seat(ledger, final, 3);
    await page.waitForFunction(() => document.querySelector('.team-next-headline')?.textContent === 'Your next match: Table 3, now', undefined, {
      timeout: 5000,
    });
    const after = await page.evaluate(() => performance.now());
    expect(after - before).toBeLessThan(1000);
    expect(await page.evaluate(() => (window as unknown as { __notReloaded?: boolean }).__notReloaded)).toBe(true);
    expect(await page.getAttribute(`#${TEAM_STATUS_ID}`, 'data-next')).toBe('now');
    expect(await regionText(page, '.team-live')).toContain('Final');
    width = await wide();
    expect(width.scroll).toBeLessThanOrEqual(width.client);
    await context.close();
  });
});

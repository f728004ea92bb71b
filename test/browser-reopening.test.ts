/**
 * A judge upholds a renege found after its match was decided, on a phone (390×844): the console
 * shows the reopening in full before its one confirmation (the match reopened, the Final's game
 * voided, the teams moved, the standings and statistics after), records nothing until it is
 * confirmed, and then records the ruling once. The preview and the console after it meet WCAG
 * 2.2 AA (axe-core).
 */
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { claimRenege } from '../server/commands/game-commands.ts';
import { hasChromium, launchChromium, noteMissingChromium, PHONE, removeTempDirs } from './fixtures/live-server.ts';
import { semisDecidedFinalPlaying } from './fixtures/reopening-scenario.ts';
import { type Fixture, copyOf, makeFixture } from './routes-fixture.ts';
import { axeViolations } from './fixtures/browser-page.ts';

noteMissingChromium('browser-reopening');

describe.skipIf(!hasChromium)('a late ruling from the judge console', () => {
  let browser: Browser;
  let fixture: Fixture;
  beforeAll(async () => {
    browser = await launchChromium();
    fixture = await makeFixture();
  });
  afterAll(async () => {
    await browser?.close();
    fixture?.close();
    removeTempDirs();
  });

  it('previews the reopening in full, records nothing until confirmed, then records the ruling once', async () => {
    const { app, ledger, broadcaster } = copyOf(fixture);
    const server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' });
    if (!server.listening) await new Promise((resolve) => server.once('listening', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    // axe is added as a script element of its own; the pages' policy allows only their site's files.
    const context = await browser.newContext({ ...PHONE, bypassCSP: true });
    try {
      const m = ledger.models;
      const { g1, gF } = semisDecidedFinalPlaying(ledger, fixture.matchId);
      const aces = m.tournaments.t1!.model.teams.find((t) => t.teamId === m.games[g1]!.teams.NS)!.name;
      ledger.execute(claimRenege(m, { gameId: g1, claimId: 'late', hand: m.games[g1]!.hands.length, seat: 'N', trick: null }));
      const gamesBefore = Object.values(m.games).filter((g) => g.tournamentId === 't1').length;
      const head = () => ledger.store.head().position;

      const judge = await context.newPage();
      const errors: string[] = [];
      judge.on('pageerror', (e) => errors.push(e.message));
      await judge.goto(`${url}/login?next=%2Fjudge`);
      await judge.fill('input[name=name]', 'Jo Judge');
      await judge.fill('input[name=password]', 'judge-password');
      await judge.click('.login-form button[type=submit]');
      await judge.waitForURL(/\/judge$/);

      // Uphold: the preview of everything it changes, and nothing recorded.
      const before = head();
      await judge.click('[data-claim="late"] [data-action=uphold]');
      const preview = judge.locator('[data-confirm-reopening]');
      await preview.waitFor();
      expect(head()).toBe(before);
      const said = (selector: string) =>
        preview
          .locator(selector)
          .allTextContents()
          .then((all) => all.map((t) => t.replace(/\s+/g, ' ').trim()));
      expect(await preview.locator('h2').textContent()).toBe('Reopen a decided match?');
      expect(await said('[data-reopening-list=reopening-reopened] li')).toEqual([
        expect.stringMatching(new RegExp(`^Round 1 \\(match 1\\): was ${aces} beat .+ 1–0; now not decided: play goes on\\.$`)),
      ]);
      expect(await said('[data-reopening-list=reopening-voided] li')).toEqual([expect.stringMatching(/^the Final, game 1: .+ so far\.$/)]);
      expect(await said('[data-reopening-list=reopening-replayed] li')).toEqual(['the Final, between the teams the bracket now puts there.']);
      expect(await said('[data-reopening-list=reopening-moved] li')).toContain(`${aces}: playing the Final, then playing Round 1 (match 1).`);
      expect(await preview.locator('.reopening-standings tbody tr').count()).toBe(4);
      expect(await said('[data-reopening-list=reopening-stats] li')).toContain(`Games counted: ${gamesBefore - 1}, was ${gamesBefore}`);
      // The question takes the focus, one Tab from its answer; the answer fits the phone.
      expect(await judge.evaluate(() => document.activeElement?.id)).toBe('confirm-reopening-title');
      const button = preview.locator('[data-action=confirm-reopening]');
      const box = (await button.boundingBox())!;
      expect(box.x + box.width).toBeLessThanOrEqual(390);
      expect(await axeViolations(judge)).toEqual([]);

      // Confirmed: the ruling is recorded once, as a reopening, and the Final's game is voided by it.
      await button.click();
      await judge.waitForSelector('[data-confirm-reopening]', { state: 'detached' });
      await judge.waitForFunction(() => document.querySelector('[data-claim="late"]') === null);
      expect(head()).toBe(before + 1);
      const recorded = ledger.store.readAll().at(-1)!;
      expect(recorded).toMatchObject({ type: 'RulingGiven', payload: { claimId: 'late', upheld: true, judge: 'Jo Judge' } });
      expect(m.tournaments.t1!.voided).toEqual({ [gF]: recorded.position });
      expect(await axeViolations(judge)).toEqual([]);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
      broadcaster.close();
      if ('closeAllConnections' in server) server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      ledger.close();
    }
  });
});

/**
 * The director's pages on a phone (390 px): the create form, an event taking entries, one being
 * played and a progressive evening all fit the screen's width, so no button or field runs off it.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Ledger } from '../events/store/sqlite/ledger.ts';
import { startMatch } from '../server/commands/match-commands.ts';
import { setSignUp } from '../server/commands/registration-commands.ts';
import { checkInTeam, createTournament, registerPlayer, registerTeam, startTournament } from '../server/commands/tournament-commands.ts';
import { hasChromium, launchChromium, noteMissingChromium, removeTempDirs, serveInProcess, tempDir } from './fixtures/live-server.ts';
import { open } from './routes-fixture.ts';

noteMissingChromium('browser-director-narrow');

const AT = '2026-03-01T10:00:00.000Z';

/** Runs in the page: every element reaching past the viewport's right edge, as tag.class and its width. */
function pastTheEdge(): string[] {
  const width = document.documentElement.clientWidth;
  return Array.from(document.querySelectorAll('body *'))
    .filter((el) => {
      const box = el.getBoundingClientRect();
      if (box.width === 0 || box.right <= width + 1) return false;
      // Inside a box that scrolls sideways on purpose (a wide table), it is reachable.
      for (let up = el.parentElement; up; up = up.parentElement) {
        const style = getComputedStyle(up);
        if (style.overflowX === 'auto' || style.overflowX === 'scroll') return false;
      }
      return true;
    })
    .map((el) => `${el.tagName.toLowerCase()}.${el.className} ${Math.round(el.getBoundingClientRect().width)}px`);
}

describe.skipIf(!hasChromium)('the director’s pages on a phone', () => {
  let ledger: Ledger;
  let browser: Browser;
  let url: string;
  let close: () => Promise<void>;

  beforeAll(async () => {
    ledger = open(`${tempDir('spades-browser-narrow-')}/ledger.db`);
    const m = ledger.models;
    for (const [id, format] of [
      ['open', 'pitt-boss'],
      ['played', 'unc-intramural'],
      ['blp', 'blp-2024'],
    ] as const) {
      ledger.execute(createTournament(m, { tournamentId: id, name: `${id} cup with a long enough name to wrap`, format }));
      for (let i = 1; i <= 6; i++) {
        ledger.execute(registerTeam(m, { tournamentId: id, teamId: `${id}-${i}`, name: `Team number ${i}`, players: [`Player ${i} One`, `Player ${i} Two`] }));
        ledger.execute(checkInTeam(m, { tournamentId: id, teamId: `${id}-${i}`, at: AT }));
      }
    }
    ledger.execute(setSignUp(m, { tournamentId: 'open', open: true, cap: 6, closes: null, at: AT }));
    ledger.execute(
      createTournament(m, {
        tournamentId: 'fees',
        name: 'Fee night',
        format: 'unc-intramural',
        options: { fees: { early: 15, late: 20, deadline: '2026-02-20' } },
      }),
    );
    ledger.execute(registerTeam(m, { tournamentId: 'fees', teamId: 'f1', name: 'Averyveryveryverylongteamnamewithoutaspace', players: ['Pat', 'Sam'] }));
    ledger.execute(startTournament(m, { tournamentId: 'played', seed: 'p' }));
    const ready = m.tournaments.played!.model.matches.find((x) => x.status === 'ready')!.matchId;
    for (const d of startMatch(m, {
      tournamentId: 'played',
      matchId: ready,
      table: 1,
      at: AT,
      draw: { method: 'high-card', rounds: [{ N: 'AS', E: 'KS', S: 'QS', W: 'JS' }] },
    }))
      ledger.execute(d);
    ledger.execute(startTournament(m, { tournamentId: 'blp', seed: 'b' }));
    ledger.execute(createTournament(m, { tournamentId: 'prog', name: 'Progressive night', format: 'tournament-spades' }));
    for (let i = 1; i <= 8; i++) {
      ledger.execute(registerPlayer(m, { tournamentId: 'prog', playerId: `p${i}`, name: `Player ${i}` }));
      ledger.execute(checkInTeam(m, { tournamentId: 'prog', teamId: `p${i}`, at: AT }));
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

  async function signedIn(): Promise<Page> {
    const page = await browser.newPage({ viewport: { width: 390, height: 844 } });
    await page.goto(`${url}/login`);
    await page.fill('input[name=name]', 'Dee Director');
    await page.fill('input[name=password]', 'director-password');
    await page.click('button[type=submit]');
    await page.waitForURL((u) => !u.pathname.startsWith('/login'));
    return page;
  }

  for (const path of [
    '/director',
    '/director/tournaments/fees',
    '/director/tournaments/open',
    '/director/tournaments/played',
    '/director/tournaments/blp',
    '/director/tournaments/prog',
  ]) {
    it(`${path} fits 390 px`, async () => {
      const page = await signedIn();
      await page.goto(`${url}${path}`);
      expect(await page.evaluate(pastTheEdge)).toEqual([]);
      expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(1);
      await page.close();
    });
  }
});

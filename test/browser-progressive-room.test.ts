/**
 * The room at a round's end: the moment the last table of a progressive round finishes, every
 * TV on `/screen` turns to "where to sit now" and keeps it up while the players move, until the
 * next round's first entry starts the rotation again. The rotation has no knob to shorten it,
 * so the test waits out more than one panel's 15-second turn.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { type Ledger, openLedger } from '../events/store/sqlite/ledger.ts';
import { createTournament, registerPlayer, startTournament } from '../server/commands/tournament-commands.ts';
import { startRound } from '../server/commands/match-commands.ts';
import { nextEntry } from '../server/serve/table-driver.ts';
import { hasChromium, type InProcessServer, launchChromium, noteMissingChromium, removeTempDirs, serveInProcess, tempDir } from './fixtures/live-server.ts';

noteMissingChromium('browser-progressive-room');
const NAMES = ['Ana', 'Ben', 'Cy', 'Dee', 'Eli', 'Fay', 'Gus', 'Hana', 'Maximiliana Bartholomew-Featherstonehaugh Okonkwo-Villanueva'];

/** Which of the screen's panels is up now, by its computed visibility and opacity. */
function panelsUp(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    Array.from(document.querySelectorAll('.panels > .panel'))
      .filter((panel) => {
        const style = getComputedStyle(panel);
        return style.visibility === 'visible' && Number(style.opacity) > 0.5;
      })
      .map((panel) => panel.className.replace(/^panel /, '')),
  );
}

describe.skipIf(!hasChromium)('the venue screen at the end of a progressive round', () => {
  let browser: Browser;
  let ledger: Ledger;
  let server: InProcessServer;
  const round = (n: number) => ledger.models.tournaments.eve!.progressive!.rounds.find((r) => r.round === n);
  const games = (n: number) => Object.values(round(n)!.games).map((id) => ledger.models.games[id]!);
  /** One entry by the table's bots. */
  const enter = (gameId: string) => ledger.execute(() => nextEntry(ledger, ledger.models.games[gameId]!, { seed: 'room' }) ?? []);

  beforeAll(async () => {
    ledger = openLedger({ path: join(tempDir(), 'spades.db'), synchronous: 'NORMAL' });
    const m = ledger.models;
    ledger.execute(createTournament(m, { tournamentId: 'eve', name: 'Thursday Progressive', format: 'tournament-spades', options: { rounds: 3 } }));
    for (const name of NAMES) ledger.execute(registerPlayer(m, { tournamentId: 'eve', playerId: name.slice(0, 3).toLowerCase(), name }));
    ledger.execute(startTournament(m, { tournamentId: 'eve', seed: 'room' }));
    ledger.execute(startRound(m, { tournamentId: 'eve', seed: 'room' }));
    // Every table of round 1 but the last finishes before the TV is switched on.
    const [first, last] = games(1);
    for (let i = 0; i < 5_000 && !ledger.models.games[first!.gameId]!.winner; i++) enter(first!.gameId);
    for (let i = 0; i < 10; i++) enter(last!.gameId);
    server = await serveInProcess(ledger);
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
    ledger?.close();
    removeTempDirs();
  });

  it('turns to where to sit within 2 s of the last table finishing, holds it 20 s, and rotates again at the next round’s first entry', async () => {
    const page = await browser.newPage({ viewport: { width: 1920, height: 1080 } });
    await page.goto(`${server.url}/screen`);
    expect(await page.locator('#where-to-sit').getAttribute('data-hold')).toBe('false');
    // The rotation is on the individual standings' turn, as it would be half the time.
    await page.evaluate(() => {
      for (const animation of document.getAnimations())
        if (
          animation.effect &&
          (animation.effect as KeyframeEffect).target instanceof Element &&
          ((animation.effect as KeyframeEffect).target as Element).matches('.panel, .panel-dots li')
        )
          animation.currentTime = 20_000;
    });
    expect(await panelsUp(page)).toEqual(['panel--individual']);

    const lastTable = games(1).find((g) => !g.winner)!.gameId;
    for (let i = 0; i < 5_000 && !round(1)!.results; i++) enter(lastTable);
    const finishedAt = Date.now();
    expect(round(1)!.results).not.toBeNull();
    await page.waitForFunction(
      () => {
        const seating = document.querySelector('.panel--seating');
        return (
          document.querySelector('#where-to-sit h2')?.textContent?.includes('Round 2 of 3: where to sit now') &&
          seating &&
          getComputedStyle(seating).visibility === 'visible' &&
          Number(getComputedStyle(seating).opacity) === 1
        );
      },
      undefined,
      { timeout: Math.max(1, 2_000 - (Date.now() - finishedAt)), polling: 50 },
    );
    expect(Date.now() - finishedAt).toBeLessThanOrEqual(2_000);
    expect(await panelsUp(page)).toEqual(['panel--seating']);
    // Each row says how the player moved: the rulebook's "winners move up, losers stay".
    const moves = await page.locator('#where-to-sit .sit-move').allTextContents();
    expect(moves.length).toBe(8);
    for (const move of moves) expect(move).toMatch(/^(up from table 2|stays at table [12]|from table 1 to table 2|back from sitting out)$/);

    // A long name wraps inside its row and column rather than losing its end.
    const long = await page.evaluate(() => {
      const name = document.querySelector('#where-to-sit [data-player="max"] .sit-name')!;
      const row = name.closest('.sit-row')!.getBoundingClientRect();
      const box = name.getBoundingClientRect();
      return {
        text: name.textContent,
        whole: name.scrollWidth <= name.clientWidth,
        inside: box.right <= row.right + 0.5,
        lines: Math.round(box.height / parseFloat(getComputedStyle(name).lineHeight)),
      };
    });
    expect(long).toMatchObject({ text: NAMES[8], whole: true, inside: true });
    expect(long.lines).toBeGreaterThan(1);

    // Past the 15 s a panel's turn lasts: still where to sit.
    await page.waitForTimeout(20_000);
    expect(await panelsUp(page)).toEqual(['panel--seating']);

    // The director seats round 2: the room still needs the seating until a table starts.
    ledger.execute(startRound(ledger.models, { tournamentId: 'eve', seed: 'room' }));
    await page.waitForFunction(() => document.querySelector('#where-to-sit h2')?.textContent?.includes('Round 2 of 3: where everyone sits'), undefined, {
      timeout: 5_000,
    });
    expect(await page.locator('#where-to-sit').getAttribute('data-hold')).toBe('true');
    expect(await panelsUp(page)).toEqual(['panel--seating']);

    // The first deal of round 2: the rotation starts again, from where to sit.
    enter(games(2)[0]!.gameId);
    await page.waitForFunction(() => document.querySelector('#where-to-sit')?.getAttribute('data-hold') === 'false', undefined, { timeout: 5_000 });
    const rotating = await page.evaluate(
      () => document.getAnimations().filter((a) => ((a.effect as KeyframeEffect | null)?.target as Element | null)?.matches?.('.panel')).length,
    );
    expect(rotating).toBe(3);
    await page.close();
  }, 60_000);

  it('makes every link and button on an evening’s phone pages a 44 px tap target, and tells the table’s phone the evening is over', async () => {
    // The evening plays on to its last round, from wherever the test before left it.
    const play = (n: number) => {
      if (!round(n)) ledger.execute(startRound(ledger.models, { tournamentId: 'eve', seed: 'room' }));
      for (let i = 0; i < 20_000 && !round(n)!.results; i++) for (const game of games(n)) if (!ledger.models.games[game.gameId]!.winner) enter(game.gameId);
    };
    play(1);
    play(2);
    ledger.execute(startRound(ledger.models, { tournamentId: 'eve', seed: 'room' }));
    const context = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    try {
      // Table 1's scorekeeper joins for the last round; once it is over the table's code joins no more.
      const page = await context.newPage();
      await page.goto(`${server.url}/join?code=${await server.auth.tableCode('eve', 1)}`);
      await page.click('button[type=submit]');
      await page.waitForURL((u) => u.pathname.startsWith('/entry/'));
      play(3);
      expect(ledger.models.tournaments.eve!.model.status).toBe('finished');
      await page.goto(`${server.url}/entry/tables/eve/1`);
      const over = page.locator('[data-evening=over]');
      expect(await over.textContent()).toContain('The evening is over');
      await over.locator('a').click();
      await page.waitForURL((u) => u.pathname === '/tournaments/eve/leaderboard');
      for (const path of ['/entry/tables/eve/1', '/tournaments/eve/leaderboard', '/tournaments/eve/players/max', '/tournaments/eve']) {
        await page.goto(`${server.url}${path}`);
        const small = await page.evaluate(() =>
          Array.from(document.querySelectorAll('a, button, summary, input[type=submit]'))
            .map((el) => ({ el, box: el.getBoundingClientRect(), style: getComputedStyle(el) }))
            .filter(({ box, style }) => box.width > 0 && box.height > 0 && style.visibility !== 'hidden')
            .filter(({ box }) => box.width < 44 || box.height < 44)
            .map(({ el, box }) => `${el.tagName.toLowerCase()} "${el.textContent!.trim().slice(0, 40)}" ${Math.round(box.width)}×${Math.round(box.height)}`),
        );
        expect(small, path).toEqual([]);
        const width = await page.evaluate(() => document.documentElement.scrollWidth);
        expect(width, path).toBeLessThanOrEqual(390);
      }
      // The director's desk on a phone: the players' columns stay on screen beside the longest name.
      await server.auth.users.add('Dana Director', 'director', 'director-password');
      await page.goto(`${server.url}/login`);
      await page.fill('input[name=name]', 'Dana Director');
      await page.fill('input[name=password]', 'director-password');
      await page.click('.login-form button[type=submit]');
      await page.waitForURL((u) => !u.pathname.startsWith('/login'));
      await page.goto(`${server.url}/director/tournaments/eve`);
      const columns = await page.evaluate(() => {
        const table = document.querySelector('.director-teams--players')!;
        const row = table.querySelector('tr[data-team="max"]')!;
        return {
          table: table.getBoundingClientRect().right,
          cells: Array.from(row.children).map((c) => c.getBoundingClientRect().right),
          page: document.documentElement.scrollWidth,
        };
      });
      expect(columns.page).toBeLessThanOrEqual(390);
      expect(columns.table).toBeLessThanOrEqual(390);
      for (const right of columns.cells) expect(right).toBeLessThanOrEqual(390);
    } finally {
      await context.close();
    }
  }, 60_000);
});

/**
 * The "where to sit now" panel of a 13-player progressive evening on a 1920×1080 TV: every
 * player's row lies on the screen, its type is large enough to read across the room, and when
 * the last table finishes the round the stream puts the next round's seating up by itself.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { type Ledger, openLedger } from '../events/store/sqlite/ledger.ts';
import { createTournament, registerPlayer, startTournament } from '../server/commands/tournament-commands.ts';
import { startRound } from '../server/commands/match-commands.ts';
import { nextEntry } from '../server/serve/table-driver.ts';
import { createApp } from '../server/app/app.ts';
import {
  hasChromium,
  type InProcessServer,
  launchChromium,
  noteMissingChromium,
  removeTempDirs,
  ROOT,
  serveInProcess,
  tempDir,
} from './fixtures/live-server.ts';

noteMissingChromium('browser-progressive-screen');
const OUTPUT = join(ROOT, 'test-output');
const NAMES = ['Ana', 'Ben', 'Cy', 'Dee', 'Eli', 'Fay', 'Gus', 'Hana', 'Ike', 'Jo', 'Kai', 'Lia', 'Mo'];

/** Puts the where-to-sit panel up by stopping the rotation in the middle of its turn. */
async function showSeating(page: Page): Promise<void> {
  await page.evaluate(() => {
    for (const animation of document.getAnimations()) {
      animation.pause();
      animation.currentTime = 7_000;
    }
  });
}

/** Each row of the panel: its player, where it is drawn, and its type size in px. */
function rows(page: Page) {
  return page.evaluate(() =>
    Array.from(document.querySelectorAll('#where-to-sit .sit-row')).map((row) => {
      const box = row.getBoundingClientRect();
      return {
        player: (row as HTMLElement).dataset.player!,
        table: Number((row as HTMLElement).dataset.table),
        onScreen: box.top >= 0 && box.left >= 0 && box.bottom <= innerHeight && box.right <= innerWidth && box.height > 0,
        px: parseFloat(getComputedStyle(row).fontSize),
      };
    }),
  );
}

describe.skipIf(!hasChromium)('where to sit, on the venue screen of a progressive evening', () => {
  let browser: Browser;
  let ledger: Ledger;
  let server: InProcessServer;
  beforeAll(async () => {
    mkdirSync(OUTPUT, { recursive: true });
    ledger = openLedger({ path: join(tempDir(), 'spades.db'), synchronous: 'NORMAL' });
    const m = ledger.models;
    ledger.execute(createTournament(m, { tournamentId: 'eve', name: 'Thursday Progressive', format: 'tournament-spades', options: { rounds: 3 } }));
    for (const name of NAMES) ledger.execute(registerPlayer(m, { tournamentId: 'eve', playerId: name.toLowerCase(), name }));
    ledger.execute(startTournament(m, { tournamentId: 'eve', seed: 'tv' }));
    ledger.execute(startRound(m, { tournamentId: 'eve', seed: 'tv' }));
    server = await serveInProcess(ledger);
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
    ledger?.close();
    removeTempDirs();
  });

  it('shows all 12 seated players large on the TV, who sits out, and the next seating once the round ends', async () => {
    const page = await browser.newPage({ viewport: { width: 1920, height: 1080 } });
    await page.goto(`${server.url}/screen`);
    await showSeating(page);
    const shown = await rows(page);
    expect(shown).toHaveLength(12);
    expect(shown.filter((r) => !r.onScreen)).toEqual([]);
    // Read across a room: well above the screen's 28.8px floor.
    for (const row of shown) expect(row.px).toBeGreaterThanOrEqual(40);
    const state = () => ledger.models.tournaments.eve!.progressive!;
    expect(await page.locator('#where-to-sit .sit-out strong').textContent()).toBe(NAMES.find((n) => n.toLowerCase() === state().rounds[0]!.sittingOut[0])!);
    expect(await page.evaluate(() => document.documentElement.scrollHeight <= innerHeight)).toBe(true);
    await page.screenshot({ path: join(OUTPUT, 'screen-1920x1080-progressive-where-to-sit.png') });

    // The round ends: the stream puts the movement up without a reload.
    for (let i = 0; i < 20_000 && !state().rounds[0]!.results; i++) {
      for (const gameId of Object.values(state().rounds[0]!.games)) {
        if (!ledger.models.games[gameId]!.winner) ledger.execute(() => nextEntry(ledger, ledger.models.games[gameId]!, { seed: 'tv' }) ?? []);
      }
    }
    await page.waitForFunction(() => document.querySelector('#where-to-sit h2')?.textContent?.includes('Round 2 of 3: where to sit now'), undefined, {
      timeout: 10_000,
    });
    await showSeating(page);
    const next = await rows(page);
    const expected = state()
      .nextSeating!.flatMap((t) => Object.values(t.seats).map((p) => `${p}@${t.table}`))
      .sort();
    expect(next.map((r) => `${r.player}@${r.table}`).sort()).toEqual(expected);
    expect(next.filter((r) => !r.onScreen)).toEqual([]);
    await page.close();
  });

  it('keeps all 41 players of a large evening on the TV in the individual standings, in columns', async () => {
    const m = ledger.models;
    ledger.execute(createTournament(m, { tournamentId: 'big', name: 'Big Night', format: 'tournament-spades', options: { rounds: 2 } }));
    for (let i = 1; i <= 41; i++) ledger.execute(registerPlayer(m, { tournamentId: 'big', playerId: `p${i}`, name: `Player ${i}` }));
    ledger.execute(startTournament(m, { tournamentId: 'big', seed: 'big' }));
    ledger.execute(startRound(m, { tournamentId: 'big', seed: 'big' }));
    const round = () => m.tournaments.big!.progressive!.rounds[0]!;
    for (let i = 0; i < 20_000 && !round().results; i++) {
      for (const gameId of Object.values(round().games)) {
        if (!m.games[gameId]!.winner) ledger.execute(() => nextEntry(ledger, m.games[gameId]!, { seed: 'big' }) ?? []);
      }
    }
    const page = await browser.newPage({ viewport: { width: 1920, height: 1080 } });
    await page.goto(`${server.url}/tournaments/big/screen`);
    await page.evaluate(() => {
      for (const animation of document.getAnimations()) {
        animation.pause();
        animation.currentTime = 15_000 + 7_000;
      }
    });
    const shown = await page.evaluate(() =>
      Array.from(document.querySelectorAll('#individual-standings tbody tr')).map((row) => {
        const box = row.getBoundingClientRect();
        return {
          onScreen: box.top >= 0 && box.bottom <= innerHeight && box.right <= innerWidth && box.height > 0,
          px: parseFloat(getComputedStyle(row).fontSize),
        };
      }),
    );
    await page.screenshot({ path: join(OUTPUT, 'screen-1920x1080-progressive-41-individual.png') });
    expect(shown).toHaveLength(41);
    expect(shown.filter((r) => !r.onScreen)).toHaveLength(0);
    for (const row of shown) expect(row.px).toBeGreaterThanOrEqual(28.8);
    expect(await page.locator('#individual-standings table').count()).toBe(3);
    await page.close();
  });

  it("fits the director's evening, the standings and a table's page on a 390px phone, with the four players by seat", async () => {
    await createApp({ ledger }).auth.users.add('Dana Director', 'director', 'director-password');
    const context = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 });
    try {
      const login = await context.newPage();
      await login.goto(`${server.url}/login`);
      await login.fill('input[name=name]', 'Dana Director');
      await login.fill('input[name=password]', 'director-password');
      await login.click('.login-form button[type=submit]');
      await login.waitForURL((u) => !u.pathname.startsWith('/login'));
      const page = await context.newPage();
      const game = ledger.models.tournaments.eve!.progressive!.rounds.at(-1)!.games['1']!;
      for (const path of ['/director/tournaments/eve', '/tournaments/eve/leaderboard', `/tournaments/eve/games/${game}`]) {
        expect((await page.goto(`${server.url}${path}`))!.status(), path).toBe(200);
        const width = await page.evaluate(() => Math.max(document.documentElement.scrollWidth, document.body.scrollWidth));
        expect(width, path).toBeLessThanOrEqual(390);
      }
      expect(await page.locator('.seat-list li').count()).toBe(4);
      await page.goto(`${server.url}/director/tournaments/eve`);
      expect(await page.locator('#where-to-sit .sit-row').count()).toBe(12);
      expect(await page.locator('button[data-action=seat-round]').textContent()).toContain('Seat round 2');
      expect(await page.locator('form:has(button[data-action=seat-round])').getAttribute('hx-confirm')).toContain('cannot be taken back');
    } finally {
      await context.close();
    }
  });
});

/**
 * The scorekeeper's phone between matches, in Chromium at 390×844: with no game in play at its
 * table the entry page follows its tournament, so when the director seats the next match at the
 * table the phone shows it within a second, without a tap; taps waiting on the phone are kept.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import type { Ledger } from '../events/store/sqlite/ledger.ts';
import { recordTricks } from '../server/commands/game-commands.ts';
import { startMatch, startNextGame } from '../server/commands/match-commands.ts';
import { hasChromium, launchChromium, noteMissingChromium, PHONE, removeTempDirs } from './fixtures/live-server.ts';
import { eventDay, joinTable } from './fixtures/event-day.ts';
import { finishGame } from './routes-fixture.ts';

noteMissingChromium('browser-entry-follow');

/** Plays the match at `table` out from the ledger, game after game, until it is decided. */
function finishMatchAt(ledger: Ledger, table: number): void {
  const m = ledger.models;
  const match = m.tournaments.cup!.model.matches.find((x) => x.table === table && x.status === 'live')!;
  for (let i = 0; i < 9; i++) {
    const now = m.tournaments.cup!.model.matches.find((x) => x.matchId === match.matchId)!;
    if (now.status !== 'live') return;
    const last = now.games[now.games.length - 1]!;
    if (m.games[last]!.current) ledger.execute(recordTricks(m, { gameId: last, tricks: { N: 7, S: 6, E: 0, W: 0 } }));
    if (!m.games[last]!.winner) finishGame(ledger, last);
    else ledger.execute(startNextGame(m, { tournamentId: 'cup', matchId: match.matchId, at: new Date().toISOString() }));
  }
  throw new Error(`the match at table ${table} did not finish`);
}

describe.skipIf(!hasChromium)('the scorekeeper’s phone between matches', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    removeTempDirs();
  });

  it('shows the next match the director seats at its table within a second, without a tap, keeping a waiting tap', async () => {
    const day = await eventDay();
    const context = await browser.newContext(PHONE);
    try {
      const m = day.ledger.models;
      const phone = await joinTable(context, day);
      finishMatchAt(day.ledger, 1);
      finishMatchAt(day.ledger, 2);
      // With the match over and nothing in play, the page turns by itself to following the
      // tournament (it reloads on its own, so a navigation of ours here would race it).
      await phone.waitForFunction(
        () => /^\/tournaments\/cup\/stream\?after=\d+$/.test(document.querySelector('.live')?.getAttribute('hx-sse:connect') ?? ''),
        undefined,
        { timeout: 10_000 },
      );
      await phone.waitForLoadState('load');
      expect(await phone.getAttribute('.live', 'hx-sse:connect')).toMatch(/^\/tournaments\/cup\/stream\?after=\d+$/);
      expect(await phone.$('.entry-match')).toBeNull();
      await phone.waitForFunction(() => (window as unknown as { htmx?: unknown }).htmx !== undefined);
      await phone.waitForTimeout(500);

      // An entry left on this phone from before (kept in its storage) is not dropped by following.
      const key = 'spades-outbox:cup/1';
      const next = m.tournaments.cup!.model.matches.find((x) => x.status === 'ready')!;
      const teams = next.teams.map((id) => m.tournaments.cup!.model.teams.find((t) => t.teamId === id)!.name);
      const started = Date.now();
      day.ledger.execute(
        startMatch(m, {
          tournamentId: 'cup',
          matchId: next.matchId,
          table: 1,
          at: new Date().toISOString(),
          draw: { method: 'high-card', rounds: [{ N: 'AS', E: 'KS', S: 'QS', W: 'JS' }] },
        }),
      );
      await phone.waitForFunction(() => document.querySelector('#entry-panel .entry-match') !== null, undefined, { timeout: 1500 });
      expect(Date.now() - started).toBeLessThan(1500);
      const heading = (await phone.textContent('#entry-panel .entry-match'))!;
      expect(heading).toContain(teams[0]);
      expect(heading).toContain(teams[1]);
      // Now the game's own stream, so entries made elsewhere at the table reach the phone.
      const game = m.tournaments.cup!.model.matches.find((x) => x.matchId === next.matchId)!.games[0]!;
      expect(await phone.getAttribute('.live', 'hx-sse:connect')).toMatch(new RegExp(`^/games/${game}/stream\\?after=\\d+$`));

      // A tap waiting on the phone (the network was down) holds the panel as it is: the phone
      // follows only once it has nothing waiting, and the tap stays queued.
      await context.setOffline(true);
      await phone.click('#entry-panel [data-action="deal-table"]');
      await phone.waitForSelector('[data-outbox-state][data-waiting="1"]');
      expect(await phone.evaluate((k) => JSON.parse(localStorage.getItem(k) ?? '[]').length, key)).toBe(1);
    } finally {
      await context.close();
      await day.close();
    }
  });
});

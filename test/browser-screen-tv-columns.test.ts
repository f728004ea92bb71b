/**
 * The venue screen at 1920×1080 with a 16-team double-elimination event and a 64-team knockout:
 * every bracket column reads (a team's name, where an empty slot's team comes from, a match's
 * label and a round's title on two lines at most, never a word a line nor a number alone), and the three-column standings of 64 teams show every row with the round each team
 * reached or went out in.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { type Ledger, openLedger } from '../events/store/sqlite/ledger.ts';
import { createTournament, registerTeam, startTournament } from '../server/commands/tournament-commands.ts';
import { driveTables } from '../server/serve/table-driver.ts';
import { showPanel, wordBreaks } from './fixtures/browser-page.ts';
import { hasChromium, type InProcessServer, launchChromium, noteMissingChromium, removeTempDirs, serveInProcess, tempDir } from './fixtures/live-server.ts';

noteMissingChromium('browser-screen-tv-columns');

const NAMES = ['Aces High', 'Big Books', 'Nil Nation', 'Boston Tea Party', 'Bag Ladies', 'Trump Tight Crew', 'Deuces Wild', 'Set Busters'];

/** Every text of the bracket's boxes with the lines it takes and whether its words are cut. */
function bracketTexts(page: Page) {
  return page.evaluate(() =>
    Array.from(document.querySelectorAll<HTMLElement>('#bracket .slot-name, #bracket .match-label, #bracket .round-title')).map((el) => {
      const style = getComputedStyle(el);
      const lineHeight = parseFloat(style.lineHeight) || parseFloat(style.fontSize) * 1.2;
      const range = document.createRange();
      range.selectNodeContents(el);
      const lines = new Set(
        Array.from(range.getClientRects())
          .filter((r) => r.width > 0)
          .map((r) => Math.round(r.top)),
      ).size;
      // Whether the words of the place ("match 49", "Table 3") or the number ending a title sit on one line.
      const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
      const chars: { node: Text; at: number }[] = [];
      for (let node = walker.nextNode() as Text | null; node; node = walker.nextNode() as Text | null)
        for (let i = 0; i < node.data.length; i++) chars.push({ node, at: i });
      const full = chars.map((c) => c.node.data[c.at]).join('');
      const top = (i: number) => {
        const r = document.createRange();
        r.setStart(chars[i]!.node, chars[i]!.at);
        r.setEnd(chars[i]!.node, chars[i]!.at + 1);
        return Math.round(r.getBoundingClientRect().top);
      };
      const place = /(\S+)\s+(\d+)\s*$/.exec(full);
      const split = place ? top(place.index) !== top(full.length - 1 - (full.length - full.trimEnd().length)) : false;
      return {
        text: (el.textContent ?? '').replace(/\s+/g, ' ').trim(),
        split,
        kind: el.classList.contains('slot-name') ? (el.closest('.slot')!.classList.contains('is-tbd') ? 'from' : 'team') : el.className,
        lines: Math.max(lines, Math.round(el.getBoundingClientRect().height / lineHeight)),
        clipped: el.scrollWidth > el.clientWidth + 1,
        fontSize: parseFloat(style.fontSize),
      };
    }),
  );
}

describe.skipIf(!hasChromium)('bracket columns and standings on the TV', () => {
  let browser: Browser;
  let ledger: Ledger;
  let server: InProcessServer;
  beforeAll(async () => {
    ledger = openLedger({ path: join(tempDir(), 'spades.db'), synchronous: 'NORMAL' });
    for (const [id, n, format] of [
      ['t16', 16, 'pitt-boss'],
      ['t64', 64, 'asher-theatre'],
    ] as const) {
      ledger.execute(createTournament(ledger.models, { tournamentId: id, name: `Cup of ${n}`, format }));
      for (let i = 1; i <= n; i++)
        ledger.execute(registerTeam(ledger.models, { tournamentId: id, teamId: `${id}-${i}`, name: `${NAMES[i % 8]} ${i}`, players: ['A', 'B'] }));
      ledger.execute(startTournament(ledger.models, { tournamentId: id, seed: id }));
      // Play on until a team is out, so the standings have a round to say it went out in.
      const out = () => ledger.models.tournaments[id]!.model.teams.some((t) => t.status === 'out');
      for (let s = 0; s < 3000 && !(id === 't64' ? out() : s >= 200); s++)
        await driveTables(ledger, { tournamentId: id, seed: id, now: () => '2026-01-01T10:00:00.000Z' });
    }
    expect(ledger.models.tournaments.t64!.model.teams.some((t) => t.status === 'out')).toBe(true);
    server = await serveInProcess(ledger);
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
    ledger?.close();
    removeTempDirs();
  });

  for (const id of ['t16', 't64']) {
    it(`keeps every bracket text of the ${id.slice(1)}-team event on two lines at most, never a number alone`, async () => {
      const page = await browser.newPage({ viewport: { width: 1920, height: 1080 } });
      await page.goto(`${server.url}/screen?t=${id}`);
      await showPanel(page, 1);
      const texts = await bracketTexts(page);
      expect(texts.filter((t) => t.kind === 'from').length).toBeGreaterThan(4);
      expect(texts.filter((t) => t.kind === 'team').length).toBeGreaterThan(4);
      expect(texts.filter((t) => t.lines > 2).map((t) => `${t.text} (${t.lines} lines)`)).toEqual([]);
      // A place or a round is never broken before its number ("Winner of match / 49", "Losers round / 1").
      expect(texts.filter((t) => t.split && t.kind !== 'team').map((t) => t.text)).toEqual([]);
      // Nothing cut off.
      expect(texts.filter((t) => t.clipped).map((t) => t.text)).toEqual([]);
      // Read across the room: nothing drawn smaller to make it fit.
      expect(Math.min(...texts.map((t) => t.fontSize))).toBeGreaterThanOrEqual(28);
      const off = await page.evaluate(
        () =>
          Array.from(document.querySelectorAll('#bracket .match, #bracket .round-title'))
            .map((m) => m.getBoundingClientRect())
            .filter((box) => box.top < 0 || box.left < 0 || box.bottom > innerHeight || box.right > innerWidth).length,
      );
      expect(off).toBe(0);
      await page.close();
    });
  }

  it('shows every row of the 64 teams’ three standings columns with the round each reached or went out in', async () => {
    const page = await browser.newPage({ viewport: { width: 1920, height: 1080 } });
    await page.goto(`${server.url}/screen?t=t64`);
    await showPanel(page, 0);
    const rows = await page.evaluate(() =>
      Array.from(document.querySelectorAll<HTMLElement>('#leaderboard tbody tr')).map((row) => {
        const badge = row.querySelector<HTMLElement>('.status .badge')!;
        const box = row.getBoundingClientRect();
        const panel = row.closest('.table-scroll')!.getBoundingClientRect();
        const cell = badge.closest('td')!.getBoundingClientRect();
        const b = badge.getBoundingClientRect();
        return {
          team: row.dataset.team,
          badge: badge.textContent ?? '',
          shown: box.bottom <= panel.bottom + 1 && box.bottom <= innerHeight,
          badgeWhole: b.right <= cell.right + 1 && badge.scrollWidth <= badge.clientWidth + 1,
        };
      }),
    );
    expect(await page.locator('#leaderboard .leaderboard--columns-3, #leaderboard.leaderboard--columns-3').count()).toBe(1);
    expect(rows).toHaveLength(64);
    expect(rows.filter((r) => !r.shown).map((r) => r.team)).toEqual([]);
    expect(rows.filter((r) => !r.badgeWhole).map((r) => r.badge)).toEqual([]);
    // Each column's headers read as their own words, each inside its cell.
    expect(await wordBreaks(page, '#leaderboard thead th')).toEqual([]);
    // Every team still in names the round it plays; every team out the round it went out in.
    const model = ledger.models.tournaments.t64!.model;
    const status = new Map(model.teams.map((t) => [t.teamId, t.status]));
    for (const row of rows) {
      if (status.get(row.team!) === 'out') expect(row.badge).toMatch(/^Out R\d+$/);
      else expect(row.badge).toMatch(/^Round \d+$/);
    }
    await page.close();
  });
});

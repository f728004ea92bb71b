/**
 * WCAG 2.2 AA on every page kind, as each kind of user sees it: axe-core's WCAG 2.0, 2.1 and
 * 2.2 rules at levels A and AA find nothing on any page the public, a scorekeeper, a judge or a
 * director opens. Then the keyboard alone: a scorekeeper joins a table, deals, bids and enters
 * the cards, and a judge rules on a claim, with Tab, Enter, Space and the arrow keys only.
 */
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Ledger } from '../events/store/sqlite/ledger.ts';
import { createApp } from '../server/app/app.ts';
import { claimRenege, giveRuling } from '../server/commands/game-commands.ts';
import { createSeries, joinSeries } from '../server/commands/circuit-commands.ts';
import { checkInTeam, createTournament, registerTeam, startTournament } from '../server/commands/tournament-commands.ts';
import { createDemo, PROGRESSIVE_DEMO } from '../server/serve/serve.ts';
import { driveTables } from '../server/serve/table-driver.ts';
import { hasChromium, launchChromium, noteMissingChromium, PHONE, removeTempDirs, tempDir } from './fixtures/live-server.ts';
import { recordedCards } from './fixtures/event-day.ts';
import { open } from './routes-fixture.ts';
import { axeViolations } from './fixtures/browser-page.ts';

noteMissingChromium('browser-accessibility');

type Role = 'public' | 'scorekeeper' | 'judge' | 'director';

/** What the pages are about: ids the rows below build their addresses from. */
interface Scene {
  /** A game at table 1 of the cup, part-way through its first hand, with a claim before the judge. */
  gameId: string;
  teamId: string;
  playerId: string;
  /** A position in the ledger's middle, for the as-of page. */
  position: number;
}

/** Every page kind and who opens it, and a step taken there that records nothing (one that asks to confirm). A new page gets a row here. */
const PAGES: { role: Role; page: string; path: (s: Scene) => string; tv?: boolean; act?: (page: Page) => Promise<void> }[] = [
  { role: 'public', page: 'every tournament', path: () => '/' },
  { role: 'public', page: 'venue screen', path: () => '/screen', tv: true },
  { role: 'public', page: 'tournament', path: () => '/tournaments/cup' },
  { role: 'public', page: 'standings', path: () => '/tournaments/cup/leaderboard' },
  { role: 'public', page: 'bracket', path: () => '/tournaments/cup/bracket' },
  { role: 'public', page: "tournament's screen", path: () => '/tournaments/cup/screen', tv: true },
  { role: 'public', page: 'table', path: (s) => `/tournaments/cup/games/${s.gameId}` },
  { role: 'public', page: "team's page", path: (s) => `/tournaments/cup/teams/${s.teamId}` },
  { role: 'public', page: 'progressive evening', path: () => `/tournaments/${PROGRESSIVE_DEMO}` },
  { role: 'public', page: 'progressive standings', path: () => `/tournaments/${PROGRESSIVE_DEMO}/leaderboard` },
  { role: 'public', page: "progressive evening's screen", path: () => `/tournaments/${PROGRESSIVE_DEMO}/screen`, tv: true },
  { role: 'public', page: "player's page", path: (s) => `/tournaments/${PROGRESSIVE_DEMO}/players/${s.playerId}` },
  { role: 'public', page: 'hand replay', path: (s) => `/games/${s.gameId}/hands/1/replay` },
  { role: 'public', page: 'standings as of a position', path: (s) => `/tournaments/cup/as-of?position=${s.position}` },
  { role: 'public', page: 'chain check', path: () => '/verify' },
  { role: 'public', page: 'sign in', path: () => '/login' },
  { role: 'public', page: 'join a table', path: () => '/join' },
  { role: 'public', page: 'no such page', path: () => '/no/such/page' },
  { role: 'scorekeeper', page: "table's entry, cards", path: () => '/entry/tables/cup/1' },
  { role: 'judge', page: 'judge console', path: () => '/judge' },
  { role: 'judge', page: "judge's sessions", path: () => '/sessions' },
  { role: 'judge', page: 'signed in as a judge', path: () => '/login' },
  { role: 'director', page: "director's desk", path: () => '/director' },
  { role: 'director', page: 'running tournament', path: () => '/director/tournaments/cup' },
  { role: 'director', page: 'tournament taking registrations', path: () => '/director/tournaments/open' },
  {
    role: 'director',
    page: 'draw previewed before the start',
    path: () => '/director/tournaments/open',
    act: async (page) => {
      await page.check('input[name=withdrawAbsent]');
      await page.click('[data-action=preview-draw]');
      await page.locator('[data-confirm-start]').waitFor();
    },
  },
  {
    role: 'director',
    page: 'withdrawal asked to confirm',
    path: () => '/director/tournaments/open',
    act: async (page) => {
      await page.locator('tr', { hasText: 'Fours' }).locator('button', { hasText: 'Withdraw' }).click();
      await page.locator('[data-confirm-withdraw]').waitFor();
    },
  },
  { role: 'director', page: 'progressive evening at the desk', path: () => `/director/tournaments/${PROGRESSIVE_DEMO}` },
  { role: 'public', page: 'series', path: () => '/series/season' },
  { role: 'public', page: 'series embed', path: () => '/embed/series/season' },
  { role: 'public', page: 'every player', path: () => '/players' },
  { role: 'public', page: 'player across events', path: () => '/players/aces-high-one' },
  { role: 'director', page: 'series and players', path: () => '/director/players' },
  {
    role: 'director',
    page: 'entrants of an earlier event previewed',
    path: () => '/director/tournaments/open',
    act: async (page) => {
      await page.selectOption('#copy-from', 'cup');
      await page.click('[data-action=copy-entrants]');
      await page.locator('[data-action=confirm-copy]').waitFor();
    },
  },
  { role: 'director', page: 'table codes', path: () => '/director/tournaments/cup/codes' },
];

const TV = { width: 1920, height: 1080 };
const LAPTOP = { width: 1366, height: 768 };

/** Counts pointer presses in the tab's session, from before its pages' scripts run: the keyboard tests take none. */
const POINTER_LOG = `
  document.addEventListener('pointerdown', () => sessionStorage.setItem('pointer', String(Number(sessionStorage.getItem('pointer') ?? 0) + 1)), true);
`;
const pointerPresses = (page: Page) => page.evaluate(() => Number(sessionStorage.getItem('pointer') ?? 0));

/** Presses Tab until the focused element matches `selector`; fails after `most` presses. */
async function tabTo(page: Page, selector: string, most = 80): Promise<void> {
  for (let i = 0; i <= most; i++) {
    if (await focusedIs(page, selector)) return;
    await page.keyboard.press('Tab');
  }
  throw new Error(
    `${most} presses of Tab did not reach ${selector}; the focus is on ${await page.evaluate(() => document.activeElement?.outerHTML.slice(0, 200))}`,
  );
}

const focusedIs = (page: Page, selector: string) => page.evaluate((s) => document.activeElement?.matches(s) ?? false, selector);

/**
 * Waits until the entry panel asks for something other than `before`, and says what. A panel
 * that has not moved within a minute fails the test saying where it stood and what had the focus.
 */
async function nextStep(page: Page, before: string): Promise<string> {
  try {
    await page.waitForFunction(
      (prev) => {
        const next = document.querySelector('#entry-panel')?.getAttribute('data-next');
        return next !== prev && next !== 'wait';
      },
      before,
      { timeout: 60_000 },
    );
  } catch (error) {
    const stood = await page.evaluate(() => ({
      next: document.querySelector('#entry-panel')?.getAttribute('data-next'),
      focus: document.activeElement?.outerHTML.slice(0, 200),
    }));
    throw new Error(`the entry panel stayed at ${stood.next ?? 'nothing'} after ${before} (focus on ${stood.focus ?? 'nothing'}): ${(error as Error).message}`);
  }
  return (await page.getAttribute('#entry-panel', 'data-next'))!;
}

const TEAMS = ['Aces High', 'Big Books', 'Nil Nation', 'Boston Tea', 'Bag Ladies', 'Trump Tight', 'Deuces Wild', 'Set Busters'];

describe.skipIf(!hasChromium)('accessibility', () => {
  let ledger: Ledger;
  let browser: Browser;
  let url: string;
  let scene: Scene;
  let codes: { cup: string; duo: string };
  let close: () => Promise<void>;
  const contexts = new Map<Role, { context: BrowserContext; page: Page; errors: string[] }>();

  beforeAll(async () => {
    ledger = open(`${tempDir('spades-accessibility-')}/ledger.db`);
    const m = ledger.models;
    // The cup: eight teams, its four tables part-way through their first hand.
    ledger.execute(createTournament(m, { tournamentId: 'cup', name: 'Friday Cup', format: 'pitt-boss' }));
    TEAMS.forEach((name, i) =>
      ledger.execute(registerTeam(m, { tournamentId: 'cup', teamId: `team-${i + 1}`, name, players: [`${name} One`, `${name} Two`] })),
    );
    ledger.execute(startTournament(m, { tournamentId: 'cup', order: TEAMS.map((_, i) => `team-${i + 1}`) }));
    const position = m.position;
    for (let step = 0; step < 14; step++) await driveTables(ledger, { tournamentId: 'cup', seed: 'accessibility', renegeChance: 0 });
    const gameId = m.tournaments.cup!.model.matches.find((x) => x.table === 1)!.games[0]!;
    ledger.execute(claimRenege(m, { gameId, claimId: 'c1', hand: 1, seat: 'E', trick: null }));
    const other = m.tournaments.cup!.model.matches.find((x) => x.table === 2)!.games[0]!;
    ledger.execute(claimRenege(m, { gameId: other, claimId: 'c2', hand: 1, seat: 'N', trick: null }));
    ledger.execute(giveRuling(m, { gameId: other, claimId: 'c2', upheld: true, note: 'seen by both sides', judge: 'Jo Judge' }));
    // The duo: its first match ready for table 1 to start (the keyboard's hand).
    ledger.execute(createTournament(m, { tournamentId: 'duo', name: 'Saturday Pairs', format: 'pitt-boss' }));
    TEAMS.slice(0, 4).forEach((name, i) =>
      ledger.execute(registerTeam(m, { tournamentId: 'duo', teamId: `duo-${i + 1}`, name, players: [`${name} A`, `${name} B`] })),
    );
    ledger.execute(startTournament(m, { tournamentId: 'duo', order: ['duo-1', 'duo-2', 'duo-3', 'duo-4'] }));
    // The open: still taking registrations.
    ledger.execute(createTournament(m, { tournamentId: 'open', name: 'Autumn Open', format: 'pitt-boss' }));
    ['Deuces', 'Treys', 'Fours', 'Fives', 'Sixes'].forEach((name, i) =>
      ledger.execute(registerTeam(m, { tournamentId: 'open', teamId: `open-${i + 1}`, name, players: [`${name} A`, `${name} B`] })),
    );
    for (const teamId of ['open-1', 'open-2', 'open-3', 'open-4'])
      ledger.execute(checkInTeam(m, { tournamentId: 'open', teamId, at: new Date().toISOString() }));
    // A season counting the cup, so the series page has an event (still being played) to show.
    ledger.execute(createSeries(m, { seriesId: 'season', name: 'Friday Season', points: { '1': 10, '2': 7, played: 1 } }));
    ledger.execute(joinSeries(m, { tournamentId: 'cup', seriesId: 'season' }));
    // And a pairs final played out, so its standings have rows.
    ledger.execute(createTournament(m, { tournamentId: 'pair', name: 'Pairs Final', format: 'unc-intramural' }));
    TEAMS.slice(0, 2).forEach((name, i) =>
      ledger.execute(registerTeam(m, { tournamentId: 'pair', teamId: `pair-${i + 1}`, name, players: [`${name} One`, `${name} Two`] })),
    );
    ledger.execute(startTournament(m, { tournamentId: 'pair', order: ['pair-1', 'pair-2'] }));
    for (let step = 0; step < 5000 && (await driveTables(ledger, { tournamentId: 'pair', seed: 'accessibility-pair', renegeChance: 0 })) > 0; step++);
    ledger.execute(joinSeries(m, { tournamentId: 'pair', seriesId: 'season' }));
    // A progressive evening with its first round seated.
    await createDemo(ledger, 'progressive');
    await driveTables(ledger, { tournamentId: PROGRESSIVE_DEMO, seed: 'accessibility' });
    const playerId = m.tournaments[PROGRESSIVE_DEMO]!.model.teams[0]!.teamId;
    scene = { gameId, teamId: 'team-1', playerId, position };

    const { app, auth, broadcaster } = createApp({ ledger });
    await auth.users.add('Jo Judge', 'judge', 'judge-password');
    await auth.users.add('Dana Director', 'director', 'director-password');
    codes = { cup: await auth.tableCode('cup', 1), duo: await auth.tableCode('duo', 1) };
    const server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' });
    if (!server.listening) await new Promise((resolve) => server.once('listening', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    close = () =>
      new Promise<void>((resolve) => {
        broadcaster.close();
        if ('closeAllConnections' in server) server.closeAllConnections();
        server.close(() => resolve());
      });
    browser = await launchChromium();
  });

  afterAll(async () => {
    for (const { context } of contexts.values()) await context.close();
    await browser?.close();
    await close?.();
    ledger?.close();
    removeTempDirs();
  });

  /** The role's one page, signed in on first use: a phone for a scorekeeper and a judge, a laptop for the others. */
  async function pageOf(role: Role): Promise<{ page: Page; errors: string[] }> {
    const known = contexts.get(role);
    if (known) return known;
    // axe is added as a script element of its own; the pages' policy allows only their site's files.
    // Motion reduced: the screen's panels then cut rather than fade, so axe never measures the
    // contrast of a panel caught halfway through its fade.
    const context = await browser.newContext({
      ...(role === 'scorekeeper' || role === 'judge' ? PHONE : { viewport: LAPTOP }),
      bypassCSP: true,
      reducedMotion: 'reduce',
    });
    await context.addInitScript(POINTER_LOG);
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    if (role === 'scorekeeper') {
      await page.goto(`${url}/join?code=${codes.cup}`);
      await page.click('.join-form button[type=submit]');
      await page.waitForURL(/\/entry\/tables\/cup\/1$/);
    } else if (role !== 'public') {
      await page.goto(`${url}/login`);
      await page.fill('input[name=name]', role === 'judge' ? 'Jo Judge' : 'Dana Director');
      await page.fill('input[name=password]', `${role}-password`);
      await page.click('.login-form button[type=submit]');
      await page.waitForURL((u) => !u.pathname.startsWith('/login'));
    }
    const made = { context, page, errors };
    contexts.set(role, made);
    return made;
  }

  for (const row of PAGES) {
    it(`finds no WCAG 2.2 A or AA violation on the ${row.page} page, as ${row.role === 'public' ? 'the public' : `a ${row.role}`}`, async () => {
      const { page, errors } = await pageOf(row.role);
      await page.setViewportSize(row.tv ? TV : row.role === 'scorekeeper' || row.role === 'judge' ? PHONE.viewport : LAPTOP);
      const response = await page.goto(`${url}${row.path(scene)}`);
      expect(response!.status()).toBe(row.page === 'no such page' ? 404 : 200);
      const before = ledger.models.position;
      await row.act?.(page);
      expect(ledger.models.position).toBe(before);
      expect(await axeViolations(page)).toEqual([]);
      expect(errors).toEqual([]);
    });
  }

  it('takes a table from its start to a scored hand by keyboard alone: the draw, the deal, four bids and 52 cards', async () => {
    const { page, errors } = await pageOf('scorekeeper');
    await page.setViewportSize(PHONE.viewport);
    await page.evaluate(() => sessionStorage.removeItem('pointer'));
    await page.goto(`${url}/join`);
    await tabTo(page, 'input[name=code]');
    await page.keyboard.type(codes.duo);
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/entry\/tables\/duo\/1$/);
    let step = (await page.getAttribute('#entry-panel', 'data-next'))!;
    expect(step).toBe('start');
    expect(await axeViolations(page)).toEqual([]);

    // The first dealer drawn for high card: North's ace deals.
    for (const [seat, card] of [
      ['N', 'AS'],
      ['E', 'KD'],
      ['S', '4C'],
      ['W', '9H'],
    ] as const) {
      await tabTo(page, `input[name=card${seat}]`);
      await page.keyboard.type(card);
    }
    await tabTo(page, '[data-action=start]');
    await page.keyboard.press('Enter');
    step = await nextStep(page, step);
    expect(step).toBe('deal:1');
    // The panel redrawn by each answer keeps the focus: here on the first control the deal offers.
    expect(await focusedIs(page, '[data-action=deal-table]')).toBe(true);
    expect(await axeViolations(page)).toEqual([]);

    await tabTo(page, '[data-action=deal-system]');
    await page.keyboard.press('Space');
    step = await nextStep(page, step);
    expect(step).toMatch(/^bid:/);
    expect(await focusedIs(page, '[data-bid]')).toBe(true);
    expect(await axeViolations(page)).toEqual([]);

    // Each bid from the keys the preset offers; the focus stays on the bid just made, for the next seat.
    while (step.startsWith('bid:')) {
      await tabTo(page, '[data-bid="3"], [data-bid="4"]', 20);
      await page.keyboard.press('Enter');
      step = await nextStep(page, step);
      expect(await focusedIs(page, step.startsWith('bid:') ? '[data-bid]' : '.card-grid button.card-key.is-open')).toBe(true);
    }
    expect(step).toMatch(/^play:/);
    expect(await axeViolations(page)).toEqual([]);

    // Each card a key that breaks no rule; after each the focus is on the next seat's first card.
    let cards = 0;
    while (step.startsWith('play:')) {
      await tabTo(page, 'button.card-key.is-open:not(.breaks-rule):not([disabled])', 13);
      await page.keyboard.press('Enter');
      cards++;
      step = (await page.getAttribute('#entry-panel', 'data-next'))!;
      if (step.startsWith('play:')) expect(await focusedIs(page, '.card-grid button.card-key.is-open:not([disabled])'), `after card ${cards}`).toBe(true);
    }
    expect(cards).toBe(52);
    step = await nextStep(page, 'wait');
    expect(step).toBe('deal:2');
    const match = ledger.models.tournaments.duo!.model.matches.find((x) => x.table === 1)!;
    const played = recordedCards(ledger, match.games[0]!);
    expect(new Set(played.map((p) => p.card)).size).toBe(52);
    expect(ledger.models.games[match.games[0]!]!.hands).toHaveLength(1);
    expect(await pointerPresses(page)).toBe(0);
    expect(errors).toEqual([]);
    // 52 cards, each a few key presses and a round trip: minutes on a busy machine.
  }, 240_000);

  it('gives a ruling by keyboard alone: asked once, the question focused, one Tab to its answer', async () => {
    const { page, errors } = await pageOf('judge');
    await page.setViewportSize(PHONE.viewport);
    await page.evaluate(() => sessionStorage.removeItem('pointer'));
    await page.goto(`${url}/judge`);
    const rulings = () => ledger.store.readAll().filter((e) => e.type === 'RulingGiven').length;
    const before = rulings();
    await tabTo(page, '[data-claim="c1"] [data-action=uphold]');
    await page.keyboard.press('Enter');
    await page.locator('[data-confirm-ruling]').waitFor();
    expect(rulings()).toBe(before);
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('confirm-ruling-title');
    expect(await axeViolations(page)).toEqual([]);
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-action'))).toBe('confirm-ruling');
    await page.keyboard.press('Enter');
    await page.locator('.rulings li[data-ruling="c1"]').waitFor();
    expect(rulings()).toBe(before + 1);
    const ruling = ledger.store.readAll().findLast((e) => e.type === 'RulingGiven')!;
    expect(ruling.payload).toMatchObject({ claimId: 'c1', upheld: true, judge: 'Jo Judge' });
    expect(await pointerPresses(page)).toBe(0);
    expect(errors).toEqual([]);
  });
});

/**
 * The whole path through a real browser: a scorekeeper on a 390×844 phone records a hand by
 * taps (start, deal, bids, all 52 cards, one of them a renege), the other team claims the
 * renege from the table, a judge upholds it from the console, and the venue screen, open all
 * along, shows the corrected score without being reloaded.
 */
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Card, type Seat, cardName, parseCard, teamOf } from '../engine/cards.ts';
import { deckFor } from '../engine/deck.ts';
import { resolveRules } from '../engine/rules.ts';
import { legalPlays } from '../engine/trick.ts';
import type { Ledger } from '../events/store/sqlite/ledger.ts';
import { createApp } from '../server/app/app.ts';
import { handSoFar } from '../events/game-projection.ts';
import { createTournament, registerTeam, startTournament } from '../server/commands/tournament-commands.ts';
import { hasChromium, launchChromium, noteMissingChromium, removeTempDirs, tempDir } from './fixtures/live-server.ts';
import { open } from './routes-fixture.ts';
import { cardText } from '../engine/card-names.ts';

noteMissingChromium('browser-entry');

describe.skipIf(!hasChromium)('a hand recorded by taps, a renege claimed and upheld, the screen corrected live', () => {
  let ledger: Ledger;
  let browser: Browser;
  let url: string;
  let code: string;
  let close: () => Promise<void>;

  beforeAll(async () => {
    ledger = open(`${tempDir('spades-browser-entry-')}/ledger.db`);
    const m = ledger.models;
    ledger.execute(createTournament(m, { tournamentId: 'cup', name: 'Phone Cup', format: 'pitt-boss' }));
    ['Aces', 'Kings', 'Queens', 'Jacks'].forEach((name, i) => {
      ledger.execute(registerTeam(m, { tournamentId: 'cup', teamId: `team-${i + 1}`, name, players: [`${name} One`, `${name} Two`] }));
    });
    ledger.execute(startTournament(m, { tournamentId: 'cup', order: ['team-1', 'team-2', 'team-3', 'team-4'] }));
    let seeds = 0;
    const { app, auth, broadcaster } = createApp({ ledger, newSeed: () => `phone-${++seeds}` });
    await auth.users.add('Jo Judge', 'judge', 'judge-password');
    code = await auth.tableCode('cup', 1);
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
    await browser?.close();
    await close?.();
    ledger?.close();
    removeTempDirs();
  });

  /** Waits until the entry panel asks for something other than `before`. */
  async function nextStep(page: Page, before: string): Promise<string> {
    // 'wait': the phone has taken the tap and waits for the ledger's answer to show the next step.
    await page.waitForFunction((prev) => {
      const next = document.querySelector('#entry-panel')?.getAttribute('data-next');
      return next !== prev && next !== 'wait';
    }, before);
    return (await page.getAttribute('#entry-panel', 'data-next'))!;
  }

  it('goes from the first tap to the corrected score on the venue screen', async () => {
    const errors: string[] = [];
    const phoneContext = await browser.newContext({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });
    const phone = await phoneContext.newPage();
    phone.on('pageerror', (e) => errors.push(e.message));

    // Join table 1 from the QR link's address.
    await phone.goto(`${url}/join?code=${code}`);
    await phone.click('button[type=submit]');
    await phone.waitForURL(/\/entry\/tables\/cup\/1$/);

    // Start the match here, then deal from the system's shuffle.
    let step = (await phone.getAttribute('#entry-panel', 'data-next'))!;
    expect(step).toBe('start');
    // The first dealer is drawn for high card at the table: North's ace deals.
    const startForm = phone.locator('.start-form').first();
    for (const [seat, card] of [
      ['N', 'AS'],
      ['E', 'KD'],
      ['S', '4C'],
      ['W', '9H'],
    ])
      await startForm.locator(`input[name=card${seat}]`).fill(card!);
    await startForm.locator('[data-action=start]').click();
    step = await nextStep(phone, step);
    expect(step).toBe('deal:1');
    await phone.click('[data-action=deal-system]');
    step = await nextStep(phone, step);

    const match = ledger.models.tournaments.cup!.model.matches.find((x) => x.table === 1)!;
    const gameId = match.games[0]!;
    const game = ledger.models.games[gameId]!;
    const deck = deckFor(resolveRules(game.rules).options);

    // The venue screen is open from here on.
    const screenContext = await browser.newContext({ viewport: { width: 1920, height: 1080 } });
    const screen = await screenContext.newPage();
    screen.on('pageerror', (e) => errors.push(e.message));
    await screen.goto(`${url}/screen`);
    await screen.evaluate(() => ((window as unknown as { notReloaded: boolean }).notReloaded = true));

    // Four bids, each a tap on a button the preset offers.
    while (step.startsWith('bid:')) {
      const offered = await phone.$$eval('[data-bid]', (buttons) => buttons.map((b) => b.getAttribute('data-bid')!));
      const choice = offered.includes('3') ? '3' : offered.find((b) => /^\d+$/.test(b))!;
      await phone.click(`[data-bid="${choice}"]`);
      step = await nextStep(phone, step);
    }

    // 52 cards, each one tap; East–West renege once, at the first chance they get.
    let renege: { seat: Seat; trick: number } | null = null;
    let taps = 0;
    while (step.startsWith('play:')) {
      const so = handSoFar(game)!;
      const seat = so.next!;
      const played = new Set(game.current!.plays.flat());
      const hand: Card[] = game.current!.deal![seat].filter((c) => !played.has(c)).map((c) => parseCard(c)!);
      const last = so.tricks[so.tricks.length - 1];
      const open = last && last.cards.length < 4 ? last : null;
      const broken = so.tricks.some((t) => t.cards.length === 4 && t.cards.some((c) => deck.suit[c] === 0));
      const legal = legalPlays(deck, hand, open ? open.cards[0]! : null, broken);
      let card = legal[0]!;
      let reneging = false;
      if (!renege && open && teamOf(seat) === 'EW') {
        const off = hand.find((c) => !legal.includes(c));
        if (off !== undefined) {
          card = off;
          reneging = true;
          renege = { seat, trick: so.tricks.length };
        }
      }
      const button = `button[data-card="${cardName(card)}"]`;
      // The phone marks the card before the tap, records it on the tap, and flags it after.
      if (reneging) expect(await phone.getAttribute(button, 'class')).toContain('breaks-rule');
      await phone.click(button);
      step = await nextStep(phone, step);
      taps++;
      // The phone follows the trick at once; the ledger has it when the answer is in.
      await phone.waitForFunction(() => !document.querySelector('[data-outbox-state]:not([hidden])') && !document.querySelector('.card-key.is-sending'));
      expect(game.current ? game.current.plays.flat().length : 52).toBe(taps === 52 ? 52 : taps);
      if (reneging) expect(await phone.textContent('.notice--done')).toContain(`${cardText(cardName(card))} at trick ${renege!.trick} is a renege`);
    }
    expect(taps).toBe(52);
    expect(step).toBe('deal:2');
    expect(renege).not.toBeNull();
    expect(game.hands).toHaveLength(1);

    // The screen has caught up with the hand before any claim.
    const scoreBefore = { NS: game.score.NS, EW: game.score.EW };
    const screenScores = () =>
      screen.evaluate(() => {
        const read = (team: string) =>
          /[-\u2212]?\d+/.exec(document.querySelector(`#live-tables .screen-score--${team} .score`)?.textContent ?? '')?.[0]?.replace('\u2212', '-');
        return { NS: Number(read('ns')), EW: Number(read('ew')) };
      });
    await screen.waitForFunction((want) => {
      const read = (team: string) =>
        /[-\u2212]?\d+/.exec(document.querySelector(`#live-tables .screen-score--${team} .score`)?.textContent ?? '')?.[0]?.replace('\u2212', '-');
      return Number(read('ns')) === want.NS && Number(read('ew')) === want.EW;
    }, scoreBefore);

    // North–South claim the renege from the table's phone: the form is open and filled in with
    // the renege the engine found.
    expect(await phone.$('details.claims[open]')).not.toBeNull();
    expect(await phone.inputValue('.claim-form select[name=seat]')).toBe(renege!.seat);
    expect(await phone.inputValue('.claim-form select[name=trick]')).toBe(String(renege!.trick));
    await phone.selectOption('.claim-form select[name=seat]', renege!.seat);
    await phone.selectOption('.claim-form select[name=hand]', '1');
    await phone.selectOption('.claim-form select[name=trick]', String(renege!.trick));
    await phone.click('[data-action=claim-renege]');
    await phone.waitForSelector('.entry-claims');
    expect(game.claims).toHaveLength(1);

    // A judge signs in and upholds it; the console shows what the engine found at that trick.
    const judgeContext = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const judge = await judgeContext.newPage();
    judge.on('pageerror', (e) => errors.push(e.message));
    // Signed out, the console sends the judge to sign in, and back to it after.
    await judge.goto(`${url}/judge`);
    await judge.waitForURL(/\/login\?next=%2Fjudge$/);
    await judge.fill('input[name=name]', 'Jo Judge');
    await judge.fill('input[name=password]', 'judge-password');
    await judge.click('.login-form button[type=submit]');
    await judge.waitForURL(/\/judge$/);
    const engineSays = await judge.textContent('[data-engine]');
    expect(engineSays).toContain(`renege by ${{ N: 'North', E: 'East', S: 'South', W: 'West' }[renege!.seat]} at trick ${renege!.trick}`);
    await judge.fill('.ruling-form input[name=note]', 'followed with a club while holding a heart');
    await judge.click('[data-action=uphold]');
    // Asked once, with what upholding does, before anything is recorded.
    await judge.waitForSelector('[data-confirm-ruling]');
    await judge.click('[data-action=confirm-ruling]');
    await judge.waitForSelector('.rulings li');
    expect(await judge.textContent('.rulings li')).toContain('Jo Judge');

    // The preset's penalty follows through the projection, and the screen shows it without reload.
    const corrected = { NS: game.score.NS, EW: game.score.EW };
    expect(corrected).not.toEqual(scoreBefore);
    await screen.waitForFunction((want) => {
      const read = (team: string) =>
        /[-\u2212]?\d+/.exec(document.querySelector(`#live-tables .screen-score--${team} .score`)?.textContent ?? '')?.[0]?.replace('\u2212', '-');
      return Number(read('ns')) === want.NS && Number(read('ew')) === want.EW;
    }, corrected);
    expect(await screenScores()).toEqual(corrected);
    expect(await screen.evaluate(() => (window as unknown as { notReloaded?: boolean }).notReloaded)).toBe(true);
    expect(errors).toEqual([]);
  }, 120_000);
});

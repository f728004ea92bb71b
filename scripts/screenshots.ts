/**
 * `npm run screenshots`: pictures of the pages as the room sees them, written to
 * docs/screenshots/ and linked from the README. Three pitt-boss events of 4, 16 and 64 teams
 * are played part-way by the table bots in a scratch ledger (some with reneges claimed, for the
 * judge), served on a free port, and photographed with Debian's chromium: each panel of the
 * venue screen at 1920×1080, and the judge console, a table's entry page (and a refusal on it),
 * a team's own page and a progressive player's on a 390×844 phone.
 * A 13-player progressive evening (tournament-spades) is played into its second round for the
 * two panels of its screen: where to sit now, and the individual standings. The director's
 * desk is shown with an 8-team event of which 6 have checked in: the draw's preview, asked to
 * be confirmed, on a 1366×768 laptop and a phone.
 *
 * The venue screen's panels take turns by a CSS animation; for the pictures the animation is
 * stopped on one panel at a time (the browser is told to ignore the page's style policy for it).
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serve } from '@hono/node-server';
import { type Page, chromium } from 'playwright-core';
import { type Ledger, openLedger } from '../events/store/sqlite/ledger.ts';
import { createApp } from '../server/app/app.ts';
import { driveTables } from '../server/serve/table-driver.ts';
import { playCard } from '../server/commands/game-commands.ts';
import { checkInTeam, createTournament, registerPlayer, registerTeam, startTournament } from '../server/commands/tournament-commands.ts';
import { indexedPng, readPng } from './png-palette.ts';
import { CHROMIUM, CHROMIUM_ARGS } from '../test/fixtures/shared-chromium.ts';

const OUT = 'docs/screenshots';
const TEAM_NAMES = [
  'Aces High',
  'Big Books',
  'Nil Nation',
  'Boston Tea',
  'Bag Ladies',
  'Trump Tight',
  'Deuces Wild',
  'Set Busters',
  'Lucky Spades',
  'High Joker',
  'Renege Rangers',
  'Blind Six',
];

function teamName(i: number): string {
  const base = TEAM_NAMES[i % TEAM_NAMES.length]!;
  return i < TEAM_NAMES.length ? base : `${base} ${Math.floor(i / TEAM_NAMES.length) + 1}`;
}

/** A pitt-boss event of `teams` teams, started and played `steps` rounds of entries by the bots. */
async function playEvent(ledger: Ledger, tournamentId: string, name: string, teams: number, steps: number, renegeChance: number): Promise<void> {
  const m = ledger.models;
  ledger.execute(createTournament(m, { tournamentId, name, format: 'pitt-boss' }));
  for (let i = 0; i < teams; i++)
    ledger.execute(
      registerTeam(m, { tournamentId, teamId: `${tournamentId}-${i + 1}`, name: teamName(i), players: [`Player ${2 * i + 1}`, `Player ${2 * i + 2}`] }),
    );
  ledger.execute(startTournament(m, { tournamentId, seed: `${tournamentId}-pictures` }));
  for (let i = 0; i < steps; i++) if ((await driveTables(ledger, { tournamentId, seed: `${tournamentId}-pictures`, renegeChance })) === 0) break;
}

const PLAYERS: [string, 'male' | 'female'][] = [
  ['Ana', 'female'],
  ['Ben', 'male'],
  ['Cy', 'male'],
  ['Dee', 'female'],
  ['Eli', 'male'],
  ['Fay', 'female'],
  ['Gus', 'male'],
  ['Hana', 'female'],
  ['Ike', 'male'],
  ['Jo', 'female'],
  ['Kai', 'male'],
  ['Lia', 'female'],
  ['Mo', 'male'],
];

/** A 13-player progressive evening played until its second round is seated and under way. */
async function playEvening(ledger: Ledger, tournamentId: string): Promise<void> {
  const m = ledger.models;
  ledger.execute(createTournament(m, { tournamentId, name: 'Thursday Progressive', format: 'tournament-spades', options: { rounds: 4 } }));
  for (const [name, gender] of PLAYERS) ledger.execute(registerPlayer(m, { tournamentId, playerId: name.toLowerCase(), name, gender }));
  ledger.execute(startTournament(m, { tournamentId, seed: `${tournamentId}-pictures` }));
  for (let i = 0; i < 5000 && m.tournaments[tournamentId]!.progressive!.rounds.length < 2; i++)
    await driveTables(ledger, { tournamentId, seed: `${tournamentId}-pictures` });
  for (let i = 0; i < 40; i++) await driveTables(ledger, { tournamentId, seed: `${tournamentId}-pictures` });
}

/** A picture of the page as it shows now, in as few colours as it needs. */
async function shoot(page: Page, file: string): Promise<void> {
  writeFileSync(file, indexedPng(readPng(await page.screenshot())));
}

async function main(): Promise<void> {
  if (!existsSync(CHROMIUM)) {
    console.error(`screenshots: ${CHROMIUM} is not installed (apt-get install chromium)`);
    process.exit(2);
  }
  const dir = mkdtempSync(join(tmpdir(), 'spades-screenshots-'));
  const ledger = openLedger({ path: join(dir, 'ledger.db'), synchronous: 'NORMAL' });
  try {
    await playEvent(ledger, 'friday-4', 'Friday Four', 4, 700, 0);
    await playEvent(ledger, 'spring-16', 'Spring Pitt Boss', 16, 2600, 0.001);
    await playEvent(ledger, 'open-64', 'City Open (64 teams)', 64, 200, 0.002);
    await playEvening(ledger, 'thursday-13');
    // The director's desk: 8 registered, 6 checked in, not started.
    ledger.execute(createTournament(ledger.models, { tournamentId: 'saturday-8', name: 'Saturday Eight', format: 'unc-intramural' }));
    for (let i = 0; i < 8; i++)
      ledger.execute(
        registerTeam(ledger.models, {
          tournamentId: 'saturday-8',
          teamId: `saturday-8-${i + 1}`,
          name: teamName(i),
          players: [`Player ${2 * i + 1}`, `Player ${2 * i + 2}`],
        }),
      );
    for (let i = 0; i < 6; i++)
      ledger.execute(checkInTeam(ledger.models, { tournamentId: 'saturday-8', teamId: `saturday-8-${i + 1}`, at: new Date().toISOString() }));

    const { app, auth, broadcaster } = createApp({ ledger });
    await auth.users.add('Jo Judge', 'judge', 'pictures-judge');
    await auth.users.add('Dee Director', 'director', 'pictures-director');
    const server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' });
    if (!server.listening) await new Promise((resolve) => server.once('listening', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
    mkdirSync(OUT, { recursive: true });
    const written: string[] = [];
    try {
      // The venue screen: each panel of each event, at half scale (960×540) to keep the files small.
      const tv = await browser.newContext({ viewport: { width: 1920, height: 1080 }, deviceScaleFactor: 0.5, bypassCSP: true });
      const screen = await tv.newPage();
      for (const [id, size] of [
        ['friday-4', 4],
        ['spring-16', 16],
        ['open-64', 64],
      ] as const) {
        await screen.goto(`${url}/tournaments/${id}/screen`);
        for (const panel of ['standings', 'bracket', 'tables']) {
          const pin = await screen.addStyleTag({
            content: `.panel, .panel-dots li, .ticker-track { animation: none !important; } .panel { opacity: 0; visibility: hidden; } .panel--${panel} { opacity: 1 !important; visibility: visible !important; } .ticker-track { padding-left: 0; }`,
          });
          const file = join(OUT, `screen-${size}-teams-${panel}.png`);
          await shoot(screen, file);
          await pin.evaluate((style) => (style as Element).remove());
          written.push(file);
        }
      }
      // A progressive evening's own panels: where to sit now, and the individual standings.
      await screen.goto(`${url}/tournaments/thursday-13/screen`);
      for (const panel of ['seating', 'individual']) {
        const pin = await screen.addStyleTag({
          content: `.panel, .panel-dots li, .ticker-track { animation: none !important; } .panel { opacity: 0; visibility: hidden; } .panel--${panel} { opacity: 1 !important; visibility: visible !important; } .ticker-track { padding-left: 0; }`,
        });
        const file = join(OUT, `screen-progressive-${panel}.png`);
        await shoot(screen, file);
        await pin.evaluate((style) => (style as Element).remove());
        written.push(file);
      }
      await tv.close();

      // The judge console and a table's entry page on a phone.
      const phone = await browser.newContext({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 1, isMobile: true, hasTouch: true });
      const judge = await phone.newPage();
      await judge.goto(`${url}/login?next=/judge`);
      await judge.fill('input[name=name]', 'Jo Judge');
      await judge.fill('input[name=password]', 'pictures-judge');
      await judge.click('.stack-form button[type=submit]');
      await judge.waitForURL(/\/judge$/);
      let file = join(OUT, 'judge-console-phone.png');
      await shoot(judge, file);
      written.push(file);

      const keeper = await browser.newContext({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 1, isMobile: true, hasTouch: true });
      const entry = await keeper.newPage();
      await entry.goto(`${url}/join?code=${await auth.tableCode('friday-4', 1)}`);
      await entry.click('.stack-form button[type=submit]');
      await entry.waitForURL(/\/entry\/tables\//);
      file = join(OUT, 'entry-phone.png');
      await shoot(entry, file);
      written.push(file);

      // A refusal on the phone: two cards tapped while the Wi-Fi was down, the first entered
      // meanwhile on another phone, so the ledger refuses this phone's copy when it is sent.
      const grid = await entry.$('.card-grid');
      if (grid) {
        const gameId = (await grid.getAttribute('data-game'))!;
        const seat = (await grid.getAttribute('data-seat'))!;
        const tap = () =>
          entry.evaluate(
            () => document.querySelector<HTMLButtonElement>('.card-grid button.card-key.is-open:not(.breaks-rule):not([disabled])')?.dataset.card ?? '',
          );
        await keeper.setOffline(true);
        const first = await tap();
        await entry.tap(`.card-grid button[data-card="${first}"]`);
        const second = await tap();
        if (second) await entry.tap(`.card-grid button[data-card="${second}"]`);
        ledger.execute(playCard(ledger.models, { gameId, seat, card: first }));
        await keeper.setOffline(false);
        await entry.waitForSelector('[data-outbox-state].is-conflict');
        file = join(OUT, 'entry-refusal-phone.png');
        await shoot(entry, file);
        written.push(file);
      }
      await keeper.close();

      // A team's own page on a phone, at a match being played: where to go, the score, how it stands;
      // and a progressive player's: where to sit this round, with whom, the total and place.
      const fan = await phone.newPage();
      const live = ['spring-16', 'open-64', 'friday-4']
        .map((id) => ({ id, match: ledger.models.tournaments[id]!.model.matches.find((x) => x.status === 'live' && x.teams[0] !== null) }))
        .find((x) => x.match);
      const [teamEvent, teamId] = live ? [live.id, live.match!.teams[0]!] : ['spring-16', 'spring-16-1'];
      await fan.goto(`${url}/tournaments/${teamEvent}/teams/${encodeURIComponent(teamId)}`);
      file = join(OUT, 'team-page-phone.png');
      await shoot(fan, file);
      written.push(file);
      const evening = ledger.models.tournaments['thursday-13']!.progressive!;
      const seated = evening.rounds.at(-1)?.seating[0]?.seats.N ?? evening.players[0]!.playerId;
      await fan.goto(`${url}/tournaments/thursday-13/players/${encodeURIComponent(seated)}`);
      file = join(OUT, 'player-page-phone.png');
      await shoot(fan, file);
      written.push(file);
      await phone.close();

      // The director's desk: the draw previewed, starting without the two who never came.
      for (const [name, viewport] of [
        ['laptop', { width: 1366, height: 768 }],
        ['phone', { width: 390, height: 844 }],
      ] as const) {
        const context = await browser.newContext({ viewport, deviceScaleFactor: 1 });
        const desk = await context.newPage();
        await desk.goto(`${url}/login`);
        await desk.fill('input[name=name]', 'Dee Director');
        await desk.fill('input[name=password]', 'pictures-director');
        await desk.click('.stack-form button[type=submit]');
        await desk.waitForURL((u) => !u.pathname.startsWith('/login'));
        await desk.goto(`${url}/director/tournaments/saturday-8`);
        await desk.check('input[name=withdrawAbsent]');
        await desk.click('[data-action=preview-draw]');
        await desk.locator('[data-confirm-start]').waitFor();
        await desk.evaluate(() => window.scrollTo(0, 0));
        file = join(OUT, `director-desk-${name}.png`);
        await shoot(desk, file);
        written.push(file);
        await context.close();
      }
    } finally {
      await browser.close();
      broadcaster.close();
      if ('closeAllConnections' in server) server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
    let total = 0;
    for (const file of written) {
      const size = statSync(file).size;
      total += size;
      console.log(`${file}  ${Math.round(size / 1024)} KB`);
    }
    console.log(`${written.length} pictures, ${Math.round(total / 1024)} KB in all`);
  } finally {
    ledger.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();

/**
 * The judge console through HTTP: one queue across tournaments, the claim waiting longest
 * first, each with where and when it was made, its replay and the engine's finding, in team
 * names; a disqualification asked for is confirmed before it is recorded; the console's live
 * signal changes when what it shows changes and not with every card; and a signed-out browser
 * is sent to sign in and back.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cardName, parseCard } from '../engine/cards.ts';
import { deckFor } from '../engine/deck.ts';
import { resolveRules } from '../engine/rules.ts';
import { legalPlays } from '../engine/trick.ts';
import { handSoFar } from '../events/game-projection.ts';
import { claimRenege, playCard } from '../server/commands/game-commands.ts';
import { judgeVersion } from '../server/judge/judge-console-model.ts';
import { livePartials } from '../server/app/live-channels.tsx';
import { registerTeam, startTournament } from '../server/commands/tournament-commands.ts';
import { startMatch } from '../server/commands/match-commands.ts';
import { element } from './fixtures/html.ts';
import { type Fixture, bidAll, copyOf, deal, makeFixture, seatMatch, send } from './routes-fixture.ts';

let fixture: Fixture;
beforeAll(async () => {
  fixture = await makeFixture();
});
afterAll(() => fixture?.close());

/** The text a reader sees: tags dropped. */
const text = (html: string) => html.replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ');

describe('the judge console’s queue', () => {
  it('holds claims from every tournament in one queue, the one waiting longest first, each saying where, when, and what the engine finds', async () => {
    const { app, ledger, broadcaster } = copyOf(fixture);
    try {
      const m = ledger.models;
      // A second running tournament, Autumn Open, with a match at its table 1.
      ledger.execute(registerTeam(m, { tournamentId: 't2', teamId: 'open-3', name: 'Fours', players: ['Ann', 'Bo'] }));
      ledger.execute(startTournament(m, { tournamentId: 't2', order: ['open-1', 'open-2', 'open-3'] }));
      const autumn = m.tournaments.t2!.model.matches.find((x) => x.status === 'ready')!;
      ledger.execute(
        startMatch(m, {
          tournamentId: 't2',
          matchId: autumn.matchId,
          table: 1,
          at: '2026-03-01T10:00:00.000Z',
          draw: { method: 'high-card', rounds: [{ N: 'AS', E: 'KS', S: 'QS', W: 'JS' }] },
        }),
      );
      const autumnGame = m.tournaments.t2!.model.matches.find((x) => x.matchId === autumn.matchId)!.games[0]!;
      const springGame = seatMatch(ledger, fixture.matchId);
      deal(ledger, autumnGame);
      deal(ledger, springGame);

      // Autumn's claim is made first, Spring's second.
      ledger.execute(claimRenege(m, { gameId: autumnGame, claimId: 'autumn-1', seat: 'E', trick: 2 }));
      ledger.execute(claimRenege(m, { gameId: springGame, claimId: 'spring-1', seat: 'W', trick: 5 }));

      const html = await (await send(app, fixture.clients.judge, 'GET', '/judge')).text();
      const queue = [...html.matchAll(/data-claim="([^"]+)"/g)].map((x) => x[1]);
      expect(queue).toEqual(['autumn-1', 'spring-1']);
      expect(html).toContain('data-claims="autumn-1 spring-1"');
      expect(html).toContain('<title>(2) Judge console</title>');

      const spring = element(html, /<article class="claim-case" data-claim="spring-1"/);
      expect(spring).toContain('<p class="claim-where">Spring Cup · Table 1 · Round 1, game 1</p>');
      expect(text(spring)).toContain('Aces vs Jacks: renege claimed against West (Jacks), hand 1, trick 5');
      expect(spring).toMatch(
        /Claimed at <time datetime="2026-03-01T10:00:\d\d\.000Z">10:00<\/time> · waiting <span class="claim-age" data-since="2026-03-01T10:00:\d\d\.000Z">/,
      );
      expect(spring).toContain(`href="/games/${springGame}/hands/1/replay#trick-5"`);
      expect(spring).toContain('data-engine');
      // Two big buttons, not radio buttons.
      expect(spring).toContain('name="upheld" value="yes" class="big-button rule-button rule-button--uphold" data-action="uphold"');
      expect(spring).toContain('name="upheld" value="no"');
      expect(spring).not.toContain('type="radio"');
      expect(element(html, /<article class="claim-case" data-claim="autumn-1"/)).toContain(
        '<p class="claim-where">Autumn Open · Table 1 · Round 1, game 1</p>',
      );

      // Team names in what the judge reads, never ids.
      const visible = text(element(html, /<section id="judge-console"/));
      expect(visible).not.toMatch(/\bteam-\d\b|\bopen-\d\b|t1-W1-1-g1/);

      // A ruling is logged with the game as people name it.
      const ruled = await send(
        app,
        fixture.clients.judge,
        'POST',
        `/judge/games/${springGame}/claims/spring-1/ruling`,
        { form: { upheld: 'no', confirm: 'yes' } },
        { 'hx-request': 'true' },
      );
      const after = await ruled.text();
      expect(text(element(after, /<ol class="rulings"/))).toContain(
        'denied the renege claim against West (Spring Cup, Table 1: Aces vs Jacks, game 1, hand 1, trick 5)',
      );
      expect([...after.matchAll(/data-claim="([^"]+)"/g)].map((x) => x[1])).toEqual(['autumn-1']);
    } finally {
      broadcaster.close();
      ledger.close();
    }
  });
});

describe('putting a team out', () => {
  it('offers no team until one is chosen, asks to confirm, and records only when confirmed', async () => {
    const { app, ledger, broadcaster } = copyOf(fixture);
    try {
      const page = await (await send(app, fixture.clients.judge, 'GET', '/judge')).text();
      const select = element(page, /<select name="team" required=""/);
      expect(select).toMatch(/^<select name="team" required=""><option value="" selected="">Choose a team…<\/option>/);
      expect(select).toContain('<option value="t1/team-4">Jacks (Spring Cup)</option>');

      const before = ledger.store.head().position;
      const asked = await send(
        app,
        fixture.clients.judge,
        'POST',
        '/judge/disqualify',
        { form: { team: 't1/team-4', kind: 'no-show', reason: 'not at the table by 10:15' } },
        { 'hx-request': 'true' },
      );
      expect(asked.status).toBe(200);
      const confirm = element(await asked.text(), /<section class="confirm-step"/);
      expect(confirm).toContain('Put Jacks out of Spring Cup?');
      expect(confirm).toContain('Jacks will be recorded as a no-show: “not at the table by 10:15”.');
      expect(confirm).toContain('It forfeits its match still to play');
      expect(confirm).toContain('<input type="hidden" name="confirm" value="yes"/>');
      expect(ledger.store.head().position).toBe(before);

      // Nothing chosen: a sentence, nothing recorded.
      const none = await send(app, fixture.clients.judge, 'POST', '/judge/disqualify', { form: { team: '', reason: 'x' } }, { 'hx-request': 'true' });
      expect(none.status).toBe(400);
      expect(await none.text()).toContain('team is missing');
      expect(ledger.store.head().position).toBe(before);

      const done = await send(
        app,
        fixture.clients.judge,
        'POST',
        '/judge/disqualify',
        { form: { team: 't1/team-4', kind: 'no-show', reason: 'not at the table by 10:15', confirm: 'yes' } },
        { 'hx-request': 'true' },
      );
      expect(done.status).toBe(200);
      expect(await done.text()).toContain('Jacks is out of Spring Cup (no-show).');
      expect(ledger.store.readAll().at(-1)!.type).toBe('TeamDisqualified');
    } finally {
      broadcaster.close();
      ledger.close();
    }
  });
});

describe('the console’s live signal', () => {
  it('changes when a claim is made or ruled on, and not when a card is played in a hand nobody has claimed', () => {
    const { ledger, broadcaster } = copyOf(fixture);
    try {
      const m = ledger.models;
      const gameId = seatMatch(ledger, fixture.matchId);
      deal(ledger, gameId);
      bidAll(ledger, gameId);
      const v0 = judgeVersion(m);
      const game = m.games[gameId]!;
      const deck = deckFor(resolveRules(game.rules).options);
      const so = handSoFar(game)!;
      const hand = game.current!.deal![so.next!].map((c) => parseCard(c)!);
      ledger.execute(playCard(m, { gameId, seat: so.next!, card: cardName(legalPlays(deck, hand, null, false)[0]!) }));
      expect(judgeVersion(m)).toBe(v0);
      ledger.execute(claimRenege(m, { gameId, claimId: 'c-live', seat: 'N', trick: 1 }));
      const v1 = judgeVersion(m);
      expect(v1).not.toBe(v0);
      // The stream's message asks the page to fetch its console again.
      const signal = livePartials('judge:', m)!.get('judge-signal')!;
      expect(signal).toContain(`data-version="${v1}"`);
      expect(signal).toContain('hx-get="/judge/console" hx-trigger="load" hx-target="#judge-console" hx-swap="outerMorph"');
    } finally {
      broadcaster.close();
      ledger.close();
    }
  });

  it('is a stream for judges and directors only', async () => {
    const { app, ledger, broadcaster } = copyOf(fixture);
    try {
      const scorekeeper = await send(app, fixture.clients.scorekeeper, 'GET', '/judge/stream', {}, { accept: 'text/event-stream' });
      expect(scorekeeper.status).toBe(403);
      const nobody = await send(app, null, 'GET', '/judge/stream', {}, { accept: 'text/event-stream' });
      expect(nobody.status).toBe(401);
      const console = await send(app, fixture.clients.judge, 'GET', '/judge/console');
      expect(await console.text()).toMatch(/^<section id="judge-console"/);
    } finally {
      broadcaster.close();
      ledger.close();
    }
  });
});

describe('signing in on the way to a staff page', () => {
  it('sends a signed-out browser to sign in with the page it asked for, and back to it after', async () => {
    const { app, ledger, broadcaster } = copyOf(fixture);
    try {
      const html = { accept: 'text/html,application/xhtml+xml' };
      const judge = await send(app, null, 'GET', '/judge', {}, html);
      expect(judge.status).toBe(303);
      expect(judge.headers.get('location')).toBe('/login?next=%2Fjudge');
      const entry = await send(app, null, 'GET', '/entry/tables/t1/1', {}, html);
      expect(entry.headers.get('location')).toBe('/join?next=%2Fentry%2Ftables%2Ft1%2F1');

      // The sign-in form posts to the address it was shown at, and the answer goes back.
      const form = await (await app.request('/login?next=%2Fdirector%2Ftournaments%2Ft1')).text();
      expect(element(form, /<form method="post" class="stack-form login-form"/)).not.toContain('action=');
      const signedIn = await send(app, null, 'POST', '/login?next=%2Fdirector%2Ftournaments%2Ft1', {
        form: { name: 'Dana Director', password: 'director-password' },
      });
      expect(signedIn.status).toBe(303);
      expect(signedIn.headers.get('location')).toBe('/director/tournaments/t1');
      // Only a path on this site is followed.
      const away = await send(app, null, 'POST', '/login?next=%2F%2Fevil.example%2F', { form: { name: 'Dana Director', password: 'director-password' } });
      expect(away.headers.get('location')).toBe('/director');

      // A page that does not exist says so in the site's own page, with the way home.
      const missing = await send(app, fixture.clients.director, 'GET', '/director/tournaments/nope', {}, html);
      expect(missing.status).toBe(404);
      const page = await missing.text();
      expect(page).toContain('Tournament nope does not exist.');
      expect(page).toContain('<a href="/">See every tournament</a>');
      const table = await send(app, fixture.clients.director, 'GET', '/entry/tables/nope/1', {}, html);
      expect(table.status).toBe(404);
      expect(await table.text()).toContain('Tournament nope does not exist.');

      // API clients and streams still get the sentence.
      const api = await send(app, null, 'GET', '/judge', {}, { accept: 'application/json' });
      expect(api.status).toBe(401);
    } finally {
      broadcaster.close();
      ledger.close();
    }
  });
});

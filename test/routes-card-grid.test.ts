/**
 * The card grid and the taps it sends, through HTTP: every card of the deck keeps its place
 * for the whole hand (played ones greyed where they are), each tap says which moment of the hand
 * it was made for and is refused with a sentence once the table has moved on, and the claim
 * form starts from the renege the engine found.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cardName, parseCard } from '../engine/cards.ts';
import { deckFor } from '../engine/deck.ts';
import { resolveRules } from '../engine/rules.ts';
import { legalPlays } from '../engine/trick.ts';
import { handSoFar } from '../events/game-projection.ts';
import type { Ledger } from '../events/store/sqlite/ledger.ts';
import { playCard } from '../server/commands/game-commands.ts';
import { element } from './fixtures/html.ts';
import { type Fixture, bidAll, copyOf, deal, makeFixture, seatMatch, send } from './routes-fixture.ts';

let fixture: Fixture;
beforeAll(async () => {
  fixture = await makeFixture();
});
afterAll(() => fixture?.close());

const SEAT_NAMES = { N: 'North', E: 'East', S: 'South', W: 'West' } as const;

function biddenGame() {
  const made = copyOf(fixture);
  const gameId = seatMatch(made.ledger, fixture.matchId);
  deal(made.ledger, gameId);
  bidAll(made.ledger, gameId);
  return { ...made, gameId };
}

/** The cards of the grid in document order, with whether each can be tapped. */
function grid(html: string): { card: string; open: boolean }[] {
  return [...element(html, /<div\s+class="card-grid"/).matchAll(/<button type="submit" class="card-key[^>]*>/g)].map((m) => ({
    card: /data-card="([^"]+)"/.exec(m[0])![1]!,
    open: !m[0].includes(' disabled=""'),
  }));
}

/** A legal card for the seat to play. */
function legalCard(ledger: Ledger, gameId: string): { seat: 'N' | 'E' | 'S' | 'W'; card: string } {
  const game = ledger.models.games[gameId]!;
  const so = handSoFar(game)!;
  const seat = so.next!;
  const played = new Set(game.current!.plays.flat());
  const hand = game.current!.deal![seat].filter((c) => !played.has(c)).map((c) => parseCard(c)!);
  const last = so.tricks[so.tricks.length - 1];
  const led = last && last.cards.length < 4 ? last.cards[0]! : null;
  return { seat, card: cardName(legalPlays(deckFor(resolveRules(game.rules).options), hand, led, so.tricks.length > 0)[0]!) };
}

describe('the card grid', () => {
  it('holds every card of the deck in the same place all hand long, greying the played ones where they are', async () => {
    const { app, ledger, gameId } = biddenGame();
    try {
      const page = async () => (await send(app, fixture.clients.scorekeeper, 'GET', '/entry/tables/t1/1')).text();
      const before = grid(await page());
      // One row a suit, spades, hearts, clubs, diamonds, ace down to two, then the jokers: every
      // card of the preset's deck, in that order.
      const deck = deckFor(resolveRules(ledger.models.games[gameId]!.rules).options);
      const inDeck = new Set(deck.cards.map(cardName));
      const order = ['S', 'H', 'C', 'D']
        .flatMap((suit) => ['A', 'K', 'Q', 'J', '10', '9', '8', '7', '6', '5', '4', '3', '2'].map((rank) => rank + suit))
        .concat(['BJ', 'LJ']);
      expect(before.map((c) => c.card)).toEqual(order.filter((c) => inDeck.has(c)));
      expect(before).toHaveLength(deck.cards.length);
      // Only the seat to play's own cards can be tapped (the system dealt, so its hand is known).
      const game = ledger.models.games[gameId]!;
      const seat = handSoFar(game)!.next!;
      expect(new Set(before.filter((c) => c.open).map((c) => c.card))).toEqual(new Set(game.current!.deal![seat]));

      for (let i = 0; i < 6; i++) {
        const { seat: s, card } = legalCard(ledger, gameId);
        ledger.execute(playCard(ledger.models, { gameId, seat: s, card }));
      }
      const after = grid(await page());
      // Same cards in the same places; the six played are disabled where they were.
      expect(after.map((c) => c.card)).toEqual(before.map((c) => c.card));
      const played = new Set(ledger.models.games[gameId]!.current!.plays.flat());
      expect(played.size).toBe(6);
      for (const cell of after) if (played.has(cell.card)) expect(cell.open, cell.card).toBe(false);
    } finally {
      ledger.close();
    }
  });

  it('names every card key first by what it shows (WCAG 2.5.3, label in name), then in words', async () => {
    const { app, ledger, gameId } = biddenGame();
    try {
      ledger.execute(playCard(ledger.models, { gameId, ...legalCard(ledger, gameId) }));
      const html = await (await send(app, fixture.clients.scorekeeper, 'GET', '/entry/tables/t1/1')).text();
      const keys = [...element(html, /<div\s+class="card-grid"/).matchAll(/<button type="submit" class="card-key[^>]*>([\s\S]*?)<\/button>/g)].map((m) => ({
        label: /aria-label="([^"]+)"/.exec(m[0])![1]!.replace(/&#39;|&#x27;/g, "'"),
        shown: [...m[1]!.matchAll(/<span class="card-key-(?:rank|suit)"[^>]*>([^<]*)<\/span>/g)].map((s) => s[1]!.trim()).join(''),
      }));
      expect(keys.length).toBeGreaterThanOrEqual(52);
      for (const { label, shown } of keys) expect(label.startsWith(`${shown}, `), `${label} starts with ${shown}`).toBe(true);
      const names = Object.fromEntries(keys.map((k) => [k.shown, k.label]));
      expect(names['K♠']).toMatch(/^K♠, king of spades(, |$)/);
      expect(names['10♥']).toMatch(/^10♥, 10 of hearts(, |$)/);
      expect(keys.filter((k) => k.label.endsWith(', played'))).toHaveLength(1);
    } finally {
      ledger.close();
    }
  });

  it('tells each card’s form the hand and the count of cards it is tapped at', async () => {
    const { app, ledger } = biddenGame();
    try {
      const html = await (await send(app, fixture.clients.scorekeeper, 'GET', '/entry/tables/t1/1')).text();
      const form = element(html, /<form method="post" action="\/entry\/games\/[^"]+\/play"/);
      expect(form).toContain('<input type="hidden" name="hand" value="1"/>');
      expect(form).toContain('<input type="hidden" name="played" value="0"/>');
      expect(form).toContain('data-entry="play"');
      // Every card's form has its own command id.
      const ids = [...html.matchAll(/action="\/entry\/games\/[^"]+\/play"[\s\S]*?name="commandId" value="([^"]+)"/g)].map((m) => m[1]);
      expect(ids).toHaveLength(52);
      expect(new Set(ids).size).toBe(52);
    } finally {
      ledger.close();
    }
  });
});

describe('a tap for a moment that has passed', () => {
  it('is refused with a sentence naming the seat, the card and where the table is, and records nothing', async () => {
    const { app, ledger, gameId } = biddenGame();
    try {
      const first = legalCard(ledger, gameId);
      const ok = await send(app, fixture.clients.scorekeeper, 'POST', `/entry/games/${gameId}/play`, {
        form: { ...first, hand: '1', played: '0', commandId: 'tap-one-aaaa' },
      });
      expect(ok.status).toBe(303);
      const position = ledger.models.position;

      // A second tap made for the same moment (card 1 of the hand), arriving after the first: the
      // next seat's card, tapped as if it were still the first card of the hand.
      const next = legalCard(ledger, gameId);
      const stale = await send(app, fixture.clients.scorekeeper, 'POST', `/entry/games/${gameId}/play`, {
        json: { ...next, hand: 1, played: 0, commandId: 'tap-two-bbbb' },
      });
      expect(stale.status).toBe(409);
      const { error } = (await stale.json()) as { error: string };
      const face = next.card.replace('10', '10').replace(/[SHDC]$/, (s) => ({ S: '♠', H: '♥', D: '♦', C: '♣' })[s]!);
      expect(error).toBe(
        `game ${gameId} hand 1: ${face} was tapped for ${SEAT_NAMES[next.seat]} as card 1 of hand 1 (trick 1), but the table has moved on: ${SEAT_NAMES[next.seat]} is to play card 2 (trick 1). Nothing was recorded; tap the card again if it is still to be entered`,
      );
      expect(ledger.models.position).toBe(position);

      // The phone's panel says the same, in place of the last entry.
      const panel = await send(
        app,
        fixture.clients.scorekeeper,
        'POST',
        `/entry/games/${gameId}/play`,
        { form: { ...next, hand: '1', played: '0', commandId: 'tap-three-cc' } },
        { 'hx-request': 'true' },
      );
      expect(panel.status).toBe(409);
      expect(await panel.text()).toContain('but the table has moved on');

      // A tap for a hand that is over names the hand.
      const old = await send(app, fixture.clients.scorekeeper, 'POST', `/entry/games/${gameId}/play`, {
        json: { ...next, hand: 7, played: 1, commandId: 'tap-four-dddd' },
      });
      expect(old.status).toBe(409);
      expect(((await old.json()) as { error: string }).error).toContain('as card 2 of hand 7 (trick 1), but the table has moved on');

      // Sent for the right moment, it is recorded.
      const right = await send(app, fixture.clients.scorekeeper, 'POST', `/entry/games/${gameId}/play`, {
        json: { ...next, hand: 1, played: 1, commandId: 'tap-five-eeee' },
      });
      expect(right.status).toBe(200);
      expect(ledger.models.games[gameId]!.current!.plays.flat()).toEqual([first.card, next.card]);
    } finally {
      ledger.close();
    }
  });

  it('the same tap sent twice (a double tap, or a retry after a lost answer) is recorded once', async () => {
    const { app, ledger, gameId } = biddenGame();
    try {
      const tap = { ...legalCard(ledger, gameId), hand: '1', played: '0', commandId: 'double-tap-1' };
      const a = await send(app, fixture.clients.scorekeeper, 'POST', `/entry/games/${gameId}/play`, { form: tap }, { 'hx-request': 'true' });
      const b = await send(app, fixture.clients.scorekeeper, 'POST', `/entry/games/${gameId}/play`, { form: tap }, { 'hx-request': 'true' });
      expect(a.status).toBe(200);
      expect(b.status).toBe(200);
      expect(await b.text()).toContain('Already recorded.');
      expect(ledger.models.games[gameId]!.current!.plays.flat()).toEqual([tap.card]);
    } finally {
      ledger.close();
    }
  });
});

describe('the pinned last entry', () => {
  it('writes the last card with its suit symbol and seat name, next to Undo', async () => {
    const { app, ledger, gameId } = biddenGame();
    try {
      const tap = legalCard(ledger, gameId);
      const res = await send(
        app,
        fixture.clients.scorekeeper,
        'POST',
        `/entry/games/${gameId}/play`,
        { form: { ...tap, commandId: 'pinned-one-1' } },
        { 'hx-request': 'true' },
      );
      const html = await res.text();
      const status = element(html, /<div class="entry-status entry-status--pinned"/);
      const face = tap.card.replace(/[SHDC]$/, (s) => ({ S: '♠', H: '♥', D: '♦', C: '♣' })[s]!);
      expect(status).toContain(`${SEAT_NAMES[tap.seat]} played ${face}.`);
      // Written for people: seat names and suit symbols, never "E played KH".
      expect(status).not.toMatch(/\b[NESW] played |\b(10|[2-9AKQJ])[SHDC]\b/);
      expect(status).toContain(`title="Undo ${SEAT_NAMES[tap.seat]}’s ${face}"`);
      expect(status).toContain('data-action="undo"');
      // Loaded afresh, the page shows the same last entry.
      const page = await (await send(app, fixture.clients.scorekeeper, 'GET', '/entry/tables/t1/1')).text();
      expect(element(page, /<p class="notice notice--last"/)).toContain(`${SEAT_NAMES[tap.seat]} played ${face}.`);
    } finally {
      ledger.close();
    }
  });

  it('starts the claim form from the renege the engine found, and flags it at the top', async () => {
    const { app, ledger, gameId } = biddenGame();
    try {
      const game = ledger.models.games[gameId]!;
      const deck = deckFor(resolveRules(game.rules).options);
      for (let i = 0; i < 40; i++) {
        const so = handSoFar(game)!;
        const seat = so.next!;
        const played = new Set(game.current!.plays.flat());
        const hand = game.current!.deal![seat].filter((c) => !played.has(c)).map((c) => parseCard(c)!);
        const last = so.tricks[so.tricks.length - 1];
        const led = last && last.cards.length < 4 ? last.cards[0]! : null;
        const legal = legalPlays(deck, hand, led, true);
        const off = led !== null ? hand.find((c) => !legal.includes(c)) : undefined;
        if (off === undefined) {
          ledger.execute(playCard(ledger.models, { gameId, seat, card: cardName(legal[0]!) }));
          continue;
        }
        const trick = so.tricks.length;
        const res = await send(
          app,
          fixture.clients.scorekeeper,
          'POST',
          `/entry/games/${gameId}/play`,
          { form: { seat, card: cardName(off), commandId: 'renege-tap-1' } },
          { 'hx-request': 'true' },
        );
        const html = await res.text();
        expect(element(html, /<div class="entry-status/)).toContain(`Flagged: ${SEAT_NAMES[seat]}’s`);
        const claim = element(html, /<form method="post" action="[^"]+\/claims\/renege"/);
        expect(claim).toContain(`<option value="${seat}" selected="">${SEAT_NAMES[seat]}</option>`);
        expect(claim).toContain(`<option value="${trick}" selected="">${trick}</option>`);
        expect(claim).toContain('<option value="1" selected="">1</option>');
        expect(html).toMatch(/<details class="entry-step claims" open="">/);
        return;
      }
      throw new Error('no chance to renege came up in this deal');
    } finally {
      ledger.close();
    }
  });
});

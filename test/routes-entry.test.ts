/**
 * Table entry through HTTP: what the panel offers, a double tap recorded once, undo as a
 * compensating event, flagged plays, misdeals, and refusals that name the seat, the card and the
 * rule both in the page and in the API's 4xx body.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bidValue } from '../engine/bid.ts';
import { parseCard } from '../engine/cards.ts';
import { deckFor } from '../engine/deck.ts';
import { resolveRules } from '../engine/rules.ts';
import { legalPlays } from '../engine/trick.ts';
import { handSoFar } from '../events/game-projection.ts';
import type { Ledger } from '../events/store/sqlite/ledger.ts';
import { nextBidder } from '../events/game-projection.ts';
import { bidsOpenTo } from '../server/commands/game-commands.ts';
import { phoneWords } from '../server/entry/entry-game.ts';
import { type Fixture, bidAll, copyOf, deal, makeFixture, seatMatch, send } from './routes-fixture.ts';
import { cardText } from '../engine/card-names.ts';

let fixture: Fixture;
beforeAll(async () => {
  fixture = await makeFixture();
});
afterAll(() => fixture?.close());

function dealtGame() {
  const made = copyOf(fixture);
  const gameId = seatMatch(made.ledger, fixture.matchId);
  deal(made.ledger, gameId);
  return { ...made, gameId };
}

const htmx = { 'hx-request': 'true' };

describe('the scorekeeper’s panel', () => {
  it('offers only the bids the preset leaves open to the seat whose turn it is', async () => {
    const { app, ledger, gameId } = dealtGame();
    const game = ledger.models.games[gameId]!;
    const seat = nextBidder(game)!;
    const res = await send(app, fixture.clients.scorekeeper, 'GET', '/entry/tables/t1/1');
    const html = await res.text();
    expect(res.status).toBe(200);
    expect(html).toContain(`data-turn="${seat}"`);
    const offered = [...html.matchAll(/data-bid="([^"]+)"/g)].map((m) => m[1]);
    expect(offered).toEqual(bidsOpenTo(game, seat).map((b) => String(bidValue(b))));
    // unc-300 has no blind bids: none is offered.
    expect(offered.some((b) => b!.startsWith('blind 1'))).toBe(false);
    ledger.close();
  });

  it('shows the cards the seat to play still holds, marking the ones that break a rule', async () => {
    const { app, ledger, gameId } = dealtGame();
    bidAll(ledger, gameId);
    const game = ledger.models.games[gameId]!;
    const so = handSoFar(game)!;
    const html = await (await send(app, fixture.clients.scorekeeper, 'GET', '/entry/tables/t1/1')).text();
    const shown = [...html.matchAll(/data-card="([^"]+)"/g)].map((m) => m[1]).filter((c, i, all) => all.indexOf(c) === i);
    expect(new Set(shown.filter((c) => game.current!.deal![so.next!].includes(c!)))).toEqual(new Set(game.current!.deal![so.next!]));
    ledger.close();
  });
});

describe('entries', () => {
  it('a double tap of the same form records the bid once', async () => {
    const { app, ledger, gameId } = dealtGame();
    const seat = nextBidder(ledger.models.games[gameId]!)!;
    const form = { seat, bid: '3', commandId: 'tap-0123456789' };
    const first = await send(app, fixture.clients.scorekeeper, 'POST', `/entry/games/${gameId}/bid`, { form }, htmx);
    const head = ledger.store.head().position;
    const second = await send(app, fixture.clients.scorekeeper, 'POST', `/entry/games/${gameId}/bid`, { form }, htmx);
    expect(first.status).toBe(200);
    expect(second.status).toBe(200);
    expect(await second.text()).toContain('Already recorded.');
    expect(ledger.store.head().position).toBe(head);
    expect(Object.keys(ledger.models.games[gameId]!.current!.bids)).toEqual([seat]);
    ledger.close();
  });

  it('a command id sent again with another entry is a 409 naming the clash, and records nothing', async () => {
    const { app, ledger, gameId } = dealtGame();
    const game = ledger.models.games[gameId]!;
    const seat = nextBidder(game)!;
    const open = bidsOpenTo(game, seat)
      .map(bidValue)
      .filter((b) => typeof b === 'number');
    const id = 'tap-reused-0001';
    expect((await send(app, fixture.clients.scorekeeper, 'POST', `/entry/games/${gameId}/bid`, { json: { seat, bid: open[0], commandId: id } })).status).toBe(
      200,
    );
    const head = ledger.store.head().position;
    // The same id for the next seat's bid: not the same entry, so not "already recorded".
    const next = nextBidder(ledger.models.games[gameId]!)!;
    const clash = await send(app, fixture.clients.scorekeeper, 'POST', `/entry/games/${gameId}/bid`, { json: { seat: next, bid: 4, commandId: id } });
    expect(clash.status).toBe(409);
    expect(((await clash.json()) as { error: string }).error).toBe(
      `command id bid:${id} was already used for another entry on game-${gameId} (at position ${head}; this request asks for something else), so it cannot record this one`,
    );
    expect(ledger.store.head().position).toBe(head);
    ledger.close();
  });

  it('a deal from the system shuffle sent twice with one id is recorded once, though each try draws a new seed', async () => {
    const made = copyOf(fixture);
    const gameId = seatMatch(made.ledger, fixture.matchId);
    const form = { shuffle: 'system', commandId: 'deal-tap-000001' };
    const first = await send(made.app, fixture.clients.scorekeeper, 'POST', `/entry/games/${gameId}/deal`, { json: form });
    const head = made.ledger.store.head().position;
    const again = await send(made.app, fixture.clients.scorekeeper, 'POST', `/entry/games/${gameId}/deal`, { json: form });
    expect([first.status, again.status]).toEqual([200, 200]);
    expect(await again.json()).toMatchObject({ duplicate: true, done: 'Already recorded.' });
    expect(made.ledger.store.head().position).toBe(head);
    made.ledger.close();
  });

  it('undo takes back the last card with a compensating event, and refuses once a claim follows', async () => {
    const { app, ledger, gameId } = dealtGame();
    bidAll(ledger, gameId);
    const game = ledger.models.games[gameId]!;
    const seat = handSoFar(game)!.next!;
    const card = game.current!.deal![seat][0]!;
    expect((await send(app, fixture.clients.scorekeeper, 'POST', `/entry/games/${gameId}/play`, { json: { seat, card } })).status).toBe(200);
    const undo = await send(app, fixture.clients.scorekeeper, 'POST', `/entry/games/${gameId}/undo`, { json: {} });
    expect(await undo.json()).toMatchObject({ ok: true, done: `Took back ${{ N: 'North', E: 'East', S: 'South', W: 'West' }[seat]}’s ${cardText(card)}.` });
    expect(game.current!.plays).toEqual([]);
    const types = ledger.store.readAll({ after: ledger.store.head().position - 2 }).map((e) => e.type);
    expect(types).toEqual(['CardPlayed', 'EntryUndone']);
    // A claim after the last entry: the undo is for a judge now.
    await send(app, fixture.clients.scorekeeper, 'POST', `/entry/games/${gameId}/bid`, { json: {} });
    await send(app, fixture.clients.scorekeeper, 'POST', `/entry/games/${gameId}/claims/renege`, { json: { seat: 'E', trick: 1 } });
    const refused = await send(app, fixture.clients.scorekeeper, 'POST', `/entry/games/${gameId}/undo`, { json: {} });
    expect(refused.status).toBe(409);
    expect(((await refused.json()) as { error: string }).error).toBe(
      `game ${gameId}: the last thing recorded is a renege claim (against E); undo takes back only a bid, a card, tricks or a misdeal — ask a judge`,
    );
    ledger.close();
  });

  it('a card that breaks a rule is recorded and flagged', async () => {
    const { app, ledger, gameId } = dealtGame();
    bidAll(ledger, gameId);
    const game = ledger.models.games[gameId]!;
    const deck = deckFor(resolveRules(game.rules).options);
    // Lead, then find a follower holding the led suit and play something else from their hand.
    for (let i = 0; i < 40; i++) {
      const so = handSoFar(game)!;
      const seat = so.next!;
      const played = new Set(game.current!.plays.flat());
      const hand = game.current!.deal![seat].filter((c) => !played.has(c)).map((c) => parseCard(c)!);
      const last = so.tricks[so.tricks.length - 1];
      const led = last && last.cards.length < 4 ? last.cards[0]! : null;
      const legal = legalPlays(deck, hand, led, true);
      const breaking = led !== null ? hand.find((c) => !legal.includes(c)) : undefined;
      if (breaking !== undefined) {
        const { cardName } = await import('../engine/cards.ts');
        const res = await send(app, fixture.clients.scorekeeper, 'POST', `/entry/games/${gameId}/play`, { json: { seat, card: cardName(breaking) } });
        const body = (await res.json()) as { ok: boolean; flagged: string };
        expect(res.status).toBe(200);
        const seatName = { N: 'North', E: 'East', S: 'South', W: 'West' }[seat];
        expect(body.flagged).toMatch(new RegExp(`${cardText(cardName(breaking))} at trick \\d+ is a renege: ${seatName} held the suit led`));
        ledger.close();
        return;
      }
      const { cardName } = await import('../engine/cards.ts');
      await send(app, fixture.clients.scorekeeper, 'POST', `/entry/games/${gameId}/play`, { json: { seat, card: cardName(legal[0]!) } });
    }
    throw new Error('no chance to renege came up in this deal');
  });

  it('a misdeal takes one of the preset’s reasons, and names them when given another', async () => {
    const { app, ledger, gameId } = dealtGame();
    // The phone offers each reason in the rules sheet's words.
    const phone = await (await send(app, fixture.clients.scorekeeper, 'GET', '/entry/tables/t1/1')).text();
    expect(phone).toContain('<option value="no-face-cards">a hand with no face card (J, Q, K), called before the bidding</option>');
    expect(phone).toContain('<option value="wrong-card-count">a player not dealt 13 cards</option>');
    const bad = await send(app, fixture.clients.scorekeeper, 'POST', `/entry/games/${gameId}/claims/misdeal`, { json: { reason: 'bored' } });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: string }).error).toBe(
      `game ${gameId} hand 1: 'bored' is not a misdeal under this event’s rules; a misdeal is called for a hand with no face card (J, Q, K), called before the bidding; or a hand with no trump, called before the bidding; or a player not dealt 13 cards; or a player telling the partner which cards are held, during the bidding`,
    );
    const ok = await send(app, fixture.clients.scorekeeper, 'POST', `/entry/games/${gameId}/claims/misdeal`, { json: { reason: 'no-face-cards' } });
    expect(ok.status).toBe(200);
    expect(ledger.models.games[gameId]!.rows[0]!.misdeal).toBe('no-face-cards');
    // The table's score pad notes it in the same words.
    const table = await (await app.request(`/tournaments/t1/games/${gameId}`)).text();
    expect(table).toContain('Misdeal: a hand with no face card (J, Q, K), called before the bidding');
    ledger.close();
  });
});

describe('refusals name what was wrong, in the page and in the API', () => {
  async function both(app: ReturnType<typeof copyOf>['app'], path: string, body: Record<string, string>) {
    const api = await send(app, fixture.clients.scorekeeper, 'POST', path, { json: body });
    const page = await send(app, fixture.clients.scorekeeper, 'POST', path, { form: body }, htmx);
    const plain = await send(app, fixture.clients.scorekeeper, 'POST', path, { form: body });
    return {
      api: { status: api.status, error: ((await api.json()) as { error: string }).error },
      page: { status: page.status, html: await page.text() },
      plain: { status: plain.status, html: await plain.text() },
    };
  }

  function expectSaid(result: Awaited<ReturnType<typeof both>>, status: number, sentence: string) {
    expect(result.api).toEqual({ status, error: sentence });
    // The phone shows the same refusal in the table's words: no game id, seats by name, what to do.
    const shown = phoneWords(sentence);
    expect(shown).not.toMatch(/\bgame t\d/);
    for (const answer of [result.page, result.plain]) {
      expect(answer.status).toBe(status);
      const escaped = shown.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/'/g, '&#39;').replace(/"/g, '&quot;');
      expect(answer.html).toContain(escaped);
      expect(answer.html).toContain('data-refusal');
    }
  }

  it('the wrong seat bidding names whose turn it is', async () => {
    const { app, ledger, gameId } = dealtGame();
    const next = nextBidder(ledger.models.games[gameId]!)!;
    const wrong = next === 'N' ? 'S' : 'N';
    expectSaid(
      await both(app, `/entry/games/${gameId}/bid`, { seat: wrong, bid: '3' }),
      409,
      `game ${gameId} hand 1: it is ${next}'s turn to bid, not ${wrong}'s`,
    );
    ledger.close();
  });

  it('a bid the preset forbids names the seat and the rule', async () => {
    const { app, ledger, gameId } = dealtGame();
    const seat = nextBidder(ledger.models.games[gameId]!)!;
    const result = await both(app, `/entry/games/${gameId}/bid`, { seat, bid: 'blind 7' });
    expect(result.api.status).toBe(400);
    expect(result.api.error).toMatch(new RegExp(`^game ${gameId} hand 1: ${seat} bid blind 7; there are no blind bids under this event’s rules$`));
    expectSaid(result, 400, result.api.error);
    ledger.close();
  });

  it('a card the seat was not dealt names the seat and the card', async () => {
    const { app, ledger, gameId } = dealtGame();
    bidAll(ledger, gameId);
    const game = ledger.models.games[gameId]!;
    const seat = handSoFar(game)!.next!;
    const other = game.current!.deal![seat === 'N' ? 'E' : 'N'][0]!;
    expectSaid(await both(app, `/entry/games/${gameId}/play`, { seat, card: other }), 400, `game ${gameId} hand 1: ${seat} was not dealt ${other}`);
    ledger.close();
  });

  it('a card not in the preset’s deck is named', async () => {
    const { app, ledger, gameId } = dealtGame();
    bidAll(ledger, gameId);
    const seat = handSoFar(ledger.models.games[gameId]!)!.next!;
    expectSaid(await both(app, `/entry/games/${gameId}/play`, { seat, card: '2H' }), 400, `game ${gameId} hand 1: 2H is not a card of this deck`);
    ledger.close();
  });

  it('tricks that do not add up to 13 say what they add up to', async () => {
    const { app, ledger, gameId } = dealtGame();
    bidAll(ledger, gameId);
    expectSaid(
      await both(app, `/entry/games/${gameId}/tricks`, { N: '4', E: '4', S: '4', W: '4' }),
      400,
      `game ${gameId} hand 1: tricks add up to 16; a hand has 13`,
    );
    ledger.close();
  });

  it('the wrong dealer is named against the rotation', async () => {
    const made = copyOf(fixture);
    const gameId = seatMatch(made.ledger, fixture.matchId);
    expectSaid(
      await both(made.app, `/entry/games/${gameId}/deal`, { dealer: 'W', shuffle: 'table' }),
      409,
      `game ${gameId} hand 1: N deals this hand by the rotation of the deal, not W`,
    );
    made.ledger.close();
  });

  it('the scorekeeper of another table is told which table is theirs', async () => {
    const { app, ledger, gameId } = dealtGame();
    const res = await send(app, fixture.clients['other-scorekeeper'], 'POST', `/entry/games/${gameId}/bid`, { json: { seat: 'E', bid: 3 } });
    expect(res.status).toBe(403);
    expect(((await res.json()) as { error: string }).error).toBe('you keep score at table 2; table 1 is another table’s to record');
    ledger.close();
  });
});

export type { Ledger };

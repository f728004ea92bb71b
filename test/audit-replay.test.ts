/**
 * The replay page, in process: every hand linked from its table, each step read from the ledger
 * (positions and hashes as stored), the hands shrinking trick by trick, reneges marked where
 * the plays show them, claims with their rulings' effect, and the hand's score at the end.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Seat } from '../engine/cards.ts';
import type { GameModel } from '../events/read-models.ts';
import { createApp } from '../server/app/app.ts';
import { undoLastEntry } from '../server/commands/game-commands.ts';
import { driveTables } from '../server/serve/table-driver.ts';
import { type AuditLedger, playTournament, signedInAsJudge, tempLedger } from './fixtures/audit-ledger.ts';
import { fullGameRecord } from './record-builders.ts';
import { attrValues, element } from './fixtures/html.ts';

let fixture: AuditLedger;
let app: ReturnType<typeof createApp>['app'];
let judge: Record<string, string>;
let games: GameModel[];

beforeAll(async () => {
  fixture = tempLedger();
  await playTournament(fixture.ledger, { renegeChance: 0.05 });
  const created = createApp({ ledger: fixture.ledger });
  app = created.app;
  judge = await signedInAsJudge(app, created.auth.users);
  games = Object.values(fixture.ledger.models.games);
});
afterAll(() => fixture.remove());

async function page(url: string): Promise<{ status: number; html: string }> {
  const res = await app.request(url);
  return { status: res.status, html: await res.text() };
}

const replayUrl = (gameId: string, hand: number, step?: number) => `/games/${gameId}/hands/${hand}/replay${step === undefined ? '' : `?step=${step}`}`;

/** The stored row at a position, read by position. */
function stored(position: number) {
  return fixture.ledger.store.readAll({ after: position - 1, limit: 1 })[0]!;
}

describe('links to the replay', () => {
  it('every hand row of every table page links to its replay, and each link answers', async () => {
    let links = 0;
    for (const game of games) {
      const { html } = await page(`/tournaments/t1/games/${game.gameId}`);
      const hrefs = attrValues(element(html, /<table class="pad"/), 'href');
      expect(hrefs).toEqual(game.rows.map((row) => replayUrl(game.gameId, row.number)));
      for (const href of hrefs) {
        expect((await page(href)).status).toBe(200);
        links++;
      }
    }
    expect(links).toBeGreaterThan(4);
  });
});

describe('a played hand, step by step', () => {
  // The first hand the plays show a renege in.
  const pick = () => {
    for (const game of games) for (const row of game.rows) if (row.reneges.length > 0 && game.hands[row.number - 1]!.plays) return { game, row };
    throw new Error('no renege in the fixture');
  };

  it('step 0 shows all four dealt hands and the bids in the order made, each with its ledger entry', async () => {
    const { game, row } = pick();
    const { status, html } = await page(replayUrl(game.gameId, row.number));
    expect(status).toBe(200);
    const deal = game.hands[row.number - 1]!.deal!;
    for (const seat of ['N', 'E', 'S', 'W'] as Seat[]) {
      const seatHtml = element(html, new RegExp(`<div class="seat seat--${seat}\\b`));
      expect(attrValues(seatHtml, 'data-card').sort()).toEqual([...deal[seat]].sort());
    }
    const bids = fixture.ledger.store
      .readStream(`game-${game.gameId}`)
      .filter((e) => e.type === 'BidMade' && (e.payload as { hand: number }).hand === row.number);
    expect(attrValues(html, 'data-bid')).toEqual(bids.map((e) => (e.payload as { seat: string }).seat));
    const refs = element(html, /<table class="pad" id="replay-refs"/);
    const positions = attrValues(refs, 'data-position').map(Number);
    expect(positions.slice(1)).toEqual(bids.map((e) => e.position));
    expect(stored(positions[0]!).type).toBe('HandDealt');
    for (const position of positions) expect(refs).toContain(`<code class="hash" title="${stored(position).hash}">${stored(position).hash}</code>`);
    expect(html).toContain('<script src="/static/replay.js" defer=""></script>');
  });

  it('each trick step shows its four cards as played, from the positions and hashes stored, the hands one card shorter, and the running counts', async () => {
    const { game, row } = pick();
    let previous = 0;
    for (let step = 1; step <= 13; step++) {
      const { status, html } = await page(replayUrl(game.gameId, row.number, step));
      expect(status).toBe(200);
      expect(attrValues(html, 'data-step')).toEqual([String(step)]);
      const trickCards = attrValues(element(html, /<ol class="trick-cards"/), 'data-card');
      expect(trickCards).toEqual(game.hands[row.number - 1]!.plays![step - 1]);
      const positions = attrValues(element(html, /<table class="pad" id="replay-refs"/), 'data-position').map(Number);
      const cards = positions.map(stored).filter((e) => e.type === 'CardPlayed');
      expect(cards.map((e) => (e.payload as { card: string }).card)).toEqual(trickCards);
      expect(cards[0]!.position).toBeGreaterThan(previous);
      previous = cards[3]!.position;
      for (const e of cards)
        expect(html).toContain(`<code class="hash" title="${e.hash}">${e.hash}</code> <button type="button" class="copy-hash" data-copy="${e.hash}"`);
      expect(attrValues(html, 'data-holding')).toEqual(['N', 'E', 'S', 'W'].map(() => String(13 - step)));
      if (step === 13) {
        const team = (t: 'NS' | 'EW') => element(html, new RegExp(`<div data-team-tricks="${t}"`));
        const tricks = row.tricks!;
        expect(team('NS')).toContain(`<dd>${tricks.N + tricks.S} `);
        expect(team('EW')).toContain(`<dd>${tricks.E + tricks.W} `);
      }
    }
  });

  it('marks each renege at the trick the plays show it, and nowhere else', async () => {
    const { game, row } = pick();
    for (let step = 0; step <= 13; step++) {
      const { html } = await page(replayUrl(game.gameId, row.number, step));
      const expected = row.reneges.filter((r) => r.trick === step).map((r) => r.seat);
      const trick = step === 0 ? '' : element(html, /<ol class="trick-cards"/);
      const marked = [...trick.matchAll(/data-seat="([NESW])" data-violation="renege"/g)].map((m) => m[1]);
      expect(marked.sort(), `step ${step}`).toEqual([...expected].sort());
      // Each mark names the card in words, as the cards are shown, never by its record code.
      const notices = [...html.matchAll(/data-mark="renege">([^<]*)</g)].map((m) => m[1]!);
      expect(notices, `step ${step}`).toHaveLength(expected.length);
      for (const notice of notices) expect(notice).toMatch(/^Renege: \w+ played ((10|[2-9AKQJ])[♠♥♦♣]|(big|little) joker) without following/);
    }
  });

  it('shows each claim at its trick with the ruling and its effect on the hand, and the hand score at the last step', async () => {
    let rejected = 0;
    let upheld = 0;
    for (const game of games) {
      for (const claim of game.claims) {
        const hand = game.hands[claim.hand - 1];
        if (!hand?.plays || claim.trick === null) continue;
        const { html } = await page(replayUrl(game.gameId, claim.hand, claim.trick));
        const claims = element(html, /<section aria-labelledby="replay-claims"/);
        const positions = attrValues(element(html, /<table class="pad" id="replay-refs"/), 'data-position').map(Number);
        expect(positions).toContain(claim.position);
        expect(positions).toContain(claim.ruling!.position);
        if (claim.ruling!.upheld) {
          upheld++;
          expect(claims).toContain('Ruling by Judge Ruth: upheld (seen by both tables).');
        } else {
          rejected++;
          // A rejected claim changes nothing.
          expect(claims).toMatch(/Ruling by Judge Ruth: rejected \(not proven\)\. Effect on the hand&#39;s points: Team \d 0, Team \d 0\./);
        }
      }
    }
    expect(upheld).toBeGreaterThan(0);
    expect(rejected).toBeGreaterThan(0);
  });

  it('the last step shows the hand score as the score pad has it', async () => {
    for (const game of games) {
      const row = game.rows[game.rows.length - 1]!;
      const { html } = await page(replayUrl(game.gameId, row.number, 13));
      const score = element(html, /<table class="pad" id="hand-score"/);
      expect(attrValues(score, 'data-points').map(Number)).toEqual([row.NS.points, row.EW.points]);
      expect(attrValues(score, 'data-score').map(Number)).toEqual([row.NS.score, row.EW.score]);
    }
  });

  it('steps link back and forth, so the page works without scripts', async () => {
    const { game, row } = pick();
    const first = await page(replayUrl(game.gameId, row.number, 0));
    expect(first.html).toContain(`href="${replayUrl(game.gameId, row.number, 1)}" rel="next"`);
    expect(first.html).not.toContain('rel="prev"');
    const last = await page(replayUrl(game.gameId, row.number, 13));
    expect(last.html).toContain(`href="${replayUrl(game.gameId, row.number, 12)}" rel="prev"`);
    expect(last.html).not.toContain('rel="next"');
  });

  it('is CSP-safe: no inline scripts or styles, and the script is served', async () => {
    const { game, row } = pick();
    const { html } = await page(replayUrl(game.gameId, row.number, 5));
    expect(html).not.toMatch(/\sstyle=|<style[\s>]|\son[a-z]+=/i);
    for (const m of html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)) expect([m[1]!.includes(' src="'), m[2]]).toEqual([true, '']);
    const script = await app.request('/static/replay.js');
    expect(script.status).toBe(200);
    expect(script.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
  });
});

describe('an entry taken back at the table', () => {
  it('is left out of the steps, and listed with its undoing at the last step', async () => {
    // given a hand in which the scorekeeper took back an entry and entered it again
    const l = tempLedger();
    try {
      await playTournament(l.ledger, { renegeChance: 0, stopAt: 30 });
      const game = Object.values(l.ledger.models.games)[0]!;
      const [undo] = l.ledger.execute(undoLastEntry(l.ledger.models, { gameId: game.gameId }));
      const undonePosition = (undo!.events[0]!.payload as { undone: number }).undone;
      const undoPosition = undo!.positions[0]!;
      while (game.hands.length === 0) await driveTables(l.ledger, { tournamentId: 't1', seed: 'audit' });
      const local = createApp({ ledger: l.ledger }).app;
      // when the hand is replayed step by step
      const positionsAt = async (step: number) => {
        const html = await (await local.request(replayUrl(game.gameId, 1, step))).text();
        return { html, positions: attrValues(element(html, /<table class="pad" id="replay-refs"/), 'data-position').map(Number) };
      };
      // then no step before the last reads the undone entry, and every card shown is the model's
      for (let step = 0; step < 13; step++) {
        const { html, positions } = await positionsAt(step);
        expect(positions).not.toContain(undonePosition);
        if (step > 0) expect(attrValues(element(html, /<ol class="trick-cards"/), 'data-card')).toEqual(game.hands[0]!.plays![step - 1]);
      }
      const last = await positionsAt(13);
      expect(last.positions).toEqual(expect.arrayContaining([undonePosition, undoPosition]));
      expect(attrValues(last.html, 'data-taken-back')).toEqual(['1']);
    } finally {
      l.remove();
    }
  });
});

describe('the replay and the game projection', () => {
  it('takes back only what the projection takes back: an undo naming an entry that is not the last leaves it in the hand', async () => {
    // given a ledger written by something else, whose undo names the hand's first card while later cards follow it
    const l = tempLedger();
    try {
      await playTournament(l.ledger, { renegeChance: 0, stopAt: 30 });
      const game = Object.values(l.ledger.models.games).find((g) => (g.current?.plays.flat().length ?? 0) >= 2)!;
      expect(game).toBeDefined();
      const first = game.current!.playPositions[0]![0]!;
      l.ledger.execute({
        stream: `game-${game.gameId}`,
        events: [{ type: 'EntryUndone', payload: { gameId: game.gameId, hand: game.current!.number, undone: first, entry: 'CardPlayed' } }],
      });
      const hand = game.current!.number;
      while (game.hands.length < hand) await driveTables(l.ledger, { tournamentId: 't1', seed: 'audit' });
      const local = createApp({ ledger: l.ledger }).app;
      // when the hand is replayed, then every trick is the one the score was counted from, its first card included
      const trick1 = await (await local.request(replayUrl(game.gameId, hand, 1))).text();
      expect(attrValues(element(trick1, /<ol class="trick-cards"/), 'data-card')).toEqual(game.hands[hand - 1]!.plays![0]);
      expect(attrValues(element(trick1, /<table class="pad" id="replay-refs"/), 'data-position').map(Number)).toContain(first);
      for (let step = 2; step <= 13; step++) {
        const html = await (await local.request(replayUrl(game.gameId, hand, step))).text();
        expect(attrValues(element(html, /<ol class="trick-cards"/), 'data-card')).toEqual(game.hands[hand - 1]!.plays![step - 1]);
      }
      // and nothing is listed as taken back
      expect(attrValues(await (await local.request(replayUrl(game.gameId, hand, 13))).text(), 'data-taken-back')).toEqual([]);
    } finally {
      l.remove();
    }
  });
});

describe('hands without cards, and bad addresses', () => {
  it('a misdeal is one step, a hand recorded by tricks is two, from a game entered from paper', async () => {
    const res = await app.request('/api/games/import', {
      method: 'POST',
      headers: judge,
      body: JSON.stringify({ record: fullGameRecord(), gameId: 'paper-replay' }),
    });
    expect(res.status).toBe(201);
    const misdeal = await page(replayUrl('paper-replay', 2));
    // The reason in words, as the rules sheet says it, never its id.
    expect(misdeal.html).toContain('Misdeal: a hand with no face card (J, Q, K), called before the bidding.');
    expect(misdeal.html).not.toContain('no-face-cards');
    expect(attrValues(misdeal.html, 'data-steps')).toEqual(['1']);
    const counted = await page(replayUrl('paper-replay', 3, 1));
    expect(attrValues(counted.html, 'data-steps')).toEqual(['2']);
    expect(counted.html).toContain('The cards of this hand were not recorded');
    expect(element(counted.html, /<div data-team-tricks="NS"/)).toContain('<dd>6 ');
    // The first hand: a renege by W at trick 2, upheld, costs EW points.
    const renege = await page(replayUrl('paper-replay', 1, 2));
    expect(element(renege.html, /<ol class="trick-cards"/)).toContain('data-seat="W" data-violation="renege"');
    expect(element(renege.html, /<section aria-labelledby="replay-claims"/)).toMatch(
      /Ruling by paper record: upheld .*Effect on the hand&#39;s points: NS \+\d+, EW -\d+\./,
    );
  });

  it('answers 404 or 400 with a sentence naming what was wrong', async () => {
    const game = games[0]!;
    const cases: [string, number, string][] = [
      ['/games/nope/hands/1/replay', 404, 'game nope does not exist'],
      [`/games/${game.gameId}/hands/0/replay`, 400, `game ${game.gameId}: hand must be a hand number from 1, not '0'`],
      [`/games/${game.gameId}/hands/99/replay`, 404, `game ${game.gameId} has no hand 99; it has ${game.hands.length} hands so far`],
      [`/games/${game.gameId}/hands/1/replay?step=14`, 400, `game ${game.gameId} hand 1: step must be a whole number from 0 to 13, not '14'`],
      [`/games/${game.gameId}/hands/1/replay?step=x`, 400, `game ${game.gameId} hand 1: step must be a whole number from 0 to 13, not 'x'`],
    ];
    for (const [url, status, sentence] of cases) {
      const res = await page(url);
      expect([url, res.status]).toEqual([url, status]);
      expect(res.html).toContain(sentence.replace(/'/g, '&#39;'));
    }
  });
});

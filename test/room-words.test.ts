/**
 * The room hears the event's rules in words: a refusal at the table or the judge's console says
 * "this event’s rules", never the id of the rulebook preset they started from; a misdeal is
 * named as the rules sheet names it; an event that counts no bags speaks of none.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { PRESET_IDS } from '../engine/presets.ts';
import type { FormatId, FormatOptions } from '../engine/formats.ts';
import { nextBidder } from '../events/game-projection.ts';
import { createApp } from '../server/app/app.ts';
import { dealHand, makeBid, recordTricks } from '../server/commands/game-commands.ts';
import { createTournament, registerTeam, startTournament } from '../server/commands/tournament-commands.ts';
import { startMatch } from '../server/commands/match-commands.ts';
import { open, send } from './routes-fixture.ts';

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

/** An event of two teams with its one match seated at table 1 and the first hand dealt. */
async function seatedEvent(format: FormatId, options: Partial<FormatOptions>) {
  const dir = mkdtempSync(join(tmpdir(), 'spades-room-words-'));
  dirs.push(dir);
  const ledger = open(join(dir, 'ledger.db'));
  const m = ledger.models;
  ledger.execute(createTournament(m, { tournamentId: 'flyer', name: 'Block Party', format, options }));
  ['Aces', 'Kings'].forEach((name, i) =>
    ledger.execute(registerTeam(m, { tournamentId: 'flyer', teamId: `team-${i + 1}`, name, players: [`${name} One`, `${name} Two`] })),
  );
  ledger.execute(startTournament(m, { tournamentId: 'flyer', order: ['team-1', 'team-2'] }));
  const match = m.tournaments.flyer!.model.matches.find((x) => x.status === 'ready')!;
  const draw =
    format === 'asher-theatre'
      ? { method: 'coin-toss' as const, caller: 'team-1', call: 'heads' as const, toss: 'heads' as const, choice: 'N' as const }
      : { method: 'high-card' as const, rounds: [{ N: 'AS', E: 'KS', S: 'QS', W: 'JS' }] };
  ledger.execute(startMatch(m, { tournamentId: 'flyer', matchId: match.matchId, table: 1, at: '2026-03-01T10:00:00.000Z', draw }));
  const gameId = m.tournaments.flyer!.model.matches.find((x) => x.matchId === match.matchId)!.games[0]!;
  ledger.execute(dealHand(m, { gameId, seed: 'room-words' }));
  const { app, auth } = createApp({ ledger });
  await auth.users.add('Jo Judge', 'judge', 'judge-password');
  await auth.users.add('Dee Director', 'director', 'director-password');
  const login = async (body: Record<string, string>, path: string) => {
    const res = await app.request(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    return { cookie: (res.headers.get('set-cookie') ?? '').split(';')[0]!, csrf: ((await res.json()) as { csrf: string }).csrf };
  };
  const scorekeeper = await login({ code: await auth.tableCode('flyer', 1) }, '/join');
  const judge = await login({ name: 'Jo Judge', password: 'judge-password' }, '/login');
  return { ledger, app, gameId, scorekeeper, judge };
}

/** A page's text, without its tags and attributes. */
const words = (html: string) => html.replace(/<[^>]*>/g, ' ');
// `standard` is also the word a page says "a standard game" with: only the ids no sentence uses are looked for.
const NAMED_BY_ID = PRESET_IDS.filter((id) => id !== 'standard');
const presetIn = (text: string) => NAMED_BY_ID.find((id) => text.includes(id)) ?? null;

describe('a refusal at the table names the event’s rules, not a preset', () => {
  const flyerRules = { preset: 'unc-300', blindBid: { deficit: 100, strict: false, minimumTeam: 4 } };

  it('a blind bid while level: "this event’s rules allow a blind bid only for a team down 100 or more", on the phone and in the API', async () => {
    const { ledger, app, gameId, scorekeeper } = await seatedEvent('unc-intramural', { rules: flyerRules, finalRules: flyerRules });
    const seat = nextBidder(ledger.models.games[gameId]!)!;
    const api = await send(app, scorekeeper, 'POST', `/entry/games/${gameId}/bid`, { json: { seat, bid: 'blind 5' } });
    expect(api.status).toBe(400);
    const error = ((await api.json()) as { error: string }).error;
    expect(error).toMatch(/this event’s rules allow a blind bid only for a team down 100 or more$/);
    const phone = await (
      await send(app, scorekeeper, 'POST', `/entry/games/${gameId}/bid`, { form: { seat, bid: 'blind 5' } }, { 'hx-request': 'true' })
    ).text();
    expect(phone).toContain('this event’s rules allow a blind bid only for a team down 100 or more');
    expect(presetIn(error)).toBeNull();
    expect(presetIn(phone)).toBeNull();
    ledger.close();
  });

  it('a misdeal for a reason the rules do not have is refused in the rules sheet’s words, and the judge reads misdeals in words', async () => {
    const { ledger, app, gameId, scorekeeper, judge } = await seatedEvent('unc-intramural', { rules: flyerRules, finalRules: flyerRules });
    const bad = await send(app, scorekeeper, 'POST', `/entry/games/${gameId}/claims/misdeal`, { json: { reason: 'card-exposed' } });
    expect(bad.status).toBe(400);
    const error = ((await bad.json()) as { error: string }).error;
    expect(error).toContain(
      'a card exposed during the deal is not a misdeal under this event’s rules; a misdeal is called for a hand with no face card (J, Q, K)',
    );
    expect(error).not.toMatch(/no-face-cards|card-exposed|unc-300/);
    expect((await send(app, scorekeeper, 'POST', `/entry/games/${gameId}/claims/misdeal`, { json: { reason: 'no-face-cards' } })).status).toBe(200);
    const console = await (await send(app, judge, 'GET', '/judge')).text();
    expect(console).toContain('hand 1: a hand with no face card (J, Q, K), called before the bidding');
    expect(console).not.toContain('no-face-cards');
    ledger.close();
  });
});

describe('an event that counts no bags speaks of none', () => {
  const noBags = { preset: 'blp-r1', overtrickPoints: false, bagsCounted: false, bagLimit: null };

  it('the table shows no bag count and its pad no bags column; the renege line says the tricks count toward the bid', async () => {
    const { ledger, app, gameId } = await seatedEvent('unc-intramural', { rules: noBags, finalRules: noBags });
    const seats = () => nextBidder(ledger.models.games[gameId]!);
    for (let seat = seats(); seat; seat = seats()) ledger.execute(makeBid(ledger.models, { gameId, seat, bid: 3 }));
    // North–South take 8 tricks on a bid of 6: two overtricks, which this event does not count.
    ledger.execute(recordTricks(ledger.models, { gameId, tricks: { N: 4, E: 2, S: 4, W: 3 } }));
    const table = await (await app.request(`/tournaments/flyer/games/${gameId}`)).text();
    expect(table).toContain('<td class="num total">60</td>');
    expect(words(table)).not.toMatch(/\bbags?\b/i);
    const sheet = await (await app.request('/tournaments/flyer/rules')).text();
    expect(sheet).toMatch(
      /<li data-rule="renege"[^>]*>.*An upheld renege takes 3 tricks from the reneging team and gives them to the other team \(all it has, if fewer\), where they count toward the bid\.<\/li>/,
    );
    ledger.close();
  });

  it('where bags count, the table shows them', async () => {
    const { ledger, app, gameId } = await seatedEvent('unc-intramural', {});
    const seats = () => nextBidder(ledger.models.games[gameId]!);
    for (let seat = seats(); seat; seat = seats()) ledger.execute(makeBid(ledger.models, { gameId, seat, bid: 3 }));
    ledger.execute(recordTricks(ledger.models, { gameId, tricks: { N: 4, E: 2, S: 4, W: 3 } }));
    const table = words(await (await app.request(`/tournaments/flyer/games/${gameId}`)).text());
    expect(table).toContain('2 bags');
    expect(table).toMatch(/Bags/);
    ledger.close();
  });
});

describe('no page or refusal of a played event names a preset', () => {
  it('the pages a player, a scorekeeper, a judge and the director open, after a hand, a misdeal and refusals', async () => {
    const flyer = { preset: 'unc-300', blindBid: { deficit: 100, strict: false, minimumTeam: 4 }, target: 300 };
    const { ledger, app, gameId, scorekeeper, judge } = await seatedEvent('unc-intramural', { rules: flyer, finalRules: { ...flyer, preset: 'unc-500' } });
    const seat = nextBidder(ledger.models.games[gameId]!)!;
    const said: string[] = [];
    const refusal = async (path: string, json: Record<string, unknown>) =>
      said.push(((await (await send(app, scorekeeper, 'POST', path, { json })).json()) as { error: string }).error);
    await refusal(`/entry/games/${gameId}/bid`, { seat, bid: 'blind 5' });
    await refusal(`/entry/games/${gameId}/bid`, { seat, bid: 'blind nil' });
    await refusal(`/entry/games/${gameId}/claims/misdeal`, { reason: 'uneven-deal' });
    expect((await send(app, scorekeeper, 'POST', `/entry/games/${gameId}/claims/misdeal`, { json: { reason: 'no-trumps' } })).status).toBe(200);
    ledger.execute(dealHand(ledger.models, { gameId, seed: 'room-words-2' }));
    for (let s = nextBidder(ledger.models.games[gameId]!); s; s = nextBidder(ledger.models.games[gameId]!))
      ledger.execute(makeBid(ledger.models, { gameId, seat: s, bid: 3 }));
    ledger.execute(recordTricks(ledger.models, { gameId, tricks: { N: 4, E: 2, S: 4, W: 3 } }));
    const director = await directorOf(app);
    const pages: [string, typeof scorekeeper | null][] = [
      ['/tournaments/flyer', null],
      ['/tournaments/flyer/leaderboard', null],
      ['/tournaments/flyer/bracket', null],
      ['/tournaments/flyer/rules', null],
      ['/tournaments/flyer/screen', null],
      ['/tournaments/flyer/as-of', null],
      [`/tournaments/flyer/games/${gameId}`, null],
      ['/tournaments/flyer/teams/team-1', null],
      [`/games/${gameId}/hands/1/replay`, null],
      ['/entry/tables/flyer/1', scorekeeper],
      ['/judge', judge],
      ['/director/tournaments/flyer', director],
    ];
    for (const [path, who] of pages) {
      const res = await send(app, who, 'GET', path);
      expect(res.status, path).toBe(200);
      said.push(words(await res.text()));
    }
    for (const text of said) expect(presetIn(text), text.slice(0, 300)).toBeNull();
    ledger.close();
  });
});

/** A director signed in to the app. */
async function directorOf(app: Awaited<ReturnType<typeof seatedEvent>>['app']) {
  const res = await app.request('/login', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'Dee Director', password: 'director-password' }),
  });
  return { cookie: (res.headers.get('set-cookie') ?? '').split(';')[0]!, csrf: ((await res.json()) as { csrf: string }).csrf };
}

/**
 * Who may change what: every route that writes to the ledger, asked by the public, the
 * scorekeeper of another table, the table's own scorekeeper, a judge and a director; and a
 * fuzz of JSON and form bodies on each of them that must never get a 500 nor change the
 * ledger when refused.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Ledger } from '../events/store/sqlite/ledger.ts';
import { claimRenege, giveRuling } from '../server/commands/game-commands.ts';
import { createTournament, registerTeam, startTournament } from '../server/commands/tournament-commands.ts';
import { startMatch } from '../server/commands/match-commands.ts';
import { type Fixture, type RoleName, ROLES, bidAll, copyOf, deal, finishGame, makeFixture, seatMatch, send } from './routes-fixture.ts';

let fixture: Fixture;
beforeAll(async () => {
  fixture = await makeFixture();
});
afterAll(() => fixture?.close());

interface RouteCase {
  name: string;
  /** Puts the ledger in the state the request needs; returns ids the path and body use. */
  prepare: (ledger: Ledger, matchId: string) => Record<string, string>;
  path: (ids: Record<string, string>) => string;
  body: (ids: Record<string, string>) => Record<string, unknown>;
  allowed: readonly RoleName[];
  /** Field names the fuzz mixes into its bodies. */
  fields: string[];
}

const TABLE = ['scorekeeper', 'director'] as const;
const CLAIMS = ['scorekeeper', 'judge', 'director'] as const;
const JUDGES = ['judge', 'director'] as const;
const DIRECTOR = ['director'] as const;

const seated = (ledger: Ledger, matchId: string) => ({ gameId: seatMatch(ledger, matchId), matchId });
const dealt = (ledger: Ledger, matchId: string) => {
  const ids = seated(ledger, matchId);
  deal(ledger, ids.gameId);
  return ids;
};
const bid = (ledger: Ledger, matchId: string) => {
  const ids = dealt(ledger, matchId);
  bidAll(ledger, ids.gameId);
  return ids;
};
const game = (ids: Record<string, string>, tail: string) => `/entry/games/${ids.gameId}/${tail}`;

const ROUTES: RouteCase[] = [
  {
    name: 'start a match at a table',
    prepare: (_l, matchId) => ({ matchId }),
    path: () => '/entry/tables/t1/1/start',
    body: (ids) => ({ matchId: ids.matchId, cardN: '9C', cardE: 'KD', cardS: '4H', cardW: '10S' }),
    allowed: TABLE,
    fields: ['matchId', 'cardN', 'cardE', 'cardS', 'cardW', 'firstDealer', 'clockMinutes'],
  },
  {
    name: 'deal',
    prepare: seated,
    path: (ids) => game(ids, 'deal'),
    body: () => ({ shuffle: 'system', dealer: 'N' }),
    allowed: TABLE,
    fields: ['shuffle', 'dealer'],
  },
  { name: 'bid', prepare: dealt, path: (ids) => game(ids, 'bid'), body: () => ({ seat: 'E', bid: 3 }), allowed: TABLE, fields: ['seat', 'bid'] },
  {
    name: 'play a card',
    prepare: bid,
    path: (ids) => game(ids, 'play'),
    body: () => ({ seat: 'E', card: 'PLACEHOLDER' }),
    allowed: TABLE,
    fields: ['seat', 'card'],
  },
  {
    name: 'record tricks (quick mode)',
    prepare: bid,
    path: (ids) => game(ids, 'tricks'),
    body: () => ({ N: 4, E: 3, S: 3, W: 3 }),
    allowed: TABLE,
    fields: ['N', 'E', 'S', 'W'],
  },
  {
    name: 'undo the last entry',
    prepare: (ledger, matchId) => {
      const ids = dealt(ledger, matchId);
      bidAll(ledger, ids.gameId, 1);
      return ids;
    },
    path: (ids) => game(ids, 'undo'),
    body: () => ({}),
    allowed: TABLE,
    fields: [],
  },
  {
    name: 'claim a renege',
    prepare: dealt,
    path: (ids) => game(ids, 'claims/renege'),
    body: () => ({ seat: 'W', trick: 2 }),
    allowed: CLAIMS,
    fields: ['seat', 'trick', 'hand'],
  },
  {
    name: 'call a misdeal',
    prepare: dealt,
    path: (ids) => game(ids, 'claims/misdeal'),
    body: () => ({ reason: 'no-trumps' }),
    allowed: CLAIMS,
    fields: ['reason'],
  },
  {
    name: 'rule on a claim',
    prepare: (ledger, matchId) => {
      const ids = dealt(ledger, matchId);
      ledger.execute(claimRenege(ledger.models, { gameId: ids.gameId, claimId: 'c1', seat: 'E', trick: 1 }));
      return ids;
    },
    path: (ids) => `/judge/games/${ids.gameId}/claims/c1/ruling`,
    body: () => ({ upheld: true, note: 'E showed a heart later' }),
    allowed: JUDGES,
    fields: ['upheld', 'note'],
  },
  {
    name: 'withdraw a ruling',
    prepare: (ledger, matchId) => {
      const ids = dealt(ledger, matchId);
      ledger.execute(claimRenege(ledger.models, { gameId: ids.gameId, claimId: 'c1', seat: 'E', trick: 1 }));
      ledger.execute(giveRuling(ledger.models, { gameId: ids.gameId, claimId: 'c1', upheld: true, note: '', judge: 'Jo Judge' }));
      return ids;
    },
    path: () => '/judge/withdrawals',
    body: (ids) => ({ gameId: ids.gameId, claimId: 'c1', reason: 'the card was found' }),
    allowed: JUDGES,
    fields: ['kind', 'gameId', 'claimId', 'correction', 'reason'],
  },
  {
    name: 'call time',
    prepare: seated,
    path: () => '/judge/time',
    body: (ids) => ({ tournamentId: 't1', matchId: ids.matchId }),
    allowed: JUDGES,
    fields: ['match', 'tournamentId', 'matchId'],
  },
  {
    name: 'disqualify a team',
    prepare: () => ({}),
    path: () => '/judge/disqualify',
    body: () => ({ team: 't1/team-4', kind: 'no-show', reason: 'not at the table by 10:15' }),
    allowed: JUDGES,
    fields: ['team', 'kind', 'reason'],
  },
  {
    name: 'correct a score',
    prepare: seated,
    path: () => '/judge/corrections',
    body: (ids) => ({ gameId: ids.gameId, NS: -30, EW: 30, reason: 'a miscounted bag' }),
    allowed: JUDGES,
    fields: ['gameId', 'NS', 'EW', 'reason'],
  },
  {
    name: 'correct a finished game’s result',
    prepare: (ledger, matchId) => {
      const ids = seated(ledger, matchId);
      finishGame(ledger, ids.gameId);
      return ids;
    },
    path: () => '/judge/results',
    body: (ids) => ({ result: `${ids.gameId}/team-4`, reason: 'the last hand was entered for the wrong team', reopen: 'yes' }),
    allowed: JUDGES,
    fields: ['result', 'gameId', 'winner', 'reason'],
  },
  {
    name: 'create a tournament',
    prepare: () => ({}),
    path: () => '/director/tournaments',
    body: () => ({ tournamentId: 'summer', name: 'Summer Slam', format: 'asher-theatre' }),
    allowed: DIRECTOR,
    fields: ['tournamentId', 'name', 'format'],
  },
  {
    name: 'register a team',
    prepare: () => ({}),
    path: () => '/director/tournaments/t2/teams',
    body: () => ({ name: 'Fours', player1: 'Ann', player2: 'Bo' }),
    allowed: DIRECTOR,
    fields: ['name', 'player1', 'player2', 'teamId', 'registeredOn'],
  },
  {
    name: 'check a team in',
    prepare: () => ({}),
    path: () => '/director/tournaments/t2/check-in',
    body: () => ({ teamId: 'open-1' }),
    allowed: DIRECTOR,
    fields: ['teamId'],
  },
  {
    name: 'withdraw a team',
    prepare: () => ({}),
    path: () => '/director/tournaments/t2/withdraw',
    body: () => ({ teamId: 'open-2' }),
    allowed: DIRECTOR,
    fields: ['teamId'],
  },
  {
    name: 'seed and draw',
    prepare: (ledger) => {
      ledger.execute(registerTeam(ledger.models, { tournamentId: 't2', teamId: 'open-3', name: 'Fours', players: ['Ann', 'Bo'] }));
      return {};
    },
    path: () => '/director/tournaments/t2/start',
    body: () => ({ order: 'open-2\nopen-1\nopen-3' }),
    allowed: DIRECTOR,
    fields: ['order', 'seed', 'byeCards'],
  },
  {
    name: 'draw the next round of a blp bracket',
    prepare: (ledger) => {
      // A two-team blp event whose round 1 is played: the final is the round to draw.
      const m = ledger.models;
      ledger.execute(createTournament(m, { tournamentId: 'blp', name: 'BLP', format: 'blp-2024' }));
      for (const teamId of ['b1', 'b2']) ledger.execute(registerTeam(m, { tournamentId: 'blp', teamId, name: teamId, players: ['A', 'B'] }));
      ledger.execute(startTournament(m, { tournamentId: 'blp', order: ['b1', 'b2'] }));
      ledger.execute(
        startMatch(m, {
          tournamentId: 'blp',
          matchId: 'W1-1',
          table: 5,
          at: '2026-03-01T10:00:00.000Z',
          draw: { method: 'high-card', rounds: [{ N: 'AS', E: 'KS', S: 'QS', W: 'JS' }] },
        }),
      );
      finishGame(ledger, m.tournaments.blp!.model.matches[0]!.games[0]!);
      return {};
    },
    path: () => '/director/tournaments/blp/rounds/draw',
    body: () => ({ round: 2, confirm: 'yes' }),
    allowed: DIRECTOR,
    fields: ['round', 'confirm', 'seed', 'winnersCards', 'winnersBye', 'losersCards', 'losersBye'],
  },
  {
    name: 'seat a match',
    prepare: (_l, matchId) => ({ matchId }),
    path: (ids) => `/director/tournaments/t1/matches/${ids.matchId}/start`,
    body: () => ({ table: 3, cardN: 'AS KS', cardE: 'AH QD', cardS: '5C', cardW: '7D' }),
    allowed: DIRECTOR,
    fields: ['table', 'cardN', 'caller', 'call', 'firstDealer', 'namedBecause', 'clockMinutes'],
  },
  {
    name: 'enter a game from a record',
    prepare: () => ({}),
    path: () => '/api/games/import',
    body: () => ({
      gameId: 'imported-1',
      record: { format: 'spades-game/1', rules: 'unc-300', dealer: 'N', hands: [{ bids: { N: 3, E: 3, S: 3, W: 3 }, tricks: { N: 4, E: 3, S: 3, W: 3 } }] },
    }),
    allowed: JUDGES,
    fields: ['gameId', 'record', 'tournamentId', 'matchId'],
  },
];

/** The card East (first to play after North deals) holds first in the deal. */
function firstCardOf(ledger: Ledger, gameId: string): string {
  const current = ledger.models.games[gameId]!.current!;
  return current.deal!.E[0]!;
}

function prepared(route: RouteCase, now?: () => string) {
  const made = copyOf(fixture, now);
  const ids = route.prepare(made.ledger, fixture.matchId);
  let body = route.body(ids);
  if (body.card === 'PLACEHOLDER') body = { ...body, card: firstCardOf(made.ledger, ids.gameId!) };
  return { ...made, ids, body };
}

// Time can be called once the 30-minute clock has run out.
const LATER = () => '2026-03-01T11:00:00.000Z';

describe('role × route matrix over every route that changes anything', () => {
  for (const route of ROUTES) {
    for (const role of ROLES) {
      // Entering a whole game answers 201 Created; everything else 200.
      const ok = route.path({}) === '/api/games/import' ? 201 : 200;
      const expected = route.allowed.includes(role) ? ok : role === 'public' ? 401 : 403;
      it(`${route.name}: ${role} → ${expected}`, async () => {
        const { app, ledger, ids, body } = prepared(route, LATER);
        const before = ledger.store.head();
        const client = role === 'public' ? null : fixture.clients[role];
        const res = await send(app, client, 'POST', route.path(ids), { json: body });
        const text = await res.text();
        expect(res.status, text).toBe(expected);
        if (expected === ok) expect(ledger.store.head().position).toBeGreaterThan(before.position);
        else {
          expect(ledger.store.head()).toEqual(before);
          // The refusal names who is asking and what the route is for.
          expect((JSON.parse(text) as { error: string }).error).toMatch(role === 'public' ? /sign in as/ : /table|signed in as/);
        }
        ledger.close();
      });
    }
  }
});

describe('requests from another site', () => {
  it('a cross-site form post gets 403 even with a valid session and token, and records nothing', async () => {
    const { app, ledger, ids, body } = prepared(ROUTES.find((r) => r.name === 'bid')!);
    const before = ledger.store.head();
    const form = Object.fromEntries(Object.entries(body).map(([k, v]) => [k, String(v)]));
    // A browser that says where the post came from, and one that sends only its Origin.
    const sent: Record<string, string>[] = [{ origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' }, { origin: 'https://evil.example' }];
    for (const headers of sent) {
      const res = await send(app, fixture.clients.scorekeeper, 'POST', `/entry/games/${ids.gameId}/bid`, { form }, headers);
      expect(res.status).toBe(403);
      expect(await res.text()).toContain('https://evil.example may not change anything here');
      expect(ledger.store.head()).toEqual(before);
    }
    // The same form from this site is recorded.
    const ok = await send(
      app,
      fixture.clients.scorekeeper,
      'POST',
      `/entry/games/${ids.gameId}/bid`,
      { form },
      { origin: 'http://localhost', 'sec-fetch-site': 'same-origin' },
    );
    expect(ok.status).toBe(303);
    expect(ledger.store.head().position).toBe(before.position + 1);
    ledger.close();
  });

  it('a form post without the session’s token gets 403 and records nothing', async () => {
    const { app, ledger, ids } = prepared(ROUTES.find((r) => r.name === 'bid')!);
    const before = ledger.store.head();
    const res = await send(app, fixture.clients.scorekeeper, 'POST', `/entry/games/${ids.gameId}/bid`, { form: { seat: 'E', bid: '3', _csrf: 'forged' } });
    expect(res.status).toBe(403);
    expect(await res.text()).toContain('security token is missing or out of date');
    expect(ledger.store.head()).toEqual(before);
    ledger.close();
  });

  it('pages carry a Content-Security-Policy without inline scripts or styles', async () => {
    const { app, ledger } = copyOf(fixture);
    const res = await app.request('/login');
    const csp = res.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("style-src 'self'");
    expect(csp).not.toContain('unsafe-inline');
    expect(res.headers.get('x-frame-options')).toBe('SAMEORIGIN');
    ledger.close();
  });
});

// Values a client might send: right and wrong types, odd text, huge numbers, nesting.
const anyValue = fc.oneof(
  fc.string({ maxLength: 12 }),
  fc.constantFrom(
    'N',
    'E',
    'S',
    'W',
    'nil',
    'blind nil',
    'blind 6',
    'yes',
    'no',
    '3',
    '-1',
    '13',
    '14',
    'AS',
    'BJ',
    '10H',
    't1/team-1',
    'no-trumps',
    '__proto__',
  ),
  fc.integer({ min: -100000, max: 100000 }),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.string({ maxLength: 4 }), { maxLength: 3 }),
  fc.dictionary(fc.string({ maxLength: 4 }), fc.string({ maxLength: 4 }), { maxKeys: 2 }),
);

function bodyFor(fields: string[]) {
  const keys = fc.constantFrom(...fields, 'commandId', 'extra', 'seat', 'gameId');
  return fc.dictionary(keys, anyValue, { maxKeys: 6 });
}

describe('fuzzed bodies on every changing route', () => {
  for (const route of ROUTES) {
    it(`${route.name}: JSON and form bodies never get a 500, and a refusal changes nothing`, async () => {
      const role = route.allowed.includes('scorekeeper') ? 'scorekeeper' : route.allowed[0]!;
      const client = fixture.clients[role as Exclude<RoleName, 'public'>];
      const { app, ledger, ids } = prepared(route, LATER);
      const path = route.path(ids);
      await fc.assert(
        fc.asyncProperty(bodyFor(route.fields), fc.boolean(), async (body, asForm) => {
          const before = ledger.store.head();
          const res = asForm
            ? await send(
                app,
                client,
                'POST',
                path,
                { form: Object.fromEntries(Object.entries(body).map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v)])) },
                { 'hx-request': 'true' },
              )
            : await send(app, client, 'POST', path, { json: body });
          const text = await res.text();
          expect(res.status, text).toBeLessThan(500);
          if (res.status >= 400) {
            expect(ledger.store.head(), text).toEqual(before);
            expect(text.length).toBeGreaterThan(10);
          }
        }),
        { numRuns: 40 },
      );
      // Bodies that are not JSON objects or forms at all.
      for (const raw of ['{', '[1,2]', '"text"', 'null']) {
        const before = ledger.store.head();
        const res = await send(app, client, 'POST', path, { raw, type: 'application/json' });
        expect(res.status).toBe(400);
        expect(ledger.store.head()).toEqual(before);
      }
      const plain = await send(app, client, 'POST', path, { raw: 'seat=N', type: 'text/plain' }, { 'x-csrf-token': client.csrf });
      expect(plain.status).toBeLessThan(500);
      ledger.close();
    });
  }
});

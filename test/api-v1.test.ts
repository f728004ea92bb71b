/**
 * The read API under /api/v1: every answer these tests get is checked with ajv against the
 * OpenAPI document the server serves (itself checked against the OpenAPI 3.1 meta-schemas), and
 * says what the ledger holds: at the head, or as of an earlier position (compared with the models
 * as the live server held them right after that position). ETags name the position, so a client
 * holding one gets a 304 until an entry moves the ledger on; any site may read it.
 */
import { gunzipSync } from 'node:zlib';
import type Ajv2020 from 'ajv/dist/2020.js';
import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MatchModel, TeamRow } from '../events/read-models.ts';
import { emptyModels } from '../events/projections.ts';
import { LedgerReadError } from '../events/store/served-ledger.ts';
import { scoreRecord } from '../engine/record.ts';
import { statsOfTournament } from '../events/tournament-stats.ts';
import { createApp } from '../server/app/app.ts';
import { acceptsGzip, apiRoutes } from '../server/api/api-routes.ts';
import { PROGRESSIVE_DEMO, createDemo } from '../server/serve/serve.ts';
import { driveTables } from '../server/serve/table-driver.ts';
import { type AuditLedger, playTournament, tempLedger } from './fixtures/audit-ledger.ts';
import { type ApiCall, documentChecked } from './fixtures/api-document.ts';

let fixture: AuditLedger;
let app: ReturnType<typeof createApp>['app'];
let document: Record<string, unknown>;
let ajv: Ajv2020;
/** A request to the API whose answer is checked against the served document (fixtures/api-document.ts). */
let api: ApiCall;
/** The bracket's matches and the teams as the live models held them right after these positions. */
const shown = new Map<number, { matches: MatchModel[]; teams: TeamRow[] }>();
const WATCHED = [30, 200];

beforeAll(async () => {
  fixture = tempLedger();
  fixture.ledger.onChange((_change, events) => {
    for (const event of events) {
      const model = fixture.ledger.models.tournaments.t1?.model;
      if (WATCHED.includes(event.position) && model) shown.set(event.position, structuredClone({ matches: model.matches, teams: model.teams }));
    }
  });
  // A Pitt Boss event of 4 teams stopped while its tables play, and a progressive evening in its first round.
  await playTournament(fixture.ledger, { format: 'pitt-boss', teams: 4, seed: 'api-2', stopAt: 2000 });
  await createDemo(fixture.ledger, 'progressive');
  for (let i = 0; i < 40; i++) await driveTables(fixture.ledger, { tournamentId: PROGRESSIVE_DEMO, seed: 'api-evening' });
  app = createApp({ ledger: fixture.ledger }).app;
  ({ document, api, ajv } = await documentChecked(app));
});
afterAll(() => fixture.remove());

const T = '/api/v1/tournaments/{tournamentId}';
const G = '/api/v1/games/{gameId}';
const L = '/api/v1/tournaments';
const S = '/api/v1/tournaments/{tournamentId}/stats';

describe('the OpenAPI document', () => {
  it('is a valid OpenAPI 3.1 document naming every resource, its ETag and its refusals', async () => {
    const validator = new Validator();
    const result = await validator.validate(structuredClone(document));
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
    const paths = document.paths as Record<string, { get: { responses: Record<string, { headers?: Record<string, unknown> }> }; options?: unknown }>;
    const api = Object.keys(paths).filter((path) => path.startsWith('/api/v1/'));
    expect(api.sort()).toEqual(
      [
        G,
        L,
        S,
        T,
        `${T}/matches`,
        `${T}/matches/{matchId}`,
        `${T}/entrants`,
        '/api/v1/series/{seriesId}',
        '/api/v1/players',
        '/api/v1/players/{playerId}',
      ].sort(),
    );
    expect(
      Object.keys(paths)
        .filter((path) => !path.startsWith('/api/v1/'))
        .sort(),
    ).toEqual(['/api/events', '/api/events/stream']);
    for (const path of api) {
      expect(Object.keys(paths[path]!.get.responses).sort()).toEqual(['200', '304', '400', '404', '429']);
      // A client told to wait is told how long, and a browser's preflight is described.
      expect(Object.keys(paths[path]!.get.responses['429']!.headers ?? {})).toEqual(['Retry-After', 'RateLimit-Policy', 'RateLimit']);
      expect(paths[path]!.options).toBeDefined();
    }
  });

  it('names its server, the bounds of asOf, the refusals’ codes, and the 405 every other method gets', async () => {
    expect(document.servers).toEqual([{ url: '/', description: expect.any(String) }]);
    const get = (document.paths as Record<string, { get: { parameters: { name: string; schema: Record<string, unknown> }[] } }>)[T]!.get;
    expect(get.parameters.find((p) => p.name === 'asOf')!.schema).toMatchObject({ minimum: 0, maximum: 999_999_999_999_999 });
    const schemas = (document.components as { schemas: Record<string, { required?: string[]; properties: Record<string, { enum?: string[] }> }> }).schemas;
    expect(schemas.Error!.required).toEqual(['error', 'code']);
    expect(schemas.Error!.properties.code!.enum).toContain('too-many-reads');
    const refused = await app.request('/api/v1/tournaments/t1', { method: 'DELETE' });
    expect(refused.status).toBe(405);
    expect(refused.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
    const validate = ajv.getSchema('openapi.json#/components/responses/MethodNotAllowed/content/application~1json/schema')!;
    const refusal = await refused.json();
    expect(validate(refusal) ? [] : validate.errors).toEqual([]);
    expect(refusal).toMatchObject({ code: 'method-not-allowed' });
  });

  it('is answered 304 while the server’s shapes are the same', async () => {
    const first = await app.request('/api/v1/openapi.json');
    const again = await app.request('/api/v1/openapi.json', { headers: { 'if-none-match': first.headers.get('etag')! } });
    expect(again.status).toBe(304);
  });
});

describe('the resources', () => {
  it('lists every tournament with its counts and links', async () => {
    const { res, body } = await api('/api/v1/tournaments', L);
    expect(res.status).toBe(200);
    const list = body!.tournaments as {
      tournamentId: string;
      format: string;
      status: string;
      counts: { entrants: number; liveTables: number };
      links: { self: string };
    }[];
    expect(list.map((t) => t.tournamentId)).toEqual(['t1', PROGRESSIVE_DEMO]);
    expect(list[0]).toMatchObject({ format: 'pitt-boss', status: 'running', counts: { entrants: 4 }, links: { self: '/api/v1/tournaments/t1' } });
    expect(list[1]).toMatchObject({ format: 'tournament-spades', counts: { entrants: 12 } });
    expect(body!.position).toBe(fixture.ledger.models.position);
    for (const t of list) expect((await api(t.links.self, T)).res.status).toBe(200);
  });

  it('gives a bracket event’s matches with where each slot comes from, its standings and live tables', async () => {
    const { body } = await api('/api/v1/tournaments/t1', T);
    const model = fixture.ledger.models.tournaments.t1!.model;
    const bracket = body!.bracket as {
      matches: {
        matchId: string;
        status: string;
        table: number | null;
        gamesWon: number[];
        slots: { teamId: string | null; name: string | null; from: { kind: string } | null }[];
      }[];
    };
    expect(bracket.matches.map((m) => [m.matchId, m.status, m.gamesWon])).toEqual(model.matches.map((m) => [m.matchId, m.status, m.gamesWon]));
    // Round 1's slots hold seeds; every later slot says which match's winner or loser fills it.
    for (const match of bracket.matches) for (const slot of match.slots) expect(slot.from).not.toBeNull();
    expect(bracket.matches.flatMap((m) => m.slots.map((s) => s.from!.kind))).toEqual(expect.arrayContaining(['seed', 'winner', 'loser']));
    const named = bracket.matches[0]!.slots[0]!;
    expect(named.name).toBe(model.teams.find((t) => t.teamId === named.teamId)!.name);
    const entrants = body!.entrants as { kind: string; teams: { teamId: string; players: string[] }[] };
    expect(entrants.kind).toBe('teams');
    expect(entrants.teams.find((t) => t.teamId === 'team1')!.players).toEqual(['P1a', 'P1b']);
    const standings = body!.standings as { rank: number; teamId: string; placeLabel: string }[];
    expect(standings.map((s) => s.rank)).toEqual([1, 2, 3, 4]);
    expect(new Set(standings.map((s) => s.teamId))).toEqual(new Set(model.teams.map((t) => t.teamId)));
    const live = body!.liveTables as { gameId: string; score: { NS: number } }[];
    const playing = model.matches.filter((m) => m.status === 'live');
    expect(live.length).toBe(playing.length);
    expect(live.length).toBeGreaterThan(0);
    for (const table of live) expect(table.score.NS).toBe(fixture.ledger.models.games[table.gameId]!.score.NS);
    expect(body!.progressive).toBeNull();
    expect((body!.options as { gamesToWin: number }).gamesToWin).toBe(fixture.ledger.models.tournaments.t1!.format.gamesToWin);
  });

  it('gives a progressive evening’s players, rounds and seatings, and no bracket', async () => {
    const { body } = await api(`/api/v1/tournaments/${PROGRESSIVE_DEMO}`, T);
    expect(body!.bracket).toBeNull();
    const entrants = body!.entrants as { kind: string; players: { playerId: string; gender: string | null }[] };
    expect(entrants.kind).toBe('players');
    expect(entrants.players).toHaveLength(12);
    const progressive = body!.progressive as { roundsInEvent: number; rounds: { round: number; tables: { seats: Record<string, string> }[] }[] };
    expect(progressive.roundsInEvent).toBe(4);
    expect(progressive.rounds[0]!.tables).toHaveLength(3);
    const seated = progressive.rounds[0]!.tables.flatMap((t) => Object.values(t.seats)).sort();
    expect(seated).toEqual(entrants.players.map((p) => p.playerId).sort());
  });

  it('gives a tournament’s statistics as the statistics projection folds them, now and as of a position', async () => {
    const { res, body } = await api('/api/v1/tournaments/t1/stats', S);
    expect(res.status).toBe(200);
    expect(body).toEqual(JSON.parse(JSON.stringify(statsOfTournament(fixture.ledger.models, 't1'))));
    const teams = (body!.stats as { teams: { teamId: string; hands: number }[] }).teams;
    expect(teams.map((t) => t.teamId).sort()).toEqual(['team1', 'team2', 'team3', 'team4']);
    expect(teams.some((t) => t.hands > 0)).toBe(true);
    const early = await api('/api/v1/tournaments/t1/stats?asOf=30', S);
    expect(early.body!.position).toBe(30);
    const earlyHands = (early.body!.stats as { teams: { hands: number }[] }).teams.reduce((n, t) => n + t.hands, 0);
    expect(earlyHands).toBeLessThan(teams.reduce((n, t) => n + t.hands, 0));
    const evening = await api(`/api/v1/tournaments/${PROGRESSIVE_DEMO}/stats`, S);
    expect((evening.body!.stats as { players: { playerId: string }[] }).players).toHaveLength(12);
    const missing = await api('/api/v1/tournaments/nope/stats', S);
    expect(missing.res.status).toBe(404);
    expect(missing.body).toEqual({ error: "there is no tournament 'nope'", code: 'not-found' });
  });

  it('gives a game’s state and score hand by hand, with its record and replay', async () => {
    const game = Object.values(fixture.ledger.models.games).find((g) => g.tournamentId === 't1' && g.winner !== null)!;
    const { body } = await api(`/api/v1/games/${game.gameId}`, G);
    expect(body).toMatchObject({ gameId: game.gameId, state: 'finished', winner: game.winner, score: game.score, tournamentId: 't1' });
    const hands = body!.hands as { number: number; NS: { score: number }; replay: string }[];
    expect(hands).toHaveLength(game.rows.length);
    expect(hands.at(-1)!.NS.score).toBe(game.score.NS);
    const links = body!.links as { record: string; replay: string };
    const record = (await (await app.request(links.record)).json()) as { format: string; hands: unknown[] };
    expect(record.format).toBe('spades-game/1');
    expect(record.hands).toHaveLength(game.hands.length);
    // The score hand by hand is the record's, scored offline as `spades score` scores it.
    const scored = scoreRecord(record);
    type Line = { points: number; score: number; bags: number; sets: number };
    const line = (t: Line) => [t.points, t.score, t.bags, t.sets];
    expect((body!.hands as { NS: Line; EW: Line }[]).map((h) => [line(h.NS), line(h.EW)])).toEqual(scored.hands.map((h) => [line(h.NS), line(h.EW)]));
    expect(body!.score).toEqual(scored.final);
    expect(body!.winner).toBe(scored.winner);
    expect((await app.request(links.replay)).status).toBe(200);
    expect((await app.request(hands[1]!.replay)).status).toBe(200);
  });
});

describe('positions, ETags and asOf', () => {
  it('answers 304 while the ledger stands still, and 200 with a new ETag once an entry is appended', async () => {
    const first = await api('/api/v1/tournaments/t1', T);
    const tag = first.res.headers.get('etag')!;
    expect(tag).toMatch(new RegExp(`^"${fixture.ledger.models.position}-[0-9a-f]{8}"$`));
    expect(first.res.headers.get('access-control-expose-headers')).toContain('ETag');
    const same = await api('/api/v1/tournaments/t1', T, { headers: { 'if-none-match': tag } });
    expect(same.res.status).toBe(304);
    expect(same.res.headers.get('etag')).toBe(tag);
    expect(await driveTables(fixture.ledger, { tournamentId: 't1', seed: 'api' })).toBeGreaterThan(0);
    const moved = await api('/api/v1/tournaments/t1', T, { headers: { 'if-none-match': tag } });
    expect(moved.res.status).toBe(200);
    expect(moved.res.headers.get('etag')).not.toBe(tag);
    expect(moved.body!.position).toBe(fixture.ledger.models.position);
  });

  it('answers as the ledger stood at an earlier position', async () => {
    for (const position of WATCHED) {
      const { res, body } = await api(`/api/v1/tournaments/t1?asOf=${position}`, T);
      expect(res.status).toBe(200);
      expect(body!.position).toBe(position);
      expect(res.headers.get('etag')).toMatch(new RegExp(`^"${position}-`));
      const then = shown.get(position)!;
      const matches = (body!.bracket as { matches: { matchId: string; status: string; gamesWon: number[]; winner: string | null }[] }).matches;
      expect(matches.map((m) => [m.matchId, m.status, m.gamesWon, m.winner])).toEqual(then.matches.map((m) => [m.matchId, m.status, m.gamesWon, m.winner]));
      const points = Object.fromEntries((body!.standings as { teamId: string; points: number }[]).map((s) => [s.teamId, s.points]));
      expect(points).toEqual(Object.fromEntries(then.teams.map((t) => [t.teamId, t.points])));
      // Held already: a past answer never changes.
      expect((await api(`/api/v1/tournaments/t1?asOf=${position}`, T, { headers: { 'if-none-match': res.headers.get('etag')! } })).res.status).toBe(304);
    }
    const game = Object.values(fixture.ledger.models.games).find((g) => g.tournamentId === 't1')!;
    const early = await api(`/api/v1/games/${game.gameId}?asOf=${game.handPositions[0]}`, G);
    expect((early.body!.hands as unknown[]).length).toBe(1);
    const list = await api('/api/v1/tournaments?asOf=1', L);
    expect((list.body!.tournaments as { tournamentId: string }[]).map((t) => t.tournamentId)).toEqual(['t1']);
  });

  it('refuses an asOf that is no position with a sentence', async () => {
    const head = fixture.ledger.models.position;
    for (const query of ['asOf=abc', `asOf=${head + 1}`, 'asOf=-1', 'asOf=1&asOf=2']) {
      const { res, body } = await api(`/api/v1/tournaments/t1?${query}`, T);
      expect(res.status, query).toBe(400);
      expect(body!.error, query).toMatch(/asOf/);
    }
    expect((await api(`/api/v1/tournaments/t1?asOf=${head + 1}`, T)).body!.error).toBe(
      `asOf must be a ledger position, a whole number from 0 to ${head}, not '${head + 1}'`,
    );
  });
});

describe('what is not there', () => {
  it('answers an unknown id 404 with a sentence, now and at a position before it existed', async () => {
    const cases: [string, string, string][] = [
      ['/api/v1/tournaments/nope', T, "there is no tournament 'nope'"],
      ['/api/v1/tournaments/constructor', T, "there is no tournament 'constructor'"],
      ['/api/v1/games/nope', G, "there is no game 'nope'"],
      ['/api/v1/players/nope', '/api/v1/players/{playerId}', "there is no player 'nope'"],
      ['/api/v1/players/constructor', '/api/v1/players/{playerId}', "there is no player 'constructor'"],
      ['/api/v1/series/nope', '/api/v1/series/{seriesId}', "there is no series 'nope'"],
      [`/api/v1/tournaments/${PROGRESSIVE_DEMO}?asOf=5`, T, `there is no tournament '${PROGRESSIVE_DEMO}' at ledger position 5`],
    ];
    for (const [url, template, sentence] of cases) {
      const { res, body } = await api(url, template);
      expect(res.status, url).toBe(404);
      expect(body, url).toEqual({ error: sentence, code: 'not-found' });
    }
    const elsewhere = await app.request('/api/v1/leagues');
    expect(elsewhere.status).toBe(404);
    expect(((await elsewhere.json()) as { error: string }).error).toContain('/api/v1/openapi.json');
    const post = await app.request('/api/v1/tournaments', { method: 'POST' });
    expect(post.status).toBe(405);
  });
});

describe('other sites', () => {
  it('may read every answer, and send If-None-Match after asking', async () => {
    const preflight = await app.request('/api/v1/tournaments/t1', {
      method: 'OPTIONS',
      headers: { origin: 'https://club.example', 'access-control-request-headers': 'if-none-match' },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('*');
    expect(preflight.headers.get('access-control-allow-headers')).toMatch(/If-None-Match/i);
    const read = await app.request('/api/v1/tournaments', { headers: { origin: 'https://club.example' } });
    expect(read.headers.get('access-control-allow-origin')).toBe('*');
  });
});

describe('gzip', () => {
  it('sends a client that takes gzip the same answer gzipped, under an ETag of its own that spares either', async () => {
    for (const url of ['/api/v1/tournaments/t1', '/api/v1/tournaments', '/api/v1/openapi.json', '/api/v1/tournaments/t1?asOf=30']) {
      const plain = await app.request(url);
      const zipped = await app.request(url, { headers: { 'accept-encoding': 'gzip, deflate, br' } });
      expect(plain.headers.get('content-encoding'), url).toBeNull();
      expect(zipped.headers.get('content-encoding'), url).toBe('gzip');
      for (const res of [plain, zipped]) expect(res.headers.get('vary'), url).toBe('Accept-Encoding');
      const bytes = new Uint8Array(await zipped.arrayBuffer());
      const text = await plain.text();
      expect(gunzipSync(bytes).toString('utf8'), url).toBe(text);
      expect(bytes.byteLength, url).toBeLessThan(Buffer.byteLength(text) / (text.length > 4096 ? 4 : 1));
      const [plainTag, zippedTag] = [plain.headers.get('etag')!, zipped.headers.get('etag')!];
      expect(zippedTag, url).not.toBe(plainTag);
      // Either representation's ETag spares the client the answer, in whichever coding it now asks.
      for (const tag of [plainTag, zippedTag]) {
        for (const encoding of ['gzip', 'identity']) {
          const again = await app.request(url, { headers: { 'if-none-match': tag, 'accept-encoding': encoding } });
          expect(again.status, `${url} ${tag} ${encoding}`).toBe(304);
          expect(again.headers.get('etag')).toBe(encoding === 'gzip' ? zippedTag : plainTag);
        }
      }
    }
  });

  it('reads Accept-Encoding as HTTP does: named, or by *, and never with q=0', () => {
    expect(acceptsGzip(undefined)).toBe(false);
    expect(acceptsGzip('gzip')).toBe(true);
    expect(acceptsGzip('br;q=1.0, GZIP;q=0.5')).toBe(true);
    expect(acceptsGzip('*')).toBe(true);
    expect(acceptsGzip('identity')).toBe(false);
    expect(acceptsGzip('gzip;q=0')).toBe(false);
    expect(acceptsGzip('gzip;q=0, *')).toBe(false);
    expect(acceptsGzip('*;q=0')).toBe(false);
    expect(acceptsGzip('br, deflate')).toBe(false);
  });
});

describe('the site’s own headers', () => {
  it('come on every answer the API gives, and on one its server’s error handler gives instead', async () => {
    // The site's security headers as its pages carry them; only the resource policy differs, as any site may read the answers.
    const page = await app.request('/tournaments/t1/leaderboard');
    const expected = [
      'content-security-policy',
      'x-content-type-options',
      'strict-transport-security',
      'referrer-policy',
      'x-frame-options',
      'cross-origin-opener-policy',
    ];
    const failing = createApp({
      ledger: new Proxy(fixture.ledger.served, {
        get: (target, name, receiver) =>
          name === 'sync'
            ? async () => {
                throw new LedgerReadError('event 9: its payload is not JSON');
              }
            : Reflect.get(target, name, receiver),
      }),
    }).app;
    for (const [label, res] of [
      ['a resource', await app.request('/api/v1/tournaments/t1')],
      ['a 304', await app.request('/api/v1/openapi.json', { headers: { 'if-none-match': (await app.request('/api/v1/openapi.json')).headers.get('etag')! } })],
      ['a refusal', await app.request('/api/v1/tournaments?asOf=name')],
      ['nothing there', await app.request('/api/v1/players')],
      ['the error handler', await failing.request('/api/v1/tournaments')],
    ] as const) {
      for (const name of expected) expect(res.headers.get(name), `${label}: ${name}`).toBe(page.headers.get(name));
      expect(res.headers.get('cross-origin-resource-policy'), label).toBe('cross-origin');
      expect(res.headers.get('access-control-allow-origin'), label).toBe('*');
    }
    expect((await failing.request('/api/v1/tournaments')).status).toBe(503);
  });
});

describe('an answer that does not match its schema', () => {
  it('fails here rather than leaving, and is logged and still sent on a server', async () => {
    const models = emptyModels();
    const broken = { position: 1, models, sync: async () => {} };
    // A tournament with a status no schema allows: what a projection bug would hand the API.
    models.position = 1;
    models.tournaments.x = {
      model: { tournamentId: 'x', name: 'X', format: 'pitt-boss', status: 'paused', teams: [], matches: [], placings: [], latest: [] },
    } as never;
    const past = async () => ({ busy: 'not here' });
    const strict = apiRoutes({ ledger: broken as never, past, onInvalid: 'throw' });
    strict.onError((error, c) => c.json({ error: error.message }, 500));
    const thrown = await strict.request('/tournaments');
    expect(thrown.status).toBe(500);
    expect(((await thrown.json()) as { error: string }).error).toContain('status');
    const errors: unknown[] = [];
    const log = console.error;
    console.error = (...args: unknown[]) => errors.push(args);
    try {
      const lenient = apiRoutes({ ledger: broken as never, past, onInvalid: 'log' });
      expect((await lenient.request('/tournaments')).status).toBe(200);
    } finally {
      console.error = log;
    }
    expect(String(errors[0])).toContain('listTournaments');
  });
});

/**
 * The live feed as part of the public API: readable from any site (an overlay's EventSource on
 * another origin), narrowed to one tournament's events with `?tournament=` while another plays,
 * resuming after Last-Event-ID with nothing of that tournament missed or repeated.
 */
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EventSourceMessage } from 'eventsource-parser';
import type { Ledger } from '../events/store/sqlite/ledger.ts';
import { PROGRESSIVE_DEMO, createDemo } from '../server/serve/serve.ts';
import { driveTables } from '../server/serve/table-driver.ts';
import { type InProcessServer, TOURNAMENT, demoLedger, openSse, play, removeTempDirs, serveInProcess, tempDir, waitFor } from './fixtures/live-server.ts';

let ledger: Ledger;
let server: InProcessServer;

const playEvening = async (steps: number) => {
  for (let i = 0; i < steps; i++) await driveTables(ledger, { tournamentId: PROGRESSIVE_DEMO, seed: 'feed-evening' });
};

beforeAll(async () => {
  ledger = await demoLedger(tempDir());
  await createDemo(ledger, 'progressive');
  await play(ledger, 20);
  await playEvening(20);
  server = await serveInProcess(ledger);
});

afterAll(async () => {
  await server.close();
  ledger.close();
  removeTempDirs();
});

/** Which tournament each event of the ledger belongs to, as the ledger itself says (by its payload or its game's start). */
function ownersByPosition(): Map<number, string | null> {
  const gameOwner = new Map<string, string | null>();
  const owners = new Map<number, string | null>();
  for (const event of ledger.store.readAll()) {
    const payload = event.payload as { tournamentId?: string | null; gameId?: string };
    if (event.type === 'GameStarted') gameOwner.set(payload.gameId!, payload.tournamentId ?? null);
    owners.set(event.position, payload.tournamentId ?? (payload.gameId ? (gameOwner.get(payload.gameId) ?? null) : null));
  }
  return owners;
}

const positions = (messages: readonly EventSourceMessage[]) => messages.map((m) => Number(m.id));

describe('the feed for other sites', () => {
  it('may be read from any origin: allowed by CORS, with a resource policy that lets it across', async () => {
    const origin = { origin: 'https://overlay.example' };
    const stream = await openSse(`${server.url}/api/events/stream`, origin);
    expect(stream.response.status).toBe(200);
    expect(stream.response.headers.get('access-control-allow-origin')).toBe('*');
    expect(stream.response.headers.get('cross-origin-resource-policy')).toBe('cross-origin');
    stream.close();
    for (const url of ['/api/events?limit=1', '/api/events/stream?after=x', '/api/events/stream?tournament=nope']) {
      const res = await fetch(`${server.url}${url}`, { headers: origin });
      expect(res.headers.get('access-control-allow-origin'), url).toBe('*');
      expect(res.headers.get('cross-origin-resource-policy'), url).toBe('cross-origin');
      await res.body?.cancel();
    }
    // Pages stay the site's own.
    expect((await fetch(`${server.url}/tournaments/${TOURNAMENT}/leaderboard`)).headers.get('cross-origin-resource-policy')).toBe('same-origin');
  });
});

describe('one tournament’s feed', () => {
  it('sends only that tournament’s events, on catch-up and live, while another plays', async () => {
    const owners = ownersByPosition();
    const head = ledger.store.head().position;
    const theirs = [...owners].filter(([, owner]) => owner === PROGRESSIVE_DEMO).map(([position]) => position);
    const others = [...owners].filter(([, owner]) => owner === TOURNAMENT).length;
    expect(others).toBeGreaterThan(0);
    const reader = await openSse(`${server.url}/api/events/stream?tournament=${PROGRESSIVE_DEMO}&after=0`);
    await waitFor('the catch-up', () => reader.messages.length >= theirs.length);
    // Both play on: only the evening's events arrive.
    await play(ledger, 3);
    await playEvening(3);
    const now = ownersByPosition();
    const expected = [...now].filter(([, owner]) => owner === PROGRESSIVE_DEMO).map(([position]) => position);
    expect(ledger.store.head().position).toBeGreaterThan(head);
    expect(expected.length).toBeGreaterThan(theirs.length);
    await waitFor('the live events', () => reader.messages.length >= expected.length);
    await new Promise((resolve) => setTimeout(resolve, 100));
    reader.close();
    expect(positions(reader.messages)).toEqual(expected);
    for (const message of reader.messages) {
      const event = JSON.parse(message.data) as { position: number };
      expect(now.get(event.position)).toBe(PROGRESSIVE_DEMO);
    }
  });

  it('starts at the head with no position named, and resumes after Last-Event-ID with nothing missed', async () => {
    const fresh = await openSse(`${server.url}/api/events/stream?tournament=${TOURNAMENT}`);
    await waitFor('the client to attach', () => server.broadcaster.clientCount() >= 1);
    const from = ledger.store.head().position;
    await play(ledger, 2);
    await playEvening(2);
    const owners = ownersByPosition();
    const live = [...owners].filter(([position, owner]) => position > from && owner === TOURNAMENT).map(([position]) => position);
    await waitFor('the live events', () => fresh.messages.length >= live.length);
    fresh.close();
    expect(positions(fresh.messages)).toEqual(live);
    // A client that saw up to a position resumes after it, within its tournament.
    const resumed = await openSse(`${server.url}/api/events/stream?tournament=${TOURNAMENT}`, { 'last-event-id': String(from) });
    await waitFor('the catch-up', () => resumed.messages.length >= live.length);
    await new Promise((resolve) => setTimeout(resolve, 50));
    resumed.close();
    expect(positions(resumed.messages)).toEqual(live);
  });

  it('is linked from the tournament', async () => {
    const links = ((await (await fetch(`${server.url}/api/v1/tournaments/${PROGRESSIVE_DEMO}`)).json()) as { links: { feed: string } }).links;
    expect(links.feed).toBe(`/api/events/stream?tournament=${PROGRESSIVE_DEMO}`);
    const reader = await openSse(`${server.url}${links.feed}`);
    expect(reader.response.status).toBe(200);
    reader.close();
  });

  it('answers a tournament that is not there 404 with a sentence', async () => {
    const res = await fetch(`${server.url}/api/events/stream?tournament=nope`);
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({
      error: "there is no tournament 'nope' to follow; the tournaments are listed at /api/v1/tournaments",
      code: 'not-found',
    });
  });
});

describe('the feed in the OpenAPI document', () => {
  it('describes every event the feed sends, its payload by the schema of its type', async () => {
    const document = (await (await fetch(`${server.url}/api/v1/openapi.json`)).json()) as Record<string, unknown>;
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats(ajv);
    ajv.addSchema(document, 'openapi.json');
    const event = ajv.getSchema('openapi.json#/components/schemas/FeedEvent')!;
    const page = ajv.getSchema('openapi.json#/paths/~1api~1events/get/responses/200/content/application~1json/schema')!;
    const stream = (document.paths as Record<string, { get: { responses: Record<string, { content?: Record<string, Record<string, unknown>> }> } }>)[
      '/api/events/stream'
    ]!.get;
    expect(stream.responses['200']!.content!['text/event-stream']!['x-message-data']).toEqual({ $ref: '#/components/schemas/FeedEvent' });
    const events = (await (await fetch(`${server.url}/api/events?limit=1000`)).json()) as { type: string }[];
    expect(page(events) ? [] : page.errors).toEqual([]);
    expect(new Set(events.map((e) => e.type)).size).toBeGreaterThan(5);
    const reader = await openSse(`${server.url}/api/events/stream?after=${ledger.store.head().position - 300}`);
    await waitFor('the catch-up', () => reader.messages.length >= 300);
    reader.close();
    for (const message of reader.messages) {
      const ok = event(JSON.parse(message.data));
      expect(ok ? [] : event.errors, `event ${message.id}`).toEqual([]);
    }
    // A payload the schema of its type refuses is refused by the document too.
    const card = events.find((e) => e.type === 'CardPlayed') as { payload: Record<string, unknown> } | undefined;
    expect(card).toBeDefined();
    expect(event({ ...card, payload: { ...card!.payload, card: 'not a card' } })).toBe(false);
  });
});

describe('the feed’s limits', () => {
  it('are told in RateLimit headers before a client reaches them', async () => {
    await waitFor('the earlier clients to be gone', () => server.broadcaster.clientCount() === 0);
    const first = await openSse(`${server.url}/api/events/stream`);
    const second = await openSse(`${server.url}/api/events/stream?tournament=${TOURNAMENT}`);
    for (const reader of [first, second]) {
      expect(reader.response.headers.get('ratelimit-policy')).toBe('"feed-streams";q=48;qu="concurrent-requests"');
      expect(reader.response.headers.get('access-control-expose-headers')).toMatch(/RateLimit-Policy, RateLimit/);
    }
    expect(first.response.headers.get('ratelimit')).toBe('"feed-streams";r=47');
    expect(second.response.headers.get('ratelimit')).toBe('"feed-streams";r=46');
    first.close();
    second.close();
  });
});

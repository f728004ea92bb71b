/**
 * Requests built to hurt: a 64 MiB body (over a real socket, to a real server process, whose
 * memory is watched), JSON nested 100,000 deep on the entry, ruling, seeding and import routes,
 * ids such as `constructor` and `__proto__` in every kind of URL, and the command line's output
 * pipe closing under it. Each is refused with a 4xx and a sentence, never a 500 or a crash.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openLedger } from '../events/store/sqlite/ledger.ts';
import { createTournament } from '../server/commands/tournament-commands.ts';
import { FORM_BODY_BYTES } from '../server/http/body-limits.ts';
import { MAX_JSON_DEPTH } from '../server/http/request-input.ts';
import { ROOT, killHard, removeTempDirs, startServeProcess, tempDir } from './fixtures/live-server.ts';
import { type Fixture, copyOf, makeFixture, seatMatch, send } from './routes-fixture.ts';
import { fullGameRecord } from './record-builders.ts';
import { RECORD_MAX_HANDS, RECORD_MAX_MISDEALS_IN_A_ROW } from '../events/record-import.ts';

let fixture: Fixture;
beforeAll(async () => {
  fixture = await makeFixture();
});
afterAll(() => {
  fixture?.close();
  removeTempDirs();
});

/** JSON of `depth` nested arrays around a field's value: `{"field": [[[...]]]}`. */
const nested = (field: string, depth: number) => `{"${field}": ${'['.repeat(depth)}${']'.repeat(depth)}}`;

describe('deep JSON', () => {
  const routes = [
    { name: 'a bid (table entry)', who: 'scorekeeper', path: (gameId: string) => `/entry/games/${gameId}/bid`, field: 'bid' },
    { name: 'a ruling', who: 'judge', path: (gameId: string) => `/judge/games/${gameId}/claims/c1/ruling`, field: 'upheld' },
    { name: 'seeding and the draw', who: 'director', path: () => '/director/tournaments/t2/start', field: 'order' },
  ] as const;

  for (const route of routes) {
    it(`on ${route.name}: 100,000 deep is refused as too large, and deep within the size limit as too deep`, async () => {
      const { ledger, app } = copyOf(fixture);
      const gameId = seatMatch(ledger, fixture.matchId);
      const client = fixture.clients[route.who];
      const head = ledger.store.head().position;
      const huge = await send(
        app,
        client,
        'POST',
        route.path(gameId),
        { raw: nested(route.field, 100_000), type: 'application/json' },
        { 'x-csrf-token': client.csrf },
      );
      expect(huge.status).toBe(413);
      expect(((await huge.json()) as { error: string }).error).toBe('the request body is larger than the 16 KiB a form or a JSON request may send');
      const deep = await send(
        app,
        client,
        'POST',
        route.path(gameId),
        { raw: nested(route.field, 5_000), type: 'application/json' },
        { 'x-csrf-token': client.csrf },
      );
      expect(deep.status).toBe(400);
      expect(((await deep.json()) as { error: string }).error).toBe(
        `the request body is refused: it nests arrays and objects more than ${MAX_JSON_DEPTH} levels deep (at character ${route.field.length + 5 + MAX_JSON_DEPTH})`,
      );
      expect(ledger.store.head().position).toBe(head);
      ledger.close();
    });
  }

  it('on a record import, 100,000 deep fits the 1 MiB allowed there and is refused as too deep', async () => {
    const { ledger, app } = copyOf(fixture);
    const judge = fixture.clients.judge;
    const body = `{"gameId": "deep", "record": ${'['.repeat(100_000)}${']'.repeat(100_000)}}`;
    const res = await send(app, judge, 'POST', '/api/games/import', { raw: body, type: 'application/json' }, { 'x-csrf-token': judge.csrf });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: string }).error).toMatch(/^the request body is refused: it nests arrays and objects more than 32 levels deep/);
    ledger.close();
  });

  it('a whole game record, played card by card, nests far within the limit and is entered', async () => {
    const { ledger, app } = copyOf(fixture);
    const judge = fixture.clients.judge;
    const body = JSON.stringify({ gameId: 'paper-1', record: fullGameRecord() });
    let depth = 0;
    let most = 0;
    for (const ch of body) {
      if (ch === '[' || ch === '{') most = Math.max(most, ++depth);
      if (ch === ']' || ch === '}') depth--;
    }
    expect(most).toBe(6);
    const res = await send(app, judge, 'POST', '/api/games/import', { raw: body, type: 'application/json' }, { 'x-csrf-token': judge.csrf });
    expect(res.status).toBe(201);
    ledger.close();
  });

  it('a paper record of 35,715 misdeals fits the 1 MiB and is refused at once by what a game can hold, appending nothing', async () => {
    const { ledger, app } = copyOf(fixture);
    const judge = fixture.clients.judge;
    const head = ledger.store.head().position;
    const misdeals = { format: 'spades-game/1', rules: 'unc-300', hands: Array.from({ length: 35_715 }, () => ({ misdeal: 'no-face-cards' })) };
    const body = JSON.stringify({ gameId: 'endless', record: misdeals });
    expect(body.length).toBeLessThan(1024 * 1024);
    const res = await send(app, judge, 'POST', '/api/games/import', { raw: body, type: 'application/json' }, { 'x-csrf-token': judge.csrf });
    expect(res.status).toBe(413);
    expect(((await res.json()) as { error: string }).error).toBe(
      `record: hands[${RECORD_MAX_MISDEALS_IN_A_ROW}]: more than ${RECORD_MAX_MISDEALS_IN_A_ROW} misdeals in a row (hands 1–6); a game record holds at most ${RECORD_MAX_MISDEALS_IN_A_ROW} misdeals running`,
    );
    // A record of more hands than a game holds, each one scored, is refused by the count of hands.
    const dealt = fullGameRecord() as { hands: unknown[] };
    const long = {
      ...dealt,
      hands: Array.from({ length: RECORD_MAX_HANDS + 1 }, (_, i) => dealt.hands[i % dealt.hands.length]).filter((h) => !('misdeal' in (h as object))),
    };
    while (long.hands.length <= RECORD_MAX_HANDS) long.hands.push(long.hands[0]);
    const many = await send(
      app,
      judge,
      'POST',
      '/api/games/import',
      { raw: JSON.stringify({ gameId: 'long', record: long }), type: 'application/json' },
      { 'x-csrf-token': judge.csrf },
    );
    expect(many.status).toBe(413);
    expect(((await many.json()) as { error: string }).error).toMatch(
      new RegExp(`^record: hands\\[${RECORD_MAX_HANDS}\\]: more than ${RECORD_MAX_HANDS} scored hands`),
    );
    expect(ledger.store.head().position).toBe(head);
    ledger.close();
  });

  it('a paper record is entered only as the table’s own entries would have been: a misdeal the preset does not know is refused', async () => {
    const { ledger, app } = copyOf(fixture);
    const judge = fixture.clients.judge;
    const head = ledger.store.head().position;
    const record = fullGameRecord() as { hands: Record<string, unknown>[] };
    const at = record.hands.findIndex((h) => 'misdeal' in h);
    record.hands[at] = { misdeal: 'the dealer sneezed' };
    const res = await send(
      app,
      judge,
      'POST',
      '/api/games/import',
      { raw: JSON.stringify({ gameId: 'sneeze', record }), type: 'application/json' },
      { 'x-csrf-token': judge.csrf },
    );
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: string }).error).toMatch(
      /^record: game sneeze hand 2: .*the dealer sneezed.* is not a misdeal under this event’s rules; a misdeal is called for /,
    );
    expect(ledger.store.head().position).toBe(head);
    ledger.close();
  });

  it('a form larger than the limit is refused as too large', async () => {
    const { ledger, app } = copyOf(fixture);
    const director = fixture.clients.director;
    const res = await send(app, director, 'POST', '/director/tournaments', { form: { tournamentId: 'big', name: 'x'.repeat(FORM_BODY_BYTES) } });
    expect(res.status).toBe(413);
    expect(await res.text()).toContain('the request body is larger than the 16 KiB a form or a JSON request may send');
    ledger.close();
  });
});

describe('ids that every object has', () => {
  const IDS = ['constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf'];

  it('answer 4xx in every public URL, and no stream fails', async () => {
    const { ledger, app } = copyOf(fixture);
    for (const id of IDS) {
      const paths = [
        `/games/${id}`,
        `/games/${id}/record`,
        `/games/${id}/hands/1/replay`,
        `/tournaments/${id}`,
        `/tournaments/${id}/leaderboard`,
        `/tournaments/${id}/bracket`,
        `/tournaments/${id}/screen`,
        `/tournaments/${id}/games/${id}`,
        `/tournaments/t1/games/${id}`,
        `/tournaments/${id}/standings.csv`,
        `/tournaments/${id}/as-of?position=1`,
        `/static/${id}`,
        `/join?code=${id}`,
      ];
      for (const path of paths) {
        const res = await app.request(path, { headers: { accept: 'application/json' } });
        expect([400, 401, 404], `${path} answered ${res.status}`).toContain(res.status);
        await res.body?.cancel();
      }
      for (const path of [`/games/${id}/stream`, `/tournaments/${id}/leaderboard/stream`, `/tournaments/t1/games/${id}/stream`]) {
        const res = await app.request(path);
        expect(res.status, path).toBeLessThan(500);
        await res.body?.cancel();
      }
    }
    ledger.close();
  });

  it('answer 4xx with a sentence naming the id on the routes of every role', async () => {
    const { ledger, app } = copyOf(fixture);
    const { director, judge, scorekeeper } = fixture.clients;
    for (const id of IDS) {
      const cases = [
        { client: director, method: 'GET', path: `/director/tournaments/${id}` },
        { client: director, method: 'GET', path: `/director/tournaments/${id}/codes` },
        { client: director, method: 'POST', path: `/director/tournaments/${id}/teams`, json: { name: 'Evil', players: ['a', 'b'] } },
        { client: director, method: 'POST', path: `/director/tournaments/${id}/tables/1/code`, json: {} },
        { client: judge, method: 'POST', path: `/judge/games/${id}/claims/c1/ruling`, json: { upheld: true } },
        { client: judge, method: 'POST', path: '/judge/time', json: { tournamentId: id, matchId: 'm1' } },
        {
          client: judge,
          method: 'POST',
          path: '/api/games/import',
          json: { tournamentId: id, matchId: 'm1', record: { format: 'spades-game/1', rules: 'unc-300', dealer: 'N', hands: [] } },
        },
        { client: scorekeeper, method: 'GET', path: `/entry/tables/${id}/1` },
        { client: scorekeeper, method: 'POST', path: `/entry/games/${id}/bid`, json: { seat: 'N', bid: 3 } },
      ];
      for (const c of cases) {
        const res = await send(app, c.client, c.method, c.path, c.json ? { json: c.json } : {}, { accept: 'application/json' });
        expect(res.status, `${c.method} ${c.path} answered ${res.status}`).toBeGreaterThanOrEqual(400);
        expect(res.status, `${c.method} ${c.path}`).toBeLessThan(500);
        const text = await res.text();
        if (res.status !== 403) expect(text, `${c.method} ${c.path}`).toContain(id);
      }
    }
    ledger.close();
  });

  it('refuse a tournament id every object answers to (constructor, __proto__) with a sentence, recording nothing', async () => {
    const { ledger, app } = copyOf(fixture);
    const director = fixture.clients.director;
    const head = ledger.store.head().position;
    const made = await send(app, director, 'POST', '/director/tournaments', {
      json: { tournamentId: 'constructor', name: 'Builders Open', format: 'pitt-boss' },
    });
    expect(made.status).toBe(400);
    expect(((await made.json()) as { error: string }).error).toBe(
      "'constructor' cannot be a tournament id: the server keeps that word for itself; choose other letters, digits and dashes",
    );
    expect((await app.request('/tournaments/constructor')).status).toBe(404);
    expect(ledger.store.head().position).toBe(head);
    expect(() => createTournament(ledger.models, { tournamentId: '__proto__', name: 'Proto', format: 'pitt-boss' })).toThrow(
      "'__proto__' cannot be a tournament id: the server keeps that word for itself; choose other letters, digits and dashes",
    );
    ledger.close();
  });
});

describe('a 64 MiB body to a running server', () => {
  const rss = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) * 1024;

  /** Sends 64 MiB to /login in 64 KiB writes, as fast as the socket takes them; resolves when the server answers or hangs up. */
  const send64 = (port: number, chunked: boolean) =>
    new Promise<{ status: number | null; body: string; sent: number }>((resolve) => {
      const total = 64 * 1024 * 1024;
      const chunk = Buffer.alloc(64 * 1024, 'a');
      let sent = 0;
      const headers = { 'content-type': 'application/x-www-form-urlencoded', ...(chunked ? {} : { 'content-length': String(total) }) };
      const req = request({ host: '127.0.0.1', port, path: '/login', method: 'POST', headers }, (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (d: string) => (body += d));
        res.on('end', () => {
          resolve({ status: res.statusCode ?? null, body, sent });
          req.destroy();
        });
      });
      // The server hanging up mid-body is a refusal too: it read no more than it allowed.
      req.on('error', () => resolve({ status: null, body: '', sent }));
      const pump = () => {
        while (sent < total) {
          sent += chunk.length;
          if (!req.write(chunk)) return void req.once('drain', pump);
        }
        req.end();
      };
      pump();
    });

  it('is refused at once, and the server grows by less than 32 MiB', async () => {
    const server = await startServeProcess(tempDir());
    try {
      const pid = server.child.pid!;
      const before = rss(pid);
      const declared = await send64(server.port, false);
      expect(declared.status).toBe(413);
      expect(declared.body).toContain('the request body is larger than the 16 KiB a form or a JSON request may send');
      // Answered long before the body was through: the server did not wait for it.
      expect(declared.sent).toBeLessThan(32 * 1024 * 1024);
      const undeclared = await send64(server.port, true);
      expect(undeclared.status === 413 || undeclared.status === null).toBe(true);
      expect(undeclared.sent).toBeLessThan(32 * 1024 * 1024);
      // Twice more at once: still bounded.
      await Promise.all([send64(server.port, false), send64(server.port, true)]);
      expect(rss(pid) - before).toBeLessThan(32 * 1024 * 1024);
      const health = await fetch(`${server.url}/healthz`);
      expect(health.status).toBe(200);
    } finally {
      await killHard(server.child);
    }
  }, 60_000);
});

describe('spades with its output pipe closed', () => {
  it('exits quietly, with no stack trace', async () => {
    const dir = tempDir();
    const path = join(dir, 'ledger.db');
    const ledger = openLedger({ path, synchronous: 'NORMAL' });
    for (let i = 0; i < 50; i++) ledger.execute(createTournament(ledger.models, { tournamentId: `t${i}`, name: `T${i}`, format: 'pitt-boss' }));
    ledger.close();
    for (const args of [
      ['verify', '--db', path],
      ['export', '--db', path],
    ]) {
      const child = spawn(process.execPath, [join(ROOT, 'bin', 'spades.js'), ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
      // The reader goes away at once, as `head -1` does after its line.
      child.stdout.destroy();
      let stderr = '';
      child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
      const code = await new Promise<number | null>((resolve) => child.once('close', (c) => resolve(c)));
      expect(stderr, args.join(' ')).toBe('');
      expect(code, args.join(' ')).toBe(0);
    }
  }, 60_000);
});

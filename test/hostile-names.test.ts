/**
 * Ids and names built to break lookups: an import naming a side `__proto__` or `constructor` is
 * refused with a sentence and records nothing; a game whose ledger already holds such sides (a
 * ledger from before the check, or brought in whole) still shows on every page, never a 500; and
 * a page that does fail answers a page in people's words, never a bare stack.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importRecord } from '../events/record-import.ts';
import { idProblem, nameProblem } from '../events/names.ts';
import { createTournament, registerTeam } from '../server/commands/tournament-commands.ts';
import { type Fixture, copyOf, makeFixture, send } from './routes-fixture.ts';
import { fullGameRecord } from './record-builders.ts';

let fixture: Fixture;
beforeAll(async () => {
  fixture = await makeFixture();
});
afterAll(() => fixture?.close());

const HOSTILE = ['__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty'];

describe('an import naming what every object answers to', () => {
  for (const word of HOSTILE) {
    it(`refuses a side named '${word}' with a sentence, recording nothing`, async () => {
      const { ledger, app } = copyOf(fixture);
      const judge = fixture.clients.judge;
      const head = ledger.store.head().position;
      const res = await send(app, judge, 'POST', '/api/games/import', {
        json: { gameId: 'paper-h', teams: { NS: 'Ana & Cy', EW: word }, record: fullGameRecord() },
      });
      expect(res.status).toBe(400);
      expect(((await res.json()) as { error: string }).error).toBe(
        `teams.EW: '${word}' cannot name a side: the server keeps that word for itself; give the team's name`,
      );
      expect(ledger.store.head().position).toBe(head);
      expect(Object.hasOwn(ledger.models.games, 'paper-h')).toBe(false);
      ledger.close();
    });
  }

  it('refuses a game id, tournament id or match id registration would refuse', async () => {
    const { ledger, app } = copyOf(fixture);
    const judge = fixture.clients.judge;
    const head = ledger.store.head().position;
    const cases: [Record<string, unknown>, string][] = [
      [{ gameId: '__proto__' }, "'__proto__' cannot be a game id: the server keeps that word for itself; choose other letters, digits and dashes"],
      [{ gameId: 'constructor' }, "'constructor' cannot be a game id: the server keeps that word for itself; choose other letters, digits and dashes"],
      [{ gameId: 'paper 1' }, "a game id is letters, digits and dashes, not 'paper 1'"],
      [{ gameId: 'g'.repeat(121) }, `the game id '${'g'.repeat(24)}…' is 121 characters long; a game id is at most 120`],
      [
        { tournamentId: 'prototype', matchId: 'W1-1' },
        "'prototype' cannot be a tournament id: the server keeps that word for itself; choose other letters, digits and dashes",
      ],
      [
        { tournamentId: 't1', matchId: 'constructor' },
        "'constructor' cannot be a match id: the server keeps that word for itself; choose other letters, digits and dashes",
      ],
    ];
    for (const [target, error] of cases) {
      const res = await send(app, judge, 'POST', '/api/games/import', { json: { ...target, record: fullGameRecord() } });
      expect(res.status, JSON.stringify(target)).toBe(400);
      expect(((await res.json()) as { error: string }).error).toBe(error);
    }
    expect(ledger.store.head().position).toBe(head);
    ledger.close();
  });

  it('registration refuses the same ids, with the same sentence', () => {
    const { ledger } = copyOf(fixture);
    expect(() => createTournament(ledger.models, { tournamentId: 'constructor', name: 'Builders', format: 'pitt-boss' })).toThrow(
      "'constructor' cannot be a tournament id: the server keeps that word for itself; choose other letters, digits and dashes",
    );
    expect(() => registerTeam(ledger.models, { tournamentId: 't2', teamId: 'prototype', name: 'Protos', players: ['A', 'B'] })).toThrow(
      "'prototype' cannot be a team id: the server keeps that word for itself; choose other letters, digits and dashes",
    );
    expect(idProblem('team-1', 'a team id')).toBeNull();
    ledger.close();
  });
});

describe('a game whose ledger already holds hostile sides', () => {
  /** Enters a game of its own whose sides are `sides`, as a ledger from before the check holds them. */
  function storedWithSides(ledger: ReturnType<typeof copyOf>['ledger'], gameId: string, sides: { NS: string; EW: string }) {
    const decision = importRecord(ledger.models, fullGameRecord(), { gameId, teams: { NS: 'Placeholder A', EW: 'Placeholder B' } }, '2026-03-01T12:00:00.000Z');
    (decision.events[0]!.payload as { teams: unknown }).teams = sides;
    ledger.execute(decision);
  }

  it('shows its page, record, replay and API with the sides as written, never a 500', async () => {
    const { ledger, app } = copyOf(fixture);
    storedWithSides(ledger, 'old-1', { NS: 'constructor', EW: '__proto__' });
    storedWithSides(ledger, 'old-2', { NS: 'toString', EW: 'hasOwnProperty' });
    for (const [gameId, sides] of [
      ['old-1', ['constructor', '__proto__']],
      ['old-2', ['toString', 'hasOwnProperty']],
    ] as const) {
      for (const path of [`/games/${gameId}`, `/games/${gameId}/hands/1/replay`, `/games/${gameId}/record`, `/api/v1/games/${gameId}`]) {
        const res = await app.request(path);
        const body = await res.text();
        expect(res.status, `${path}: ${body.slice(0, 200)}`).toBe(200);
        if (!path.endsWith('/record')) for (const side of sides) expect(body, path).toContain(side);
      }
    }
    ledger.close();
  });
});

describe('a page that fails', () => {
  it('answers a page that says so in people’s words, with the way home, and never the stack', async () => {
    const { ledger, app } = copyOf(fixture);
    app.get('/games/:gameId/broken', () => {
      throw new TypeError('text2.slice is not a function');
    });
    const quiet = console.error;
    console.error = () => {};
    try {
      const page = await app.request('/games/x/broken', { headers: { accept: 'text/html' } });
      expect(page.status).toBe(500);
      expect(page.headers.get('content-type')).toMatch(/^text\/html/);
      const html = await page.text();
      expect(html).toContain('Something went wrong');
      expect(html).toContain('<a href="/">See every tournament</a>');
      expect(html).not.toContain('slice');
      expect(html).not.toContain('TypeError');
      const api = await app.request('/games/x/broken', { headers: { accept: 'application/json' } });
      expect(api.status).toBe(500);
      expect(await api.json()).toEqual({ error: 'the server failed to answer this request; it has been logged' });
    } finally {
      console.error = quiet;
    }
    ledger.close();
  });
});

describe('nameProblem', () => {
  it('leaves visible names alone, accents, emoji and all', () => {
    for (const name of ['Ana & Cy', 'Zoë O’Brien', 'Łukasz', '東京 Aces', 'Team 🂡']) expect(nameProblem(name, 'the name')).toBeNull();
  });
});

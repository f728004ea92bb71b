/**
 * A prepared ledger for the route tests: a running unc-intramural event of four teams (t1, with
 * a 30-minute match clock), an event still taking registrations (t2), a director and a judge
 * account, and the sessions of every role. The file is made once and copied per test, so every
 * request starts from the same ledger, and the cookies stay valid (the signing key is in the file).
 */
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Seat } from '../engine/cards.ts';
import { type Ledger, openLedger } from '../events/store/sqlite/ledger.ts';
import { createApp } from '../server/app/app.ts';
import { nextBidder } from '../events/game-projection.ts';
import { bidsOpenTo, dealHand, makeBid, recordTricks } from '../server/commands/game-commands.ts';
import { createTournament, registerTeam, startTournament } from '../server/commands/tournament-commands.ts';
import { startMatch } from '../server/commands/match-commands.ts';
import { bidValue } from '../engine/bid.ts';
import { expect } from 'vitest';

export type RoleName = 'public' | 'other-scorekeeper' | 'scorekeeper' | 'judge' | 'director';
export const ROLES: readonly RoleName[] = ['public', 'other-scorekeeper', 'scorekeeper', 'judge', 'director'];

export interface Client {
  cookie: string;
  csrf: string;
}

export interface Fixture {
  dir: string;
  template: string;
  clients: Record<Exclude<RoleName, 'public'>, Client>;
  /** The ready match the tests seat at table 1. */
  matchId: string;
  close(): void;
}

const START = '2026-03-01T10:00:00.000Z';

function clockFrom(start: string) {
  let tick = 0;
  return () => new Date(Date.parse(start) + tick++ * 1000).toISOString();
}

/** Opens a ledger file with a steady clock. */
export function open(path: string): Ledger {
  return openLedger({ path, synchronous: 'NORMAL', clock: clockFrom(START) });
}

/** Builds the template ledger and signs every role in once. */
export async function makeFixture(): Promise<Fixture> {
  const dir = mkdtempSync(join(tmpdir(), 'spades-routes-'));
  const template = join(dir, 'template.db');
  const ledger = open(template);
  const m = ledger.models;
  ledger.execute(createTournament(m, { tournamentId: 't1', name: 'Spring Cup', format: 'unc-intramural' }));
  ['Aces', 'Kings', 'Queens', 'Jacks'].forEach((name, i) => {
    ledger.execute(registerTeam(m, { tournamentId: 't1', teamId: `team-${i + 1}`, name, players: [`${name} One`, `${name} Two`] }));
  });
  ledger.execute(startTournament(m, { tournamentId: 't1', order: ['team-1', 'team-2', 'team-3', 'team-4'] }));
  ledger.execute(createTournament(m, { tournamentId: 't2', name: 'Autumn Open', format: 'pitt-boss' }));
  ['Deuces', 'Treys'].forEach((name, i) => {
    ledger.execute(registerTeam(m, { tournamentId: 't2', teamId: `open-${i + 1}`, name, players: [`${name} A`, `${name} B`] }));
  });
  const matchId = m.tournaments.t1!.model.matches.find((x) => x.status === 'ready')!.matchId;
  const { app, auth } = createApp({ ledger });
  await auth.users.add('Dana Director', 'director', 'director-password');
  await auth.users.add('Jo Judge', 'judge', 'judge-password');
  const login = async (body: Record<string, string>, path: string): Promise<Client> => {
    const res = await app.request(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    if (res.status !== 200) throw new Error(`${path} answered ${res.status}: ${await res.text()}`);
    const cookie = (res.headers.get('set-cookie') ?? '').split(';')[0]!;
    return { cookie, csrf: ((await res.json()) as { csrf: string }).csrf };
  };
  const clients = {
    director: await login({ name: 'Dana Director', password: 'director-password' }, '/login'),
    judge: await login({ name: 'Jo Judge', password: 'judge-password' }, '/login'),
    scorekeeper: await login({ code: await auth.tableCode('t1', 1) }, '/join'),
    'other-scorekeeper': await login({ code: await auth.tableCode('t1', 2) }, '/join'),
  };
  ledger.close();
  return { dir, template, clients, matchId, close: () => rmSync(dir, { recursive: true, force: true }) };
}

let copies = 0;

/** A fresh copy of the template, with its app; `now` is the time the routes record (clocks, time calls). */
export function copyOf(fixture: Fixture, now = () => START) {
  const path = join(fixture.dir, `copy-${++copies}.db`);
  copyFileSync(fixture.template, path);
  const ledger = open(path);
  let seeds = 0;
  const made = createApp({ ledger, newSeed: () => `seed-${++seeds}`, now });
  return { ledger, ...made };
}

/** Sends a request as a role: JSON (token in a header) or a form (token in `_csrf`). */
export function send(
  app: { request: (path: string, init: RequestInit) => Response | Promise<Response> },
  client: Client | null,
  method: string,
  path: string,
  body: { json?: unknown; form?: Record<string, string>; raw?: string; type?: string } = {},
  headers: Record<string, string> = {},
): Promise<Response> {
  const h: Record<string, string> = { ...headers };
  if (client) h.cookie = client.cookie;
  let payload: string | undefined;
  if (body.json !== undefined) {
    h['content-type'] = 'application/json';
    if (client && h['x-csrf-token'] === undefined) h['x-csrf-token'] = client.csrf;
    payload = JSON.stringify(body.json);
  } else if (body.form) {
    h['content-type'] = 'application/x-www-form-urlencoded';
    const form = new URLSearchParams(body.form);
    if (client && !form.has('_csrf')) form.set('_csrf', client.csrf);
    payload = form.toString();
  } else if (body.raw !== undefined) {
    h['content-type'] = body.type ?? 'text/plain';
    payload = body.raw;
  }
  return Promise.resolve(app.request(path, { method, headers: h, ...(payload !== undefined ? { body: payload } : {}) }));
}

/** Seats the fixture's ready match at table 1 (clock started at the fixture's start). */
export function seatMatch(ledger: Ledger, matchId: string): string {
  ledger.execute(
    startMatch(ledger.models, {
      tournamentId: 't1',
      matchId,
      table: 1,
      at: START,
      draw: { method: 'high-card', rounds: [{ N: 'AS', E: 'KS', S: 'QS', W: 'JS' }] },
    }),
  );
  const match = ledger.models.tournaments.t1!.model.matches.find((x) => x.matchId === matchId)!;
  return match.games[match.games.length - 1]!;
}

/** Deals the game's next hand from a seed. */
export function deal(ledger: Ledger, gameId: string, seed = 'fixture-deal'): void {
  ledger.execute(dealHand(ledger.models, { gameId, seed }));
}

/** Every seat bids the first bid the preset leaves open to it, in the preset's order. */
export function bidAll(ledger: Ledger, gameId: string, count = 4): void {
  for (let i = 0; i < count; i++) {
    const game = ledger.models.games[gameId]!;
    const seat = nextBidder(game) as Seat;
    const open = bidsOpenTo(game, seat)
      .map(bidValue)
      .filter((b) => typeof b === 'number');
    ledger.execute(makeBid(ledger.models, { gameId, seat, bid: open.includes(3) ? 3 : open[0]! }));
  }
}

/** Plays the game out in quick mode, North–South bidding high and taking every trick, until it is won. */
export function finishGame(ledger: Ledger, gameId: string): void {
  for (let hand = 1; !ledger.models.games[gameId]!.winner; hand++) {
    if (hand > 40) throw new Error(`game ${gameId} did not finish`);
    deal(ledger, gameId, `finish-${hand}`);
    for (let i = 0; i < 4; i++) {
      const game = ledger.models.games[gameId]!;
      const seat = nextBidder(game) as Seat;
      const open = bidsOpenTo(game, seat)
        .map(bidValue)
        .filter((b): b is number => typeof b === 'number');
      const want = seat === 'N' || seat === 'S' ? 6 : 2;
      ledger.execute(makeBid(ledger.models, { gameId, seat, bid: open.includes(want) ? want : open[0]! }));
    }
    ledger.execute(recordTricks(ledger.models, { gameId, tricks: { N: 7, S: 6, E: 0, W: 0 } }));
  }
}

/** A JSON answer's body, once its status is the one expected (200 unless said); the body is in the message when it is not. */
export async function answer<T extends object = Record<string, unknown>>(res: Response | Promise<Response>, status = 200): Promise<T> {
  const got = await res;
  const body = (await got.json()) as T;
  expect(got.status, JSON.stringify(body)).toBe(status);
  return body;
}

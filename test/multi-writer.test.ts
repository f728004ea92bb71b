/**
 * The ledger file is the only truth, whoever writes to it. Real processes: two `spades serve`
 * on one data folder with their bots playing the same tables, the command-line importer
 * entering paper games at the same time, and a client racing the same entry to both servers.
 * Every race has one winner and a 409 for the loser; nothing is recorded twice; each server's
 * read models equal a rebuild; the chain verifies. And a game entered with `spades import`
 * while a server runs shows on that server's pages and streams within a second.
 */
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { type Ledger, openLedger } from '../events/store/sqlite/ledger.ts';
import { projected } from '../events/store/served-ledger.ts';
import { type ReadModels, foldEvents } from '../events/projections.ts';
import { createTournament, registerTeam, startTournament } from '../server/commands/tournament-commands.ts';
import { nextEntry } from '../server/serve/table-driver.ts';
import { fullGameRecord } from './record-builders.ts';
import { spadesProcess } from './fixtures/spades-process.ts';
import { type ServeProcess, openSse, startServeProcess, waitFor } from './fixtures/live-server.ts';

const dirs: string[] = [];
const children: ChildProcess[] = [];
afterAll(() => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'spades-writers-'));
  dirs.push(dir);
  return dir;
}

type Server = ServeProcess;

async function startServer(dataDir: string, args: string[]): Promise<Server> {
  const server = await startServeProcess(dataDir, 0, args);
  children.push(server.child);
  return { ...server, url: `http://127.0.0.1:${server.port}` };
}

async function stop(server: Server): Promise<void> {
  if (server.child.exitCode !== null) return;
  const exited = new Promise((resolve) => server.child.once('exit', resolve));
  server.child.kill('SIGTERM');
  await exited;
}

async function signIn(url: string, name: string, password: string): Promise<Record<string, string>> {
  const res = await fetch(`${url}/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: url },
    body: JSON.stringify({ name, password }),
  });
  if (res.status !== 200) throw new Error(`signing in to ${url} failed: ${res.status} ${await res.text()}`);
  const { csrf } = (await res.json()) as { csrf: string };
  return {
    cookie: res.headers.get('set-cookie')!.split(';')[0]!,
    'x-csrf-token': csrf,
    'content-type': 'application/json',
    accept: 'application/json',
    origin: url,
  };
}

/** The stored snapshot: the models a server held when it stopped, and the position they stand at. */
function storedModels(path: string): ReadModels {
  const db = new BetterSqlite3(path, { readonly: true });
  try {
    const row = db.prepare("SELECT state FROM read_models WHERE name LIKE 'models-%'").get() as { state: string };
    return JSON.parse(row.state) as ReadModels;
  } finally {
    db.close();
  }
}

function rebuiltTo(ledger: Ledger, position: number): unknown {
  return JSON.parse(JSON.stringify(foldEvents(ledger.store.readAll().map(projected), position)));
}

describe('several writers on one ledger file', () => {
  it('two servers with their bots, the importer and a racing client: one winner per race, 409 for the rest, nothing twice, models equal a rebuild', async () => {
    const dataDir = tempDir();
    const path = join(dataDir, 'spades.db');
    // The demo is set up only in a new data folder: the first server makes it, then the director
    // is added and the second server opens the same file beside the first.
    const a = await startServer(dataDir, ['--pace', '40']);
    expect((await spadesProcess(['add-user', 'Dee Rector', '--role', 'director', '--password', 'director-password-1', '--db', path])).code).toBe(0);
    const b = await startServer(dataDir, ['--pace', '40']);
    const headers = { a: await signIn(a.url, 'Dee Rector', 'director-password-1'), b: await signIn(b.url, 'Dee Rector', 'director-password-1') };

    // A view of the file of the client's own, to know which entry is next at a table.
    const view = openLedger({ path, readonly: true, snapshotEvery: Number.MAX_SAFE_INTEGER, onNotice: () => {} });
    const records = join(dataDir, 'paper.json');
    writeFileSync(records, JSON.stringify(fullGameRecord()));
    const imports = (async () => {
      const results = [];
      for (let i = 1; i <= 3; i++) results.push(await spadesProcess(['import', records, '--game', `paper-${i}`, '--db', path]));
      return results;
    })();

    const statuses: number[] = [];
    let wonBoth = 0;
    // At least 6 s of racing and at least 20 races, however busy the machine is (within 40 s).
    const started = Date.now();
    const racing = () => Date.now() - started < 40_000 && (Date.now() - started < 6000 || statuses.length < 40);
    let round = 0;
    while (racing()) {
      view.sync();
      const game = Object.values(view.models.games).filter((g) => g.tournamentId === 'demo' && !g.winner)[round++ % 4];
      const decision = game ? nextEntry(view, game, { seed: 'racer' }) : null;
      const event = decision?.events[0];
      if (!game || !event || !['BidMade', 'CardPlayed'].includes(event.type)) {
        await new Promise((resolve) => setTimeout(resolve, 20));
        continue;
      }
      const payload = event.payload as Record<string, unknown>;
      const route = event.type === 'BidMade' ? 'bid' : 'play';
      const body = event.type === 'BidMade' ? { seat: payload.seat, bid: payload.bid } : { seat: payload.seat, card: payload.card };
      // The same entry to both servers at once, as two scorekeepers' phones would send it.
      const answers = await Promise.all(
        (['a', 'b'] as const).map((which) =>
          fetch(`${which === 'a' ? a.url : b.url}/entry/games/${game.gameId}/${route}`, {
            method: 'POST',
            headers: headers[which],
            body: JSON.stringify({ ...body, commandId: `race-${which}-${round}-${Date.now()}` }),
          }),
        ),
      );
      const codes = answers.map((r) => r.status);
      statuses.push(...codes);
      if (codes.every((c) => c === 200)) wonBoth++;
    }
    const imported = await imports;
    view.close();

    expect(imported.map((r) => r.code)).toEqual([0, 0, 0]);
    expect(statuses.length).toBeGreaterThanOrEqual(40);
    // Every answer is a recorded entry or a 409 saying the table had moved on; never both recorded.
    expect(statuses.filter((s) => s !== 200 && s !== 409)).toEqual([]);
    expect(statuses.filter((s) => s === 409).length).toBeGreaterThan(0);
    expect(wonBoth).toBe(0);

    // Each server's models, as it stored them when it stopped, equal a rebuild up to where they stood.
    const check = openLedger({ path, readonly: true, snapshotEvery: Number.MAX_SAFE_INTEGER, onNotice: () => {} });
    for (const server of [a, b]) {
      await stop(server);
      expect(server.child.exitCode).toBe(0);
      const stored = storedModels(path);
      expect(stored.position).toBeGreaterThan(100);
      check.sync();
      expect(stored).toEqual(rebuiltTo(check, stored.position));
    }

    // Nothing recorded twice: one start per game, each card once a hand, versions gapless per stream.
    const events = check.store.readAll();
    check.close();
    const starts = events.filter((e) => e.type === 'GameStarted').map((e) => (e.payload as { gameId: string }).gameId);
    expect(new Set(starts).size).toBe(starts.length);
    const cards = new Set<string>();
    for (const e of events.filter((e) => e.type === 'CardPlayed')) {
      const p = e.payload as { gameId: string; hand: number; card: string };
      const key = `${p.gameId}/${p.hand}/${p.card}`;
      expect(cards.has(key), `${key} played twice`).toBe(false);
      cards.add(key);
    }
    for (const gameId of ['paper-1', 'paper-2', 'paper-3']) expect(events.filter((e) => e.stream === `game-${gameId}`).length).toBeGreaterThan(100);
    expect(await spadesProcess(['verify', '--db', path])).toMatchObject({ code: 0, stdout: expect.stringContaining('chain intact') });
    // Both servers played: each won some entries (the bots' losses are silent 409s of their own).
    expect(new Set(events.filter((e) => e.meta.by === 'table-bot').map((e) => e.meta.at)).size).toBeGreaterThan(20);
  }, 120_000);

  it('a game entered with spades import while a server runs shows on its pages and streams within a second, and the match cannot be started again', async () => {
    const dataDir = tempDir();
    const path = join(dataDir, 'spades.db');
    const setup = openLedger({ path });
    setup.execute(createTournament(setup.models, { tournamentId: 't2', name: 'Paper cup', format: 'unc-intramural' }));
    for (const id of ['a', 'b', 'c', 'd'])
      setup.execute(registerTeam(setup.models, { tournamentId: 't2', teamId: id, name: `Team ${id.toUpperCase()}`, players: [`${id}1`, `${id}2`] }));
    setup.execute(startTournament(setup.models, { tournamentId: 't2', order: ['a', 'b', 'c', 'd'] }));
    const match = setup.models.tournaments.t2!.model.matches.find((m) => m.status === 'ready')!;
    const before = setup.models.position;
    setup.close();
    expect((await spadesProcess(['add-user', 'Dee Rector', '--role', 'director', '--password', 'director-password-1', '--db', path])).code).toBe(0);

    const server = await startServer(dataDir, ['--no-demo']);
    const feed = await openSse(`${server.url}/api/events/stream?after=${before}`);
    const screen = await openSse(`${server.url}/tournaments/t2/stream?after=${before}`);
    const record = { ...fullGameRecord() } as Record<string, unknown>;
    delete record.seats;
    const file = join(dataDir, 'paper.json');
    writeFileSync(file, JSON.stringify(record));

    const imported = await spadesProcess(['import', file, '--tournament', 't2', '--match', match.matchId, '--db', path]);
    const done = Date.now();
    expect(imported.code).toBe(0);
    const last = Number(/positions \d+–(\d+)/.exec(imported.stdout)![1]);
    await waitFor('the imported events on the event feed', () => feed.messages.some((m) => Number(m.id) === last), 1000);
    await waitFor('the tournament stream to carry them', () => screen.messages.some((m) => Number(m.id) >= last), 1000);
    expect(Date.now() - done).toBeLessThan(1000);
    // The feed carries every imported event once, in order.
    expect(feed.messages.map((m) => Number(m.id))).toEqual(Array.from({ length: last - before }, (_, i) => before + 1 + i));
    feed.close();
    screen.close();

    const gameId = `t2-${match.matchId}-g1`;
    const table = await fetch(`${server.url}/tournaments/t2/games/${gameId}`);
    expect(table.status).toBe(200);
    expect(await table.text()).toContain('Team A');

    const headers = await signIn(server.url, 'Dee Rector', 'director-password-1');
    const again = await fetch(`${server.url}/director/tournaments/t2/matches/${match.matchId}/start`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ table: 1 }),
    });
    expect(again.status).toBe(409);
    expect(((await again.json()) as { error: string }).error).toMatch(match.matchId);
    await stop(server);
    const events = openLedger({ path, readonly: true, onNotice: () => {} });
    expect(events.store.readStream(`game-${gameId}`).filter((e) => e.type === 'GameStarted')).toHaveLength(1);
    events.close();
  }, 60_000);
});

/**
 * Stopping `spades serve` with SIGTERM, as an operator or a service manager does, after a busy
 * day: a 64-team tournament played to its champion in the ledger file, screens and an event feed
 * attached (one still catching up from the first event), a heavy read under way on the reader's
 * thread, and sign-ups arriving. The process tells every stream when to come back (`retry:`),
 * answers what it took, records everything it acknowledged, and exits within 3 seconds with
 * status 0, leaving no -wal or -shm beside the ledger file. On PostgreSQL too, with the demo's
 * bots entering.
 */
import { existsSync } from 'node:fs';
import { createParser } from 'eventsource-parser';
import { afterAll, describe, expect, it } from 'vitest';
import { openLedger } from '../events/store/sqlite/ledger.ts';
import { setSignUp } from '../server/commands/registration-commands.ts';
import { createTournament, registerTeam, startTournament } from '../server/commands/tournament-commands.ts';
import { driveTables } from '../server/serve/table-driver.ts';
import { killHard, ledgerPath, removeTempDirs, type ServeProcess, startServeProcess, tempDir, waitFor } from './fixtures/live-server.ts';
import { type PostgresCluster, postgres, startPostgres } from './fixtures/postgres.ts';

afterAll(() => removeTempDirs());

/** A 64-team knockout played to its champion, card by card, and a second event taking sign-ups. */
async function busyDay(dataDir: string): Promise<number> {
  const ledger = openLedger({ path: ledgerPath(dataDir), synchronous: 'NORMAL' });
  try {
    const m = ledger.models;
    ledger.execute(
      createTournament(m, {
        tournamentId: 'big',
        name: 'Big Day',
        format: 'custom',
        options: { elimination: 'single', gamesToWin: 1, rules: { preset: 'pitt-boss', target: 200 } },
      }),
    );
    for (let i = 1; i <= 64; i++)
      ledger.execute(registerTeam(m, { tournamentId: 'big', teamId: `team${i}`, name: `Team ${i}`, players: [`P${i}a`, `P${i}b`] }));
    ledger.execute(startTournament(m, { tournamentId: 'big', seed: 'busy-day' }));
    while ((await driveTables(ledger, { tournamentId: 'big', seed: 'busy-day', now: () => '2026-01-01T12:00:00.000Z' })) > 0) {
      // every table makes one entry a pass until the champion is known
    }
    ledger.execute(createTournament(m, { tournamentId: 'late', name: 'Late Show', format: 'unc-intramural' }));
    ledger.execute(setSignUp(m, { tournamentId: 'late', open: true, cap: null, closes: null, at: new Date().toISOString() }));
    return ledger.store.head().position;
  } finally {
    ledger.close();
  }
}

/** An event stream read as a browser's EventSource reads it: its events, the retry it was told, whether it ended. */
function follow(url: string) {
  const abort = new AbortController();
  const seen = { events: 0, retry: null as number | null, ended: false };
  const done = (async () => {
    try {
      const response = await fetch(url, { headers: { accept: 'text/event-stream' }, signal: abort.signal });
      const parser = createParser({ onEvent: () => seen.events++, onRetry: (ms) => (seen.retry = ms) });
      const reader = response.body!.getReader();
      const decoder = new TextDecoder();
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        parser.feed(decoder.decode(value, { stream: true }));
      }
    } catch {
      // a connection cut ends the stream as the server's end does
    }
    seen.ended = true;
  })();
  return { seen, done, close: () => abort.abort() };
}

describe('spades serve stopped with SIGTERM after a busy day', () => {
  let server: ServeProcess | null = null;
  afterAll(async () => {
    if (server) await killHard(server.child);
  });

  it('ends every stream with a retry hint, records what it acknowledged, and exits within 3 s leaving no -wal or -shm', async () => {
    const dataDir = tempDir('spades-stop-');
    const events = await busyDay(dataDir);
    expect(events).toBeGreaterThan(10_000);
    // Each sign-up from its own phone, as nginx names it in X-Real-IP.
    server = await startServeProcess(dataDir, 0, ['--no-demo'], { TRUST_PROXY: '127.0.0.1' });
    const url = `http://127.0.0.1:${server.port}`;

    // Screens attached: the venue screen, the standings, the bracket, and the event feed from
    // the first event (still catching up when the stop comes).
    const streams = [
      follow(`${url}/tournaments/big/screen/stream`),
      follow(`${url}/tournaments/big/leaderboard/stream`),
      follow(`${url}/tournaments/big/bracket/stream`),
      follow(`${url}/api/events/stream?after=${events - 50}`),
      follow(`${url}/api/events/stream?after=0`),
    ];
    await waitFor('the streams to open', () => streams.every((s) => s.seen.events > 0 || s.seen.ended === false), 5000);
    await new Promise((resolve) => setTimeout(resolve, 300));
    // A heavy read on the reader's thread, which holds the file open of its own.
    const verify = await fetch(`${url}/verify`);
    expect(verify.status).toBe(200);
    await verify.text();

    // Sign-ups arriving as the stop comes: each answered 200 is in the ledger afterwards.
    const answers = Array.from({ length: 30 }, (_, i) =>
      fetch(`${url}/tournaments/late/sign-up`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json', 'x-real-ip': `10.2.0.${i + 1}` },
        body: JSON.stringify({ name: `Late ${i + 1}`, player1: 'A', player2: 'B' }),
      }).then(
        async (res) => ({ status: res.status, body: (await res.json()) as { teamId?: string } }),
        () => ({ status: 0, body: {} as { teamId?: string } }),
      ),
    );
    // The stop comes once the first is answered, with the rest under way.
    await Promise.race(answers);
    const child = server.child;
    const exited = new Promise<{ code: number | null; signal: string | null }>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
    const asked = performance.now();
    child.kill('SIGTERM');
    const exit = await exited;
    const took = performance.now() - asked;

    expect(exit).toEqual({ code: 0, signal: null });
    expect(took).toBeLessThan(3000);
    await Promise.all(streams.map((s) => s.done));
    // Every stream was told to come back in a second, and ended.
    expect(streams.map((s) => s.seen)).toEqual(streams.map(() => expect.objectContaining({ ended: true, retry: 1000 })));
    // The file stands alone: its write-ahead log folded in and removed.
    const path = ledgerPath(dataDir);
    expect([existsSync(`${path}-wal`), existsSync(`${path}-shm`)]).toEqual([false, false]);

    // Every sign-up answered 200 is recorded; the others were answered nothing (never a 500).
    const settled = await Promise.all(answers);
    expect(settled.filter((a) => a.status !== 200 && a.status !== 0)).toEqual([]);
    expect(settled.filter((a) => a.status === 200).length).toBeGreaterThan(1);
    const ledger = openLedger({ path, readonly: true, onNotice: () => {} });
    try {
      const recorded = new Set(ledger.models.tournaments.late!.model.teams.map((t) => t.teamId));
      for (const a of settled.filter((a) => a.status === 200)) expect(recorded.has(a.body.teamId!)).toBe(true);
      expect(ledger.store.verifyChain().ok).toBe(true);
    } finally {
      ledger.close();
    }
    server = null;
  }, 180_000);
});

describe.skipIf(!postgres.available)('spades serve on PostgreSQL stopped with SIGTERM', () => {
  let cluster: PostgresCluster | null = null;
  let server: ServeProcess | null = null;
  afterAll(async () => {
    if (server) await killHard(server.child);
    await cluster?.stop();
  });

  it('ends every stream with a retry hint and exits within 3 s', async () => {
    cluster = await startPostgres();
    const databaseUrl = await cluster.createDatabase('stop');
    server = await startServeProcess(tempDir('spades-stop-pg-'), 0, ['--pace', '50'], { DATABASE_URL: databaseUrl });
    const url = `http://127.0.0.1:${server.port}`;
    const streams = [follow(`${url}/tournaments/demo/screen/stream`), follow(`${url}/api/events/stream?after=0`)];
    // The demo's bots entering while the screens watch.
    await waitFor('the bots to enter something', () => streams[1]!.seen.events > 40, 20_000);
    const child = server.child;
    const exited = new Promise<{ code: number | null; signal: string | null }>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
    const asked = performance.now();
    child.kill('SIGTERM');
    expect(await exited).toEqual({ code: 0, signal: null });
    expect(performance.now() - asked).toBeLessThan(3000);
    await Promise.all(streams.map((s) => s.done));
    expect(streams.map((s) => s.seen)).toEqual(streams.map(() => expect.objectContaining({ ended: true, retry: 1000 })));
    server = null;
  }, 120_000);
});

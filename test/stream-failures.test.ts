/**
 * A live stream that fails, with a view that throws while its regions are drawn (as a stored
 * name a view could not word once did), is closed and forgotten: never answered a second time
 * over the headers it already sent, never left open outside the broadcaster, and the other
 * pages' streams go on.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Ledger } from '../events/store/sqlite/ledger.ts';
import { TOURNAMENT, type InProcessServer, demoLedger, openSse, play, removeTempDirs, serveInProcess, tempDir, waitFor } from './fixtures/live-server.ts';

const failing = vi.hoisted(() => ({ on: false }));
vi.mock(import('../views/table.tsx'), async (original) => {
  const table = await original();
  return {
    ...table,
    TableView: (props: Parameters<typeof table.TableView>[0]) => {
      if (failing.on) throw new TypeError('text.slice is not a function');
      return table.TableView(props);
    },
  };
});

let ledger: Ledger;
let server: InProcessServer;
let logged: string[];
beforeAll(async () => {
  ledger = await demoLedger(tempDir());
  await play(ledger, 3);
  server = await serveInProcess(ledger);
});
afterAll(async () => {
  await server.close();
  ledger.close();
  removeTempDirs();
});
afterEach(() => {
  failing.on = false;
  vi.restoreAllMocks();
});

/** What the server logs, kept rather than printed. */
function keepLog(): void {
  logged = [];
  vi.spyOn(console, 'error').mockImplementation((...parts: unknown[]) => {
    logged.push(parts.map((p) => (p instanceof Error ? `${p.message} ${(p as NodeJS.ErrnoException).code ?? ''}` : String(p))).join(' '));
  });
}

/** A game being played at a table of the demo. */
function liveGame(): string {
  const game = Object.values(ledger.models.games).find((g) => g.tournamentId === TOURNAMENT && !g.winner);
  if (!game) throw new Error('no game in play');
  return game.gameId;
}

describe('a live stream that fails', () => {
  it('is closed and forgotten when its first regions cannot be drawn, with the failure logged once', async () => {
    keepLog();
    const gameId = liveGame();
    failing.on = true;
    const stream = await openSse(`${server.url}/games/${gameId}/stream?after=0`);
    // The stream had opened (its status sent) before the view failed: it can only be closed.
    expect(stream.response.status).toBe(200);
    await Promise.race([stream.ended, new Promise((_, reject) => setTimeout(() => reject(new Error('the failed stream was left open')), 3000))]);
    expect(server.broadcaster.clientCount()).toBe(0);
    expect(
      logged.some((line) => line.includes(`the live stream at /games/${gameId}/stream failed and was closed`) && line.includes('text.slice is not a function')),
    ).toBe(true);
    expect(logged.join('\n')).not.toContain('ERR_HTTP_HEADERS_SENT');
    // The server answers as before, and the same stream opens once the view draws again.
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
    failing.on = false;
    const again = await openSse(`${server.url}/games/${gameId}/stream?after=0`);
    await waitFor('the table region', () => again.messages.length > 0);
    again.close();
  });

  it("is closed and forgotten when a later update cannot be drawn, while other pages' streams go on", async () => {
    keepLog();
    const gameId = liveGame();
    const after = ledger.models.position;
    const table = await openSse(`${server.url}/games/${gameId}/stream?after=${after}`);
    const leaderboard = await openSse(`${server.url}/tournaments/${TOURNAMENT}/leaderboard/stream?after=${after}`);
    const feed = await openSse(`${server.url}/api/events/stream?after=${after}`);
    await waitFor('all three to attach', () => server.broadcaster.clientCount() === 3);

    failing.on = true;
    await play(ledger, 2);
    await Promise.race([table.ended, new Promise((_, reject) => setTimeout(() => reject(new Error('the failed stream was left open')), 3000))]);
    expect(server.broadcaster.hasClients(`table:${gameId}`)).toBe(false);
    expect(logged.some((line) => line.includes(`the live page 'table:${gameId}' failed to draw and its streams were closed`))).toBe(true);

    // The others are still attached, and still sent what changes.
    expect(server.broadcaster.hasClients(`leaderboard:${TOURNAMENT}`)).toBe(true);
    expect(server.broadcaster.clientCount()).toBe(2);
    const seenFeed = feed.messages.length;
    expect(seenFeed).toBeGreaterThan(0);
    failing.on = false;
    await play(ledger, 2);
    await waitFor('the feed to go on', () => feed.messages.length > seenFeed);
    for (const s of [leaderboard, feed]) s.close();
  });
});

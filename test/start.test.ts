/**
 * `npm start` out of the box: on an empty data folder the server comes up with the demo
 * tournament, its tables play by themselves, the event feed delivers, the venue screen shows
 * the teams and their scores, and a restart carries on from the ledger.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createParser } from 'eventsource-parser';
import { afterAll, describe, expect, it } from 'vitest';

const dataDir = mkdtempSync(join(tmpdir(), 'spades-start-'));
const children: ChildProcess[] = [];
afterAll(() => {
  for (const child of children) child.kill('SIGKILL');
  rmSync(dataDir, { recursive: true, force: true });
});

/** Runs `npm start` on a free port and resolves with its address once it says where it listens. */
function start(): Promise<{ child: ChildProcess; base: string; output: () => string }> {
  const child = spawn('npm', ['start', '--', '--pace', '100'], {
    env: { ...process.env, PORT: '0', DATA_DIR: dataDir },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  children.push(child);
  let output = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`npm start did not say where it listens within 30 s:\n${output}`)), 30_000);
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /Listening on (http:\/\/localhost:\d+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve({ child, base: match[1]!, output: () => output });
      }
    };
    child.stdout!.on('data', read);
    child.stderr!.on('data', read);
    child.on('exit', (code) => reject(new Error(`npm start exited with ${code}:\n${output}`)));
  });
}

async function stop(child: ChildProcess): Promise<void> {
  const exited = new Promise((resolve) => child.once('exit', resolve));
  process.kill(-child.pid!, 'SIGTERM');
  await exited;
}

/** Resolves with the first event the feed sends after `after`. */
async function firstEvent(base: string, after: number): Promise<{ id: string; data: string }> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), 10_000);
  try {
    const response = await fetch(`${base}/api/events/stream?after=${after}`, { signal: controller.signal });
    const reader = response.body!.getReader();
    return await new Promise((resolve, reject) => {
      const parser = createParser({ onEvent: (event) => resolve({ id: event.id ?? '', data: event.data }) });
      const pump = (): void => {
        reader.read().then(({ done, value }) => {
          if (done) return reject(new Error('the feed closed before an event came'));
          parser.feed(new TextDecoder().decode(value));
          pump();
        }, reject);
      };
      pump();
    });
  } finally {
    clearTimeout(timer);
    controller.abort();
  }
}

describe('npm start', () => {
  it('serves the demo live, and a restart continues where it stopped', async () => {
    const first = await start();
    const health = (await (await fetch(`${first.base}/healthz`)).json()) as { ok: boolean; position: number };
    expect(health.ok).toBe(true);
    expect(first.output()).toContain('/screen');

    // The tables play by themselves: an event past the current head arrives on the feed.
    const event = await firstEvent(first.base, health.position);
    expect(Number(event.id)).toBeGreaterThan(health.position);
    expect(JSON.parse(event.data).position).toBe(Number(event.id));

    const screen = await fetch(`${first.base}/screen`);
    expect(screen.status).toBe(200);
    const html = await screen.text();
    for (const team of ['Big Joker Energy', 'Sandbaggers', 'Off Suit']) expect(html).toContain(team);
    expect(html).toMatch(/Standings/);
    expect(html).toMatch(/class="[^"]*score/);

    const before = ((await (await fetch(`${first.base}/healthz`)).json()) as { position: number }).position;
    await stop(first.child);

    const second = await start();
    const after = ((await (await fetch(`${second.base}/healthz`)).json()) as { position: number }).position;
    expect(after).toBeGreaterThanOrEqual(before);
    // Still the one demo tournament, not a second one set up over it.
    const events = (await (await fetch(`${second.base}/api/events?after=0&limit=1000`)).json()) as { type: string }[];
    expect(events.filter((e) => e.type === 'TournamentCreated')).toHaveLength(1);
    const next = await firstEvent(second.base, after);
    expect(Number(next.id)).toBeGreaterThan(after);
    await stop(second.child);
  }, 90_000);
});

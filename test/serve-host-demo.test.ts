/**
 * Where `spades serve` listens and what it sets up: HOST names the address (every interface when
 * unset, so phones on the venue's Wi-Fi reach it; 127.0.0.1 behind nginx), and the demo is set
 * up only in a new data folder, never onto a file that already holds the ledger's tables.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../events/store/sqlite/database.ts';
import { killHard } from './fixtures/live-server.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const dirs: string[] = [];
const children: ChildProcess[] = [];
afterAll(async () => {
  await Promise.all(children.map((child) => killHard(child)));
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'spades-serve-'));
  dirs.push(dir);
  return dir;
}

interface Started {
  child: ChildProcess;
  port: number;
  output: () => string;
}

/** `spades serve ARGS` with `env`; resolves once it says where it listens (or rejects with what it said). */
function serve(dataDir: string, args: string[], env: Record<string, string> = {}): Promise<Started> {
  const child = spawn(process.execPath, ['bin/spades.js', 'serve', ...args], {
    cwd: ROOT,
    env: { ...process.env, DATA_DIR: dataDir, PORT: '0', HOST: '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let output = '';
  return new Promise((resolve, reject) => {
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      // The whole block of start-up lines is written at once.
      const match = /Listening on http:\/\/[^:]+:(\d+)\n[\s\S]*\n$/.exec(output);
      if (match) resolve({ child, port: Number(match[1]), output: () => output });
    };
    child.stdout!.on('data', read);
    child.stderr!.on('data', read);
    child.once('exit', (code) => reject(Object.assign(new Error(`spades serve exited with ${code}`), { code, output })));
  });
}

/** Whether a request to `host`:`port` is answered (false when the connection is refused). */
async function answers(host: string, port: number): Promise<boolean> {
  try {
    const res = await fetch(`http://${host}:${port}/healthz`);
    await res.arrayBuffer();
    return true;
  } catch {
    return false;
  }
}

describe('HOST', () => {
  it('listens on the address given, and only there; every interface when not given', async () => {
    const local = await serve(tempDir(), ['--no-demo'], { HOST: '127.0.0.1' });
    expect(local.output()).toContain(`Listening on http://127.0.0.1:${local.port}\n`);
    expect(await answers('127.0.0.1', local.port)).toBe(true);
    // Another loopback address of this machine: not the one asked for.
    expect(await answers('127.0.0.2', local.port)).toBe(false);
    await killHard(local.child);

    const everywhere = await serve(tempDir(), ['--no-demo']);
    expect(everywhere.output()).toContain(`Listening on http://localhost:${everywhere.port}\n`);
    expect(await answers('127.0.0.1', everywhere.port)).toBe(true);
    expect(await answers('127.0.0.2', everywhere.port)).toBe(true);
    await killHard(everywhere.child);
  }, 60_000);

  it('refuses an address this machine does not have, or one that is no address, in one line with exit 2', async () => {
    for (const [host, sentence] of [
      ['192.0.2.1', /^spades serve: cannot listen on 192\.0\.2\.1 port 0: this machine has no such address\n$/],
      ['a host', /^HOST must be an address to listen on .*not 'a host'\n$/],
      ['writer: a host', /^LEDGER_WRITER_HOST must be this machine's address .*not 'a host'\n$/],
    ] as const) {
      const env: Record<string, string> = host.startsWith('writer: ') ? { LEDGER_WRITER_HOST: host.slice('writer: '.length) } : { HOST: host };
      const refused = await serve(tempDir(), ['--no-demo'], env).then(
        () => null,
        (error: { code: number; output: string }) => error,
      );
      expect(refused).toMatchObject({ code: 2 });
      expect(refused!.output).toMatch(sentence);
    }
  }, 60_000);
});

describe('the demo', () => {
  it('is set up in a new data folder', async () => {
    const started = await serve(tempDir(), ['--pace', '50']);
    const health = (await (await fetch(`http://127.0.0.1:${started.port}/healthz`)).json()) as { position: number };
    expect(health.position).toBeGreaterThan(0);
    expect(started.output()).toContain('Demo tables play one entry every 50 ms');
    // Table codes go on the director's code sheet alone: the log says where it is, and holds no code.
    expect(started.output()).toMatch(/Table codes: signed in as a director, print them from http:\/\/\S+\/tournaments\/[^/\s]+\/codes /);
    const withoutPasswords = started.output().replace(/password '[^']*'/g, '');
    expect(withoutPasswords).not.toMatch(/(?<![A-Za-z0-9])[ABCDEFGHJKMNPQRSTUVWXYZ23456789]{10}(?![A-Za-z0-9])/);
    await killHard(started.child);
  }, 60_000);

  it("is never set up onto a file that already holds the ledger's tables, even with no events in it", async () => {
    const dataDir = tempDir();
    openDatabase({ path: join(dataDir, 'spades.db') }).close();
    const started = await serve(dataDir, ['--pace', '50']);
    expect(started.output()).toContain(`No demo: ${join(dataDir, 'spades.db')} already held a ledger (with no events)`);
    expect(started.output()).not.toContain('sign-in:');
    await new Promise((resolve) => setTimeout(resolve, 500));
    const health = (await (await fetch(`http://127.0.0.1:${started.port}/healthz`)).json()) as { position: number };
    expect(health.position).toBe(0);
    await killHard(started.child);
  }, 60_000);
});

/**
 * The public event feed on a public network, as `spades serve` runs it: 300 clients from one
 * address that ask for the whole of a large ledger (or for the feed with no resume point) and
 * never read leave the server answering its health check at once, and its memory where it was.
 */
import { readFileSync } from 'node:fs';
import { get } from 'node:http';
import { type Socket, connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ServeProcess, demoLedger, killHard, play, removeTempDirs, startServeProcess, tempDir } from './fixtures/live-server.ts';

/** A process's resident memory, in bytes, as the kernel counts it. */
function residentBytes(pid: number): number {
  if (server.child.exitCode !== null || server.child.signalCode !== null)
    throw new Error(`the server stopped (${server.child.exitCode ?? server.child.signalCode}):\n${server.output()}`);
  const line = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  if (!line) throw new Error(`no VmRSS for process ${pid}`);
  return Number(line[1]) * 1024;
}

/** Asks for /healthz on a connection of its own; resolves with the status and how long it took. */
function timedHealth(port: number): Promise<{ status: number; ms: number }> {
  const began = performance.now();
  return new Promise((resolve, reject) => {
    get({ host: '127.0.0.1', port, path: '/healthz', agent: false }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode ?? 0, ms: performance.now() - began }));
    }).on('error', reject);
  });
}

/** How long /healthz took, asked every 25 ms for `ms` (each on its own connection, not waiting for the last). */
async function healthTimes(port: number, ms: number): Promise<number[]> {
  const probes: Promise<{ status: number; ms: number }>[] = [];
  for (const end = performance.now() + ms; performance.now() < end; ) {
    probes.push(timedHealth(port));
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  const answers = await Promise.all(probes);
  expect(answers.every((a) => a.status === 200)).toBe(true);
  return answers.map((a) => a.ms);
}

const percentile99 = (times: number[]) => [...times].sort((a, b) => a - b)[Math.ceil(times.length * 0.99) - 1]!;

/** CPU seconds a process has used (user and system), as the kernel counts them in clock ticks. */
function cpuSeconds(pid: number): number {
  // The fields after the command's name, which is in parentheses and may hold spaces.
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

let server: ServeProcess;
let head = 0;
beforeAll(async () => {
  const dataDir = tempDir('spades-feed-abuse-');
  const ledger = await demoLedger(dataDir);
  // The bots' entries, appended in process: about 20,000 events (8 MB of feed) in a few seconds,
  // far more than a socket's buffers hold.
  while (ledger.store.head().position < 20_000) if ((await play(ledger, 10)) === 0) break;
  head = ledger.store.head().position;
  ledger.close();
  server = await startServeProcess(dataDir);
}, 120_000);
afterAll(async () => {
  if (server) await killHard(server.child);
  removeTempDirs();
});

describe('the public event feed', () => {
  it('keeps /healthz quick and memory flat under 300 non-reading clients from one address', async () => {
    expect(head).toBeGreaterThanOrEqual(20_000);
    const port = server.port;
    const pid = server.child.pid!;
    // Where the server stands once it has answered a few requests.
    for (let i = 0; i < 20; i++) await timedHealth(port);
    const quiet = percentile99(await healthTimes(port, 3000));
    const start = residentBytes(pid);
    const cpuBefore = cpuSeconds(pid);
    let highest = start;
    const sampler = setInterval(() => (highest = Math.max(highest, residentBytes(pid))), 50);

    const stalled: Socket[] = [];
    for (let i = 0; i < 300; i++) {
      const socket = connect({ host: '127.0.0.1', port });
      // Never read: whatever the server sends stays in the socket's buffers, then in its own.
      socket.pause();
      socket.on('error', () => {});
      const query = i % 2 === 0 ? '?after=0' : '';
      socket.write(`GET /api/events/stream${query} HTTP/1.1\r\nHost: x\r\nAccept: text/event-stream\r\n\r\n`);
      stalled.push(socket);
    }

    // The first health check, asked once every client has sent its request, is answered once the
    // server has taken in all 300. From then on, while the clients hold their streams, it is asked
    // every 25 ms whether or not earlier ones have been answered (a stalled server keeps every
    // check sent meanwhile waiting), and timed.
    let times: number[];
    let first: number;
    try {
      first = (await timedHealth(port)).ms;
      times = await healthTimes(port, 8000);
    } finally {
      clearInterval(sampler);
    }
    highest = Math.max(highest, residentBytes(pid));
    const cpu = cpuSeconds(pid) - cpuBefore;

    // What each client was answered: a few dozen streams, and a refusal for the rest.
    const answers = await Promise.all(
      stalled.map(
        (socket) =>
          new Promise<string>((resolve) => {
            socket.once('data', (chunk: Buffer) => resolve(chunk.toString('latin1').split('\r\n')[0]!));
            socket.once('close', () => resolve('closed'));
            socket.resume();
          }),
      ),
    );
    for (const socket of stalled) socket.destroy();

    const p99 = percentile99(times);
    expect(
      p99,
      `healthz took ${times.map((t) => Math.round(t)).join(', ')} ms (the first, while the 300 came in, ${Math.round(first)} ms; with no clients, p99 ${Math.round(quiet)} ms)`,
    ).toBeLessThan(100);
    // The server's work for all 300 is bounded, not only spread out: sending each its 8 MB would
    // take it most of a minute.
    expect(cpu, 'CPU seconds the server spent').toBeLessThan(3);
    expect(highest - start, `the server grew from ${start} to ${highest} bytes`).toBeLessThan(100 * 1024 * 1024);
    const opened = answers.filter((line) => line === 'HTTP/1.1 200 OK').length;
    expect(opened).toBe(48);
    expect(answers.filter((line) => line === 'HTTP/1.1 429 Too Many Requests').length).toBe(300 - opened);
  }, 120_000);
});

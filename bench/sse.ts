/**
 * SSE benchmarks: how long an append takes to reach every screen, and what an idle screen
 * costs the server. The server and the clients run in separate processes (clients spread over
 * several, so no process holds thousands of sockets alone), all reading the public event feed.
 * 1,000 clients are measured first; 4,000 more then join the same server for the 5,000 figures,
 * and the memory per idle client is the server's growth from the one to the other.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { ClientsReply, ClientsRequest } from './sse-clients.ts';
import type { ServerReply, ServerRequest } from './sse-server.ts';
import { type Benchmark, type Figure, percentile, withGoal } from './harness.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
/** Appends timed at each client count. */
const SAMPLES = 60;
const WARM_UP = 5;
const CLIENTS_PER_PROCESS = 1000;

export interface Child<Request, Reply> {
  process: ChildProcess;
  send(request: Request): void;
  next<K extends string>(kind: K): Promise<Extract<Reply, { kind: K }>>;
}

/**
 * Starts a TypeScript entry in its own node process with its open-file limit raised as far as
 * the machine allows (every SSE client is a socket, and so a file descriptor, at both ends).
 */
export function start<Request, Reply extends { kind: string }>(entry: string, args: string[], nodeFlags: string[] = []): Child<Request, Reply> {
  const command = [process.execPath, ...nodeFlags, 'bin/run-ts.js', entry, ...args].map((a) => `'${a.replace(/'/g, `'\\''`)}'`).join(' ');
  const child = spawn('bash', ['-c', `ulimit -n "$(ulimit -Hn)" 2>/dev/null; exec ${command}`], {
    cwd: ROOT,
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const queue: Reply[] = [];
  const waiting: { kind: string; resolve: (reply: Reply) => void; reject: (error: Error) => void }[] = [];
  child.on('message', (reply: Reply) => {
    if (reply.kind === 'failed') {
      for (const w of waiting.splice(0)) w.reject(new Error(`${entry}: ${JSON.stringify(reply)}`));
      return;
    }
    const at = waiting.findIndex((w) => w.kind === reply.kind);
    if (at >= 0) waiting.splice(at, 1)[0]!.resolve(reply);
    else queue.push(reply);
  });
  child.on('exit', (code) => {
    for (const w of waiting.splice(0)) w.reject(new Error(`${entry} stopped (exit ${code}) while a '${w.kind}' was awaited`));
  });
  return {
    process: child,
    send: (request) => child.send(request as object),
    next<K extends string>(kind: K) {
      const at = queue.findIndex((r) => r.kind === kind);
      if (at >= 0) return Promise.resolve(queue.splice(at, 1)[0] as Extract<Reply, { kind: K }>);
      return new Promise((resolve, reject) => waiting.push({ kind, resolve: resolve as (r: Reply) => void, reject }));
    },
  };
}

type ServerChild = Child<ServerRequest, ServerReply>;
export type ClientsChild = Child<ClientsRequest, ClientsReply>;

/** Opens `count` feed clients at `url` from `after`, a thousand to a process. */
export async function addClients(url: string, after: number, count: number): Promise<ClientsChild[]> {
  const children: ClientsChild[] = [];
  for (let left = count; left > 0; left -= CLIENTS_PER_PROCESS) {
    children.push(start<ClientsRequest, ClientsReply>('bench/sse-clients.ts', [url, String(Math.min(left, CLIENTS_PER_PROCESS)), String(after)]));
  }
  await Promise.all(children.map((c) => c.next('connected')));
  return children;
}

/** Appends one entry at a time, each once every client has the one before; milliseconds to each client. */
async function latencies(server: ServerChild, clients: ClientsChild[]): Promise<{ samples: number[]; position: number }> {
  const samples: number[] = [];
  let position = 0;
  // The first few appends warm up the server's and the clients' code paths and are not kept.
  for (let i = -WARM_UP; i < SAMPLES; i++) {
    server.send({ kind: 'append' });
    const appended = await server.next('appended');
    position = appended.last;
    for (const c of clients) c.send({ kind: 'await', first: appended.first, last: appended.last });
    const arrived = await Promise.all(clients.map((c) => c.next('arrived')));
    if (i >= 0) for (const reply of arrived) for (const at of reply.arrivals) samples.push(at - appended.at);
    // A pause between entries, as between cards at a table, so each append meets idle clients.
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return { samples, position };
}

function latencyFigure(clients: number, samples: number[], goalMs: number): Figure {
  return withGoal(
    {
      name: `append to arrival at ${clients.toLocaleString('en-US')} SSE clients`,
      unit: 'ms',
      median: percentile(samples, 50),
      p99: percentile(samples, 99),
      samples: samples.length,
    },
    { atMost: goalMs },
  );
}

export const sseBench: Benchmark = {
  group: 'sse',
  async run() {
    const server = start<ServerRequest, ServerReply>('bench/sse-server.ts', [], ['--expose-gc']);
    const clients: ClientsChild[] = [];
    try {
      const { port, position } = await server.next('listening');
      const url = `http://127.0.0.1:${port}/api/events/stream`;

      clients.push(...(await addClients(url, position, 1000)));
      server.send({ kind: 'memory' });
      const at1000 = await server.next('memory');
      const small = await latencies(server, clients);

      clients.push(...(await addClients(url, small.position, 4000)));
      server.send({ kind: 'memory' });
      const at5000 = await server.next('memory');
      const large = await latencies(server, clients);

      if (at1000.clients !== 1000 || at5000.clients !== 5000) {
        throw new Error(`the server held ${at1000.clients} and ${at5000.clients} clients, not 1,000 and 5,000`);
      }
      const perClient = (bytes: number) => bytes / (at5000.clients - at1000.clients) / 1024;
      const rss = perClient(at5000.rss - at1000.rss);
      const heap = perClient(at5000.heap - at1000.heap);
      return [
        latencyFigure(1000, small.samples, 50),
        latencyFigure(5000, large.samples, 250),
        withGoal({ name: 'server memory per idle SSE client (resident)', unit: 'KB', median: rss, p99: rss, samples: 1 }, { atMost: 20 }),
        { name: 'server memory per idle SSE client (JS heap and buffers)', unit: 'KB', median: heap, p99: heap, samples: 1 },
      ];
    } finally {
      for (const c of clients) c.process.kill();
      server.send({ kind: 'stop' });
      await new Promise((resolve) => server.process.once('exit', resolve));
    }
  },
};

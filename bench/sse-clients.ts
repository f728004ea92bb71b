/**
 * SSE clients for the benchmark, run as their own process by `bench/sse.ts`: opens `count`
 * connections to the event feed, reads each with eventsource-parser as a browser would, and
 * for each awaited event reports when it reached every client (absolute milliseconds, the
 * same clock in every process on the machine).
 */
import { request } from 'node:http';
import { createParser } from 'eventsource-parser';

export type ClientsRequest = { kind: 'await'; first: number; last: number } | { kind: 'stop' };
export type ClientsReply = { kind: 'connected'; count: number } | { kind: 'arrived'; first: number; arrivals: number[] } | { kind: 'failed'; reason: string };

const [url, countText, afterText] = process.argv.slice(2);
const count = Number(countText);
const now = () => performance.timeOrigin + performance.now();
const send = (reply: ClientsReply) => process.send!(reply);

/** Per event id: when it reached each client. */
const arrivals = new Map<number, number[]>();
/** Per event id: how many clients have it. */
const received = new Map<number, number>();
let awaited: { first: number; last: number } | null = null;

function check(): void {
  if (!awaited || (received.get(awaited.last) ?? 0) < count) return;
  const { first, last } = awaited;
  awaited = null;
  send({ kind: 'arrived', first, arrivals: arrivals.get(first) ?? [] });
  for (const id of [...received.keys()]) {
    if (id <= last) {
      received.delete(id);
      arrivals.delete(id);
    }
  }
}

function connect(): Promise<void> {
  return new Promise((resolve, reject) => {
    const req = request(`${url}?after=${afterText}`, { agent: false, headers: { accept: 'text/event-stream' } }, (res) => {
      if (res.statusCode !== 200) return reject(new Error(`the feed answered ${res.statusCode}`));
      const parser = createParser({
        onEvent(event) {
          const id = Number(event.id);
          // Every event is timed: it may come before the parent says which one it waits for.
          const list = arrivals.get(id);
          if (list) list.push(now());
          else arrivals.set(id, [now()]);
          received.set(id, (received.get(id) ?? 0) + 1);
          if (id === awaited?.last) check();
        },
      });
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => parser.feed(chunk));
      res.on('error', () => undefined);
      resolve();
    });
    req.on('error', reject);
    req.end();
  });
}

process.on('message', (message: ClientsRequest) => {
  if (message.kind === 'stop') process.exit(0);
  // Arrivals of the awaited event may come before this message does: keep what came.
  awaited = { first: message.first, last: message.last };
  check();
});

try {
  // A few hundred at a time: a burst of thousands of connects overflows the listen backlog.
  for (let opened = 0; opened < count; ) {
    const batch = Math.min(200, count - opened);
    await Promise.all(Array.from({ length: batch }, connect));
    opened += batch;
  }
  send({ kind: 'connected', count });
} catch (error) {
  send({ kind: 'failed', reason: (error as Error).message });
}

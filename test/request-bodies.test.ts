/**
 * Bodies sent slowly: `spades serve` answers a request whose body has not all arrived within
 * its timeout with 408 and closes the connection well within 30 seconds (Node alone would wait
 * five minutes), while a long event stream goes on; and one address may have only so many
 * bodies arriving at once, without that holding back another address.
 */
import { type Socket, connect } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { REQUEST_TIMEOUT_MS, SLOW_BODIES_PER_ADDRESS } from '../server/http/body-limits.ts';
import { demoLedger, killHard, openSse, removeTempDirs, serveInProcess, startServeProcess, tempDir, waitFor } from './fixtures/live-server.ts';

afterAll(() => removeTempDirs());

/** A socket from `from` that sends a POST's headers promising `length` bytes, and `sent` of them. */
function slowPost(port: number, from: string, length: number, sent: number, path = '/nowhere'): Socket {
  const socket = connect({ host: '127.0.0.1', port, localAddress: from });
  socket.on('error', () => {});
  socket.write(`POST ${path} HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: ${length}\r\n\r\n${'a'.repeat(sent)}`);
  return socket;
}

/** A whole POST from `from`: its status line and body. */
function wholePost(port: number, from: string): Promise<{ status: number; headers: string; body: string }> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port, localAddress: from });
    let text = '';
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => (text += chunk));
    socket.on('error', reject);
    socket.on('close', () => {
      const [head = '', body = ''] = text.split('\r\n\r\n');
      resolve({ status: Number(head.split(' ')[1]), headers: head, body });
    });
    socket.write(
      `POST /nowhere HTTP/1.1\r\nHost: x\r\nAccept: application/json\r\nConnection: close\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 3\r\n\r\na=b`,
    );
  });
}

describe('request bodies', () => {
  it('are refused from an address that already has its most bodies arriving, and from no other', async () => {
    const ledger = await demoLedger(tempDir());
    const server = await serveInProcess(ledger);
    const port = Number(new URL(server.url).port);
    const slow: Socket[] = [];
    try {
      for (let i = 0; i < SLOW_BODIES_PER_ADDRESS; i++) slow.push(slowPost(port, '127.0.0.1', 1000, 10, '/login'));
      // Once the server has taken them all in, the next body from that address is refused.
      const refused = await waitFor('the address to be at its most', async () => {
        const answer = await wholePost(port, '127.0.0.1');
        return answer.status === 429 ? answer : undefined;
      });
      expect(refused.headers).toMatch(/\r\nretry-after: 20\r\n/i);
      expect(JSON.parse(refused.body)).toEqual({
        error: `this address is already sending ${SLOW_BODIES_PER_ADDRESS} requests whose bodies have not all arrived, the most one address may send at once; send this one again once those are through`,
      });
      // Another address is answered as ever.
      expect((await wholePost(port, '127.0.0.2')).status).toBe(404);
      // A body that finishes arriving gives its place back.
      slow[0]!.write('a'.repeat(990));
      await waitFor('the finished body to be let go', async () => (await wholePost(port, '127.0.0.1')).status === 404);
    } finally {
      for (const socket of slow) socket.destroy();
      await server.close();
      ledger.close();
    }
  });

  it(`time out within 30 seconds under spades serve (408, connection closed), while an event stream stays open`, async () => {
    expect(REQUEST_TIMEOUT_MS).toBeLessThanOrEqual(25_000);
    const dataDir = tempDir('spades-bodies-');
    (await demoLedger(dataDir)).close();
    const server = await startServeProcess(dataDir);
    try {
      const stream = await openSse(`http://127.0.0.1:${server.port}/api/events/stream`);
      const began = Date.now();
      // The sign-in form, which reads its body before it answers.
      const socket = slowPost(server.port, '127.0.0.1', 1000, 10, '/login');
      let answer = '';
      socket.setEncoding('latin1');
      socket.on('data', (chunk: string) => (answer += chunk));
      // A byte every second, as a slow sender keeps a connection busy.
      const drip = setInterval(() => socket.write('a'), 1000);
      const closedAfter = await new Promise<number>((resolve) => socket.once('close', () => resolve(Date.now() - began)));
      clearInterval(drip);
      expect(answer.split('\r\n')[0]).toBe('HTTP/1.1 408 Request Timeout');
      expect(closedAfter).toBeLessThan(30_000);
      expect(closedAfter).toBeGreaterThanOrEqual(REQUEST_TIMEOUT_MS - 1000);
      // The stream, open longer than any request may take to arrive, is still open and beating.
      const state = await Promise.race([stream.ended.then(() => 'ended'), new Promise((resolve) => setTimeout(() => resolve('open'), 200))]);
      expect(state).toBe('open');
      expect(stream.comments.filter((c) => c.trim() === 'heartbeat').length).toBeGreaterThan(0);
      stream.close();
    } finally {
      await killHard(server.child);
    }
  }, 45_000);
});

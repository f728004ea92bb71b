/**
 * deploy/nginx.conf in front of two processes, run by Debian's nginx: an event a process writes
 * reaches the client through nginx at once, where an ordinary path shows nginx would otherwise
 * hold it back; the headers the processes rely on arrive; connections to them are kept alive;
 * and when one process is gone a reconnect reaches the other.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { Agent, type IncomingMessage, type Server, type ServerResponse, createServer, request } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { tmpdir } from 'node:os';
import type { TLSSocket } from 'node:tls';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type NginxProxy, NGINX_TEMPLATE, nginx, nginxConfig, noteMissingNginx, startNginx } from './fixtures/nginx.ts';
import type { DaemonUser } from './fixtures/throwaway-daemon.ts';
import { waitFor } from './fixtures/wait-for.ts';

noteMissingNginx('nginx-proxy');

/** What a process saw of the request that opened a stream, sent back as the stream's first event. */
interface Seen {
  process: string;
  path: string;
  httpVersion: string;
  socket: number;
  headers: Record<string, string | string[] | undefined>;
}

/**
 * A tiny stand-in for `spades serve`: any path ending in /stream, or /held, answers an event
 * stream, opening with what it saw of the request; any other path answers a small page. The
 * streams carry no X-Accel-Buffering, so only nginx's configuration decides about buffering.
 *
 * A stream is sent in chunks, as the app's are, unless asked for `?framing=none`: then it is
 * one unframed body read until the connection closes. nginx passes a chunked body on chunk by
 * chunk even while it buffers, but an unframed one only as its buffer fills, unless buffering is
 * off; so the unframed stream is the one that shows whether the configuration turned it off.
 */
async function startProcess(name: string) {
  const streams = new Set<ServerResponse>();
  const sockets = new Map<object, number>();
  // Whether it answers as a process whose ledger is down does: 503 to everything but its streams.
  const state = { unavailable: false, asked: 0 };
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    state.asked++;
    if (!sockets.has(req.socket)) sockets.set(req.socket, sockets.size + 1);
    const seen: Seen = { process: name, path: req.url ?? '', httpVersion: req.httpVersion, socket: sockets.get(req.socket)!, headers: req.headers };
    const path = (req.url ?? '').split('?')[0]!;
    if (path.endsWith('/stream') || path === '/held') {
      if (/[?&]framing=none\b/.test(req.url ?? '')) res.useChunkedEncodingByDefault = false;
      res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache' });
      res.write(`event: hello\ndata: ${JSON.stringify(seen)}\n\n`);
      streams.add(res);
      res.on('close', () => streams.delete(res));
      return;
    }
    if (state.unavailable) {
      res.writeHead(503, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: 'the database does not answer', process: name }));
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(seen));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    name,
    port: (server.address() as AddressInfo).port,
    state,
    /** Writes an event to every open stream. */
    send(id: number, data: string) {
      for (const res of streams) res.write(`id: ${id}\ndata: ${data}\n\n`);
    },
    /** Ends every open stream, as a process does when it shuts down. */
    endStreams() {
      for (const res of streams) res.end();
    },
    /** Gone at once, as a killed process is: listening stops and every connection drops. */
    kill(): Promise<void> {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
type Process = Awaited<ReturnType<typeof startProcess>>;

interface Arrival {
  message: EventSourceMessage;
  at: number;
}

/** An event stream read through nginx: every event with the time it arrived. */
function openStream(url: string, headers: Record<string, string> = {}) {
  const arrivals: Arrival[] = [];
  let ended = false;
  let response: IncomingMessage | null = null;
  const parser = createParser({ onEvent: (message) => arrivals.push({ message, at: performance.now() }) });
  const req = request(url, { headers: { accept: 'text/event-stream', ...headers } }, (res) => {
    response = res;
    res.setEncoding('utf8');
    res.on('data', (chunk: string) => parser.feed(chunk));
    res.on('end', () => (ended = true));
    res.on('error', () => (ended = true));
  });
  req.on('error', () => (ended = true));
  req.end();
  return {
    arrivals,
    get ended() {
      return ended;
    },
    get response() {
      return response as IncomingMessage | null;
    },
    close: () => req.destroy(),
  };
}

const hello = (stream: ReturnType<typeof openStream>) =>
  waitFor('the stream to open', () => stream.arrivals.find((a) => a.message.event === 'hello')).then((a) => JSON.parse(a.message.data) as Seen);

// One connection to nginx for every plain request, so they all reach the same nginx worker (each
// worker keeps its own idle connections to the processes).
const oneConnection = new Agent({ keepAlive: true, maxSockets: 1 });

function get(url: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    request(url, { agent: oneConnection }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    })
      .on('error', reject)
      .end();
  });
}

describe('the configuration template', () => {
  const user: DaemonUser = { name: 'nobody', uid: 65534, gid: 65534, group: 'nogroup', dropsRoot: true };
  const template = `user www-data;\npid /run/x.pid;\nhttp {\n  upstream s {\n    server 127.0.0.1:3001 max_fails=1;\n    server 127.0.0.1:3002 max_fails=1;\n  }\n  server {\n    listen 80;\n    listen [::]:80;\n    # listen 443 ssl;\n  }\n}\n`;

  it("swaps only the user, paths, listening port and upstream servers, keeping each server's parameters", () => {
    const config = nginxConfig(template, { port: 8080, upstreamPorts: [5001, 5002, 5003], dir: '/tmp/x', user });
    expect(config).toContain('user nobody nogroup;\n');
    expect(config).toContain('pid /tmp/x/nginx.pid;\n');
    expect(config).toContain('    server 127.0.0.1:5001 max_fails=1;\n    server 127.0.0.1:5002 max_fails=1;\n    server 127.0.0.1:5003 max_fails=1;\n  }');
    expect(config).not.toContain('3001');
    expect(config).toContain('    listen 127.0.0.1:8080;\n  ');
    expect(config).not.toContain('[::]');
    expect(config).toContain('# listen 443 ssl;');
  });

  it('serves the deployed HTTPS server as plain HTTP for the proxying tests, or as HTTPS beside the redirect with a test certificate', () => {
    const deployed = readFileSync(NGINX_TEMPLATE, 'utf8');
    const plain = nginxConfig(deployed, { port: 8080, upstreamPorts: [5001], dir: '/tmp/x', user });
    expect([...plain.matchAll(/^\s*listen\s+([^;]*);/gm)].map((m) => m[1])).toEqual(['127.0.0.1:8080']);
    expect(plain).not.toMatch(/^\s*(ssl_\w+|return)\s/m);
    expect(plain).toContain('proxy_pass http://spades;');
    const tls = nginxConfig(deployed, {
      port: 8080,
      upstreamPorts: [5001],
      dir: '/tmp/x',
      user,
      tls: { port: 8443, certificate: '/tmp/c.pem', key: '/tmp/k.pem' },
    });
    expect([...tls.matchAll(/^\s*listen\s+([^;]*);/gm)].map((m) => m[1])).toEqual(['127.0.0.1:8080', '127.0.0.1:8443 ssl']);
    expect(tls).toContain('ssl_certificate /tmp/c.pem;');
    expect(tls).toContain('ssl_certificate_key /tmp/k.pem;');
    expect(tls).toContain('return 301 https://$host$request_uri;');
  });

  it('refuses a template it cannot point at the test processes', () => {
    expect(() => nginxConfig(template.replace(/ +server 127[^\n]*\n/g, ''), { port: 1, upstreamPorts: [2], dir: '/tmp/x', user })).toThrow(/lists no server/);
    expect(() => nginxConfig(template.replace(/ +listen [^\n]*\n/g, ''), { port: 1, upstreamPorts: [2], dir: '/tmp/x', user })).toThrow(/no listen line/);
  });
});

describe.skipIf(!nginx.available)('deploy/nginx.conf in front of two processes', () => {
  let a: Process;
  let b: Process;
  let proxy: NginxProxy;

  beforeAll(async () => {
    a = await startProcess('A');
    b = await startProcess('B');
    proxy = await startNginx({ upstreamPorts: [a.port, b.port] });
  });
  afterAll(async () => {
    oneConnection.destroy();
    await proxy?.stop();
    await a?.kill();
    await b?.kill();
  });

  it('passes an event on the moment a process writes it, where an ordinary path would hold it back', async () => {
    // given event streams, chunked and unframed, and an unframed stream on an ordinary path
    const chunked = openStream(`${proxy.url}/api/events/stream`);
    const unframed = openStream(`${proxy.url}/tournaments/demo/stream?framing=none`);
    const held = openStream(`${proxy.url}/held?framing=none`);
    await hello(chunked);
    await hello(unframed);
    await waitFor('the ordinary path to answer', () => held.response);
    expect(chunked.response!.headers['content-type']).toBe('text/event-stream; charset=utf-8');
    expect(chunked.response!.headers['x-accel-buffering']).toBe('no');
    // when both processes write an event
    const sent = performance.now();
    a.send(1, 'card played');
    b.send(1, 'card played');
    // then it arrives on both event streams at once
    for (const stream of [chunked, unframed]) {
      const arrived = await waitFor('the event', () => stream.arrivals.find((e) => e.message.id === '1'), 2000);
      expect(arrived.message.data).toBe('card played');
      expect(arrived.at - sent).toBeLessThan(250);
    }
    // while on the ordinary path nginx holds it back (not even the opening event is through) until the stream ends
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(held.arrivals).toEqual([]);
    a.endStreams();
    b.endStreams();
    await waitFor('the held stream to come through when it ends', () => held.arrivals.some((e) => e.message.id === '1'));
  });

  it('tells the process the host, port, scheme and address the client used, over HTTP/1.1, with Last-Event-ID passed on', async () => {
    const stream = openStream(`${proxy.url}/tournaments/demo/stream?after=3`, { 'last-event-id': '41' });
    const seen = await hello(stream);
    stream.close();
    expect(seen.httpVersion).toBe('1.1');
    expect(seen.path).toBe('/tournaments/demo/stream?after=3');
    expect(seen.headers).toMatchObject({
      host: `127.0.0.1:${proxy.port}`,
      'x-forwarded-host': `127.0.0.1:${proxy.port}`,
      'x-forwarded-for': '127.0.0.1',
      'x-real-ip': '127.0.0.1',
      'x-forwarded-proto': 'http',
      'last-event-id': '41',
    });
    expect(seen.headers.connection).toBeUndefined();
  });

  it('keeps connections to the processes open between requests', async () => {
    const seen: Seen[] = [];
    for (let i = 0; i < 6; i++) seen.push(JSON.parse((await get(`${proxy.url}/standings.csv`)).body) as Seen);
    // requests take turns between the processes, and each process sees them on one connection
    expect(new Set(seen.map((s) => s.process))).toEqual(new Set(['A', 'B']));
    for (const name of ['A', 'B']) {
      expect(new Set(seen.filter((s) => s.process === name).map((s) => s.socket)).size).toBe(1);
    }
  });

  it('lets a stream cut off by a process that is gone reconnect to the other one', async () => {
    // given a stream open on one of the processes
    const first = openStream(`${proxy.url}/api/events/stream`);
    const on = await hello(first);
    const [gone, other] = on.process === 'A' ? [a, b] : [b, a];
    gone.send(7, 'bid made');
    await waitFor('the event before the cut', () => first.arrivals.find((e) => e.message.id === '7'));
    // when that process dies
    await gone.kill();
    await waitFor('the cut stream to end', () => first.ended);
    // then every reconnect, resuming after the last event it saw, reaches the other process
    for (let i = 0; i < 4; i++) {
      const again = openStream(`${proxy.url}/api/events/stream`, { 'last-event-id': '7' });
      const seen = await hello(again);
      expect(again.response!.statusCode).toBe(200);
      expect(seen).toMatchObject({ process: other.name, headers: { 'last-event-id': '7' } });
      other.send(8 + i, 'bid made');
      await waitFor('an event from the other process', () => again.arrivals.find((e) => e.message.id === String(8 + i)));
      again.close();
    }
  });
});

const openssl = '/usr/bin/openssl';

describe.skipIf(!nginx.available || !existsSync(openssl))('deploy/nginx.conf with a TLS certificate', () => {
  let a: Process;
  let proxy: NginxProxy;
  let certs: string;

  beforeAll(async () => {
    // A throwaway self-signed certificate, as an operator's file would be.
    certs = mkdtempSync(join(tmpdir(), 'spades-tls-'));
    execFileSync(
      openssl,
      [
        'req',
        '-x509',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-days',
        '1',
        '-subj',
        '/CN=127.0.0.1',
        '-keyout',
        join(certs, 'key.pem'),
        '-out',
        join(certs, 'cert.pem'),
      ],
      { stdio: 'ignore' },
    );
    a = await startProcess('A');
    proxy = await startNginx({ upstreamPorts: [a.port], tls: { certificate: join(certs, 'cert.pem'), key: join(certs, 'key.pem') } });
  });
  afterAll(async () => {
    await proxy?.stop();
    await a?.kill();
    if (certs) rmSync(certs, { recursive: true, force: true });
  });

  it('sends plain HTTP on to HTTPS, path and query kept, without reaching a process', async () => {
    for (const method of ['GET', 'POST']) {
      const res = await new Promise<IncomingMessage>((resolve, reject) =>
        request(`${proxy.url}/tournaments/demo?after=3`, { method }, resolve).on('error', reject).end(),
      );
      res.resume();
      expect(res.statusCode, method).toBe(301);
      expect(res.headers.location).toBe('https://127.0.0.1/tournaments/demo?after=3');
    }
  });

  it('answers HTTPS with the operator’s certificate and tells the process the request came over HTTPS', async () => {
    const { status, body, subject } = await new Promise<{ status: number; body: string; subject: string }>((resolve, reject) => {
      httpsRequest(`${proxy.tlsUrl!}/standings.csv`, { rejectUnauthorized: false }, (res) => {
        const subject = String((res.socket as TLSSocket).getPeerCertificate().subject?.CN);
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text, subject }));
      })
        .on('error', reject)
        .end();
    });
    expect(status).toBe(200);
    expect(subject).toBe('127.0.0.1');
    const seen = JSON.parse(body) as Seen;
    expect(seen.headers).toMatchObject({ 'x-forwarded-proto': 'https', 'x-real-ip': '127.0.0.1', host: `127.0.0.1:${proxy.tlsPort!}` });
  });
});

describe.skipIf(!nginx.available)('deploy/nginx.conf in front of a process whose ledger is down', () => {
  let a: Process;
  let b: Process;
  let proxy: NginxProxy;
  // One connection, so every request reaches the same worker, which keeps its own count of failures.
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const via = (path: string, method = 'GET'): Promise<{ status: number; body: string }> =>
    new Promise((resolve, reject) => {
      request(`${proxy.url}${path}`, { agent, method }, (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      })
        .on('error', reject)
        .end();
    });

  beforeAll(async () => {
    a = await startProcess('A');
    b = await startProcess('B');
    proxy = await startNginx({ upstreamPorts: [a.port, b.port] });
  });
  afterAll(async () => {
    agent.destroy();
    await proxy?.stop();
    await a?.kill();
    await b?.kill();
  });

  it('sends a request answered 503 to the other process, and leaves the one that answered it out', async () => {
    // given both processes answering, each takes its share
    const before = await Promise.all(Array.from({ length: 4 }, () => via('/healthz')));
    expect(new Set(before.map((r) => (JSON.parse(r.body) as Seen).process))).toEqual(new Set(['A', 'B']));
    // when B's ledger goes down and it answers 503
    b.state.unavailable = true;
    const askedBefore = b.state.asked;
    const answers: { status: number; body: string }[] = [];
    for (let i = 0; i < 12; i++) answers.push(await via('/healthz'));
    // then every answer comes from A, and B is asked once at most before it is left out
    expect(answers.map((r) => r.status)).toEqual(answers.map(() => 200));
    expect(new Set(answers.map((r) => (JSON.parse(r.body) as Seen).process))).toEqual(new Set(['A']));
    expect(b.state.asked - askedBefore).toBeLessThanOrEqual(1);
    // and a form posted meanwhile goes to A too, never to B
    const posted = await via('/tournaments/demo/sign-up', 'POST');
    expect([posted.status, (JSON.parse(posted.body) as Seen).process]).toEqual([200, 'A']);
  });
});

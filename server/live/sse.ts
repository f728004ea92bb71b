/**
 * One SSE broadcaster for the whole server. Each message is encoded once and the same bytes
 * are written to every client of its channel; a client that stops reading is dropped once
 * its unsent bytes pass a bound, so a stalled screen cannot grow the server's memory.
 */
import type { ServerResponse } from 'node:http';

const encoder = new TextEncoder();

/** Where a client's bytes go: a raw Node response, or a web stream for in-process requests. */
export interface SseSink {
  /** Writes bytes; returns false when the client is too far behind and must be dropped. */
  write(bytes: Uint8Array): boolean;
  /** Bytes written but not yet taken by the client. */
  buffered(): number;
  /** Resolves once queued bytes have gone out (or the client left). */
  drained(): Promise<void>;
  close(): void;
  onClose(fn: () => void): void;
}

export interface BroadcasterOptions {
  /** Seconds between heartbeat comments (proxies and browsers drop silent connections). */
  heartbeatSeconds?: number;
  /** Unsent bytes a client may have queued before it is dropped. */
  maxBufferedBytes?: number;
  /**
   * Seconds a client may leave bytes unread before it is dropped, attached or still catching up
   * (default: three heartbeats). A screen that stopped reading holds memory for no one.
   */
  stallSeconds?: number;
}

export interface Broadcaster {
  /** Adds a client to a channel; returns a function that removes it. */
  attach(channel: string, sink: SseSink): () => void;
  /** Sends one encoded message to every client of a channel. */
  publish(channel: string, bytes: Uint8Array): void;
  /** Whether anyone listens on a channel (so nothing is rendered for an empty room). */
  hasClients(channel: string): boolean;
  /** Channels that have clients. */
  channels(): string[];
  /** Closes and forgets every client of a channel (one whose message could not be made). */
  drop(channel: string): void;
  clientCount(): number;
  maxBufferedBytes: number;
  /** How long a client may leave bytes unread before it is dropped. */
  stallTimeoutMs: number;
  /** Stops the heartbeat and closes every client. */
  close(): void;
}

// SSE ends a field at CR, LF or CRLF alike: text that carried any of them into a field would
// start a field of its own (a team named "x\rid: 999" would move a browser's resume point).
const LINE_BREAK = /\r\n|\r|\n/;

/** Encodes one SSE message: optional id and event name, and data split into lines on every kind of line break. */
export function encodeSse(message: { id?: number | string; event?: string; data: string }): Uint8Array {
  let text = '';
  if (message.id !== undefined) text += `id: ${String(message.id).replace(/[\r\n]/g, '')}\n`;
  if (message.event) text += `event: ${message.event.replace(/[\r\n]/g, '')}\n`;
  for (const line of message.data.split(LINE_BREAK)) text += `data: ${line}\n`;
  return encoder.encode(text + '\n');
}

const HEARTBEAT = encoder.encode(': heartbeat\n\n');

/** Creates the broadcaster; heartbeats start at once and stop with close(). */
export function createBroadcaster(options: BroadcasterOptions = {}): Broadcaster {
  const heartbeatSeconds = options.heartbeatSeconds ?? 10;
  const maxBufferedBytes = options.maxBufferedBytes ?? 256 * 1024;
  const stallTimeoutMs = (options.stallSeconds ?? heartbeatSeconds * 3) * 1000;
  const rooms = new Map<string, Set<SseSink>>();
  // Since when each client has had bytes it did not take.
  const unreadSince = new WeakMap<SseSink, number>();
  let count = 0;

  function remove(channel: string, sink: SseSink): void {
    const room = rooms.get(channel);
    if (room?.delete(sink)) {
      count--;
      if (room.size === 0) rooms.delete(channel);
    }
  }

  function send(channel: string, room: Set<SseSink>, bytes: Uint8Array): void {
    for (const sink of room) {
      let written = false;
      try {
        written = sink.write(bytes);
      } catch (error) {
        // A socket that fails as it is written to is closed and forgotten like a stalled one.
        console.error(`a client of the live channel '${channel}' failed as it was written to and was closed:`, error);
      }
      if (!written) {
        remove(channel, sink);
        sink.close();
      }
    }
  }

  function drop(channel: string): void {
    for (const sink of rooms.get(channel) ?? []) {
      remove(channel, sink);
      sink.close();
    }
  }

  const timer = setInterval(() => {
    const now = Date.now();
    for (const [channel, room] of rooms) {
      for (const sink of room) {
        if (sink.buffered() === 0) {
          unreadSince.delete(sink);
          continue;
        }
        const since = unreadSince.get(sink) ?? now;
        unreadSince.set(sink, since);
        if (now - since >= stallTimeoutMs) {
          remove(channel, sink);
          sink.close();
        }
      }
    }
    for (const [channel, room] of rooms) send(channel, room, HEARTBEAT);
  }, heartbeatSeconds * 1000);
  timer.unref();

  return {
    maxBufferedBytes,
    stallTimeoutMs,
    attach(channel, sink) {
      let room = rooms.get(channel);
      if (!room) rooms.set(channel, (room = new Set()));
      room.add(sink);
      count++;
      const detach = () => remove(channel, sink);
      sink.onClose(detach);
      return detach;
    },
    publish(channel, bytes) {
      const room = rooms.get(channel);
      if (room) send(channel, room, bytes);
    },
    hasClients: (channel) => rooms.has(channel),
    channels: () => [...rooms.keys()],
    drop,
    clientCount: () => count,
    close() {
      clearInterval(timer);
      for (const channel of [...rooms.keys()]) drop(channel);
    },
  };
}

export const SSE_HEADERS: Record<string, string> = {
  'content-type': 'text/event-stream; charset=utf-8',
  'cache-control': 'no-cache, no-transform',
  connection: 'keep-alive',
  // Tells nginx-style proxies not to hold events back in a buffer.
  'x-accel-buffering': 'no',
  // Streams are written to the socket directly, past the app's header middleware: the same
  // protections as every page, stated here.
  'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
};

/** A sink writing straight to Node's response: the cheapest path for thousands of screens. */
export function nodeSink(res: ServerResponse, maxBufferedBytes: number): SseSink {
  const closers: (() => void)[] = [];
  let closed = false;
  const fire = () => {
    if (closed) return;
    closed = true;
    for (const fn of closers) fn();
  };
  res.on('close', fire);
  return {
    write(bytes) {
      if (closed) return false;
      if (res.writableLength > maxBufferedBytes) return false;
      res.write(bytes);
      return true;
    },
    buffered: () => res.writableLength,
    drained() {
      if (closed || res.writableLength === 0) return Promise.resolve();
      return new Promise<void>((resolve) => {
        res.once('drain', resolve);
        closers.push(resolve);
      });
    },
    close() {
      if (!res.destroyed) res.destroy();
      fire();
    },
    onClose(fn) {
      closers.push(fn);
    },
  };
}

/** A sink backed by a web ReadableStream (in-process requests, tests, other runtimes). */
export function streamSink(maxBufferedBytes: number): { sink: SseSink; stream: ReadableStream<Uint8Array> } {
  const closers: (() => void)[] = [];
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  let closed = false;
  let queued = 0;
  let waiting: (() => void)[] = [];
  const release = () => {
    const done = waiting;
    waiting = [];
    for (const fn of done) fn();
  };
  const fire = () => {
    if (closed) return;
    closed = true;
    release();
    for (const fn of closers) fn();
  };
  const stream = new ReadableStream<Uint8Array>(
    {
      start(c) {
        controller = c;
      },
      // The reader asks for more only once everything enqueued has been taken.
      pull() {
        queued = 0;
        release();
      },
      cancel: fire,
    },
    { highWaterMark: 0 },
  );
  return {
    stream,
    sink: {
      write(bytes) {
        if (closed) return false;
        queued += bytes.byteLength;
        if (queued > maxBufferedBytes) return false;
        controller.enqueue(bytes);
        return true;
      },
      buffered: () => queued,
      drained() {
        if (closed || queued === 0) return Promise.resolve();
        return new Promise<void>((resolve) => waiting.push(resolve));
      },
      close() {
        if (!closed) {
          try {
            controller.close();
          } catch {
            // already closed by the reader
          }
        }
        fire();
      },
      onClose(fn) {
        closers.push(fn);
      },
    },
  };
}

/**
 * Opens an SSE response. Under Node the client's socket is written directly (cheapest for
 * thousands of screens); elsewhere (in-process requests) through a web stream. Once the stream
 * is open its status and headers are sent: a stream whose start fails (a view that throws while
 * its regions are first drawn, a read that fails while it catches up) cannot be answered with an
 * error any more, so it is logged, closed and forgotten, never left open outside the broadcaster.
 */
import type { HttpBindings } from '@hono/node-server';
import { RESPONSE_ALREADY_SENT } from '@hono/node-server/utils/response';
import type { Context } from 'hono';
import { type Broadcaster, type SseSink, SSE_HEADERS, nodeSink, streamSink } from './sse.ts';

const OPENED = new TextEncoder().encode(': open\n\n');

export function openStream(
  c: Context<{ Bindings: Partial<HttpBindings> }>,
  broadcaster: Broadcaster,
  start: (sink: SseSink) => void | Promise<void>,
  /** Headers besides the stream's own (the public feed's openness to other sites). */
  headers: Readonly<Record<string, string>> = {},
): Response {
  const sent = { ...SSE_HEADERS, ...headers };
  const res = c.env?.outgoing;
  if (res && 'writeHead' in res) {
    res.writeHead(200, sent);
    res.flushHeaders();
    // A comment first, so proxies and browsers see the stream open at once.
    res.write(OPENED);
    begin(c.req.path, nodeSink(res, broadcaster.maxBufferedBytes), start);
    return RESPONSE_ALREADY_SENT;
  }
  const { sink, stream } = streamSink(broadcaster.maxBufferedBytes);
  sink.write(OPENED);
  begin(c.req.path, sink, start);
  return new Response(stream, { headers: sent });
}

function begin(path: string, sink: SseSink, start: (sink: SseSink) => void | Promise<void>): void {
  const failed = (error: unknown) => {
    console.error(`the live stream at ${path} failed and was closed:`, error);
    sink.close();
  };
  try {
    const started = start(sink);
    if (started) started.catch(failed);
  } catch (error) {
    failed(error);
  }
}

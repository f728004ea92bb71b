/**
 * One writer process per ledger, the others forwarding their appends to it. Group commit shares
 * a commit among the appends of one process; processes that each took the head row in turn paid a
 * flush each. So the server processes of one ledger elect one of them, by a session advisory lock
 * that one connection of each process asks for every 200 ms, and the others send it their prepared appends
 * over a socket: it submits them to its own group committer beside its own, so one commit carries
 * what every process sent while the one before was in flight, and answers each once that commit
 * is on the disk.
 *
 * The writer is an optimisation, never the authority. What it commits is checked exactly as its
 * own appends are (the head row locked, each command id looked up, each stream's version against
 * the one the command was decided from), so two processes that both believe they are the writer
 * for a moment, or a process that writes directly while the writer is being replaced, cannot
 * break the chain: the database decides. A process that cannot reach a writer (none elected yet,
 * the one named is gone, the link refused) appends directly, as the CLI and imports always do.
 *
 * The writer publishes where it listens, and a token the forwarders must present, in the one row
 * of `ledger_writer`; only someone who can read the ledger's database can forward. When the
 * writer's lock connection ends (its process died, or the database dropped it), the lock goes
 * with it and the next process to ask takes it. A forwarded append whose writer went away before
 * answering is sent again only when it carries a command id (a repeat is recognised and answered
 * with the first result); without one, it may or may not have been recorded, and is answered as a
 * connection lost after the commit was sent.
 *
 * The lines on the socket are JSON, one message a line: the forwarder's token first, then its
 * appends (`i` a number of its own, `c` the command id, `r` the request digest, `b` each stream's
 * name, expected version and events as stored text); the writer answers each with the same `i`
 * and either the rows' places in the chain (position, version, hashes: the forwarder holds the
 * rest) or, for a repeat, the first command's rows whole, or the refusal.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import net from 'node:net';
import pg from 'pg';
import type { AnyEvent } from '../../event-types.ts';
import type { EventMeta, PreparedBatch, RecordedEvent, WrittenBatch } from '../append.ts';
import type { ChainedRow } from '../../hash-chain.ts';

type Submitted<E extends AnyEvent> = { written: WrittenBatch<E>[]; duplicate: boolean };
type Submit<E extends AnyEvent> = (batches: PreparedBatch[], commandId: string | null, request: string | null) => Promise<Submitted<E>>;

export interface WriterLinkOptions<E extends AnyEvent> {
  /** How to connect to the ledger's database (the lock waits on a connection of its own). */
  connection: pg.ClientConfig;
  /** Reads the `ledger_writer` row, and creates the table once this process is elected. */
  pool: pg.Pool;
  /** The address this process listens on, and tells the others, once it is the writer. */
  host: string;
  /** This process's own group committer. */
  submit: Submit<E>;
  toRecorded(row: ChainedRow): RecordedEvent<E>;
  /** An error as text for the socket, and back: the store's own refusals and faults survive the trip. */
  errorText(error: unknown): string;
  errorOf(text: string): Error;
  /** The error a forwarded append without a command id is answered with when its writer went away unanswered. */
  writerLost(reason: string): Error;
  /** One line about the link (elected, stepped down). Default: nothing. */
  onNotice?: (line: string) => void;
}

export interface WriterLinkStats {
  /** Appends this process sent to the writer and had answered. */
  forwarded: number;
  /** Appends of other processes this process committed as the writer. */
  servedForOthers: number;
  /** Appends this process committed itself: as the writer, or with no writer to reach. */
  own: number;
}

export interface WriterLink<E extends AnyEvent> {
  submit: Submit<E>;
  /**
   * For the committer, before each commit: while this process is the writer and has just
   * answered other processes' appends, waits for them to send their next (at most one commit's
   * time), so those join this commit rather than the one after it.
   */
  gather(lastCommitMs: number): Promise<void>;
  /** Whether this process is the writer now. */
  isWriter(): boolean;
  stats(): WriterLinkStats;
  /** Answers every forwarded append already received, stops listening and leaves the election. */
  close(): Promise<void>;
}

// The session advisory lock whose holder is the writer; the ledger's other locks are 0x5bade5 (schema),
// 0x5bade6 (leases), 0x5bade7 (snapshots), 0x5badea (sign-ins) and 0x5badec (chaining).
const WRITER_LOCK = 0x5_ba_de_8;
// How often a process not the writer asks whether the writer's lock is free.
const ELECTION_POLL_MS = 200;
// How long a forwarder waits for the writer to accept its connection before appending directly.
const CONNECT_TIMEOUT_MS = 1000;
// After a failed attempt to reach a writer, appends go directly for this long before trying again.
const DIRECT_FOR_MS = 200;
// How long a writer stepping down waits for its forwarders to finish with their links.
const FAREWELL_MS = 2000;
// How long a process stopping waits for the answers to what it forwarded, before it takes them back.
const ANSWERS_MS = 2500;
// The longest the writer holds a commit back for answered processes to send again.
const GATHER_MAX_MS = 10;
// Commits that start without waiting after a wait in vain (fewer than a quarter came back):
// processes that were answered and sent nothing more (a request served, say) cost the commits
// after them nothing.
const GATHER_REST = 8;
// A forwarder's line the writer will hold at most before refusing the link (a whole import is far less).
const MAX_LINE = 256 * 1024 * 1024;

const WRITER_TABLE = `CREATE TABLE IF NOT EXISTS ledger_writer (
  id boolean PRIMARY KEY DEFAULT true CHECK (id),
  address text NOT NULL,
  token text NOT NULL,
  pid integer NOT NULL,
  since timestamptz NOT NULL DEFAULT now()
)`;

type EventText = [type: string, schemaVersion: number, payload: string, meta: string];
interface Request {
  i: number;
  c: string | null;
  r: string | null;
  b: [stream: string, expectedVersion: number | null, events: EventText[]][];
}
// The chain's columns a forwarder does not already hold.
type Place = [position: number, version: number, prevHash: string, hash: string, commandId: string | null];
type Answer = { i: number; p: Place[][] } | { i: number; d: ChainedRow[][] } | { i: number; e: string };

/** Reads newline-separated JSON messages from a socket, one callback each; a line that is not JSON, or too long, ends the link. */
function readLines(socket: net.Socket, onMessage: (message: unknown) => void): void {
  let buffered = '';
  socket.setEncoding('utf8');
  socket.on('data', (chunk: string) => {
    buffered += chunk;
    let start = 0;
    let end = buffered.indexOf('\n');
    try {
      while (end >= 0) {
        onMessage(JSON.parse(buffered.slice(start, end)));
        start = end + 1;
        end = buffered.indexOf('\n', start);
      }
    } catch {
      socket.destroy();
      return;
    }
    buffered = buffered.slice(start);
    if (buffered.length > MAX_LINE) socket.destroy();
  });
}

/** Writes lines to a socket, those of one tick in one write (corked until the tick ends). */
function lineWriter(socket: net.Socket): (message: unknown) => void {
  let corked = false;
  return (message) => {
    if (socket.destroyed) return;
    if (!corked) {
      corked = true;
      socket.cork();
      process.nextTick(() => {
        corked = false;
        socket.uncork();
      });
    }
    socket.write(`${JSON.stringify(message)}\n`);
  };
}

function sameToken(given: unknown, token: string): boolean {
  if (typeof given !== 'string' || given.length !== token.length) return false;
  return timingSafeEqual(Buffer.from(given), Buffer.from(token));
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export function writerLink<E extends AnyEvent>(options: WriterLinkOptions<E>): WriterLink<E> {
  const { connection, pool, host, submit, toRecorded, errorText, errorOf, writerLost } = options;
  const notice = options.onNotice ?? (() => undefined);
  const stats: WriterLinkStats = { forwarded: 0, servedForOthers: 0, own: 0 };
  let closed = false;

  // ---- As the writer: the election, the listening socket, the forwarded appends. ----
  let lockClient: pg.Client | null = null;
  let server: net.Server | null = null;
  // The forwarders' open links, each with how to send on it.
  const links = new Map<net.Socket, (message: unknown) => void>();
  // Forwarded appends received and not yet answered.
  const serving = new Set<Promise<unknown>>();
  // Forwarded appends answered whose process has not sent another since, and the commit waiting for them.
  let expected = 0;
  let lastAnswerAt = 0;
  let rest = 0;
  let gathered: (() => void) | null = null;

  const serve = (socket: net.Socket, token: string) => {
    const send = lineWriter(socket);
    links.set(socket, send);
    socket.on('close', () => links.delete(socket));
    socket.on('error', () => undefined);
    socket.setNoDelay(true);
    let trusted = false;
    readLines(socket, (message) => {
      if (!trusted) {
        trusted = sameToken((message as { t?: unknown }).t, token);
        if (!trusted) socket.destroy();
        return;
      }
      const request = message as Request;
      if (expected > 0 && --expected === 0) gathered?.();
      const batches: PreparedBatch[] = request.b.map(([stream, expectedVersion, events]) => ({
        stream,
        expectedVersion: expectedVersion ?? undefined,
        // Only the rows are made here; the forwarder answers its caller with its own events.
        prepared: events.map(([type, schemaVersion, payloadText, metaText]) => ({
          type,
          schemaVersion,
          payloadText,
          metaText,
          payload: null,
          meta: null as unknown as EventMeta,
        })),
      }));
      const answered = submit(batches, request.c, request.r)
        .then(
          (result): Answer =>
            result.duplicate
              ? { i: request.i, d: result.written.map((w) => w.rows) }
              : { i: request.i, p: result.written.map((w) => w.rows.map((r): Place => [r.position, r.version, r.prev_hash, r.hash, r.command_id])) },
          (error: unknown): Answer => ({ i: request.i, e: errorText(error) }),
        )
        .then((answer) => {
          stats.servedForOthers++;
          expected++;
          lastAnswerAt = performance.now();
          send(answer);
        });
      serving.add(answered);
      void answered.finally(() => serving.delete(answered));
    });
  };

  // Stops taking links, tells each forwarder to send its next appends elsewhere, answers every
  // append it had sent meanwhile, and closes the links once their forwarders have (or after a while).
  const stepDown = async () => {
    const listening = server;
    server = null;
    if (!listening) return;
    listening.close();
    for (const send of links.values()) send({ bye: true });
    const until = Date.now() + FAREWELL_MS;
    while (links.size > 0 && Date.now() < until) await sleep(10);
    while (serving.size > 0) await Promise.allSettled([...serving]);
    await sleep(0);
    for (const socket of links.keys()) socket.destroy();
  };

  const becomeWriter = async (client: pg.Client) => {
    const token = randomBytes(24).toString('hex');
    const listening = net.createServer((socket) => serve(socket, token));
    try {
      await new Promise<void>((resolve, reject) => {
        listening.once('error', reject);
        listening.listen(0, host, () => resolve());
      });
      const { port } = listening.address() as net.AddressInfo;
      const address = `${host.includes(':') ? `[${host}]` : host}:${port}`;
      await client.query(WRITER_TABLE);
      await client.query(
        `INSERT INTO ledger_writer (id, address, token, pid) VALUES (true, $1, $2, $3)
         ON CONFLICT (id) DO UPDATE SET address = excluded.address, token = excluded.token, pid = excluded.pid, since = now()`,
        [address, token, process.pid],
      );
      // The writer from here on: the others can find it.
      server = listening;
      notice(`this process commits the ledger for every server process (they reach it at ${address})`);
    } catch (error) {
      listening.close();
      throw error;
    }
  };

  // Wakes the campaign from its pauses when the store closes.
  let wake = () => {};
  const woken = () => new Promise<void>((resolve) => (wake = resolve));

  // Asks for the writer's lock until it is free (a waiting lock would keep the connection's
  // server process deaf to its closing); holds it, and serves, until its connection ends. Only
  // the campaign ends its connections, except the writer's, which closing ends to step down.
  const campaign = async () => {
    let wait = ELECTION_POLL_MS;
    while (!closed) {
      const client = new pg.Client({ ...connection, keepAlive: true });
      client.on('error', () => undefined);
      const ended = new Promise<void>((resolve) => client.once('end', resolve));
      try {
        await client.connect();
        wait = ELECTION_POLL_MS;
        for (;;) {
          if (closed) return;
          const { rows } = await client.query<{ held: boolean }>('SELECT pg_try_advisory_lock($1) AS held', [WRITER_LOCK]);
          if (rows[0]!.held) break;
          await Promise.race([sleep(ELECTION_POLL_MS), ended, woken()]);
        }
        if (closed) return;
        await becomeWriter(client);
        if (closed) return;
        lockClient = client;
        await ended;
        if (!closed) notice('this process no longer commits for the others: its connection to the ledger ended');
      } catch {
        if (closed) return;
        await Promise.race([sleep(wait), woken()]);
        wait = Math.min(wait * 2, 2000);
      } finally {
        lockClient = null;
        await stepDown().catch(() => undefined);
        await client.end().catch(() => undefined);
      }
    }
  };
  const campaigning = campaign();

  // ---- As a forwarder: the link to the writer and the appends waiting for its answers. ----
  interface Forwarded {
    batches: PreparedBatch[];
    commandId: string | null;
    request: string | null;
    resolve(result: Submitted<E>): void;
    reject(error: unknown): void;
  }
  interface Link {
    socket: net.Socket;
    send(message: unknown): void;
    waiting: Map<number, Forwarded>;
    next: number;
    /** The writer is stepping down: nothing more goes this way, and the link ends once answered. */
    leaving: boolean;
  }
  let link: Link | null = null;
  let linking: Promise<Link | null> | null = null;
  let directUntil = 0;

  const answer = (forwarded: Forwarded, message: Answer) => {
    if ('e' in message) {
      forwarded.reject(errorOf(message.e));
      return;
    }
    stats.forwarded++;
    if ('d' in message) {
      forwarded.resolve({ written: message.d.map((rows) => ({ rows, recorded: rows.map(toRecorded) })), duplicate: true });
      return;
    }
    const written = forwarded.batches.map((batch, b): WrittenBatch<E> => {
      const places = message.p[b]!;
      const rows: ChainedRow[] = [];
      const recorded: RecordedEvent<E>[] = [];
      batch.prepared.forEach((event, j) => {
        const [position, version, prevHash, hash, commandId] = places[j]!;
        rows.push({
          position,
          stream: batch.stream,
          version,
          type: event.type,
          schema_version: event.schemaVersion,
          payload: event.payloadText,
          meta: event.metaText,
          command_id: commandId,
          prev_hash: prevHash,
          hash,
        });
        recorded.push({
          type: event.type,
          payload: event.payload,
          position,
          stream: batch.stream,
          version,
          schemaVersion: event.schemaVersion,
          meta: event.meta,
          commandId,
          prevHash,
          hash,
        } as RecordedEvent<E>);
      });
      return { rows, recorded };
    });
    forwarded.resolve({ written, duplicate: false });
  };

  const connect = async (): Promise<Link | null> => {
    let row: { address: string; token: string } | undefined;
    try {
      ({
        rows: [row],
      } = await pool.query<{ address: string; token: string }>('SELECT address, token FROM ledger_writer'));
    } catch {
      return null; // No writer was ever elected on this ledger (no table yet), or the database is away: directly.
    }
    if (!row || closed) return null;
    const at = /^\[?([^\]]*)\]?:(\d+)$/.exec(row.address);
    if (!at) return null;
    const socket = net.connect({ host: at[1]!, port: Number(at[2]) });
    socket.setNoDelay(true);
    const opened = await new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => resolve(false), CONNECT_TIMEOUT_MS);
      socket.once('connect', () => (clearTimeout(timer), resolve(true)));
      socket.once('error', () => (clearTimeout(timer), resolve(false)));
    });
    if (!opened || closed) {
      socket.destroy();
      return null;
    }
    const made: Link = { socket, send: lineWriter(socket), waiting: new Map(), next: 1, leaving: false };
    made.send({ t: row.token });
    socket.on('error', () => undefined);
    readLines(socket, (message) => {
      if ((message as { bye?: boolean }).bye) {
        made.leaving = true;
        if (link === made) link = null;
      } else {
        const m = message as Answer;
        const forwarded = made.waiting.get(m.i);
        if (!forwarded) return;
        made.waiting.delete(m.i);
        answer(forwarded, m);
      }
      if (made.leaving && made.waiting.size === 0) socket.end();
    });
    socket.on('close', () => {
      if (link === made) link = null;
      directUntil = Date.now() + DIRECT_FOR_MS;
      // The writer went away with these unanswered: a command id makes sending again safe.
      for (const forwarded of made.waiting.values()) {
        if (forwarded.commandId !== null) {
          route(forwarded.batches, forwarded.commandId, forwarded.request).then(forwarded.resolve, forwarded.reject);
        } else {
          forwarded.reject(writerLost('the process committing for every server process stopped before it answered'));
        }
      }
      made.waiting.clear();
    });
    return made;
  };

  const linkToWriter = async (): Promise<Link | null> => {
    if (link && !link.socket.destroyed && !link.leaving) return link;
    if (Date.now() < directUntil) return null;
    linking ??= connect().then((made) => {
      linking = null;
      if (made) link = made;
      else directUntil = Date.now() + DIRECT_FOR_MS;
      return made;
    });
    return linking;
  };

  const route: Submit<E> = async (batches, commandId, request) => {
    if (!closed && !server) {
      const to = await linkToWriter();
      if (to && !to.socket.destroyed && !to.leaving) {
        return new Promise<Submitted<E>>((resolve, reject) => {
          const i = to.next++;
          to.waiting.set(i, { batches, commandId, request, resolve, reject });
          const message: Request = {
            i,
            c: commandId,
            r: request,
            b: batches.map((b) => [
              b.stream,
              b.expectedVersion ?? null,
              b.prepared.map((p): EventText => [p.type, p.schemaVersion, p.payloadText, p.metaText]),
            ]),
          };
          to.send(message);
        });
      }
    }
    stats.own++;
    return submit(batches, commandId, request);
  };

  const gather = (lastCommitMs: number): Promise<void> => {
    // Answers sent long before this commit are not coming back: the committer had gone quiet.
    if (performance.now() - lastAnswerAt > 2 * lastCommitMs + 1) expected = 0;
    if (!server || expected === 0 || rest > 0) {
      rest = Math.max(0, rest - 1);
      return Promise.resolve();
    }
    const awaited = expected;
    return new Promise<void>((resolve) => {
      const timer = setTimeout(
        () => {
          gathered = null;
          // Most came back, just not all in time: worth waiting for next time too.
          if (awaited - expected < awaited / 4) rest = GATHER_REST;
          expected = 0;
          resolve();
        },
        Math.min(GATHER_MAX_MS, Math.max(1, lastCommitMs)),
      );
      gathered = () => {
        clearTimeout(timer);
        gathered = null;
        resolve();
      };
    });
  };

  return {
    submit: route,
    gather,
    isWriter: () => server !== null,
    stats: () => ({ ...stats }),
    async close() {
      closed = true;
      wake();
      // Forwarded appends of this process are answered before the link goes.
      const current = link;
      link = null;
      const until = Date.now() + ANSWERS_MS;
      while (current && current.waiting.size > 0 && !current.socket.destroyed && Date.now() < until) await sleep(5);
      current?.socket.destroy();
      await stepDown();
      await lockClient?.end().catch(() => undefined);
      // A campaign still connecting ends its connection once it has it; the store does not wait for that.
      await Promise.race([campaigning, sleep(CONNECT_TIMEOUT_MS)]);
    },
  };
}

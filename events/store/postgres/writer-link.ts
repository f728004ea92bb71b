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
 * The socket carries frames (writer-frames.ts): the forwarder's token first, then its appends
 * (a number of its own, the command id, the request digest, and each stream's name, expected
 * version and events as the text stored); the writer answers each with the same number and
 * either its place in the chain (the first position, the hash it links to, each stream's first
 * version, the events' hashes: the forwarder holds the rest) or, for a repeat, the first
 * command's rows whole, or the refusal. Frames of one turn of the event loop go in one write.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import net from 'node:net';
import pg from 'pg';
import type { AnyEvent } from '../../event-registry.ts';
import type { PreparedBatch, RecordedEvent, WrittenBatch } from '../append.ts';
import type { ChainedRow } from '../../hash-chain.ts';
import { type Frame, FrameKind, type Placed, batchesAsText, batchesFromText, frameReader, frameSender } from './writer-frames.ts';

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
   * answered other processes' appends, waits for them to send their next (at most twice its last
   * commit's time), so those join this commit rather than the one after it.
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
// The shortest: twice the last commit's time, and at least this, is what the answered processes
// take to be scheduled and send again while the writer and the database share the cores.
const GATHER_MIN_MS = 2;
// Commits that start without waiting after a wait in vain (fewer than a quarter came back):
// processes that were answered and sent nothing more (a request served, say) cost the commits
// after them nothing.
const GATHER_REST = 8;

const WRITER_TABLE = `CREATE TABLE IF NOT EXISTS ledger_writer (
  id boolean PRIMARY KEY DEFAULT true CHECK (id),
  address text NOT NULL,
  token text NOT NULL,
  pid integer NOT NULL,
  since timestamptz NOT NULL DEFAULT now()
)`;

// The hash an answer names as the first event's link when the append recorded no events.
const NO_HASH = '0'.repeat(64);

/** An append's place in the chain, from the rows the committer wrote for it. */
function placedOf(written: readonly WrittenBatch<AnyEvent>[]): Placed {
  const rows = written.flatMap((w) => w.rows);
  return {
    firstPosition: rows[0]?.position ?? 0,
    prevHash: rows[0]?.prev_hash ?? NO_HASH,
    firstVersions: written.map((w) => w.rows[0]?.version ?? 0),
    hashes: rows.map((r) => r.hash),
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
  const links = new Map<net.Socket, (frame: Frame) => void>();
  // Forwarded appends received and not yet answered.
  const serving = new Set<Promise<unknown>>();
  // Forwarded appends answered whose process has not sent another since, and the commit waiting for them.
  let expected = 0;
  let lastAnswerAt = 0;
  let rest = 0;
  let gathered: (() => void) | null = null;

  const serve = (socket: net.Socket, token: string) => {
    const send = frameSender(socket);
    links.set(socket, send);
    socket.on('close', () => links.delete(socket));
    socket.on('error', () => undefined);
    socket.setNoDelay(true);
    let trusted = false;
    const answered = (frame: Frame) => {
      stats.servedForOthers++;
      expected++;
      lastAnswerAt = performance.now();
      send(frame);
    };
    const onFrame = (frame: Frame) => {
      if (!trusted) {
        trusted = frame.kind === FrameKind.hello && sameToken(frame.token, token);
        if (!trusted) socket.destroy();
        return;
      }
      if (frame.kind !== FrameKind.append) throw new Error('a forwarder sends appends only');
      if (expected > 0 && --expected === 0) gathered?.();
      const { id } = frame;
      // Only the rows are made here; the forwarder answers its caller with its own events.
      const batches = batchesFromText(frame.batches);
      const serving_ = submit(batches, frame.commandId, frame.request).then(
        (result) =>
          answered(
            result.duplicate
              ? { kind: FrameKind.repeat, id, rows: JSON.stringify(result.written.map((w) => w.rows)) }
              : { kind: FrameKind.placed, id, placed: placedOf(result.written) },
          ),
        (error: unknown) => answered({ kind: FrameKind.refused, id, error: errorText(error) }),
      );
      serving.add(serving_);
      void serving_.finally(() => serving.delete(serving_));
    };
    socket.on(
      'data',
      frameReader(onFrame, () => socket.destroy()),
    );
  };

  // Stops taking links, tells each forwarder to send its next appends elsewhere, answers every
  // append it had sent meanwhile, and closes the links once their forwarders have (or after a while).
  const stepDown = async () => {
    const listening = server;
    server = null;
    if (!listening) return;
    listening.close();
    for (const send of links.values()) send({ kind: FrameKind.bye });
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
    send(frame: Frame): void;
    waiting: Map<number, Forwarded>;
    next: number;
    /** The writer is stepping down: nothing more goes this way, and the link ends once answered. */
    leaving: boolean;
  }
  let link: Link | null = null;
  let linking: Promise<Link | null> | null = null;
  let directUntil = 0;

  /** Answers a forwarded append from the writer's frame for it. */
  const answer = (forwarded: Forwarded, frame: Frame) => {
    if (frame.kind === FrameKind.refused) {
      forwarded.reject(errorOf(frame.error));
      return;
    }
    if (frame.kind === FrameKind.repeat) {
      stats.forwarded++;
      const rows = JSON.parse(frame.rows) as ChainedRow[][];
      forwarded.resolve({ written: rows.map((r) => ({ rows: r, recorded: r.map(toRecorded) })), duplicate: true });
      return;
    }
    if (frame.kind !== FrameKind.placed) return;
    // Consecutive positions from the first, each event linked to the one before it.
    const { firstPosition, prevHash, firstVersions, hashes } = frame.placed;
    const count = forwarded.batches.reduce((n, b) => n + b.prepared.length, 0);
    if (hashes.length !== count || firstVersions.length !== forwarded.batches.length) {
      forwarded.reject(writerLost(`the process committing for every server process answered with places for ${hashes.length} events, not ${count}`));
      return;
    }
    stats.forwarded++;
    let k = 0;
    const written = forwarded.batches.map((batch, b): WrittenBatch<E> => {
      const rows: ChainedRow[] = [];
      const recorded: RecordedEvent<E>[] = [];
      batch.prepared.forEach((event, j) => {
        const position = firstPosition + k;
        const version = firstVersions[b]! + j;
        const prev = k === 0 ? prevHash : hashes[k - 1]!;
        const hash = hashes[k]!;
        const commandId = k === 0 ? forwarded.commandId : null;
        k++;
        rows.push({
          position,
          stream: batch.stream,
          version,
          type: event.type,
          schema_version: event.schemaVersion,
          payload: event.payloadText,
          meta: event.metaText,
          command_id: commandId,
          prev_hash: prev,
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
          prevHash: prev,
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
    const made: Link = { socket, send: frameSender(socket), waiting: new Map(), next: 1, leaving: false };
    made.send({ kind: FrameKind.hello, token: row.token });
    socket.on('error', () => undefined);
    const onFrame = (frame: Frame) => {
      if (frame.kind === FrameKind.bye) {
        made.leaving = true;
        if (link === made) link = null;
      } else if (frame.kind === FrameKind.placed || frame.kind === FrameKind.repeat || frame.kind === FrameKind.refused) {
        const forwarded = made.waiting.get(frame.id);
        if (forwarded) {
          made.waiting.delete(frame.id);
          answer(forwarded, frame);
        }
      } else {
        throw new Error('a writer sends answers only');
      }
      if (made.leaving && made.waiting.size === 0) socket.end();
    };
    // A frame that does not read ends the link: its appends are handled as the writer lost.
    socket.on(
      'data',
      frameReader(onFrame, () => socket.destroy()),
    );
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
          to.send({ kind: FrameKind.append, id: i, commandId, request, batches: batchesAsText(batches) });
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
        Math.min(GATHER_MAX_MS, Math.max(GATHER_MIN_MS, 2 * lastCommitMs)),
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

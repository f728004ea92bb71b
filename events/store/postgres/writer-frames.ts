/**
 * The frames a server process and the ledger's writer process exchange (writer-link.ts): each a
 * length, a kind, and a body of numbers and strings, the strings as their UTF-8 bytes after their
 * length. An event's payload and meta travel as the very text they are stored and hashed as,
 * written once into the frame and read back as one slice, never escaped inside another layer of
 * JSON and parsed again on each side.
 *
 * The answer to an append says only what the forwarder cannot work out itself: a command's
 * events take consecutive positions and each links to the one before, so the first position,
 * the hash the first links to, each stream's first version and the events' hashes are its whole
 * place in the chain.
 *
 * Frames written in one turn of the event loop go out in one write, so a process answered for
 * four appends sends its four next ones together, and the writer answers everything one commit
 * carried for a process in one write.
 */
import type { Socket } from 'node:net';
import type { EventMeta, PreparedBatch } from '../append.ts';

/** The kinds of frame. */
export const FrameKind = {
  /** The forwarder's token, its first frame. */
  hello: 1,
  /** A forwarded append. */
  append: 2,
  /** An append recorded: its place in the chain. */
  placed: 3,
  /** An append whose command id was recorded before: the first command's rows, as JSON. */
  repeat: 4,
  /** An append refused, or a fault: the error as text. */
  refused: 5,
  /** The writer stepping down: send nothing more this way. */
  bye: 6,
} as const;

/** One stream's share of a forwarded append: its name, the version it was decided from, its events as stored. */
export interface FramedBatch {
  stream: string;
  expectedVersion: number | null;
  /** Each event's type, schema version, payload and meta, as the text stored. */
  events: [type: string, schemaVersion: number, payload: string, meta: string][];
}

/** Batches as the text stored for them, to hand to another process: in a frame, or in the intake's row. */
export function batchesAsText(batches: readonly PreparedBatch[]): FramedBatch[] {
  return batches.map((b) => ({
    stream: b.stream,
    expectedVersion: b.expectedVersion ?? null,
    events: b.prepared.map((p) => [p.type, p.schemaVersion, p.payloadText, p.metaText]),
  }));
}

/**
 * Batches another process handed over as text, with only their rows made from it: that process
 * answers its caller from the rows, so each event's payload and meta stay text.
 */
export function batchesFromText(batches: readonly FramedBatch[]): PreparedBatch[] {
  return batches.map(({ stream, expectedVersion, events }) => ({
    stream,
    expectedVersion: expectedVersion ?? undefined,
    prepared: events.map(([type, schemaVersion, payloadText, metaText]) => ({
      type,
      schemaVersion,
      payloadText,
      metaText,
      payload: null,
      meta: null as unknown as EventMeta,
    })),
  }));
}

/** Where an append's events took their places: see the module comment. */
export interface Placed {
  firstPosition: number;
  /** The hash the append's first event links to. */
  prevHash: string;
  /** Each stream's first version, in the append's order. */
  firstVersions: number[];
  /** The events' hashes, across the streams in the append's order. */
  hashes: string[];
}

export type Frame =
  | { kind: typeof FrameKind.hello; token: string }
  | { kind: typeof FrameKind.append; id: number; commandId: string | null; request: string | null; batches: FramedBatch[] }
  | { kind: typeof FrameKind.placed; id: number; placed: Placed }
  | { kind: typeof FrameKind.repeat; id: number; rows: string }
  | { kind: typeof FrameKind.refused; id: number; error: string }
  | { kind: typeof FrameKind.bye };

/** A frame longer than this ends the link (a whole import is far less). */
export const MAX_FRAME = 256 * 1024 * 1024;

// A string's length word when the string is null.
const NULL_STRING = 0xffffffff;
// A hash as its 64 lowercase hex characters, one byte each.
const HASH_BYTES = 64;

/** A frame that does not read as one: the link it came on is ended. */
export class BadFrameError extends Error {}

/** Writes frames into one buffer, grown as needed. */
class FrameBuffer {
  buffer = Buffer.allocUnsafe(4096);
  at = 0;

  private room(bytes: number): void {
    if (this.at + bytes <= this.buffer.length) return;
    const grown = Buffer.allocUnsafe(Math.max(this.buffer.length * 2, this.at + bytes));
    this.buffer.copy(grown, 0, 0, this.at);
    this.buffer = grown;
  }

  u8(value: number): void {
    this.room(1);
    this.buffer[this.at++] = value;
  }

  u32(value: number): void {
    this.room(4);
    this.buffer.writeUInt32LE(value, this.at);
    this.at += 4;
  }

  /** A whole number of up to 53 bits (a position, an id), as a double. */
  number(value: number): void {
    this.room(8);
    this.buffer.writeDoubleLE(value, this.at);
    this.at += 8;
  }

  string(value: string | null): void {
    if (value === null) {
      this.u32(NULL_STRING);
      return;
    }
    this.room(4 + value.length * 3);
    const length = this.buffer.write(value, this.at + 4, 'utf8');
    this.buffer.writeUInt32LE(length, this.at);
    this.at += 4 + length;
  }

  hash(value: string): void {
    if (value.length !== HASH_BYTES) throw new Error(`a hash of ${value.length} characters cannot be framed`);
    this.room(HASH_BYTES);
    this.buffer.write(value, this.at, 'latin1');
    this.at += HASH_BYTES;
  }

  /** Starts a frame of `kind`; `end` writes its length. */
  start(kind: number): number {
    const start = this.at;
    this.u32(0);
    this.u8(kind);
    return start;
  }

  end(start: number): void {
    this.buffer.writeUInt32LE(this.at - start - 4, start);
  }

  /** The frames written so far, and an empty buffer for the next. */
  take(): Buffer {
    const frames = this.buffer.subarray(0, this.at);
    this.buffer = Buffer.allocUnsafe(4096);
    this.at = 0;
    return frames;
  }
}

/** Writes one frame into `out`; one that cannot be written leaves nothing of itself there. */
function encode(out: FrameBuffer, frame: Frame): void {
  const start = out.start(frame.kind);
  try {
    fields(out, frame);
  } catch (error) {
    out.at = start;
    throw error;
  }
  out.end(start);
}

function fields(out: FrameBuffer, frame: Frame): void {
  switch (frame.kind) {
    case FrameKind.hello:
      out.string(frame.token);
      break;
    case FrameKind.append:
      out.number(frame.id);
      out.string(frame.commandId);
      out.string(frame.request);
      out.u32(frame.batches.length);
      for (const batch of frame.batches) {
        out.string(batch.stream);
        out.number(batch.expectedVersion ?? -1);
        out.u32(batch.events.length);
        for (const [type, schemaVersion, payload, meta] of batch.events) {
          out.string(type);
          out.u32(schemaVersion);
          out.string(payload);
          out.string(meta);
        }
      }
      break;
    case FrameKind.placed: {
      const { firstPosition, prevHash, firstVersions, hashes } = frame.placed;
      out.number(frame.id);
      out.number(firstPosition);
      out.hash(prevHash);
      out.u32(firstVersions.length);
      for (const version of firstVersions) out.number(version);
      out.u32(hashes.length);
      for (const hash of hashes) out.hash(hash);
      break;
    }
    case FrameKind.repeat:
      out.number(frame.id);
      out.string(frame.rows);
      break;
    case FrameKind.refused:
      out.number(frame.id);
      out.string(frame.error);
      break;
    case FrameKind.bye:
      break;
    default: {
      const unknown: never = frame;
      throw new Error(`no frame of kind ${(unknown as { kind: number }).kind}`);
    }
  }
}

/** Reads one frame's body, each read checked against the frame's end. */
class FrameBody {
  constructor(
    private readonly buffer: Buffer,
    private at: number,
    private readonly end: number,
  ) {}

  private take(bytes: number): number {
    const at = this.at;
    if (at + bytes > this.end) throw new BadFrameError('a frame ends before its last field');
    this.at += bytes;
    return at;
  }

  u32(): number {
    return this.buffer.readUInt32LE(this.take(4));
  }

  number(): number {
    const value = this.buffer.readDoubleLE(this.take(8));
    if (!Number.isSafeInteger(value)) throw new BadFrameError('a frame holds a number that is not a whole number');
    return value;
  }

  string(): string | null {
    const length = this.u32();
    if (length === NULL_STRING) return null;
    const at = this.take(length);
    return this.buffer.toString('utf8', at, at + length);
  }

  text(): string {
    const value = this.string();
    if (value === null) throw new BadFrameError('a frame lacks a text it needs');
    return value;
  }

  hash(): string {
    const at = this.take(HASH_BYTES);
    return this.buffer.toString('latin1', at, at + HASH_BYTES);
  }

  /** A count of items each at least `bytes` long, checked against what is left. */
  count(bytes: number): number {
    const count = this.u32();
    if (count * bytes > this.end - this.at) throw new BadFrameError('a frame counts more items than it holds');
    return count;
  }

  done(): void {
    if (this.at !== this.end) throw new BadFrameError('a frame holds more than its fields');
  }
}

/** Reads one frame of `kind` from its body. */
function decode(kind: number, body: FrameBody): Frame {
  let frame: Frame;
  switch (kind) {
    case FrameKind.hello:
      frame = { kind, token: body.text() };
      break;
    case FrameKind.append: {
      const id = body.number();
      const commandId = body.string();
      const request = body.string();
      const batches: FramedBatch[] = [];
      for (let b = body.count(16), i = 0; i < b; i++) {
        const stream = body.text();
        const expected = body.number();
        const events: FramedBatch['events'] = [];
        for (let n = body.count(16), j = 0; j < n; j++) events.push([body.text(), body.u32(), body.text(), body.text()]);
        batches.push({ stream, expectedVersion: expected < 0 ? null : expected, events });
      }
      frame = { kind, id, commandId, request, batches };
      break;
    }
    case FrameKind.placed: {
      const id = body.number();
      const firstPosition = body.number();
      const prevHash = body.hash();
      const firstVersions: number[] = [];
      for (let n = body.count(8), i = 0; i < n; i++) firstVersions.push(body.number());
      const hashes: string[] = [];
      for (let n = body.count(HASH_BYTES), i = 0; i < n; i++) hashes.push(body.hash());
      frame = { kind, id, placed: { firstPosition, prevHash, firstVersions, hashes } };
      break;
    }
    case FrameKind.repeat:
      frame = { kind, id: body.number(), rows: body.text() };
      break;
    case FrameKind.refused:
      frame = { kind, id: body.number(), error: body.text() };
      break;
    case FrameKind.bye:
      frame = { kind };
      break;
    default:
      throw new BadFrameError(`no frame is of kind ${kind}`);
  }
  body.done();
  return frame;
}

/**
 * Sends frames on a socket: those sent in one turn of the event loop go in one write, at the end
 * of the turn.
 */
export function frameSender(socket: Socket): (frame: Frame) => void {
  const out = new FrameBuffer();
  let queued = false;
  const flush = () => {
    queued = false;
    if (!socket.destroyed) socket.write(out.take());
  };
  return (frame) => {
    if (socket.destroyed) return;
    encode(out, frame);
    if (!queued) {
      queued = true;
      process.nextTick(flush);
    }
  };
}

/**
 * Reads frames as the chunks of a socket come, calling `onFrame` for each whole one; `onBad` is
 * called, and nothing more read, on the first that is too long or does not read as a frame (or
 * that `onFrame` throws on).
 */
export function frameReader(onFrame: (frame: Frame) => void, onBad: (error: Error) => void): (chunk: Buffer) => void {
  // The chunks of a frame begun, kept until the whole of it has come (then joined once).
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  let needed = 0;
  let bad = false;
  return (chunk) => {
    if (bad) return;
    if (pending.length > 0) {
      pending.push(chunk);
      pendingBytes += chunk.length;
      if (pendingBytes < needed) return;
      chunk = Buffer.concat(pending, pendingBytes);
      pending = [];
      pendingBytes = 0;
    }
    let at = 0;
    try {
      while (chunk.length - at >= 4) {
        const length = chunk.readUInt32LE(at);
        if (length < 1 || length > MAX_FRAME) throw new BadFrameError(`a frame of ${length} bytes is not one the link takes`);
        if (chunk.length - at - 4 < length) break;
        const frame = decode(chunk[at + 4]!, new FrameBody(chunk, at + 5, at + 4 + length));
        at += 4 + length;
        onFrame(frame);
      }
    } catch (error) {
      bad = true;
      onBad(error as Error);
      return;
    }
    if (at < chunk.length) {
      // A frame begun: the rest comes in later chunks. Copied, so the chunk it came in can go.
      const rest = Buffer.from(chunk.subarray(at));
      pending = [rest];
      pendingBytes = rest.length;
      needed = rest.length >= 4 ? 4 + rest.readUInt32LE(0) : 4;
    }
  };
}

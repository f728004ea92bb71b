/**
 * The frames between a server process and the ledger's writer process
 * (events/store/postgres/writer-frames.ts): what is sent is read back exactly, however the bytes
 * are cut into chunks, and anything that is not a frame ends the link without being read as one.
 */
import { EventEmitter } from 'node:events';
import type { Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { type Frame, FrameKind, MAX_FRAME, frameReader, frameSender } from '../events/store/postgres/writer-frames.ts';

const hash = (c: string) => c.repeat(64);

const frames: Frame[] = [
  { kind: FrameKind.hello, token: 'ab'.repeat(24) },
  {
    kind: FrameKind.append,
    id: 1,
    commandId: 'tap-1',
    request: 'sha256:0f',
    batches: [
      {
        stream: 'game-7',
        expectedVersion: 0,
        events: [
          ['CardPlayed', 1, '{"card":"10H","note":"a \\"quote\\", a line\\nbreak, Zoë and 🂡"}', '{"at":"2026-01-01T00:00:00.000Z"}'],
          ['TrickWon', 2, '{}', '{"at":"2026-01-01T00:00:00.000Z","by":"judge:ana"}'],
        ],
      },
      { stream: 'tournament-1', expectedVersion: null, events: [['EntrantAdded', 1, '{"name":""}', '{"at":"x"}']] },
    ],
  },
  { kind: FrameKind.append, id: 2 ** 40, commandId: null, request: null, batches: [{ stream: 'game-8', expectedVersion: 2 ** 33, events: [] }] },
  { kind: FrameKind.placed, id: 1, placed: { firstPosition: 2 ** 45, prevHash: hash('0'), firstVersions: [1, 7], hashes: [hash('a'), hash('b'), hash('c')] } },
  { kind: FrameKind.repeat, id: 3, rows: JSON.stringify([[{ position: 1, stream: 'game-7' }]]) },
  { kind: FrameKind.refused, id: 4, error: '{"kind":"version","stream":"game-7","expected":1,"actual":2}' },
  { kind: FrameKind.bye },
];

/** What a sender writes in one turn of the event loop, as the bytes of its one write. */
async function sent(list: Frame[]): Promise<Buffer[]> {
  const writes: Buffer[] = [];
  const socket = Object.assign(new EventEmitter(), { destroyed: false, write: (b: Buffer) => writes.push(Buffer.from(b)) }) as unknown as Socket;
  const send = frameSender(socket);
  for (const frame of list) send(frame);
  await new Promise((resolve) => setImmediate(resolve));
  return writes;
}

function read(chunks: Buffer[]): { frames: Frame[]; bad: Error | null } {
  const got: Frame[] = [];
  let bad: Error | null = null;
  const feed = frameReader(
    (f) => got.push(f),
    (e) => (bad = e),
  );
  for (const chunk of chunks) feed(chunk);
  return { frames: got, bad };
}

describe('writer link frames', () => {
  it('sends the frames of one turn in one write, and reads back each exactly', async () => {
    const writes = await sent(frames);
    expect(writes).toHaveLength(1);
    expect(read(writes)).toEqual({ frames, bad: null });
  });

  it('reads the same frames however the bytes are cut into chunks', async () => {
    const [bytes] = await sent(frames);
    for (const size of [1, 2, 3, 5, 7, 64, 1000]) {
      const chunks: Buffer[] = [];
      for (let at = 0; at < bytes!.length; at += size) chunks.push(bytes!.subarray(at, at + size));
      expect(read(chunks), `chunks of ${size}`).toEqual({ frames, bad: null });
    }
    // and a frame larger than the sender's first buffer
    const big: Frame = { kind: FrameKind.refused, id: 9, error: 'x'.repeat(100_000) };
    const [large] = await sent([big]);
    expect(read([large!.subarray(0, 3), large!.subarray(3, 70_000), large!.subarray(70_000)]).frames).toEqual([big]);
  });

  it('ends the link on bytes that are not a frame, reading nothing after', async () => {
    const [hello] = await sent([frames[0]!]);
    // a line of text where a frame should be: its first four bytes read as a length far too long
    expect(read([Buffer.from('GET / HTTP/1.1\r\n\r\n')])).toMatchObject({
      frames: [],
      bad: { message: expect.stringMatching(/bytes is not one the link takes/) },
    });
    // a frame announcing more than the link takes
    const huge = Buffer.alloc(5);
    huge.writeUInt32LE(MAX_FRAME + 1, 0);
    expect(read([hello!, huge, hello!]).frames).toEqual([frames[0]]);
    expect(read([hello!, huge]).bad).not.toBeNull();
    // a kind no frame has
    expect(read([Buffer.from([1, 0, 0, 0, 99]), hello!])).toMatchObject({ frames: [], bad: { message: 'no frame is of kind 99' } });
    // a frame whose fields run past its end, or stop short of it
    const short = Buffer.from(hello!);
    short.writeUInt32LE(hello!.length - 4 - 1, 0);
    expect(read([short.subarray(0, short.length - 1)]).bad?.message).toBe('a frame ends before its last field');
    const long = Buffer.concat([hello!, Buffer.from([0])]);
    long.writeUInt32LE(hello!.length - 4 + 1, 0);
    expect(read([long]).bad?.message).toBe('a frame holds more than its fields');
    // a count of events far beyond the frame's bytes
    const [append] = await sent([{ kind: FrameKind.append, id: 1, commandId: null, request: null, batches: [] }]);
    const counted = Buffer.from(append!);
    counted.writeUInt32LE(1_000_000, counted.length - 4);
    expect(read([counted]).bad?.message).toBe('a frame counts more items than it holds');
  });

  it('refuses to frame a hash that is not 64 characters, leaving the frames around it whole', async () => {
    const writes: Buffer[] = [];
    const socket = Object.assign(new EventEmitter(), { destroyed: false, write: (b: Buffer) => writes.push(Buffer.from(b)) }) as unknown as Socket;
    const send = frameSender(socket);
    send(frames[0]!);
    expect(() => send({ kind: FrameKind.placed, id: 1, placed: { firstPosition: 1, prevHash: 'abc', firstVersions: [1], hashes: [] } })).toThrow(
      'a hash of 3 characters cannot be framed',
    );
    send(frames.at(-1)!);
    await new Promise((resolve) => setImmediate(resolve));
    expect(read(writes)).toEqual({ frames: [frames[0], frames.at(-1)], bad: null });
  });
});

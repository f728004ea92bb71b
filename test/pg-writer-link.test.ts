/**
 * One writer process per ledger on PostgreSQL (events/store/postgres/writer-link.ts): the server
 * processes elect one of them, the others forward their appends to it, and it commits them with
 * its own. Each store here has connections of its own, as a separate server process has; the
 * processes killed are real processes.
 */
import { readFileSync, readdirSync } from 'node:fs';
import net from 'node:net';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CommandIdReusedError, VersionConflictError } from '../events/store/append.ts';
import { InvalidPayloadError } from '../events/event-registry.ts';
import { type ChainedRow, verifyRows } from '../events/hash-chain.ts';
import { type PgEventStore, openPostgresStore } from '../events/store/postgres/event-store.ts';
import { type Frame, FrameKind, frameReader, frameSender } from '../events/store/postgres/writer-frames.ts';
import { buildLedgerChild, startChild } from './fixtures/ledger-child-process.ts';
import { type LedgerTestEvent, STORED_COLUMNS as COLUMNS, counter, ledgerTestRegistry } from './fixtures/ledger-events.ts';
import { type PostgresCluster, noteMissingPostgres, postgres, startPostgres } from './fixtures/postgres.ts';
import { waitFor } from './fixtures/wait-for.ts';

noteMissingPostgres('pg-writer-link');

describe('advisory locks', () => {
  it('each lock the ledger takes on PostgreSQL has a key of its own', () => {
    // A second use of one key makes unrelated work wait on it: a snapshot's table waiting for
    // the writer's election, which is held for as long as the writer lives.
    const files = ['events/store/postgres', 'server/auth/storage'].flatMap((dir) =>
      readdirSync(dir)
        .filter((f) => f.endsWith('.ts'))
        .map((f) => join(dir, f)),
    );
    const keys = files.flatMap((file) =>
      [...readFileSync(file, 'utf8').matchAll(/^const (\w+_LOCKS?) = (0x[\d_a-f]+);/gm)].map((m) => ({
        at: `${file} ${m[1]}`,
        key: Number(m[2]!.replace(/_/g, '')),
      })),
    );
    expect(keys.length).toBeGreaterThanOrEqual(6);
    const shared = keys.filter((k) => keys.some((other) => other !== k && other.key === k.key)).map((k) => k.at);
    expect(shared).toEqual([]);
  });
});

const clock = () => '2025-03-01T19:00:00.000Z';

describe.skipIf(!postgres.available)('one writer process for every server process on PostgreSQL', () => {
  let cluster: PostgresCluster;
  let url: string;
  let sqlClient: pg.Client;
  const opened = new Set<PgEventStore<LedgerTestEvent>>();

  beforeAll(async () => {
    cluster = await startPostgres();
  });
  afterAll(async () => {
    await cluster?.stop();
  });
  beforeEach(async () => {
    url = await cluster.createDatabase('writer');
    sqlClient = new pg.Client({ connectionString: url });
    await sqlClient.connect();
  });
  afterEach(async () => {
    await Promise.all([...opened].map((s) => s.close()));
    opened.clear();
    await sqlClient.end();
  });

  /** A store as a server process opens it: taking part in the election. */
  const open = async (linked = true) => {
    const store = await openPostgresStore<LedgerTestEvent>({
      url,
      registry: ledgerTestRegistry,
      clock,
      poolSize: 2,
      ...(linked ? { writerLink: { host: '127.0.0.1' } } : {}),
    });
    opened.add(store);
    return store;
  };
  const close = async (store: PgEventStore<LedgerTestEvent>) => {
    opened.delete(store);
    await store.close();
  };
  const query = async <R extends object>(text: string) => (await sqlClient.query<R>(text)).rows;
  const storedRows = async () =>
    (await query<ChainedRow & { position: string }>(`SELECT ${COLUMNS} FROM events ORDER BY position`)).map((row) => ({
      ...row,
      position: Number(row.position),
    }));
  const writerOf = (stores: PgEventStore<LedgerTestEvent>[]) => waitFor('a writer elected', () => stores.find((s) => s.isWriter()), 10_000);

  it('elects one writer; the others forward to it, and every append is answered and stored as if made directly', async () => {
    const stores = await Promise.all([open(), open(), open()]);
    const writer = await writerOf(stores);
    expect(stores.filter((s) => s.isWriter())).toHaveLength(1);
    // when every store appends, four at a time, to streams of its own
    const EACH = 20;
    const results = await Promise.all(
      stores.flatMap((store, s) =>
        Array.from({ length: 4 }, async (_, w) => {
          const mine = [];
          for (let i = 1; i <= EACH; i++)
            mine.push(await store.append(`game-s${s}-w${w}`, [counter(`s${s}w${w}`, i), counter(`s${s}w${w}`, 1000 + i)], { expectedVersion: 2 * (i - 1) }));
          return mine;
        }),
      ),
    );
    // then the others' appends went through the writer and none was committed by themselves
    for (const store of stores.filter((s) => s !== writer)) {
      expect(store.commitStats()).toMatchObject({ forwarded: 4 * EACH, own: 0, transactions: 0 });
    }
    expect(writer.commitStats().servedForOthers).toBe(2 * 4 * EACH);
    // and it had chained most of them while waiting for the rest to come, before its commits began
    expect(writer.commitStats().decidedAhead).toBeGreaterThan(4 * EACH);
    // and what each caller was answered is what the ledger holds, row for row
    const rows = await storedRows();
    expect(rows).toHaveLength(3 * 4 * EACH * 2);
    expect(verifyRows(rows).ok).toBe(true);
    const byPosition = new Map(rows.map((r) => [r.position, r]));
    for (const result of results.flat()) {
      for (const e of result.events) {
        const row = byPosition.get(e.position)!;
        expect([row.stream, row.version, row.hash, row.prev_hash, JSON.parse(row.payload)]).toEqual([e.stream, e.version, e.hash, e.prevHash, e.payload]);
        expect(JSON.parse(row.meta)).toEqual(e.meta);
      }
    }
    // and the writer committed the processes' appends together
    const transactions = Number((await query<{ n: string }>('SELECT count(DISTINCT xmin::text) AS n FROM events'))[0]!.n);
    expect(transactions).toBeLessThan(3 * 4 * EACH);
  });

  it("a forwarded append to several streams is answered with each event's place, as stored", async () => {
    const stores = await Promise.all([open(), open()]);
    const writer = await writerOf(stores);
    const other = stores.find((s) => s !== writer)!;
    await writer.append('game-2', [counter('w', 1), counter('w', 2)]);
    const results = await other.appendMany(
      [
        { stream: 'game-1', events: [counter('a', 1), counter('a', 2)], expectedVersion: 0 },
        { stream: 'game-2', events: [counter('a', 3)], expectedVersion: 2 },
        { stream: 'game-3', events: [] },
      ],
      { commandId: 'both-1' },
    );
    expect(other.commitStats()).toMatchObject({ forwarded: 1, own: 0 });
    const rows = await storedRows();
    expect(verifyRows(rows).ok).toBe(true);
    const answered = results.flatMap((r) => r.events.map((e) => [e.position, e.stream, e.version, e.prevHash, e.hash, e.commandId]));
    expect(answered).toEqual(rows.slice(2).map((r) => [r.position, r.stream, r.version, r.prev_hash, r.hash, r.command_id]));
    expect(answered.map(([position, stream, version, , , commandId]) => [position, stream, version, commandId])).toEqual([
      [3, 'game-1', 1, 'both-1'],
      [4, 'game-1', 2, null],
      [5, 'game-2', 3, null],
    ]);
    expect(results.map((r) => r.positions)).toEqual([[3, 4], [5], []]);
  });

  it('a forwarded append is refused as it would be directly: a stale version with its versions, a command id reused, and a repeat answered with its first result', async () => {
    const stores = await Promise.all([open(), open()]);
    const writer = await writerOf(stores);
    const other = stores.find((s) => s !== writer)!;
    await other.append('game-1', [counter('a', 1)], { commandId: 'tap-1' });
    await writer.append('game-1', [counter('w', 2)]);
    // a decision made from version 1 when the stream is at 2
    const stale = await other.append('game-1', [counter('a', 3)], { expectedVersion: 1 }).catch((e: unknown) => e);
    expect(stale).toBeInstanceOf(VersionConflictError);
    expect(stale).toMatchObject({ stream: 'game-1', expected: 1, actual: 2 });
    // the same command again: the first result, nothing written
    const repeat = await other.append('game-1', [counter('a', 1)], { commandId: 'tap-1' });
    expect(repeat).toMatchObject({ duplicate: true, positions: [1], versions: [1] });
    expect(repeat.events[0]!.payload).toEqual({ by: 'a', attempt: 1 });
    // the same id for something else
    expect(await other.append('game-2', [counter('a', 9)], { commandId: 'tap-1' }).catch((e: unknown) => e)).toBeInstanceOf(CommandIdReusedError);
    // a bad event is refused where it is made, before anything is sent
    await expect(other.append('game-1', [{ type: 'CounterIncremented', payload: { by: 5 } } as never])).rejects.toBeInstanceOf(InvalidPayloadError);
    expect(other.commitStats()).toMatchObject({ own: 0, transactions: 0 });
    expect((await storedRows()).map((r) => [r.stream, r.version])).toEqual([
      ['game-1', 1],
      ['game-1', 2],
    ]);
  });

  it('a writer that stops answers what it was sent, and another takes over without a single append refused', async () => {
    const stores = await Promise.all([open(), open(), open()]);
    const first = await writerOf(stores);
    const others = stores.filter((s) => s !== first);
    let stop = false;
    const failures: unknown[] = [];
    const counts = new Map<PgEventStore<LedgerTestEvent>, number>();
    // the others append without pause, without command ids
    const lanes = others.flatMap((store, s) =>
      Array.from({ length: 3 }, async (_, w) => {
        for (let i = 1; !stop; i++) {
          try {
            await store.append(`game-${s}-${w}`, [counter(`${s}-${w}`, i)], { expectedVersion: i - 1 });
            counts.set(store, (counts.get(store) ?? 0) + 1);
          } catch (error) {
            failures.push(error);
            return;
          }
        }
      }),
    );
    await waitFor('appends forwarded', () => others.every((s) => s.commitStats().forwarded > 20), 10_000);
    // when the writer stops in the middle of it
    await close(first);
    const second = await writerOf(others);
    const forwardedBefore = others.find((s) => s !== second)!.commitStats().forwarded;
    await waitFor('appends forwarded to the new writer', () => others.find((s) => s !== second)!.commitStats().forwarded > forwardedBefore + 20, 10_000);
    stop = true;
    await Promise.all(lanes);
    // then no append failed, and every acknowledged one is in the one chain
    expect(failures).toEqual([]);
    const rows = await storedRows();
    expect(verifyRows(rows).ok).toBe(true);
    expect(rows).toHaveLength([...counts.values()].reduce((a, b) => a + b, 0));
    expect(second.isWriter()).toBe(true);
  });

  it("a link that does not present the writer's token is closed and records nothing, and one that does is answered", async () => {
    const stores = await Promise.all([open(), open()]);
    await writerOf(stores);
    const [row] = await query<{ address: string; token: string }>('SELECT address, token FROM ledger_writer');
    const [, host, port] = /^(.*):(\d+)$/.exec(row!.address)!;
    const append: Frame = {
      kind: FrameKind.append,
      id: 1,
      commandId: null,
      request: null,
      batches: [
        { stream: 'game-9', expectedVersion: null, events: [['CounterIncremented', 1, '{"attempt":1,"by":"x"}', '{"at":"2025-03-01T19:00:00.000Z"}']] },
      ],
    };
    /** A link sending `frames`, with what it was answered once the writer closed it (or it answered). */
    const link = (frames: Frame[]) => {
      const socket = net.connect({ host: host!, port: Number(port) });
      socket.on('error', () => undefined);
      const answers: Frame[] = [];
      socket.on(
        'data',
        frameReader(
          (f) => answers.push(f),
          () => socket.destroy(),
        ),
      );
      const send = frameSender(socket);
      for (const frame of frames) send(frame);
      return { socket, answers, closed: new Promise<void>((resolve) => socket.on('close', () => resolve())) };
    };
    const wrong = link([{ kind: FrameKind.hello, token: 'f'.repeat(row!.token.length) }, append]);
    await wrong.closed;
    expect(wrong.answers).toEqual([]);
    expect(await storedRows()).toEqual([]);
    // the same frames with the token are taken (so it was the token that was refused)
    const right = link([{ kind: FrameKind.hello, token: row!.token }, append]);
    await waitFor('the append answered', () => right.answers.length > 0, 10_000);
    right.socket.destroy();
    expect(right.answers).toMatchObject([{ kind: FrameKind.placed, id: 1, placed: { firstPosition: 1, firstVersions: [1] } }]);
    expect((await storedRows()).map((r) => [r.stream, r.version])).toEqual([['game-9', 1]]);
    // and one not speaking the protocol at all neither
    const garbage = net.connect({ host: host!, port: Number(port) });
    garbage.on('error', () => undefined);
    garbage.write('GET / HTTP/1.1\r\n\r\n');
    await new Promise<void>((resolve) => garbage.on('close', () => resolve()));
    expect(await storedRows()).toHaveLength(1);
  });

  it('a store without the election appends directly beside the writer, and both land in the one chain', async () => {
    const [a, b] = await Promise.all([open(), open()]);
    await writerOf([a, b]);
    const tool = await open(false);
    await Promise.all([
      ...Array.from({ length: 10 }, (_, i) => a.append('game-a', [counter('a', i)])),
      ...Array.from({ length: 10 }, (_, i) => b.append('game-b', [counter('b', i)])),
      ...Array.from({ length: 10 }, (_, i) => tool.append('game-t', [counter('t', i)])),
    ]);
    const rows = await storedRows();
    expect(rows).toHaveLength(30);
    expect(verifyRows(rows).ok).toBe(true);
    expect(tool.commitStats().forwarded).toBe(0);
  });

  it('keeps every acknowledged event when the writer process is killed with SIGKILL, and another process takes over', async () => {
    const child = buildLedgerChild();
    const children: ReturnType<typeof startChild>[] = [];
    try {
      await close(await open()); // the schema in place before four processes race to make it
      for (let i = 0; i < 4; i++) children.push(startChild(child.path, ['append-loop', url, `p${i}`], { LEDGER_WRITER_LINK: '1' }));
      await Promise.all(children.map((c) => c.firstLine));
      // (no table yet until the first writer is elected)
      const writerPid = async () => Number((await query<{ pid: number }>('SELECT pid FROM ledger_writer').catch(() => []))[0]?.pid ?? 0);
      const firstPid = await waitFor(
        'a writer process elected',
        async () => {
          const pid = await writerPid();
          return children.some((c) => c.child.pid === pid) ? pid : false;
        },
        10_000,
      );
      const first = children.find((c) => c.child.pid === firstPid)!;
      expect(first).toBeDefined();
      // when the writer is killed while every process appends
      await waitFor('appends acknowledged by every process', () => children.every((c) => c.lines.length > 20), 20_000);
      first.child.kill('SIGKILL');
      await first.closed;
      // then another process is elected and the survivors go on appending through it
      const secondPid = await waitFor('another writer elected', async () => ((await writerPid()) !== firstPid ? writerPid() : false), 10_000);
      const survivors = children.filter((c) => c !== first);
      expect(survivors.map((c) => c.child.pid)).toContain(secondPid);
      const before = survivors.map((c) => c.lines.length);
      await waitFor('appends acknowledged after the takeover', () => survivors.every((c, i) => c.lines.length > before[i]! + 20), 20_000);
      for (const c of survivors) c.child.kill('SIGKILL');
      const exits = await Promise.all(survivors.map((c) => c.closed));
      // no survivor ended by itself (an append refused ends its loop)
      expect(exits.map((e) => [e.signal, e.stderr.trim()])).toEqual(survivors.map(() => ['SIGKILL', '']));
      const rows = await storedRows();
      expect(verifyRows(rows).ok).toBe(true);
      const stored = new Map(rows.map((r) => [r.position, r.hash]));
      const acks = children.flatMap((c) => c.lines.map((line) => line.split(' ')));
      expect(acks.length).toBeGreaterThan(100);
      for (const [word, position, hash] of acks) {
        expect(word).toBe('ack');
        expect(stored.get(Number(position)), `acknowledged position ${position}`).toBe(hash);
      }
      // each event recorded once: a forwarded append sent again after the kill is answered with its first result
      const seen = rows.map((r) => {
        const p = JSON.parse(r.payload) as { by: string; attempt: number };
        return `${p.by}/${p.attempt}`;
      });
      expect(new Set(seen).size).toBe(seen.length);
    } finally {
      for (const c of children) c.child.kill('SIGKILL');
      await Promise.all(children.map((c) => c.closed));
      child.remove();
    }
  }, 90_000);
});

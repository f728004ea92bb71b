/**
 * A backup proves it is whole, and no import leaves half a ledger: `spades export` opens and
 * closes its lines with a header and a trailer naming the head; `spades import-ledger` refuses
 * an empty file, a backup cut short (saying how many of its events it holds) and an export from
 * before the trailer (naming --prefix), takes a prefix only on purpose, and builds a new file
 * beside its place, so one refused or killed midway leaves no ledger. `verify` and `export` read
 * a file without leaving a -wal or -shm beside it.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../events/store/sqlite/database.ts';
import { openBackend } from '../server/serve/serve-backends.ts';
import { formatDigest } from '../events/hash-chain.ts';
import { cli } from './fixtures/cli.ts';
import { spadesProcess } from './fixtures/spades-process.ts';
import { type AuditLedger, playTournament, tempLedger } from './fixtures/audit-ledger.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

let played: AuditLedger;
let dir: string;
let exported: string;
let lines: string[];
let events: number;
/** The digest of each position, to check a prefix's head. */
let digests: Map<number, string>;

beforeAll(async () => {
  played = tempLedger();
  await playTournament(played.ledger, { teams: 4, stopAt: 1500, renegeChance: 0.03 });
  events = played.ledger.store.head().position;
  digests = new Map(played.ledger.store.readAll({ after: 0 }).map((e) => [e.position, formatDigest({ position: e.position, hash: e.hash })]));
  played.ledger.close();
  dir = mkdtempSync(join(tmpdir(), 'spades-backup-'));
  exported = (await cli(['export', '--db', played.path])).stdout;
  lines = exported.split('\n').filter((line) => line !== '');
}, 120_000);
afterAll(() => {
  played?.remove();
  rmSync(dir, { recursive: true, force: true });
});

const file = (name: string, text: string): string => {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
};

/** A refusal as the command line gives it: exit 2, one line on stderr, nothing on stdout, and no ledger made. */
function expectRefused(result: { code: number; stdout: string; stderr: string }, target: string, sentence: RegExp): void {
  expect(result.code).toBe(2);
  expect(result.stdout).toBe('');
  expect(result.stderr.endsWith('\n')).toBe(true);
  expect(result.stderr.split('\n')).toHaveLength(2);
  expect(result.stderr).toMatch(sentence);
  expect(existsSync(target)).toBe(false);
  expect(readdirSync(dir).filter((name) => name.startsWith(`${target.split('/').pop()}`))).toEqual([]);
}

describe('spades export', () => {
  it('opens with a header and ends with a trailer naming the event count and the head', () => {
    const head = digests.get(events)!;
    const [position, hash] = head.split(':');
    const summary = { events, head: { position: Number(position), hash } };
    expect(JSON.parse(lines[0]!)).toEqual({ header: 'spades-ledger/1', ...summary });
    expect(JSON.parse(lines.at(-1)!)).toEqual({ trailer: 'spades-ledger/1', ...summary });
    expect(lines).toHaveLength(events + 2);
    expect(exported.endsWith('\n')).toBe(true);
  });
});

describe('spades import-ledger', () => {
  it('restores a whole backup byte for byte: exported again, it is the same file', async () => {
    const target = join(dir, 'whole.db');
    const result = await spadesProcess(['import-ledger', file('whole.ndjson', exported), '--db', target]);
    expect(result).toEqual({ code: 0, stdout: `imported ${events} events into ${target}\nhead ${digests.get(events)}\n`, stderr: '' });
    expect((await spadesProcess(['export', '--db', target])).stdout).toBe(exported);
    // Nothing of the build is left beside it.
    expect(readdirSync(dir).filter((name) => name.startsWith('whole.db'))).toEqual(['whole.db']);
  }, 60_000);

  it('refuses a backup cut at a line boundary, saying how many of its events it holds, and makes no ledger', async () => {
    const kept = 700;
    const cut = file('cut.ndjson', `${lines.slice(0, kept + 1).join('\n')}\n`);
    const target = join(dir, 'cut.db');
    const result = await spadesProcess(['import-ledger', cut, '--db', target]);
    expectRefused(
      result,
      target,
      new RegExp(
        `^spades import-ledger: ${cut}: the backup is cut short: it holds 700 of ${events.toLocaleString('en-US')} events.*nothing was imported.*--prefix`,
      ),
    );
  }, 60_000);

  it('refuses a backup cut inside a line, and one that lost its trailer alone', async () => {
    const inside = file('inside.ndjson', exported.slice(0, exported.indexOf('\n', exported.length / 2) - 10));
    const target = join(dir, 'inside.db');
    expectRefused(await cli(['import-ledger', inside, '--db', target]), target, /the backup is cut short in line \d+: it holds \d+ of [\d,]+ events/);
    const noTrailer = file('no-trailer.ndjson', `${lines.slice(0, -1).join('\n')}\n`);
    expectRefused(
      await cli(['import-ledger', noTrailer, '--db', target]),
      target,
      new RegExp(`it holds ${events.toLocaleString('en-US')} of ${events.toLocaleString('en-US')} events, and no trailer line`),
    );
  });

  it('refuses lines lost from the middle, a trailer naming another head, and two exports run together', async () => {
    const target = join(dir, 'holes.db');
    const missing = file('missing.ndjson', `${[...lines.slice(0, 100), ...lines.slice(101)].join('\n')}\n`);
    expectRefused(
      await cli(['import-ledger', missing, '--db', target]),
      target,
      new RegExp(`it holds ${(events - 1).toLocaleString('en-US')} of the ${events.toLocaleString('en-US')} events its trailer names`),
    );
    const other = JSON.parse(lines.at(-1)!) as { head: { hash: string } };
    other.head.hash = other.head.hash.replace(/^./, (c) => (c === '0' ? '1' : '0'));
    const header = JSON.parse(lines[0]!) as { head: { hash: string } };
    header.head.hash = other.head.hash;
    const wrongHead = file('wrong-head.ndjson', `${[JSON.stringify(header), ...lines.slice(1, -1), JSON.stringify(other)].join('\n')}\n`);
    expectRefused(
      await cli(['import-ledger', wrongHead, '--db', target]),
      target,
      /the backup's last event is \d+:[0-9a-f]{64}, not the head \d+:[0-9a-f]{64} its trailer names; nothing was imported/,
    );
    const twice = file('twice.ndjson', exported + exported);
    expectRefused(await cli(['import-ledger', twice, '--db', target]), target, /the backup is not whole/);
  });

  it('refuses lines added after the trailer, counting what the backup holds and what was added', async () => {
    const target = join(dir, 'added.db');
    const trailerLine = (events + 2).toLocaleString('en-US');
    const held = `it holds ${events.toLocaleString('en-US')} events up to its trailer in line ${trailerLine}, which names ${events.toLocaleString('en-US')}`;
    // An event line copied in again after the trailer.
    const added = file('added.ndjson', `${exported}${lines[5]}\n`);
    expectRefused(
      await cli(['import-ledger', added, '--db', target]),
      target,
      new RegExp(`^spades import-ledger: .*: the backup goes on after its trailer: ${held}, and then 1 more line added after it; nothing was imported\\n$`),
    );
    // Two lines, the last a note with no newline after it.
    const noted = file('noted.ndjson', `${exported}${lines[5]}\nchecked by Ruth`);
    expectRefused(
      await cli(['import-ledger', noted, '--db', target]),
      target,
      new RegExp(`: ${held}, and then 2 more lines added after it; nothing was imported`),
    );
  });

  it('refuses an empty file, from a file or standard input', async () => {
    const target = join(dir, 'empty.db');
    const empty = file('empty.ndjson', '');
    expectRefused(
      await spadesProcess(['import-ledger', empty, '--db', target]),
      target,
      /^spades import-ledger: \S+empty\.ndjson: the file is empty: .*nothing was imported\n$/,
    );
    expectRefused(await cli(['import-ledger', '-', '--db', target], '\n\n'), target, /^spades import-ledger: -: the file is empty/);
    expectRefused(await cli(['import-ledger', '-', '--db', target, '--prefix'], ''), target, /the file is empty/);
  }, 60_000);

  it('refuses an export from before the trailer, naming --prefix, which then takes it as it stands', async () => {
    const old = file('old.ndjson', lines.slice(1, -1).join('\n'));
    const target = join(dir, 'old.db');
    const refused = await spadesProcess(['import-ledger', old, '--db', target]);
    expectRefused(
      refused,
      target,
      /^spades import-ledger: \S+old\.ndjson: the file has no header or trailer line: .*cannot be told; nothing was imported \(--prefix imports the [\d,]+ whole events it holds as the start of a ledger\)\n$/,
    );
    const taken = await spadesProcess(['import-ledger', old, '--db', target, '--prefix']);
    expect(taken.code).toBe(0);
    expect(taken.stdout.split('\n').slice(0, 2)).toEqual([`imported ${events} events into ${target}`, `head ${digests.get(events)}`]);
    expect((await spadesProcess(['export', '--db', target])).stdout).toBe(exported);
  }, 60_000);

  it('restores a known prefix on purpose with --prefix: the first events, to the head they had', async () => {
    const kept = 700;
    const cut = file('prefix.ndjson', `${lines.slice(0, kept + 1).join('\n')}\n`);
    const target = join(dir, 'prefix.db');
    const result = await cli(['import-ledger', cut, '--db', target, '--prefix']);
    expect(result).toEqual({
      code: 0,
      stdout: `imported ${kept} events into ${target}\nhead ${digests.get(kept)}\na prefix: ${kept} of the ${events} events the backup's header announces\n`,
      stderr: '',
    });
    expect(await cli(['verify', '--db', target, '--digest', digests.get(kept)!])).toMatchObject({ code: 0 });
    // Its own export is whole: the rows the backup held, between a header and trailer of its own.
    const again = (await cli(['export', '--db', target])).stdout.split('\n').filter(Boolean);
    expect(again.slice(1, -1)).toEqual(lines.slice(1, kept + 1));
    // A cut inside a line keeps the whole lines before it, and says the cut one was left out.
    const inside = file('prefix-inside.ndjson', `${lines.slice(0, kept + 1).join('\n')}\n${lines[kept + 1]!.slice(0, 40)}`);
    const partial = await cli(['import-ledger', inside, '--db', join(dir, 'prefix-inside.db'), '--prefix']);
    expect(partial.code).toBe(0);
    expect(partial.stdout).toContain(`imported ${kept} events`);
    expect(partial.stdout).toContain(`line ${kept + 2}, cut midway, was left out`);
  });

  it('leaves no ledger when a row is refused or the chain does not verify', async () => {
    const target = join(dir, 'refused.db');
    const edited = [...lines];
    const row = JSON.parse(edited[5]!) as { meta: Record<string, unknown> };
    row.meta.by = 'someone else';
    edited[5] = JSON.stringify(row);
    const result = await cli(['import-ledger', file('edited.ndjson', edited.join('\n')), '--db', target]);
    expect(result).toMatchObject({ code: 1, stdout: 'nothing imported: position 5 does not verify: its hash does not match its contents\n' });
    expect(readdirSync(dir).filter((name) => name.startsWith('refused.db'))).toEqual([]);
  });

  it('killed midway leaves no ledger file, and the next import clears what it left and lands whole', async () => {
    // A larger backup, so the import is surely under way when it is killed.
    const big = tempLedger();
    try {
      await playTournament(big.ledger, { teams: 8, stopAt: 6000 });
      big.ledger.close();
      const backup = join(dir, 'big.ndjson');
      writeFileSync(backup, (await cli(['export', '--db', big.path])).stdout);
      const target = join(dir, 'killed', 'spades.db');
      const child = spawn(process.execPath, ['bin/spades.js', 'import-ledger', backup, '--db', target], { cwd: ROOT, stdio: 'ignore' });
      const building = `${target}.import-${child.pid}`;
      const exited = new Promise<NodeJS.Signals | null>((resolve) => child.once('exit', (_code, signal) => resolve(signal)));
      // Killed once the import has begun writing its rows.
      for (let i = 0; i < 600 && !existsSync(building); i++) await new Promise((resolve) => setTimeout(resolve, 25));
      expect(existsSync(building)).toBe(true);
      child.kill('SIGKILL');
      expect(await exited).toBe('SIGKILL');
      expect(existsSync(target)).toBe(false);
      expect(await cli(['verify', '--db', target])).toMatchObject({ code: 2, stderr: expect.stringContaining('no ledger at') });

      const again = await cli(['import-ledger', backup, '--db', target]);
      expect(again.code).toBe(0);
      expect(readdirSync(join(dir, 'killed'))).toEqual(['spades.db']);
      expect((await cli(['export', '--db', target])).stdout).toBe(readFileSync(backup, 'utf8'));
    } finally {
      big.remove();
    }
  }, 180_000);

  it("clears a killed import's leftovers wherever the next import or server starts, even once the file is there", async () => {
    // What an import killed midway leaves: its build and SQLite's companions, named for a process that is gone.
    const gone = spawnSync(process.execPath, ['-e', '']).pid;
    const running = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)'], { stdio: 'ignore' });
    const plant = (target: string) => {
      for (const suffix of ['', '-wal', '-shm']) writeFileSync(`${target}.import-${gone}${suffix}`, 'left by a killed import');
      // An import still under way in another process keeps its build.
      writeFileSync(`${target}.import-${running.pid}`, 'an import under way');
    };
    const left = (folder: string) =>
      readdirSync(folder)
        .filter((name) => name.includes('.import-'))
        .sort();
    try {
      // A file a server made first, then an import into it.
      const first = join(dir, 'leftovers-import');
      mkdirSync(first);
      const target = join(first, 'spades.db');
      openDatabase({ path: target }).close();
      plant(target);
      expect(left(first)).toHaveLength(4);
      expect((await cli(['import-ledger', file('leftovers.ndjson', exported), '--db', target])).code).toBe(0);
      expect(left(first)).toEqual([`spades.db.import-${running.pid}`]);

      // A server started in a folder where an import was killed.
      const second = join(dir, 'leftovers-serve');
      mkdirSync(second);
      plant(join(second, 'spades.db'));
      const backend = await openBackend({ kind: 'sqlite', path: join(second, 'spades.db') }, second);
      await backend.close();
      expect(left(second)).toEqual([`spades.db.import-${running.pid}`]);
    } finally {
      running.kill('SIGKILL');
    }
  });

  it('keeps importing into an existing empty file in one transaction, and refuses one that holds events', async () => {
    const target = join(dir, 'existing.db');
    openDatabase({ path: target }).close();
    const cut = file('cut-again.ndjson', `${lines.slice(0, 11).join('\n')}\n`);
    expect((await cli(['import-ledger', cut, '--db', target])).code).toBe(2);
    expect(await cli(['verify', '--db', target])).toMatchObject({ code: 0, stdout: expect.stringContaining(': 0 events') });
    expect((await cli(['import-ledger', file('whole-again.ndjson', exported), '--db', target])).code).toBe(0);
    expect(await cli(['import-ledger', '-', '--db', target], exported)).toMatchObject({
      code: 2,
      stderr: expect.stringContaining(`already holds ${events} events`),
    });
  });
});

describe('spades verify and export', () => {
  it('read a ledger file without leaving a -wal or -shm beside it', async () => {
    const copy = join(dir, 'quiet');
    const target = join(copy, 'spades.db');
    expect((await cli(['import-ledger', file('quiet.ndjson', exported), '--db', target])).code).toBe(0);
    expect(readdirSync(copy)).toEqual(['spades.db']);
    expect((await spadesProcess(['verify', '--db', target])).code).toBe(0);
    expect(readdirSync(copy)).toEqual(['spades.db']);
    expect((await spadesProcess(['export', '--db', target])).stdout).toBe(exported);
    expect(readdirSync(copy)).toEqual(['spades.db']);
    expect((await spadesProcess(['verify', '--db', target, '--digest', digests.get(10)!])).code).toBe(0);
    expect(readdirSync(copy)).toEqual(['spades.db']);
    // A SQLite file that is no ledger is refused, and left as it was found.
    const other = join(dir, 'other');
    const stranger = join(other, 'notes.db');
    const plain = openDatabase({ path: stranger });
    plain.sqlite.exec('DROP TRIGGER events_no_delete; DROP TRIGGER events_no_update; DROP TABLE events; CREATE TABLE notes (text TEXT)');
    plain.close();
    expect(readdirSync(other)).toEqual(['notes.db']);
    expect(await spadesProcess(['verify', '--db', stranger])).toMatchObject({ code: 2, stderr: expect.stringContaining('is not a spades ledger') });
    expect(readdirSync(other)).toEqual(['notes.db']);
  }, 60_000);

  it('leave a running server its -wal and -shm', async () => {
    const target = join(dir, 'busy.db');
    expect((await cli(['import-ledger', file('busy.ndjson', exported), '--db', target])).code).toBe(0);
    const writer = openDatabase({ path: target });
    try {
      writer.sqlite.prepare('SELECT count(*) FROM events').get();
      expect(existsSync(`${target}-wal`)).toBe(true);
      expect((await spadesProcess(['export', '--db', target])).stdout).toBe(exported);
      expect(existsSync(`${target}-wal`)).toBe(true);
      expect(existsSync(`${target}-shm`)).toBe(true);
    } finally {
      writer.close();
    }
  }, 60_000);
});

/**
 * Moving a ledger between SQLite and PostgreSQL with the command line: a tournament played by
 * the bots, claims and rulings included, goes out of a SQLite file with `spades export`, into a
 * throwaway PostgreSQL with `spades import-ledger`, verifies there with the same head, folds to
 * the same read models, and comes back out byte for byte into a fresh file. Imports into
 * PostgreSQL refuse what imports into SQLite refuse, in the same words, writing nothing.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { createHash } from 'node:crypto';
import { userInfo } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CliIo, UsageError } from '../server/cli/io.ts';
import { main } from '../server/cli/main.ts';
import { ledgerTarget } from '../server/cli/ledger-target.ts';
import { GENESIS_HASH } from '../events/hash-chain.ts';
import type { LedgerLine } from '../events/store/ledger-file.ts';
import { LedgerReadError } from '../events/store/served-ledger.ts';
import { rebuildModels } from '../events/store/sqlite/ledger-tools.ts';
import { shownPgUrl, openPostgresStore } from '../events/store/postgres/event-store.ts';
import { foldPostgresModels } from '../events/store/postgres/ledger-tools.ts';
import { createTournament } from '../server/commands/tournament-commands.ts';
import type { ReadModels } from '../events/projections.ts';
import { type AuditLedger, playTournament, tempLedger } from './fixtures/audit-ledger.ts';
import { eventLines, framed, rechained } from './fixtures/rechain.ts';
import { type PostgresCluster, noteMissingPostgres, postgres, startPostgres } from './fixtures/postgres.ts';

noteMissingPostgres('ledger-move');

const SPADES = resolve(import.meta.dirname, '../bin/spades.js');

async function cli(args: string[], stdin = ''): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const io: CliIo = { stdout: (t) => void (stdout += t), stderr: (t) => void (stderr += t), stdin: async () => stdin };
  const code = await main(args, io);
  return { code, stdout, stderr };
}

describe('the ledger on the command line, on the store that does not hold it', () => {
  it('takes PostgreSQL from --db first, else from DATABASE_URL, and never prints a password', () => {
    expect(ledgerTarget('verify', 'ledger.db', { DATABASE_URL: 'postgres://u@h/db' })).toEqual({ kind: 'sqlite', path: 'ledger.db' });
    expect(ledgerTarget('verify', undefined, {})).toEqual({ kind: 'sqlite', path: undefined });
    expect(ledgerTarget('verify', undefined, { DATABASE_URL: 'postgresql://u:secret@h:5433/db?password=also' })).toEqual({
      kind: 'postgres',
      url: 'postgresql://u:secret@h:5433/db?password=also',
      name: 'postgresql://u@h:5433/db',
    });
    expect(ledgerTarget('export', 'postgres://u:secret@h/db', {})).toMatchObject({ kind: 'postgres', name: 'postgres://u@h/db' });
    expect(shownPgUrl('not a url')).not.toContain('not a url');
    // A connection string of another kind is refused without being echoed.
    const other = () => ledgerTarget('export', undefined, { DATABASE_URL: 'mysql://u:secret@h/db' });
    expect(other).toThrow(UsageError);
    expect(other).toThrow('spades export: DATABASE_URL is set but is not a postgres:// or postgresql:// URL; unset it to use the ledger file');
  });
});

describe.skipIf(!postgres.available)('moving a played ledger between SQLite and PostgreSQL', () => {
  let cluster: PostgresCluster;
  let admin: pg.Client;
  let played: AuditLedger;
  let exported: string;
  let lines: LedgerLine[];
  let sqliteModels: ReadModels;
  let sqliteVerify: string;
  let head: string;
  let movedUrl: string;
  let imported: { code: number; stdout: string; stderr: string };
  let databases = 0;

  /** A new, empty database of the cluster; its URL. */
  const newDatabase = async (): Promise<string> => {
    const name = `move_${++databases}`;
    await admin.query(`CREATE DATABASE ${name}`);
    return cluster.urlFor(name);
  };
  /** The number of events and the head row of a PostgreSQL ledger, read with a plain client. */
  const stored = async (url: string): Promise<{ events: number; head: string }> => {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      const events = Number((await client.query('SELECT count(*) AS n FROM events')).rows[0].n);
      const row = (await client.query('SELECT position::int AS position, hash FROM ledger_head')).rows[0] as { position: number; hash: string };
      return { events, head: `${row.position}:${row.hash}` };
    } finally {
      await client.end();
    }
  };

  beforeAll(async () => {
    cluster = await startPostgres();
    admin = new pg.Client({ connectionString: cluster.url });
    await admin.connect();
    // Eight teams, so the tournament is still running at 3,000 events, with reneges claimed and ruled on.
    played = tempLedger();
    await playTournament(played.ledger, { teams: 8, stopAt: 3000, renegeChance: 0.05 });
    head = played.ledger.store.digest();
    sqliteModels = rebuildModels(played.ledger.database, played.ledger.store);
    played.ledger.close();
    sqliteVerify = (await cli(['verify', '--db', played.path])).stdout;
    exported = (await cli(['export', '--db', played.path])).stdout;
    lines = eventLines(exported);
    movedUrl = await newDatabase();
    imported = await cli(['import-ledger', '-', '--db', movedUrl], exported);
  }, 120_000);
  afterAll(async () => {
    played?.remove();
    await admin?.end();
    await cluster?.stop();
  });

  it('starts from a real tournament: thousands of cards, reneges claimed, rulings both ways', () => {
    expect(lines.length).toBeGreaterThanOrEqual(3000);
    expect(`${lines.at(-1)!.position}:${lines.at(-1)!.hash}`).toBe(head);
    const rulings = lines.filter((l) => l.type === 'RulingGiven').map((l) => (l.payload as { upheld: boolean }).upheld);
    expect(lines.filter((l) => l.type === 'RenegeClaimed').length).toBeGreaterThan(5);
    expect(new Set(rulings)).toEqual(new Set([true, false]));
    const chainLines = `${played.path}: ${lines.length} events, chain intact\nhead ${head}\n`;
    expect(sqliteVerify.startsWith(chainLines)).toBe(true);
    expect(sqliteVerify.slice(chainLines.length)).toMatch(/^(snapshot models-\d+ at position \d+: equals the chain folded to that position\n)+$/);
  });

  it('imports the export into an empty PostgreSQL ledger, moving its head row to the same head', async () => {
    expect(imported).toEqual({ code: 0, stdout: `imported ${lines.length} events into ${movedUrl}\nhead ${head}\n`, stderr: '' });
    expect(await stored(movedUrl)).toEqual({ events: lines.length, head });
  });

  it('verifies there with the same count and head line, and the same answers to noted digests', async () => {
    // The import is recorded beside the ledger: who ran it, the file's digest, the positions it brought in.
    const digest = createHash('sha256').update(exported).digest('hex');
    const imported = new RegExp(
      `^positions 1–${lines.length} came in by import of - \\(sha256 ${digest}\\) by ${userInfo().username} at \\d{4}-\\d\\d-\\d\\dT[\\d:.]+Z$`,
    );
    const verified = await cli(['verify', '--db', movedUrl]);
    expect(verified.code).toBe(0);
    expect(verified.stdout.split('\n').slice(0, 2)).toEqual([`${movedUrl}: ${lines.length} events, chain intact`, `head ${head}`]);
    expect(verified.stdout.split('\n')[2]).toMatch(imported);
    // The file also checks its stored snapshots (PostgreSQL keeps none) and the moved ledger names its import: the chain's lines agree.
    const lineOf = (text: string) =>
      text
        .split('\n')
        .slice(1)
        .filter((line) => !line.startsWith('snapshot ') && !line.startsWith('positions '))
        .join('\n');
    // a digest noted mid-tournament, one from a forged chain, one past the head: the same lines from both stores
    const noted = `${lines[1499]!.position}:${lines[1499]!.hash}`;
    const forged = `${lines[1499]!.position}:${'e'.repeat(64)}`;
    const beyond = `${lines.length + 10}:${'e'.repeat(64)}`;
    for (const [digest, code] of [
      [noted, 0],
      [forged, 1],
      [beyond, 1],
    ] as const) {
      const onFile = await cli(['verify', '--db', played.path, '--digest', digest]);
      const onPostgres = await cli(['verify', '--db', movedUrl, '--digest', digest]);
      expect(onFile.code).toBe(code);
      expect(onPostgres.code).toBe(code);
      expect(lineOf(onPostgres.stdout)).toBe(lineOf(onFile.stdout));
    }
  });

  it('folds the same read models from PostgreSQL as a rebuild of the SQLite file', async () => {
    const store = await openPostgresStore({ url: movedUrl });
    try {
      const progress: number[] = [];
      const models = await foldPostgresModels(store, (done) => progress.push(done));
      expect(models).toEqual(sqliteModels);
      expect(models.position).toBe(lines.length);
      expect(progress.at(-1)).toBe(lines.length);
      // the fold carries the claims and the rulings on them, not only the cards
      const claims = Object.values(models.games).flatMap((game) => game.claims);
      expect(claims.length).toBeGreaterThan(5);
      expect(claims.every((claim) => claim.ruling)).toBe(true);
    } finally {
      await store.close();
    }
  });

  it('names the event a fold cannot read, when a row was changed behind the triggers back', async () => {
    const url = await newDatabase();
    expect((await cli(['import-ledger', '-', '--db', url], exported)).code).toBe(0);
    const position = lines.find((l) => l.type === 'CardPlayed')!.position;
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    await client.query('ALTER TABLE events DISABLE TRIGGER events_append_only');
    await client.query("UPDATE events SET type = 'CardWithdrawn' WHERE position = $1", [position]);
    await client.end();
    const store = await openPostgresStore({ url });
    try {
      const fold = foldPostgresModels(store);
      await expect(fold).rejects.toThrow(LedgerReadError);
      await expect(fold).rejects.toThrow(
        new RegExp(`^position ${position} \\(game-\\S+ version \\d+\\): .*CardWithdrawn.*; the ledger was changed outside the app`),
      );
    } finally {
      await store.close();
    }
  });

  it('exports byte-identical NDJSON from PostgreSQL, which a fresh SQLite file takes with the same head', async () => {
    const back = await cli(['export', '--db', movedUrl]);
    expect(back.code).toBe(0);
    expect(back.stdout).toBe(exported);
    const file = join(played.dir, 'back.db');
    expect(await cli(['import-ledger', '-', '--db', file], back.stdout)).toEqual({
      code: 0,
      stdout: `imported ${lines.length} events into ${file}\nhead ${head}\n`,
      stderr: '',
    });
    expect((await cli(['export', '--db', file])).stdout).toBe(exported);
    expect(await cli(['verify', '--db', file, '--digest', head])).toMatchObject({ code: 0 });
  });

  it('takes live appends after the import, continuing the chain from the imported head', async () => {
    const url = await newDatabase();
    expect((await cli(['import-ledger', '-', '--db', url], exported)).code).toBe(0);
    const store = await openPostgresStore({ url });
    try {
      const models = await foldPostgresModels(store);
      const decision = createTournament(models, { tournamentId: 't2', name: 'Second Open', format: 'pitt-boss' });
      const [result] = await store.appendMany([
        { stream: decision.stream, events: decision.events as never, expectedVersion: models.streams[decision.stream] ?? 0 },
      ]);
      expect(result!.positions).toEqual([lines.length + 1]);
      expect(result!.events[0]!.prevHash).toBe(lines.at(-1)!.hash);
      expect(await store.verifyChain()).toMatchObject({ ok: true, count: lines.length + 1 });
    } finally {
      await store.close();
    }
  });

  it('reads DATABASE_URL from the environment when run as the real command', async () => {
    const env = { ...process.env, DATABASE_URL: movedUrl, DATA_DIR: join(played.dir, 'no-ledger-here') };
    const { stdout } = await promisify(execFile)(process.execPath, [SPADES, 'verify', '--digest', head], { env });
    expect(stdout.split('\n').filter((line) => !line.startsWith('positions '))).toEqual([
      `${movedUrl}: ${lines.length} events, chain intact`,
      `head ${head}`,
      `digest ${head} is part of this chain`,
      '',
    ]);
    // nothing was opened or created under DATA_DIR
    expect(existsSync(env.DATA_DIR)).toBe(false);
  }, 30_000);

  it('refuses to import into a PostgreSQL ledger that already holds events, writing nothing', async () => {
    const again = await cli(['import-ledger', '-', '--db', movedUrl], exported);
    expect(again).toEqual({
      code: 2,
      stdout: '',
      stderr: `spades import-ledger: -: ${movedUrl} already holds ${lines.length} events; a ledger can only be imported into an empty database\n`,
    });
    expect(await stored(movedUrl)).toEqual({ events: lines.length, head });
  });

  /** The export with one row changed and, if `rechain`, every hash chained again as an attacker would. */
  const attacked = (edit: (copy: LedgerLine[]) => void, rechain = true): string => {
    if (rechain) return rechained(lines, edit);
    const copy = structuredClone(lines);
    edit(copy);
    return framed(copy);
  };

  /** Imports `text` into a new PostgreSQL ledger and a new SQLite file: the same answer from both, and nothing kept by either. */
  const refusedAlike = async (text: string): Promise<{ code: number; stdout: string; stderr: string }> => {
    const url = await newDatabase();
    const file = join(played.dir, `refused-${databases}.db`);
    const onPostgres = await cli(['import-ledger', '-', '--db', url], text);
    const onFile = await cli(['import-ledger', '-', '--db', file], text);
    expect(onPostgres).toEqual(onFile);
    // The database keeps the empty tables made before the rows' one transaction; no file is left.
    expect(await stored(url)).toEqual({ events: 0, head: `0:${GENESIS_HASH}` });
    expect(existsSync(file)).toBe(false);
    return onPostgres;
  };

  it('refuses a row of an unknown type, chained again so the chain verifies: exit 2 naming the position', async () => {
    const position = lines.find((l) => l.type === 'BidMade')!.position;
    const result = await refusedAlike(attacked((copy) => void (copy[position - 1]!.type = 'BidWithdrawn')));
    expect(result).toEqual({
      code: 2,
      stdout: '',
      stderr: `spades import-ledger: -: line ${position + 1} (position ${position}): its type "BidWithdrawn" is not an event type; nothing was imported\n`,
    });
  });

  it('refuses a card that is no card late in the file, after thousands of rows were stored, keeping none of them', async () => {
    const position = lines.findLast((l) => l.type === 'CardPlayed')!.position;
    expect(position).toBeGreaterThan(2000);
    const result = await refusedAlike(attacked((copy) => void ((copy[position - 1]!.payload as { card: string }).card = '1X')));
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(
      new RegExp(
        `^spades import-ledger: -: line ${position + 1} \\(position ${position}\\): game \\S+ hand \\d+ [NESW]: "1X" is not a card; nothing was imported\\n$`,
      ),
    );
  });

  it('refuses a chain that does not verify: exit 1 naming the position, nothing written', async () => {
    const position = lines.find((l) => l.type === 'RulingGiven')!.position;
    const result = await refusedAlike(attacked((copy) => void ((copy[position - 1]!.payload as { note: string }).note = 'never seen'), false));
    expect(result).toEqual({ code: 1, stdout: `nothing imported: position ${position} does not verify: its hash does not match its contents\n`, stderr: '' });
  });

  it('names the line of a row the database cannot store, writing nothing', async () => {
    // position 3 (line 4, after the header) claims position 2's version of their stream: it passes
    // its own checks and the replay of its command, and the database cannot take a stream's version twice
    const text = exported.split('\n');
    const third = JSON.parse(text[3]!) as LedgerLine;
    expect(JSON.parse(text[2]!)).toMatchObject({ stream: third.stream, version: 2 });
    text[3] = JSON.stringify({ ...third, version: 2 });
    const url = await newDatabase();
    const result = await cli(['import-ledger', '-', '--db', url], text.join('\n'));
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(
      /^spades import-ledger: -: line 4: position 3 cannot be stored: .*\(Key \(stream, version\)=\(tournament-t1, 2\) already exists\.\)\n$/,
    );
    expect(await stored(url)).toEqual({ events: 0, head: `0:${GENESIS_HASH}` });
  });

  it('refuses in one line a database holding no ledger, creating nothing in it, and one it cannot reach', async () => {
    const empty = await newDatabase();
    expect(await cli(['verify', '--db', empty])).toEqual({
      code: 2,
      stdout: '',
      stderr: `spades verify: cannot open the ledger at ${empty}: the database has no ledger tables: nothing has been imported or appended to it\n`,
    });
    expect(await cli(['export', '--db', empty])).toMatchObject({ code: 2, stdout: '' });
    const client = new pg.Client({ connectionString: empty });
    await client.connect();
    expect((await client.query("SELECT to_regclass('events') AS events")).rows).toEqual([{ events: null }]);
    await client.end();
    const unreachable = 'postgresql://postgres@127.0.0.1:1/ledger';
    expect(await cli(['export', '--db', unreachable])).toEqual({
      code: 2,
      stdout: '',
      stderr: `spades export: cannot open the ledger at ${unreachable}: the database server cannot be reached (ECONNREFUSED)\n`,
    });
  });
});

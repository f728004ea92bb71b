/**
 * `spades verify`, `spades export` and `spades import-ledger`: exit statuses, what they print,
 * and that a ledger survives the trip out and back in with its chain, and only with it.
 */
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import BetterSqlite3 from 'better-sqlite3';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cli } from './fixtures/cli.ts';
import { openDatabase } from '../events/store/sqlite/database.ts';
import { GENESIS_HASH } from '../events/hash-chain.ts';
import { MODELS_VERSION } from '../events/store/served-ledger.ts';
import { openLedger } from '../events/store/sqlite/ledger.ts';
import { createTournament, registerTeam } from '../server/commands/tournament-commands.ts';

const SPADES = resolve(import.meta.dirname, '../bin/spades.js');
/** What verify says of the snapshot the ledger stores when it closes, at its head. */
const SNAPSHOT_OK = `snapshot ${MODELS_VERSION} at position 3: equals the chain folded to that position\n`;

let dir: string;
let ledger: string;
let head: string;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'spades-cli-'));
  ledger = join(dir, 'ledger.db');
  const l = openLedger({ path: ledger, clock: () => '2025-03-01T19:00:00.000Z' });
  l.execute(createTournament(l.models, { tournamentId: 't1', name: 'Friday', format: 'pitt-boss' }), { commandId: 'c-1', meta: { by: 'director:ana' } });
  l.execute(registerTeam(l.models, { tournamentId: 't1', teamId: 'zoe', name: 'Zoë at table 3', players: ['Zoë', 'Al'] }));
  l.execute(registerTeam(l.models, { tournamentId: 't1', teamId: 'bo', name: 'Books', players: ['Bo', 'Cy'] }));
  head = l.store.digest();
  l.close();
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('spades verify', () => {
  it('prints the event count and the head, and exits 0 for an intact ledger', async () => {
    const result = await cli(['verify', '--db', ledger]);
    expect(result).toEqual({ code: 0, stdout: `${ledger}: 3 events, chain intact\nhead ${head}\n${SNAPSHOT_OK}`, stderr: '' });
  });

  it('folds the chain again to each stored snapshot: one forged with its digest recomputed exits 1 naming what differs', async () => {
    const db = new BetterSqlite3(ledger);
    const row = db.prepare('SELECT state FROM read_models WHERE name = ?').get(MODELS_VERSION) as { state: string };
    // A forger with the file rewrites a team's name in the snapshot and its plain SHA-256 digest too.
    const state = row.state.replace('"Books"', '"Forged Books"');
    expect(state).not.toBe(row.state);
    db.prepare('UPDATE read_models SET state = ?, digest = ? WHERE name = ?').run(state, createHash('sha256').update(state).digest('hex'), MODELS_VERSION);
    // An older shape of the models, left behind by an upgrade, is named but never read.
    db.prepare("INSERT INTO read_models (name, position, state, hash, digest) VALUES ('models-1', 2, '{}', '', '')").run();
    db.close();
    const result = await cli(['verify', '--db', ledger]);
    expect(result.code).toBe(1);
    expect(result.stdout.split('\n')).toEqual([
      `${ledger}: 3 events, chain intact`,
      `head ${head}`,
      'snapshot models-1 at position 2: an older shape of the read models, never read; `spades rebuild` clears it',
      expect.stringMatching(
        new RegExp(
          `^snapshot ${MODELS_VERSION} at position 3 does not match the chain folded to that position: tournaments\\.t1\\.model\\.teams\\.\\d+\\.name: the chain folds to "Books", the snapshot holds "Forged Books"; \`spades rebuild\` folds it again from the chain$`,
        ),
      ),
      '',
    ]);
    expect(await cli(['rebuild', '--db', ledger])).toMatchObject({ code: 0 });
    expect(await cli(['verify', '--db', ledger])).toMatchObject({ code: 0, stdout: `${ledger}: 3 events, chain intact\nhead ${head}\n${SNAPSHOT_OK}` });
  });

  it('reports an empty ledger as intact at position 0', async () => {
    const empty = join(dir, 'empty.db');
    openDatabase({ path: empty }).close();
    expect(await cli(['verify', `--db=${empty}`])).toMatchObject({ code: 0, stdout: `${empty}: 0 events, chain intact\nhead 0:${GENESIS_HASH}\n` });
  });

  it('exits 2 with one line on stderr for a missing file, a file that is no ledger, or a bad flag', async () => {
    const missing = join(dir, 'nope.db');
    expect(await cli(['verify', '--db', missing])).toEqual({
      code: 2,
      stdout: '',
      stderr: `spades verify: no ledger at ${missing}: the file does not exist\n`,
    });
    const text = join(dir, 'notes.txt');
    writeFileSync(text, 'not a database at all, just some words that go on for a while\n'.repeat(20));
    const notLedger = await cli(['verify', '--db', text]);
    expect(notLedger.code).toBe(2);
    expect(notLedger.stderr).toMatch(/^spades verify: .*notes\.txt.*\n$/);
    expect(await cli(['verify', '--dbx', ledger])).toMatchObject({ code: 2, stderr: 'spades verify: unknown option --dbx; the options are --db, --digest\n' });
    expect(await cli(['verify', '--db'])).toMatchObject({ code: 2, stderr: 'spades verify: --db needs a value\n' });
  });

  it('checks a noted digest: 0 while it is part of the chain, 1 when it is not, 2 when it is no digest', async () => {
    const ok = await cli(['verify', '--db', ledger, '--digest', head]);
    expect(ok).toMatchObject({ code: 0, stdout: expect.stringContaining(`digest ${head} is part of this chain\n`) });
    const earlier = `1:${'f'.repeat(64)}`;
    expect(await cli(['verify', '--db', ledger, '--digest', earlier])).toMatchObject({
      code: 1,
      stdout: expect.stringContaining(`digest ${earlier} is not part of this chain: position 1 now has hash`),
    });
    expect(await cli(['verify', '--db', ledger, '--digest', 'last tuesday'])).toMatchObject({ code: 2, stderr: expect.stringMatching(/POSITION:HASH/) });
  });

  it('runs as the real command', async () => {
    const { stdout } = await promisify(execFile)(process.execPath, [SPADES, 'verify', '--db', ledger]);
    expect(stdout).toBe(`${ledger}: 3 events, chain intact\nhead ${head}\n${SNAPSHOT_OK}`);
  }, 30_000);
});

describe('spades export and import-ledger', () => {
  it('writes one NDJSON line per event with its stored columns', async () => {
    const { code, stdout } = await cli(['export', '--db', ledger]);
    expect(code).toBe(0);
    const [first, ...rest] = stdout
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line));
    const trailer = rest.pop();
    const lines = rest;
    // The header and trailer name the head, so a copy cut short is told from a whole one.
    const [position, hash] = head.split(':');
    expect(first).toEqual({ header: 'spades-ledger/1', events: 3, head: { position: Number(position), hash } });
    expect(trailer).toEqual({ trailer: 'spades-ledger/1', events: 3, head: { position: Number(position), hash } });
    expect(lines.map((l) => [l.position, l.stream, l.version, l.type])).toEqual([
      [1, 'tournament-t1', 1, 'TournamentCreated'],
      [2, 'tournament-t1', 2, 'TeamRegistered'],
      [3, 'tournament-t1', 3, 'TeamRegistered'],
    ]);
    expect(lines[0]).toMatchObject({
      schema_version: 2,
      payload: { tournamentId: 't1', name: 'Friday' },
      meta: { by: 'director:ana' },
      command_id: 'c-1',
      prev_hash: GENESIS_HASH,
    });
    expect(`${lines[2].position}:${lines[2].hash}`).toBe(head);
  });

  it('brings an export back into an empty file with the same chain, from a file or stdin', async () => {
    const exported = (await cli(['export', '--db', ledger])).stdout;
    const file = join(dir, 'ledger.ndjson');
    writeFileSync(file, exported);
    const copy = join(dir, 'copy.db');
    expect(await cli(['import-ledger', file, '--db', copy])).toEqual({ code: 0, stdout: `imported 3 events into ${copy}\nhead ${head}\n`, stderr: '' });
    expect((await cli(['export', '--db', copy])).stdout).toBe(exported);
    const fromStdin = join(dir, 'stdin.db');
    expect(await cli(['import-ledger', '-', '--db', fromStdin], exported)).toMatchObject({ code: 0 });
    expect(await cli(['verify', '--db', fromStdin, '--digest', head])).toMatchObject({ code: 0 });
    // Each import is recorded beside the ledger, outside its chain: who ran it, from what file, which positions.
    const verified = (await cli(['verify', '--db', copy])).stdout.split('\n');
    expect(verified[2]).toMatch(
      new RegExp(
        `^positions 1–3 came in by import of ${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} \\(sha256 ${createHash('sha256').update(exported).digest('hex')}\\) by \\S+ at \\d{4}-`,
      ),
    );
    expect((await cli(['verify', '--db', ledger])).stdout).not.toContain('came in by import');
  });

  it('refuses an export whose chain does not verify, naming the position, and writes nothing', async () => {
    const lines = (await cli(['export', '--db', ledger])).stdout.trimEnd().split('\n');
    const edited = JSON.parse(lines[2]!);
    edited.payload.name = 'Zoë at table 4';
    lines[2] = JSON.stringify(edited);
    const copy = join(dir, 'copy.db');
    const result = await cli(['import-ledger', '-', '--db', copy], lines.join('\n'));
    expect(result).toEqual({ code: 1, stdout: 'nothing imported: position 2 does not verify: its hash does not match its contents\n', stderr: '' });
    // A refused import into a new file leaves no file behind.
    expect(existsSync(copy)).toBe(false);
  });

  it('refuses to import into a ledger that already has events, or a line that is not a ledger row', async () => {
    const exported = (await cli(['export', '--db', ledger])).stdout;
    expect(await cli(['import-ledger', '-', '--db', ledger], exported)).toMatchObject({
      code: 2,
      stderr: `spades import-ledger: -: ${ledger} already holds 3 events; a ledger can only be imported into an empty file\n`,
    });
    const broken = exported.replace('"version":2', '"version":"two"');
    expect(await cli(['import-ledger', '-', '--db', join(dir, 'x.db')], broken)).toMatchObject({
      code: 2,
      stderr: 'spades import-ledger: -: line 3: version must be a whole number from 1, not "two"\n',
    });
    expect(await cli(['import-ledger', join(dir, 'absent.ndjson'), '--db', join(dir, 'y.db')])).toMatchObject({
      code: 2,
      stderr: expect.stringMatching(/no file at/),
    });
  });
});

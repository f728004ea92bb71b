/**
 * `spades score` through the real process: exit status, standard output and standard error
 * for every kind of record game-record.md says is refused, and for a good one. The good record
 * goes through `npx spades`, as a user types it; every other case starts `bin/spades.js` (the
 * file npx runs) with node directly, which spares each of them npm's own start, a second or so.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { scoreRecord } from '../engine/record.ts';
import { dealFor, dealNames, fullGameRecord, names, playOut } from './record-builders.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'spades-score-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface Run {
  status: number | null;
  stdout: string;
  /** Standard error without npm's own lines. */
  errors: string[];
}

function spades(args: string[], stdin?: string, via: 'npx' | 'node' = 'node'): Promise<Run> {
  return new Promise((resolve, reject) => {
    const [command, ...rest] = via === 'npx' ? ['npx', 'spades'] : [process.execPath, join(ROOT, 'bin', 'spades.js')];
    const child = spawn(command!, [...rest, ...args], { cwd: ROOT, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (status) => {
      // This machine's npm prints its own "npm warn Unknown user config ..." line on standard
      // error for every npx call; it is npm's, not the command's, so it is left out.
      const errors = stderr.split('\n').filter((line) => line !== '' && !line.startsWith('npm warn'));
      resolve({ status, stdout, errors });
    });
    child.stdin.end(stdin ?? '');
  });
}

let files = 0;
function file(content: unknown): string {
  const path = join(dir, `record-${++files}.json`);
  writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content));
  return path;
}

const record = (hands: unknown[], extra: Record<string, unknown> = {}) => ({ format: 'spades-game/1', rules: 'unc-300', hands, ...extra });
const NS_53 = { bids: { N: 3, E: 2, S: 2, W: 2 }, tricks: { N: 4, E: 3, S: 4, W: 2 } };
const deal = dealFor('unc-300', 'N', 2);
const plays = names(playOut('unc-300', 'N', deal));

describe('spades score: a good record', () => {
  it('FILE: exit 0, the result as 2-space JSON on standard output, nothing on standard error', async () => {
    const run = await spades(['score', file(fullGameRecord())], undefined, 'npx');
    expect(run.errors).toEqual([]);
    expect(run.status).toBe(0);
    expect(run.stdout).toBe(`${JSON.stringify(scoreRecord(fullGameRecord()), null, 2)}\n`);
    expect(JSON.parse(run.stdout).winner).toBe('EW');
  });
  it('- reads standard input', async () => {
    const run = await spades(['score', '-'], JSON.stringify(fullGameRecord()), 'npx');
    expect(run.status).toBe(0);
    expect(JSON.parse(run.stdout).final).toEqual({ NS: 291, EW: 353 });
  });
});

describe('spades score: refused records exit 2 with nothing on standard output and one line on standard error', () => {
  const cases: [string, unknown, string][] = [
    ['an unknown preset', record([NS_53], { rules: 'unc-301' }), "rules: unknown preset 'unc-301'"],
    [
      'nil where there is none',
      { ...record([{ ...NS_53, bids: { N: 'nil', E: 2, S: 5, W: 2 } }]), rules: 'blp-r2' },
      'hand 1: N bid nil; there are no nil bids under blp-r2',
    ],
    ['a team under its minimum', record([NS_53, { ...NS_53, bids: { N: 1, E: 2, S: 2, W: 2 } }]), 'hand 2: NS bid 3 (N 1, S 2); the unc-300 team minimum is 4'],
    [
      'a blind bid by a team not far enough behind',
      { ...record([{ ...NS_53, bids: { N: 'blind 3', E: 2, S: 'blind 3', W: 2 } }], { start: { EW: { score: 100 } } }), rules: 'asher' },
      'hand 1: NS bid blind with NS down 100; the asher rules allow a blind bid only for a team down more than 100',
    ],
    ['tricks that do not add up to 13', record([{ ...NS_53, tricks: { N: 4, E: 3, S: 4, W: 1 } }]), 'hand 1: tricks add up to 12'],
    [
      "a card not in the preset's deck",
      record([{ bids: NS_53.bids, plays: plays.map((t, i) => (i === 2 ? ['2D', ...t.slice(1)] : t)) }]),
      'hand 1: trick 3: 2D is not in the unc-300 deck',
    ],
    [
      'a card played twice',
      record([{ bids: NS_53.bids, plays: plays.map((t, i) => (i === 5 ? [plays[1]![2]!, ...t.slice(1)] : t)) }]),
      `hand 1: trick 6: ${plays[1]![2]} was already played in trick 2`,
    ],
    [
      'a card played by a seat the deal did not give it to',
      record([{ bids: NS_53.bids, deal: { ...dealNames(deal), E: dealNames(deal).W, W: dealNames(deal).E }, plays }]),
      `hand 1: trick 1: E played ${plays[0]![0]}, which the deal gave to W`,
    ],
    [
      'plays and tricks that disagree',
      record([{ bids: NS_53.bids, plays, tricks: { N: 1, E: 7, S: 4, W: 1 } }]),
      'hand 1: tricks say E took 7, but the plays give E 4',
    ],
    [
      'a hand recorded after the game was already won',
      record([NS_53, NS_53], { start: { EW: { score: 280 } }, rules: 'blp-r1' }),
      'hand 2: the game was already won by EW (target) after hand 1',
    ],
  ];
  for (const [what, input, line] of cases) {
    it(what, async () => {
      const run = await spades(['score', file(input)]);
      expect(run.status).toBe(2);
      expect(run.stdout).toBe('');
      expect(run.errors).toHaveLength(1);
      expect(run.errors[0]).toContain(line);
    });
  }
  it('the same through standard input', async () => {
    const run = await spades(['score', '-'], JSON.stringify(record([{ ...NS_53, tricks: { N: 4, E: 3, S: 4, W: 1 } }])), 'npx');
    expect([run.status, run.stdout, run.errors]).toEqual([2, '', ['hand 1: tricks add up to 12 (N 4, E 3, S 4, W 1); a hand has 13']]);
  });
  it('a file that is not JSON', async () => {
    const path = file('{ "format": "spades-game/1", ');
    const run = await spades(['score', path]);
    expect([run.status, run.stdout, run.errors.length]).toEqual([2, '', 1]);
    expect(run.errors[0]).toMatch(new RegExp(`^${path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: not valid JSON \\(`));
  });
  it('a file that cannot be read', async () => {
    const run = await spades(['score', join(dir, 'missing.json')]);
    expect([run.status, run.stdout, run.errors]).toEqual([2, '', [`${join(dir, 'missing.json')}: cannot read it (ENOENT)`]]);
  });
  it('no file named', async () => {
    const run = await spades(['score']);
    expect([run.status, run.stdout, run.errors]).toEqual([2, '', ['usage: spades score FILE (or - to read the record from standard input)']]);
  });
});

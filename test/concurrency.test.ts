/**
 * Eight processes opening one new ledger file at the same moment: each opens it, and its tables
 * are set up once. (Writer processes racing on one stream, each deciding against the version it
 * just read, are held to their promises on both back ends in ledger-backends.test.ts.)
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../events/store/sqlite/database.ts';
import { buildLedgerChild, startChild } from './fixtures/ledger-child-process.ts';

describe('processes on one new ledger file', () => {
  let dir: string;
  let child: { path: string; remove: () => void };
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'spades-race-'));
    child = buildLedgerChild('ledger-opener-child.ts');
  });
  afterAll(() => {
    child?.remove();
    rmSync(dir, { recursive: true, force: true });
  });

  it('eight opening it at the same moment: each opens it, and its tables are set up once', async () => {
    for (let round = 0; round < 4; round++) {
      const file = join(dir, `opening-${round}.db`);
      openDatabase({ path: file }).close();
      const openers = Array.from({ length: 8 }, () => startChild(child.path, [file]));
      await Promise.all(openers.map((o) => o.ready));
      for (const o of openers) o.child.stdin!.end('go\n');
      const exits = await Promise.all(openers.map((o) => o.closed));
      expect(
        exits.map((e) => [e.code, e.stderr.split('\n').find((line) => /Error/.test(line)) ?? '']),
        `round ${round}`,
      ).toEqual(openers.map(() => [0, '']));
      expect(openers.every((o) => o.lines.includes('opened'))).toBe(true);
    }
  });
});

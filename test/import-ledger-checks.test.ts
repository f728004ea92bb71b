/**
 * `spades import-ledger` takes only rows a live append could have written. Each attack edits
 * one row of a played ledger's export and then chains every hash again from there, so the
 * chain verifies and only the checks of the rows themselves can refuse it: exit 2, one line
 * naming the position, and nothing written.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli } from './fixtures/cli.ts';
import { openDatabase } from '../events/database.ts';
import { verifyChain } from '../events/event-store.ts';
import { GENESIS_HASH, canonicalJson, chainHash } from '../events/hash-chain.ts';
import { type LedgerLine, exportLines } from '../events/ledger-file.ts';
import { openLedger } from '../events/ledger.ts';
import { playTournament } from './fixtures/audit-ledger.ts';

let dir: string;
let lines: LedgerLine[];


beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'spades-import-checks-'));
  const ledger = openLedger({ path: join(dir, 'played.db'), synchronous: 'NORMAL' });
  playTournament(ledger, { stopAt: 400 });
  lines = [...exportLines(ledger.database)].map((text) => JSON.parse(text) as LedgerLine);
  ledger.close();
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The export with one row changed, every hash from the first row chained again as an attacker would. */
function rechained(edit: (lines: LedgerLine[]) => void): string {
  const copy = structuredClone(lines);
  edit(copy);
  let prev = GENESIS_HASH;
  for (const line of copy) {
    const columns = { ...line, payload: canonicalJson(line.payload), meta: canonicalJson(line.meta) };
    line.prev_hash = prev;
    line.hash = chainHash(prev, { position: columns.position, stream: columns.stream, version: columns.version, type: columns.type, schema_version: columns.schema_version, payload: columns.payload, meta: columns.meta, command_id: columns.command_id });
    prev = line.hash;
  }
  return copy.map((line) => JSON.stringify(line)).join('\n');
}

const first = (type: string) => lines.find((l) => l.type === type)!.position;

async function expectRefused(name: string, text: string, position: number, problem: RegExp): Promise<void> {
  const target = join(dir, `${name}.db`);
  const result = await cli(['import-ledger', '-', '--db', target], text);
  expect(result.code).toBe(2);
  expect(result.stdout).toBe('');
  expect(result.stderr.split('\n')).toHaveLength(2);
  expect(result.stderr).toMatch(new RegExp(`^spades import-ledger: -: line ${position} \\(position ${position}\\): `));
  expect(result.stderr).toMatch(problem);
  expect(result.stderr).toMatch(/nothing was imported\n$/);
  const database = openDatabase({ path: target, readonly: true });
  try {
    expect(verifyChain(database).count).toBe(0);
  } finally {
    database.close();
  }
}

describe('spades import-ledger', () => {
  it('takes the played ledger as exported, so each refusal below is the edit alone', async () => {
    const target = join(dir, 'clean.db');
    expect(await cli(['import-ledger', '-', '--db', target], rechained(() => {}))).toMatchObject({ code: 0 });
  });

  it('refuses an event type the ledger does not know', async () => {
    const position = first('BidMade');
    await expectRefused('unknown-type', rechained((ls) => void (ls[position - 1]!.type = 'BidWithdrawn')), position, /its type "BidWithdrawn" is not an event type/);
  });

  it('refuses a type whose text carries quotes and JSON, without reading it as data', async () => {
    const position = first('CardPlayed');
    const injected = 'CardPlayed",1,{"tournamentId":"t1","teamId":"ghost","name":"Ghost Team"}],[0,"TeamRegistered';
    await expectRefused('quoted-type', rechained((ls) => void (ls[position - 1]!.type = injected)), position, /is not an event type/);
  });

  it('refuses a card that is in no deck', async () => {
    const position = first('CardPlayed');
    await expectRefused('bad-card', rechained((ls) => void ((ls[position - 1]!.payload as { card: string }).card = '1X')), position, /"1X" is not a card/);
  });

  it("refuses a card the game's deck does not hold", async () => {
    const position = first('CardPlayed');
    // Every preset plays 52 cards with no jokers unless it says so: the big joker is not among them.
    await expectRefused('joker', rechained((ls) => void ((ls[position - 1]!.payload as { card: string }).card = 'BJ')), position, /not in this game's deck/);
  });

  it('refuses a seat that does not exist', async () => {
    const position = first('BidMade');
    await expectRefused('bad-seat', rechained((ls) => void ((ls[position - 1]!.payload as { seat: string }).seat = 'X')), position, /payload\.seat/);
  });

  it('refuses an event for a game that was never started', async () => {
    const position = first('CardPlayed');
    await expectRefused('no-game', rechained((ls) => void ((ls[position - 1]!.payload as { gameId: string }).gameId = 'nowhere')), position, /game nowhere was never started/);
  });
});

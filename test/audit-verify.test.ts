/**
 * Verification: the page and `spades verify` say the chain is intact and give the digest to note;
 * after someone edits the file (dropping the append-only trigger first, as an attacker would),
 * both name the first position that no longer verifies, and a digest noted before the edit no
 * longer checks out when the edit is behind it.
 */
import { copyFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openLedger } from '../events/store/sqlite/ledger.ts';
import { createApp } from '../server/app/app.ts';
import { type AuditLedger, keepPlaying, playTournament, tempLedger } from './fixtures/audit-ledger.ts';
import { spadesProcess } from './fixtures/spades-process.ts';

const spadesVerify = (args: string[]) => spadesProcess(['verify', ...args]);

function attr(html: string, id: string, name: string): string | undefined {
  const tag = new RegExp(`<[a-z]+ [^>]*id="${id}"[^>]*>`).exec(html)?.[0];
  return tag ? new RegExp(`\\s${name}="([^"]*)"`).exec(tag)?.[1] : undefined;
}
function text(html: string, id: string): string {
  return new RegExp(`id="${id}"[^>]*>([^<]*)<`).exec(html)![1]!;
}

let fixture: AuditLedger;
/** The digest noted from the page part-way through the event. */
let noted: string;
let notedPosition: number;
let head: number;
let copies = 0;

beforeAll(async () => {
  fixture = tempLedger();
  const tournamentId = await playTournament(fixture.ledger, { stopAt: 200, seed: 'verify' });
  // An auditor notes the digest the page offers while play is under way.
  const html = await (await createApp({ ledger: fixture.ledger }).app.request('/verify')).text();
  noted = text(html, 'head-digest');
  notedPosition = Number(noted.split(':')[0]);
  await keepPlaying(fixture.ledger, { tournamentId, seed: 'verify' });
  head = fixture.ledger.store.head().position;
  fixture.ledger.close();
});
afterAll(() => fixture.remove());

/** A copy of the finished ledger file, to tamper with or to read. */
function copyOfLedger(): string {
  const file = join(fixture.dir, `copy-${++copies}.db`);
  copyFileSync(fixture.path, file);
  if (existsSync(`${fixture.path}-wal`)) copyFileSync(`${fixture.path}-wal`, `${file}-wal`);
  return file;
}

/** Changes one character of a column of the row at `position`, straight in the file. */
function tamper(file: string, position: number, column: 'payload' | 'meta'): { before: string; after: string } {
  const sqlite = new BetterSqlite3(file);
  try {
    sqlite.exec('DROP TRIGGER events_no_update');
    const row = sqlite.prepare(`SELECT ${column} AS value FROM events WHERE position = ?`).get(position) as { value: string };
    // The last digit in the text: a card rank, a bid, a trick or a second of the time.
    const at = row.value.search(/\d(?=\D*$)/);
    const digit = row.value[at]!;
    const after = row.value.slice(0, at) + (digit === '9' ? '8' : String(Number(digit) + 1)) + row.value.slice(at + 1);
    sqlite.prepare(`UPDATE events SET ${column} = ? WHERE position = ?`).run(after, position);
    return { before: row.value, after };
  } finally {
    sqlite.close();
  }
}

async function pages(file: string) {
  const ledger = openLedger({ path: file });
  try {
    const { app } = createApp({ ledger });
    const verify = await app.request('/verify');
    const check = await app.request(`/verify?digest=${encodeURIComponent(noted)}`);
    return { verify: { status: verify.status, html: await verify.text() }, check: { status: check.status, html: await check.text() } };
  } finally {
    ledger.close();
  }
}

describe('an intact ledger', () => {
  it('the page shows the chain intact, the event count, the head hash and its digest, and the noted digest checks out', async () => {
    const file = copyOfLedger();
    const { verify, check } = await pages(file);
    expect(verify.status).toBe(200);
    expect(attr(verify.html, 'chain-status', 'data-ok')).toBe('true');
    expect(text(verify.html, 'event-count')).toBe(String(head));
    const stored = new BetterSqlite3(file, { readonly: true });
    const headHash = (stored.prepare('SELECT hash FROM events WHERE position = ?').get(head) as { hash: string }).hash;
    stored.close();
    expect(text(verify.html, 'head-hash')).toBe(headHash);
    expect(text(verify.html, 'head-digest')).toBe(`${head}:${headHash}`);
    expect(notedPosition).toBeGreaterThanOrEqual(200);
    expect(notedPosition).toBeLessThan(head);
    expect(attr(check.html, 'digest-result', 'data-ok')).toBe('true');

    const run = await spadesVerify(['--db', file, '--digest', noted]);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(`${head} events, chain intact`);
    expect(run.stdout).toContain(`head ${head}:${headHash}`);
    expect(run.stdout).toContain(`digest ${noted} is part of this chain`);
  });

  it('a digest that is not position:hash is answered 400 with the sentence', async () => {
    const ledger = openLedger({ path: copyOfLedger() });
    try {
      const res = await createApp({ ledger }).app.request('/verify?digest=12:abc');
      expect(res.status).toBe(400);
      expect(await res.text()).toContain('digest &#39;12:abc&#39; is not of the form POSITION:HASH (a position, a colon and 64 hex digits)');
    } finally {
      ledger.close();
    }
  });
});

describe('a ledger edited in the file', () => {
  // One byte changed: in the first event, in one before the noted digest, in the head's meta.
  const cases = [
    { name: 'the first event', position: () => 1, column: 'payload' as const },
    { name: 'an event before the noted digest', position: () => Math.floor(notedPosition / 2), column: 'payload' as const },
    { name: 'the last event, after the noted digest', position: () => head, column: 'meta' as const },
  ];
  for (const c of cases) {
    it(`${c.name}: the page and 'spades verify' name its position; the noted digest checks out only if the edit is after it`, async () => {
      const file = copyOfLedger();
      const position = c.position();
      const { before, after } = tamper(file, position, c.column);
      expect(after).not.toBe(before);
      expect(after.length).toBe(before.length);

      const { verify, check } = await pages(file);
      expect(verify.status).toBe(200);
      expect(attr(verify.html, 'chain-status', 'data-ok')).toBe('false');
      expect(attr(verify.html, 'chain-status', 'data-first-bad')).toBe(String(position));
      expect(verify.html).toContain(`Chain broken at position ${position}:</strong> its hash does not match its contents`);
      expect(verify.html).not.toContain('id="head-digest"');

      const run = await spadesVerify(['--db', file]);
      expect(run.code).toBe(1);
      expect(run.stdout).toContain(`position ${position} does not verify: its hash does not match its contents`);

      if (position <= notedPosition) {
        expect(attr(check.html, 'digest-result', 'data-ok')).toBe('false');
        expect(check.html).toContain(
          `Digest ${noted} is not part of today&#39;s chain: the chain up to position ${notedPosition} does not verify: position ${position}`,
        );
      } else {
        expect(attr(check.html, 'digest-result', 'data-ok')).toBe('true');
      }
    });
  }

  it('a row deleted: the page counts the events left and names the missing position', async () => {
    const file = copyOfLedger();
    const position = notedPosition - 10;
    const sqlite = new BetterSqlite3(file);
    sqlite.exec('DROP TRIGGER events_no_delete');
    sqlite.prepare('DELETE FROM events WHERE position = ?').run(position);
    sqlite.close();
    const { verify, check } = await pages(file);
    expect(attr(verify.html, 'chain-status', 'data-first-bad')).toBe(String(position));
    expect(verify.html).toContain(`position ${position} is missing`);
    expect(text(verify.html, 'event-count')).toBe(String(head - 1));
    expect(attr(check.html, 'digest-result', 'data-ok')).toBe('false');
  });
});

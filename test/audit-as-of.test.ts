/**
 * As-of: the standings and bracket at a past ledger position are what a rebuild stopped at that
 * position gives (the ledger's first N lines loaded into a new file and folded from scratch), and
 * what the live pages showed at that moment; a time picks the last event appended by then.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../events/store/sqlite/database.ts';
import { importLedger } from '../events/store/sqlite/ledger-tools.ts';
import { readBackup } from '../events/store/ledger-file.ts';
import { openLedger } from '../events/store/sqlite/ledger.ts';
import type { TournamentModel } from '../events/read-models.ts';
import { createApp } from '../server/app/app.ts';
import { Bracket } from '../views/bracket.tsx';
import { Leaderboard } from '../views/leaderboard.tsx';
import { type AuditLedger, playTournament, tempLedger } from './fixtures/audit-ledger.ts';

let fixture: AuditLedger;
let app: ReturnType<typeof createApp>['app'];
let lines: string[];
/** The tournament as the live models held it right after each of these positions. */
const shown = new Map<number, TournamentModel>();
const WATCHED = [4, 60, 333, 500];

beforeAll(async () => {
  fixture = tempLedger();
  fixture.ledger.onChange((_change, events) => {
    for (const event of events) {
      const model = fixture.ledger.models.tournaments.t1?.model;
      if (WATCHED.includes(event.position) && model) shown.set(event.position, structuredClone(model));
    }
  });
  await playTournament(fixture.ledger, { teams: 4, seed: 'as-of', renegeChance: 0.03 });
  app = createApp({ ledger: fixture.ledger }).app;
  const ndjson = await app.request('/api/ledger.ndjson');
  lines = (await ndjson.text()).split('\n').filter((line) => line !== '');
});
afterAll(() => fixture.remove());

/** A new ledger file holding the first `position` events of the fixture's, opened (and so folded from scratch). */
function rebuiltAt(position: number): TournamentModel | undefined {
  const path = join(fixture.dir, `rebuild-${position}.db`);
  const database = openDatabase({ path });
  // The export's first `position` events, after its header line: a prefix taken on purpose.
  const report = importLedger(database, readBackup(lines.slice(0, position + 1).join('\n'), { prefix: true }));
  database.close();
  expect(report.ok).toBe(true);
  const ledger = openLedger({ path });
  try {
    expect(ledger.models.position).toBe(position);
    return structuredClone(ledger.models.tournaments.t1?.model);
  } finally {
    ledger.close();
  }
}

function section(html: string, id: string): string {
  const start = html.indexOf(`<section id="${id}"`);
  expect(start, `no section ${id}`).toBeGreaterThanOrEqual(0);
  let depth = 0;
  const re = /<(\/?)section\b[^>]*>/g;
  re.lastIndex = start;
  for (let m = re.exec(html); m; m = re.exec(html)) {
    depth += m[1] ? -1 : 1;
    if (depth === 0) return html.slice(start, m.index + m[0].length);
  }
  throw new Error('unbalanced section');
}

function parseCsv(text: string): Record<string, string>[] {
  const [head, ...rows] = text.trimEnd().split('\r\n');
  const columns = head!.split(',');
  return rows.map((row) => Object.fromEntries(row.split(',').map((cell, i) => [columns[i]!, cell])));
}

describe('standings and bracket as of a past position', () => {
  it('equal a rebuild stopped at that position, and what the live pages showed then', async () => {
    const head = fixture.ledger.store.head().position;
    expect(head).toBeGreaterThan(Math.max(...WATCHED));
    const tournament = fixture.ledger.models.tournaments.t1!;
    for (const position of [...WATCHED, head]) {
      // given the ledger's first `position` events rebuilt into a fresh file
      const rebuilt = rebuiltAt(position)!;
      if (position !== head) expect(rebuilt).toEqual(shown.get(position));
      // when the as-of page and CSV are asked for that position
      const res = await app.request(`/tournaments/t1/as-of?position=${position}`);
      expect(res.status).toBe(200);
      const html = await res.text();
      // then they show exactly that tournament
      expect(html).toContain(`data-position="${position}"`);
      expect(section(html, 'leaderboard')).toBe(String(Leaderboard({ tournament: rebuilt })));
      expect(section(html, 'bracket')).toBe(String(Bracket({ tournament: rebuilt, gamesToWin: tournament.format.gamesToWin })));
      const csv = parseCsv(await (await app.request(`/tournaments/t1/standings.csv?position=${position}`)).text());
      const byTeam = new Map(rebuilt.teams.map((t) => [t.teamId, t]));
      expect(csv.map((r) => r.team_id).sort()).toEqual([...byTeam.keys()].sort());
      for (const row of csv) {
        const team = byTeam.get(row.team_id!)!;
        expect([row.wins, row.losses, row.points, row.bags, row.sets, row.status]).toEqual(
          [team.wins, team.losses, team.points, team.bags, team.sets, team.status].map(String),
        );
      }
    }
    // and the past really differs from the present: the first watched moment had no results yet
    expect(shown.get(60)!.teams.every((t) => t.wins === 0)).toBe(true);
    expect(fixture.ledger.models.tournaments.t1!.model.status).toBe('finished');
  }, 20_000);

  it('before the tournament was created, says so', async () => {
    const html = await (await app.request('/tournaments/t1/as-of?position=0')).text();
    expect(html).toContain('Tournament t1 had not been created yet at position 0.');
    expect(html).not.toContain('<section id="leaderboard"');
  });
});

describe('as of a time', () => {
  it('folds up to the last event appended at or before it, with or without a zone', async () => {
    const event = fixture.ledger.store.readAll({ after: 332, limit: 1 })[0]!;
    const at = String(event.meta.at);
    for (const query of [at, at.slice(0, 19), new Date(Date.parse(at) + 500).toISOString()]) {
      const html = await (await app.request(`/tournaments/t1/as-of?at=${encodeURIComponent(query)}`)).text();
      expect(html, query).toContain('data-position="333"');
      expect(section(html, 'leaderboard')).toBe(String(Leaderboard({ tournament: shown.get(333)! })));
    }
  });

  it('takes a time of day as today by the venue clock, and yesterday when today has not reached it', async () => {
    const event = fixture.ledger.store.readAll({ after: 332, limit: 1 })[0]!;
    const at = new Date(String(event.meta.at));
    const two = (n: number) => String(n).padStart(2, '0');
    const clock = `${two(at.getHours())}:${two(at.getMinutes())}:${two(at.getSeconds())}`;
    // The venue's clock reads two hours after that event, on the same day.
    const venue = createApp({ ledger: fixture.ledger, now: () => new Date(at.getTime() + 2 * 3_600_000).toISOString() });
    const html = await (await venue.app.request(`/tournaments/t1/as-of?at=${clock}`)).text();
    expect(html).toContain('data-position="333"');
    expect(section(html, 'leaderboard')).toBe(String(Leaderboard({ tournament: shown.get(333)! })));
    // Three hours after that event is still to come by the venue's clock: it names yesterday, before the ledger began.
    const later = new Date(at.getTime() + 3 * 3_600_000);
    const before = await (await venue.app.request(`/tournaments/t1/as-of?at=${two(later.getHours())}:${two(later.getMinutes())}`)).text();
    venue.broadcaster.close();
    expect(before).toContain('data-position="0"');
  });

  it('offers the picker: a slider over the ledger positions and a time field', async () => {
    const head = fixture.ledger.store.head().position;
    const html = await (await app.request('/tournaments/t1/as-of?position=60')).text();
    expect(html).toContain(`<input id="position" name="position" type="range" min="0" max="${head}" step="1" value="60"/>`);
    expect(html).toContain('name="at" type="datetime-local"');
    expect(html).toContain('<input id="at-today" name="at" type="time" step="1"/>');
    // Reached from the tournament's own page, not only by typing its address.
    expect(await (await app.request('/tournaments/t1')).text()).toContain('<a href="/tournaments/t1/as-of">As of an earlier moment</a>');
    expect(html).toContain('href="/tournaments/t1/as-of?position=59"');
    expect(html).toContain('href="/tournaments/t1/as-of?position=61"');
  });
});

describe('bad requests', () => {
  it('answer 404 or 400 with the sentence', async () => {
    const head = fixture.ledger.store.head().position;
    const cases: [string, number, string][] = [
      ['/tournaments/nope/as-of', 404, 'tournament nope does not exist'],
      [`/tournaments/t1/as-of?position=${head + 1}`, 400, `tournament t1: position must be a whole number from 0 to ${head}, not &#39;${head + 1}&#39;`],
      ['/tournaments/t1/as-of?position=1&at=2026-01-01T00:00:00Z', 400, 'tournament t1: give a position or a time (at), not both'],
      [
        '/tournaments/t1/as-of?at=yesterday',
        400,
        'tournament t1: at must be a time such as 2026-01-01T10:00:00Z, or a time of day such as 12:37 (today, by the venue&#39;s clock), not &#39;yesterday&#39;',
      ],
      ['/tournaments/t1/as-of?at=24:10', 400, 'not &#39;24:10&#39;'],
    ];
    for (const [url, status, sentence] of cases) {
      const res = await app.request(url);
      expect([url, res.status]).toEqual([url, status]);
      expect(await res.text()).toContain(sentence);
    }
    const csv = await app.request('/tournaments/t1/standings.csv?position=-1');
    expect(csv.status).toBe(400);
    expect(await csv.json()).toEqual({ error: `tournament t1: position must be a whole number from 0 to ${head}, not '-1'` });
  });
});

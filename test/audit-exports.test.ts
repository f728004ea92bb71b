/**
 * The files an auditor takes away and the import route: the ledger as NDJSON (which loads into
 * an empty file and verifies to the same head), standings as CSV, and the import's refusals.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../events/store/sqlite/database.ts';
import { verifyChain } from '../events/store/sqlite/event-store.ts';
import { formatDigest } from '../events/hash-chain.ts';
import { importLedger } from '../events/store/sqlite/ledger-tools.ts';
import type { TeamRow } from '../events/read-models.ts';
import { createApp } from '../server/app/app.ts';
import { standingsCsv } from '../server/audit/standings-csv.ts';
import { type AuditLedger, playTournament, signedInAsJudge, tempLedger } from './fixtures/audit-ledger.ts';
import { fullGameRecord } from './record-builders.ts';

let fixture: AuditLedger;
let app: ReturnType<typeof createApp>['app'];
let judge: Record<string, string>;

beforeAll(async () => {
  fixture = tempLedger();
  await playTournament(fixture.ledger, { seed: 'exports' });
  const created = createApp({ ledger: fixture.ledger });
  app = created.app;
  judge = await signedInAsJudge(app, created.auth.users);
});
afterAll(() => fixture.remove());

const post = (body: unknown, headers = judge) =>
  app.request('/api/games/import', { method: 'POST', headers, body: typeof body === 'string' ? body : JSON.stringify(body) });

describe('the ledger as NDJSON', () => {
  it('is every stored row in position order, and loads into an empty file verifying to the same head', async () => {
    const res = await app.request('/api/ledger.ndjson');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/x-ndjson; charset=utf-8');
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="ledger.ndjson"');
    const digest = fixture.ledger.store.digest();
    expect(res.headers.get('x-ledger-digest')).toBe(digest);
    const text = await res.text();
    const [header, ...lines] = text.split('\n').filter(Boolean);
    const trailer = lines.pop();
    expect(lines.map((line) => (JSON.parse(line) as { position: number }).position)).toEqual(lines.map((_, i) => i + 1));
    // Opened and closed by lines that name the head the digest header names.
    const [position, hash] = digest.split(':');
    const summary = { events: lines.length, head: { position: Number(position), hash } };
    expect(JSON.parse(header!)).toEqual({ header: 'spades-ledger/1', ...summary });
    expect(JSON.parse(trailer!)).toEqual({ trailer: 'spades-ledger/1', ...summary });
    expect(text.endsWith(`${trailer}\n`)).toBe(true);

    const database = openDatabase({ path: join(fixture.dir, 'loaded.db') });
    try {
      const report = importLedger(database, text);
      expect(report.ok).toBe(true);
      expect(formatDigest(verifyChain(database).head)).toBe(digest);
    } finally {
      database.close();
    }
  });
});

describe('standings as CSV', () => {
  it('lists the teams in leaderboard order with their totals', async () => {
    const res = await app.request('/tournaments/t1/standings.csv');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="t1-standings.csv"');
    const [header, ...rows] = (await res.text()).trimEnd().split('\r\n');
    expect(header).toBe('rank,team_id,team,players,seed,status,wins,losses,games_won,games_lost,points,bags,sets');
    const champion = fixture.ledger.models.tournaments.t1!.model.teams.find((t) => t.status === 'champion')!;
    expect(rows[0]).toBe(
      `1,${champion.teamId},${champion.name},${champion.players.join(' & ')},${champion.seed},champion,${champion.wins},${champion.losses},${champion.gamesWon},${champion.gamesLost},${champion.points},${champion.bags},${champion.sets}`,
    );
    expect(rows).toHaveLength(2);
  });

  it('quotes commas and quotes, and keeps a name a spreadsheet would run as a formula as text', () => {
    const row: TeamRow = {
      teamId: 'x',
      name: '=HYPERLINK("evil")',
      players: ['Ann, Jr.', 'Bo'],
      seed: null,
      wins: 0,
      losses: 1,
      gamesWon: 0,
      gamesLost: 1,
      points: -40,
      bags: 0,
      sets: 1,
      status: 'out',
    };
    expect(standingsCsv([{ team: row, place: 1 }]).split('\r\n')[1]).toBe(`1,x,"'=HYPERLINK(""evil"")","Ann, Jr. & Bo",,out,0,1,0,1,-40,0,1`);
  });

  it('an unknown tournament is 404 with the sentence', async () => {
    const res = await app.request('/tournaments/nope/standings.csv');
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ error: 'tournament nope does not exist' });
  });
});

describe('importing a record over HTTP', () => {
  it('answers 201 with the game, its positions and the new head', async () => {
    const before = fixture.ledger.store.head().position;
    const res = await post({ record: fullGameRecord(), gameId: 'paper-http', teams: { NS: 'Ana & Cy', EW: 'Ben & Dee' } });
    expect(res.status).toBe(201);
    const body = (await res.json()) as {
      gameId: string;
      events: number;
      positions: { first: number; last: number };
      digest: string;
      links: Record<string, string>;
    };
    expect(body.gameId).toBe('paper-http');
    expect(body.positions).toEqual({ first: before + 1, last: before + body.events });
    expect(body.digest).toBe(fixture.ledger.store.digest());
    expect(body.links).toEqual({ game: '/games/paper-http', record: '/games/paper-http/record', replay: '/games/paper-http/hands/1/replay' });
    // Signed by the judge who entered it, not by the import alone.
    expect(fixture.ledger.store.readAll({ after: before, limit: 1 })[0]!.meta).toMatchObject({
      by: 'judge:Judge Ruth',
      account: expect.stringMatching(/^acct-/),
      via: 'record-import',
    });
  });

  it('refuses bad requests with 4xx and a sentence, appending nothing', async () => {
    const before = fixture.ledger.store.head().position;
    const cases: [unknown, number, string][] = [
      // A body that is not a JSON object is refused before the import reads it.
      ['not json', 400, ''],
      [[1], 400, ''],
      [{ gameId: 'g' }, 400, 'the request body has no "record": put the spades-game/1 record there'],
      [{ record: fullGameRecord() }, 400, 'give "tournamentId" and "matchId" to enter the record into a match, or a "gameId" for a game of its own'],
      [{ record: fullGameRecord(), matchId: 'W1-1' }, 400, 'a record entered into a match needs both "tournamentId" and "matchId"'],
      [{ record: fullGameRecord(), gameId: 7 }, 400, 'gameId must be a non-empty string, not 7'],
      [{ record: fullGameRecord(), gameId: 'g', teams: { NS: 'A' } }, 400, 'teams must name both teams: { "NS": "...", "EW": "..." }'],
      [{ record: { format: 'spades-game/1', rules: 'no-such-preset', hands: [] }, gameId: 'g' }, 400, 'record: '],
      [{ record: fullGameRecord(), gameId: 'has spaces' }, 400, "a game id is letters, digits and dashes, not 'has spaces'"],
      [{ record: fullGameRecord(), tournamentId: 'nope', matchId: 'W1-1' }, 404, 'tournament nope does not exist'],
    ];
    for (const [body, status, sentence] of cases) {
      const res = await post(body);
      const answer = (await res.json()) as { error: string };
      expect([JSON.stringify(body).slice(0, 60), res.status]).toEqual([JSON.stringify(body).slice(0, 60), status]);
      expect(answer.error.startsWith(sentence) && answer.error.length > 0).toBe(true);
    }
    expect(fixture.ledger.store.head().position).toBe(before);
  });

  it('names the record\'s field, never the event it would become, and says "record:" once', async () => {
    const before = fixture.ledger.store.head().position;
    const record = fullGameRecord();
    const long = await post({ record: { ...record, seats: { N: 'N'.repeat(130) } }, gameId: 'paper-long-seat' });
    expect(long.status).toBe(400);
    expect(await long.json()).toEqual({ error: 'record: seats.N: at most 120 characters, not 130' });
    const list = await post({ record: [1], gameId: 'paper-list' });
    expect(await list.json()).toEqual({ error: 'record: expected a JSON object, got a list' });
    const id = await post({ record, gameId: 'g'.repeat(121) });
    expect(id.status).toBe(400);
    expect(((await id.json()) as { error: string }).error).toMatch(/^the game id 'g+…' is 121 characters long; a game id is at most 120$/);
    expect(fixture.ledger.store.head().position).toBe(before);
  });

  it('is for a signed-in judge or director: without a session it is refused, appending nothing', async () => {
    const before = fixture.ledger.store.head().position;
    const res = await post({ record: fullGameRecord(), gameId: 'paper-anonymous' }, { 'content-type': 'application/json' });
    expect(res.status).toBe(401);
    expect(fixture.ledger.store.head().position).toBe(before);
  });
});

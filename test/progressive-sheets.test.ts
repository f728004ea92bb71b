/**
 * A progressive round entered from its table's paper score sheet (tournament-spades "One player
 * keeps the table's bids and scores for the round"), through `POST /api/games/import` as a judge
 * would: into the game the round started at that table, checked as live entry checks it ("Four
 * hands are played in each round", a tie plays one more), and moving the players exactly as the
 * same round entered card by card.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GameModel } from '../events/read-models.ts';
import { gameRecord } from '../events/game-projection.ts';
import { nextEntry } from '../server/serve/table-driver.ts';
import { type Fixture, copyOf, makeFixture, send } from './routes-fixture.ts';
import { expectRebuildEqualsLive } from './tournament-ledger.ts';

let fixture: Fixture;
beforeAll(async () => {
  fixture = await makeFixture();
});
afterAll(() => fixture?.close());

type Copy = ReturnType<typeof copyOf>;
const NAMES = ['Ada', 'Ben', 'Cy', 'Dee', 'Eve', 'Fay', 'Gus', 'Hal', 'Ivy', 'Jo', 'Kit', 'Lou', 'Mo'];

async function asDirector(app: Copy['app'], path: string, json: Record<string, unknown>): Promise<void> {
  const res = await send(app, fixture.clients.director, 'POST', path, { json });
  expect(res.status, await res.clone().text()).toBe(200);
}

async function importAsJudge(app: Copy['app'], json: Record<string, unknown>): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await send(app, fixture.clients.judge, 'POST', '/api/games/import', { json });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

/** An evening of `players` created, registered, checked in and started through the director's routes. */
async function evening(copy: Copy, id: string, players: number, rounds: number): Promise<void> {
  await asDirector(copy.app, '/director/tournaments', { tournamentId: id, name: 'Paper evening', format: 'tournament-spades', rounds });
  for (const name of NAMES.slice(0, players)) await asDirector(copy.app, `/director/tournaments/${id}/players`, { name });
  for (const t of copy.ledger.models.tournaments[id]!.model.teams) await asDirector(copy.app, `/director/tournaments/${id}/check-in`, { teamId: t.teamId });
  await asDirector(copy.app, `/director/tournaments/${id}/start`, { seed: `paper-${id}` });
}

const roundOf = (copy: Copy, id: string) => copy.ledger.models.tournaments[id]!.progressive!.rounds.at(-1)!;
const tableGame = (copy: Copy, id: string, table: number) => copy.ledger.models.games[roundOf(copy, id).games[String(table)]!]!;

/** Every table of the round in play entered card by card by the tables' bots. */
function playRoundLive(copy: Copy, id: string): void {
  for (let step = 0; step < 100_000; step++) {
    const open = Object.values(roundOf(copy, id).games)
      .map((g) => copy.ledger.models.games[g]!)
      .filter((g) => !g.winner);
    if (open.length === 0) return;
    for (const game of open) copy.ledger.execute(() => nextEntry(copy.ledger, copy.ledger.models.games[game.gameId]!, { seed: 'sheets' }) ?? []);
  }
  throw new Error('the round did not finish');
}

/** A table's score sheet: each hand's four bids and the tricks each seat took, as the scorekeeper writes them down. */
function sheetOf(game: GameModel): Record<string, unknown> {
  return { format: 'spades-game/1', rules: 'tournament-spades', hands: game.rows.map((row) => ({ bids: row.bids, tricks: row.tricks })) };
}

describe('a 13-player evening whose rounds are all entered from the tables’ score sheets', () => {
  it('seats every round and ends with the standings of the same hands entered card by card', async () => {
    const rounds = 4;
    const live = copyOf(fixture);
    const paper = copyOf(fixture);
    await evening(live, 'eve', 13, rounds);
    await evening(paper, 'eve', 13, rounds);
    for (let r = 1; r <= rounds; r++) {
      await asDirector(live.app, '/director/tournaments/eve/rounds', { seed: `dealers-${r}` });
      await asDirector(paper.app, '/director/tournaments/eve/rounds', { seed: `dealers-${r}` });
      // The same movement seats the same players: the paper rounds moved everyone as the live ones did.
      expect(roundOf(paper, 'eve').seating, `round ${r}'s seating`).toEqual(roundOf(live, 'eve').seating);
      expect(roundOf(paper, 'eve').sittingOut, `round ${r}'s sit-out`).toEqual(roundOf(live, 'eve').sittingOut);
      expect(roundOf(paper, 'eve').sittingOut).toHaveLength(1);
      playRoundLive(live, 'eve');

      for (const { table } of roundOf(live, 'eve').seating) {
        const played = tableGame(live, 'eve', table);
        // Table 2 hands in its sheet with the cards as played; the others with bids and tricks.
        const record = table === 2 ? gameRecord(played) : sheetOf(played);
        const matchId = `R${r}-T${table}`;
        if (r === 2 && table === 1) {
          // A sheet with a hand after the round was over (no tie) is refused, and nothing is recorded.
          const hands = (record.hands as unknown[]).length;
          expect(hands, 'round 2 at table 1 ended after its 4 hands, untied').toBe(4);
          const before = paper.ledger.models.position;
          const head = paper.ledger.store.digest();
          const extra = { ...record, hands: [...(record.hands as unknown[]), (record.hands as unknown[]).at(-1)] };
          const refused = await importAsJudge(paper.app, { tournamentId: 'eve', matchId, record: extra });
          expect(refused.status).toBe(400);
          expect(refused.body.error).toBe(
            `record: hands[${hands}]: round 2 at table 1 was over after hand ${hands} (NS ${played.score.NS}, EW ${played.score.EW}); a round is 4 hands, and one more only while the sides are tied, so the sheet cannot have hand ${hands + 1}`,
          );
          expect([paper.ledger.models.position, paper.ledger.store.digest()]).toEqual([before, head]);
          expect(tableGame(paper, 'eve', 1).hands).toEqual([]);
        }
        const entered = await importAsJudge(paper.app, { tournamentId: 'eve', matchId, record });
        expect(entered.status, JSON.stringify(entered.body)).toBe(201);
        expect(entered.body.gameId).toBe(`eve-${matchId}`);
        const game = tableGame(paper, 'eve', table);
        expect([game.score, game.winner, game.hands.length], `${matchId}`).toEqual([played.score, played.winner, played.hands.length]);
        // The sheet is taken into the game the round started there: its players and its first dealer.
        expect([game.seats, game.dealer]).toEqual([played.seats, played.dealer]);
      }
      const [a, b] = [roundOf(live, 'eve'), roundOf(paper, 'eve')];
      expect(b.results).toEqual(a.results);
      expect(b.scores).toEqual(a.scores);
      // Worked out here: each seated player scores their side's round score, the sit-out the rounded average.
      const seated = b.seating.flatMap((t) => {
        const game = tableGame(paper, 'eve', t.table);
        return [game.score.NS, game.score.EW, game.score.NS, game.score.EW];
      });
      expect(b.scores![b.sittingOut[0]!]).toBe(Math.round(seated.reduce((x, y) => x + y, 0) / seated.length));
    }
    const [a, b] = [live.ledger.models.tournaments.eve!, paper.ledger.models.tournaments.eve!];
    expect(b.model.status).toBe('finished');
    expect(b.progressive!.standings).toEqual(a.progressive!.standings);
    expect(b.progressive!.players).toEqual(a.progressive!.players);
    expect(b.model.placings).toEqual(a.model.placings);
    expect(b.model.prizes).toEqual(a.model.prizes);
    // The totals, summed here from each round's scores.
    for (const player of b.progressive!.players) {
      expect(player.total).toBe(b.progressive!.rounds.reduce((sum, r) => sum + r.scores![player.playerId]!, 0));
    }
    const csv = async (copy: Copy) => (await copy.app.request('/tournaments/eve/standings.csv')).text();
    expect(await csv(paper)).toBe(await csv(live));
    expectRebuildEqualsLive(paper.ledger);
    live.ledger.close();
    paper.ledger.close();
  }, 180_000);
});

describe('a round’s sheet checked as the table’s own entries are', () => {
  // NS bid 7 and take 8, EW bid 5 and take 5: NS 71, EW 50 each hand.
  const NS_AHEAD = { bids: { N: 4, E: 3, S: 3, W: 2 }, tricks: { N: 5, E: 3, S: 3, W: 2 } };
  const EW_AHEAD = { bids: { N: 3, E: 4, S: 2, W: 3 }, tricks: { N: 3, E: 4, S: 2, W: 4 } };
  const EVEN = { bids: { N: 3, E: 3, S: 3, W: 3 }, tricks: { N: 3, E: 3, S: 3, W: 4 } };
  const sheet = (hands: unknown[], extra: Record<string, unknown> = {}) => ({ format: 'spades-game/1', rules: 'tournament-spades', ...extra, hands });

  it('refuses what the round does not allow, naming the field, and records nothing', async () => {
    const copy = copyOf(fixture);
    await evening(copy, 'ck', 8, 2);
    const refuse = async (matchId: string, record: unknown, status: number, error: string) => {
      const before = copy.ledger.models.position;
      expect(await importAsJudge(copy.app, { tournamentId: 'ck', matchId, record })).toEqual({ status, body: { error } });
      expect(copy.ledger.models.position).toBe(before);
    };
    await refuse('R1-T1', sheet([NS_AHEAD, NS_AHEAD, NS_AHEAD, NS_AHEAD]), 409, 'tournament ck: round 1 has not been seated (no round has been seated yet)');
    await asDirector(copy.app, '/director/tournaments/ck/rounds', { seed: 'ck-1' });
    const game = tableGame(copy, 'ck', 1);
    await refuse(
      'table-1',
      sheet([]),
      404,
      "tournament ck is played at progressive tables: a table's round is named R<round>-T<table> (R2-T3 is round 2 at table 3), not 'table-1'",
    );
    await refuse('R1-T3', sheet([]), 404, 'tournament ck: round 1 is played at tables 1–2; there is no table 3');
    await refuse('R2-T1', sheet([]), 409, 'tournament ck: round 2 has not been seated; the rounds seated so far are 1–1');
    await refuse(
      'R1-T1',
      sheet([NS_AHEAD, NS_AHEAD, NS_AHEAD]),
      400,
      'record: hands: round 1 at table 1 is 4 hands (one more while the sides are tied), and the sheet has 3 hands; enter the whole round (NS 213, EW 150 so far)',
    );
    await refuse(
      'R1-T1',
      sheet([NS_AHEAD, EW_AHEAD, NS_AHEAD, EW_AHEAD]),
      400,
      'record: hands: the sheet ends with the sides tied at 242 after 4 hands; a tie at the table plays one more hand, and the sheet needs it',
    );
    await refuse(
      'R1-T1',
      sheet([NS_AHEAD, { bids: { N: 3, E: 3, S: 3, W: 3 }, tricks: { N: 3, E: 3, S: 3, W: 3 } }]),
      400,
      'record: hand 2: tricks add up to 12 (N 3, E 3, S 3, W 3); a hand has 13',
    );
    await refuse(
      'R1-T1',
      sheet([{ bids: { N: 14, E: 3, S: 3, W: 3 }, tricks: NS_AHEAD.tricks }]),
      400,
      'record: hand 1: bids: N\'s bid 14 is not a bid; a bid is 0–13, "nil", "blind nil" or "blind N"',
    );
    await refuse(
      'R1-T1',
      sheet([NS_AHEAD, NS_AHEAD, NS_AHEAD, NS_AHEAD], { rules: 'unc-300' }),
      400,
      'record: rules: the tables of tournament ck play this event’s rules, not the record’s: Points to win a game is none here and 300 in the record; Hands in a game is 4 here and none in the record; Cards taken out is none here and 2H 2D in the record; and 14 more',
    );
    const other = (['N', 'E', 'S', 'W'] as const).find((s) => s !== game.dealer)!;
    const words = { N: 'North', E: 'East', S: 'South', W: 'West' } as const;
    await refuse(
      'R1-T1',
      sheet([NS_AHEAD, NS_AHEAD, NS_AHEAD, NS_AHEAD], { dealer: other }),
      400,
      `record: dealer: round 1 at table 1 was seated with ${words[game.dealer]} (${game.dealer}) dealing first, drawn at random when the round was seated, not ${other}`,
    );
    await refuse(
      'R1-T1',
      sheet([NS_AHEAD, NS_AHEAD, NS_AHEAD, NS_AHEAD], { seats: { N: 'Nobody' } }),
      400,
      `record: seats.N: round 1 at table 1 has ${game.seats.N} in North, not Nobody`,
    );
    await refuse(
      'R1-T1',
      sheet([NS_AHEAD, NS_AHEAD, NS_AHEAD, NS_AHEAD], { timeCalled: 2 }),
      400,
      'record: timeCalled: round 1 at table 1 has no clock; a round is played to its 4 hands',
    );
    await refuse(
      'R1-T1',
      sheet([NS_AHEAD, NS_AHEAD, NS_AHEAD, NS_AHEAD], { start: { NS: { score: 50 } } }),
      400,
      "record: start.NS: a round at a progressive table starts from nothing for both sides; each round's score is added to the players' totals",
    );

    // A tie after 4 hands plays one more: the 5-hand sheet is taken, and the fifth hand decides the table.
    const tied = await importAsJudge(copy.app, {
      tournamentId: 'ck',
      matchId: 'R1-T1',
      record: sheet([NS_AHEAD, EW_AHEAD, NS_AHEAD, EW_AHEAD, EVEN], { seats: { N: game.seats.N!.toUpperCase() } }),
    });
    expect(tied.status, JSON.stringify(tied.body)).toBe(201);
    expect(tableGame(copy, 'ck', 1)).toMatchObject({ winner: 'EW', reason: 'hands', score: { NS: 302, EW: 303 } });
    // A table that has been entered, from paper or at the table, takes no sheet.
    await refuse(
      'R1-T1',
      sheet([NS_AHEAD, NS_AHEAD, NS_AHEAD, NS_AHEAD]),
      409,
      'tournament ck: round 1 at table 1 is over (NS 302, EW 303); its score stands as recorded, and a judge corrects it at /judge',
    );
    copy.ledger.execute(() => nextEntry(copy.ledger, tableGame(copy, 'ck', 2), { seed: 'ck' }) ?? []);
    await refuse(
      'R1-T2',
      sheet([NS_AHEAD, NS_AHEAD, NS_AHEAD, NS_AHEAD]),
      409,
      'tournament ck: round 1 at table 2 already has hand 1 recorded at the table; a score sheet is entered only into a table where nothing has been recorded yet (undo those entries at the table first)',
    );
    copy.ledger.close();
  });
});

describe('the table’s phone takes the round from the score sheet', () => {
  // NS bid 7 and take 8, EW bid 5 and take 5: NS 71, EW 50 each hand.
  const form = (hands: { bids: Record<string, number>; tricks: Record<string, number> }[]) =>
    Object.fromEntries(
      hands.flatMap((h, i) =>
        Object.keys(h.bids).flatMap((seat) => [
          [`bid-${i + 1}-${seat}`, String(h.bids[seat])],
          [`tricks-${i + 1}-${seat}`, String(h.tricks[seat])],
        ]),
      ),
    );
  const HAND = { bids: { N: 4, E: 3, S: 3, W: 2 }, tricks: { N: 5, E: 3, S: 3, W: 2 } };

  it('checks the sheet and shows it scored, then records it on one confirmation', async () => {
    const copy = copyOf(fixture);
    await evening(copy, 'ph', 8, 2);
    await asDirector(copy.app, '/director/tournaments/ph/rounds', { seed: 'ph-1' });
    const join = async (table: number) => {
      const res = await copy.app.request('/join', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ code: await copy.auth.tableCode('ph', table) }),
      });
      return { cookie: (res.headers.get('set-cookie') ?? '').split(';')[0]!, csrf: ((await res.json()) as { csrf: string }).csrf };
    };
    const phone = await join(1);
    const game = tableGame(copy, 'ph', 1);

    // The table's page offers the sheet while nothing is recorded there.
    const table = await (await send(copy.app, phone, 'GET', '/entry/tables/ph/1')).text();
    expect(table).toContain('href="/entry/tables/ph/1/sheet"');
    const blank = await send(copy.app, phone, 'GET', '/entry/tables/ph/1/sheet');
    expect(blank.status).toBe(200);
    const blankHtml = await blank.text();
    for (const seat of ['N', 'E', 'S', 'W']) expect(blankHtml).toContain(`name="bid-4-${seat}"`);
    expect(blankHtml).toContain(game.seats.N!);
    // Another table's phone is refused this one's sheet, and so is anyone not keeping a table.
    expect((await send(copy.app, await join(2), 'GET', '/entry/tables/ph/1/sheet')).status).toBe(403);
    expect((await send(copy.app, null, 'POST', '/entry/tables/ph/1/sheet', { json: form([HAND, HAND, HAND, HAND]) })).status).toBe(401);
    expect((await send(copy.app, fixture.clients.judge, 'POST', '/entry/tables/ph/1/sheet', { json: form([HAND, HAND, HAND, HAND]) })).status).toBe(403);

    // A sheet the round cannot take is shown again with the reason and the values kept; nothing is recorded.
    const before = copy.ledger.models.position;
    const short = { ...form([HAND, HAND, HAND, HAND]), 'tricks-2-W': '1' };
    const wrong = await send(copy.app, phone, 'POST', '/entry/tables/ph/1/sheet', { form: short });
    expect(wrong.status).toBe(400);
    const wrongHtml = await wrong.text();
    expect(wrongHtml).toContain('hand 2: tricks add up to 12 (N 5, E 3, S 3, W 1); a hand has 13');
    expect(wrongHtml).toMatch(/name="tricks-2-W"[^>]*value="1"/);
    expect(copy.ledger.models.position).toBe(before);

    // Checked: the sheet scored hand by hand, and who won, with the one button that records it.
    const check = await send(copy.app, phone, 'POST', '/entry/tables/ph/1/sheet', { form: form([HAND, HAND, HAND, HAND]) });
    expect(check.status).toBe(200);
    const preview = await check.text();
    expect(preview).toContain('Check the sheet, then record it');
    expect(preview).toContain(`North–South, ${game.seats.N} and ${game.seats.S}, win the round 284 to 200.`);
    expect(preview).toContain('North–South +71 (284), East–West +50 (200)');
    expect(copy.ledger.models.position).toBe(before);
    const confirmForm = [...preview.matchAll(/<form[^>]*>([\s\S]*?)<\/form>/g)].map((m) => m[1]!).find((f) => f.includes('name="confirm"'))!;
    const fields = Object.fromEntries([...confirmForm.matchAll(/name="([^"]+)" value="([^"]*)"/g)].map((m) => [m[1]!, m[2]!]));
    expect(fields.confirm).toBe('yes');

    const recorded = await send(copy.app, phone, 'POST', '/entry/tables/ph/1/sheet', { form: fields });
    expect([recorded.status, recorded.headers.get('location')]).toEqual([303, '/entry/tables/ph/1']);
    expect(tableGame(copy, 'ph', 1)).toMatchObject({ winner: 'NS', reason: 'hands', score: { NS: 284, EW: 200 } });
    expect(tableGame(copy, 'ph', 1).hands).toHaveLength(4);
    // The same confirmation sent again records nothing more.
    const position = copy.ledger.models.position;
    expect((await send(copy.app, phone, 'POST', '/entry/tables/ph/1/sheet', { form: fields })).status).toBe(303);
    expect(copy.ledger.models.position).toBe(position);
    // Entered, the table no longer offers the sheet.
    expect(await (await send(copy.app, phone, 'GET', '/entry/tables/ph/1')).text()).not.toContain('/sheet"');
    expect((await send(copy.app, phone, 'GET', '/entry/tables/ph/1/sheet')).status).toBe(409);
    copy.ledger.close();
  });
});

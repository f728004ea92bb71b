/**
 * blp-2024 drawn round by round, through the HTTP routes as a director, scorekeepers and a
 * judge use them: "With an odd number of teams, a team representative will select a card. The
 * highest card drawn will receive a BYE"; rules.md: a bye in any round with an odd count, in
 * either bracket, a team that has had one not drawing again while a team of its group has had
 * none, only that one team sitting out, never a bracket padded to a power of two.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { naturalRank, parseCard } from '../engine/cards.ts';
import type { Ledger } from '../events/store/sqlite/ledger.ts';
import type { MatchModel } from '../events/read-models.ts';
import { driveTables } from '../server/serve/table-driver.ts';
import { type Fixture, copyOf, finishGame, makeFixture, send } from './routes-fixture.ts';
import { eventsOf, expectRebuildEqualsLive } from './tournament-ledger.ts';

let fixture: Fixture;
beforeAll(async () => {
  fixture = await makeFixture();
}, 60_000);
afterAll(() => fixture.close());

type App = ReturnType<typeof copyOf>['app'];
const NOW = () => '2026-03-01T10:00:00.000Z';

async function ok(res: Response | Promise<Response>): Promise<Record<string, unknown>> {
  const answer = await res;
  const body = (await answer.json()) as Record<string, unknown>;
  expect(answer.status, JSON.stringify(body)).toBe(200);
  return body;
}

async function refused(res: Response | Promise<Response>, status: number): Promise<string> {
  const answer = await res;
  const body = (await answer.json()) as { error: string };
  expect(answer.status, JSON.stringify(body)).toBe(status);
  return body.error;
}

/** A blp-2024 event of `n` teams (t1…tn) set up and started by the director's routes. */
async function blpEvent(app: App, id: string, n: number, start: Record<string, unknown>): Promise<void> {
  const director = fixture.clients.director;
  await ok(send(app, director, 'POST', '/director/tournaments', { json: { tournamentId: id, name: `BLP ${n}`, format: 'blp-2024' } }));
  for (let i = 1; i <= n; i++) {
    await ok(
      send(app, director, 'POST', `/director/tournaments/${id}/teams`, { json: { teamId: `t${i}`, name: `Team ${i}`, player1: `P${i}a`, player2: `P${i}b` } }),
    );
  }
  await ok(send(app, director, 'POST', `/director/tournaments/${id}/start`, { json: start }));
}

const matchesOf = (ledger: Ledger, id: string) => ledger.models.tournaments[id]!.model.matches;
const matchOf = (ledger: Ledger, id: string, matchId: string): MatchModel | undefined => matchesOf(ledger, id).find((m) => m.matchId === matchId);
const presetOf = (rules: unknown) => (typeof rules === 'string' ? rules : (rules as { preset: string }).preset);

/** The teams with the highest card of a draw's last round (a finished draw has one). */
function highest(cards: Record<string, string>[]): string[] {
  const last = cards.at(-1)!;
  const best = Math.max(...Object.values(last).map((c) => naturalRank(parseCard(c)!)));
  return Object.keys(last).filter((t) => naturalRank(parseCard(last[t]!)!) === best);
}

/**
 * Checks a finished blp event against the rulebook's reading: one bye per odd group per round,
 * each given by a recorded draw whose highest card got it, nobody drawing twice while a team of
 * its group had no bye, 2n-2 matches, the rounds' rules, one champion.
 */
function expectRulebookBracket(ledger: Ledger, id: string, n: number): void {
  const model = ledger.models.tournaments[id]!.model;
  expect(model.status).toBe('finished');
  const champions = model.teams.filter((t) => t.status === 'champion');
  expect(champions).toHaveLength(1);
  expect(model.placings.find((p) => p.place === 1)!.teamId).toBe(champions[0]!.teamId);

  const played = model.matches.filter((m) => m.status !== 'bye');
  expect(played).toHaveLength(2 * n - 2);
  expect(played.every((m) => m.status === 'done')).toBe(true);
  expect(model.matches.filter((m) => m.side === 'final').map((m) => m.matchId)).toEqual(['F']);
  // Round 1 is the whole field less one bye at most: no padding to a power of two.
  const round1 = model.matches.filter((m) => m.round === 1);
  expect(round1.filter((m) => m.status === 'bye')).toHaveLength(n % 2);
  expect(round1.filter((m) => m.status !== 'bye')).toHaveLength(Math.floor(n / 2));

  const started = eventsOf(ledger, 'TournamentStarted').find((e) => e.tournamentId === id)!;
  const drawn = eventsOf(ledger, 'BracketRoundDrawn').filter((e) => e.tournamentId === id);
  const lastRound = Math.max(...model.matches.map((m) => m.round));
  expect(drawn.map((e) => e.round)).toEqual(Array.from({ length: lastRound - 1 }, (_, i) => i + 2));
  type Draw = { round: number; group: string; cards: Record<string, string>[]; bye: string };
  const draws: Draw[] = [
    ...(n % 2 === 1 ? [{ round: 1, group: 'winners', cards: started.byeDraw, bye: highest(started.byeDraw)[0]! }] : []),
    ...drawn.flatMap((e) => e.draws.map((d: Omit<Draw, 'round'>) => ({ ...d, round: e.round }))),
  ];
  // The bots' draws are made from a recorded seed.
  for (const e of drawn) if (e.draws.some((d: { cards: unknown[] }) => d.cards.length > 0)) expect(typeof e.seed).toBe('string');

  const hadBye = new Set<string>();
  let byes = 0;
  for (let round = 1; round <= lastRound; round++) {
    for (const side of ['winners', 'losers'] as const) {
      const matches = model.matches.filter((m) => m.round === round && m.side === side);
      const teams = matches.flatMap((m) => m.teams.filter((t): t is string => t !== null));
      const bye = matches.filter((m) => m.status === 'bye');
      const draw = draws.filter((d) => d.round === round && d.group === side);
      const where = `round ${round}, ${side}`;
      if (teams.length % 2 === 0) {
        expect(bye, where).toHaveLength(0);
        expect(draw, where).toHaveLength(0);
        continue;
      }
      expect(teams.length, where).toBeGreaterThanOrEqual(3);
      expect(bye, where).toHaveLength(1);
      expect(draw, where).toHaveLength(1);
      const winner = bye[0]!.winner!;
      const fresh = teams.filter((t) => !hadBye.has(t));
      const eligible = fresh.length > 0 ? fresh : teams;
      if (draw[0]!.cards.length === 0) {
        expect(eligible, where).toEqual([winner]);
      } else {
        expect(Object.keys(draw[0]!.cards[0]!).sort(), where).toEqual([...eligible].sort());
        expect(highest(draw[0]!.cards), where).toEqual([winner]);
      }
      expect(draw[0]!.bye, where).toBe(winner);
      hadBye.add(winner);
      byes++;
    }
  }
  expect(model.matches.filter((m) => m.status === 'bye')).toHaveLength(byes);

  for (const match of played) {
    const want = match.side === 'final' ? 'blp-final' : match.round === 1 ? 'blp-r1' : 'blp-r2';
    for (const gameId of match.games) expect(presetOf(ledger.models.games[gameId]!.rules), `${match.matchId}`).toBe(want);
  }
}

describe('blp-2024 played to the end by bots, drawn round by round', () => {
  for (const n of [5, 6, 7, 17]) {
    it(`${n} teams: one drawn bye per odd group per round, 2n-2 = ${2 * n - 2} matches, blp-r1 / blp-r2 / blp-final, one champion`, async () => {
      const { ledger, app } = copyOf(fixture, NOW);
      await blpEvent(app, 'b', n, { order: '', seed: `blp-${n}` });
      let steps = 0;
      while ((await driveTables(ledger, { tournamentId: 'b', seed: `bots-${n}`, now: NOW })) > 0) {
        if (++steps > 200_000) throw new Error('the event did not finish');
      }
      expectRulebookBracket(ledger, 'b', n);
      if (n % 2 === 1) {
        const page = await (await send(app, null, 'GET', '/tournaments/b/bracket')).text();
        const first = eventsOf(ledger, 'TournamentStarted').find((e) => e.tournamentId === 'b')!;
        const card = first.byeDraw.at(-1)[highest(first.byeDraw)[0]!];
        expect(page).toContain(`bye · high card ${card}`);
        expect(page).not.toContain('to be drawn');
      }
      expectRebuildEqualsLive(ledger);
      ledger.close();
    }, 120_000);
  }
});

describe('a disqualification in a blp event drawn round by round', () => {
  it('forfeits the team’s matches, keeps it out of every later bye draw, and the event still ends in 2n-2 matches', async () => {
    const { ledger, app } = copyOf(fixture, NOW);
    await blpEvent(app, 'b', 7, { order: '', seed: 'dq' });
    const drive = () => driveTables(ledger, { tournamentId: 'b', seed: 'dq-bots', now: NOW });
    for (let i = 0; i < 50_000 && !matchesOf(ledger, 'b').some((m) => m.round === 2); i++) await drive();
    // The team that had round 1's bye is put out while unbeaten, once round 2 is drawn.
    const cheat = matchesOf(ledger, 'b').find((m) => m.round === 1 && m.status === 'bye')!.winner!;
    await ok(send(app, fixture.clients.judge, 'POST', '/judge/disqualify', { json: { tournamentId: 'b', teamId: cheat, reason: 'marked cards' } }));
    const drawnBefore = eventsOf(ledger, 'BracketRoundDrawn').length;
    let steps = 0;
    while ((await drive()) > 0) if (++steps > 200_000) throw new Error('the event did not finish');
    const model = ledger.models.tournaments.b!.model;
    expect(model.status).toBe('finished');
    expect(model.matches.filter((m) => m.status !== 'bye')).toHaveLength(12);
    const cheatMatches = model.matches.filter((m) => m.teams.includes(cheat) && m.round >= 2);
    expect(cheatMatches.length).toBeGreaterThan(0);
    for (const m of cheatMatches) expect([m.status, m.winner === cheat]).toEqual(['forfeit', false]);
    for (const e of eventsOf(ledger, 'BracketRoundDrawn').slice(drawnBefore)) {
      for (const d of e.draws) expect(d.teams, `round ${e.round}`).not.toContain(cheat);
    }
    expect(model.teams.find((t) => t.teamId === cheat)!.status).toBe('disqualified');
    expectRebuildEqualsLive(ledger);
    ledger.close();
  }, 120_000);
});

describe('a director draws the rounds with the cards drawn at the table', () => {
  it('refuses a wrong draw with its reason and records nothing; a later correction puts played matches under review', async () => {
    const { ledger, app } = copyOf(fixture, NOW);
    const director = fixture.clients.director;
    const draw = (json: Record<string, unknown>) => send(app, director, 'POST', '/director/tournaments/b/rounds/draw', { json });
    const seatAndPlay = async (round: number) => {
      const ready = matchesOf(ledger, 'b').filter((m) => m.round === round && m.status === 'ready');
      expect(ready.length).toBeGreaterThan(0);
      for (const [i, match] of ready.entries()) {
        await ok(
          send(app, director, 'POST', `/director/tournaments/b/matches/${match.matchId}/start`, {
            json: { table: i + 1, cardN: 'AS', cardE: 'KD', cardS: '4C', cardW: '9H' },
          }),
        );
        finishGame(ledger, matchOf(ledger, 'b', match.matchId)!.games.at(-1)!);
      }
    };

    // Round 1: t3 draws the ace; the seeds stand and the four others play, 1 v 5 and 2 v 4.
    const wrongStart = await refused(send(app, director, 'POST', '/director/tournaments/b/start', { json: { order: '', seed: 'x' } }), 404);
    expect(wrongStart).toBe('tournament b does not exist');
    await blpEvent(app, 'b', 5, { order: ['t1', 't2', 't3', 't4', 't5'], byeCards: 't1 2C, t2 3C, t3 AS, t4 4C, t5 5C' });
    expect(matchesOf(ledger, 'b').map((m) => [m.matchId, m.status, ...m.teams])).toEqual([
      ['W1-1', 'ready', 't1', 't5'],
      ['W1-2', 'ready', 't2', 't4'],
      ['W1-3', 'bye', 't3', null],
    ]);
    let page = await (await send(app, null, 'GET', '/tournaments/b/bracket')).text();
    expect(page).toContain('bye · high card AS');
    expect(page).toMatch(/Round 2<\/span> to be drawn once round 1 is decided/);

    expect(await refused(draw({ round: 2, confirm: 'yes' }), 409)).toMatch(
      /^tournament b: round 1 is not over: W1-1 \(ready\), W1-2 \(ready\) still to be decided$/,
    );
    await seatAndPlay(1);
    const [w1, w2] = ['W1-1', 'W1-2'].map((id) => matchOf(ledger, 'b', id)!.winner!) as [string, string];
    const l1 = matchOf(ledger, 'b', 'W1-1')!.teams.find((t) => t !== w1)!;

    // The director's page offers the draw, naming who draws: the round-1 winners, not t3 (it had its bye).
    const panel = await (await send(app, director, 'GET', '/director/tournaments/b')).text();
    expect(panel).toContain('Draw round 2');
    expect(panel).toMatch(/name="confirm" value="yes" required/);
    expect(panel).toContain(`Drawing: Team ${w1.slice(1)} (${w1}), Team ${w2.slice(1)} (${w2})`);

    const before = ledger.models.position;
    expect(await refused(draw({ round: 2, winnersCards: `${w1} KS, ${w2} AS` }), 400)).toBe(
      'confirm round 2 (tick the box beside its button); a round drawn or paired cannot be taken back',
    );
    expect(await refused(draw({ round: 3, confirm: 'yes' }), 409)).toBe('tournament b: round 2 is the next to draw, not round 3');
    expect(await refused(draw({ round: 2, confirm: 'yes', winnersCards: `${w1} KS, t3 AS` }), 400)).toBe(
      `tournament b: round 2, winners’ bracket: bye draw: team 't3' is not one of the teams drawing for this bye (${w1}, ${w2})`,
    );
    expect(await refused(draw({ round: 2, confirm: 'yes', losersCards: `${l1} KS` }), 400)).toBe(
      'tournament b: round 2: the losers’ bracket has no bye to draw (it has 2 teams, an even count)',
    );
    expect(await refused(draw({ round: 2, confirm: 'yes', winnersCards: `${w1} KS, ${w2} AS`, winnersBye: w1 }), 400)).toBe(
      `tournament b: round 2, winners’ bracket: the bye goes to the highest card, '${w2}' with AS, not to '${w1}'`,
    );
    expect(await refused(draw({ round: 2, confirm: 'yes', winnersCards: `${w1} AS, ${w2} AH` }), 400)).toBe(
      `tournament b: round 2, winners’ bracket: bye draw: '${w1}', '${w2}' are still tied for the highest card; they redraw (record another round)`,
    );
    expect(await refused(draw({ round: 2, confirm: 'yes', winnersCards: `${w1} AS ${w2}` }), 400)).toBe(
      `the winners’ bracket cards, line 1: '${w2}' has no card; write each team and its card, such as "${w2} QH"`,
    );
    expect(ledger.models.position).toBe(before);

    // The aces tie and redraw: 9C beats 3D.
    await ok(draw({ round: 2, confirm: 'yes', winnersCards: `${w1} AS, ${w2} AH\n${w1} 3D, ${w2} 9C`, winnersBye: w2 }));
    const round2 = eventsOf(ledger, 'BracketRoundDrawn')[0]!;
    expect(round2.draws).toEqual([
      {
        group: 'winners',
        teams: [w1, w2],
        cards: [
          { [w1]: 'AS', [w2]: 'AH' },
          { [w1]: '3D', [w2]: '9C' },
        ],
        bye: w2,
        card: '9C',
        match: 'W2-2',
      },
    ]);
    expect(round2.seed).toBeUndefined();
    expect(
      matchesOf(ledger, 'b')
        .filter((m) => m.round === 2)
        .map((m) => [m.matchId, m.status, ...m.teams]),
    ).toEqual([
      ['W2-1', 'ready', w1, 't3'],
      ['W2-2', 'bye', w2, null],
      ['L2-1', 'ready', l1, matchOf(ledger, 'b', 'W1-2')!.teams.find((t) => t !== w2)!],
    ]);
    page = await (await send(app, null, 'GET', '/tournaments/b/bracket')).text();
    expect(page).toContain('bye · high card 9C');
    expect(page).toMatch(/Round 3<\/span> to be drawn once round 2 is decided/);

    // Round 2 played and round 3 drawn (both groups even: no draw); then a judge corrects round 1.
    await seatAndPlay(2);
    await ok(draw({ round: 3, confirm: 'yes' }));
    expect(
      matchesOf(ledger, 'b')
        .filter((m) => m.round === 3)
        .map((m) => m.matchId),
    ).toEqual(['W3-1', 'L3-1']);
    const w21 = structuredClone(matchOf(ledger, 'b', 'W2-1')!);
    const l21 = structuredClone(matchOf(ledger, 'b', 'L2-1')!);
    const results = structuredClone(ledger.models.tournaments.b!.bracket!.results);
    const game = matchOf(ledger, 'b', 'W1-1')!.games[0]!;
    await ok(send(app, fixture.clients.judge, 'POST', '/judge/results', { json: { gameId: game, winner: l1, reason: 'tricks miscounted', reopen: 'yes' } }));
    expect(matchOf(ledger, 'b', 'W1-1')!.winner).toBe(l1);
    for (const flagged of [w21, l21]) {
      const now = matchOf(ledger, 'b', flagged.matchId)!;
      expect(now.underReview, flagged.matchId).toBe(true);
      expect(now.games).toEqual(flagged.games);
      expect(ledger.models.tournaments.b!.bracket!.results[flagged.matchId]).toEqual(results[flagged.matchId]);
    }
    expect(matchOf(ledger, 'b', 'W2-1')!.teams).toEqual([l1, 't3']);
    expect(matchOf(ledger, 'b', 'L2-1')!.teams[0]).toBe(w1);
    expect(ledger.models.tournaments.b!.reviews.map((r) => r.matchId).sort()).toEqual(['L2-1', 'W2-1']);
    expect(await refused(draw({ round: 4, confirm: 'yes' }), 409)).toMatch(/^tournament b: round 3 is not over: .*W2-1 \(under review\)/);

    // Bots play on: the flagged matches are replayed, the rounds drawn, and the event ends by the rulebook.
    let steps = 0;
    while ((await driveTables(ledger, { tournamentId: 'b', seed: 'after-correction', now: NOW })) > 0)
      if (++steps > 200_000) throw new Error('the event did not finish');
    const model = ledger.models.tournaments.b!.model;
    expect(model.status).toBe('finished');
    expect(model.teams.filter((t) => t.status === 'champion')).toHaveLength(1);
    expect(model.matches.filter((m) => m.underReview)).toEqual([]);
    expectRebuildEqualsLive(ledger);
    ledger.close();
  }, 120_000);

  it('refuses a round draw where the bracket is drawn whole, and a start bye draw naming a team not in the event', async () => {
    const { ledger, app } = copyOf(fixture, NOW);
    const director = fixture.clients.director;
    expect(await refused(send(app, director, 'POST', '/director/tournaments/t1/rounds/draw', { json: { round: 2, confirm: 'yes' } }), 409)).toBe(
      'tournament t1 draws its whole bracket at the start; it has no rounds to draw',
    );
    await ok(send(app, director, 'POST', '/director/tournaments', { json: { tournamentId: 'b', name: 'BLP 3', format: 'blp-2024' } }));
    for (let i = 1; i <= 3; i++) {
      await ok(send(app, director, 'POST', '/director/tournaments/b/teams', { json: { teamId: `t${i}`, name: `Team ${i}`, player1: 'a', player2: 'b' } }));
    }
    expect(
      await refused(send(app, director, 'POST', '/director/tournaments/b/start', { json: { order: '', seed: 's', byeCards: 't1 AS, t2 KS, t9 QS' } }), 400),
    ).toBe("tournament b: bye draw: team 't9' is not one of the teams alive in this round");
    expect(ledger.models.tournaments.b!.model.status).toBe('registration');
    ledger.close();
  });
});

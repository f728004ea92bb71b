/**
 * A late ruling is a reopening, shown first, and what it voids reads as voided everywhere. A
 * renege upheld in a semi-final that was decided, while the Final it fed is being played, is
 * refused unless asked as a reopening, saying what it would change; asked as one, it reopens
 * the semi-final and voids exactly the Final's game (the bracket, the table page, the team
 * pages, the venue screen and the read API all say so), and the statistics and highlights stop
 * counting that game. Giving and withdrawing a ruling follow the same rule.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Ledger } from '../events/store/sqlite/ledger.ts';
import type { Seat } from '../engine/cards.ts';
import { nextBidder } from '../events/game-projection.ts';
import { bidsOpenTo, claimRenege, dealHand, giveRuling, makeBid, recordTricks } from '../server/commands/game-commands.ts';
import { statsOfTournament } from '../events/tournament-stats.ts';
import { type Fixture, copyOf, deal, finishGame, makeFixture, seatMatch, send } from './routes-fixture.ts';
import { DRAW, boston, seat, semisDecidedFinalPlaying } from './fixtures/reopening-scenario.ts';
import { driveToEnd, eventsOf, expectRebuildEqualsLive, refusal, tempLedger } from './tournament-ledger.ts';
import { startMatch, startNextGame } from '../server/commands/match-commands.ts';
import { createTournament, registerTeam, startTournament } from '../server/commands/tournament-commands.ts';
import { checkReopening } from '../server/commands/reopenings.ts';
import { withdrawRuling } from '../server/commands/ruling-withdrawals.ts';
import { teamPageModel } from '../views/team-page-model.ts';
import { tournamentResource } from '../server/api/api-resources.ts';
import { bidValue } from '../engine/bid.ts';
import { replayLink, teamLink } from '../events/addresses.ts';
import { newsText } from '../views/news.ts';

let fixture: Fixture;
beforeAll(async () => {
  fixture = await makeFixture();
});
afterAll(() => fixture?.close());

const text = (html: string) => html.replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ');
describe('a renege ruling on a decided match', () => {
  it('is refused unless asked as a reopening; as one it voids exactly the games that depended on it, and stops counting them', async () => {
    const { app, ledger, broadcaster } = copyOf(fixture);
    try {
      const m = ledger.models;
      const { semi1, g1, final, gF } = semisDecidedFinalPlaying(ledger, fixture.matchId);
      const t = () => m.tournaments.t1!.model;
      const aces = t().teams.find((x) => x.teamId === m.games[g1]!.teams.NS)!;
      expect(t().matches.find((x) => x.matchId === semi1)).toMatchObject({ status: 'done', winner: aces.teamId });
      expect(t().matches.find((x) => x.matchId === final)!.teams).toContain(aces.teamId);
      const statsBefore = statsOfTournament(m, 't1')!;
      expect(statsBefore.highlights.some((h) => h.game === gF && h.kind === 'boston')).toBe(true);

      // A renege found in the semi-final's last hand, after the match was decided.
      const last = m.games[g1]!.hands.length;
      ledger.execute(claimRenege(m, { gameId: g1, claimId: 'late', hand: last, seat: 'N', trick: null }));
      const before = ledger.store.head().position;
      const path = `/judge/games/${g1}/claims/late/ruling`;

      // Without `reopen`: refused, saying what it would change in people's words; nothing recorded.
      const refused = await send(app, fixture.clients.judge, 'POST', path, { json: { upheld: 'yes', note: 'found on the sheet' } });
      expect(refused.status).toBe(409);
      const why = ((await refused.json()) as { error: string }).error;
      expect(why).toContain('This would change a decided match');
      expect(why).toContain(`Round 1 (match 1) (${aces.name} beat`);
      expect(why).toContain('is reopened: it is not decided, and play goes on');
      expect(why).toContain('the Final, game 1 (');
      expect(why).toContain('is voided');
      expect(why).toContain(`${aces.name} moves from playing the Final to playing Round 1 (match 1)`);
      expect(why).not.toMatch(/\bt1\b|team-\d|W1-|RulingGiven|reopen:/);
      expect(ledger.store.head().position).toBe(before);

      // Asked as a reopening: recorded.
      const given = await send(app, fixture.clients.judge, 'POST', path, { json: { upheld: 'yes', note: 'found on the sheet', reopen: 'yes' } });
      expect(given.status).toBe(200);
      const ruling = ledger.store.head().position;
      expect(ruling).toBe(before + 1);

      // Exactly the Final's game is voided, by that ruling; the semi-final is reopened by it.
      const state = m.tournaments.t1!;
      expect(state.voided).toEqual({ [gF]: ruling });
      expect(t().matches.find((x) => x.matchId === semi1)).toMatchObject({
        status: 'live',
        winner: null,
        reopened: { position: ruling, by: 'a renege ruling' },
      });
      expect(t().matches.find((x) => x.matchId === final)).toMatchObject({
        status: 'waiting',
        voided: [{ gameId: gF, number: 1, position: ruling, by: 'a renege ruling' }],
      });
      expect(t().latest[0]).toMatchObject({ kind: 'matches-reopened', by: 'RulingGiven' });
      expect(newsText(t().latest[0]!, t())).toBe('Round 1 (match 1) reopened by a renege ruling; the Final restarts');

      // The read API: the game voided with the ruling's position, and not among the Final's games.
      const apiGame = (await (await send(app, null, 'GET', `/api/v1/games/${gF}`)).json()) as Record<string, unknown>;
      expect(apiGame).toMatchObject({ voided: true, voidedBy: ruling });
      const standing = (await (await send(app, null, 'GET', `/api/v1/games/${g1}`)).json()) as Record<string, unknown>;
      expect(standing).toMatchObject({ voided: false, voidedBy: null });
      const api = (await (await send(app, null, 'GET', '/api/v1/tournaments/t1')).json()) as { bracket: { matches: Record<string, unknown>[] } };
      expect(api.bracket.matches.find((x) => x.matchId === final)).toMatchObject({
        games: [],
        voided: true,
        voidedGames: [{ gameId: gF, voided: true, voidedBy: ruling }],
        reopenedBy: null,
      });
      expect(api.bracket.matches.find((x) => x.matchId === semi1)).toMatchObject({ games: [g1], voided: true, voidedGames: [], reopenedBy: ruling });

      // Every page says what was voided and by which ruling.
      const page = async (path: string) => text(await (await send(app, null, 'GET', path)).text());
      const ruled = `a renege ruling against North in Round 1 (match 1), game 1, hand ${last} (entry ${ruling} of the ledger)`;
      const finalTable = await page(`/tournaments/t1/games/${gF}`);
      expect(finalTable).toContain(`Voided by ${ruled}: this game no longer counts for its match, the standings or the statistics.`);
      expect(finalTable).not.toMatch(/ won \(/);
      expect(await page(`/tournaments/t1/games/${g1}`)).toContain(`Reopened by ${ruled}: its result no longer stands, and play resumes.`);
      const teamPage = await page(teamLink('t1', aces.teamId));
      expect(teamPage).toContain('Round 1 (match 1) was reopened by a renege ruling: its result no longer stands, and it is played on.');
      expect(teamPage).toContain('The Final, game 1, was voided by a renege ruling: it no longer counts.');
      const other = m.games[gF]!.teams.EW;
      expect(await page(teamLink('t1', other))).toContain('The Final, game 1, was voided by a renege ruling: it no longer counts.');
      for (const path of ['/tournaments/t1/bracket', '/tournaments/t1/screen']) {
        const shown = await page(path);
        expect(shown, path).toContain('Reopened by a renege ruling');
        expect(shown, path).toContain('Game 1 voided by a renege ruling');
      }
      expect(await page('/tournaments/t1/screen')).toContain('Round 1 (match 1) reopened by a renege ruling; the Final restarts');
      // The replay's last step names the ruling, what it did to the score and what it undid.
      const replay = await page(replayLink(g1, last, 1));
      expect(replay).toContain('Rulings in this score The tricks above are as played; the score below is as the judge ruled.');
      expect(replay).toMatch(
        new RegExp(
          `The upheld renege claimed against North \\(Jo Judge, entry ${ruling} of the ledger\\): ${aces.name} -\\d+, .+ [+-]\\d+ in this hand\\. It reopened Round 1 \\(match 1\\) and voided the Final, game 1\\.`,
        ),
      );

      // Statistics and highlights count only the games still standing, counted here from the games themselves.
      const standingGames = Object.values(m.games).filter((g) => g.tournamentId === 't1' && state.voided[g.gameId] === undefined);
      expect(standingGames.map((g) => g.gameId)).not.toContain(gF);
      const stats = statsOfTournament(m, 't1')!;
      expect(stats.stats.totals.games).toBe(standingGames.length);
      expect(stats.stats.totals.hands).toBe(standingGames.reduce((n, g) => n + g.rows.filter((r) => !r.misdeal).length, 0));
      const bostons = standingGames.reduce(
        (n, g) => n + g.rows.filter((r) => r.tricks && (r.tricks.N + r.tricks.S === 13 || r.tricks.E + r.tricks.W === 13)).length,
        0,
      );
      expect(stats.stats.totals.bostons).toBe(bostons);
      expect(stats.highlights.filter((h) => h.kind === 'boston')).toHaveLength(bostons);
      expect(stats.highlights.every((h) => h.game !== gF)).toBe(true);
      // The standings count no voided game either.
      const acesRow = t().teams.find((x) => x.teamId === aces.teamId)!;
      expect(acesRow.points).toBe(
        standingGames.reduce((n, g) => n + (g.teams.NS === aces.teamId ? g.score.NS : g.teams.EW === aces.teamId ? g.score.EW : 0), 0),
      );

      expectRebuildEqualsLive(ledger);
    } finally {
      broadcaster.close();
      ledger.close();
    }
  });
});

/** One hand with the bids and tricks given, each seat bidding in turn. */
function hand(ledger: Ledger, gameId: string, seed: string, bids: Record<Seat, number>, tricks: Record<Seat, number>): void {
  deal(ledger, gameId, seed);
  for (let i = 0; i < 4; i++) {
    const seat = nextBidder(ledger.models.games[gameId]!) as Seat;
    ledger.execute(makeBid(ledger.models, { gameId, seat, bid: bids[seat] }));
  }
  ledger.execute(recordTricks(ledger.models, { gameId, tricks }));
}

describe('giving and withdrawing a ruling', () => {
  it('follow the same rule: each is refused when it would change a decided match, unless asked as a reopening', async () => {
    const { app, ledger, broadcaster } = copyOf(fixture);
    try {
      const m = ledger.models;
      const head = () => ledger.store.head().position;
      const judge = (path: string, json: Record<string, unknown>) => send(app, fixture.clients.judge, 'POST', path, { json });
      const rule = (claimId: string, extra: Record<string, unknown> = {}) =>
        judge(`/judge/games/${g2}/claims/${claimId}/ruling`, { upheld: 'yes', note: '', ...extra });
      const withdraw = (claimId: string, extra: Record<string, unknown> = {}) =>
        judge('/judge/withdrawals', { gameId: g2, claimId, reason: 'the card was found', ...extra });
      const reopens = async (res: Response) => {
        expect(res.status).toBe(409);
        expect(((await res.json()) as { error: string }).error).toMatch(
          /^This would change a decided match: Round 1 \(match 2\) \(.+ beat .+\) is reopened: .* the Final, game 1 \(.*\) is voided/,
        );
      };

      // The first semi-final decided; the second one 282 to play for a target of 300.
      finishGame(ledger, seatMatch(ledger, fixture.matchId));
      const semi2 = m.tournaments.t1!.model.matches.find((x) => x.status === 'ready')!.matchId;
      const g2 = seat(ledger, semi2, 2);
      const semi = () => m.tournaments.t1!.model.matches.find((x) => x.matchId === semi2)!;
      for (const seed of ['s2-1', 's2-2']) hand(ledger, g2, seed, { N: 6, S: 6, E: 2, W: 2 }, { N: 7, S: 6, E: 0, W: 0 });
      hand(ledger, g2, 's2-3', { N: 2, S: 2, E: 2, W: 2 }, { N: 2, S: 2, E: 5, W: 4 });
      expect(m.games[g2]).toMatchObject({ winner: null, score: { NS: 282 } });

      // A renege by East in hand 3, upheld while the match is open: 30 points take North–South over the
      // target and decide the match. An ordinary ruling: given at once.
      ledger.execute(claimRenege(m, { gameId: g2, claimId: 'east', hand: 3, seat: 'E', trick: null }));
      expect((await rule('east')).status).toBe(200);
      expect(semi().status).toBe('done');
      const final = m.tournaments.t1!.model.matches.find((x) => x.side === 'final')!.matchId;
      const gF = seat(ledger, final, 1);
      boston(ledger, gF, 'final-1');

      // Withdrawing that ruling would reopen the decided match: refused, then given as a reopening.
      let before = head();
      await reopens(await withdraw('east'));
      expect(head()).toBe(before);
      expect((await withdraw('east', { reopen: 'yes' })).status).toBe(200);
      expect(semi()).toMatchObject({ status: 'live', reopened: { position: head() } });
      expect(m.tournaments.t1!.voided).toEqual({ [gF]: head() });

      // A renege by West upheld decides it again (no decided match changes): given at once, and the
      // Final's game counts again.
      ledger.execute(claimRenege(m, { gameId: g2, claimId: 'west', hand: 3, seat: 'W', trick: null }));
      expect((await rule('west')).status).toBe(200);
      expect(semi().status).toBe('done');
      expect(m.tournaments.t1!.voided).toEqual({});

      // Giving a ruling that would reopen it (North reneged too: North–South set in hand 3) is refused
      // the same way, and given as a reopening.
      ledger.execute(claimRenege(m, { gameId: g2, claimId: 'north', hand: 3, seat: 'N', trick: null }));
      before = head();
      await reopens(await rule('north'));
      expect(head()).toBe(before);
      expect((await rule('north', { reopen: 'yes' })).status).toBe(200);
      expect(semi()).toMatchObject({ status: 'live', reopened: { position: head() } });
      expect(m.tournaments.t1!.voided).toEqual({ [gF]: head() });
      expectRebuildEqualsLive(ledger);
    } finally {
      broadcaster.close();
      ledger.close();
    }
  });
});

describe('a game reopened by a ruling after later games of its match were played', () => {
  it('is played on before any further game, and the team page scores it, not a game after the last', async () => {
    const ledger = tempLedger();
    const m = ledger.models;
    ledger.execute(createTournament(m, { tournamentId: 'b', name: 'Two of three', format: 'custom', options: { rules: 'blp-r1', gamesToWin: 2 } }));
    for (let i = 1; i <= 2; i++) ledger.execute(registerTeam(m, { tournamentId: 'b', teamId: `t${i}`, name: `Team ${i}`, players: [`P${i}a`, `P${i}b`] }));
    ledger.execute(startTournament(m, { tournamentId: 'b', order: ['t1', 't2'] }));
    ledger.execute(startMatch(m, { tournamentId: 'b', matchId: 'F', table: 1, at: '2026-01-01T10:00:00.000Z', draw: DRAW }));
    const final = () => m.tournaments.b!.model.matches.find((x) => x.matchId === 'F')!;
    /** Plays the match's current game out, the side given taking every trick until it wins. */
    const win = (side: 'NS' | 'EW') => {
      const gameId = final().games.at(-1)!;
      for (let n = 1; !m.games[gameId]!.winner; n++) {
        ledger.execute(dealHand(m, { gameId, seed: `${gameId}-${n}` }));
        for (let i = 0; i < 4; i++) {
          const game = m.games[gameId]!;
          const at = nextBidder(game) as Seat;
          const open = bidsOpenTo(game, at)
            .map(bidValue)
            .filter((b): b is number => typeof b === 'number');
          const want = (at === 'N' || at === 'S') === (side === 'NS') ? 6 : 1;
          ledger.execute(makeBid(m, { gameId, seat: at, bid: open.includes(want) ? want : open[0]! }));
        }
        ledger.execute(recordTricks(m, { gameId, tricks: side === 'NS' ? { N: 7, S: 6, E: 0, W: 0 } : { N: 0, S: 0, E: 7, W: 6 } }));
      }
      return gameId;
    };
    const g1 = win('NS');
    ledger.execute(startNextGame(m, { tournamentId: 'b', matchId: 'F', at: '2026-01-01T11:00:00.000Z' }));
    win('EW');
    ledger.execute(startNextGame(m, { tournamentId: 'b', matchId: 'F', at: '2026-01-01T12:00:00.000Z' }));
    win('NS');
    expect(final()).toMatchObject({ status: 'done', winner: 't1', gamesWon: [2, 1] });
    expect(m.tournaments.b!.model.status).toBe('finished');

    // The event is over: a ruling that changes no decided match is given, and withdrawn, alike.
    ledger.execute(claimRenege(m, { gameId: g1, claimId: 'minor', hand: 1, seat: 'E', trick: null }));
    const minor = giveRuling(m, { gameId: g1, claimId: 'minor', upheld: true, note: '', judge: 'Jo Judge' });
    expect(checkReopening(m, minor, false, '2026-01-01T12:30:00.000Z')).toBeNull();
    ledger.execute(minor);
    const undo = withdrawRuling(m, { gameId: g1, claimId: 'minor', reason: 'East followed suit after all', judge: 'Jo Judge' });
    expect(checkReopening(m, undo, false, '2026-01-01T12:31:00.000Z')).toBeNull();
    ledger.execute(undo);
    expect(m.tournaments.b!.model.status).toBe('finished');

    // A renege by North found in game 1's last hand, upheld as a reopening: game 1 is no longer won.
    ledger.execute(claimRenege(m, { gameId: g1, claimId: 'late', hand: m.games[g1]!.hands.length, seat: 'N', trick: null }));
    const ruling = giveRuling(m, { gameId: g1, claimId: 'late', upheld: true, note: '', judge: 'Jo Judge' });
    expect(() => checkReopening(m, ruling, false, '2026-01-01T13:00:00.000Z')).toThrow(
      /^This would change a decided match: the Final \(Team 1 beat Team 2 2–1\) is reopened/,
    );
    ledger.execute(ruling);
    expect(m.games[g1]!.winner).toBeNull();
    expect(final()).toMatchObject({ status: 'live', gamesWon: [1, 1], reopened: { by: 'a renege ruling' } });

    // No game 4 of a best of 3: game 1 is played on first, and the team's page scores it.
    expect(refusal(() => startNextGame(m, { tournamentId: 'b', matchId: 'F', at: '2026-01-01T13:00:00.000Z' }))).toMatchObject({
      status: 409,
      message: 'Final: game 1 was reopened by a renege ruling and is played on before any further game',
    });
    expect(teamPageModel(m.tournaments.b!, m.games, 't1')!.live!.game).toMatchObject({ number: 1, over: false });
    expect(tournamentResource(m, 'b')!.liveTables).toEqual([expect.objectContaining({ table: 1, gameId: g1 })]);
    const started = eventsOf(ledger, 'GameStarted').length;
    await driveToEnd(ledger, 'b', 'reopened-game');
    expect(eventsOf(ledger, 'GameStarted')).toHaveLength(started);
    expect(m.games[g1]!.winner).not.toBeNull();
    expect(final().status).toBe('done');
    expectRebuildEqualsLive(ledger);
    ledger.close();
  });
});

/**
 * The record settles it: a game exported as a spades-game/1 record and scored by the real
 * `spades score` process gives the scores the replay shows, hand by hand; and entering those
 * records into a new tournament, on a new ledger, folds into the same read models.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RecordResult } from '../engine/record.ts';
import type { GameModel, TournamentModel } from '../events/read-models.ts';
import { createApp } from '../server/app/app.ts';
import { attrValues } from './fixtures/html.ts';
import { createTournament, registerTeam, startTournament } from '../server/commands/tournament-commands.ts';
import { drawRound } from '../server/commands/round-commands.ts';
import { type AuditLedger, playTournament, signedInAsJudge, tempLedger } from './fixtures/audit-ledger.ts';
import { spadesProcess } from './fixtures/spades-process.ts';
import { newsText } from '../views/news.ts';

/** `node bin/spades.js score -` with the record on standard input. */
const spadesScore = (record: unknown) => spadesProcess(['score', '-'], JSON.stringify(record));

let original: AuditLedger;
let copy: AuditLedger;
let app: ReturnType<typeof createApp>['app'];
/** The games in the order they were started. */
let games: GameModel[];

beforeAll(async () => {
  original = tempLedger();
  await playTournament(original.ledger, { renegeChance: 0.05, seed: 'records' });
  app = createApp({ ledger: original.ledger }).app;
  const started = new Map(
    original.ledger.store
      .readAll()
      .filter((e) => e.type === 'GameStarted')
      .map((e) => [(e.payload as { gameId: string }).gameId, e.position]),
  );
  games = Object.values(original.ledger.models.games).sort((a, b) => started.get(a.gameId)! - started.get(b.gameId)!);
});
afterAll(() => {
  original.remove();
  copy?.remove();
});

describe('a game exported as a record', () => {
  it('scores with `spades score` exactly as the replay shows it, hand by hand', async () => {
    let hands = 0;
    for (const game of games) {
      // given the record the server exports
      const res = await app.request(`/games/${game.gameId}/record`);
      expect(res.status).toBe(200);
      const record = await res.json();
      // when the auditor scores it offline
      const run = await spadesScore(record);
      expect(run.stderr).toBe('');
      expect(run.code).toBe(0);
      const scored = JSON.parse(run.stdout) as RecordResult;
      expect(scored.final).toEqual(game.score);
      // then each hand's last replay step shows the same points and totals
      expect(scored.hands).toHaveLength(game.hands.length);
      for (const [i, line] of scored.hands.entries()) {
        const first = await (await app.request(`/games/${game.gameId}/hands/${i + 1}/replay`)).text();
        const last = Number(attrValues(first, 'data-steps')[0]) - 1;
        const html = await (await app.request(`/games/${game.gameId}/hands/${i + 1}/replay?step=${last}`)).text();
        expect(attrValues(html, 'data-points').map(Number), `${game.gameId} hand ${i + 1}`).toEqual([line.NS.points, line.EW.points]);
        expect(attrValues(html, 'data-score').map(Number), `${game.gameId} hand ${i + 1}`).toEqual([line.NS.score, line.EW.score]);
        hands++;
      }
      // and the renege the judge upheld is in the record as the replay marks it
      expect(scored.hands.flatMap((h) => h.reneges).length).toBe(game.rows.flatMap((r) => r.reneges).length);
    }
    expect(hands).toBeGreaterThan(4);
    expect(games.flatMap((g) => g.claims).length).toBeGreaterThan(0);
  }, 30_000);
});

/** The parts of a game that do not depend on where in a ledger it was recorded. */
function comparable(game: GameModel) {
  // `recent` is the undo window: it holds when during the hand a claim was entered, which a
  // record does not say (it names the trick, and its claims follow the hand's cards).
  // `times` are when the ledger recorded the game's start and end: a record entered later has its own.
  const { handPositions: _h, rows, claims, recent: _r, closedHand, times: _t, ...rest } = game;
  return {
    ...rest,
    closedHand: closedHand ? { ...closedHand, playPositions: [] } : closedHand,
    rows: rows.map(({ position: _p, ...row }) => row),
    claims: claims.map((c) => ({ hand: c.hand, seat: c.seat, trick: c.trick, upheld: c.ruling?.upheld })),
  };
}

function comparableTournament(t: TournamentModel) {
  return {
    teams: t.teams,
    placings: t.placings,
    status: t.status,
    // Tables and clocks belong to the venue, not to the record.
    matches: t.matches.map(({ table: _t, clock: _c, ...m }) => m),
    latest: t.latest.map((l) => newsText(l, t)),
  };
}

describe('the records entered into a new tournament on a new ledger', () => {
  it('fold into the same games, standings, bracket and placings', async () => {
    // given the same event set up afresh, with no games played
    copy = tempLedger();
    const l = copy.ledger;
    const before = original.ledger.models.tournaments.t1!.model;
    l.execute(createTournament(l.models, { tournamentId: 't1', name: before.name, format: before.format }));
    for (const team of before.teams) l.execute(registerTeam(l.models, { tournamentId: 't1', teamId: team.teamId, name: team.name, players: team.players }));
    l.execute(startTournament(l.models, { tournamentId: 't1', order: [...before.teams].sort((a, b) => a.seed! - b.seed!).map((t) => t.teamId) }));
    const created = createApp({ ledger: l });
    const copyApp = created.app;
    const judge = await signedInAsJudge(copyApp, created.auth.users);

    // when each game's record is entered into its match, in the order the games were played, the
    // director drawing each later round with the cards the original's draw recorded
    const drawn = original.ledger.store
      .readAll()
      .filter((e) => e.type === 'BracketRoundDrawn')
      .map((e) => e.payload as { round: number; draws: { group: 'winners' | 'losers'; cards: Record<string, string>[] }[] });
    for (const game of games) {
      while (!l.models.tournaments.t1!.model.matches.some((m) => m.matchId === game.matchId)) {
        const next = drawn.shift()!;
        const cards = Object.fromEntries(next.draws.filter((d) => d.cards.length > 0).map((d) => [d.group, { cards: d.cards }]));
        l.execute(drawRound(l.models, { tournamentId: 't1', round: next.round, ...cards }));
      }
      const record = await (await app.request(`/games/${game.gameId}/record`)).json();
      const res = await copyApp.request('/api/games/import', {
        method: 'POST',
        headers: judge,
        body: JSON.stringify({ record, tournamentId: 't1', matchId: game.matchId }),
      });
      const body = (await res.json()) as { gameId: string; error?: string };
      expect(res.status, body.error).toBe(201);
      expect(body.gameId).toBe(game.gameId);
    }

    // then every game and the tournament read the same
    expect(Object.keys(l.models.games).sort()).toEqual(games.map((g) => g.gameId).sort());
    for (const game of games) expect(comparable(l.models.games[game.gameId]!)).toEqual(comparable(game));
    expect(comparableTournament(l.models.tournaments.t1!.model)).toEqual(comparableTournament(before));
    expect(l.store.verifyChain().ok).toBe(true);

    // and entering a record again is refused, with nothing appended
    const head = l.store.head().position;
    const again = await copyApp.request('/api/games/import', {
      method: 'POST',
      headers: judge,
      body: JSON.stringify({ record: await (await app.request(`/games/${games[0]!.gameId}/record`)).json(), tournamentId: 't1', matchId: games[0]!.matchId }),
    });
    expect(again.status).toBe(409);
    expect(await again.json()).toEqual({
      error: `tournament t1 match ${games[0]!.matchId} is done; a game can be entered only into a match that is ready or being played`,
    });
    expect(l.store.head().position).toBe(head);
  });
});

/**
 * A tournament's matches and entrants as resources of the read API, and the `playerId` that
 * names a player as a person across events wherever a player is named (entrants, slots, a game's
 * seats, the statistics). Every answer is checked against the served OpenAPI document.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../server/app/app.ts';
import { PROGRESSIVE_DEMO, createDemo } from '../server/serve/serve.ts';
import { driveTables } from '../server/serve/table-driver.ts';
import { type AuditLedger, playTournament, tempLedger } from './fixtures/audit-ledger.ts';
import { type ApiCall, documentChecked } from './fixtures/api-document.ts';
import { createTournament } from '../server/commands/tournament-commands.ts';
import { personOfEntry } from '../events/player-identity.ts';

let fixture: AuditLedger;
let api: ApiCall;

beforeAll(async () => {
  fixture = tempLedger();
  // A Pitt Boss event of 4 teams stopped while its tables play, and a progressive evening in its first round.
  await playTournament(fixture.ledger, { format: 'pitt-boss', teams: 4, seed: 'api', stopAt: 2000 });
  await createDemo(fixture.ledger, 'progressive');
  for (let i = 0; i < 40; i++) await driveTables(fixture.ledger, { tournamentId: PROGRESSIVE_DEMO, seed: 'api-evening' });
  // A small event played to its end, and one still taking entries.
  await playTournament(fixture.ledger, { tournamentId: 'done1', format: 'blp-2024', teams: 2, seed: 'dates', renegeChance: 0 });
  fixture.ledger.execute(createTournament(fixture.ledger.models, { tournamentId: 'open1', name: 'Open Entry', format: 'pitt-boss' }));
  ({ api } = await documentChecked(createApp({ ledger: fixture.ledger }).app));
});
afterAll(() => fixture.remove());

const T = '/api/v1/tournaments/{tournamentId}';
const M = `${T}/matches`;
const ONE = `${T}/matches/{matchId}`;
const E = `${T}/entrants`;
const G = '/api/v1/games/{gameId}';
const S = `${T}/stats`;

type Slot = { teamId: string | null; players: { playerId: string | null; name: string }[] };
type Match = {
  matchId: string;
  round: number;
  side: string;
  status: string;
  slots: Slot[];
  games: string[];
  gamesPlayed: { gameId: string; score: { NS: number; EW: number }; winner: string | null; links: { self: string } }[];
  links: { self: string; tournament: string };
};
type Entrant = { entrantId: string; kind: string; name: string; players: { playerId: string; name: string }[] };

const models = () => fixture.ledger.models;

describe('a tournament’s matches', () => {
  it('lists every match of the bracket with its slots’ players and its games’ scores', async () => {
    const { res, body } = await api('/api/v1/tournaments/t1/matches', M);
    expect(res.status).toBe(200);
    const matches = body!.matches as Match[];
    const model = models().tournaments.t1!.model;
    expect(matches.map((m) => [m.matchId, m.status, m.round])).toEqual(model.matches.map((m) => [m.matchId, m.status, m.round]));
    expect(body!.position).toBe(models().position);
    const played = matches.filter((m) => m.gamesPlayed.length > 0);
    expect(played.length).toBeGreaterThan(0);
    for (const match of played) {
      for (const game of match.gamesPlayed) {
        expect(game.score).toEqual(models().games[game.gameId]!.score);
        expect((await api(game.links.self, G)).res.status).toBe(200);
      }
    }
    // A seeded slot names its team's players by the ids the entrants give them: the people's.
    const first = matches.find((m) => m.slots[0]!.teamId === 'team1')!;
    expect(first.slots[0]!.players).toEqual([
      { playerId: 'p1a', name: 'P1a' },
      { playerId: 'p1b', name: 'P1b' },
    ]);
    for (const match of matches) {
      const one = await api(match.links.self, ONE);
      expect(one.res.status).toBe(200);
      expect({ ...one.body, position: undefined }).toEqual({ ...match, position: undefined });
    }
  });

  it('narrows the list by status, round and team, and ignores parameters it does not take', async () => {
    const all = (await api('/api/v1/tournaments/t1/matches', M)).body!.matches as Match[];
    const live = (await api('/api/v1/tournaments/t1/matches?status=live', M)).body!.matches as Match[];
    expect(live.length).toBeGreaterThan(0);
    expect(live).toEqual(all.filter((m) => m.status === 'live'));
    const round1 = (await api('/api/v1/tournaments/t1/matches?round=1', M)).body!.matches as Match[];
    expect(round1.length).toBeGreaterThan(0);
    expect(round1).toEqual(all.filter((m) => m.round === 1));
    const team = (await api('/api/v1/tournaments/t1/matches?teamId=team2&_=1712345', M)).body!.matches as Match[];
    expect(team.length).toBeGreaterThan(0);
    expect(team).toEqual(all.filter((m) => m.slots.some((s) => s.teamId === 'team2')));
    const both = (await api('/api/v1/tournaments/t1/matches?round=1&status=done', M)).body!.matches as Match[];
    expect(both).toEqual(all.filter((m) => m.round === 1 && m.status === 'done'));
    // A player of a progressive evening finds the tables they sat at.
    const evening = models().tournaments[PROGRESSIVE_DEMO]!;
    const player = evening.progressive!.rounds[0]!.seating[1]!.seats.E;
    const tables = (await api(`/api/v1/tournaments/${PROGRESSIVE_DEMO}/matches?teamId=${player}`, M)).body!.matches as Match[];
    expect(tables.map((t) => t.matchId)).toEqual(['R1-T2']);
  });

  it('refuses a wrong value of a parameter it takes with a sentence naming it', async () => {
    for (const [query, error] of [
      ['status=playing', "status must be one of waiting, ready, live, done, bye, forfeit, not 'playing'"],
      ['round=0', "round must be a round number, a whole number from 1, not '0'"],
      ['round=first', "round must be a round number, a whole number from 1, not 'first'"],
      ['round=1&round=2', 'round is given more than once: give one'],
    ] as const) {
      const { res, body } = await api(`/api/v1/tournaments/t1/matches?${query}`, M);
      expect(res.status, query).toBe(400);
      expect(body, query).toEqual({ error, code: 'invalid-parameter' });
    }
  });

  it('gives a progressive evening’s tables as matches whose sides are the partnerships seated there', async () => {
    const evening = models().tournaments[PROGRESSIVE_DEMO]!;
    const seating = evening.progressive!.rounds[0]!.seating[0]!;
    const { body } = await api(`/api/v1/tournaments/${PROGRESSIVE_DEMO}/matches/R1-T1`, ONE);
    expect(body).toMatchObject({ matchId: 'R1-T1', side: 'table', round: 1, table: 1 });
    const slots = body!.slots as Slot[];
    expect(slots.map((s) => s.players.map((p) => p.playerId))).toEqual([
      [seating.seats.N, seating.seats.S],
      [seating.seats.E, seating.seats.W],
    ]);
    const names = new Map(evening.model.teams.map((t) => [t.teamId, t.name]));
    expect(slots[0]!.players[0]!.name).toBe(names.get(seating.seats.N));
  });

  it('answers a match that is not there 404 with a sentence, now and as of a position', async () => {
    for (const [url, error] of [
      ['/api/v1/tournaments/t1/matches/W9-9', "tournament 't1' has no match 'W9-9'"],
      [`/api/v1/tournaments/${PROGRESSIVE_DEMO}/matches/R9-T1`, `tournament '${PROGRESSIVE_DEMO}' has no table 'R9-T1'`],
      ['/api/v1/tournaments/nope/matches/W1-1', "there is no tournament 'nope'"],
      ['/api/v1/tournaments/nope/matches', "there is no tournament 'nope'"],
      ['/api/v1/tournaments/t1/matches/W9-9?asOf=30', "tournament 't1' has no match 'W9-9' at ledger position 30"],
    ] as const) {
      const { res, body } = await api(url, url.includes('/matches/') ? ONE : M);
      expect(res.status, url).toBe(404);
      expect(body, url).toEqual({ error, code: 'not-found' });
    }
  });

  it('answers as the ledger stood at an earlier position', async () => {
    const { body } = await api('/api/v1/tournaments/t1/matches?asOf=30&status=live', M);
    expect(body!.position).toBe(30);
    const hands = (matches: Match[]) => matches.flatMap((m) => m.gamesPlayed).reduce((n, g) => n + g.score.NS + g.score.EW, 0);
    const now = (await api('/api/v1/tournaments/t1/matches', M)).body!.matches as Match[];
    const then = (await api('/api/v1/tournaments/t1/matches?asOf=200', M)).body!.matches as Match[];
    expect(hands(then)).not.toBe(hands(now));
    const position = models().tournaments.t1!.model.matches.find((m) => m.games.length > 0)!;
    const one = await api(`/api/v1/tournaments/t1/matches/${position.matchId}?asOf=200`, ONE);
    expect(one.body!.position).toBe(200);
  });
});

describe('a tournament’s entrants and their players’ ids', () => {
  it('gives each team’s players, in the roster’s order, with the ids of the people they are', async () => {
    const { body } = await api('/api/v1/tournaments/t1/entrants', E);
    const entrants = body!.entrants as Entrant[];
    const model = models().tournaments.t1!.model;
    expect(entrants.map((e) => e.entrantId)).toEqual(model.teams.map((t) => t.teamId));
    for (const entrant of entrants) {
      const team = model.teams.find((t) => t.teamId === entrant.entrantId)!;
      expect(entrant.kind).toBe('team');
      expect(entrant.players.map((p) => [p.playerId, p.name])).toEqual(
        team.players.map((name, i) => [personOfEntry(models().circuit, 't1', `${team.teamId}:${i + 1}`)!.playerId, name]),
      );
      expect(entrant.players.map((p) => p.playerId)).toEqual(team.players.map((name) => name.toLowerCase()));
    }
    // The tournament resource names the same ids beside the names it always gave.
    const teams = (
      (await api('/api/v1/tournaments/t1', T)).body!.entrants as { teams: { teamId: string; players: string[]; roster: { playerId: string }[] }[] }
    ).teams;
    expect(teams.flatMap((t) => t.roster.map((p) => p.playerId))).toEqual(entrants.flatMap((e) => e.players.map((p) => p.playerId)));
    expect(teams[0]!.players).toEqual(['P1a', 'P1b']);
  });

  it('gives a progressive evening’s players with the ids of the people they are', async () => {
    const { body } = await api(`/api/v1/tournaments/${PROGRESSIVE_DEMO}/entrants`, E);
    const entrants = body!.entrants as Entrant[];
    expect(entrants).toHaveLength(12);
    for (const entrant of entrants) {
      expect(entrant.kind).toBe('player');
      const person = personOfEntry(models().circuit, PROGRESSIVE_DEMO, entrant.entrantId)!;
      expect(entrant.players).toEqual([expect.objectContaining({ playerId: person.playerId, name: entrant.name })]);
    }
    expect((await api('/api/v1/tournaments/nope/entrants', E)).res.status).toBe(404);
  });

  it('names the player at each seat of a game by the same ids', async () => {
    const ids = async (tournamentId: string) =>
      new Map(
        ((await api(`/api/v1/tournaments/${tournamentId}/entrants`, E)).body!.entrants as Entrant[]).flatMap((e) =>
          e.players.map((p) => [p.playerId, p.name] as const),
        ),
      );
    for (const tournamentId of ['t1', PROGRESSIVE_DEMO]) {
      const known = await ids(tournamentId);
      const games = Object.values(models().games).filter((g) => g.tournamentId === tournamentId);
      expect(games.length).toBeGreaterThan(0);
      for (const game of games.slice(0, 6)) {
        const { body } = await api(`/api/v1/games/${game.gameId}`, G);
        const players = body!.players as Record<string, { playerId: string; name: string }>;
        expect(Object.keys(players).sort()).toEqual(['E', 'N', 'S', 'W']);
        for (const [seat, player] of Object.entries(players)) {
          expect(known.get(player.playerId), `${game.gameId} ${seat}`).toBe(player.name);
          expect(player.name).toBe((body!.seats as Record<string, string>)[seat]);
        }
      }
    }
    // N and S are one team's first and second player.
    const game = Object.values(models().games).find((g) => g.tournamentId === 't1')!;
    const players = (await api(`/api/v1/games/${game.gameId}`, G)).body!.players as Record<string, { playerId: string }>;
    const person = (entry: string) => personOfEntry(models().circuit, 't1', entry)!.playerId;
    expect([players.N!.playerId, players.S!.playerId]).toEqual([person(`${game.teams.NS}:1`), person(`${game.teams.NS}:2`)]);
  });

  it('names every player of the statistics by the same ids', async () => {
    for (const tournamentId of ['t1', PROGRESSIVE_DEMO]) {
      const entrants = (await api(`/api/v1/tournaments/${tournamentId}/entrants`, E)).body!.entrants as Entrant[];
      const { body } = await api(`/api/v1/tournaments/${tournamentId}/stats`, S);
      const players = (body!.stats as { players: { playerId?: string; name: string }[] }).players;
      expect(players.map((p) => [p.playerId, p.name]).sort()).toEqual(entrants.flatMap((e) => e.players.map((p) => [p.playerId, p.name])).sort());
    }
  });
});

describe('links between resources', () => {
  it('leads from a tournament to its statistics, matches and entrants', async () => {
    const links = (await api('/api/v1/tournaments/t1', T)).body!.links as Record<string, string>;
    expect((await api(links.stats!, S)).res.status).toBe(200);
    expect((await api(links.matches!, M)).res.status).toBe(200);
    expect((await api(links.entrants!, E)).res.status).toBe(200);
  });
});

describe('query parameters no resource takes', () => {
  it('are ignored, as a cache-buster is, beside asOf and alone', async () => {
    for (const [url, template] of [
      ['/api/v1/tournaments?_=1712345678901', '/api/v1/tournaments'],
      ['/api/v1/tournaments/t1?_=1&utm_source=club', T],
      ['/api/v1/tournaments/t1/stats?asof=3', S],
    ] as const) {
      expect((await api(url, template)).res.status, url).toBe(200);
    }
    const { body } = await api('/api/v1/tournaments/t1?_=9&asOf=30', T);
    expect(body!.position).toBe(30);
  });
});

describe('as-of reads', () => {
  it('answer an id that was not there at that position 404 even to a client holding an ETag of it', async () => {
    const tag = (await api('/api/v1/tournaments/t1?asOf=30', T)).res.headers.get('etag')!;
    expect(tag).toMatch(/^"30-/);
    for (const held of ['*', tag, `W/${tag}`]) {
      for (const [url, template, error] of [
        ['/api/v1/tournaments/nope?asOf=30', T, "there is no tournament 'nope' at ledger position 30"],
        [`/api/v1/tournaments/${PROGRESSIVE_DEMO}?asOf=30`, T, `there is no tournament '${PROGRESSIVE_DEMO}' at ledger position 30`],
        ['/api/v1/tournaments/nope/stats?asOf=30', S, "there is no tournament 'nope' at ledger position 30"],
        ['/api/v1/games/nope?asOf=30', G, "there is no game 'nope' at ledger position 30"],
      ] as const) {
        const { res, body } = await api(url, template, { headers: { 'if-none-match': held } });
        expect(res.status, `${url} ${held}`).toBe(404);
        expect(body).toEqual({ error, code: 'not-found' });
      }
    }
    // What was there is still spared.
    expect((await api('/api/v1/tournaments/t1?asOf=30', T, { headers: { 'if-none-match': tag } })).res.status).toBe(304);
    expect((await api('/api/v1/tournaments/t1?asOf=31', T, { headers: { 'if-none-match': '*' } })).res.status).toBe(304);
  });

  it('from one address at once wait their turn rather than being refused', async () => {
    const answers = await Promise.all([
      api('/api/v1/tournaments/t1?asOf=401', T),
      api('/api/v1/tournaments/t1/stats?asOf=401', S),
      api('/api/v1/tournaments/t1/matches?asOf=401', M),
    ]);
    expect(answers.map((a) => a.res.status)).toEqual([200, 200, 200]);
    for (const { body } of answers) expect(body!.position).toBe(401);
  });
});

describe('dates', () => {
  /** When the ledger recorded the event at each position, and the first event of a type matching a test. */
  const recorded = () => fixture.ledger.store.readAll();
  const atOf = (position: number) => String(recorded().find((e) => e.position === position)!.meta.at);
  const firstAt = (type: string, test: (payload: Record<string, unknown>) => boolean) => {
    const event = recorded().find((e) => e.type === type && test(e.payload as Record<string, unknown>));
    return event ? String(event.meta.at) : null;
  };

  it('gives each tournament when it was created, started and completed, as the ledger recorded them', async () => {
    const list = (await api('/api/v1/tournaments', '/api/v1/tournaments')).body!.tournaments as {
      tournamentId: string;
      createdAt: string;
      startedAt: string | null;
      completedAt: string | null;
    }[];
    expect(list.map((t) => t.tournamentId)).toEqual(['t1', PROGRESSIVE_DEMO, 'done1', 'open1']);
    for (const t of list) {
      expect(t.createdAt, t.tournamentId).toBe(firstAt('TournamentCreated', (p) => p.tournamentId === t.tournamentId));
      const one = (await api(`/api/v1/tournaments/${t.tournamentId}`, T)).body!;
      expect([one.createdAt, one.startedAt, one.completedAt]).toEqual([t.createdAt, t.startedAt, t.completedAt]);
    }
    const [t1, evening, done, open] = list;
    expect(t1!.startedAt).toBe(firstAt('TournamentStarted', (p) => p.tournamentId === 't1'));
    expect(evening!.startedAt).toBe(firstAt('TournamentStarted', (p) => p.tournamentId === PROGRESSIVE_DEMO));
    expect([t1!.completedAt, evening!.completedAt]).toEqual([null, null]);
    expect([open!.startedAt, open!.completedAt]).toEqual([null, null]);
    // The event is over when its final's deciding game ended.
    const final = models()
      .tournaments.done1!.model.matches.filter((m) => m.status === 'done')
      .at(-1)!;
    const lastGame = models().games[final.games.at(-1)!]!;
    expect(done!.completedAt).toBe(atOf(lastGame.handPositions.at(-1)!));
    expect(done!.startedAt! < done!.completedAt!).toBe(true);
  });

  it('gives each match and game when it started and completed', async () => {
    const matches = (await api('/api/v1/tournaments/done1/matches', M)).body!.matches as (Match & { startedAt: string | null; completedAt: string | null })[];
    const decided = matches.filter((m) => m.status === 'done');
    expect(decided.length).toBeGreaterThan(0);
    for (const match of decided) {
      const games = match.games.map((id) => models().games[id]!);
      expect(match.completedAt, match.matchId).toBe(atOf(Math.max(...games.map((g) => g.handPositions.at(-1)!))));
      const seated = firstAt('MatchStarted', (p) => p.matchId === match.matchId && p.tournamentId === 'done1');
      expect(match.startedAt, match.matchId).toBe(seated ?? firstAt('GameStarted', (p) => p.gameId === match.games[0]));
      for (const game of match.gamesPlayed as unknown as { gameId: string; startedAt: string; completedAt: string }[]) {
        expect(game.startedAt).toBe(firstAt('GameStarted', (p) => p.gameId === game.gameId));
        expect(game.completedAt).toBe(atOf(models().games[game.gameId]!.handPositions.at(-1)!));
        const full = (await api(`/api/v1/games/${game.gameId}`, G)).body!;
        expect([full.startedAt, full.completedAt]).toEqual([game.startedAt, game.completedAt]);
      }
    }
    // A match still being played has started and is not completed; one waiting for its teams has not started.
    const t1 = (await api('/api/v1/tournaments/t1/matches', M)).body!.matches as { status: string; startedAt: string | null; completedAt: string | null }[];
    const live = t1.find((m) => m.status === 'live')!;
    expect(live.startedAt).not.toBeNull();
    expect(live.completedAt).toBeNull();
    const waiting = t1.find((m) => m.status === 'waiting')!;
    expect([waiting.startedAt, waiting.completedAt]).toEqual([null, null]);
    // As of a position, the dates are those the ledger had recorded by then.
    const early = (
      await api(
        '/api/v1/tournaments/done1?asOf=' +
          (firstAt('TournamentCreated', (p) => p.tournamentId === 'done1')
            ? recorded().find((e) => e.type === 'TournamentCreated' && (e.payload as { tournamentId: string }).tournamentId === 'done1')!.position
            : 0),
        T,
      )
    ).body!;
    expect([early.startedAt, early.completedAt]).toEqual([null, null]);
  });
});

describe('the list of tournaments', () => {
  const L = '/api/v1/tournaments';
  type Summary = { tournamentId: string; createdAt: string };
  const ids = async (url: string) => ((await api(url, L)).body!.tournaments as Summary[]).map((t) => t.tournamentId);

  it('narrows by status, format and creation date', async () => {
    expect(await ids('/api/v1/tournaments?status=running')).toEqual(['t1', PROGRESSIVE_DEMO]);
    expect(await ids('/api/v1/tournaments?status=finished')).toEqual(['done1']);
    expect(await ids('/api/v1/tournaments?format=pitt-boss')).toEqual(['t1', 'open1']);
    const all = (await api(L, L)).body!.tournaments as Summary[];
    expect(await ids(`/api/v1/tournaments?since=${encodeURIComponent(all[2]!.createdAt)}`)).toEqual(['done1', 'open1']);
    expect(await ids('/api/v1/tournaments?since=2026-01-01')).toEqual(['t1', PROGRESSIVE_DEMO, 'done1', 'open1']);
    expect(await ids('/api/v1/tournaments?since=2026-01-02&format=pitt-boss')).toEqual([]);
  });

  it('pages by limit, each page linking to the next until the last', async () => {
    const seen: string[] = [];
    let url: string | null = '/api/v1/tournaments?limit=1';
    while (url !== null) {
      const { body }: { body: Record<string, unknown> | null } = await api(url, L);
      seen.push(...(body!.tournaments as Summary[]).map((t) => t.tournamentId));
      url = body!.next as string | null;
      expect(seen.length).toBeLessThanOrEqual(4);
    }
    expect(seen).toEqual(['t1', PROGRESSIVE_DEMO, 'done1', 'open1']);
    // The filters and the position asked for are carried to the next page.
    const created = fixture.ledger.store
      .readAll()
      .find((e) => e.type === 'TournamentCreated' && (e.payload as { tournamentId: string }).tournamentId === 'done1')!.position;
    const first = (await api(`/api/v1/tournaments?format=blp-2024&limit=1&asOf=${created}&_=1`, L)).body!;
    expect(first.position).toBe(created);
    expect((first.tournaments as Summary[]).map((t) => t.tournamentId)).toEqual(['done1']);
    expect(first.next).toBeNull();
    // open1 was not created yet at that position: no next page.
    expect((await api(`/api/v1/tournaments?format=pitt-boss&limit=1&asOf=${created}`, L)).body!.next).toBeNull();
    const head = models().position;
    const page = (await api(`/api/v1/tournaments?format=pitt-boss&limit=1&asOf=${head}`, L)).body!;
    const next = page.next as string;
    expect(next).toMatch(/format=pitt-boss/);
    const second = (await api(next, L)).body!;
    expect(second.position).toBe(head);
    expect((second.tournaments as Summary[]).map((t) => t.tournamentId)).toEqual(['open1']);
    expect(second.next).toBeNull();
    const now = (await api('/api/v1/tournaments?format=pitt-boss&limit=1', L)).body!;
    expect(await ids(now.next as string)).toEqual(['open1']);
    expect((await api(L, L)).body!.next).toBeNull();
  });

  it('refuses a wrong value of its parameters, and a cursor it did not give, with a sentence', async () => {
    for (const [query, error] of [
      ['status=over', "status must be one of registration, running, finished, not 'over'"],
      ['format=bridge', "format must be one of blp-2024, unc-intramural, pitt-boss, asher-theatre, tournament-spades, custom, not 'bridge'"],
      ['since=yesterday', "since must be a date or a date and time, ISO 8601 (2026-03-01 or 2026-03-01T18:00:00Z), not 'yesterday'"],
      ['limit=0', "limit must be a whole number from 1 to 100, not '0'"],
      ['limit=101', "limit must be a whole number from 1 to 100, not '101'"],
      ['cursor=abc', "the cursor 'abc' is not one this list gave; start again without it"],
    ] as const) {
      const { res, body } = await api(`/api/v1/tournaments?${query}`, L);
      expect(res.status, query).toBe(400);
      expect(body, query).toEqual({ error, code: query.startsWith('cursor') ? 'invalid-cursor' : 'invalid-parameter' });
    }
  });
});

describe('the as-of reads’ limit', () => {
  it('is told in RateLimit headers on an as-of answer, and not on an answer now', async () => {
    const { res } = await api('/api/v1/tournaments/t1?asOf=77', T);
    expect(res.headers.get('ratelimit-policy')).toBe('"as-of-reads";q=4;qu="concurrent-requests"');
    expect(res.headers.get('ratelimit')).toBe('"as-of-reads";r=4');
    expect(res.headers.get('access-control-expose-headers')).toMatch(/RateLimit-Policy, RateLimit/);
    const now = await api('/api/v1/tournaments/t1', T);
    expect(now.res.headers.get('ratelimit-policy')).toBeNull();
  });
});

/**
 * A drawn-partner ("blind draw") single elimination played to its end through the HTTP routes:
 * players registered alone from a paste, checked in, the draw previewed (nothing recorded) and
 * then recorded, the drawn teams started and every game entered on paper into its match; the
 * placings read back and checked against counts made here, and each player, one person from
 * registration to the last game, credited with the games their drawn teams played. With an odd
 * count, the player left over plays on two teams or sits out, as the director chooses.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { drawPartners } from '../engine/partner-draw.ts';
import { createRandom } from '../engine/random.ts';
import { personOfEntry } from '../events/player-identity.ts';
import { playerRecord } from '../events/player-record.ts';
import type { MatchModel } from '../events/read-models.ts';
import { importWin } from './paper-records.ts';
import { answer as answered, type Fixture, copyOf, makeFixture, send } from './routes-fixture.ts';
import { eventsOf, expectRebuildEqualsLive } from './tournament-ledger.ts';
import { applyEvent, emptyModels } from '../events/projections.ts';
import { projected } from '../events/store/served-ledger.ts';
import { replayProblem } from '../server/commands/replay-check.ts';
import { element, htmlText } from './fixtures/html.ts';

let fixture: Fixture;
beforeAll(async () => {
  fixture = await makeFixture();
}, 60_000);
afterAll(() => fixture.close());

type App = ReturnType<typeof copyOf>['app'];
type Ledger = ReturnType<typeof copyOf>['ledger'];
type Person = { playerId: string; name: string };
type DrawAnswer = {
  seed: string;
  odd: 'twice' | 'sit-out';
  teams: { teamId: string; name: string; players: Person[] }[];
  sittingOut: Person | null;
  twice: Person | null;
  absent: Person[];
};

const director = () => fixture.clients.director;

// The draw's answers are read field by field, as a client reads them.
const answer = (res: Response | Promise<Response>, status = 200) => answered<Record<string, any>>(res, status);

const NAMES = ['Ann Avery', 'Bob Baker', 'Cy Carter', 'Di Dunn', 'Ed Evans', 'Flo Fisher', 'Gus Gray', 'Hal Hines', 'Ivy Irwin', 'Jo Jones', 'Kit King'];

/** Creates a drawn-partner event and registers `count` players from one paste; returns their ids in paste order. */
async function setUp(app: App, ledger: Ledger, id: string, count: number, extra: Record<string, unknown> = {}): Promise<string[]> {
  await answer(
    send(app, director(), 'POST', '/director/tournaments', {
      json: { tournamentId: id, name: `Blind draw ${id}`, format: 'single-elimination', rules: 'blp-r1', gamesToWin: 1, partners: 'drawn', ...extra },
    }),
  );
  const pasted = await answer(
    send(app, director(), 'POST', `/director/tournaments/${id}/players/bulk`, { json: { lines: NAMES.slice(0, count).join('\n'), confirm: 'yes' } }),
  );
  expect(pasted.recorded).toBe(count);
  const ids = (pasted.entrants as { teamId: string }[]).map((e) => e.teamId);
  expect(eventsOf(ledger, 'PlayerRegistered').filter((e) => e.tournamentId === id)).toHaveLength(count);
  return ids;
}

async function checkIn(app: App, id: string, players: string[]): Promise<void> {
  for (const teamId of players) await answer(send(app, director(), 'POST', `/director/tournaments/${id}/check-in`, { json: { teamId } }));
}

/** Plays every match to the end on paper, the winner drawn from `seed`; returns each played match with its winner and loser. */
async function playOut(app: App, ledger: Ledger, id: string, seed: string) {
  const random = createRandom(seed);
  const played: { match: MatchModel; winner: string; loser: string }[] = [];
  const model = () => ledger.models.tournaments[id]!.model;
  for (let guard = 0; model().status !== 'finished'; guard++) {
    expect(guard).toBeLessThan(20);
    for (const match of model().matches.filter((m) => m.status === 'ready')) {
      const winner = match.teams[random.int(2)]!;
      await importWin(app, fixture.clients.judge, id, match, winner, 'blp-r1', `${seed}-${match.matchId}`);
      played.push({ match, winner, loser: match.teams[0] === winner ? match.teams[1]! : match.teams[0]! });
    }
  }
  return played;
}

/** Single elimination's placings counted from the matches played: the final's winner, its loser, then the losers of each earlier round, latest first, sharing a place. */
function countedPlacings(played: { match: MatchModel; winner: string; loser: string }[]): [string, number][] {
  const final = played.find((p) => p.match.matchId === 'F')!;
  const out: [string, number][] = [
    [final.winner, 1],
    [final.loser, 2],
  ];
  const rounds = [...new Set(played.filter((p) => p !== final).map((p) => p.match.round))].sort((a, b) => b - a);
  for (const round of rounds) {
    const place = out.length + 1;
    for (const p of played.filter((x) => x !== final && x.match.round === round)) out.push([p.loser, place]);
  }
  return out.sort((a, b) => a[1] - b[1] || a[0].localeCompare(b[0]));
}

/** The first drawn team's name, as the room's pages show it. */
const first0Name = (d: DrawAnswer) => d.teams[0]!.name;

describe('drawn partners through the HTTP routes and paper records', () => {
  it('registers players alone, previews and records the draw, plays the drawn teams to the end, and credits each player with their games', async () => {
    const { app, ledger } = copyOf(fixture);
    const id = 'blind';
    const players = await setUp(app, ledger, id, 9);

    // A team cannot register in an event whose partners are drawn, and nothing is drawn before anyone is here.
    const team = await answer(
      send(app, director(), 'POST', `/director/tournaments/${id}/teams`, { json: { name: 'Ready Made', player1: 'Xa', player2: 'Xb' } }),
      400,
    );
    expect(team.error).toBe('players register alone for Blind draw blind, and partners are drawn once check-in closes; register each player on their own');
    const early = await answer(send(app, director(), 'POST', `/director/tournaments/${id}/partners/draw`, { json: { seed: 'x' } }), 409);
    expect(early.error).toBe(
      'nobody has checked in to Blind draw blind yet (9 registered); partners are drawn from the players checked in, once check-in closes',
    );

    // Eight of the nine check in; the ninth never comes.
    const here = players.slice(0, 8);
    await checkIn(app, id, here);
    const startEarly = await answer(send(app, director(), 'POST', `/director/tournaments/${id}/start`, { json: {} }), 409);
    expect(startEarly.error).toBe('partners for Blind draw blind are not drawn yet; once check-in closes, draw partners, then start');

    // The room's pages show the players before the draw.
    for (const path of ['', '/leaderboard', '/bracket', '/rules']) {
      const page = await app.request(`/tournaments/${id}${path}`);
      expect(page.status, path).toBe(200);
    }
    expect((await app.request(`/screen?t=${id}`)).status).toBe(200);
    // The standings list the players under "Player", each linked to their own page, which answers.
    const standings = await (await app.request(`/tournaments/${id}/leaderboard`)).text();
    const links = [...standings.matchAll(new RegExp(`href="(/tournaments/${id}/(?:teams|players)/[^"]+)"`, 'g'))].map((m) => m[1]!);
    expect(links).toHaveLength(9);
    expect(links.every((link) => link.startsWith(`/tournaments/${id}/players/`))).toBe(true);
    for (const link of links) expect((await app.request(link)).status, link).toBe(200);
    expect(htmlText(standings)).toContain('Player');

    // The preview changes nothing.
    const before = ledger.models.position;
    const preview = (await answer(
      send(app, director(), 'POST', `/director/tournaments/${id}/partners/draw`, { json: { seed: 'blind-seed' } }),
    )) as DrawAnswer & {
      preview: boolean;
    };
    expect(preview.preview).toBe(true);
    expect(ledger.models.position).toBe(before);
    expect(eventsOf(ledger, 'PartnersDrawn')).toHaveLength(0);
    expect(preview.teams).toHaveLength(4);
    expect(preview.absent.map((p) => p.name)).toEqual([NAMES[8]]);

    // Confirmed with the same seed, the very teams previewed are recorded.
    const drawn = (await answer(
      send(app, director(), 'POST', `/director/tournaments/${id}/partners/draw`, { json: { seed: 'blind-seed', confirm: 'yes' } }),
    )) as DrawAnswer & { ok: boolean; done: string };
    expect(drawn.ok).toBe(true);
    expect(drawn.teams).toEqual(preview.teams);
    expect(drawn.done).toContain('Drew 4 teams');
    const [recorded] = eventsOf(ledger, 'PartnersDrawn');
    expect(recorded).toMatchObject({ tournamentId: id, seed: 'blind-seed', odd: 'sit-out', players: [...here].sort(), sittingOut: null, twice: null });
    expect(drawPartners(recorded!.players, recorded!.seed, recorded!.odd).teams.map((t) => t.teamId)).toEqual(drawn.teams.map((t) => t.teamId));
    // Every player checked in is on exactly one team; the one who did not is withdrawn.
    expect(drawn.teams.flatMap((t) => t.players.map((p) => p.playerId)).sort()).toEqual([...here].sort());
    expect(eventsOf(ledger, 'TeamWithdrawn').map((e) => e.teamId)).toEqual([players[8]]);

    // A draw stands: drawing again, checking in or registering now is refused, in words.
    const again = await answer(send(app, director(), 'POST', `/director/tournaments/${id}/partners/draw`, { json: { confirm: 'yes' } }), 409);
    expect(again.error).toBe('partners for Blind draw blind are already drawn (4 teams); a draw is made once and stands');
    const late = await answer(
      send(app, director(), 'POST', `/director/tournaments/${id}/players/bulk`, { json: { lines: 'Late Comer', confirm: 'yes' } }),
      409,
    );
    expect(late.error).toBe('partners for Blind draw blind are drawn, so registration is closed');
    const lateIn = await answer(send(app, director(), 'POST', `/director/tournaments/${id}/check-in`, { json: { teamId: players[0] } }), 409);
    expect(lateIn.error).toMatch(/^partners for Blind draw blind are drawn: Ann Avery plays on .+, which answers as a team now$/);

    // The drawn teams are the entrants: the start seeds them as any team event's.
    await answer(send(app, director(), 'POST', `/director/tournaments/${id}/start`, { json: { seed: 'start-seed' } }));
    const model = () => ledger.models.tournaments[id]!.model;
    expect(model().status).toBe('running');
    expect(
      model()
        .teams.map((t) => t.teamId)
        .sort(),
    ).toEqual(drawn.teams.map((t) => t.teamId).sort());

    const played = await playOut(app, ledger, id, 'blind-results');
    expect(played).toHaveLength(3);
    expect(
      model()
        .placings.map((p) => [p.teamId, p.place])
        .sort((a, b) => (a[1] as number) - (b[1] as number) || String(a[0]).localeCompare(String(b[0]))),
    ).toEqual(countedPlacings(played));
    const resource = await answer(app.request(`/api/v1/tournaments/${id}`));
    const champion = countedPlacings(played)[0]![0];
    expect((resource.standings as { teamId: string; place: number }[]).filter((t) => t.place === 1).map((t) => t.teamId)).toEqual([champion]);
    // The API gives the draw: its seed, what an odd player did, and the teams' players as people.
    expect(resource.partners).toMatchObject({ drawn: true, seed: 'blind-seed', odd: 'sit-out', sittingOut: null, twice: null });
    expect(resource.partners.teams.map((t: { teamId: string }) => t.teamId)).toEqual(drawn.teams.map((t) => t.teamId));
    expect(resource.partners.teams[0].players[0]).toEqual({
      playerId: personOfEntry(ledger.models.circuit, id, drawn.teams[0]!.players[0]!.playerId)!.playerId,
      entrantId: drawn.teams[0]!.players[0]!.playerId,
      name: drawn.teams[0]!.players[0]!.name,
    });
    // The API names each drawn team's players as the people who registered alone.
    expect(resource.entrants.kind).toBe('teams');
    for (const t of resource.entrants.teams as { teamId: string; roster: Person[] }[]) {
      const team = drawn.teams.find((d) => d.teamId === t.teamId)!;
      expect(t.roster.map((p) => p.playerId)).toEqual(team.players.map((p) => personOfEntry(ledger.models.circuit, id, p.playerId)!.playerId));
    }

    // Each player is one person: their record counts the games their drawn team played, and names their partner.
    for (const t of drawn.teams) {
      const games = played.filter((p) => p.winner === t.teamId || p.loser === t.teamId).length;
      for (const [k, p] of t.players.entries()) {
        const person = personOfEntry(ledger.models.circuit, id, p.playerId)!;
        const record = playerRecord(ledger.models, person.playerId)!;
        expect(record.totals.games).toBe(games);
        expect(record.events).toHaveLength(1);
        expect(record.events[0]).toMatchObject({ tournamentId: id, team: { teamId: t.teamId }, partner: { name: t.players[1 - k]!.name } });
        const api = await answer(app.request(`/api/v1/players/${person.playerId}`));
        expect(JSON.stringify(api)).toContain(t.name);
      }
    }

    // The team page names both players; the player's own page names their drawn partner.
    const first = drawn.teams[0]!;
    const teamPage = await (await app.request(`/tournaments/${id}/teams/${encodeURIComponent(first.teamId)}`)).text();
    expect(teamPage).toContain(first.players[0]!.name);
    expect(teamPage).toContain(first.players[1]!.name);
    for (const path of ['', '/leaderboard', '/bracket']) {
      const page = await app.request(`/tournaments/${id}${path}`);
      expect(page.status, path).toBe(200);
      if (path === '/leaderboard') expect(htmlText(await page.text())).toContain(first0Name(drawn));
    }
    // The rules sheet and the desk say partners are drawn, and what an odd player does.
    const rules = htmlText(await (await app.request(`/tournaments/${id}/rules`)).text());
    expect(rules).toContain('Partners are drawn: players register alone');
    expect(rules).toContain('the player left over sits out');
    const deskPage = htmlText(await (await app.request(`/director/tournaments/${id}`, { headers: { cookie: director().cookie } })).text());
    expect(deskPage).toContain('Single elimination, partners drawn');
    const playerPage = await app.request(`/tournaments/${id}/players/${first.players[0]!.playerId}`);
    expect(playerPage.status).toBe(200);
    const playerText = await playerPage.text();
    expect(playerText).toContain(`Your partner: ${first.players[1]!.name}`);
    expectRebuildEqualsLive(ledger);
  });

  for (const odd of ['twice', 'sit-out'] as const) {
    it(`with an odd count, the player left over ${odd === 'twice' ? 'plays on two teams' : 'sits out'}, as the director chooses`, async () => {
      const { app, ledger } = copyOf(fixture);
      const id = `odd-${odd}`;
      // The event is made for the other choice; the draw's own choice stands.
      const players = await setUp(app, ledger, id, 9, { oddPlayer: odd === 'twice' ? 'sit-out' : 'twice' });
      await checkIn(app, id, players);
      const drawn = (await answer(
        send(app, director(), 'POST', `/director/tournaments/${id}/partners/draw`, { json: { seed: `odd-${odd}`, odd, confirm: 'yes' } }),
      )) as DrawAnswer;
      const counts = new Map<string, number>();
      for (const t of drawn.teams) for (const p of t.players) counts.set(p.playerId, (counts.get(p.playerId) ?? 0) + 1);
      if (odd === 'twice') {
        expect(drawn.teams).toHaveLength(5);
        expect([...counts.keys()].sort()).toEqual([...players].sort());
        expect([...counts.entries()].filter(([, c]) => c === 2)).toEqual([[drawn.twice!.playerId, 2]]);
        expect(drawn.sittingOut).toBeNull();
      } else {
        expect(drawn.teams).toHaveLength(4);
        expect([...counts.values()].every((c) => c === 1)).toBe(true);
        expect(players.filter((p) => !counts.has(p))).toEqual([drawn.sittingOut!.playerId]);
        expect(drawn.twice).toBeNull();
      }
      expect(eventsOf(ledger, 'PartnersDrawn')[0]).toMatchObject({ odd });

      await answer(send(app, director(), 'POST', `/director/tournaments/${id}/start`, { json: { seed: 'start' } }));
      const played = await playOut(app, ledger, id, `odd-${odd}-results`);
      const model = ledger.models.tournaments[id]!.model;
      expect(
        model.placings.map((p) => [p.teamId, p.place]).sort((a, b) => (a[1] as number) - (b[1] as number) || String(a[0]).localeCompare(String(b[0]))),
      ).toEqual(countedPlacings(played));
      if (odd === 'twice') {
        // The player on two teams is one person, credited with the games of both.
        const twice = drawn.twice!;
        const games = played.filter((p) =>
          drawn.teams.some((t) => t.players.some((x) => x.playerId === twice.playerId) && (p.winner === t.teamId || p.loser === t.teamId)),
        ).length;
        const person = personOfEntry(ledger.models.circuit, id, twice.playerId)!;
        const record = playerRecord(ledger.models, person.playerId)!;
        expect(record.totals.games).toBe(games);
        expect(record.events).toHaveLength(2);
        const page = await (await app.request(`/tournaments/${id}/players/${twice.playerId}`)).text();
        expect(page).toContain('you play on two teams');
      } else {
        const page = await (await app.request(`/tournaments/${id}/players/${drawn.sittingOut!.playerId}`)).text();
        expect(page).toContain('You sit out');
      }
      expectRebuildEqualsLive(ledger);
    });
  }

  it('refuses a draw of fewer than 4 players, a draw in an event of registered teams, and an odd choice it does not know', async () => {
    const { app, ledger } = copyOf(fixture);
    const players = await setUp(app, ledger, 'small', 5);
    await checkIn(app, 'small', players.slice(0, 3));
    const few = await answer(send(app, director(), 'POST', '/director/tournaments/small/partners/draw', { json: { confirm: 'yes' } }), 409);
    expect(few.error).toBe('only 3 players have checked in to Blind draw small; it takes at least 4 to draw two teams');
    const odd = await answer(send(app, director(), 'POST', '/director/tournaments/small/partners/draw', { json: { odd: 'thrice' } }), 400);
    expect(odd.error).toContain("not 'thrice'");
    await answer(
      send(app, director(), 'POST', '/director/tournaments', { json: { tournamentId: 'teams', name: 'Teams', format: 'round-robin', rules: 'blp-r1' } }),
    );
    const teams = await answer(send(app, director(), 'POST', '/director/tournaments/teams/partners/draw', { json: { confirm: 'yes' } }), 409);
    expect(teams.error).toBe('Teams is played by teams that register together; it has no partners to draw');
    const bad = await answer(
      send(app, director(), 'POST', '/director/tournaments', {
        json: { tournamentId: 'eve', name: 'Eve', format: 'progressive', rules: 'tournament-spades', partners: 'drawn' },
      }),
      400,
    );
    expect(bad.error).toBe('tournament eve: progressive tables change partners every round, so they have no partners to draw');
    // The create form offers the choice in words, and its fields make a drawn-partner event.
    const home = htmlText(await (await app.request('/director', { headers: { cookie: director().cookie } })).text());
    expect(home).toContain('Players register alone, and partners are drawn once check-in');
    const made = await send(app, director(), 'POST', '/director/tournaments', {
      form: { tournamentId: 'formed', name: 'Formed', format: 'swiss', rules: 'standard', partners: 'drawn', oddPlayer: 'twice' },
    });
    expect(made.status).toBe(303);
    expect(ledger.models.tournaments.formed!.format).toMatchObject({ elimination: 'swiss', partners: 'drawn', oddPlayer: 'twice' });
    const lonely = await answer(
      send(app, director(), 'POST', '/director/tournaments', { json: { tournamentId: 'lonely', name: 'Lonely', format: 'swiss', oddPlayer: 'twice' } }),
      400,
    );
    expect(lonely.error).toBe('tournament lonely: what an odd player does is a choice of drawn partners only');
    expect(eventsOf(ledger, 'PartnersDrawn')).toHaveLength(0);
  });

  it('signs a player up alone from a phone, checks them in with their code, and holds every row to what a command would record', async () => {
    const { app, ledger } = copyOf(fixture);
    const id = 'phones';
    const from0 = ledger.models.position;
    const players = await setUp(app, ledger, id, 4);
    await answer(send(app, director(), 'POST', `/director/tournaments/${id}/sign-up`, { json: { open: true, cap: null } }));
    const phone = (path: string, body: unknown) =>
      app.request(
        path,
        { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) },
        { incoming: { socket: { remoteAddress: '10.9.0.1' } } },
      );
    // Before the draw the read API lists players alone, and says their partners are to be drawn.
    const waiting = await answer(app.request(`/api/v1/tournaments/${id}`));
    expect(waiting.entrants.kind).toBe('players');
    expect(waiting.partners).toEqual({ drawn: false, seed: null, odd: 'sit-out', teams: [], sittingOut: null, twice: null });
    const form = htmlText(await (await app.request(`/tournaments/${id}/sign-up`)).text());
    expect(form).toContain('You sign up alone: your partner is drawn once check-in closes.');
    expect(form).not.toContain('Second player');
    expect(form).not.toContain('Prize category');
    // Before the draw a player has a player's page, not a team's.
    const notTeam = await app.request(`/tournaments/${id}/teams/${players[0]}`);
    expect(notTeam.status).toBe(404);
    expect(htmlText(await notTeam.text())).toContain(`their partners are not drawn yet: ${players[0]}'s page is /tournaments/${id}/players/${players[0]}`);
    // One name is a player alone: no team name, no partner asked for.
    const signed = await answer(phone(`/tournaments/${id}/sign-up`, { name: 'Eve Ellis' }));
    expect(signed).toMatchObject({ status: 'registered', name: 'Eve Ellis', page: `/tournaments/${id}/players/${signed.teamId}` });
    expect(eventsOf(ledger, 'PlayerRegistered').at(-1)).toMatchObject({ tournamentId: id, playerId: signed.teamId, name: 'Eve Ellis' });
    const before = await (await app.request(`/tournaments/${id}/players/${signed.teamId}`)).text();
    expect(before).toContain('Registered: your partner is drawn once check-in closes');
    await answer(phone(`/tournaments/${id}/players/${signed.teamId}/check-in`, { code: signed.code }));
    await checkIn(app, id, players);
    const drawn = (await answer(
      send(app, director(), 'POST', `/director/tournaments/${id}/partners/draw`, { json: { odd: 'twice', confirm: 'yes' } }),
    )) as DrawAnswer;
    // The server chose the seed and recorded it: the ledger draws the same teams from it.
    expect(drawn.seed).toMatch(/^[0-9a-f]{24}$/);
    const [recorded] = eventsOf(ledger, 'PartnersDrawn');
    expect(recorded!.seed).toBe(drawn.seed);
    expect(drawn.teams.flatMap((t) => t.players.map((p) => p.playerId))).toContain(signed.teamId);

    // Every row, the draw among them, is what the command would record at that point of the ledger;
    // a draw forged with its teams paired otherwise is not what its seed gives.
    const models = emptyModels();
    let forged: string | null = null;
    for (const row of ledger.store.readAll({})) {
      const payload = row.payload as Record<string, unknown>;
      if (row.position > from0) expect(replayProblem(models, { stream: row.stream, type: row.type, payload }), `${row.position} ${row.type}`).toBeNull();
      if (row.type === 'PartnersDrawn') {
        type Drawn = { teamId: string; name: string; players: string[] };
        const teams = (recorded!.teams as Drawn[]).map((t, i, all) => ({ ...t, players: [t.players[0], all[(i + 1) % all.length]!.players[1]] }));
        forged = replayProblem(models, { stream: row.stream, type: row.type, payload: { ...payload, teams } });
      }
      applyEvent(models, projected(row));
    }
    expect(forged).toMatch(/^PartnersDrawn records teams .*, but at this point of the ledger it would be /);
  });

  it('draws at the desk: a preview that records nothing, one confirmation that records the teams shown, then the teams on the desk', async () => {
    const { app, ledger } = copyOf(fixture);
    const id = 'desk';
    const players = await setUp(app, ledger, id, 7);
    const desk = async () => htmlText(await (await app.request(`/director/tournaments/${id}`, { headers: { cookie: director().cookie } })).text());
    const waitingPage = await desk();
    expect(waitingPage).toContain('Players register alone; once check-in closes, partners are drawn from the players checked in (0 of 7)');
    // No team registration and no start before the draw.
    expect(waitingPage).not.toContain('Register a team');
    expect(waitingPage).not.toContain('data-action="preview-draw"');
    await checkIn(app, id, players.slice(0, 5));
    const hx = { 'hx-request': 'true' };
    const before = ledger.models.position;
    const preview = htmlText(await (await send(app, director(), 'POST', `/director/tournaments/${id}/partners/draw`, { form: { odd: 'twice' } }, hx)).text());
    expect(ledger.models.position).toBe(before);
    const step = element(preview, /<section[^>]*data-confirm-partners/);
    expect(step).toContain('Record this draw of partners?');
    expect(step).toContain('Not checked in, withdrawn by this draw: Flo Fisher, Gus Gray.');
    expect(step).toMatch(/plays on two teams/);
    const hidden = Object.fromEntries([...step.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)"/g)].map((m) => [m[1]!, m[2]!]));
    expect(hidden).toMatchObject({ odd: 'twice', confirm: 'yes' });
    const shown = [...step.matchAll(/<li data-team="([^"]+)">([^<]+)<\/li>/g)].map((m) => [m[1], m[2]]);
    expect(shown).toHaveLength(3);
    // The confirmation records the very teams previewed.
    const confirmed = await send(app, director(), 'POST', `/director/tournaments/${id}/partners/draw`, { form: hidden }, hx);
    expect(confirmed.status).toBe(200);
    const [recorded] = eventsOf(ledger, 'PartnersDrawn');
    expect(recorded!.teams.map((t: { teamId: string; name: string }) => [t.teamId, t.name])).toEqual(shown);
    const drawnPage = await desk();
    expect(drawnPage).toContain('Drawn partners');
    expect(drawnPage).not.toContain('data-action="preview-partner-draw"');
    for (const [, name] of shown) expect(drawnPage).toContain(name!);
    // The drawn teams are started from the desk's own seeding form now.
    expect(drawnPage).toContain('data-action="preview-draw"');
    // The same confirmation sent twice (a double tap) records nothing more; another draw is refused in words.
    const tap = htmlText(await (await send(app, director(), 'POST', `/director/tournaments/${id}/partners/draw`, { form: hidden }, hx)).text());
    expect(tap).toContain('Already recorded.');
    const { commandId: _, ...fresh } = hidden;
    const again = htmlText(await (await send(app, director(), 'POST', `/director/tournaments/${id}/partners/draw`, { form: fresh }, hx)).text());
    expect(again).toContain('partners for Blind draw desk are already drawn (3 teams); a draw is made once and stands');
    expect(eventsOf(ledger, 'PartnersDrawn')).toHaveLength(1);
  });

  for (const [format, extra] of [
    ['double-elimination', {}],
    ['round-robin', { rounds: 1 }],
    ['swiss', { rounds: 2 }],
  ] as const) {
    it(`starts a ${format} of drawn teams as any team event's`, async () => {
      const { app, ledger } = copyOf(fixture);
      const id = `drawn-${format}`;
      await answer(
        send(app, director(), 'POST', '/director/tournaments', {
          json: { tournamentId: id, name: `Drawn ${format}`, format, rules: 'blp-r1', gamesToWin: 1, partners: 'drawn', ...extra },
        }),
      );
      const pasted = await answer(
        send(app, director(), 'POST', `/director/tournaments/${id}/players/bulk`, { json: { lines: NAMES.slice(0, 8).join('\n'), confirm: 'yes' } }),
      );
      const players = (pasted.entrants as { teamId: string }[]).map((e) => e.teamId);
      await checkIn(app, id, players);
      const drawn = (await answer(
        send(app, director(), 'POST', `/director/tournaments/${id}/partners/draw`, { json: { seed: format, confirm: 'yes' } }),
      )) as DrawAnswer;
      await answer(send(app, director(), 'POST', `/director/tournaments/${id}/start`, { json: { seed: 'start' } }));
      const model = ledger.models.tournaments[id]!.model;
      expect(model.status).toBe('running');
      const teams = drawn.teams.map((t) => t.teamId).sort();
      const first = model.matches.filter((m) => m.round === 1 && m.status === 'ready');
      expect(first.length).toBeGreaterThan(0);
      // Round 1's matches are between drawn teams, each team once.
      expect(first.flatMap((m) => m.teams).sort()).toEqual(format === 'round-robin' ? [...teams].sort() : teams);
      await importWin(app, fixture.clients.judge, id, first[0]!, first[0]!.teams[0]!, 'blp-r1', `${id}-first`);
      expect(ledger.models.tournaments[id]!.model.matches.find((m) => m.matchId === first[0]!.matchId)!.winner).toBe(first[0]!.teams[0]);
    });
  }
});

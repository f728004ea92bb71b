/**
 * A team's own page tells it, in the room's words, where to go next: a bye, a table to be
 * seated at, the table it plays at now with the score, the match whose winner it waits for, out
 * with its place, champion. A progressive player's page tells where to sit, with whom, or that
 * the player sits out, with the total and place. The events are made by the director's and the
 * tables' own commands; the pages follow by themselves over their live channel.
 */
import { describe, expect, it } from 'vitest';
import type { Ledger } from '../events/store/sqlite/ledger.ts';
import { createApp } from '../server/app/app.ts';
import { channelOf, livePartials } from '../server/app/live-channels.tsx';
import { subjectChannelId } from '../server/audience/team-pages.tsx';
import { recordTricks } from '../server/commands/game-commands.ts';
import { checkInTeam, createTournament, registerPlayer, registerTeam, startTournament } from '../server/commands/tournament-commands.ts';
import { startMatch, startRound } from '../server/commands/match-commands.ts';
import { TableCodesPage } from '../views/director-pages.tsx';
import { TEAM_STATUS_ID } from '../views/team-page.tsx';
import { bidAll, deal, finishGame, send } from './routes-fixture.ts';
import { driveToEnd, tempLedger } from './tournament-ledger.ts';
import { waitFor } from './fixtures/live-server.ts';
import { element } from './fixtures/html.ts';

/** The page's text with tags taken out and spaces run together. */
const text = (html: string) =>
  html
    .replace(/<[^>]+>/g, ' ')
    .replace(/&amp;/g, '&')
    .replace(/&#39;/g, "'")
    .replace(/\s+/g, ' ')
    .trim();

async function page(app: ReturnType<typeof createApp>['app'], path: string): Promise<{ status: number; html: string; status_: string }> {
  const res = await app.request(path);
  const html = await res.text();
  return { status: res.status, html, status_: res.status === 200 ? text(element(html, /<section id="(team|player)-status"/)) : text(html) };
}

const draw = { cardN: 'AS', cardE: 'KD', cardS: '4C', cardW: '9H' };

/** A six-team single elimination (unc-intramural): seeds 1 and 2 draw byes in round 1. */
function sixTeams(ledger: Ledger): void {
  const m = ledger.models;
  ledger.execute(createTournament(m, { tournamentId: 'cup', name: 'Winter Cup', format: 'unc-intramural' }));
  ['Aces', 'Kings', 'Queens', 'Jacks', 'Tens', 'Nines'].forEach((name, i) =>
    ledger.execute(registerTeam(m, { tournamentId: 'cup', teamId: `team-${i + 1}`, name, players: [`${name} One`, `${name} Two`] })),
  );
}

describe('a team’s own page', () => {
  it('tells a team where to go next through the whole event, from check-in to champion', async () => {
    const ledger = tempLedger();
    sixTeams(ledger);
    const { app, auth, broadcaster } = createApp({ ledger });
    try {
      await auth.users.add('Dana Director', 'director', 'director-password');
      const login = await app.request('/login', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'Dana Director', password: 'director-password' }),
      });
      const director = { cookie: (login.headers.get('set-cookie') ?? '').split(';')[0]!, csrf: ((await login.json()) as { csrf: string }).csrf };
      const m = ledger.models;
      const t = () => m.tournaments.cup!.model;

      // Before the start: registered, then checked in.
      expect((await page(app, '/tournaments/cup/teams/team-3')).status_).toContain(
        'Registered: when you arrive, check in below with your code, or with the director',
      );
      ledger.execute(checkInTeam(m, { tournamentId: 'cup', teamId: 'team-3', at: '2026-01-01T09:00:00.000Z' }));
      const checked = await page(app, '/tournaments/cup/teams/team-3');
      expect(checked.status).toBe(200);
      expect(checked.status_).toContain('Queens Queens One & Queens Two');
      expect(checked.status_).toContain('Checked in: your first match is drawn when the director starts the event');

      for (let i = 1; i <= 6; i++) if (i !== 3) ledger.execute(checkInTeam(m, { tournamentId: 'cup', teamId: `team-${i}`, at: '2026-01-01T09:05:00.000Z' }));
      ledger.execute(startTournament(m, { tournamentId: 'cup', order: ['team-1', 'team-2', 'team-3', 'team-4', 'team-5', 'team-6'] }));
      const numberOf = (matchId: string) => t().matches.findIndex((x) => x.matchId === matchId) + 1;
      const ready = t().matches.filter((x) => x.status === 'ready');
      expect(ready).toHaveLength(2);
      const name = (id: string | null) => t().teams.find((x) => x.teamId === id)!.name;

      // The top seed has a bye: it waits for the winner of a first-round match.
      const byeMatch = t().matches.find((x) => x.status === 'bye' && x.winner === 'team-1')!;
      const itsNext = t().matches.find((x) => x.status === 'waiting' && x.teams.includes('team-1'))!;
      const feeder = ready.find((x) => numberOf(x.matchId) !== numberOf(byeMatch.matchId) && t().matches.indexOf(x) > t().matches.indexOf(byeMatch))!;
      const bye = await page(app, '/tournaments/cup/teams/team-1');
      expect(bye.status_).toContain('Bye this round');
      expect(bye.status_).toMatch(
        new RegExp(`Your next match: Round 2 \\(match ${numberOf(itsNext.matchId)}\\), waiting for match ${numberOf(feeder.matchId)}’s winner`),
      );
      expect(bye.html).toContain('data-next="bye"');
      // Its standing names the round once: single elimination's badge already says it.
      expect(bye.status_).toContain('Standing Playing round 2 Rank');

      // Both teams known, not yet seated: the table the match goes to, waiting for the director.
      const [first, second] = ready as [(typeof ready)[0], (typeof ready)[0]];
      const firstTeam = first.teams[0]!;
      const seat = await page(app, `/tournaments/cup/teams/${firstTeam}`);
      expect(seat.status_).toContain('Your next match: Table 1, waiting for the director to seat it');
      expect(seat.status_).toContain(`Round 1 (match ${numberOf(first.matchId)}) against ${name(first.teams[1])}`);
      expect((await page(app, `/tournaments/cup/teams/${second.teams[1]}`)).status_).toContain('Your next match: Table 2, waiting for the director to seat it');

      // The director seats the second match at table 4: its teams are told to go there, now.
      const seated = await send(app, director, 'POST', `/director/tournaments/cup/matches/${second.matchId}/start`, { json: { table: 4, ...draw } });
      expect(seated.status).toBe(200);
      const now = await page(app, `/tournaments/cup/teams/${second.teams[0]}`);
      expect(now.status_).toContain('Your next match: Table 4, now');
      expect(now.html).toContain('data-table="4"');
      expect(now.status_).toContain(`against ${name(second.teams[1])}`);
      // The score of the game at the table, live: after a hand is scored it shows.
      const gameId = t().matches.find((x) => x.matchId === second.matchId)!.games[0]!;
      deal(ledger, gameId);
      bidAll(ledger, gameId);
      ledger.execute(recordTricks(m, { gameId, tricks: { N: 4, S: 3, E: 3, W: 3 } }));
      const game = m.games[gameId]!;
      const side = game.teams.NS === second.teams[0] ? 'NS' : 'EW';
      const other = side === 'NS' ? 'EW' : 'NS';
      const scored = await page(app, `/tournaments/cup/teams/${second.teams[0]}`);
      expect(scored.html).toContain(`data-score="${game.score[side]}-${game.score[other]}"`);
      expect(game.score[side]).not.toBe(0);
      // The first match still goes to table 1: table 4 was not one of the free tables it waited for.
      expect((await page(app, `/tournaments/cup/teams/${firstTeam}`)).status_).toContain('Your next match: Table 1, waiting for the director to seat it');

      // The match is won: the winner waits for its next opponent, the loser is out.
      finishGame(ledger, gameId);
      const winner = t().matches.find((x) => x.matchId === second.matchId)!.winner!;
      const loser = second.teams.find((x) => x !== winner)!;
      const out = await page(app, `/tournaments/cup/teams/${loser}`);
      expect(out.status_).toContain('Out in round 1');
      expect(out.status_).toContain('Your place is settled when the event is over.');
      expect(out.status_).toContain(`Lost against ${name(winner)}`);
      const waits = await page(app, `/tournaments/cup/teams/${winner}`);
      const winnerNext = t().matches.find((x) => x.status !== 'done' && x.teams.includes(winner))!;
      expect(winnerNext.status).toBe('ready');
      expect(waits.status_).toContain(`Won against ${name(loser)}`);

      // Played to the end: the champion, and the others out with the place they share.
      await driveToEnd(ledger, 'cup', 'team-page');
      expect(t().status).toBe('finished');
      const champion = t().teams.find((x) => x.status === 'champion')!;
      const top = await page(app, `/tournaments/cup/teams/${champion.teamId}`);
      expect(top.status_).toContain('Champion');
      expect(top.status_).toContain('1st of 6');
      const firstRoundOut = await page(app, `/tournaments/cup/teams/${loser}`);
      expect(firstRoundOut.status_).toContain('Out in round 1, placed 5th–6th');
      expect(firstRoundOut.status_).toContain('Points (only a tiebreak)');
      const semi = t().placings.find((p) => p.place === 3)!.teamId;
      expect((await page(app, `/tournaments/cup/teams/${semi}`)).status_).toContain('Out in round 2, placed 3rd–4th');
      const runnerUp = t().placings.find((p) => p.place === 2)!.teamId;
      expect((await page(app, `/tournaments/cup/teams/${runnerUp}`)).status_).toContain(
        `Finished 2nd Final (match ${t().matches.length}): lost against ${champion.name}`,
      );

      // Each team's name on the bracket and the standings leads to its page; the TV's copies are not links.
      for (const path of ['/tournaments/cup/bracket', '/tournaments/cup/leaderboard']) {
        const html = await (await app.request(path)).text();
        for (let i = 1; i <= 6; i++) expect(html, path).toContain(`href="/tournaments/cup/teams/team-${i}"`);
      }
      expect(await (await app.request('/tournaments/cup/screen')).text()).not.toContain('/teams/');
    } finally {
      broadcaster.close();
      ledger.close();
    }
  });

  it('answers an unknown tournament or team with a not-found page naming what is missing, and refuses its stream', async () => {
    const ledger = tempLedger();
    sixTeams(ledger);
    const { app, broadcaster } = createApp({ ledger });
    try {
      const noTournament = await page(app, '/tournaments/nope/teams/team-1');
      expect(noTournament.status).toBe(404);
      expect(noTournament.status_).toContain('tournament nope does not exist');
      const noTeam = await page(app, '/tournaments/cup/teams/team-99');
      expect(noTeam.status).toBe(404);
      expect(noTeam.status_).toContain('Winter Cup has no team team-99');
      const stream = await app.request('/tournaments/cup/teams/team-99/stream');
      expect(stream.status).toBe(404);
      expect(await stream.json()).toEqual({ error: 'Winter Cup has no team team-99' });
      const player = await page(app, '/tournaments/cup/players/team-1');
      expect(player.status).toBe(404);
      expect(player.status_).toContain('Winter Cup is played by teams, not single players');
    } finally {
      broadcaster.close();
      ledger.close();
    }
  });

  it('sends its live region again when an entry changes it, over the page’s own stream', async () => {
    const ledger = tempLedger();
    sixTeams(ledger);
    const m = ledger.models;
    ledger.execute(startTournament(m, { tournamentId: 'cup', order: ['team-1', 'team-2', 'team-3', 'team-4', 'team-5', 'team-6'] }));
    const ready = m.tournaments.cup!.model.matches.find((x) => x.status === 'ready')!;
    const team = ready.teams[0]!;
    const channel = channelOf('team', subjectChannelId('cup', team));
    const before = livePartials(channel, m)!.get(TEAM_STATUS_ID)!;
    expect(before).toContain('Your next match: Table 1, waiting for the director to seat it');
    expect(before).toContain('<hx-partial hx-target="#team-status"');
    // The director seats the match at table 3: the region now sends the team there.
    ledger.execute(startMatchAt(ledger, ready.matchId, 3));
    const after = livePartials(channel, m)!.get(TEAM_STATUS_ID)!;
    expect(after).not.toBe(before);
    expect(after).toContain('Your next match: Table 3, now');
    expect(livePartials(channelOf('team', subjectChannelId('cup', 'team-99')), m)).toBeNull();

    // The page's stream: a hand entered at the table reaches it as the region with the new score.
    const { app, broadcaster } = createApp({ ledger });
    try {
      const page = await app.request(`/tournaments/cup/teams/${team}`);
      const url = /hx-sse:connect="([^"]+)"/.exec(await page.text())![1]!.replace(/&amp;/g, '&');
      expect(url).toBe(`/tournaments/cup/teams/${team}/stream?after=${m.position}`);
      const response = await app.request(url);
      expect(response.headers.get('content-type')).toContain('text/event-stream');
      const reader = response.body!.getReader();
      let received = '';
      const reading = (async () => {
        for (;;) {
          const { done, value } = await reader.read().catch(() => ({ done: true, value: undefined }));
          if (done || !value) return;
          received += new TextDecoder().decode(value);
        }
      })();
      await waitFor('the page to attach', () => broadcaster.hasClients(channel));
      const gameId = m.tournaments.cup!.model.matches.find((x) => x.matchId === ready.matchId)!.games[0]!;
      deal(ledger, gameId);
      bidAll(ledger, gameId);
      ledger.execute(recordTricks(m, { gameId, tricks: { N: 4, S: 3, E: 3, W: 3 } }));
      const game = m.games[gameId]!;
      const side = game.teams.NS === team ? 'NS' : 'EW';
      const score = `data-score="${game.score[side]}-${game.score[side === 'NS' ? 'EW' : 'NS']}"`;
      await waitFor('the new score on the stream', () => received.includes(score));
      expect(received).toContain(`id: ${m.position}`);
      expect(received).toContain('hx-target="#team-status"');
      await reader.cancel();
      await reading;
    } finally {
      broadcaster.close();
      ledger.close();
    }
  });
});

/** The director's seating of a match at a table, as its route decides it. */
function startMatchAt(ledger: Ledger, matchId: string, table: number, tournamentId = 'cup') {
  return startMatch(ledger.models, {
    tournamentId,
    matchId,
    table,
    at: '2026-01-01T10:00:00.000Z',
    draw: { method: 'high-card', rounds: [{ N: 'AS', E: 'KS', S: 'QS', W: 'JS' }] },
  });
}

describe('a team’s page in a bracket drawn round by round (blp-2024)', () => {
  it('says a team drawn a bye sits this round out, and when its next match is drawn', async () => {
    const ledger = tempLedger();
    const m = ledger.models;
    ledger.execute(createTournament(m, { tournamentId: 'blp', name: 'BLP Five', format: 'blp-2024' }));
    for (let i = 1; i <= 5; i++) ledger.execute(registerTeam(m, { tournamentId: 'blp', teamId: `t${i}`, name: `Team ${i}`, players: [`P${i}a`, `P${i}b`] }));
    ledger.execute(startTournament(m, { tournamentId: 'blp', seed: 'bye-page' }));
    const { app, broadcaster } = createApp({ ledger });
    try {
      const bye = m.tournaments.blp!.model.matches.find((x) => x.status === 'bye')!;
      const team = bye.winner!;
      const sits = await page(app, `/tournaments/blp/teams/${team}`);
      expect(sits.status_).toContain('Bye this round');
      expect(sits.status_).toContain('Your next match: round 2, drawn once round 1 is decided');
      expect(sits.status_).toContain(`${bye.label} (match ${m.tournaments.blp!.model.matches.indexOf(bye) + 1}) Bye`);
      // Round 1 played: no bye now, the next match waits for the director's draw.
      for (const match of m.tournaments.blp!.model.matches.filter((x) => x.status === 'ready')) {
        ledger.execute(startMatchAt(ledger, match.matchId, 1, 'blp'));
        finishGame(ledger, m.tournaments.blp!.model.matches.find((x) => x.matchId === match.matchId)!.games[0]!);
      }
      const drawn = await page(app, `/tournaments/blp/teams/${team}`);
      expect(drawn.html).toContain('data-next="draw"');
      expect(drawn.status_).toContain('Your next match: round 2, drawn once round 1 is decided');
      expect(drawn.status_).not.toContain('Bye this round');
    } finally {
      broadcaster.close();
      ledger.close();
    }
  });
});

describe('a player’s page in a progressive evening', () => {
  it('tells a player where to sit and with whom, or that they sit out, with their total and place', async () => {
    const ledger = tempLedger();
    const m = ledger.models;
    ledger.execute(createTournament(m, { tournamentId: 'eve', name: 'Thursday Progressive', format: 'tournament-spades', options: { rounds: 2 } }));
    for (const name of ['Ada', 'Ben', 'Cy', 'Dee', 'Eve', 'Fay', 'Gus', 'Hal', 'Ivy'])
      ledger.execute(registerPlayer(m, { tournamentId: 'eve', playerId: name.toLowerCase(), name }));
    const { app, broadcaster } = createApp({ ledger });
    try {
      expect((await page(app, '/tournaments/eve/players/ada')).status_).toContain(
        'Registered: the first seating is drawn when the director starts the evening',
      );
      ledger.execute(startTournament(m, { tournamentId: 'eve', seed: 'player-page' }));
      const p = () => m.tournaments.eve!.progressive!;
      const table = p().nextSeating![0]!;
      const resting = p().nextSittingOut[0]!;
      const nameOf = (id: string) => p().players.find((x) => x.playerId === id)!.name;
      const north = await page(app, `/tournaments/eve/players/${table.seats.N}`);
      expect(north.status_).toContain('Round 1: sit at Table 1, North');
      expect(north.status_).toContain(`Partner ${nameOf(table.seats.S)}, against ${nameOf(table.seats.E)} & ${nameOf(table.seats.W)}`);
      const out = await page(app, `/tournaments/eve/players/${resting}`);
      expect(out.status_).toContain('You sit out round 1');
      // The public standings page says where everyone sits, each name leading to the player's page.
      const board = await (await app.request('/tournaments/eve/leaderboard')).text();
      expect(element(board, /<section id="where-to-sit"/)).toContain(`href="/tournaments/eve/players/${resting}"`);

      // The round is seated: the player plays now, with the table's score.
      ledger.execute(startRound(m, { tournamentId: 'eve', seed: 'dealers-1' }));
      const playing = await page(app, `/tournaments/eve/players/${table.seats.E}`);
      expect(playing.status_).toContain('Round 1, now: Table 1, East');
      expect(playing.html).toContain('data-score="0-0"');

      await driveToEnd(ledger, 'eve', 'player-page');
      expect(m.tournaments.eve!.model.status).toBe('finished');
      const standing = p().standings.find((s) => s.playerId === resting)!;
      const done = await page(app, `/tournaments/eve/players/${resting}`);
      expect(done.status_).toContain('The evening is over');
      expect(done.html).toContain(`data-total="${standing.total}"`);
      expect(done.html).toContain(`data-place="${standing.place}"`);
      expect(done.status_).toContain('Round 1 Sat out');
      expect(element(await (await app.request('/tournaments/eve/leaderboard')).text(), /<section id="individual-standings"/)).toContain(
        `href="/tournaments/eve/players/${resting}"`,
      );
      // A progressive evening has players: its team address says where the player's page is.
      const asTeam = await page(app, '/tournaments/eve/teams/ada');
      expect(asTeam.status).toBe(404);
      expect(asTeam.status_).toContain('/tournaments/eve/players/ada');
    } finally {
      broadcaster.close();
      ledger.close();
    }
  });
});

describe('the printed cards', () => {
  it('print a QR code to each team’s page beside the table cards', () => {
    const html = String(
      TableCodesPage({
        tournamentName: 'Winter Cup',
        cards: [{ table: 1, code: 'ABCDEFGHJK', link: 'http://192.168.1.20:3000/join?code=ABCDEFGHJK' }],
        teams: [{ name: 'Aces', link: 'http://192.168.1.20:3000/tournaments/cup/teams/team-1' }],
      }),
    );
    const card = element(html, /<li class="table-card team-card"/);
    expect(card).toContain('Aces');
    expect(card).toContain('aria-label="QR link to the page of Aces"');
    expect(card).toContain('http://192.168.1.20:3000/tournaments/cup/teams/team-1');
  });
});

/**
 * What the room sees of a league (Swiss, round robin): the venue screen's round of pairings at
 * their tables and its standings with each tiebreak's value, the standings page with the ranking
 * in words and a tie at the top said, each team's page ("Round 3: table 1 against …"), and the
 * screen's stream carrying the pairings as results come in; every figure checked against counts
 * made here from the games and matches the ledger holds.
 */
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { importRecord } from '../events/record-import.ts';
import { type Ledger, openLedger } from '../events/store/sqlite/ledger.ts';
import { readyTables } from '../events/table-assignment.ts';
import { createApp } from '../server/app/app.ts';
import { channelOf, livePartials } from '../server/app/live-channels.tsx';
import { enterRound, roundRobinMidway, startLeague, swissMidway } from './fixtures/league-events.ts';
import { removeTempDirs, tempDir } from './fixtures/live-server.ts';
import { wonRecord } from './paper-records.ts';

let ledger: Ledger | undefined;
afterEach(() => {
  ledger?.close();
  ledger = undefined;
  removeTempDirs();
});

function open(): Ledger {
  ledger = openLedger({ path: join(tempDir(), 'spades.db'), synchronous: 'NORMAL' });
  return ledger;
}

/** A page's words as a reader gets them: tags gone, spaces run together. */
function words(html: string): string {
  return html
    .replace(/<[^>]+>/g, ' ')
    .replace(/&amp;/g, '&')
    .replace(/&#39;/g, "'")
    .replace(/\s+([.,:])/g, '$1')
    .replace(/\s+/g, ' ');
}

async function page(l: Ledger, path: string): Promise<string> {
  const res = await createApp({ ledger: l }).app.request(path);
  expect(res.status).toBe(200);
  return res.text();
}

/** Each team's points scored minus conceded, counted from the tournament's games. */
function differences(l: Ledger, tournamentId: string): Map<string, number> {
  const diff = new Map<string, number>();
  for (const game of Object.values(l.models.games)) {
    if (game.tournamentId !== tournamentId) continue;
    diff.set(game.teams.NS, (diff.get(game.teams.NS) ?? 0) + game.score.NS - game.score.EW);
    diff.set(game.teams.EW, (diff.get(game.teams.EW) ?? 0) + game.score.EW - game.score.NS);
  }
  return diff;
}

const signed = (n: number) => (n > 0 ? `+${n}` : n < 0 ? `−${-n}` : '0');

describe('a Swiss event on the venue screen', () => {
  it('shows the round in play as “Table N: A against B” and the standings with each tiebreak’s value, not a bracket', async () => {
    const l = open();
    swissMidway(l);
    const model = l.models.tournaments.swiss16!.model;
    const name = (id: string | null) => model.teams.find((t) => t.teamId === id)!.name;
    const html = await page(l, '/tournaments/swiss16/screen');
    const text = words(html);
    expect(text).toContain('Round 3 of 5: pairings');
    expect(html).not.toContain('Winners’ bracket');
    // Counted here: no table plays, so round 3's open matches take tables 1, 2, 3, 4 in order.
    const open3 = model.matches.filter((m) => m.round === 3 && m.status === 'ready');
    expect(open3).toHaveLength(4);
    open3.forEach((m, i) => expect(text).toContain(`Table ${i + 1}: ${name(m.teams[0])} against ${name(m.teams[1])} To be seated`));
    // The decided ones say who won.
    for (const m of model.matches.filter((x) => x.round === 3 && x.status === 'done'))
      expect(text).toContain(`${name(m.teams[0])} against ${name(m.teams[1])} ${name(m.winner)} won`);
    expect(text).toContain('Round 4 of 5 is paired from the standings once round 3 is over.');
    // The standings: every team's row in the league's order, its points difference as counted here.
    const diff = differences(l, 'swiss16');
    const rows = [...html.matchAll(/<tr data-team="([^"]+)"[^>]*>.*?<\/tr>/g)].map((r) => ({
      team: r[1]!,
      diff: /data-tiebreak="points-difference">([^<]+)</.exec(r[0])![1],
      share: /data-tiebreak="opponents-match-wins">([^<]+)</.exec(r[0])![1],
    }));
    expect(rows.map((r) => r.team)).toEqual(model.league!.rows.map((r) => r.teamId));
    for (const row of rows) expect(row.diff, row.team).toBe(signed(diff.get(row.team) ?? 0));
    expect(rows.every((r) => /^\d+\.\d%$/.test(r.share!))).toBe(true);
    expect(text).toContain('Swiss: ranked by matches won, then the share of matches won by the teams played, then points scored minus points conceded.');
  });

  it('carries the pairings and the standings in the screen’s stream, and a result entered changes them', async () => {
    const l = open();
    swissMidway(l);
    const channel = channelOf('screen', 'swiss16');
    const before = livePartials(channel, l.models)!;
    expect([...before.keys()]).toContain('league-rounds');
    expect([...before.keys()]).toContain('leaderboard');
    expect([...before.keys()]).not.toContain('bracket');
    const match = l.models.tournaments.swiss16!.model.matches.find((m) => m.round === 3 && m.status === 'ready')!;
    l.execute(importRecord(l.models, wonRecord('blp-r1', 'EW', 'stream'), { tournamentId: 'swiss16', matchId: match.matchId }, '2026-03-01T13:00:00.000Z'));
    const winner = l.models.tournaments.swiss16!.model.teams.find((t) => t.teamId === match.teams[1])!.name;
    const after = words(livePartials(channel, l.models)!.get('league-rounds')!);
    expect(after).toContain(`${winner} won`);
    expect(after).not.toContain(`Table 1: ${l.models.tournaments.swiss16!.model.teams.find((t) => t.teamId === match.teams[0])!.name}`);
  });
});

describe('a large Swiss event on the venue screen', () => {
  it('keeps the round to what the panel holds, the matches still to play first, and says how many are left off', async () => {
    const l = open();
    startLeague(l, 'big', 'Big Swiss', 'swiss', 64, 6);
    enterRound(l, 'big', 1, 'big', 20);
    const html = await page(l, '/tournaments/big/screen');
    const rounds = html.slice(html.indexOf('id="league-rounds"'));
    const items = [...rounds.matchAll(/<li class="pairing pairing--([a-z-]+)"/g)].map((m) => m[1]);
    // Counted here: 32 matches, 20 decided; 16 fit, the 12 open ones before any decided, and a line says the rest.
    expect(items).toHaveLength(17);
    // In table order: the first 4 decided, then all 12 still to play.
    expect(items.slice(0, 16)).toEqual([...Array(4).fill('decided'), ...Array(12).fill('to-seat')]);
    expect(words(rounds)).toContain('And 16 more matches of round 1, every one on the standings page');
    // The standings page lists every one.
    expect([...(await page(l, '/tournaments/big/leaderboard')).matchAll(/<li class="pairing pairing--/g)]).toHaveLength(32);
  });
});

describe('a league team’s page', () => {
  it('says the round, table and opponent, its record, its points difference and its place in the table', async () => {
    const l = open();
    swissMidway(l);
    const model = l.models.tournaments.swiss16!.model;
    const match = model.matches.find((m) => m.round === 3 && m.status === 'ready')!;
    const teamId = match.teams[0]!;
    const opponent = model.teams.find((t) => t.teamId === match.teams[1])!.name;
    const text = words(await page(l, `/tournaments/swiss16/teams/${teamId}`));
    expect(text).toContain(`Round 3: table 1 against ${opponent}`);
    const row = model.league!.rows.find((r) => r.teamId === teamId)!;
    const team = model.teams.find((t) => t.teamId === teamId)!;
    expect(text).toContain(`Matches won–lost ${team.wins}–${team.losses}`);
    expect(text).toContain(`Points scored minus points conceded ${signed(differences(l, 'swiss16').get(teamId) ?? 0)}`);
    expect(text).toMatch(new RegExp(`Place ${row.place}(st|nd|rd|th) of 16`));
    // A team whose round 3 is decided waits for round 4's pairing.
    const done = model.matches.find((m) => m.round === 3 && m.status === 'done')!;
    expect(words(await page(l, `/tournaments/swiss16/teams/${done.winner}`))).toContain('Round 4: paired from the standings once round 3 is over');
  });
});

describe('a round robin’s standings and schedule', () => {
  it('gives a team one table at a time, and seats a later round’s match once both its teams are free', () => {
    const l = open();
    roundRobinMidway(l);
    const matches = l.models.tournaments.robin16!.model.matches;
    const tables = readyTables(matches);
    const seated = matches.filter((m) => tables.has(m.matchId));
    const teams = seated.flatMap((m) => m.teams);
    expect(new Set(teams).size).toBe(teams.length);
    expect([...tables.values()].sort((a, b) => a - b)).toEqual(seated.map((_, i) => i + 1));
    // Counted here: a round-5 match is seated exactly when neither team has round 4 still to play.
    const pending4 = new Set(matches.filter((m) => m.round === 4 && m.status === 'ready').flatMap((m) => m.teams));
    for (const m of matches.filter((x) => x.round === 5)) expect(tables.has(m.matchId), m.matchId).toBe(!pending4.has(m.teams[0]) && !pending4.has(m.teams[1]));
    expect(matches.filter((m) => m.round === 5 && tables.has(m.matchId)).length).toBeGreaterThan(0);
  });

  it('states a tie at the top that no tiebreak breaks, and says each place’s tiebreak in words', async () => {
    const l = open();
    startLeague(l, 'ring', 'Ring', 'round-robin', 3, 1);
    // Counted here: each team beats the next round the ring by the very same game, so all three
    // are level on matches, games, points difference and head-to-head.
    const beats: Record<string, string> = { 'ring-1': 'ring-2', 'ring-2': 'ring-3', 'ring-3': 'ring-1' };
    for (const m of l.models.tournaments.ring!.model.matches.filter((x) => x.status === 'ready')) {
      const side = beats[m.teams[0]!] === m.teams[1] ? 'NS' : 'EW';
      l.execute(importRecord(l.models, wonRecord('blp-r1', side, 'same'), { tournamentId: 'ring', matchId: m.matchId }, '2026-03-01T13:00:00.000Z'));
    }
    expect(l.models.tournaments.ring!.model.status).toBe('finished');
    const text = words(await page(l, '/tournaments/ring/leaderboard'));
    expect(text).toContain('Tied for 1st: Aces High, Big Books and Nil Nation.');
    expect(text.match(/Level on every tiebreak: shares 1st/g)).toHaveLength(3);
    expect(text).toContain(
      'Round robin: ranked by matches won, then games won, then points scored minus points conceded, then matches won between the teams still level.',
    );
    // Each round with its bye, the teams' rounds folded under their titles.
    expect(text).toContain('Round 1 of 3, over');
    expect(text.match(/Bye: /g)).toHaveLength(3);
  });

  it('places a team below another by the tiebreak that split them, in words', async () => {
    const l = open();
    roundRobinMidway(l);
    const html = await page(l, '/tournaments/robin16/leaderboard');
    const rows = l.models.tournaments.robin16!.model.league!.rows;
    const split = rows.find((r) => r.separatedBy === 'points-difference' || r.separatedBy === 'games-won')!;
    expect(split).toBeDefined();
    const words_ = split.separatedBy === 'games-won' ? 'games won' : 'points scored minus points conceded';
    const row = new RegExp(`<tr data-team="${split.teamId}"[^>]*>.*?</tr>`).exec(html)![0];
    expect(words(row)).toContain(`Below the team above on ${words_}`);
    // The schedule: the round in play open, every other round folded under its title.
    expect(words(html)).toContain('Round 4 of 15, in play');
    expect(html.match(/<details class="league-round"/g)).toHaveLength(14);
    // The bracket's page shows the same rounds, not a knockout's tree, and so does its stream.
    const bracket = words(await page(l, '/tournaments/robin16/bracket'));
    expect(bracket).toContain('Rounds Round 1 of 15, over');
    expect(bracket).not.toContain('Winners’ bracket');
    expect([...livePartials(channelOf('bracket', 'robin16'), l.models)!.keys()]).toEqual(['league-rounds']);
    // The bracket embed a club's site frames shows the rounds too, in the region its stream refreshes.
    const embed = await page(l, '/embed/tournaments/robin16/bracket');
    expect(words(embed)).toContain('Rounds Round 1 of 15, over');
    expect(embed).toContain('id="league-rounds"');
    expect(words(embed)).not.toContain('Winners’ bracket');
  });
});

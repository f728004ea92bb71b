import { describe, expect, it } from 'vitest';
import type { Seat } from '../engine/cards.ts';
import type { GameModel, HandRow, MatchModel, TeamRow, TeamTotals, TournamentModel } from '../events/read-models.ts';
import { Bracket } from '../views/bracket.tsx';
import { Layout } from '../views/layout.tsx';
import { Leaderboard } from '../views/leaderboard.tsx';
import { Partial, idSelector } from '../views/partials.tsx';
import { LiveTables, Screen, Ticker } from '../views/screen.tsx';
import { ScoreChart, TableView, tableId } from '../views/table.tsx';
import { TournamentHome } from '../views/tournament-home.tsx';
import { attrValues, element } from './fixtures/html.ts';
import { rankTeams } from '../events/standings.ts';
import { tournamentLinks } from '../events/addresses.ts';

// ---- fixtures: a 16-team double-elimination event part-way through round 2 ----

const TEAM_NAMES = [
  'Aces High',
  'Kings Row',
  'Queen’s Gambit',
  'Jack Pot',
  'Ten Spot',
  'Nine Lives',
  'Eight Ball',
  'Lucky Sevens',
  'Six Shooters',
  'High Five',
  'Four Horsemen',
  'Trey Bien',
  'Deuces Wild',
  'Bag Ladies',
  'Nil Nation',
  'Boston Tea',
];

const id = (n: number) => `t${String(n).padStart(2, '0')}`;

/** [wins, losses, points, bags, sets, status] per seed. */
const RECORDS: [number, number, number, number, number, TeamRow['status']][] = [
  [0, 1, 410, 4, 0, 'alive'],
  [2, 0, 905, 9, 0, 'alive'],
  [1, 0, 520, 5, 0, 'alive'],
  [1, 0, 480, 3, 0, 'alive'],
  [2, 0, 860, 7, 1, 'alive'],
  [1, 1, 700, 6, 1, 'alive'],
  [1, 0, 455, 2, 0, 'alive'],
  [0, 0, 0, 0, 0, 'alive'],
  [0, 0, 0, 0, 0, 'alive'],
  [0, 1, 300, 4, 1, 'alive'],
  [0, 1, 280, 8, 2, 'alive'],
  [0, 1, 350, 5, 0, 'alive'],
  [0, 1, 310, 6, 1, 'alive'],
  [1, 1, 620, 9, 0, 'alive'],
  [0, 2, 390, 11, 2, 'out'],
  [0, 0, 0, 0, 0, 'withdrawn'],
];

const teams: TeamRow[] = RECORDS.map(([wins, losses, points, bags, sets, status], i) => ({
  teamId: id(i + 1),
  name: TEAM_NAMES[i]!,
  players: [`Player ${2 * i + 1}`, `Player ${2 * i + 2}`],
  seed: i + 1,
  wins,
  losses,
  gamesWon: wins * 2,
  gamesLost: losses * 2,
  points,
  bags,
  sets,
  status,
}));

function match(
  matchId: string,
  side: string,
  round: number,
  pair: [string | null, string | null],
  status: MatchModel['status'],
  extra: Partial<MatchModel> = {},
): MatchModel {
  return {
    matchId,
    round,
    side,
    label: matchId,
    teams: pair,
    games: [],
    gamesWon: [0, 0],
    status,
    winner: null,
    table: null,
    clock: null,
    underReview: false,
    ...extra,
  };
}

const done = (matchId: string, a: number, b: number, winner: number, position: number): MatchModel =>
  match(matchId, 'winners', 1, [id(a), id(b)], 'done', {
    games: [`g-${matchId}-1`, `g-${matchId}-2`],
    gamesWon: winner === a ? [2, 0] : [0, 2],
    winner: id(winner),
    table: position,
  });

const clock = { startedAt: '2025-03-01T14:00:00Z', minutes: 90, calledAt: null };

const matches: MatchModel[] = [
  // Seed 16 withdrew before the draw, so seed 1's first match is a bye.
  match('W1-1', 'winners', 1, [id(1), null], 'bye', { winner: id(1) }),
  done('W1-2', 2, 15, 2, 2),
  done('W1-3', 3, 14, 3, 3),
  done('W1-4', 4, 13, 4, 4),
  done('W1-5', 5, 12, 5, 5),
  done('W1-6', 6, 11, 6, 6),
  done('W1-7', 7, 10, 7, 7),
  match('W1-8', 'winners', 1, [id(8), id(9)], 'live', {
    games: ['g-W1-8-1', 'g-W1-8-2'],
    gamesWon: [1, 0],
    table: 8,
    clock,
  }),
  match('W2-1', 'winners', 2, [id(1), id(2)], 'done', {
    games: ['g-W2-1-1', 'g-W2-1-2'],
    gamesWon: [0, 2],
    winner: id(2),
    table: 1,
  }),
  match('W2-2', 'winners', 2, [id(3), id(4)], 'ready'),
  match('W2-3', 'winners', 2, [id(5), id(6)], 'done', {
    games: ['g-W2-3-1', 'g-W2-3-2', 'g-W2-3-3'],
    gamesWon: [2, 1],
    winner: id(5),
    underReview: true,
  }),
  match('W2-4', 'winners', 2, [id(7), null], 'waiting'),
  match('L1-1', 'losers', 1, [id(15), id(14)], 'done', { games: ['g-L1-1-1', 'g-L1-1-2'], gamesWon: [0, 2], winner: id(14) }),
  match('L1-2', 'losers', 1, [id(13), id(12)], 'ready'),
  match('L1-3', 'losers', 1, [id(11), id(10)], 'ready'),
  match('GF', 'final', 1, [null, null], 'waiting'),
];

const tournament: TournamentModel = {
  tournamentId: 'spring-open',
  name: 'Spring Open 2025',
  format: 'blp-2024',
  status: 'running',
  teams,
  matches,
  placings: [],
  latest: [
    { kind: 'match-won', winner: 't05', loser: 't06', won: 2, lost: 1, position: 812 },
    { kind: 'match-won', winner: 't02', loser: 't01', won: 2, lost: 0, position: 790 },
    { kind: 'match-won', winner: 't14', loser: 't15', won: 2, lost: 0, position: 745 },
  ],
};

const teamNames = Object.fromEntries(teams.map((t) => [t.teamId, t.name]));

function totals(points: number, score: number, bags: number, sets = 0): TeamTotals {
  return { points, score, bags, sets };
}

function hand(
  number: number,
  dealer: Seat,
  bids: Record<Seat, number | string> | null,
  tricks: Record<Seat, number> | null,
  ns: TeamTotals,
  ew: TeamTotals,
  extra: Partial<HandRow> = {},
): HandRow {
  return {
    number,
    dealer,
    ...(bids ? { bids } : {}),
    ...(tricks ? { tricks } : {}),
    NS: ns,
    EW: ew,
    reneges: [],
    illegalLeads: [],
    position: 600 + number * 60,
    ...extra,
  };
}

const rows: HandRow[] = [
  hand(1, 'N', { N: 3, E: 2, S: 4, W: 3 }, { N: 3, E: 2, S: 5, W: 3 }, totals(71, 71, 1), totals(50, 50, 0)),
  hand(2, 'E', { N: 2, E: 4, S: 2, W: 5 }, { N: 2, E: 5, S: 1, W: 5 }, totals(-40, 31, 1, 1), totals(91, 141, 1)),
  hand(3, 'S', { N: 'nil', E: 3, S: 4, W: 4 }, { N: 0, E: 4, S: 5, W: 4 }, totals(141, 172, 2, 1), totals(71, 212, 2)),
  hand(4, 'W', null, null, totals(0, 172, 2, 1), totals(0, 212, 2), { misdeal: 'a player held no spades' }),
  hand(5, 'W', { N: 4, E: 3, S: 3, W: 3 }, { N: 4, E: 3, S: 3, W: 3 }, totals(70, 242, 2, 1), totals(60, 272, 2)),
  hand(6, 'N', { N: 3, E: 4, S: 3, W: 3 }, { N: 3, E: 5, S: 2, W: 3 }, totals(-60, 182, 2, 2), totals(71, 343, 3), {
    reneges: [{ seat: 'S', trick: 9 }],
  }),
];

const game: GameModel = {
  gameId: 'g-W1-8-2',
  matchId: 'W1-8',
  tournamentId: 'spring-open',
  number: 2,
  rules: 'unc-300',
  teams: { NS: id(8), EW: id(9) },
  seats: { N: 'Ana', E: 'Cal', S: 'Ben', W: 'Dee' },
  dealer: 'N',
  hands: [],
  handPositions: rows.map((r) => r.position),
  current: {
    number: 7,
    dealer: 'E',
    bids: { S: 4, N: 2, W: 3, E: 4 },
    // South (dealer's left) leads the ace of hearts and wins; North's queen takes the clubs.
    plays: [
      ['AH', '3H', '5H', 'KH'],
      ['6C', '9C', 'QC', '4C'],
      ['10D', '3D'],
    ],
    playPositions: [
      [1001, 1002, 1003, 1004],
      [1005, 1006, 1007, 1008],
      [1009, 1010],
    ],
  },
  claims: [{ claimId: 'c-1', gameId: 'g-W1-8-2', hand: 6, seat: 'S', trick: 9, position: 980, at: '2026-06-01T20:15:00.000Z' }],
  corrections: [],
  timeCalled: null,
  rows,
  score: { NS: 182, EW: 343 },
  bags: { NS: 2, EW: 3 },
  sets: { NS: 2, EW: 0 },
  winner: null,
  reason: null,
  abandoned: false,
};

const now = new Date('2025-03-01T14:52:30Z');

// ---- helpers ----

const render = (node: unknown): string => String(node);

function expectCspSafe(html: string): void {
  expect(html).not.toMatch(/\sstyle=/i);
  expect(html).not.toMatch(/<style[\s>]/i);
  expect(html).not.toMatch(/\son[a-z]+=/i);
  // Scripts only by src, with nothing between the tags.
  for (const m of html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)) {
    expect(m[1]).toMatch(/\ssrc="/);
    expect(m[2]).toBe('');
  }
}

// ---- tests ----

describe('Leaderboard', () => {
  const html = render(<Leaderboard tournament={tournament} />);

  it('escapes team and player names and ids', () => {
    const team = { ...tournament.teams[0]!, teamId: 'a"b', name: '<b>Aces</b> & "Co"', players: ['<i>Ann</i>', "O'Neil"] };
    const out = render(<Leaderboard tournament={{ ...tournament, teams: [team], placings: [] }} />);
    expect(out).toContain('data-team="a&quot;b"');
    expect(out).toContain('&lt;b&gt;Aces&lt;/b&gt; &amp; &quot;Co&quot;');
    expect(out).toContain('&lt;i&gt;Ann&lt;/i&gt; &amp; O&#39;Neil');
    expect(out).not.toContain('<b>');
  });

  it('ranks a knockout by how far teams got in the bracket, then fewest losses, points breaking ties', () => {
    // Still playing: unbeaten first, furthest on first (round 2 before the round-1 match still
    // live), then the teams with a loss; then out, then withdrawn.
    expect(attrValues(html, 'data-team')).toEqual([2, 5, 3, 4, 7, 8, 9, 6, 14, 1, 12, 13, 10, 11, 15, 16].map(id));
    expect(html).toContain('>Points, tiebreak</abbr>');
  });

  it('renders alone under its stable id, with the stats columns', () => {
    expect(html).toMatch(/^<section id="leaderboard"/);
    for (const heading of ['Team', 'Bags', 'Sets', 'Standing']) expect(html).toContain(`>${heading}</th>`);
    const row = element(html, /<tr class="[^"]*" data-team="t05"|<tr data-team="t05"/);
    // Matches and games as the room writes them, won–lost.
    expect(row).toContain(
      '<td class="num minor">2–0</td><td class="num minor">4–0</td><td class="num">860</td><td class="num minor">7</td><td class="num minor">1</td>',
    );
  });

  it('says where each team stands in the competition’s own words', () => {
    const standing = (team: number) => /data-standing="[a-z]+">([^<]+)</.exec(element(html, new RegExp(`<tr[^>]* data-team="${id(team)}"`)))![1];
    expect(standing(3)).toBe('Winners’ bracket, round 2');
    expect(standing(12)).toBe('Losers’ bracket, round 1');
    expect(standing(15)).toBe('Eliminated in losers round 1');
    expect(standing(16)).toBe('Withdrawn');
  });

  it('splits the ranked teams into side-by-side tables for the venue screen', () => {
    const screen = render(<Leaderboard tournament={tournament} columns={2} />);
    const tables = [...screen.matchAll(/<table class="standings standings--compact">/g)];
    expect(tables).toHaveLength(2);
    expect(attrValues(screen, 'data-team')).toEqual(attrValues(html, 'data-team'));
    expect(screen).toContain('<td class="num rank">9</td>');
    expect(screen).not.toContain('>Bags</th>');
  });

  it('dims teams that are out or withdrawn and leaves the others plain', () => {
    expect(html).toContain('<tr class="is-finished" data-team="t15">');
    expect(html).toContain('<tr class="is-finished" data-team="t16">');
    expect(html).toContain('<tr data-team="t02">');
  });

  it('puts decided places first and marks the champion, even with fewer wins than the runner-up', () => {
    const finished: TournamentModel = {
      ...tournament,
      status: 'finished',
      teams: teams.map((t) =>
        t.teamId === id(2)
          ? { ...t, status: 'champion' }
          : t.teamId === id(5)
            ? { ...t, wins: 6, status: 'out' }
            : t.status === 'alive'
              ? { ...t, status: 'out' }
              : t,
      ),
      placings: [
        { place: 1, teamId: id(2) },
        { place: 2, teamId: id(5) },
      ],
    };
    expect(
      rankTeams(finished)
        .slice(0, 3)
        .map((t) => t.teamId),
    ).toEqual([id(2), id(5), id(3)]);
    const out = render(<Leaderboard tournament={finished} />);
    const champion = element(out, /<tr class="is-champion"/);
    expect(champion).toContain('data-team="t02"');
    expect(champion).toContain('>Champion</span>');
  });
});

describe('Bracket', () => {
  const html = render(<Bracket tournament={tournament} gamesToWin={2} />);
  const card = (matchId: string) => element(html, new RegExp(`<article [^>]*data-match="${matchId}"`));

  it('groups matches by side, in reading order, and by round', () => {
    expect(html).toMatch(/^<section id="bracket"/);
    const sides = [...html.matchAll(/class="bracket-side bracket-side--([a-z-]+) /g)].map((m) => m[1]);
    expect(sides).toEqual(['winners', 'losers', 'final']);
    const winners = element(html, /<section class="bracket-side bracket-side--winners /);
    expect([...winners.matchAll(/>Round (\d+)</g)].map((m) => m[1])).toEqual(['1', '2']);
    expect(attrValues(winners, 'data-match')).toEqual(matches.filter((m) => m.side === 'winners').map((m) => m.matchId));
  });

  it('shows a bye as a bye and an undecided slot as still to be decided', () => {
    expect(card('W1-1')).toContain('<li class="slot is-bye"><span class="slot-name">bye</span>');
    expect(card('W2-4')).toContain('<li class="slot is-tbd"><span class="slot-name">To be decided</span>');
    expect(card('GF').match(/>To be decided</g)).toHaveLength(2);
  });

  it('names where an empty slot’s team comes from by the feeding match’s number, even while it is played at a table', () => {
    const sources = {
      'W2-4': [
        { kind: 'winner', match: 'W1-7' },
        { kind: 'winner', match: 'W1-8' },
      ],
      GF: [
        { kind: 'winner', match: 'W3-1' },
        { kind: 'loser', match: 'W2-4' },
      ],
    } as const;
    const withSources = render(<Bracket tournament={tournament} gamesToWin={2} sources={sources} />);
    const cardOf = (matchId: string) => element(withSources, new RegExp(`<article [^>]*data-match="${matchId}"`));
    expect(cardOf('W2-4')).toContain(`<span class="slot-name">Winner of match ${matches.findIndex((m) => m.matchId === 'W1-8') + 1}</span>`);
    expect(withSources).not.toContain('Winner of Table');
    expect(cardOf('GF')).toContain('Loser of match 12');
  });

  it('marks the live best-of-3 match with its table and the games each team has won', () => {
    const live = card('W1-8');
    expect(live).toContain('class="match match--live"');
    expect(live).toContain('Live · Table 8');
    expect(live).toContain('Best of 3');
    expect([...live.matchAll(/<span class="games-won">(\d)/g)].map((m) => m[1])).toEqual(['1', '0']);
    expect(card('W1-7')).not.toContain('badge--live');
  });

  it('highlights winners and flags matches under review', () => {
    const w21 = card('W2-1');
    expect(element(w21, /<li class="slot is-winner"/)).toContain('Kings Row');
    expect(w21.match(/is-winner/g)).toHaveLength(1);
    expect(card('W2-3')).toContain('is-under-review');
    expect(card('W2-3')).toContain('Under review');
    expect(card('W2-2')).not.toContain('Under review');
  });

  it('tells the room when there is no draw yet', () => {
    expect(render(<Bracket tournament={{ teams, matches: [] }} />)).toContain('The bracket is drawn when the tournament starts.');
  });
});

describe('TableView', () => {
  const html = render(<TableView game={game} teamNames={teamNames} clock={clock} now={now} />);
  const seat = (s: Seat) => element(html, new RegExp(`<div class="seat seat--${s}[^"]*" data-seat="${s}"`));

  it('renders alone under the table id, naming both teams', () => {
    expect(html).toMatch(new RegExp(`^<section id="${tableId(game.gameId)}"`));
    expect(html).toContain('Lucky Sevens');
    expect(html).toContain('Six Shooters');
  });

  it('marks the dealer and shows every bid', () => {
    expect(seat('E')).toContain('is-dealer');
    expect(seat('N')).not.toContain('is-dealer');
    expect(seat('S')).toContain('Bid 4');
    expect(seat('N')).toContain('Bid 2');
    expect(seat('W')).toContain('<p class="player">Dee</p>');
  });

  it('counts the tricks each seat has taken and shows the trick on the table', () => {
    expect(seat('S')).toContain('Tricks 1');
    expect(seat('N')).toContain('Tricks 1');
    expect(seat('E')).toContain('Tricks 0');
    expect(seat('W')).toContain('Tricks 0');
    const trick = element(html, /<ol class="trick-cards"/);
    expect(attrValues(trick, 'data-seat')).toEqual(['N', 'E']);
    expect(trick).toContain('data-card="10D"');
    expect(trick).toContain('10 of diamonds');
    expect(html).toContain('Trick 3, North led');
    // South, after East's card, is to play.
    expect(seat('S')).toContain('is-turn');
  });

  it('shows score and bags per team', () => {
    const ns = element(html, /<div class="team-score team-score--ns/);
    expect(ns).toMatch(/Score <\/span>182</);
    expect(ns).toContain('2 bags');
    const ew = element(html, /<div class="team-score team-score--ew/);
    expect(ew).toMatch(/Score <\/span>343</);
    expect(ew).toContain('3 bags');
  });

  it('keeps a score pad row per hand, with misdeals and reneges noted', () => {
    const pad = element(html, /<table class="pad"/);
    const body = element(pad, /<tbody/);
    expect(body.match(/<tr[\s>]/g)).toHaveLength(rows.length);
    expect(body).toContain('Misdeal: a player held no spades');
    expect(body).toContain('Renege by South, trick 9');
    expect(body).toContain('<td class="bid">nil / 4</td>');
    // A hand's points below zero with a minus sign, as every score is printed.
    expect(body).toContain('<td class="num pts">−60</td><td class="num total">182</td>');
  });

  it('shows the minutes left and the deadline for a ticking script, and no deadline once time is called', () => {
    expect(html).toContain('data-deadline="2025-03-01T15:30:00.000Z"');
    // Minutes and seconds, the one format static/clock.js ticks in.
    expect(element(html, /<time class="clock-value"/)).toMatch(/>\d+:\d\d<\/time>$/);
    const called = render(<TableView game={game} teamNames={teamNames} clock={{ ...clock, calledAt: '2025-03-01T15:30:00Z' }} now={now} />);
    expect(called).not.toContain('data-deadline');
    expect(called).toContain('Time called');
  });

  it('flags a claim awaiting a ruling, and drops the flag once ruled', () => {
    expect(html).toContain('table-view is-under-review');
    expect(html).toContain('renege claimed against South, hand 6, trick 9');
    const ruled: GameModel = {
      ...game,
      claims: [{ ...game.claims[0]!, ruling: { upheld: true, note: '', judge: 'J. Park', position: 990, at: '2025-03-01T14:40:00Z' } }],
    };
    expect(render(<TableView game={ruled} teamNames={teamNames} />)).not.toContain('Under review');
  });

  it('says why the score stopped when the recorded hands cannot be scored', () => {
    const stuck: GameModel = { ...game, problem: 'hand 7: North bid 14; a hand has 13 tricks' };
    expect(render(<TableView game={stuck} teamNames={teamNames} />)).toContain('<strong>Score held:</strong> hand 7: North bid 14; a hand has 13 tricks');
    expect(html).not.toContain('Score held');
  });

  it('announces the winner of a finished game', () => {
    const over: GameModel = { ...game, current: null, winner: 'EW', reason: 'target', claims: [] };
    const out = render(<TableView game={over} teamNames={teamNames} />);
    expect(out).toContain('<strong>Six Shooters</strong> won (reached the target), 343 to 182.');
    expect(out).toContain('table-view is-over');
  });

  it('holds a finished game’s result while a claim in it waits for a ruling', () => {
    const held: GameModel = { ...game, current: null, winner: 'EW', reason: 'target' };
    const out = render(<TableView game={held} teamNames={teamNames} />);
    expect(out).toContain('<strong>Six Shooters</strong> won (reached the target), 343 to 182, unless the judge’s ruling on the claim still open changes it.');
    const ruled: GameModel = {
      ...held,
      claims: held.claims.map((claim) => ({ ...claim, ruling: { upheld: false, note: '', judge: 'J. Park', position: 990, at: '2025-03-01T14:40:00Z' } })),
    };
    expect(render(<TableView game={ruled} teamNames={teamNames} />)).toContain('343 to 182.');
  });
});

describe('ScoreChart', () => {
  const html = render(<ScoreChart game={game} teamNames={teamNames} />);

  it('draws one point per hand for each team, inside the chart', () => {
    const lines = [...html.matchAll(/<polyline class="series series--(ns|ew)" data-team="(NS|EW)" points="([^"]*)"/g)];
    expect(lines.map((m) => m[2])).toEqual(['NS', 'EW']);
    const [, , , w, h] = /viewBox="(\d+) (\d+) (\d+) (\d+)"/.exec(html)!.map(Number);
    for (const line of lines) {
      const points = line[3]!.split(' ').map((p) => p.split(',').map(Number));
      expect(points).toHaveLength(rows.length);
      for (const [x, y] of points) {
        expect(x).toBeGreaterThanOrEqual(0);
        expect(x).toBeLessThanOrEqual(w!);
        expect(y).toBeGreaterThanOrEqual(0);
        expect(y).toBeLessThanOrEqual(h!);
      }
      // Hands run left to right.
      expect(points.map(([x]) => x)).toEqual([...points.map(([x]) => x!)].sort((a, b) => a - b));
    }
    // The higher score sits higher on the chart: EW ends ahead.
    const last = (i: number) => Number(lines[i]![3]!.split(' ').at(-1)!.split(',')[1]);
    expect(last(1)).toBeLessThan(last(0));
  });

  it('is an accessible image with a title, a legend and axis labels', () => {
    expect(html).toMatch(/<svg [^>]*role="img"[^>]*aria-labelledby="table-g-W1-8-2-chart-title table-g-W1-8-2-chart-desc"/);
    expect(html).toContain('<title id="table-g-W1-8-2-chart-title">Running score by hand: Lucky Sevens and Six Shooters</title>');
    expect(html).toContain('After hand 6: Lucky Sevens 182, Six Shooters 343.');
    expect(element(html, /<g class="chart-legend"/)).toContain('Six Shooters (EW)');
    expect(html).toContain('>Hand</text>');
    expect(html).toContain('>Score</text>');
  });

  it('waits for the first hand instead of drawing an empty chart', () => {
    expect(render(<ScoreChart game={{ ...game, rows: [] }} />)).not.toContain('<svg');
  });
});

describe('Screen', () => {
  const html = render(<Screen tournament={tournament} liveGames={[game]} teamNames={teamNames} gamesToWin={2} now={now} />);

  it('holds the three rotating panels and the highlights, with every live region under its id', () => {
    expect(html.match(/<section class="panel panel--/g)).toHaveLength(4);
    expect(html).toContain('<section class="panel panel--highlights" aria-label="Highlights" data-tournament="');
    for (const target of ['leaderboard', 'bracket', 'live-tables', 'ticker', 'highlights']) {
      expect(attrValues(html, 'id')).toContain(target);
    }
    expect(attrValues(html, 'data-game')).toEqual([game.gameId]);
  });

  it('heads the screen with the tournament name and the newest results first', () => {
    expect(html).toContain('<h1 class="screen-title">Spring Open 2025</h1>');
    expect(attrValues(element(html, /<div id="ticker"/), 'data-position')).toEqual(['812', '790', '745']);
  });

  it('words the news from the facts the model keeps, with the names the teams have now', () => {
    const items = (text: string) => [...element(text, /<div id="ticker"/).matchAll(/<li data-position="\d+">([^<]*)<\/li>/g)].map((m) => m[1]);
    expect(items(html)).toEqual(['Ten Spot beat Nine Lives 2–1', 'Kings Row beat Aces High 2–0', 'Bag Ladies beat Nil Nation 2–0']);
    const renamed = { ...tournament, teams: tournament.teams.map((t) => (t.teamId === 't05' ? { ...t, name: 'Ten Spot Redux' } : t)) };
    expect(items(render(<Ticker tournament={renamed} />))[0]).toBe('Ten Spot Redux beat Nine Lives 2–1');
    const match = tournament.matches[0]!;
    const news: TournamentModel['latest'] = [
      { kind: 'time-called', matchId: match.matchId, game: 2, hand: 7, position: 9 },
      { kind: 'team-out', teamId: 't16', how: 'forfeit', reason: 'left early', position: 8 },
      { kind: 'round-drawn', round: 3, final: false, byes: [{ teamId: 't02', card: 'K♠' }], position: 7 },
      { kind: 'matches-reopened', reopened: [{ matchId: match.matchId, result: null }], by: 'RulingGiven', restart: [], position: 6 },
      { kind: 'rounds-changed', rounds: 1, position: 5 },
    ];
    expect(items(render(<Ticker tournament={{ ...tournament, latest: news }} />))).toEqual([
      `Time called in ${match.label}, game 2, during hand 7`,
      'Boston Tea forfeits: left early',
      'Round 3 drawn: Kings Row has the bye (K♠)',
      `${match.label} reopened by a renege ruling`,
      'The event now plays 1 round',
    ]);
  });

  it('labels each live table with its table number and match clock', () => {
    const tables = render(<LiveTables tournament={tournament} liveGames={[game]} teamNames={teamNames} now={now} />);
    expect(tables).toMatch(/^<section id="live-tables"/);
    expect(tables).toContain('<span class="table-number">Table 8</span>');
    // The round and the match score (games won) on the table's card.
    expect(tables).toContain('W1-8 · game 2');
    // Said as what it counts: games won in the match, or in a best-of-1 match the game's score.
    expect(tables).toContain('games won 1–0');
    expect(tables).not.toContain('Match 1–0');
    const single = render(<LiveTables tournament={tournament} liveGames={[game]} teamNames={teamNames} now={now} gamesToWin={1} />);
    expect(single).toContain('game score 182 to 343');
    expect(single).not.toContain('games won');
    // A score below zero prints with a minus sign and never after a dash ("100–-20").
    const behind = { ...game, score: { NS: 100, EW: -20 } };
    const down = render(<LiveTables tournament={tournament} liveGames={[behind]} teamNames={teamNames} now={now} gamesToWin={1} />);
    expect(down).toContain('game score 100 to −20');
    expect(down).not.toMatch(/\d–-\d/);
    expect(tables).toContain('data-deadline="2025-03-01T15:30:00.000Z"');
    expect(render(<LiveTables tournament={tournament} liveGames={[]} teamNames={teamNames} />)).toContain('No games in play');
  });

  it('renders the ticker alone for its live update', () => {
    expect(render(<Ticker tournament={{ latest: [], teams: [], matches: [] }} />)).toMatch(/^<div id="ticker"[^>]*>.*Results appear here/);
  });
});

describe('TournamentHome', () => {
  const html = render(<TournamentHome tournament={tournament} />);
  const links = tournamentLinks('spring-open');

  it('names the tournament, its format and status', () => {
    expect(html).toContain('<h1>Spring Open 2025</h1>');
    expect(html).toContain('BLP 2024');
    expect(html).toContain('In play');
    expect(html).toContain('<dd>15</dd>');
  });

  it('links to the leaderboard, the bracket, the screen and each live table', () => {
    const hrefs = attrValues(html, 'href');
    expect(hrefs).toEqual(expect.arrayContaining([links.leaderboard, links.bracket, links.screen]));
    expect(hrefs).toContain('/tournaments/spring-open/games/g-W1-8-2');
    expect(html).toContain('Table 8: Lucky Sevens vs Six Shooters');
  });
});

describe('Partial and Layout', () => {
  it('wraps a component for an outerHTML swap of the element with the same id', () => {
    const html = render(
      <Partial target={tableId(game.gameId)}>
        <TableView game={game} teamNames={teamNames} />
      </Partial>,
    );
    expect(html).toMatch(/^<hx-partial hx-target="#table-g-W1-8-2" hx-swap="outerHTML"><section id="table-g-W1-8-2"/);
    expect(html).toMatch(/<\/section><\/hx-partial>$/);
  });

  it('shows staff who is signed in, and the public a sign-in link', () => {
    expect(
      render(
        <Layout title="Judge console" signedIn="Ana">
          x
        </Layout>,
      ),
    ).toContain('<a class="site-sign-in" href="/login">Ana · sign out</a>');
    expect(render(<Layout title="Standings">x</Layout>)).toContain('<a class="site-sign-in" href="/login">Sign in</a>');
  });

  it('escapes ids that a bare selector would misread', () => {
    expect(idSelector('table-g.1:2')).toBe('#table-g\\.1\\:2');
  });

  it('makes a document with viewport, stylesheet, scripts and htmx config, live when asked', () => {
    const html = render(
      <Layout title="Spring Open 2025 · Standings" live={{ url: '/tournaments/spring-open/events' }}>
        <Leaderboard tournament={tournament} />
      </Layout>,
    );
    expect(html).toMatch(/^<!DOCTYPE html><html lang="en">/);
    expect(html).toContain('<meta name="viewport" content="width=device-width, initial-scale=1"/>');
    expect(html).toContain('<meta name="htmx-config" content="{&quot;includeIndicatorCSS&quot;:false,&quot;sse&quot;:{&quot;reconnectMaxDelay&quot;:5000}}"/>');
    expect(html).toContain('<link rel="stylesheet" href="/static/app.css"/>');
    expect(attrValues(html, 'src')).toEqual(['/static/htmx.min.js', '/static/hx-sse.js', '/static/clock.js', '/static/live-status.js']);
    expect(html).toContain('<title>Spring Open 2025 · Standings</title>');
    const live = element(html, /<div class="live"/);
    expect(live).toMatch(/^<div class="live" hx-sse:connect="\/tournaments\/spring-open\/events" hx-swap="none">/);
    expect(live).toContain('<section id="leaderboard"');
    expect(html).toContain('<body class="page">');
  });

  it('drops the site chrome and the live wrapper for a static screen page', () => {
    const html = render(
      <Layout title="Screen" screen>
        <p>x</p>
      </Layout>,
    );
    expect(html).toContain('<body class="screen">');
    expect(html).not.toContain('skip-link');
    expect(html).not.toContain('hx-sse:connect');
  });
});

describe('every view under the Content-Security-Policy', () => {
  it('uses no inline styles, handlers or script bodies', () => {
    const finished: GameModel = { ...game, current: null, winner: 'EW', reason: 'time' };
    const outputs = [
      render(
        <Layout title="Screen" screen live={{ url: '/s' }}>
          <Screen tournament={tournament} liveGames={[game, finished]} teamNames={teamNames} gamesToWin={2} now={now} />
        </Layout>,
      ),
      render(
        <Layout title="Home">
          <TournamentHome tournament={tournament} />
        </Layout>,
      ),
      render(<Bracket tournament={tournament} />),
      render(<TableView game={finished} teamNames={teamNames} clock={clock} now={now} />),
      render(<ScoreChart game={game} />),
    ];
    for (const html of outputs) expectCspSafe(html);
  });
});

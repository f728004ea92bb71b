/**
 * The statistics say what the game records say: a tournament played by the table bots (nils,
 * blind nils, reneges claimed and ruled both ways) is counted here from each game's exported
 * `spades-game/1` record, seat by seat and hand by hand, and the statistics the projection folded
 * must give the same figures. The rebuild from position 0 and the models as of a past position
 * give the statistics of the same events.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Seat, type Team, SEATS } from '../engine/cards.ts';
import { deckFor } from '../engine/deck.ts';
import { readHeader, startRecordGame, scoreNextHand } from '../engine/record.ts';
import { replayPlays } from '../engine/trick.ts';
import { parseCard } from '../engine/cards.ts';
import { foldEvents } from '../events/projections.ts';
import { projected } from '../events/store/served-ledger.ts';
import { rebuildModels } from '../events/store/sqlite/ledger-tools.ts';
import { tournamentStatsSchema } from '../events/stats-schema.ts';
import { statsOfTournament } from '../events/tournament-stats.ts';
import { gameStats } from '../events/stats-projection.ts';
import { createApp } from '../server/app/app.ts';
import { type AuditLedger, playTournament, tempLedger } from './fixtures/audit-ledger.ts';
import { importRecord } from '../events/record-import.ts';
import { createTournament, registerPlayer, registerTeam, startTournament } from '../server/commands/tournament-commands.ts';
import { driveTables } from '../server/serve/table-driver.ts';
import { statsCsv } from '../server/audit/stats-csv.ts';
import { createHeavyReads } from '../server/audit/heavy-reads.ts';
import { personOfEntry } from '../events/player-identity.ts';

type Counts = Record<string, number>;
const TEAM_OF: Record<Seat, Team> = { N: 'NS', S: 'NS', E: 'EW', W: 'EW' };

let played: AuditLedger;
let app: ReturnType<typeof createApp>['app'];
const tournamentId = 'stats';

beforeAll(async () => {
  played = tempLedger();
  // unc-intramural plays unc-300 (nil, blind nil, 10 for 120) and unc-500 in the final.
  await playTournament(played.ledger, { tournamentId, format: 'unc-intramural', teams: 4, seed: 'stats-5', renegeChance: 0.05 });
  app = createApp({ ledger: played.ledger }).app;
});
afterAll(() => played.remove());

interface RecordHand {
  dealer: Seat;
  misdeal?: string;
  bids?: Record<Seat, number | string>;
  tricks?: Record<Seat, number>;
  plays?: string[][];
  reneges?: { seat: Seat; upheld: boolean }[];
}

/** The figures an auditor counts from the records alone. */
async function countFromRecords(): Promise<{ teams: Record<string, Counts>; players: Record<string, Counts>; totals: Counts }> {
  const tournament = played.ledger.models.tournaments[tournamentId]!;
  const gameIds = tournament.model.matches.flatMap((m) => m.games);
  const teams: Record<string, Counts> = {};
  const players: Record<string, Counts> = {};
  const totals: Counts = { games: 0, hands: 0, misdeals: 0, bostons: 0, blindNilsMade: 0 };
  const add = (into: Counts, key: string, n = 1) => (into[key] = (into[key] ?? 0) + n);
  for (const gameId of gameIds) {
    const res = await app.request(`/games/${gameId}/record`);
    expect(res.status).toBe(200);
    const record = (await res.json()) as { rules: unknown; seats: Record<Seat, string>; hands: RecordHand[] };
    const game = played.ledger.models.games[gameId]!;
    const teamIds: Record<Team, string> = game.teams;
    totals.games!++;
    // Scored by the engine's record scorer, as `spades score` does: the contracts, bags and points.
    const header = readHeader(record);
    const deck = deckFor(header.rules.options);
    let state = startRecordGame(header);
    for (const [i, hand] of record.hands.entries()) {
      const next = scoreNextHand(header, state, hand, i + 1);
      state = next.state;
      if (hand.misdeal) {
        totals.misdeals!++;
        continue;
      }
      totals.hands!++;
      // The tricks as the cards fell, counted from the plays (or as entered).
      const taken: Record<Seat, number> = hand.plays
        ? replayPlays(
            deck,
            hand.dealer,
            hand.plays.map((t) => t.map((c) => parseCard(c)!)),
          ).taken
        : (hand.tricks ?? { N: 0, E: 0, S: 0, W: 0 });
      for (const team of ['NS', 'EW'] as const) {
        const line = (teams[teamIds[team]] ??= {});
        const scored = state.last!.teams[team];
        add(line, 'hands');
        add(line, scored.set ? 'contractsSet' : 'contractsMade');
        add(line, 'bags', header.rules.options.bagsCounted ? scored.overtricks : 0);
        add(line, 'bagPenalties', scored.bagPenalties);
        line.bestHand = Math.max(line.bestHand ?? -Infinity, scored.points);
        const seats = SEATS.filter((s) => TEAM_OF[s] === team);
        if (seats.reduce((n, s) => n + taken[s], 0) === 13) {
          add(line, 'bostons');
          totals.bostons!++;
        }
      }
      for (const seat of SEATS) {
        const bid = hand.bids![seat]!;
        const numeric = typeof bid === 'number' ? bid : /^blind \d+$/.test(bid) ? Number(bid.slice(6)) : 0;
        const teamLine = teams[teamIds[TEAM_OF[seat]]]!;
        const player = (players[`${teamIds[TEAM_OF[seat]]}/${record.seats[seat]}`] ??= {});
        add(player, 'hands');
        for (const line of [teamLine, player]) {
          add(line, 'bid', numeric);
          add(line, 'taken', taken[seat]);
          if (bid === 'nil') {
            add(line, 'nilsBid');
            if (taken[seat] === 0) add(line, 'nilsMade');
          }
          if (bid === 'blind nil') {
            add(line, 'blindNilsBid');
            if (taken[seat] === 0) add(line, 'blindNilsMade');
          }
        }
        if (bid === 'blind nil' && taken[seat] === 0) totals.blindNilsMade!++;
      }
      for (const claim of hand.reneges ?? []) {
        const line = teams[teamIds[TEAM_OF[claim.seat]]]!;
        add(line, 'renegesClaimed');
        if (claim.upheld) add(line, 'renegesUpheld');
      }
    }
  }
  return { teams, players, totals };
}

const TEAM_FIELDS = [
  'hands',
  'bid',
  'taken',
  'contractsMade',
  'contractsSet',
  'nilsBid',
  'nilsMade',
  'blindNilsBid',
  'blindNilsMade',
  'bostons',
  'bags',
  'bagPenalties',
  'renegesClaimed',
  'renegesUpheld',
  'bestHand',
];
const PLAYER_FIELDS = ['hands', 'bid', 'taken', 'nilsBid', 'nilsMade', 'blindNilsBid', 'blindNilsMade'];
const pick = (line: Record<string, unknown> | undefined, fields: string[]) =>
  Object.fromEntries(fields.map((f) => [f, (line?.[f] as number | undefined) ?? (f === 'bestHand' ? null : 0)]));

describe('the statistics of a played tournament', () => {
  it('equal the counts made from its game records, team by team and player by player', async () => {
    const counted = await countFromRecords();
    const stats = tournamentStatsSchema.parse(statsOfTournament(played.ledger.models, tournamentId));
    // The tournament had what the figures are about.
    const all = Object.values(counted.teams);
    const sum = (key: string) => all.reduce((n, line) => n + (line[key] ?? 0), 0);
    expect(sum('nilsBid')).toBeGreaterThan(sum('nilsMade'));
    expect(sum('blindNilsBid')).toBeGreaterThan(sum('blindNilsMade'));
    expect(sum('blindNilsMade')).toBeGreaterThan(0);
    expect(sum('renegesUpheld')).toBeGreaterThan(0);
    expect(sum('renegesClaimed')).toBeGreaterThan(sum('renegesUpheld'));
    expect(sum('contractsSet')).toBeGreaterThan(0);

    expect(stats.stats.teams.map((t) => t.teamId).sort()).toEqual(Object.keys(counted.teams).sort());
    for (const team of stats.stats.teams) expect(pick(team, TEAM_FIELDS), team.teamId).toEqual(pick(counted.teams[team.teamId], TEAM_FIELDS));
    expect(stats.stats.players).toHaveLength(8);
    for (const player of stats.stats.players) {
      expect(pick(player, PLAYER_FIELDS), `${player.teamId}/${player.name}`).toEqual(pick(counted.players[`${player.teamId}/${player.name}`], PLAYER_FIELDS));
    }
    expect(stats.stats.totals).toMatchObject(counted.totals);
    expect(stats.highlights.filter((h) => h.kind === 'boston')).toHaveLength(counted.totals.bostons!);
    expect(stats.highlights.filter((h) => h.kind === 'blind-nil-made')).toHaveLength(counted.totals.blindNilsMade!);
  });

  it('are the same after a rebuild from position 0 and as of any earlier position', async () => {
    const live = statsOfTournament(played.ledger.models, tournamentId);
    // Each hand was added as it closed; counting each game again from nothing gives the same.
    const state = played.ledger.models.tournaments[tournamentId]!;
    for (const [gameId, counted] of Object.entries(state.gameStats)) expect(counted, gameId).toEqual(gameStats(played.ledger.models.games[gameId]!));
    const rebuilt = rebuildModels(played.ledger.database, played.ledger.store);
    expect(statsOfTournament(rebuilt, tournamentId)).toEqual(live);

    const events = played.ledger.store.readAll().map(projected);
    const half = events[Math.floor(events.length / 2)]!.position;
    const before = statsOfTournament(foldEvents(events, half), tournamentId)!;
    expect(before.position).toBe(half);
    expect(before.stats.totals.hands).toBeLessThan(live!.stats.totals.hands);
    // Every highlight of the earlier moment is one of today's, as it was told then.
    for (const highlight of before.highlights.filter((h) => h.kind !== 'comeback')) expect(live!.highlights).toContainEqual(highlight);
    // The as-of reads fold the same on the reader's thread.
    expect(await createHeavyReads(played.ledger).pastStats(tournamentId, half)).toEqual({ position: half, stats: before });
  });
});

describe('a game entered from a paper record, bids and tricks without cards', () => {
  // unc-300: 10 for 120, nil 60, blind nil 120 (100 behind), 6 bags cost 60, an upheld renege
  // loses 3 tricks and pays the claimants 30.
  const record = {
    format: 'spades-game/1',
    rules: 'unc-300',
    dealer: 'N',
    hands: [
      // NS bid 10 and take all 13 (a Boston, 10 for 120 with 3 bags); EW are set on 8.
      { bids: { N: 5, E: 4, S: 5, W: 4 }, tricks: { N: 7, E: 0, S: 6, W: 0 } },
      { misdeal: 'no-face-cards' },
      // EW, 203 behind, go blind nil and make it; N makes a nil. W's renege is upheld (EW's 8
      // count as 5: made, no bags), N's is not.
      {
        bids: { N: 'nil', E: 'blind nil', S: 4, W: 5 },
        tricks: { N: 0, E: 0, S: 5, W: 8 },
        reneges: [
          { seat: 'W', upheld: true },
          { seat: 'N', upheld: false },
        ],
      },
      // NS are set on 11.
      { bids: { N: 6, E: 1, S: 5, W: 3 }, tricks: { N: 3, E: 3, S: 4, W: 3 } },
    ],
  };
  let paper: AuditLedger;
  beforeAll(() => {
    paper = tempLedger();
    const { ledger } = paper;
    ledger.execute(
      createTournament(ledger.models, {
        tournamentId: 'paper',
        name: 'Paper Cup',
        format: 'custom',
        options: { elimination: 'single', gamesToWin: 1, rules: 'unc-300' },
      }),
    );
    ledger.execute(registerTeam(ledger.models, { tournamentId: 'paper', teamId: 'aces', name: 'Aces', players: ['Ana', 'Cy'] }));
    ledger.execute(registerTeam(ledger.models, { tournamentId: 'paper', teamId: 'kings', name: 'Kings', players: ['Ben', 'Dee'] }));
    ledger.execute(startTournament(ledger.models, { tournamentId: 'paper', seed: 'paper-1' }));
    const match = ledger.models.tournaments.paper!.model.matches[0]!;
    expect(match.teams).toEqual(['aces', 'kings']);
    ledger.execute(importRecord(ledger.models, record, { tournamentId: 'paper', matchId: match.matchId }, '2026-01-01T12:00:00.000Z'));
  });
  afterAll(() => paper.remove());

  it('counts the tricks as entered, before the ruling, and the hands as the scorer settled them', () => {
    const stats = tournamentStatsSchema.parse(statsOfTournament(paper.ledger.models, 'paper'));
    expect(stats.stats.teams).toEqual([
      {
        teamId: 'aces',
        name: 'Aces',
        hands: 3,
        bid: 25,
        taken: 25,
        contractsMade: 2,
        contractsSet: 1,
        nilsBid: 1,
        nilsMade: 1,
        blindNilsBid: 0,
        blindNilsMade: 0,
        bostons: 1,
        bags: 4,
        bagPenalties: 0,
        renegesClaimed: 1,
        renegesUpheld: 0,
        bestHand: 131,
      },
      {
        teamId: 'kings',
        name: 'Kings',
        hands: 3,
        bid: 17,
        taken: 14,
        contractsMade: 2,
        contractsSet: 1,
        nilsBid: 0,
        nilsMade: 0,
        blindNilsBid: 1,
        blindNilsMade: 1,
        bostons: 0,
        bags: 2,
        bagPenalties: 0,
        renegesClaimed: 1,
        renegesUpheld: 1,
        bestHand: 170,
      },
    ]);
    expect(stats.stats.players).toEqual([
      { name: 'Ana', playerId: 'ana', teamId: 'aces', hands: 3, bid: 11, taken: 10, nilsBid: 1, nilsMade: 1, blindNilsBid: 0, blindNilsMade: 0 },
      { name: 'Cy', playerId: 'cy', teamId: 'aces', hands: 3, bid: 14, taken: 15, nilsBid: 0, nilsMade: 0, blindNilsBid: 0, blindNilsMade: 0 },
      { name: 'Ben', playerId: 'ben', teamId: 'kings', hands: 3, bid: 5, taken: 3, nilsBid: 0, nilsMade: 0, blindNilsBid: 1, blindNilsMade: 1 },
      { name: 'Dee', playerId: 'dee', teamId: 'kings', hands: 3, bid: 12, taken: 11, nilsBid: 0, nilsMade: 0, blindNilsBid: 0, blindNilsMade: 0 },
    ]);
    expect(stats.stats.totals).toMatchObject({ games: 1, hands: 3, misdeals: 1, tricks: 39, bostons: 1, contractsSet: 2 });
    expect(stats.highlights.map((h) => [h.kind, h.hand, h.teamId, h.text])).toEqual([
      ['boston', 1, 'aces', 'Aces took all 13 tricks: a Boston (Final, game 1, hand 1)'],
      ['big-bid-made', 1, 'aces', 'Aces bid 10 and made it: 10 for 120 (Final, game 1, hand 1)'],
      ['blind-nil-made', 3, 'kings', 'Ben of Kings made a blind nil (Final, game 1, hand 3)'],
      ['big-bid-set', 4, 'aces', 'Aces set on a bid of 11 (Final, game 1, hand 4)'],
    ]);
  });

  it('shows them on the tournament page and the team page, and as stats.csv beside standings.csv', async () => {
    const { app: paperApp } = createApp({ ledger: paper.ledger });
    const home = await (await paperApp.request('/tournaments/paper')).text();
    expect(home).toContain('id="tournament-stats"');
    expect(home).toMatch(
      /<tr data-team="aces"><th scope="row"><a href="\/tournaments\/paper\/teams\/aces">Aces<\/a><\/th><td class="num">3<\/td><td class="num">25<\/td><td class="num">25<\/td>/,
    );
    expect(home).toContain('Ben of Kings made a blind nil (Final, game 1, hand 3)');
    const team = await (await paperApp.request('/tournaments/paper/teams/kings')).text();
    expect(team).toContain('Your statistics');
    expect(team).toMatch(/<dt>Blind nils made<\/dt><dd>1\/1<\/dd>/);
    expect(team).toMatch(/<dt>Reneges claimed against you, upheld<\/dt><dd>1\/1<\/dd>/);

    const res = await paperApp.request('/tournaments/paper/stats.csv');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="paper-stats.csv"');
    const lines = (await res.text()).split('\r\n');
    expect(lines[0]).toBe(
      'kind,team_id,player_id,name,hands,bid,taken,contracts_made,contracts_set,nils_bid,nils_made,blind_nils_bid,blind_nils_made,bostons,bags,bag_penalties,reneges_claimed,reneges_upheld,best_hand',
    );
    expect(lines[1]).toBe('team,aces,,Aces,3,25,25,2,1,1,1,0,0,1,4,0,1,0,131');
    expect(lines[4]).toBe('player,aces,cy,Cy,3,14,15,,,0,0,0,0,,,,,,');
    // As of the position before the game was entered: the teams with nothing counted.
    const started = paper.ledger.store.readAll().find((e) => e.type === 'GameStarted')!.position;
    const past = await paperApp.request(`/tournaments/paper/stats.csv?position=${started - 1}`);
    expect(past.headers.get('x-ledger-position')).toBe(String(started - 1));
    expect(await past.text()).toBe(statsCsv(statsOfTournament(foldEvents(paper.ledger.store.readAll().map(projected), started - 1), 'paper')!));
    expect((await paperApp.request('/tournaments/nowhere/stats.csv')).status).toBe(404);
    expect((await paperApp.request('/tournaments/paper/stats.csv?position=x')).status).toBe(400);
  });
});

describe('a progressive evening', () => {
  let evening: AuditLedger;
  const names = ['Ada', 'Ben', 'Cy', 'Dee', 'Eve', 'Fay', 'Gus', 'Hal'];
  beforeAll(async () => {
    evening = tempLedger();
    const { ledger } = evening;
    ledger.execute(createTournament(ledger.models, { tournamentId: 'eve', name: 'Evening', format: 'tournament-spades', options: { rounds: 2 } }));
    names.forEach((name, i) => ledger.execute(registerPlayer(ledger.models, { tournamentId: 'eve', playerId: `p${i + 1}`, name })));
    ledger.execute(startTournament(ledger.models, { tournamentId: 'eve', seed: 'eve' }));
    while ((await driveTables(ledger, { tournamentId: 'eve', seed: 'eve', renegeChance: 0, now: () => '2026-01-01T20:00:00.000Z' })) > 0);
  });
  afterAll(() => evening.remove());

  it('counts each player by the seat they sat, under their player id, and shows it on their page', async () => {
    const models = evening.ledger.models;
    expect(models.tournaments.eve!.model.status).toBe('finished');
    const stats = tournamentStatsSchema.parse(statsOfTournament(models, 'eve'));
    expect(stats.stats.teams).toEqual([]);
    // Counted from the games' records, by the name on each seat.
    const counted = new Map<string, { hands: number; bid: number; taken: number; nilsBid: number; nilsMade: number }>();
    for (const game of Object.values(models.games)) {
      const res = await createApp({ ledger: evening.ledger }).app.request(`/games/${game.gameId}/record`);
      const record = (await res.json()) as { seats: Record<Seat, string>; hands: RecordHand[] };
      const deck = deckFor(readHeader(record).rules.options);
      for (const hand of record.hands) {
        if (hand.misdeal) continue;
        const taken = hand.plays
          ? replayPlays(
              deck,
              hand.dealer,
              hand.plays.map((t) => t.map((c) => parseCard(c)!)),
            ).taken
          : hand.tricks!;
        for (const seat of SEATS) {
          const line = counted.get(record.seats[seat]) ?? { hands: 0, bid: 0, taken: 0, nilsBid: 0, nilsMade: 0 };
          const bid = hand.bids![seat]!;
          line.hands++;
          line.bid += typeof bid === 'number' ? bid : 0;
          line.taken += taken[seat];
          if (bid === 'nil') line.nilsBid++;
          if (bid === 'nil' && taken[seat] === 0) line.nilsMade++;
          counted.set(record.seats[seat], line);
        }
      }
    }
    expect(stats.stats.players.map((p) => p.name)).toEqual(names);
    for (const [i, player] of stats.stats.players.entries()) {
      // Named by the person they are across events, who entered this evening as p1, p2, …
      expect(player.playerId).toBe(personOfEntry(evening.ledger.models.circuit, 'eve', `p${i + 1}`)!.playerId);
      expect(player.playerId).toBe(names[i]!.toLowerCase());
      expect(player.teamId).toBeUndefined();
      const { hands, bid, taken, nilsBid, nilsMade } = player;
      expect({ hands, bid, taken, nilsBid, nilsMade }, player.name).toEqual(counted.get(player.name));
    }
    const page = await (await createApp({ ledger: evening.ledger }).app.request('/tournaments/eve/players/p1')).text();
    expect(page).toContain('Your statistics');
    expect(page).toContain(`<dt>Hands played</dt><dd>${stats.stats.players[0]!.hands}</dd>`);
  });
});

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
import { projected, rebuildModels } from '../events/store/sqlite/ledger.ts';
import { tournamentStatsSchema } from '../events/stats-schema.ts';
import { statsOfTournament } from '../events/tournament-stats.ts';
import { createApp } from '../server/app/app.ts';
import { type AuditLedger, playTournament, tempLedger } from './fixtures/audit-ledger.ts';

type Counts = Record<string, number>;
const TEAM_OF: Record<Seat, Team> = { N: 'NS', S: 'NS', E: 'EW', W: 'EW' };

let played: AuditLedger;
let app: ReturnType<typeof createApp>['app'];
const tournamentId = 'stats';

beforeAll(() => {
  played = tempLedger();
  // unc-intramural plays unc-300 (nil, blind nil, 10 for 120) and unc-500 in the final.
  playTournament(played.ledger, { tournamentId, format: 'unc-intramural', teams: 4, seed: 'stats-5', renegeChance: 0.05 });
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
        ? replayPlays(deck, hand.dealer, hand.plays.map((t) => t.map((c) => parseCard(c)!))).taken
        : hand.tricks ?? { N: 0, E: 0, S: 0, W: 0 };
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

const TEAM_FIELDS = ['hands', 'bid', 'taken', 'contractsMade', 'contractsSet', 'nilsBid', 'nilsMade', 'blindNilsBid', 'blindNilsMade', 'bostons', 'bags', 'bagPenalties', 'renegesClaimed', 'renegesUpheld', 'bestHand'];
const PLAYER_FIELDS = ['hands', 'bid', 'taken', 'nilsBid', 'nilsMade', 'blindNilsBid', 'blindNilsMade'];
const pick = (line: Record<string, unknown> | undefined, fields: string[]) => Object.fromEntries(fields.map((f) => [f, (line?.[f] as number | undefined) ?? (f === 'bestHand' ? null : 0)]));

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

  it('are the same after a rebuild from position 0 and as of any earlier position', () => {
    const live = statsOfTournament(played.ledger.models, tournamentId);
    const rebuilt = rebuildModels(played.ledger.database, played.ledger.store);
    expect(statsOfTournament(rebuilt, tournamentId)).toEqual(live);

    const events = played.ledger.store.readAll().map(projected);
    const half = events[Math.floor(events.length / 2)]!.position;
    const before = statsOfTournament(foldEvents(events, half), tournamentId)!;
    expect(before.position).toBe(half);
    expect(before.stats.totals.hands).toBeLessThan(live!.stats.totals.hands);
    // Every highlight of the earlier moment is one of today's, as it was told then.
    for (const highlight of before.highlights.filter((h) => h.kind !== 'comeback')) expect(live!.highlights).toContainEqual(highlight);
  });
});

/**
 * A league in the read API: `/api/v1/tournaments/{id}`'s `league` gives each round's pairings with
 * their tables and byes, the tiebreaks in order in words and a tie at the top, beside the
 * standings' tiebreak values; every answer checked against the OpenAPI document the server
 * serves, and its figures against counts made here.
 */
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { importRecord } from '../events/record-import.ts';
import { type Ledger, openLedger } from '../events/store/sqlite/ledger.ts';
import { createApp } from '../server/app/app.ts';
import { createTournament, registerTeam, startTournament } from '../server/commands/tournament-commands.ts';
import { documentChecked } from './fixtures/api-document.ts';
import { startLeague, swissMidway } from './fixtures/league-events.ts';
import { removeTempDirs, tempDir } from './fixtures/live-server.ts';
import { wonRecord } from './paper-records.ts';

let ledger: Ledger | undefined;
afterEach(() => {
  ledger?.close();
  ledger = undefined;
  removeTempDirs();
});

const T = '/api/v1/tournaments/{tournamentId}';

interface TeamRef {
  teamId: string;
  name: string;
}
interface League {
  structure: string;
  tiebreaks: { tiebreak: string; words: string }[];
  tiedAtTop: TeamRef[];
  roundsInEvent: number;
  currentRound: number;
  roundToPair: number | null;
  byeCountsAsWin: boolean;
  rounds: {
    round: number;
    decided: boolean;
    bye: TeamRef | null;
    pairings: { matchId: string; table: number | null; teams: [TeamRef, TeamRef]; state: string; winner: string | null }[];
  }[];
}

describe('a league in /api/v1', () => {
  it('gives a Swiss event’s rounds, pairings at their tables and tiebreaks in words, as the document says', async () => {
    ledger = openLedger({ path: join(tempDir(), 'spades.db'), synchronous: 'NORMAL' });
    swissMidway(ledger);
    const app = createApp({ ledger }).app;
    const { api, document } = await documentChecked(app);
    expect(Object.keys((document.components as { schemas: Record<string, unknown> }).schemas)).toEqual(expect.arrayContaining(['League']));
    const { body } = await api('/api/v1/tournaments/swiss16', T);
    const league = body!.league as League;
    const model = ledger.models.tournaments.swiss16!.model;
    expect(league).toMatchObject({ structure: 'Swiss', roundsInEvent: 5, currentRound: 3, roundToPair: 4, byeCountsAsWin: true, tiedAtTop: [] });
    expect(league.tiebreaks).toEqual([
      { tiebreak: 'match-wins', words: 'matches won' },
      { tiebreak: 'opponents-match-wins', words: 'the share of matches won by the teams played' },
      { tiebreak: 'points-difference', words: 'points scored minus points conceded' },
    ]);
    // Counted here: every match of the rounds drawn, by round, each once; round 3's open ones at tables 1 to 4.
    expect(league.rounds.map((r) => r.round)).toEqual([1, 2, 3]);
    for (const round of league.rounds) {
      const matches = model.matches.filter((m) => m.round === round.round);
      expect(round.pairings.map((p) => [p.matchId, p.teams.map((t) => t.teamId)])).toEqual(matches.map((m) => [m.matchId, m.teams]));
      expect(round.decided).toBe(matches.every((m) => m.status === 'done'));
      for (const p of round.pairings) for (const t of p.teams) expect(t.name).toBe(model.teams.find((x) => x.teamId === t.teamId)!.name);
    }
    const open = league.rounds[2]!.pairings.filter((p) => p.state === 'to-seat');
    expect(open.map((p) => p.table)).toEqual([1, 2, 3, 4]);
    expect(league.rounds[2]!.pairings.filter((p) => p.state === 'decided').every((p) => p.winner !== null && p.table === null)).toBe(true);
    // The standings beside it carry each tiebreak's value, in the league's order.
    const standings = body!.standings as { teamId: string; tiebreaks: { matchWins: number } }[];
    expect(standings.map((s) => s.teamId)).toEqual(model.league!.rows.map((r) => r.teamId));
    for (const s of standings) expect(s.tiebreaks.matchWins).toBe(model.teams.find((t) => t.teamId === s.teamId)!.wins);
    // A knockout has no league.
    ledger.execute(createTournament(ledger.models, { tournamentId: 'cup', name: 'Cup', format: 'unc-intramural' }));
    for (const i of [1, 2, 3, 4]) ledger.execute(registerTeam(ledger.models, { tournamentId: 'cup', teamId: `c${i}`, name: `Cup ${i}`, players: ['A', 'B'] }));
    ledger.execute(startTournament(ledger.models, { tournamentId: 'cup', order: ['c1', 'c2', 'c3', 'c4'] }));
    expect((await api('/api/v1/tournaments/cup', T)).body!.league).toBeNull();
  });

  it('names the teams tied for first and each round’s bye in a round robin', async () => {
    ledger = openLedger({ path: join(tempDir(), 'spades.db'), synchronous: 'NORMAL' });
    startLeague(ledger, 'ring', 'Ring', 'round-robin', 3, 1);
    const beats: Record<string, string> = { 'ring-1': 'ring-2', 'ring-2': 'ring-3', 'ring-3': 'ring-1' };
    for (const m of ledger.models.tournaments.ring!.model.matches.filter((x) => x.status === 'ready')) {
      const side = beats[m.teams[0]!] === m.teams[1] ? 'NS' : 'EW';
      ledger.execute(importRecord(ledger.models, wonRecord('blp-r1', side, 'same'), { tournamentId: 'ring', matchId: m.matchId }, '2026-03-01T13:00:00.000Z'));
    }
    const { api } = await documentChecked(createApp({ ledger }).app);
    const { body } = await api('/api/v1/tournaments/ring', T);
    const league = body!.league as League;
    expect(league.structure).toBe('Round robin');
    expect(league.tiedAtTop.map((t) => t.teamId).sort()).toEqual(['ring-1', 'ring-2', 'ring-3']);
    expect(league.rounds.map((r) => r.bye?.teamId).sort()).toEqual(['ring-1', 'ring-2', 'ring-3']);
    expect(league.byeCountsAsWin).toBe(false);
    expect(league.roundToPair).toBeNull();
    const standings = body!.standings as { place: number; tiebreaks: { shared: boolean; headToHead: number | null } }[];
    expect(standings.map((s) => [s.place, s.tiebreaks.shared, s.tiebreaks.headToHead])).toEqual([
      [1, true, 1],
      [1, true, 1],
      [1, true, 1],
    ]);
  });
});

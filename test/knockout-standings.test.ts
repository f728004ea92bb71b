/**
 * Standings of a knockout rank by where teams stand in the bracket: the champion, the teams
 * still playing (furthest on first), the places decided, then the teams out (latest out first);
 * points only break ties, and the table says so.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { openLedger } from '../events/store/sqlite/ledger.ts';
import type { TournamentModel } from '../events/read-models.ts';
import { createTournament, registerTeam, startTournament } from '../server/commands/tournament-commands.ts';
import { driveTables } from '../server/serve/table-driver.ts';
import { Leaderboard } from '../views/leaderboard.tsx';
import { Bracket } from '../views/bracket.tsx';
import { removeTempDirs, tempDir } from './fixtures/live-server.ts';
import { rankTeams, bracketReach, compareReach } from '../events/standings.ts';

afterAll(() => removeTempDirs());

async function playedKnockout(teams: number, results: number): Promise<TournamentModel> {
  const ledger = openLedger({ path: join(tempDir(), 'spades.db'), synchronous: 'NORMAL' });
  try {
    ledger.execute(createTournament(ledger.models, { tournamentId: 'ko', name: 'Knockout', format: 'asher-theatre' }));
    for (let i = 1; i <= teams; i++)
      ledger.execute(registerTeam(ledger.models, { tournamentId: 'ko', teamId: `team${i}`, name: `Team ${i}`, players: ['A', 'B'] }));
    ledger.execute(startTournament(ledger.models, { tournamentId: 'ko', seed: 'ko' }));
    const model = () => ledger.models.tournaments.ko!.model;
    for (let i = 0; i < 20_000 && model().matches.filter((m) => m.status === 'done').length < results && model().status !== 'finished'; i++) {
      await driveTables(ledger, { tournamentId: 'ko', seed: 'ko', now: () => '2026-01-01T10:00:00.000Z' });
    }
    return structuredClone(model());
  } finally {
    ledger.close();
  }
}

describe('knockout standings', () => {
  let midway: TournamentModel;
  beforeAll(async () => {
    midway = await playedKnockout(8, 5);
  });

  it('ranks teams still in the bracket above teams out, whatever their points, and orders each group by how far it got', () => {
    const reach = bracketReach(midway);
    const ranked = rankTeams(midway);
    const tiers = ranked.map((t) => reach.get(t.teamId)!.tier);
    expect(tiers).toEqual([...tiers].sort((a, b) => a - b));
    expect(tiers).toContain(1);
    expect(tiers).toContain(3);
    for (let i = 1; i < ranked.length; i++) {
      const [a, b] = [ranked[i - 1]!, ranked[i]!];
      const order = compareReach(reach.get(a.teamId), reach.get(b.teamId));
      expect(order).toBeLessThanOrEqual(0);
      // Points decide only between teams the bracket leaves level.
      if (order === 0 && a.losses === b.losses) expect(a.points).toBeGreaterThanOrEqual(b.points);
    }
    // Ranking by points alone would read differently: the best-scoring team out is below every team alive.
    const out = ranked.filter((t) => reach.get(t.teamId)!.tier === 3);
    const alive = ranked.filter((t) => reach.get(t.teamId)!.tier === 1);
    const best = [...out].sort((a, b) => b.points - a.points)[0]!;
    for (const team of alive) expect(ranked.indexOf(team)).toBeLessThan(ranked.indexOf(best));
  });

  it('labels points as the tiebreak and says the round each team reached or went out in', () => {
    const html = String(Leaderboard({ tournament: midway }));
    expect(html).toContain('Points, tiebreak');
    expect(html).toMatch(/Eliminated in round 1/);
    // A badge whose words name the round does not repeat it ("Playing round 2, round 2").
    expect(html).toContain('>Playing round 2</span>');
    expect(html).not.toMatch(/round (\d+), round \1/i);
    // The headers read as text stay apart ("Points, tiebreakStanding" ran them together).
    const headers = /<thead>([\s\S]*)<\/thead>/.exec(html)![1]!.replace(/<[^>]+>/g, '');
    expect(headers).toBe('# Team Matches Games Points, tiebreak Bags Sets Standing');
    // The screen's one column takes the short words, which name the round too.
    const screen = String(Leaderboard({ tournament: midway, columns: 1 }));
    expect(screen).toContain('>Round 2</span>');
    expect(screen).not.toMatch(/round (\d+), round \1/i);
  });

  it('heads a single elimination’s one bracket as such, not as a winners’ bracket', () => {
    const html = String(Bracket({ tournament: midway, single: true }));
    expect(html).toMatch(/<h3 id="bracket-winners-title">Single elimination<\/h3>/);
    expect(html).not.toContain('Winners’ bracket');
  });

  it('puts the champion first and the runner-up second once the event is over', async () => {
    const done = await playedKnockout(4, 99);
    expect(done.status).toBe('finished');
    const ranked = rankTeams(done);
    expect(ranked[0]!.status).toBe('champion');
    expect(done.placings.find((p) => p.teamId === ranked[1]!.teamId)?.place).toBe(2);
  });

  it('keeps the old order before a bracket is drawn and for a progressive evening', () => {
    const html = String(Leaderboard({ tournament: { ...midway, matches: [], format: 'tournament-spades' } }));
    expect(html).not.toContain('tiebreak');
  });
});

/**
 * What the room reads about the competition: a pitt-boss event of 8 teams played through by
 * bots, checked after every entry. A first-round loser plays on in the losers' bracket for 3rd
 * and reads so until it loses again; the final and the match for 3rd are labelled as such; a
 * team's matches read as the games it won (2–1).
 */
import { describe, expect, it } from 'vitest';
import { driveTables } from '../server/serve/table-driver.ts';
import { checkInTeam, createTournament, registerTeam, startTournament } from '../server/commands/tournament-commands.ts';
import { Bracket } from '../views/bracket.tsx';
import { Leaderboard } from '../views/leaderboard.tsx';
import { element } from './fixtures/html.ts';
import { expectRebuildEqualsLive, tempLedger } from './tournament-ledger.ts';
import { bracketSources } from '../engine/bracket.ts';
import { teamStandings } from '../events/standings.ts';

describe('a pitt-boss event in the competition’s own words', () => {
  it('keeps first-round losers in the losers’ bracket until they lose again, and labels the final and the match for 3rd', async () => {
    const ledger = tempLedger();
    const m = ledger.models;
    ledger.execute(createTournament(m, { tournamentId: 'pb', name: 'Pitt Boss Friday', format: 'pitt-boss' }));
    for (let i = 1; i <= 8; i++) {
      ledger.execute(registerTeam(m, { tournamentId: 'pb', teamId: `team${i}`, name: `Team ${i}`, players: [`P${i}a`, `P${i}b`] }));
      ledger.execute(checkInTeam(m, { tournamentId: 'pb', teamId: `team${i}`, at: '2026-01-01T09:00:00.000Z' }));
    }
    ledger.execute(startTournament(m, { tournamentId: 'pb', seed: 'words' }));
    const tournament = () => m.tournaments.pb!.model;

    // Every team's standing after every entry at the tables.
    const seen = new Map<string, Set<string>>();
    let leaderboardWithLosers: string | null = null;
    for (let step = 0; (await driveTables(ledger, { tournamentId: 'pb', seed: 'words' })) > 0; step++) {
      if (step > 100_000) throw new Error('the event did not finish');
      const t = tournament();
      const standings = teamStandings(t);
      const firstRound = t.matches.filter((x) => x.side === 'winners' && x.round === 1 && x.status === 'done');
      const laterLosses = new Set(
        t.matches
          .filter((x) => x.status === 'done' && !(x.side === 'winners' && x.round === 1))
          .map((x) => (x.winner === x.teams[0] ? x.teams[1] : x.teams[0])),
      );
      for (const match of firstRound) {
        const loser = match.winner === match.teams[0] ? match.teams[1]! : match.teams[0]!;
        const row = t.teams.find((x) => x.teamId === loser)!;
        const label = standings.get(loser)!.label;
        if (laterLosses.has(loser)) {
          // Lost again: out of the event (or placed, once it is over).
          expect(row.status, `${loser} at step ${step}`).toBe('out');
          expect(label).toMatch(/^(Eliminated|\d+(st|nd|rd|th) place)$/);
        } else if (t.status !== 'finished') {
          // Still in: in the losers' bracket, in its final for 3rd, or holding 3rd place once it has won it.
          expect(row.status, `${loser} at step ${step}`).toBe('alive');
          expect(label, `${loser} at step ${step}`).toMatch(/^(Losers’ bracket|Losers’ final, for 3rd$|3rd place$)/);
          leaderboardWithLosers ??= String(Leaderboard({ tournament: t }));
        }
        seen.set(loser, (seen.get(loser) ?? new Set()).add(label));
      }
    }

    const t = tournament();
    expect(t.status).toBe('finished');
    // Four first-round losers, each read as in the losers' bracket before it went out or placed.
    expect(seen.size).toBe(4);
    for (const [team, labels] of seen)
      expect(
        [...labels].some((l) => l.startsWith('Losers’ bracket')),
        team,
      ).toBe(true);
    expect(leaderboardWithLosers).toContain('Losers’ bracket, for 3rd');

    // At the end: the champion, 2nd and 3rd by place, the rest eliminated.
    const standings = teamStandings(t);
    const byPlace = (place: number) => standings.get(t.placings.find((p) => p.place === place)!.teamId)!.label;
    expect(byPlace(1)).toBe('Champion');
    expect(byPlace(2)).toBe('2nd place');
    expect(byPlace(3)).toBe('3rd place');
    expect([...standings.values()].filter((s) => s.label === 'Eliminated')).toHaveLength(5);

    // Matches read as games won: the final's winner has 2 games.
    const final = t.matches.find((x) => x.side === 'final')!;
    expect(Math.max(...final.gamesWon)).toBe(2);
    const html = String(Bracket({ tournament: t, gamesToWin: 2, sources: bracketSources(m.tournaments.pb!) }));
    const finalCard = element(html, /<article [^>]*data-match="F"/);
    expect(finalCard).toContain('<span class="match-label">Final</span>');
    expect(finalCard).toMatch(/<span class="games-won">2</);
    // The losers' bracket says what it plays for, and its last match is the one for 3rd.
    expect(html).toContain('Losers’ bracket<span class="side-note"> · plays for 3rd place</span>');
    expect(html).toContain('>Losers’ final, for 3rd</h4>');
    const lastLosers = t.matches.filter((x) => x.side === 'losers').sort((a, b) => b.round - a.round)[0]!;
    expect(element(html, new RegExp(`<article [^>]*data-match="${lastLosers.matchId}"`))).toContain('<span class="match-label">For 3rd place</span>');
    // The final is drawn as the winners' bracket's last column, joined by lines to the matches that feed it.
    const winners = element(html, /<section class="bracket-side bracket-side--winners[ "]/);
    expect(winners).toContain('>Final</h4>');
    expect(winners).toMatch(/class="cell gc-3 gs-4 joins-2"><article class="match match--done" data-match="F"/);
    expect((winners.match(/ feeds"/g) ?? []).length).toBe(6);

    expectRebuildEqualsLive(ledger);
  }, 120_000);

  it('names where a slot’s team comes from before it is known', () => {
    const ledger = tempLedger();
    const m = ledger.models;
    ledger.execute(createTournament(m, { tournamentId: 'pb', name: 'Pitt Boss Friday', format: 'pitt-boss' }));
    for (let i = 1; i <= 4; i++) ledger.execute(registerTeam(m, { tournamentId: 'pb', teamId: `team${i}`, name: `Team ${i}`, players: [`P${i}a`, `P${i}b`] }));
    ledger.execute(startTournament(m, { tournamentId: 'pb', seed: 'slots' }));
    const html = String(Bracket({ tournament: m.tournaments.pb!.model, gamesToWin: 2, sources: bracketSources(m.tournaments.pb!) }));
    const final = element(html, /<article [^>]*data-match="F"/);
    expect(final).toContain('>Winner of match 1<');
    expect(final).toContain('>Winner of match 2<');
    expect(element(html, /<article [^>]*data-match="L1-1"/)).toContain('>Loser of match 1<');
    expect(html).not.toContain('TBD');
  });
});

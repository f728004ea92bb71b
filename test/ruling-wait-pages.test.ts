/**
 * A match held by a claim waiting for a ruling says so where people look: the director's desk,
 * the judge console, the venue's TV and both teams' pages read "Waiting for a ruling on table N"
 * with how long it has waited, in words, counted from the claim's recorded time to the app's clock;
 * the API says the same with the recorded time.
 */
import { describe, expect, it } from 'vitest';
import { createApp } from '../server/app/app.ts';
import { claimRenege, giveRuling } from '../server/commands/game-commands.ts';
import { createTournament, registerTeam, startTournament } from '../server/commands/tournament-commands.ts';
import { driveTables } from '../server/serve/table-driver.ts';
import { tempLedger } from './tournament-ledger.ts';

describe('a match waiting for a ruling, on the pages', () => {
  it('reads "Waiting for a ruling on table N for 4 minutes" on the desk, the judge console, the TV and both teams’ pages', async () => {
    const ledger = tempLedger();
    const m = ledger.models;
    ledger.execute(createTournament(m, { tournamentId: 'a', name: 'Asher Cup', format: 'asher-theatre' }));
    ['Aces', 'Kings', 'Queens', 'Jacks'].forEach((name, i) =>
      ledger.execute(registerTeam(m, { tournamentId: 'a', teamId: `t${i + 1}`, name, players: [`${name} One`, `${name} Two`] })),
    );
    ledger.execute(startTournament(m, { tournamentId: 'a', order: ['t1', 't2', 't3', 't4'] }));
    const first = () => m.tournaments.a!.model.matches.find((x) => x.round === 1)!;
    const game = () => m.games[first().games[0] ?? '']!;
    for (let n = 0; !((game()?.current?.plays.length ?? 0) >= 3); n++) {
      if ((await driveTables(ledger, { tournamentId: 'a', seed: 'pages', now: () => '2026-01-01T10:00:00.000Z', judge: false })) === 0 || n > 5000)
        throw new Error('no trick was played');
    }
    ledger.execute(claimRenege(m, { gameId: game().gameId, claimId: 'c1', seat: 'S', trick: 2 }));
    const claimedAt = game().claims[0]!.at;
    let now = new Date(Date.parse(claimedAt) + 4 * 60_000 + 30_000).toISOString();
    const { app, auth } = createApp({ ledger, now: () => now });
    await auth.users.add('Dana Director', 'director', 'director-password');
    await auth.users.add('Jo Judge', 'judge', 'judge-password');
    const signIn = async (name: string, password: string) => {
      const res = await app.request('/login', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name, password }) });
      expect(res.status).toBe(200);
      return { cookie: (res.headers.get('set-cookie') ?? '').split(';')[0]! };
    };
    const director = await signIn('Dana Director', 'director-password');
    const judge = await signIn('Jo Judge', 'judge-password');
    const table = first().table!;
    const [a, b] = first().teams as [string, string];
    const pages: [string, Record<string, string>][] = [
      ['/director/tournaments/a', director],
      ['/judge', judge],
      ['/screen', {}],
      [`/tournaments/a/teams/${a}`, {}],
      [`/tournaments/a/teams/${b}`, {}],
    ];
    const read = async (path: string, headers: Record<string, string>) => {
      const res = await app.request(path, { headers });
      expect(res.status, path).toBe(200);
      return (await res.text()).replace(/<[^>]+>/g, '').replace(/\s+/g, ' ');
    };
    for (const [path, headers] of pages) {
      expect(await read(path, headers), path).toMatch(new RegExp(`[Ww]aiting for a ruling on table ${table} for 4 minutes`));
      // The page keeps the time ticking from the claim's recorded time (static/clock.js).
      expect(await (await app.request(path, { headers })).text(), path).toContain(`data-waited-since="${claimedAt}"`);
    }
    // The bracket marks the match.
    expect(await (await app.request('/tournaments/a/bracket')).text()).toContain('data-awaiting-ruling');
    // The other match waits for nothing, and its teams' pages say nothing of a ruling.
    const other = m.tournaments.a!.model.matches.find((x) => x.round === 1 && x.matchId !== first().matchId)!;
    expect(await read(`/tournaments/a/teams/${other.teams[0]}`, {})).not.toContain('aiting for a ruling');

    // The API says which match waits, since when and for how many claims.
    const api = async () =>
      ((await (await app.request('/api/v1/tournaments/a')).json()) as { bracket: { matches: { matchId: string; awaitingRuling: unknown }[] } }).bracket.matches;
    expect((await api()).find((x) => x.matchId === first().matchId)!.awaitingRuling).toEqual({ since: claimedAt, claims: 1 });
    expect((await api()).find((x) => x.matchId === other.matchId)!.awaitingRuling).toBeNull();

    // An hour and five minutes on, the words follow the clock.
    now = new Date(Date.parse(claimedAt) + 65 * 60_000).toISOString();
    expect(await read(`/tournaments/a/teams/${a}`, {})).toContain(`Waiting for a ruling on table ${table} for 1 hour 5 minutes`);

    // Ruled on: no page says it any more.
    ledger.execute(giveRuling(m, { gameId: game().gameId, claimId: 'c1', upheld: false, note: 'followed suit', judge: 'Jo Judge' }));
    for (const [path, headers] of pages) expect(await read(path, headers), path).not.toContain('aiting for a ruling');
    expect((await api()).find((x) => x.matchId === first().matchId)!.awaitingRuling).toBeNull();
    expect(await (await app.request('/tournaments/a/bracket')).text()).not.toContain('data-awaiting-ruling');
    ledger.close();
  });
});

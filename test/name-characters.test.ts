/**
 * Names hold only what can be seen: control characters (NUL, BEL, CR, LF), zero-width and
 * direction marks, overrides and isolates, the byte order mark, and names of nothing visible are
 * refused with a sentence by every way a name comes in (a tournament, a team and its players, a
 * progressive player, a pasted list, public sign-up, a paper record's sides and seats), and
 * nothing is recorded. A CSV stays formula-safe for a name such characters start; a parameter
 * echoed in a 400 is cut to a few characters, and one a resource does not take is let be.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nameProblem } from '../events/names.ts';
import { createTournament } from '../server/commands/tournament-commands.ts';
import { csvText } from '../server/http/csv-text.ts';
import { ECHO_MAX } from '../server/http/request-input.ts';
import { type Fixture, copyOf, makeFixture, send } from './routes-fixture.ts';
import { fullGameRecord } from './record-builders.ts';

let fixture: Fixture;
beforeAll(async () => {
  fixture = await makeFixture();
});
afterAll(() => fixture?.close());

/** Each character and what the refusal calls it. */
const HIDDEN: [string, string][] = [
  ['\u0000', 'a null character'],
  ['\u0007', 'a control character'],
  ['\r', 'a line break'],
  ['\n', 'a line break'],
  ['\u0085', 'a control character'],
  ['\u200b', 'a character that cannot be seen'],
  ['\u200d', 'a character that cannot be seen'],
  ['\u200f', 'a character that changes the direction of the text'],
  ['\u202a', 'a character that changes the direction of the text'],
  ['\u202e', 'a character that changes the direction of the text'],
  ['\u2066', 'a character that changes the direction of the text'],
  ['\u2069', 'a character that changes the direction of the text'],
  ['\ufeff', 'a character that cannot be seen'],
];

const error = async (res: Response) => ((await res.json()) as { error: string }).error;

describe('nameProblem', () => {
  it('names each hidden character, where it is, in people’s words', () => {
    for (const [ch, kind] of HIDDEN) {
      const code = ch.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0');
      expect(nameProblem(`Ace${ch}s`, 'the team name')).toBe(
        `the team name holds ${kind} (U+${code}) at character 4; a name is written with letters, digits, spaces and punctuation that can be seen`,
      );
    }
  });

  it('refuses a name of nothing visible', () => {
    for (const name of ['\u3164', '\u2800\u2800', '\u00ad', '\u034f'])
      expect(nameProblem(name, 'the name')).toBe('the name has no character that can be seen; write the name in letters or digits');
  });
});

describe('every way a name comes in', () => {
  it('a tournament, a team and its players, through the director’s routes: refused with a sentence, nothing recorded', async () => {
    const { ledger, app } = copyOf(fixture);
    const director = fixture.clients.director;
    const head = ledger.store.head().position;
    for (const [ch] of HIDDEN) {
      const made = await send(app, director, 'POST', '/director/tournaments', { json: { tournamentId: 'cup', name: `Spring${ch}Cup`, format: 'pitt-boss' } });
      expect(made.status, JSON.stringify(ch)).toBe(400);
      expect(await error(made)).toMatch(/^the tournament’s name holds .+ at character 7; a name is written with/);
    }
    const team = await send(app, director, 'POST', '/director/tournaments/t2/teams', {
      json: { name: '\u200b\u200b', player1: 'A', player2: 'B', teamId: 'ghost' },
    });
    expect(team.status).toBe(400);
    expect(await error(team)).toMatch(/^the team name holds a character that cannot be seen \(U\+200B\) at character 1/);
    const player = await send(app, director, 'POST', '/director/tournaments/t2/teams', {
      json: { name: 'Fives', player1: 'Ann', player2: 'Bo\u202Eb', teamId: 'fives' },
    });
    expect(player.status).toBe(400);
    expect(await error(player)).toBe(
      'player 2’s name holds a character that changes the direction of the text (U+202E) at character 3; a name is written with letters, digits, spaces and punctuation that can be seen',
    );
    expect(ledger.store.head().position).toBe(head);
    ledger.close();
  });

  it('a pasted list names each line and field', async () => {
    const { ledger, app } = copyOf(fixture);
    const head = ledger.store.head().position;
    const lines = ['Sixes, Ann, Bo', 'Sev\u0007ens, Cy, Di', 'Eights, E\u2066d, Flo'].join('\n');
    const res = await send(app, fixture.clients.director, 'POST', '/director/tournaments/t2/teams/bulk', { json: { lines, confirm: 'yes' } });
    expect(res.status).toBe(400);
    const body = (await res.json()) as { problems: { line: number; field: string; problem: string }[] };
    expect(body.problems).toEqual([
      {
        line: 2,
        field: 'name',
        problem: 'holds a control character (U+0007) at character 4; a name is written with letters, digits, spaces and punctuation that can be seen',
      },
      {
        line: 3,
        field: 'player1',
        problem:
          'holds a character that changes the direction of the text (U+2066) at character 2; a name is written with letters, digits, spaces and punctuation that can be seen',
      },
    ]);
    expect(ledger.store.head().position).toBe(head);
    ledger.close();
  });

  it('public sign-up', async () => {
    const { ledger, app } = copyOf(fixture);
    ledger.execute(createTournament(ledger.models, { tournamentId: 'open', name: 'Open Day', format: 'pitt-boss' }));
    expect((await send(app, fixture.clients.director, 'POST', '/director/tournaments/open/sign-up', { json: { open: true } })).status).toBe(200);
    const head = ledger.store.head().position;
    const res = await send(app, null, 'POST', '/tournaments/open/sign-up', { json: { name: 'Jokers\u200f', player1: 'A', player2: 'B' } });
    expect(res.status).toBe(400);
    expect(await error(res)).toMatch(/^the team name holds a character that changes the direction of the text \(U\+200F\) at character 7/);
    const player = await send(app, null, 'POST', '/tournaments/open/sign-up', { json: { name: 'Jokers', player1: 'A\nB', player2: 'C' } });
    expect(player.status).toBe(400);
    expect(await error(player)).toMatch(/^player 1’s name holds a line break \(U\+000A\) at character 2/);
    expect(ledger.store.head().position).toBe(head);
    ledger.close();
  });

  it('a paper record’s sides and seats', async () => {
    const { ledger, app } = copyOf(fixture);
    const judge = fixture.clients.judge;
    const head = ledger.store.head().position;
    const side = await send(app, judge, 'POST', '/api/games/import', {
      json: { gameId: 'paper-x', teams: { NS: 'Ana\r\nCy', EW: 'Ben' }, record: fullGameRecord() },
    });
    expect(side.status).toBe(400);
    expect(await error(side)).toBe(
      'teams.NS: the name of the NS team holds a line break (U+000D) at character 4; a name is written with letters, digits, spaces and punctuation that can be seen',
    );
    const record = fullGameRecord() as { seats: Record<string, string> };
    record.seats.W = '\u0000=SUM(1;2)';
    const seat = await send(app, judge, 'POST', '/api/games/import', { json: { gameId: 'paper-y', record } });
    expect(seat.status).toBe(400);
    expect(await error(seat)).toBe(
      'record: seats.W: the name in West holds a null character (U+0000) at character 1; a name is written with letters, digits, spaces and punctuation that can be seen',
    );
    expect(ledger.store.head().position).toBe(head);
    ledger.close();
  });
});

describe('CSV exports', () => {
  it('keep a name a hidden character starts from being read as a formula', () => {
    expect(csvText('\u0000=SUM(1;2)')).toBe("'\u0000=SUM(1;2)");
    expect(csvText('\u200b+1')).toBe("'\u200b+1");
    expect(csvText(' =cmd')).toBe("' =cmd");
    expect(csvText('\u202e@x')).toBe("'\u202e@x");
    expect(csvText('Aces')).toBe('Aces');
    expect(csvText('=1,2')).toBe(`"'=1,2"`);
  });

  it('a stored name starting with NUL and = comes out of the standings CSV with its quote', async () => {
    const { ledger, app } = copyOf(fixture);
    // As a ledger from before the check holds it.
    ledger.execute({
      stream: 'tournament-t2',
      events: [{ type: 'TeamRegistered', payload: { tournamentId: 't2', teamId: 'formula', name: '\u0000=SUM(1;2)', players: ['A', 'B'], fee: null } }],
    });
    const csv = await (await app.request('/tournaments/t2/standings.csv')).text();
    expect(csv).toContain("'\u0000=SUM(1;2)");
    expect(csv).not.toMatch(/(^|,)\u0000=SUM/m);
    ledger.close();
  });
});

describe('a parameter echoed in a 400', () => {
  it('is cut to a few characters, name or value', async () => {
    const { ledger, app } = copyOf(fixture);
    const name = `x${'y'.repeat(15_000)}`;
    // A parameter the resource does not take is let be (a cache-buster, say), however long, and never echoed.
    const unknown = await app.request(`/api/v1/tournaments?${name}=1`);
    expect(unknown.status).toBe(200);
    expect(await unknown.text()).not.toContain('yyyyyyyy');
    for (const [parameter, sample] of [
      ['asOf', '9'],
      ['status', 'z'],
      ['format', 'z'],
    ] as const) {
      const value = await app.request(`/api/v1/tournaments?${parameter}=${sample.repeat(15_000)}`);
      expect(value.status, parameter).toBe(400);
      const said = await error(value);
      expect(said.length, said).toBeLessThan(120 + ECHO_MAX);
      expect(said).not.toContain(sample.repeat(ECHO_MAX + 1));
    }
    ledger.close();
  });
});

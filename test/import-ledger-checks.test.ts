/**
 * `spades import-ledger` takes only rows a live append could have written. Each attack edits
 * one row of a played ledger's export and then chains every hash again from there, so the
 * chain verifies and only the checks of the rows themselves can refuse it: exit 2, one line
 * naming the position, and nothing written.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli } from './fixtures/cli.ts';
import { rechained as rechainedLines } from './fixtures/rechain.ts';
import type { LedgerLine } from '../events/store/ledger-file.ts';
import { exportLines } from '../events/store/sqlite/ledger-tools.ts';
import { openLedger } from '../events/store/sqlite/ledger.ts';
import { playTournament } from './fixtures/audit-ledger.ts';

let dir: string;
let lines: LedgerLine[];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'spades-import-checks-'));
  const ledger = openLedger({ path: join(dir, 'played.db'), synchronous: 'NORMAL' });
  await playTournament(ledger, { stopAt: 400 });
  lines = [...exportLines(ledger.database)].map((text) => JSON.parse(text) as LedgerLine);
  ledger.close();
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The export with one row changed, every hash from the first row chained again as an attacker would. */
const rechained = (edit: (lines: LedgerLine[]) => void) => rechainedLines(lines, edit);

const first = (type: string) => lines.find((l) => l.type === type)!.position;

async function expectRefused(name: string, text: string, position: number, problem: RegExp): Promise<void> {
  const target = join(dir, `${name}.db`);
  const result = await cli(['import-ledger', '-', '--db', target], text);
  expect(result.code).toBe(2);
  expect(result.stdout).toBe('');
  expect(result.stderr.split('\n')).toHaveLength(2);
  expect(result.stderr).toMatch(new RegExp(`^spades import-ledger: -: line ${position + 1} \\(position ${position}\\): `));
  expect(result.stderr).toMatch(problem);
  expect(result.stderr).toMatch(/nothing was imported\n$/);
  // A refused import into a new file leaves no file behind.
  expect(existsSync(target)).toBe(false);
}

describe('spades import-ledger', () => {
  it('takes the played ledger as exported, so each refusal below is the edit alone', async () => {
    const target = join(dir, 'clean.db');
    expect(
      await cli(
        ['import-ledger', '-', '--db', target],
        rechained(() => {}),
      ),
    ).toMatchObject({ code: 0 });
  });

  it('refuses an event type the ledger does not know', async () => {
    const position = first('BidMade');
    await expectRefused(
      'unknown-type',
      rechained((ls) => void (ls[position - 1]!.type = 'BidWithdrawn')),
      position,
      /its type "BidWithdrawn" is not an event type/,
    );
  });

  it('refuses a type whose text carries quotes and JSON, without reading it as data', async () => {
    const position = first('CardPlayed');
    const injected = 'CardPlayed",1,{"tournamentId":"t1","teamId":"ghost","name":"Ghost Team"}],[0,"TeamRegistered';
    await expectRefused(
      'quoted-type',
      rechained((ls) => void (ls[position - 1]!.type = injected)),
      position,
      /is not an event type/,
    );
  });

  it('refuses a card that is in no deck', async () => {
    const position = first('CardPlayed');
    await expectRefused(
      'bad-card',
      rechained((ls) => void ((ls[position - 1]!.payload as { card: string }).card = '1X')),
      position,
      /"1X" is not a card/,
    );
  });

  it("refuses a card the game's deck does not hold", async () => {
    const position = first('CardPlayed');
    // Every preset plays 52 cards with no jokers unless it says so: the big joker is not among them.
    await expectRefused(
      'joker',
      rechained((ls) => void ((ls[position - 1]!.payload as { card: string }).card = 'BJ')),
      position,
      /not in this game's deck/,
    );
  });

  it('refuses a seat that does not exist', async () => {
    const position = first('BidMade');
    await expectRefused(
      'bad-seat',
      rechained((ls) => void ((ls[position - 1]!.payload as { seat: string }).seat = 'X')),
      position,
      /payload\.seat/,
    );
  });

  it('refuses an event for a game that was never started', async () => {
    const position = first('CardPlayed');
    await expectRefused(
      'no-game',
      rechained((ls) => void ((ls[position - 1]!.payload as { gameId: string }).gameId = 'nowhere')),
      position,
      /game nowhere was never started/,
    );
  });

  it('refuses a side or id that every object answers to, as registration and imports do', async () => {
    const started = first('GameStarted');
    await expectRefused(
      'proto-side',
      rechained((ls) => void ((ls[started - 1]!.payload as { teams: { EW: string } }).teams.EW = '__proto__')),
      started,
      /teams\.EW '__proto__' is a word the server keeps for itself/,
    );
    const registered = first('TeamRegistered');
    await expectRefused(
      'constructor-team',
      rechained((ls) => void ((ls[registered - 1]!.payload as { teamId: string }).teamId = 'constructor')),
      registered,
      /teamId 'constructor' is a word the server keeps for itself/,
    );
  });

  describe('replays each row through the decision its live command makes', () => {
    const at = (type: string, after = 0) => lines.find((l) => l.type === type && l.position > after)!;
    const cardsOf = (hand: LedgerLine) =>
      lines.filter(
        (l) => l.type === 'CardPlayed' && l.stream === hand.stream && (l.payload as { hand: number }).hand === (hand.payload as { hand: number }).hand,
      );

    it('refuses the same card played twice in a hand', async () => {
      const [firstCard, second] = cardsOf(at('CardPlayed'));
      const card = (firstCard!.payload as { card: string }).card;
      await expectRefused(
        'card-twice',
        rechained((ls) => void ((ls[second!.position - 1]!.payload as { card: string }).card = card)),
        second!.position,
        new RegExp(`hand 1: ${card} has already been played`),
      );
    });

    it('refuses a card for a hand that was never dealt', async () => {
      const row = at('CardPlayed');
      await expectRefused(
        'hand-99',
        rechained((ls) => void ((ls[row.position - 1]!.payload as { hand: number }).hand = 99)),
        row.position,
        /CardPlayed records hand 99, but at this point of the ledger it would be 1/,
      );
    });

    it('refuses tricks that do not add up to 13', async () => {
      const row = at('CardPlayed');
      const { gameId, hand } = row.payload as { gameId: string; hand: number };
      const edit = (ls: LedgerLine[]) =>
        void Object.assign(ls[row.position - 1]!, { type: 'TricksRecorded', payload: { gameId, hand, tricks: { N: 13, E: 13, S: 13, W: 1 } } });
      await expectRefused('tricks-40', rechained(edit), row.position, /tricks add up to 40; a hand has 13/);
    });

    it("refuses a card on a tournament's stream", async () => {
      const row = at('CardPlayed');
      await expectRefused(
        'card-on-tournament',
        rechained((ls) => void (ls[row.position - 1]!.stream = 'tournament-t1')),
        row.position,
        /CardPlayed belongs in stream game-\S+, not tournament-t1/,
      );
    });

    it("refuses one game's card in another game's stream", async () => {
      const games = lines.filter((l) => l.type === 'GameStarted');
      expect(games.length).toBeGreaterThan(1);
      const row = at('CardPlayed', games[1]!.position);
      const other = lines.find((l) => l.type === 'GameStarted' && l.stream !== row.stream)!.stream;
      await expectRefused(
        'card-in-other-game',
        rechained((ls) => void (ls[row.position - 1]!.stream = other)),
        row.position,
        new RegExp(`belongs in stream ${row.stream}, not ${other}`),
      );
    });

    it('refuses a game started for a tournament that does not exist', async () => {
      const row = at('GameStarted');
      await expectRefused(
        'ghost-tournament',
        rechained((ls) => void ((ls[row.position - 1]!.payload as { tournamentId: string }).tournamentId = 'ghost')),
        row.position,
        /tournament ghost does not exist/,
      );
    });

    it('refuses a team registered after the start', async () => {
      const started = at('TournamentStarted');
      const next = started.position + 1;
      const registration = { tournamentId: 't1', teamId: 'late', name: 'Late Team', players: ['L1', 'L2'], fee: 30 };
      const edit = (ls: LedgerLine[]) => void Object.assign(ls[next - 1]!, { type: 'TeamRegistered', stream: 'tournament-t1', payload: registration });
      await expectRefused('late-team', rechained(edit), next, /tournament t1 has started; registration is closed/);
    });

    it('refuses a tournament started twice', async () => {
      const started = at('TournamentStarted');
      const next = started.position + 1;
      const edit = (ls: LedgerLine[]) =>
        void Object.assign(ls[next - 1]!, { type: 'TournamentStarted', stream: started.stream, payload: structuredClone(started.payload) });
      await expectRefused('started-twice', rechained(edit), next, /tournament t1 has already started/);
    });
  });
});

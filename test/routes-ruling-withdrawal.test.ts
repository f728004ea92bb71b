/**
 * Withdrawing a judge's ruling through the console: a renege ruling or a score correction is
 * taken back by a later RulingWithdrawn event (asked once to confirm), the score and the
 * standings go back, the console lists each ruling with its effect and, once withdrawn, who
 * withdrew it and why; a ruling already withdrawn and a kind of ruling that is not withdrawn
 * are refused with a sentence, recording nothing. (A withdrawal that would change a decided
 * match follows the rule a ruling follows: reopening.test.ts.)
 * The ledger with withdrawals exports and imports through the live commands.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LedgerLine } from '../events/store/ledger-file.ts';
import { exportLines } from '../events/store/sqlite/ledger-tools.ts';
import { claimRenege, correctScore, giveRuling, recordTricks } from '../server/commands/game-commands.ts';
import { withdrawRuling } from '../server/commands/ruling-withdrawals.ts';
import { element } from './fixtures/html.ts';
import { cli } from './fixtures/cli.ts';
import { rechained } from './fixtures/rechain.ts';
import { type Fixture, bidAll, copyOf, deal, makeFixture, seatMatch, send } from './routes-fixture.ts';

let fixture: Fixture;
beforeAll(async () => {
  fixture = await makeFixture();
});
afterAll(() => fixture?.close());

const text = (html: string) => html.replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ');

describe('withdrawing a renege ruling', () => {
  it('asks once, then records the withdrawal; the penalty no longer counts and the console says who withdrew it and why', async () => {
    const { app, ledger, broadcaster } = copyOf(fixture);
    try {
      const m = ledger.models;
      const gameId = seatMatch(ledger, fixture.matchId);
      deal(ledger, gameId);
      bidAll(ledger, gameId);
      ledger.execute(recordTricks(m, { gameId, tricks: { N: 3, E: 3, S: 4, W: 3 } }));
      const plain = { ...m.games[gameId]!.score };
      const standing = () => m.tournaments.t1!.model.teams.find((t) => t.teamId === 'team-1')!.points;
      const plainPoints = standing();

      ledger.execute(claimRenege(m, { gameId, claimId: 'c1', hand: 1, seat: 'N', trick: null }));
      const ruled = await send(
        app,
        fixture.clients.judge,
        'POST',
        `/judge/games/${gameId}/claims/c1/ruling`,
        { form: { upheld: 'yes', confirm: 'yes' } },
        { 'hx-request': 'true' },
      );
      expect(ruled.status).toBe(200);
      const penalised = { ...m.games[gameId]!.score };
      expect(penalised).not.toEqual(plain);
      expect(standing()).not.toBe(plainPoints);

      // The console lists the ruling with its effect, team by team, and a form to withdraw it.
      const page = await (await send(app, fixture.clients.judge, 'GET', '/judge')).text();
      const line = element(page, /<li class="ruling" data-ruling="c1"/);
      const delta = (team: 'NS' | 'EW') => penalised[team] - plain[team];
      const parts = [
        delta('NS') !== 0 ? `${delta('NS') > 0 ? '+' : ''}${delta('NS')} to Aces (N/S)` : null,
        delta('EW') !== 0 ? `${delta('EW') > 0 ? '+' : ''}${delta('EW')} to Jacks (E/W)` : null,
      ].filter(Boolean);
      expect(text(line)).toContain(`Effect: ${parts.join(', ')}, hand 1.`);
      expect(line).toContain('data-action="withdraw"');

      // Asked: the confirm step, nothing recorded.
      const before = ledger.store.head().position;
      const asked = await send(
        app,
        fixture.clients.judge,
        'POST',
        '/judge/withdrawals',
        { form: { gameId, claimId: 'c1', reason: 'the card was found under the table' } },
        { 'hx-request': 'true' },
      );
      expect(asked.status).toBe(200);
      const confirm = element(await asked.text(), /<section class="confirm-step" aria-labelledby="confirm-withdrawal-title"/);
      expect(text(confirm)).toContain('Withdraw this ruling?');
      expect(text(confirm)).toContain(`Its effect now: ${parts.join(', ')}, hand 1.`);
      expect(confirm).toContain('<input type="hidden" name="confirm" value="yes"/>');
      expect(ledger.store.head().position).toBe(before);

      const done = await send(
        app,
        fixture.clients.judge,
        'POST',
        '/judge/withdrawals',
        { form: { gameId, claimId: 'c1', reason: 'the card was found under the table', confirm: 'yes' } },
        { 'hx-request': 'true' },
      );
      expect(done.status).toBe(200);
      const after = await done.text();
      expect(after).toContain('Withdrawn: Jo Judge upheld the renege claim against North');
      const last = ledger.store.readAll().at(-1)!;
      expect(last.type).toBe('RulingWithdrawn');
      expect(last.payload).toEqual({ gameId, claimId: 'c1', reason: 'the card was found under the table', judge: 'Jo Judge' });
      // The ruling is still on record; its penalty no longer counts, in the game and the standings.
      expect(m.games[gameId]!.claims[0]!.ruling).toMatchObject({
        upheld: true,
        withdrawn: { judge: 'Jo Judge', reason: 'the card was found under the table' },
      });
      expect(m.games[gameId]!.score).toEqual(plain);
      expect(standing()).toBe(plainPoints);
      const withdrawn = element(after, /<li class="ruling is-withdrawn" data-ruling="c1"/);
      expect(text(withdrawn)).toContain('Effect: none: withdrawn.');
      expect(text(withdrawn)).toMatch(/Withdrawn at \d\d:\d\d by Jo Judge: the card was found under the table/);
      expect(withdrawn).not.toContain('data-action="withdraw"');

      // The hand's replay shows the ruling withdrawn, with no effect.
      const replay = text(await (await send(app, fixture.clients.judge, 'GET', `/games/${gameId}/hands/1/replay?step=1`)).text());
      expect(replay).toContain('Ruling by Jo Judge: upheld. Withdrawn by Jo Judge (the card was found under the table): it no longer counts.');

      // Once is enough: a second withdrawal is refused with a sentence, nothing recorded.
      const again = await send(app, fixture.clients.judge, 'POST', '/judge/withdrawals', { json: { gameId, claimId: 'c1', reason: 'again' } });
      expect(again.status).toBe(409);
      expect(await again.text()).toContain('the ruling on claim c1 was already withdrawn by Jo Judge (the card was found under the table)');
      expect(ledger.store.readAll().at(-1)!.position).toBe(last.position);
    } finally {
      broadcaster.close();
      ledger.close();
    }
  });
});

describe('withdrawing a score correction', () => {
  it('puts the score back, and refuses what is not withdrawn with a sentence', async () => {
    const { app, ledger, broadcaster } = copyOf(fixture);
    try {
      const m = ledger.models;
      const gameId = seatMatch(ledger, fixture.matchId);
      deal(ledger, gameId);
      bidAll(ledger, gameId);
      ledger.execute(recordTricks(m, { gameId, tricks: { N: 3, E: 3, S: 4, W: 3 } }));
      const plain = { ...m.games[gameId]!.score };
      ledger.execute(correctScore(m, { gameId, points: { NS: -30, EW: 30 }, reason: 'miscounted bags', judge: 'Jo Judge' }));
      const position = ledger.store.head().position;
      expect(m.games[gameId]!.score).toEqual({ NS: plain.NS - 30, EW: plain.EW + 30 });

      const page = await (await send(app, fixture.clients.judge, 'GET', '/judge')).text();
      expect(text(element(page, new RegExp(`<li class="ruling" data-ruling="correction-${position}"`)))).toContain(
        'Effect: -30 to Aces (N/S), +30 to Jacks (E/W), on the game.',
      );

      const missing = await send(app, fixture.clients.judge, 'POST', '/judge/withdrawals', { json: { gameId, correction: position + 50, reason: 'x' } });
      expect(missing.status).toBe(404);
      expect(await missing.text()).toContain(`game ${gameId} has no score correction at ledger position ${position + 50}`);
      const neither = await send(app, fixture.clients.judge, 'POST', '/judge/withdrawals', { json: { gameId, reason: 'x' } });
      expect(neither.status).toBe(400);
      expect(await neither.text()).toContain('name the ruling to withdraw');
      const disqualification = await send(app, fixture.clients.judge, 'POST', '/judge/withdrawals', {
        json: { kind: 'disqualification', gameId, reason: 'x' },
      });
      expect(disqualification.status).toBe(409);
      expect(await disqualification.text()).toContain('a disqualification is not withdrawn');
      expect(ledger.store.head().position).toBe(position);

      const done = await send(app, fixture.clients.judge, 'POST', '/judge/withdrawals', {
        json: { gameId, correction: position, reason: 'the bags were right' },
      });
      expect(done.status).toBe(200);
      expect(m.games[gameId]!.score).toEqual(plain);
      expect(m.games[gameId]!.corrections[0]!.withdrawn).toMatchObject({ judge: 'Jo Judge', reason: 'the bags were right' });
    } finally {
      broadcaster.close();
      ledger.close();
    }
  });
});

describe('a ledger with withdrawals', () => {
  it('exports and imports through the live commands, and a withdrawal forged twice is refused', async () => {
    const { ledger, broadcaster } = copyOf(fixture);
    let lines: LedgerLine[];
    try {
      const m = ledger.models;
      const gameId = seatMatch(ledger, fixture.matchId);
      deal(ledger, gameId);
      bidAll(ledger, gameId);
      ledger.execute(recordTricks(m, { gameId, tricks: { N: 3, E: 3, S: 4, W: 3 } }));
      ledger.execute(claimRenege(m, { gameId, claimId: 'c1', hand: 1, seat: 'N', trick: null }));
      ledger.execute(giveRuling(m, { gameId, claimId: 'c1', upheld: true, note: '', judge: 'Jo Judge' }));
      ledger.execute(withdrawRuling(m, { gameId, claimId: 'c1', reason: 'no renege after all', judge: 'Jo Judge' }));
      lines = [...exportLines(ledger.database)].map((t) => JSON.parse(t) as LedgerLine);
    } finally {
      broadcaster.close();
      ledger.close();
    }
    const path = (name: string) => join(fixture.dir, `${name}.db`);
    expect(await cli(['import-ledger', '-', '--db', path('copy')], rechained(lines))).toMatchObject({ code: 0 });
    expect(await cli(['verify', '--db', path('copy')])).toMatchObject({ code: 0 });
    const withdrawal = lines.find((l) => l.type === 'RulingWithdrawn')!;
    const twice = await cli(
      ['import-ledger', '-', '--db', path('twice')],
      rechained(lines, (ls) => void ls.push({ ...structuredClone(withdrawal), position: ls.length + 1, version: withdrawal.version + 1 })),
    );
    expect(twice.code).toBe(2);
    expect(twice.stderr).toContain('was already withdrawn by Jo Judge');
  });
});

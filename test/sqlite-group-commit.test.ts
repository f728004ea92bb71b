/**
 * Group commit on the SQLite file, as one server process appends: commands that arrive in the
 * same turn of the event loop share one transaction, each checked in arrival order against the
 * versions it was decided from and answered on its own, and nothing about the ledger's promises
 * changes (gapless positions, one chain, idempotent command ids); a command that loses its race to
 * another writer is decided again, and only decisions made beforehand are refused for it.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DECISION_ATTEMPTS, LedgerBusyError } from '../events/store/served-ledger.ts';
import { type Ledger, openLedger } from '../events/store/sqlite/ledger.ts';
import { catchUp } from '../events/store/sqlite/page-fold.ts';
import { emptyModels } from '../events/projections.ts';
import { servedLedger } from '../events/store/sqlite/served-ledger.ts';
import { AppendRefusedError, CommandIdReusedError, VersionConflictError } from '../events/store/append.ts';
import { InvalidPayloadError } from '../events/event-registry.ts';
import { createTournament, registerTeam } from '../server/commands/tournament-commands.ts';
import type { ReadModels } from '../events/projections.ts';
import { createApp } from '../server/app/app.ts';
import { createHeavyReads } from '../server/audit/heavy-reads.ts';
import { createDemo, demoBots } from '../server/serve/serve.ts';
import { refusalOf } from '../server/http/refusals.ts';

const dirs: string[] = [];
const open: Ledger[] = [];
afterEach(() => {
  for (const ledger of open.splice(0)) ledger.close();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function tempFile(): string {
  const dir = mkdtempSync(join(tmpdir(), 'spades-group-'));
  dirs.push(dir);
  return join(dir, 'ledger.db');
}

function ledgerAt(path: string): Ledger {
  const ledger = openLedger({ path, onNotice: () => {} });
  open.push(ledger);
  return ledger;
}

const teamsOf = (models: ReadModels, id: string) => models.tournaments[id]!.model.teams.map((t) => t.teamId);
const tournament = (id: string) => (m: Parameters<typeof createTournament>[0]) =>
  createTournament(m, { tournamentId: id, name: `Cup ${id}`, format: 'unc-intramural' });
const team = (t: string, id: string) => (m: Parameters<typeof registerTeam>[0]) =>
  registerTeam(m, { tournamentId: t, teamId: id, name: `Team ${id}`, players: [`${id}a`, `${id}b`] });

describe('group commit on the SQLite file', () => {
  it('commits 32 commands arriving together in one transaction, each answered with its own events', async () => {
    const served = servedLedger(ledgerAt(tempFile()));
    const results = await Promise.all(Array.from({ length: 32 }, (_, i) => served.append(tournament(`t${i}`))));
    expect(served.commitStats()).toEqual({ transactions: 1, appends: 32, largest: 32, decidedAgain: 0, mostTries: 1 });
    // In arrival order, gapless, each with the one event it recorded; the chain one line.
    expect(results.map((r) => r[0]!.positions)).toEqual(Array.from({ length: 32 }, (_, i) => [i + 1]));
    expect(results.map((r) => (r[0]!.events[0]!.payload as { tournamentId: string }).tournamentId)).toEqual(Array.from({ length: 32 }, (_, i) => `t${i}`));
    expect((await served.verify()).ok).toBe(true);
    // Answered once the models hold every event of the group.
    expect(served.models.position).toBe(32);
    expect(Object.keys(served.models.tournaments)).toHaveLength(32);
  });

  it('decides a command on a stream with an append still waiting again once that one is folded, refusing neither', async () => {
    const served = servedLedger(ledgerAt(tempFile()));
    await served.append(tournament('cup'));
    // Twelve registrations for one tournament at once: each would be decided from the version
    // the one before it had not yet moved, so each waits for the group before it.
    const results = await Promise.all(Array.from({ length: 12 }, (_, i) => served.append(team('cup', `team${i}`))));
    expect(results.flatMap((r) => r.map((a) => a.versions[0]))).toEqual(Array.from({ length: 12 }, (_, i) => i + 2));
    expect(teamsOf(served.models, 'cup')).toHaveLength(12);
    expect((await served.verify()).ok).toBe(true);
  });

  it('decides a command again when another writer moved its stream first, and commits the rest of its group', async () => {
    const path = tempFile();
    const served = servedLedger(ledgerAt(path));
    const other = ledgerAt(path);
    await served.append(tournament('cup'));
    other.sync();
    // Decided (and waiting for the turn's commit) from the version served holds.
    const stale = served.append(team('cup', 'late'));
    const fine = served.append(tournament('other'));
    // Meanwhile another process records on the same stream.
    other.execute(team('cup', 'early'));
    // The lost race is folded and decided again: recorded after the other's, never refused.
    const [late] = await stale;
    expect(late!.versions).toEqual([3]);
    const [done] = await fine;
    expect(done!.positions).toEqual([3]);
    expect(teamsOf(served.models, 'cup')).toEqual(['early', 'late']);
    expect(served.commitStats()).toMatchObject({ decidedAgain: 1, mostTries: 2 });
    expect((await served.verify()).ok).toBe(true);
  });

  it('answers a command decided again with its own refusal when what the other writer recorded makes it wrong', async () => {
    const path = tempFile();
    const served = servedLedger(ledgerAt(path));
    const other = ledgerAt(path);
    await served.append(tournament('cup'));
    other.sync();
    const same = served.append(team('cup', 'twin'));
    other.execute(team('cup', 'twin'));
    await expect(same).rejects.toThrow(/twin.*already/i);
    expect(teamsOf(served.models, 'cup')).toEqual(['twin']);
  });

  it('refuses decisions made beforehand from a version another writer has since moved, deciding nothing itself', async () => {
    const path = tempFile();
    const served = servedLedger(ledgerAt(path));
    const other = ledgerAt(path);
    await served.append(tournament('cup'));
    other.sync();
    const made = team('cup', 'late')(served.models);
    const stale = served.append(made);
    other.execute(team('cup', 'early'));
    const error = await stale.then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(VersionConflictError);
    // A person hears it in the room's words: no stream, no version, no "reload".
    const refusal = refusalOf(error)!;
    expect(refusal.status).toBe(409);
    expect(refusal.message).not.toMatch(/tournament-cup|version|reload|expected/i);
    // The refusal leaves the models moved on, so the next decision is made from the file.
    expect(teamsOf(served.models, 'cup')).toEqual(['early']);
  });

  it(`gives up a command that loses every race, ${DECISION_ATTEMPTS} tries, with a sentence naming no stream or version, recording nothing`, async () => {
    const path = tempFile();
    const served = servedLedger(ledgerAt(path));
    const other = ledgerAt(path);
    await served.append(tournament('cup'));
    let tries = 0;
    // Every time it is decided, another writer records on its stream before its commit.
    const unlucky = served.append((models) => {
      tries++;
      other.execute(team('cup', `rival${tries}`));
      return team('cup', 'unlucky')(models);
    });
    const error = await unlucky.then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(LedgerBusyError);
    expect(tries).toBe(DECISION_ATTEMPTS);
    expect(refusalOf(error)).toEqual({ status: 503, message: (error as Error).message });
    expect(String((error as Error).message)).not.toMatch(/cup|version|reload|stream/i);
    expect(teamsOf(served.models, 'cup')).not.toContain('unlucky');
    // Its count of lost races says so, and the ledger takes the next command at once.
    expect(served.commitStats().decidedAgain).toBe(DECISION_ATTEMPTS - 1);
    await served.append(team('cup', 'next'));
    expect(teamsOf(served.models, 'cup')).toContain('next');
  });

  it('decides again in the file ledger too, as the command line and imports write beside a server', async () => {
    const path = tempFile();
    const cli = ledgerAt(path);
    const other = ledgerAt(path);
    cli.execute(tournament('cup'));
    let tries = 0;
    const [result] = cli.execute((models) => {
      // The first time it is decided, a server records on the same stream before it commits.
      if (++tries === 1) other.execute(team('cup', 'server'));
      return team('cup', 'cli')(models);
    });
    expect(tries).toBe(2);
    expect(result!.versions).toEqual([3]);
    expect(teamsOf(cli.models, 'cup')).toEqual(['server', 'cli']);
  });

  it('refuses a bad event or a reused command id alone, and answers a repeated command with its first result', async () => {
    const served = servedLedger(ledgerAt(tempFile()));
    await served.append(tournament('cup'), { commandId: 'create-cup' });
    // One command sent twice (a client that never heard its answer): the same decision, id and request.
    const createA = tournament('a')(served.models);
    const outcomes = await Promise.allSettled([
      served.append(createA, { commandId: 'c-a', request: 'r-a' }),
      served.append({ stream: 'tournament-b', events: [{ type: 'TournamentCreated', payload: { tournamentId: 'b' } }] }),
      served.append(tournament('c'), { commandId: 'create-cup' }),
      served.append({ stream: 'bad stream', events: [] }),
      served.append(createA, { commandId: 'c-a', request: 'r-a' }),
      served.append(tournament('d')),
    ]);
    expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'rejected', 'rejected', 'rejected', 'fulfilled', 'fulfilled']);
    const reason = (i: number) => (outcomes[i] as PromiseRejectedResult).reason;
    expect(reason(1)).toBeInstanceOf(InvalidPayloadError);
    expect(reason(2)).toBeInstanceOf(CommandIdReusedError);
    expect(reason(3)).toBeInstanceOf(AppendRefusedError);
    const first = (outcomes[0] as PromiseFulfilledResult<Awaited<ReturnType<typeof served.append>>>).value;
    const repeat = (outcomes[4] as PromiseFulfilledResult<Awaited<ReturnType<typeof served.append>>>).value;
    expect(repeat[0]!.duplicate).toBe(true);
    expect(repeat[0]!.positions).toEqual(first[0]!.positions);
    // cup, a and d: nothing of the refused ones, nothing twice.
    expect(served.models.position).toBe(3);
    expect(Object.keys(served.models.tournaments).sort()).toEqual(['a', 'cup', 'd']);
    expect((await served.verify()).ok).toBe(true);
  });

  it('rolls back only the command whose insert the file refuses', async () => {
    const ledger = ledgerAt(tempFile());
    ledger.database.sqlite.exec("CREATE TRIGGER refuse_x BEFORE INSERT ON events WHEN NEW.stream = 'tournament-x' BEGIN SELECT RAISE(ABORT, 'no x'); END");
    const served = servedLedger(ledger);
    const outcomes = await Promise.allSettled(['w', 'x', 'y'].map((id) => served.append(tournament(id))));
    expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(String((outcomes[1] as PromiseRejectedResult).reason)).toContain('no x');
    expect(served.commitStats().transactions).toBe(1);
    expect(served.models.position).toBe(2);
    expect((await served.verify()).ok).toBe(true);
  });

  it('refuses the whole group when the file cannot be written, and says so in its health', async () => {
    const path = tempFile();
    const ledger = ledgerAt(path);
    const served = servedLedger(ledger);
    await served.append(tournament('cup'));
    ledger.database.sqlite.pragma('query_only = ON');
    const outcomes = await Promise.allSettled([served.append(tournament('a')), served.append(tournament('b'))]);
    expect(outcomes.map((o) => o.status)).toEqual(['rejected', 'rejected']);
    expect(served.health().writable).toBe(false);
    ledger.database.sqlite.pragma('query_only = OFF');
    await served.append(tournament('c'));
    expect(served.health().writable).toBe(true);
    expect(Object.keys(served.models.tournaments).sort()).toEqual(['c', 'cup']);
  });

  it('gives the app, the heavy reads and the table bots one adapter per file, so their appends share groups', async () => {
    const ledger = ledgerAt(tempFile());
    const served = servedLedger(ledger);
    expect(servedLedger(ledger)).toBe(served);
    const { app } = createApp({ ledger });
    createHeavyReads(ledger);
    expect(await createDemo(served)).toBe(true);
    const before = served.commitStats().appends;
    const bots = demoBots(ledger, () => {});
    await bots();
    expect(served.commitStats().appends).toBeGreaterThan(before);
    expect((await app.request('/healthz')).status).toBe(200);
    // The models folded from the events in hand after each group are the ones the file folds to.
    const rebuilt = emptyModels();
    catchUp(ledger.store, rebuilt);
    expect(JSON.parse(JSON.stringify(served.models))).toEqual(JSON.parse(JSON.stringify(rebuilt)));
  });

  it('commits what it has taken before the file closes', async () => {
    const path = tempFile();
    const ledger = openLedger({ path, onNotice: () => {} });
    const served = servedLedger(ledger);
    const appended = served.append(tournament('last'));
    await served.close();
    await expect(appended).resolves.toHaveLength(1);
    const reopened = ledgerAt(path);
    expect(Object.keys(reopened.models.tournaments)).toEqual(['last']);
  });
});

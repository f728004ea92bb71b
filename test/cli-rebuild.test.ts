/**
 * `spades rebuild`: folds every read model again from position 0 with a progress bar, leaves
 * the models the live ledger held, and refuses in one line, naming the event, a file whose rows
 * were changed so that they cannot be read, changing nothing.
 */
import { execFile } from 'node:child_process';
import { renameSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { openLedger } from '../events/store/sqlite/ledger.ts';
import type { ReadModels } from '../events/projections.ts';
import { cli } from './fixtures/cli.ts';
import { createTournament, registerTeam, startTournament } from '../server/commands/tournament-commands.ts';
import { driveToEnd, tempLedger } from './tournament-ledger.ts';

/** A finished three-team event in a ledger file: its path, and the models it held when closed. */
async function playedLedger(): Promise<{ path: string; live: ReadModels }> {
  const ledger = tempLedger();
  const m = ledger.models;
  ledger.execute(createTournament(m, { tournamentId: 't1', name: 'Rebuild Cup', format: 'unc-intramural' }));
  for (const i of [1, 2, 3]) ledger.execute(registerTeam(m, { tournamentId: 't1', teamId: `team${i}`, name: `Team ${i}`, players: [`P${i}a`, `P${i}b`] }));
  ledger.execute(startTournament(m, { tournamentId: 't1', seed: 'rebuild' }));
  await driveToEnd(ledger, 't1', 'rebuild');
  const live = structuredClone(ledger.models);
  const path = ledger.database.sqlite.name;
  ledger.close();
  return { path, live };
}

/** Opens the file as someone editing it would: with the append-only triggers dropped. */
function withFile<T>(path: string, use: (db: BetterSqlite3.Database) => T): T {
  const db = new BetterSqlite3(path);
  try {
    db.exec('DROP TRIGGER IF EXISTS events_no_update; DROP TRIGGER IF EXISTS events_no_delete;');
    return use(db);
  } finally {
    db.close();
  }
}

describe('spades rebuild', () => {
  it('folds every read model again from position 0, drawing its progress, and leaves the models the ledger held', async () => {
    const { path, live } = await playedLedger();
    expect(live.tournaments.t1!.model.status).toBe('finished');
    // A snapshot of an older model shape is left over, for the rebuild to clear away.
    withFile(path, (db) => {
      db.prepare(`INSERT INTO read_models (name, position, state) VALUES ('models-0', 1, '{}')`).run();
    });

    const result = await cli(['rebuild', '--db', path]);
    const events = live.position.toLocaleString('en-US');
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(
      new RegExp(`^rebuilt read models from ${live.position} events \\(1 tournaments, ${Object.keys(live.games).length} games\\) in \\d+\\.\\d\\d s\\n$`),
    );
    expect(result.stderr).toContain('\r[');
    expect(result.stderr.endsWith(`] 100% ${events}/${events} events\n`)).toBe(true);
    expect(openLedgerModels(path)).toEqual(live);
    expect(withFile(path, (db) => db.prepare('SELECT name, position FROM read_models').all())).toEqual([
      { name: expect.stringMatching(/^models-[1-9]/), position: live.position },
    ]);
  });

  for (const [column, value, problem] of [
    ['payload', '{"gameId": ', 'its payload is not JSON'],
    ['type', 'Card"Played', 'its type "Card\\"Played" is not an event type'],
  ] as const) {
    it(`exits 2 with one line naming the event when a row's ${column} was changed so it cannot be read, and keeps the models it had`, async () => {
      const { path } = await playedLedger();
      const position = 40;
      const snapshot = () => withFile(path, (db) => db.prepare('SELECT position, state FROM read_models').all());
      withFile(path, (db) => db.prepare(`UPDATE events SET ${column} = ? WHERE position = ?`).run(value, position));
      const before = snapshot();

      // The edit breaks the chain, so a plain rebuild refuses to fold it at all.
      const refused = await cli(['rebuild', '--db', path]);
      expect(refused).toEqual({
        code: 2,
        stdout: '',
        stderr: expect.stringMatching(
          new RegExp(
            `^spades rebuild: ${path}: the chain does not verify at position ${position} \\(.+\\); nothing was rebuilt \\(--force folds it all the same\\)\\n$`,
          ),
        ),
      });
      expect(snapshot()).toEqual(before);

      const result = await cli(['rebuild', '--db', path, '--force']);
      expect(result).toEqual({
        code: 2,
        stdout: '',
        stderr: `spades rebuild: ${path}: event ${position}: ${problem}; the ledger was changed outside the app (\`spades verify\` checks the whole chain)\n`,
      });
      expect(snapshot()).toEqual(before);
    });
  }
});

describe('spades serve', () => {
  it('exits 2 with one line naming the event when a row cannot be folded, instead of a stack trace', async () => {
    const { path } = await playedLedger();
    withFile(path, (db) => {
      db.prepare('UPDATE events SET type = ? WHERE position = ?').run('Nope', 40);
      // Without stored models, opening folds every row, the edited one too.
      db.prepare('DELETE FROM read_models').run();
    });
    const dataDir = dirname(path);
    renameSync(path, join(dataDir, 'spades.db'));
    const result = await new Promise<{ code: number | null; stderr: string }>((done) => {
      execFile(
        process.execPath,
        [resolve(import.meta.dirname, '../bin/spades.js'), 'serve', '--no-demo'],
        { env: { ...process.env, DATA_DIR: dataDir, PORT: '0' } },
        (error, _stdout, stderr) => done({ code: error ? (error as { code: number }).code : 0, stderr }),
      );
    });
    expect(result).toEqual({
      code: 2,
      stderr: `spades serve: ${join(dataDir, 'spades.db')}: event 40: its type "Nope" is not an event type; the ledger was changed outside the app (\`spades verify\` checks the whole chain)\n`,
    });
  }, 30_000);
});

function openLedgerModels(path: string): ReadModels {
  const ledger = openLedger({ path });
  const models = structuredClone(ledger.models);
  ledger.database.close();
  return models;
}

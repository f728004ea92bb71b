/**
 * `spades import FILE|- (--tournament ID --match ID | --game ID) [--by NAME] [--db FILE]`: enters
 * a game played on paper from its spades-game/1 record, into a match or as a game of its own, by
 * appending the events a live table would have recorded, signed by the judge or director `--by`
 * names as their session would sign them. Exit 0 with the positions written,
 * 2 naming what is wrong (in the record, or with the match) with nothing written.
 */
import { existsSync, readFileSync } from 'node:fs';
import { type CliIo, UsageError } from './io.ts';
import { LedgerFileError, defaultDatabasePath } from '../../events/store/sqlite/database.ts';
import { AppendRefusedError, LedgerUnavailableError } from '../../events/store/append.ts';
import { InvalidPayloadError } from '../../events/event-registry.ts';
import { formatDigest } from '../../events/hash-chain.ts';
import { type Ledger, openLedger } from '../../events/store/sqlite/ledger.ts';
import { LedgerBusyError } from '../../events/store/served-ledger.ts';
import { type ImportTarget, RecordImportError } from '../../events/record-import.ts';
import { checkedRecordImport } from '../commands/replay-check.ts';
import { type Session, accountIdOf, accountOfUser, signedBy } from '../auth/sessions.ts';
import { sqliteAuthStorage } from '../auth/storage/sqlite.ts';

/** Whether JSON.parse's complaint is that the text ended before the value did. */
function endsEarly(text: string, message: string): boolean {
  if (/Unexpected end of JSON input|Unterminated string/i.test(message)) return true;
  const at = /at position (\d+)/.exec(message);
  return at !== null && Number(at[1]) >= text.trimEnd().length;
}

/**
 * Who `--by` names, as the ledger signs their entries: the account's display name and id, as
 * its session would sign them at the server; refused when the ledger's file has no such account.
 */
async function enteredBy(ledger: Ledger, name: string): Promise<{ by: string; account: string }> {
  const storage = sqliteAuthStorage(ledger.database);
  const user = await storage.accounts.find(name.trim());
  if (!user)
    throw new UsageError(
      `spades import: --by names no judge or director of this ledger; add the account with spades add-user, then import again; nothing was imported`,
    );
  return signedBy({ role: user.role as Session['role'], name: user.displayName, accountId: accountIdOf(storage.secret, accountOfUser(user.name)) });
}

export async function run(
  args: { values: { db?: string; tournament?: string; match?: string; game?: string; by?: string }; positionals: string[]; usage: string },
  io: CliIo,
): Promise<number> {
  const { values, positionals, usage } = args;
  if (positionals.length !== 1) throw new UsageError(`spades import: ${usage}`);
  let target: ImportTarget;
  if (values.tournament !== undefined || values.match !== undefined) {
    if (values.tournament === undefined || values.match === undefined) throw new UsageError('spades import: a match is named by both --tournament and --match');
    target = { tournamentId: values.tournament, matchId: values.match, ...(values.game !== undefined ? { gameId: values.game } : {}) };
  } else if (values.game !== undefined) {
    target = { gameId: values.game };
  } else {
    throw new UsageError(`spades import: say where the game goes; ${usage}`);
  }

  const source = positionals[0]!;
  if (source !== '-' && !existsSync(source)) throw new UsageError(`spades import: no file at ${source}`);
  const text = source === '-' ? await io.stdin() : readFileSync(source, 'utf8');
  let record: unknown;
  try {
    record = JSON.parse(text);
  } catch (error) {
    if (text.trim() === '') throw new UsageError(`spades import: ${source} is empty: a spades-game/1 record is one JSON object; nothing was imported`);
    // A parser that ran out of text before the record closed: the file was cut short.
    if (endsEarly(text, (error as Error).message))
      throw new UsageError(`spades import: ${source} is cut short: the record ends before its JSON closes; nothing was imported`);
    throw new UsageError(`spades import: ${source} is not JSON (${(error as Error).message}); nothing was imported`);
  }

  let ledger: Ledger;
  try {
    ledger = openLedger({ path: values.db ?? defaultDatabasePath() });
  } catch (error) {
    if (error instanceof LedgerFileError) throw new UsageError(`spades import: ${error.message}`);
    throw error;
  }
  try {
    const meta = values.by === undefined ? { by: 'record-import' } : { ...(await enteredBy(ledger, values.by)), via: 'record-import' };
    // Decided from the ledger as it stands at the append: a server may be writing to it too.
    let decision!: ReturnType<typeof checkedRecordImport>;
    const [result] = ledger.execute((models) => (decision = checkedRecordImport(models, record, target, new Date().toISOString())), { meta });
    const gameId = (decision.events[0]!.payload as { gameId: string }).gameId;
    const positions = result!.positions;
    io.stdout(`game ${gameId}: ${positions.length} events at positions ${positions[0]}–${positions[positions.length - 1]}\n`);
    io.stdout(`head ${formatDigest(ledger.store.head())}\n`);
    return 0;
  } catch (error) {
    if (
      error instanceof RecordImportError ||
      error instanceof InvalidPayloadError ||
      error instanceof AppendRefusedError ||
      error instanceof LedgerBusyError ||
      error instanceof LedgerUnavailableError
    ) {
      throw new UsageError(`spades import: ${source}: ${error.message}; nothing was imported`);
    }
    throw error;
  } finally {
    ledger.close();
  }
}

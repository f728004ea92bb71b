/**
 * `spades add-user NAME --role director|judge [--password P] [--db FILE]`: adds a director's or
 * judge's account to the ledger file (or sets a new password). The password comes from the
 * flag or, safer for shell history, from the first line of standard input.
 */
import { openDatabase, defaultDatabasePath } from '../../events/database.ts';
import { PASSWORD_ROLES, type PasswordRole, openUsers } from '../accounts.ts';
import { AccessError } from '../refusals.ts';
import { type CliIo, UsageError } from './io.ts';

export async function run(args: { values: { role?: string; password?: string; db?: string }; positionals: string[] }, io: CliIo): Promise<number> {
  const { role } = args.values;
  let password = args.values.password;
  const db = args.values.db ?? defaultDatabasePath();
  const [name, ...more] = args.positionals;
  if (more.length > 0) throw new UsageError(`add-user: one name only; put a name with spaces in quotes ('${name} ${more[0]}')`);
  if (!name) throw new UsageError('add-user: give the person’s name: spades add-user NAME --role director|judge');
  if (!role || !PASSWORD_ROLES.includes(role as PasswordRole)) throw new UsageError(`add-user: --role must be director or judge, not '${role ?? ''}'`);
  if (password === undefined) password = (await io.stdin()).split(/\r?\n/)[0] ?? '';
  const database = openDatabase({ path: db });
  try {
    await openUsers(database).add(name, role as PasswordRole, password);
  } catch (error) {
    if (error instanceof AccessError) throw new UsageError(`add-user: ${error.message}`);
    throw error;
  } finally {
    database.close();
  }
  io.stdout(`${name.trim()} can now sign in as ${role} at /login (ledger ${db})\n`);
  return 0;
}

/**
 * `spades add-user NAME --role director|judge [--display-name NAME] [--password P] [--db FILE|postgres://…]`:
 * adds a director's or judge's account (or sets a new password, role or display name) where the
 * ledger's sign-ins are kept:
 * the ledger file, or a PostgreSQL database given by `--db` or DATABASE_URL, as for verify and
 * export (`ledger-target.ts`). The password comes from the flag or, safer for shell history,
 * from the first line of standard input.
 */
import { openDatabase, defaultDatabasePath } from '../../events/store/sqlite/database.ts';
import { PASSWORD_ROLES, type PasswordRole, type Users, openUsers } from '../auth/accounts.ts';
import { postgresAuthStorage } from '../auth/storage/postgres.ts';
import { sqliteAuthStorage } from '../auth/storage/sqlite.ts';
import { AccessError } from '../http/refusals.ts';
import { type CliIo, UsageError } from './io.ts';
import { ledgerTarget, withPostgresLedger } from './ledger-target.ts';

export async function run(
  args: { values: { role?: string; password?: string; db?: string; 'display-name'?: string }; positionals: string[] },
  io: CliIo,
): Promise<number> {
  const { role } = args.values;
  const displayName = args.values['display-name'];
  let password = args.values.password;
  const [name, ...more] = args.positionals;
  if (more.length > 0) throw new UsageError(`add-user: one name only; put a name with spaces in quotes ('${name} ${more[0]}')`);
  if (!name) throw new UsageError('add-user: give the person’s name: spades add-user NAME --role director|judge');
  if (!role || !PASSWORD_ROLES.includes(role as PasswordRole)) throw new UsageError(`add-user: --role must be director or judge, not '${role ?? ''}'`);
  const target = ledgerTarget('add-user', args.values.db);
  if (password === undefined) password = (await io.stdin()).split(/\r?\n/)[0] ?? '';
  let shown = name.trim();
  const add = async (users: Users) => {
    try {
      await users.add(name, role as PasswordRole, password, displayName);
      shown = (await users.list()).find((u) => u.name.toLowerCase() === name.trim().toLowerCase())?.displayName ?? name.trim();
    } catch (error) {
      if (error instanceof AccessError) throw new UsageError(`add-user: ${error.message}`);
      throw error;
    }
  };
  let where: string;
  if (target.kind === 'postgres') {
    // The ledger's tables are set up too when missing, as the server would on its first start.
    await withPostgresLedger('add-user', target, { existing: false }, async (store) => add(openUsers(await postgresAuthStorage(store.kysely))));
    where = `database ${target.name}`;
  } else {
    const path = target.path ?? defaultDatabasePath();
    const database = openDatabase({ path });
    try {
      await add(openUsers(sqliteAuthStorage(database)));
    } finally {
      database.close();
    }
    where = `ledger ${path}`;
  }
  // The display name is said when it is not the sign-in name, which the pages would otherwise show.
  io.stdout(`${name.trim()} can now sign in as ${role} at /login${shown === name.trim() ? '' : `, shown as ${shown}`} (${where})\n`);
  return 0;
}

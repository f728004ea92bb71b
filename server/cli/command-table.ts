/**
 * Every `spades` command, once: its name, usage line, summary, options and handler. Dispatch
 * reads its arguments against this table and `spades help` prints from it, so the two cannot
 * disagree. Handlers load on demand, so `spades score` does not open a database.
 */
import type { ArgumentSpec, CommandArguments, OptionSpecs } from './arguments.ts';
import type { CliIo } from './io.ts';

export type CommandHandler<O extends OptionSpecs> = (args: CommandArguments<O>, io: CliIo) => Promise<number>;

export interface Command<O extends OptionSpecs = OptionSpecs> extends ArgumentSpec<O> {
  /** What the command does, in a line. */
  summary: string;
  load: () => Promise<CommandHandler<O>>;
}

/** A table entry, its handler checked against the options it declares. */
function command<const O extends OptionSpecs>(entry: Command<O>): Command {
  return entry as unknown as Command;
}

const SQLITE_DB = { type: 'string', value: 'FILE', help: 'the ledger file (default DATA_DIR/spades.db, DATA_DIR default ./data)' } as const;
const ANY_DB = {
  type: 'string',
  value: 'FILE|postgres://…',
  help: 'the ledger: a file, or a PostgreSQL database by its postgres:// address (default DATABASE_URL if set, else DATA_DIR/spades.db)',
} as const;

export const COMMANDS: readonly Command[] = [
  command({
    name: 'serve',
    usage: 'serve [--no-demo] [--demo pitt-boss|progressive] [--pace MS]',
    summary:
      'run the server on PORT (default 3000) over DATA_DIR/spades.db, or PostgreSQL when DATABASE_URL is a postgres:// address; a demo tournament on an empty ledger',
    options: {
      'no-demo': { type: 'boolean', help: 'no demo tournament and no bots at its tables' },
      demo: { type: 'string', value: 'KIND', help: "which demo: 'pitt-boss' (default) or 'progressive', a 12-player progressive evening" },
      pace: { type: 'string', value: 'MS', help: 'milliseconds between entries at each demo table (default 1000)' },
    },
    positionals: false,
    load: async () => (await import('../serve/serve.ts')).run,
  }),
  command({
    name: 'score',
    usage: 'score FILE|-',
    summary: 'score a spades-game/1 record (- reads standard input) and print the result as JSON',
    options: {},
    positionals: true,
    load: async () => (await import('./score.ts')).run,
  }),
  command({
    name: 'rebuild',
    usage: 'rebuild [--db FILE] [--force]',
    summary: 'fold every read model again from position 0, with progress; refused on a chain that does not verify',
    options: { db: SQLITE_DB, force: { type: 'boolean', help: 'fold a chain that does not verify all the same' } },
    positionals: false,
    load: async () => (await import('./rebuild.ts')).run,
  }),
  command({
    name: 'verify',
    usage: 'verify [--db FILE|postgres://…] [--digest POSITION:HASH]',
    summary: 'check the ledger’s hash chain, in a file or a PostgreSQL database',
    options: { db: ANY_DB, digest: { type: 'string', value: 'POSITION:HASH', help: 'also check that a digest noted earlier is part of the chain' } },
    positionals: false,
    load: async () => (await import('./verify.ts')).run,
  }),
  command({
    name: 'add-user',
    usage: 'add-user NAME --role director|judge [--display-name NAME] [--password P] [--db FILE|postgres://…]',
    summary: 'add a sign-in, or set a new password (read from standard input without --password)',
    options: {
      role: { type: 'string', value: 'director|judge', help: 'what the person may do' },
      'display-name': {
        type: 'string',
        value: 'NAME',
        help: 'the name the pages and the ledger show for the person’s entries, so the sign-in name stays private (the sign-in name when not given for a new account; unchanged for an existing one)',
      },
      password: { type: 'string', value: 'P', help: 'the password (safer from standard input: it stays out of the shell history)' },
      db: ANY_DB,
    },
    positionals: true,
    load: async () => (await import('./add-user.ts')).run,
  }),
  command({
    name: 'export',
    usage: 'export [--db FILE|postgres://…]',
    summary: 'write the whole ledger, from a file or a PostgreSQL database, as NDJSON to standard output',
    options: { db: ANY_DB },
    positionals: false,
    load: async () => (await import('./export.ts')).run,
  }),
  command({
    name: 'import',
    usage: 'import FILE|- (--tournament ID --match ID | --game ID) [--by NAME] [--db FILE]',
    summary: 'enter a game played on paper from its spades-game/1 record',
    options: {
      by: {
        type: 'string',
        value: 'NAME',
        help: 'the judge or director entering it (the account’s sign-in name): the ledger records their display name and account id',
      },
      tournament: { type: 'string', value: 'ID', help: 'the tournament of the match the game belongs to' },
      match: {
        type: 'string',
        value: 'ID',
        help: 'the match the game belongs to; in a progressive evening R2-T3, the round played at a table, whose score sheet fills the game that round started there',
      },
      game: { type: 'string', value: 'ID', help: 'the game’s id (a game of its own without --tournament and --match)' },
      db: SQLITE_DB,
    },
    positionals: true,
    load: async () => (await import('./import.ts')).run,
  }),
  command({
    name: 'import-ledger',
    usage: 'import-ledger FILE|- [--db FILE|postgres://…] [--prefix]',
    summary: 'load an NDJSON ledger into an empty file or PostgreSQL database, keeping it only if it is whole and its chain verifies',
    options: {
      db: ANY_DB,
      prefix: {
        type: 'boolean',
        help: 'take a backup that is not whole (cut short, or without a trailer) on purpose: import the events it holds as the start of a ledger',
      },
    },
    positionals: true,
    load: async () => (await import('./import-ledger.ts')).run,
  }),
];

/** The command of that name, if there is one. */
export function commandNamed(name: string): Command | undefined {
  return COMMANDS.find((c) => c.name === name);
}

/** `spades help`: every command's usage line and summary. */
export function usageText(): string {
  const lines = COMMANDS.map((c) => `  spades ${c.usage}\n      ${c.summary}`);
  return `usage:\n${lines.join('\n')}\n\`spades help COMMAND\` describes a command's options.\n`;
}

/** `spades help COMMAND`: its usage line, summary and options. */
export function commandHelp(entry: Command): string {
  const options = Object.entries(entry.options).map(([name, option]) => ({ flag: `--${name}${option.value ? ` ${option.value}` : ''}`, help: option.help }));
  const width = Math.max(0, ...options.map((o) => o.flag.length));
  const lines = [`usage: spades ${entry.usage}`, `  ${entry.summary}`];
  if (options.length > 0) lines.push('options:', ...options.map((o) => `  ${o.flag.padEnd(width)}  ${o.help}`));
  return `${lines.join('\n')}\n`;
}

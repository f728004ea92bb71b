/**
 * The `spades` command line. Each command is an entry in command-table.ts, its arguments read
 * against the options it declares; bad input exits 2 with one line on stderr, a failed check
 * exits 1.
 */
import { parseCommandArguments } from './arguments.ts';
import { COMMANDS, commandHelp, commandNamed, usageText } from './command-table.ts';
import { type CliIo, UsageError } from './io.ts';

/**
 * Ends the process quietly once the reader of its output has gone (`spades verify | head -1`):
 * nothing more can be said to it, and a stack trace about a closed pipe would only confuse.
 */
function exitWhenOutputCloses(stream: NodeJS.WriteStream): void {
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(0);
    throw error;
  });
}

const processIo: CliIo = {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  stdin: async () => {
    const chunks: Buffer[] = [];
    for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks).toString('utf8');
  },
};

const unknownCommand = (name: string) => `spades: unknown command '${name}'; the commands are: ${COMMANDS.map((c) => c.name).join(', ')}\n`;

/** `spades help [COMMAND]` (or no command at all, or `--help`). */
function help(args: string[], io: CliIo): number {
  if (args.length === 0) {
    io.stdout(usageText());
    return 0;
  }
  const entry = args.length === 1 ? commandNamed(args[0]!) : undefined;
  if (!entry) {
    io.stderr(args.length === 1 ? unknownCommand(args[0]!) : 'spades help: name one command, or none for them all\n');
    return 2;
  }
  io.stdout(commandHelp(entry));
  return 0;
}

/** Runs the command line; resolves to the exit status. */
export async function main(args: string[], io: CliIo = processIo): Promise<number> {
  const [name, ...rest] = args;
  // A server outlives whoever read its first lines; every other command exists for its output.
  if (io === processIo && name !== 'serve') {
    exitWhenOutputCloses(process.stdout);
    exitWhenOutputCloses(process.stderr);
  }
  if (name === undefined || name === 'help' || name === '--help') return help(name === 'help' ? rest : [], io);
  const entry = commandNamed(name);
  if (!entry) {
    io.stderr(unknownCommand(name));
    return 2;
  }
  try {
    const parsed = parseCommandArguments(entry, rest);
    return await (await entry.load())(parsed, io);
  } catch (error) {
    if (error instanceof UsageError) {
      io.stderr(`${error.message.split('\n')[0]}\n`);
      return 2;
    }
    throw error;
  }
}

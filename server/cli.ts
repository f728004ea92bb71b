/**
 * The `spades` command line. Each command lives in its own module; bad input exits 2 with one
 * line on stderr, a failed check exits 1.
 */

/** A refusal of the command's input: printed as one line, exit status 2. */
export class UsageError extends Error {}

export interface CliIo {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  stdin: () => Promise<string>;
}

type Command = (args: string[], io: CliIo) => Promise<number>;

/** Commands by name, loaded on demand so `spades score` does not open a database. */
const COMMANDS: Record<string, { summary: string; load: () => Promise<Command> }> = {
  serve: {
    summary: 'serve [--no-demo] [--pace MS]  run the server (PORT, DATA_DIR); a demo tournament on an empty ledger',
    load: async () => (await import('./serve.ts')).run,
  },
  score: {
    summary: 'score FILE|-        score a spades-game/1 record and print the result as JSON',
    load: async () => (await import('./cli-score.ts')).run,
  },
  rebuild: {
    summary: 'rebuild [--db FILE]  fold every read model again from position 0, with progress',
    load: async () => (await import('./cli-rebuild.ts')).run,
  },
  verify: { summary: 'verify [--db FILE] [--digest POSITION:HASH]  check the ledger\'s hash chain', load: async () => (await import('./cli-verify.ts')).run },
  'add-user': { summary: 'add-user NAME --role director|judge [--password P] [--db FILE]  add a sign-in (password from stdin without --password)', load: async () => (await import('./cli-add-user.ts')).run },
  export: { summary: 'export [--db FILE]  write the whole ledger as NDJSON to stdout', load: async () => (await import('./cli-export.ts')).run },
  import: { summary: 'import FILE|- (--tournament ID --match ID | --game ID) [--db FILE]  enter a game played on paper from its spades-game/1 record', load: async () => (await import('./cli-import.ts')).run },
  'import-ledger': { summary: 'import-ledger FILE|- [--db FILE]  load an NDJSON ledger into an empty file, verifying its chain', load: async () => (await import('./cli-export.ts')).runImport },
};

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

/** Runs the command line; resolves to the exit status. */
export async function main(args: string[], io: CliIo = processIo): Promise<number> {
  const [name, ...rest] = args;
  // A server outlives whoever read its first lines; every other command exists for its output.
  if (io === processIo && name !== 'serve') {
    exitWhenOutputCloses(process.stdout);
    exitWhenOutputCloses(process.stderr);
  }
  const command = name === undefined || !Object.hasOwn(COMMANDS, name) ? undefined : COMMANDS[name];
  if (!command) {
    const list = Object.values(COMMANDS)
      .map((c) => `  spades ${c.summary}`)
      .join('\n');
    if (name !== undefined && name !== 'help' && name !== '--help') {
      io.stderr(`spades: unknown command '${name}'; the commands are: ${Object.keys(COMMANDS).join(', ')}\n`);
      return 2;
    }
    io.stdout(`usage:\n${list}\n`);
    return 0;
  }
  try {
    return await (await command.load())(rest, io);
  } catch (error) {
    if (error instanceof UsageError) {
      io.stderr(`${error.message.split('\n')[0]}\n`);
      return 2;
    }
    throw error;
  }
}

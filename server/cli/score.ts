/**
 * `spades score FILE|-`: scores a spades-game/1 record offline and prints the result as JSON,
 * so anyone can check a game's score from its record without the server.
 */
import { readFile } from 'node:fs/promises';
import { RecordError, scoreRecord } from '../../engine/record.ts';
import { type CliIo, UsageError } from './io.ts';

/** Runs `spades score`; resolves to the exit status (a refused record throws UsageError). */
export async function run({ positionals }: { positionals: string[] }, io: CliIo): Promise<number> {
  if (positionals.length !== 1) throw new UsageError('usage: spades score FILE (or - to read the record from standard input)');
  const file = positionals[0]!;
  const where = file === '-' ? 'standard input' : file;

  let text: string;
  try {
    text = file === '-' ? await io.stdin() : await readFile(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new UsageError(`${where}: cannot read it${code ? ` (${code})` : ''}`);
  }

  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new UsageError(`${where}: not valid JSON (${(error as Error).message.split('\n')[0]})`);
  }

  try {
    io.stdout(`${JSON.stringify(scoreRecord(json), null, 2)}\n`);
  } catch (error) {
    if (error instanceof RecordError) throw new UsageError(error.message);
    throw error;
  }
  return 0;
}

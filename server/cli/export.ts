/**
 * `spades export [--db FILE|postgres://…]` writes the whole ledger as NDJSON to standard output,
 * from a SQLite file or a PostgreSQL database (`ledger-target.ts`), line for line alike: a header
 * line, one line per event, and a trailer line, so a copy cut short shows it. `spades
 * import-ledger` reads it back.
 */
import type { CliIo } from './io.ts';
import { ledgerTarget, withLedgerTools } from './ledger-target.ts';

// Writing a line at a time would make a large export crawl; a chunk keeps memory small too.
const CHUNK_LINES = 1000;

async function writeLines(io: CliIo, lines: Iterable<string> | AsyncIterable<string>): Promise<number> {
  let chunk: string[] = [];
  for await (const line of lines) {
    chunk.push(line);
    if (chunk.length === CHUNK_LINES) {
      io.stdout(chunk.join(''));
      chunk = [];
    }
  }
  if (chunk.length > 0) io.stdout(chunk.join(''));
  return 0;
}

export async function run({ values }: { values: { db?: string } }, io: CliIo): Promise<number> {
  return withLedgerTools('export', ledgerTarget('export', values.db), (ledger) => writeLines(io, ledger.exportLines()));
}

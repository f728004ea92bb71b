/**
 * `spades export [--db FILE|postgres://…]` writes the whole ledger as NDJSON to standard output,
 * from a SQLite file or a PostgreSQL database (`ledger-target.ts`), line for line alike: a header
 * line, one line per event, and a trailer line, so a copy cut short shows it. `spades
 * import-ledger` reads it back.
 */
import type { CliIo } from './io.ts';
import { ledgerTarget, openLedgerForReading, withPostgresLedger } from './ledger-target.ts';
import { exportLedger } from '../../events/store/sqlite/ledger-tools.ts';
import { exportPostgresLedger } from '../../events/store/postgres/ledger-tools.ts';

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
  const target = ledgerTarget('export', values.db);
  if (target.kind === 'postgres') return withPostgresLedger('export', target, { existing: true }, (store) => writeLines(io, exportPostgresLedger(store)));
  const database = openLedgerForReading('export', target.path);
  try {
    return await writeLines(io, exportLedger(database));
  } finally {
    database.close();
  }
}

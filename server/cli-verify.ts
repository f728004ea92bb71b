/**
 * `spades verify [--db FILE|URL] [--digest POSITION:HASH]`: walks the ledger's hash chain, in a
 * SQLite file or a PostgreSQL database, and says whether every event is as it was appended. Exit 0
 * when intact, 1 naming the first position that does not verify (or a noted digest no longer in
 * the chain), 2 for bad input.
 */
import { type CliIo, UsageError } from './cli.ts';
import { LedgerFileError, type LedgerDatabase, defaultDatabasePath, openDatabase } from '../events/database.ts';
import { type DigestCheck, checkDigest, verifyChain } from '../events/event-store.ts';
import { type ChainReport, DigestFormatError, formatDigest } from '../events/hash-chain.ts';
import { checkPostgresDigest } from '../events/pg-ledger.ts';
import { ledgerTarget, withPostgresLedger } from './cli-ledger-target.ts';

/**
 * Splits `--name VALUE` flags (only those in `known`) from positional arguments; anything else
 * that starts with `--` is refused with a line naming the command.
 */
export function parseFlags(command: string, args: readonly string[], known: readonly string[]): { flags: Record<string, string>; positional: string[] } {
  const flags: Record<string, string> = {};
  const positional: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg.startsWith('--')) {
      const [name, inline] = arg.slice(2).split(/=(.*)/s, 2) as [string, string | undefined];
      if (!known.includes(name)) {
        throw new UsageError(`spades ${command}: unknown option ${arg}; the options are ${known.map((k) => `--${k}`).join(', ')}`);
      }
      const value = inline ?? args[++i];
      if (value === undefined || value === '') throw new UsageError(`spades ${command}: --${name} needs a value`);
      if (name in flags) throw new UsageError(`spades ${command}: --${name} given twice`);
      flags[name] = value;
    } else {
      positional.push(arg);
    }
  }
  return { flags, positional };
}

/** Opens the ledger named by `--db` (or the default one) for reading, or refuses with one line. */
export function openLedgerForReading(command: string, path: string | undefined): LedgerDatabase {
  try {
    return openDatabase({ path: path ?? defaultDatabasePath(), readonly: true });
  } catch (error) {
    if (error instanceof LedgerFileError) throw new UsageError(`spades ${command}: ${error.message}`);
    throw error;
  }
}

/** What a verify asks of a ledger, whichever store holds it. */
interface Audited {
  /** How the ledger is named in what is printed: its file, or its database URL without a password. */
  name: string;
  verify(): Promise<ChainReport>;
  checkDigest(digest: string): Promise<DigestCheck>;
}

export async function run(args: string[], io: CliIo): Promise<number> {
  const { flags, positional } = parseFlags('verify', args, ['db', 'digest']);
  if (positional.length > 0) throw new UsageError(`spades verify: unexpected argument '${positional[0]}'; usage: spades verify [--db FILE|URL] [--digest POSITION:HASH]`);
  const target = ledgerTarget('verify', flags.db);
  if (target.kind === 'postgres') {
    return withPostgresLedger('verify', target, { existing: true }, (store) =>
      verifyLedger(io, { name: target.name, verify: () => store.verifyChain(), checkDigest: (digest) => checkPostgresDigest(store, digest) }, flags.digest));
  }
  const database = openLedgerForReading('verify', target.path);
  try {
    return await verifyLedger(io, { name: database.path, verify: async () => verifyChain(database), checkDigest: async (digest) => checkDigest(database, digest) }, flags.digest);
  } finally {
    database.close();
  }
}

async function verifyLedger(io: CliIo, ledger: Audited, digest: string | undefined): Promise<number> {
  const report = await ledger.verify();
  if (!report.ok) {
    const bad = report.firstBad!;
    io.stdout(`${ledger.name}: position ${bad.position} does not verify: ${bad.reason}\n`);
    io.stdout(`${report.count} events verified before it; the last good head is ${formatDigest(report.head)}\n`);
    return 1;
  }
  io.stdout(`${ledger.name}: ${report.count} events, chain intact\n`);
  io.stdout(`head ${formatDigest(report.head)}\n`);
  if (digest !== undefined) {
    let check;
    try {
      check = await ledger.checkDigest(digest);
    } catch (error) {
      if (error instanceof DigestFormatError) throw new UsageError(`spades verify: ${error.message}`);
      throw error;
    }
    if (!check.ok) {
      io.stdout(`digest ${digest} is not part of this chain: ${check.reason}\n`);
      return 1;
    }
    io.stdout(`digest ${formatDigest(check.head)} is part of this chain\n`);
  }
  return 0;
}

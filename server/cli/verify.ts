/**
 * `spades verify [--db FILE|postgres://…] [--digest POSITION:HASH]`: walks the ledger's hash
 * chain, in a SQLite file or a PostgreSQL database, and says whether every event is as it was
 * appended. Exit 0 when intact, 1 naming the first position that does not verify (or a noted
 * digest no longer in the chain), 2 for bad input.
 */
import { type CliIo, UsageError } from './io.ts';
import { type DigestCheck, checkDigest, verifyChain } from '../../events/event-store.ts';
import { type ChainReport, DigestFormatError, formatDigest } from '../../events/hash-chain.ts';
import { checkPostgresDigest } from '../../events/pg-ledger.ts';
import { ledgerTarget, openLedgerForReading, withPostgresLedger } from './ledger-target.ts';

/** What a verify asks of a ledger, whichever store holds it. */
interface Audited {
  /** How the ledger is named in what is printed: its file, or its database URL without a password. */
  name: string;
  verify(): Promise<ChainReport>;
  checkDigest(digest: string): Promise<DigestCheck>;
}

export async function run({ values }: { values: { db?: string; digest?: string } }, io: CliIo): Promise<number> {
  const target = ledgerTarget('verify', values.db);
  if (target.kind === 'postgres') {
    return withPostgresLedger('verify', target, { existing: true }, (store) =>
      verifyLedger(io, { name: target.name, verify: () => store.verifyChain(), checkDigest: (digest) => checkPostgresDigest(store, digest) }, values.digest));
  }
  const database = openLedgerForReading('verify', target.path);
  try {
    return await verifyLedger(io, { name: database.path, verify: async () => verifyChain(database), checkDigest: async (digest) => checkDigest(database, digest) }, values.digest);
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

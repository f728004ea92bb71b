/**
 * `spades verify [--db FILE|postgres://…] [--digest POSITION:HASH]`: walks the ledger's hash
 * chain, in a SQLite file or a PostgreSQL database, and says whether every event is as it was
 * appended; then folds the chain again up to each stored read-model snapshot and says whether the
 * snapshot holds what the chain folds to. Exit 0 when intact, 1 naming the first position that
 * does not verify (or a noted digest no longer in the chain, or a snapshot that does not match),
 * 2 for bad input.
 */
import { type CliIo, UsageError } from './io.ts';
import { DigestFormatError, formatDigest } from '../../events/hash-chain.ts';
import type { LedgerTools } from '../../events/store/ledger-tools.ts';
import { ledgerTarget, withLedgerTools } from './ledger-target.ts';

export async function run({ values }: { values: { db?: string; digest?: string } }, io: CliIo): Promise<number> {
  return withLedgerTools('verify', ledgerTarget('verify', values.db), (ledger) => verifyLedger(io, ledger, values.digest));
}

async function verifyLedger(io: CliIo, ledger: LedgerTools, digest: string | undefined): Promise<number> {
  const report = await ledger.verify();
  if (!report.ok) {
    const bad = report.firstBad!;
    io.stdout(`${ledger.name}: position ${bad.position} does not verify: ${bad.reason}\n`);
    io.stdout(`${report.count} events verified before it; the last good head is ${formatDigest(report.head)}\n`);
    return 1;
  }
  io.stdout(`${ledger.name}: ${report.count} events, chain intact\n`);
  io.stdout(`head ${formatDigest(report.head)}\n`);
  for (const i of await ledger.imports()) {
    io.stdout(`positions ${i.first}–${i.last} came in by import of ${i.source} (sha256 ${i.digest}) by ${i.by} at ${i.at}\n`);
  }
  let snapshotsOk = true;
  for (const snapshot of await ledger.snapshots()) {
    const what = `snapshot ${snapshot.name} at position ${snapshot.position}`;
    if (!snapshot.inUse) io.stdout(`${what}: an older shape of the read models, never read; \`spades rebuild\` clears it\n`);
    else if (snapshot.ok) io.stdout(`${what}: equals the chain folded to that position\n`);
    else {
      snapshotsOk = false;
      io.stdout(`${what} does not match the chain folded to that position: ${snapshot.difference}; \`spades rebuild\` folds it again from the chain\n`);
    }
  }
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
  return snapshotsOk ? 0 : 1;
}

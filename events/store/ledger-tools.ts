/**
 * What the command line's tools ask of a whole ledger, whichever store holds it: its chain walked,
 * a digest noted earlier checked against it, its stored read models folded again and compared, the
 * imports recorded beside it, and its rows written out in the backup format (ledger-file.ts). Each
 * store's folder answers it in its ledger-tools.ts; the command line opens the one it is named.
 */
import type { ChainReport } from '../hash-chain.ts';
import type { SnapshotReport } from '../snapshot-difference.ts';
import type { DigestCheck } from './append.ts';
import type { RecordedImport } from './ledger-file.ts';

export type { SnapshotReport };

/** A ledger opened for reading by the command line's tools. */
export interface LedgerTools {
  /** How the ledger is named in what is printed: its file, or its database URL without a password. */
  readonly name: string;
  /** Walks the whole chain and names the first position that does not verify. */
  verify(): Promise<ChainReport>;
  /** Whether a digest noted earlier (`position:hash`) is still part of the chain; throws DigestFormatError for text that is not one. */
  checkDigest(digest: string): Promise<DigestCheck>;
  /** The stored read-model snapshots, each folded again from the chain; none where the store keeps none. */
  snapshots(): Promise<SnapshotReport[]>;
  /** The imports that brought positions in, as recorded beside the ledger, oldest first. */
  imports(): Promise<RecordedImport[]>;
  /** The whole backup: its header, the rows up to the head as it stood when it began, and its trailer. */
  exportLines(): Iterable<string> | AsyncIterable<string>;
}

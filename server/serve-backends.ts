/**
 * Where `spades serve` keeps its ledger and sign-in state: the SQLite file under DATA_DIR (the
 * default, one machine), or PostgreSQL when DATABASE_URL is a postgres:// address, so that any
 * number of server processes share one ledger. Either way the server gets the same things: the
 * ledger, its sign-ins, whether this process plays the demo's tables, and how to let go of it all.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { LedgerFileError } from '../events/database.ts';
import { LedgerReadError, type ServedLedger, openLedger } from '../events/ledger.ts';
import { type Auth, createAuth } from './auth.ts';
import { UsageError } from './cli/io.ts';
import type { LedgerTarget } from './cli/ledger-target.ts';

export interface Backend {
  ledger: ServedLedger;
  /** The ledger as the start-up lines name it. */
  where: string;
  auth: Auth;
  /** Whether this process is the one to play the demo's tables now. */
  mayPlay: () => boolean | Promise<boolean>;
  close(): Promise<void>;
}

export async function openBackend(target: LedgerTarget, dataDir: string): Promise<Backend> {
  if (target.kind === 'postgres') throw new UsageError(`spades serve: DATABASE_URL names ${target.name}, and the server runs on the ledger file only so far; unset DATABASE_URL to serve DATA_DIR/spades.db`);
  mkdirSync(dataDir, { recursive: true });
  const path = target.path ?? join(dataDir, 'spades.db');
  let ledger;
  try {
    ledger = openLedger({ path });
  } catch (error) {
    if (error instanceof LedgerReadError || error instanceof LedgerFileError) throw new UsageError(`spades serve: ${path}: ${error.message}`);
    throw error;
  }
  // Whatever another process or the command line appends reaches this server's pages within
  // a tenth of a second, and every request folds it before deciding anything.
  const stopFollowing = ledger.follow(100);
  return {
    ledger,
    where: path,
    auth: createAuth({ ledger }),
    mayPlay: () => true,
    async close() {
      stopFollowing();
      ledger.close();
    },
  };
}


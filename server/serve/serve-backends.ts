/**
 * Where `spades serve` keeps its ledger and sign-in state: the SQLite file under DATA_DIR (the
 * default, one machine), or PostgreSQL when DATABASE_URL is a postgres:// address, so that any
 * number of server processes share one ledger. Either way the server gets the same things: the
 * ledger, its sign-ins, whether this process plays the demo's tables, and how to let go of it all.
 */
import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { servedLedger } from '../../events/store/sqlite/served-ledger.ts';
import { LedgerFileError } from '../../events/store/sqlite/database.ts';
import { LedgerReadError, type ServedLedger } from '../../events/store/served-ledger.ts';
import { openLedger } from '../../events/store/sqlite/ledger.ts';
import { removeAbandonedBuilds } from '../cli/import-builds.ts';
import { postgresLedgerInstalled, shownPgUrl } from '../../events/store/postgres/event-store.ts';
import { lease, openPostgresLedger } from '../../events/store/postgres/served-ledger.ts';
import { type Auth, createAuth, postgresAuthStorage } from '../auth/auth.ts';
import { UsageError } from '../cli/io.ts';
import { type LedgerTarget, pgRefusal } from '../cli/ledger-target.ts';

export interface Backend {
  ledger: ServedLedger;
  /** Whether the ledger was made by this start: no file, or no ledger tables in the database, before it. */
  fresh: boolean;
  /** The ledger as the start-up lines name it. */
  where: string;
  auth: Auth;
  /** Whether this process is the one to play the demo's tables now. */
  mayPlay: () => boolean | Promise<boolean>;
  close(): Promise<void>;
}

// A process holding the demo's lease renews it every tick; one killed outright loses it after this.
const DEMO_LEASE_MS = 5000;

export async function openBackend(target: LedgerTarget, dataDir: string, writerHost = '127.0.0.1'): Promise<Backend> {
  if (target.kind === 'postgres') return openPostgresBackend(target.url, writerHost);
  mkdirSync(dataDir, { recursive: true });
  const path = target.path ?? join(dataDir, 'spades.db');
  removeAbandonedBuilds(path);
  const fresh = !existsSync(path);
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
  // Requests' appends that arrive together go to the file in one commit.
  const served = servedLedger(ledger);
  return {
    ledger: served,
    fresh,
    where: path,
    auth: createAuth({ ledger }),
    mayPlay: () => true,
    async close() {
      stopFollowing();
      await served.close();
    },
  };
}

async function openPostgresBackend(url: string, writerHost: string): Promise<Backend> {
  const name = shownPgUrl(url);
  let ledger;
  let fresh: boolean;
  try {
    fresh = !(await postgresLedgerInstalled(url));
    // The server processes elect one of them to commit for all (events/store/postgres/writer-link.ts).
    ledger = await openPostgresLedger({ url, writerHost });
  } catch (error) {
    throw new UsageError(`spades serve: cannot open the ledger at ${name}: ${pgRefusal(error)}`);
  }
  // Announcements bring every commit at once; this catches up should one be lost with a connection.
  const stopFollowing = ledger.follow(1000);
  let auth: Auth;
  try {
    // Sign-ins live beside the events, shared by every process on the database.
    auth = createAuth({ ledger, storage: await postgresAuthStorage(ledger.store.kysely) });
  } catch (error) {
    stopFollowing();
    await ledger.close();
    throw new UsageError(`spades serve: cannot set up sign-in at ${name}: ${pgRefusal(error)}`);
  }
  // Named so an operator can tell which process plays: host, process id, and a random part.
  const holdsDemo = lease(ledger.store, 'demo-bots', `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`, DEMO_LEASE_MS);
  return {
    ledger,
    fresh,
    where: name,
    auth,
    mayPlay: () => holdsDemo().catch(() => false),
    async close() {
      stopFollowing();
      await ledger.close();
    },
  };
}

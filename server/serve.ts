/**
 * `spades serve` (what `npm start` runs): the server on PORT (default 3000) over the ledger in
 * DATA_DIR (default ./data). On an empty ledger it sets up a demo tournament and lets bots
 * play its tables at a watchable pace; a restart continues where the ledger stopped.
 */
import { serve } from '@hono/node-server';
import { join } from 'node:path';
import { mkdirSync } from 'node:fs';
import type { Decision, Ledger } from '../events/ledger.ts';
import type { ReadModels } from '../events/projections.ts';
import { LedgerReadError, openLedger } from '../events/ledger.ts';
import { LedgerFileError } from '../events/database.ts';
import { CommandIdReusedError, LedgerUnavailableError, VersionConflictError } from '../events/event-store.ts';
import { CommandError } from './commands.ts';
import { createApp } from './app.ts';
import { randomBytes } from 'node:crypto';
import { tableCount } from './table-codes.ts';
import { type CliIo, UsageError } from './cli/io.ts';
import { createTournament, registerTeam, startTournament } from './tournament-commands.ts';
import { driveTables, nextEntry } from './table-driver.ts';
import { tournamentLinks } from '../views/tournament-home.tsx';

export const DEMO_TOURNAMENT = 'demo';
const DEMO_SEED = 'pitt-boss-demo';

const DEMO_TEAMS: [string, [string, string]][] = [
  ['Big Joker Energy', ['Ana', 'Ben']],
  ['Books & Bags', ['Cy', 'Dee']],
  ['Set Them Twice', ['Eli', 'Fay']],
  ['Nil Desperandum', ['Gus', 'Hana']],
  ['The Renegers', ['Ike', 'Jo']],
  ['Spade Runners', ['Kai', 'Lia']],
  ['Boston Tea Party', ['Max', 'Nia']],
  ['Cut Card Crew', ['Oz', 'Pam']],
  ['Deuce Wild', ['Quin', 'Rae']],
  ['Board & Bored', ['Sam', 'Tia']],
  ['First Seven', ['Uma', 'Vic']],
  ['Trump Card', ['Wes', 'Xia']],
  ['Sandbaggers', ['Yan', 'Zoe']],
  ['Little Joker', ['Abe', 'Bea']],
  ['Ten for Two Hundred', ['Cal', 'Dot']],
  ['Off Suit', ['Ed', 'Flo']],
];

/**
 * Sets up the demo: a 16-team pitt-boss event, registered and seeded from a recorded seed. Each
 * step has its own command id, so a second server starting on the same file at the same moment
 * finds each step done (or loses its race for it) instead of setting the demo up twice.
 */
export function createDemo(ledger: Ledger): void {
  const tournamentId = DEMO_TOURNAMENT;
  const step = (commandId: string, decide: (models: ReadModels) => Decision | Decision[]) => {
    try {
      ledger.execute((models) => decide(models), { commandId });
    } catch (error) {
      if (!(error instanceof VersionConflictError || error instanceof CommandError)) throw error;
      ledger.sync();
    }
  };
  step('demo-create', (models) => createTournament(models, { tournamentId, name: 'Pitt Boss Spades (demo)', format: 'pitt-boss' }));
  DEMO_TEAMS.forEach(([name, players], i) => {
    step(`demo-register-${i + 1}`, (models) => registerTeam(models, { tournamentId, teamId: `team-${i + 1}`, name, players }));
  });
  step('demo-start', (models) => startTournament(models, { tournamentId, seed: DEMO_SEED }));
}

/**
 * One step of the demo's bots at every table. While the file cannot be written (a full disk, a
 * read-only file) the bots pause: each tick makes one attempt, and they carry on once it is
 * recorded. Nothing they do can end the process.
 */
export function demoBots(ledger: Ledger, notice: (line: string) => void): () => void {
  let paused: string | null = null;
  return () => {
    try {
      if (paused) {
        // One entry tells whether the ledger takes writes again.
        const game = Object.values(ledger.models.games).find((g) => g.tournamentId === DEMO_TOURNAMENT && !g.winner);
        if (game) ledger.execute((models) => nextEntry(ledger, models.games[game.gameId]!, { seed: DEMO_SEED }) ?? [], { meta: { by: 'table-bot' } });
        else driveTables(ledger, { tournamentId: DEMO_TOURNAMENT, seed: DEMO_SEED, renegeChance: 0.001 });
        notice('demo tables: the ledger takes entries again; the bots carry on');
        paused = null;
        return;
      }
      driveTables(ledger, { tournamentId: DEMO_TOURNAMENT, seed: DEMO_SEED, renegeChance: 0.001 });
    } catch (error) {
      if (error instanceof LedgerUnavailableError || error instanceof LedgerReadError) {
        if (paused === null) notice(`demo tables paused: ${error.message}`);
        paused = error.message;
        return;
      }
      if (error instanceof CommandError || error instanceof VersionConflictError || error instanceof CommandIdReusedError) return;
      notice(`demo tables: ${(error as Error).message}`);
    }
  };
}

interface ServeOptions {
  port: number;
  dataDir: string;
  demo: boolean;
  /** Milliseconds between entries at each table. */
  paceMs: number;
}

/** The options as `spades serve` was given them (see its entry in cli/command-table.ts). */
interface ServeArguments {
  values: { 'no-demo'?: boolean; pace?: string };
}

function readOptions({ values }: ServeArguments, env: NodeJS.ProcessEnv): ServeOptions {
  const options: ServeOptions = {
    port: 3000,
    dataDir: env.DATA_DIR || './data',
    demo: values['no-demo'] !== true,
    paceMs: 1000,
  };
  if (env.PORT !== undefined) {
    if (!/^\d+$/.test(env.PORT) || Number(env.PORT) > 65535) throw new UsageError(`PORT must be a port number (0–65535), not '${env.PORT}'`);
    options.port = Number(env.PORT);
  }
  if (values.pace !== undefined) {
    if (!/^\d+$/.test(values.pace)) throw new UsageError(`--pace takes milliseconds between entries at a table, not '${values.pace}'`);
    options.paceMs = Number(values.pace);
  }
  return options;
}

/** Runs the server until the process is stopped. */
export async function run(args: ServeArguments, io: CliIo): Promise<number> {
  const options = readOptions(args, process.env);
  mkdirSync(options.dataDir, { recursive: true });
  const path = join(options.dataDir, 'spades.db');
  let ledger: Ledger;
  try {
    ledger = openLedger({ path });
  } catch (error) {
    if (error instanceof LedgerReadError || error instanceof LedgerFileError) throw new UsageError(`spades serve: ${path}: ${error.message}`);
    throw error;
  }
  // Whatever another process or the command line appends reaches this server's pages within
  // a tenth of a second, and every request folds it before deciding anything.
  const stopFollowing = ledger.follow(100);
  const fresh = ledger.store.head().position === 0;
  if (options.demo && fresh) createDemo(ledger);
  const { app, broadcaster, auth } = createApp({ ledger });
  // The demo's sign-ins are made with the ledger, and their passwords shown only then.
  const logins: string[] = [];
  if (options.demo && fresh) {
    for (const [name, role] of [['Demo Director', 'director'], ['Demo Judge', 'judge']] as const) {
      const password = randomBytes(9).toString('base64url');
      await auth.users.add(name, role, password);
      logins.push(`  ${role} sign-in:  name '${name}', password '${password}'`);
    }
  }

  // What the first lines say of sign-in, read before listening: the accounts and the table codes.
  const current = ledger.models.currentTournament;
  const accounts = (await auth.users.list()).length;
  const codes = current ? await auth.tableCodes(current, tableCount(ledger.models, current)) : [];
  const server = serve({ fetch: app.fetch, port: options.port }, (info) => {
    const base = `http://localhost:${info.port}`;
    const lines = [`Spades ledger: ${path} (${ledger.store.head().position} events)`, `Listening on ${base}`];
    if (current) {
      const links = tournamentLinks(current);
      const game = Object.values(ledger.models.games).find((g) => g.tournamentId === current);
      lines.push(`  venue screen:  ${base}${links.screen}`, `  standings:     ${base}${links.leaderboard}`, `  bracket:       ${base}${links.bracket}`);
      if (game) lines.push(`  a table:       ${base}${links.table(game.gameId)}`);
    }
    lines.push(`  event feed:    ${base}/api/events/stream`, `  health:        ${base}/healthz`);
    if (logins.length > 0) lines.push(`Sign in at ${base}/login:`, ...logins);
    else if (accounts === 0) lines.push('No one can sign in yet: add a director with `npx spades add-user NAME --role director`.');
    if (current) lines.push(`Table codes (scorekeepers join at ${base}/join): ${codes.map((code, i) => `${i + 1}: ${code}`).join(', ')}`);
    if (options.demo) lines.push(`Demo tables play one entry every ${options.paceMs} ms (--pace MS to change, --no-demo to stop).`);
    io.stdout(lines.join('\n') + '\n');
  });

  let timer: NodeJS.Timeout | null = null;
  if (options.demo && ledger.models.tournaments[DEMO_TOURNAMENT]) {
    const bots = demoBots(ledger, (line) => io.stderr(`${line}\n`));
    timer = setInterval(bots, options.paceMs);
  }

  await new Promise<void>((resolve) => {
    const stop = () => {
      if (timer) clearInterval(timer);
      stopFollowing();
      broadcaster.close();
      server.close();
      ledger.close();
      resolve();
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
  return 0;
}

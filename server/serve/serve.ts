/**
 * `spades serve` (what `npm start` runs): the server on PORT (default 3000) over the ledger in
 * DATA_DIR (default ./data), or in PostgreSQL when DATABASE_URL names it (serve-backends.ts).
 * On an empty ledger it sets up a demo tournament and lets bots play its tables at a watchable
 * pace; a restart continues where the ledger stopped. `--demo progressive` sets up a 12-player
 * progressive evening (tournament-spades) instead, or beside a ledger's existing events, whose
 * bots seat each round as the last one ends, so the movement shows on the venue screen.
 */
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { serve } from '@hono/node-server';
import { type Decision, type LedgerHandle, servedOf } from '../../events/store/served-ledger.ts';
import type { ReadModels } from '../../events/projections.ts';
import { LedgerReadError } from '../../events/store/served-ledger.ts';
import { CommandIdReusedError, LedgerUnavailableError } from '../../events/store/append.ts';
import { CommandError } from '../commands/command-error.ts';
import { createApp } from '../app/app.ts';
import { REQUEST_TIMEOUTS } from '../http/body-limits.ts';
import { feedLimitsFromEnv } from '../live/feed-limits.ts';
import { openBackend } from './serve-backends.ts';
import { ledgerTarget } from '../cli/ledger-target.ts';
import { randomBytes } from 'node:crypto';
import { type CliIo, UsageError } from '../cli/io.ts';
import { createTournament, registerPlayer, registerTeam, startTournament } from '../commands/tournament-commands.ts';
import { driveTables, nextEntry } from './table-driver.ts';
import { tournamentLinks } from '../../events/addresses.ts';
import { type DemoKind, type ServeArguments, readOptions } from './serve-options.ts';

export const DEMO_TOURNAMENT = 'demo';
const DEMO_SEED = 'pitt-boss-demo';
/** The progressive evening `--demo progressive` sets up. */
export const PROGRESSIVE_DEMO = 'evening';
const PROGRESSIVE_SEED = 'progressive-demo';

// Twelve players, three tables; a prize category each for the high male / high female prizes.
const EVENING_PLAYERS: [string, 'male' | 'female'][] = [
  ['Ana', 'female'],
  ['Ben', 'male'],
  ['Cy', 'male'],
  ['Dee', 'female'],
  ['Eli', 'male'],
  ['Fay', 'female'],
  ['Gus', 'male'],
  ['Hana', 'female'],
  ['Ike', 'male'],
  ['Jo', 'female'],
  ['Kai', 'male'],
  ['Lia', 'female'],
];

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

type DemoStep = [commandId: string, decide: (models: ReadModels) => Decision | Decision[]];

/**
 * The demo's set-up: a 16-team pitt-boss event, registered and seeded from a recorded seed. Each
 * step has its own command id, so a second server starting on the same ledger at the same moment
 * finds each step done (or loses its race for it) instead of setting the demo up twice.
 */
function demoSteps(kind: DemoKind = 'pitt-boss'): DemoStep[] {
  if (kind === 'progressive') {
    const tournamentId = PROGRESSIVE_DEMO;
    return [
      [
        'evening-create',
        (models) => createTournament(models, { tournamentId, name: 'Progressive Evening (demo)', format: 'tournament-spades', options: { rounds: 4 } }),
      ],
      ...EVENING_PLAYERS.map(
        ([name, gender]): DemoStep => [
          `evening-register-${name}`,
          (models) => registerPlayer(models, { tournamentId, playerId: name.toLowerCase(), name, gender }),
        ],
      ),
      ['evening-start', (models) => startTournament(models, { tournamentId, seed: PROGRESSIVE_SEED })],
    ];
  }
  const tournamentId = DEMO_TOURNAMENT;
  return [
    ['demo-create', (models) => createTournament(models, { tournamentId, name: 'Pitt Boss Spades (demo)', format: 'pitt-boss' })],
    ...DEMO_TEAMS.map(
      ([name, players], i): DemoStep => [`demo-register-${i + 1}`, (models) => registerTeam(models, { tournamentId, teamId: `team-${i + 1}`, name, players })],
    ),
    ['demo-start', (models) => startTournament(models, { tournamentId, seed: DEMO_SEED })],
  ];
}

/** How long the requests under way are given to be answered once the process is asked to stop. */
const STOP_GRACE_MS = 1500;
/** What an open event stream is told as the process stops: reconnect after a second. */
const RECONNECT_HINT = 'retry: 1000\n\n';
/** How long the streams are given to take that hint. */
const HINT_WAIT_MS = 250;

/** Resolves once `done` holds, or after `ms`, asking every 10 ms. */
async function until(done: () => boolean, ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  while (!done() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
}

/**
 * Sets up the demo on either back end (see `demoSteps`). Says whether this process created it,
 * rather than finding it created by another.
 */
export async function createDemo(handle: LedgerHandle, kind: DemoKind = 'pitt-boss'): Promise<boolean> {
  const ledger = servedOf(handle);
  let created = false;
  for (const [commandId, decide] of demoSteps(kind)) {
    try {
      const results = await ledger.append(decide, { commandId });
      if (commandId === 'demo-create' || commandId === 'evening-create') created = results.length > 0 && !results.some((r) => r.duplicate);
    } catch (error) {
      // Another process set this step up first: the ledger decides a lost race again, so it says so as a refusal.
      if (!(error instanceof CommandError)) throw error;
      await ledger.sync();
    }
  }
  return created;
}

/**
 * One step of the demo's bots at every table, when `mayPlay` says this process is the one to
 * play them (on PostgreSQL, the holder of the demo's lease). While the ledger cannot be written
 * (a full disk, a read-only file, a lost database) the bots pause: each tick makes one attempt,
 * and they carry on once it is recorded. A tick still under way when the next is due is let
 * finish. Nothing they do can end the process.
 */
export function demoBots(
  given: LedgerHandle,
  notice: (line: string) => void,
  mayPlay: () => boolean | Promise<boolean> = () => true,
  kind: DemoKind = 'pitt-boss',
): () => Promise<void> {
  const ledger = servedOf(given);
  let paused: string | null = null;
  let running = false;
  const tournamentId = kind === 'progressive' ? PROGRESSIVE_DEMO : DEMO_TOURNAMENT;
  const seed = kind === 'progressive' ? PROGRESSIVE_SEED : DEMO_SEED;
  const drive = () => driveTables(ledger, { tournamentId, seed, renegeChance: kind === 'progressive' ? 0 : 0.001 });
  return async () => {
    // Nothing to play until the demo is there (set up by this process or one beside it).
    if (running || !ledger.models.tournaments[tournamentId]) return;
    running = true;
    try {
      if (!(await mayPlay())) return;
      if (paused) {
        // One entry tells whether the ledger takes writes again.
        const game = Object.values(ledger.models.games).find((g) => g.tournamentId === tournamentId && !g.winner);
        if (game) await ledger.append((models) => nextEntry(ledger, models.games[game.gameId]!, { seed }) ?? [], { meta: { by: 'table-bot' } });
        else await drive();
        notice('demo tables: the ledger takes entries again; the bots carry on');
        paused = null;
        return;
      }
      await drive();
    } catch (error) {
      if (error instanceof LedgerUnavailableError || error instanceof LedgerReadError) {
        if (paused === null) notice(`demo tables paused: ${error.message}`);
        paused = error.message;
        return;
      }
      if (error instanceof CommandError || error instanceof CommandIdReusedError) return;
      notice(`demo tables: ${(error as Error).message}`);
    } finally {
      running = false;
    }
  };
}

/** Runs the server until the process is stopped. */
export async function run(args: ServeArguments, io: CliIo): Promise<number> {
  const options = readOptions(args, process.env);
  const feedLimits = feedLimitsFromEnv(process.env);
  if ('error' in feedLimits) throw new UsageError(feedLimits.error);
  const backend = await openBackend(ledgerTarget('serve', undefined, process.env), options.dataDir, options.writerHost);
  const { ledger, auth } = backend;
  const head = (await ledger.head()).position;
  // The demo goes only into a ledger this start made: a file or database that already held the
  // ledger's tables (an import refused, accounts added, a real event about to begin) is left as it is.
  const fresh = backend.fresh && head === 0;
  const declined = options.demo && !backend.fresh && head === 0;
  // Another process starting on the same database at this moment may have begun the demo: the
  // models are brought up to what the database held when this one looked, so that this process
  // sees that demo (and plays its tables when it holds the lease) rather than none.
  await ledger.syncTo(head);
  // A progressive evening asked for by name is set up beside whatever the ledger holds.
  const wanted = options.demo && (fresh || (options.demoKind === 'progressive' && !ledger.models.tournaments[PROGRESSIVE_DEMO]));
  const created = wanted && (await createDemo(ledger, options.demoKind)) && fresh;
  const { app, broadcaster, close: closeApp } = createApp({ ledger, auth, feedLimits });
  // The demo's sign-ins are made with the ledger, and their passwords shown only then, by the
  // process that set the demo up (others starting on the same database at once find it made).
  const logins: string[] = [];
  if (created) {
    for (const [name, role] of [
      ['Demo Director', 'director'],
      ['Demo Judge', 'judge'],
    ] as const) {
      const password = randomBytes(9).toString('base64url');
      await auth.users.add(name, role, password);
      logins.push(`  ${role} sign-in:  name '${name}', password '${password}'`);
    }
  }
  const events = (await ledger.head()).position;

  // What the first lines say of sign-in, read before listening: the accounts. The table codes are
  // printed on the director's code sheet alone, never into a log someone else may read.
  const current = ledger.models.currentTournament;
  const accounts = (await auth.users.list()).length;
  // A request still arriving after 20 seconds is answered 408 (Node would wait five minutes).
  const server = serve(
    { fetch: app.fetch, port: options.port, serverOptions: REQUEST_TIMEOUTS, ...(options.host ? { hostname: options.host } : {}) },
    (info) => {
      const base = `http://${shownHost(options.host)}:${info.port}`;
      const lines = [`Spades ledger: ${backend.where} (${events} events)`, `Listening on ${base}`];
      if (current) {
        const links = tournamentLinks(current);
        const game = Object.values(ledger.models.games).find((g) => g.tournamentId === current);
        lines.push(`  venue screen:  ${base}${links.screen}`, `  standings:     ${base}${links.leaderboard}`, `  bracket:       ${base}${links.bracket}`);
        if (game) lines.push(`  a game:        ${base}${links.game(game.gameId)}`);
      }
      lines.push(`  event feed:    ${base}/api/events/stream`, `  health:        ${base}/healthz`);
      if (logins.length > 0) lines.push(`Sign in at ${base}/login:`, ...logins);
      else if (accounts === 0) lines.push('No one can sign in yet: add a director with `npx spades add-user NAME --role director`.');
      if (current)
        lines.push(
          `Table codes: signed in as a director, print them from ${base}/tournaments/${encodeURIComponent(current)}/codes (scorekeepers join at ${base}/join)`,
        );
      if (declined && !created)
        lines.push(
          `No demo: ${backend.where} already held a ledger (with no events), and the demo is set up only in a new data folder; start with --no-demo to say so.`,
        );
      else if (options.demo) lines.push(`Demo tables play one entry every ${options.paceMs} ms (--pace MS to change, --no-demo to stop).`);
      io.stdout(lines.join('\n') + '\n');
    },
  );

  let timer: NodeJS.Timeout | null = null;
  const demoId = options.demoKind === 'progressive' ? PROGRESSIVE_DEMO : DEMO_TOURNAMENT;
  // A process starting beside another on a new ledger may find the demo set up only after it
  // looked, so its bots wait for the demo's tournament rather than deciding once.
  if (options.demo && (ledger.models.tournaments[demoId] || head === 0)) {
    const bots = demoBots(ledger, (line) => io.stderr(`${line}\n`), backend.mayPlay, options.demoKind);
    timer = setInterval(() => void bots(), options.paceMs);
  }

  // Every response under way, and whether it is an event stream, so stopping can tell the
  // streams to come back and let the rest be answered.
  const open = new Map<ServerResponse, boolean>();
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    open.set(res, /\/stream(\?|$)/.test(req.url ?? '') || (req.headers.accept ?? '').includes('text/event-stream'));
    res.once('close', () => open.delete(res));
  });

  return await new Promise<number>((resolve) => {
    let stopping = false;
    const stop = (status: number) => {
      if (stopping) return;
      stopping = true;
      if (timer) clearInterval(timer);
      void (async () => {
        // No new connection is taken; kept-alive idle ones are closed.
        server.close();
        // Every open stream is told to come back in a second (to another process behind nginx,
        // or to this one restarted) and ended; it resumes from its last event id.
        // (A stream's response is written past the framework, so its socket says whether it is open.)
        const streams = [...open]
          .filter(([res, stream]) => stream && res.headersSent && !res.destroyed && res.socket && !res.socket.destroyed)
          .map(([res]) => res);
        for (const res of streams) res.write(RECONNECT_HINT);
        // The hint goes out before the streams are ended (ending one drops what it has not sent),
        // but a screen that stopped reading is not waited for long.
        await until(() => streams.every((res) => res.writableLength === 0 || res.destroyed), HINT_WAIT_MS);
        broadcaster.close();
        // Requests under way are answered, what they appended committed, for a bounded time;
        // then whatever is still open (a stream still catching up) is cut.
        await until(() => [...open.values()].every((stream) => stream), STOP_GRACE_MS);
        (server as Server).closeAllConnections();
        // The reader's thread lets go of the ledger first, so that the ledger, closing last,
        // commits what it has taken and (a file) folds its write-ahead log in and removes it.
        await closeApp().catch(() => undefined);
        await backend.close().catch((error: unknown) => io.stderr(`spades serve: closing the ledger: ${(error as Error).message}\n`));
        resolve(status);
      })();
    };
    process.once('SIGINT', () => stop(0));
    process.once('SIGTERM', () => stop(0));
    // An address this machine does not have, or a port taken: one line, as for any bad setting.
    server.once('error', (error: NodeJS.ErrnoException) => {
      io.stderr(`spades serve: cannot listen on ${options.host ?? 'every interface'} port ${options.port}: ${listenProblem(error)}\n`);
      stop(2);
    });
  });
}

/** How the start-up lines write the address listened on: `localhost` for every interface. */
function shownHost(host: string | undefined): string {
  if (host === undefined || host === '0.0.0.0' || host === '::') return 'localhost';
  return host.includes(':') ? `[${host}]` : host;
}

function listenProblem(error: NodeJS.ErrnoException): string {
  if (error.code === 'EADDRINUSE') return 'the port is taken by another program';
  if (error.code === 'EADDRNOTAVAIL') return 'this machine has no such address';
  if (error.code === 'ENOTFOUND' || error.code === 'EAI_AGAIN') return 'no such host name';
  if (error.code === 'EACCES') return 'not allowed (ports below 1024 need privileges)';
  return error.message;
}

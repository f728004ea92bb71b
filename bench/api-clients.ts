/**
 * The read API benchmark's open-loop load, in a process of its own: requests sent at a steady
 * rate (each on its schedule whether or not the last has been answered) over keep-alive
 * connections, 6 in 10 to the tournament, 1 to the list and 3 to its games in turn, each timed
 * to its last byte, asking for gzip as browsers and most HTTP libraries do (or, given `identity`,
 * not; given `healthz`, the same load on /healthz alone, the server's lightest answer, for what
 * the machine itself adds). Kept apart from the process that simulated the ledger and measured the
 * fresh answer, whose heap of read models would otherwise pause these clients' own callbacks
 * and be counted as the server's time. Reads the game ids from standard input; prints
 * `{"times":[ms…],"failed":N}` when done.
 *
 *   node bin/run-ts.js bench/api-clients.ts PORT RATE SECONDS MODE SETTLE < game-ids.json
 *
 * MODE is gzip, identity or healthz; SETTLE, the seconds of the same load sent first and not
 * counted.
 */
import { Agent, request } from 'node:http';
import { text } from 'node:stream/consumers';

const [port, rate, seconds] = process.argv.slice(2, 5).map(Number) as [number, number, number];
const mode = process.argv[5] ?? 'gzip';
const headers = { 'accept-encoding': mode === 'identity' ? 'identity' : 'gzip' };
const games = JSON.parse(await text(process.stdin)) as string[];
const agent = new Agent({ keepAlive: true, maxSockets: 32 });
const tournament = '/api/v1/tournaments/bench';

/** One GET to the last byte, in milliseconds, or -1 when it was not answered 200. */
function timed(path: string): Promise<number> {
  const start = process.hrtime.bigint();
  return new Promise((resolve) => {
    const req = request({ host: '127.0.0.1', port, path, agent, headers }, (res) => {
      res.on('data', () => {});
      res.on('end', () => resolve(res.statusCode === 200 ? Number(process.hrtime.bigint() - start) / 1e6 : -1));
    });
    req.on('error', () => resolve(-1));
    req.end();
  });
}

let n = 0;
const next = () => {
  if (mode === 'healthz') return '/healthz';
  const i = n++ % 10;
  if (i < 6) return tournament;
  if (i < 7) return '/api/v1/tournaments';
  return `/api/v1/games/${encodeURIComponent(games[n % games.length]!)}`;
};

// Warm: every route compiled and run, every answer made once.
for (const path of [tournament, '/api/v1/tournaments', ...games.map((g) => `/api/v1/games/${encodeURIComponent(g)}`)]) await timed(path);

/** Sends `rate` requests a second for `seconds`, each on its schedule; the time of each to its last byte (-1: not answered 200). */
async function openLoop(seconds: number): Promise<Float64Array> {
  const total = rate * seconds;
  const times = new Float64Array(total);
  let sent = 0;
  let answered = 0;
  const start = process.hrtime.bigint();
  await new Promise<void>((done) => {
    const tick = () => {
      const due = Math.min(total, Math.floor((Number(process.hrtime.bigint() - start) / 1e9) * rate) + 1);
      for (; sent < due; sent++) {
        const slot = sent;
        void timed(next()).then((ms) => {
          times[slot] = ms;
          if (++answered === total) done();
        });
      }
      if (sent < total) setTimeout(tick, 1);
    };
    tick();
  });
  return times;
}

// Then the same load, not counted, while the server settles (a server just started has folded
// the whole ledger and is still collecting what that left) and these clients' code is compiled.
await openLoop(Number(process.argv[6] ?? 3));
const times = [...(await openLoop(seconds))];
const failed = times.filter((ms) => ms < 0).length;
agent.destroy();
process.stdout.write(`${JSON.stringify({ times: times.filter((ms) => ms >= 0), failed })}\n`);

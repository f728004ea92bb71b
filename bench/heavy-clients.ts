/**
 * The load of the heavy-reads benchmark, in a process of its own: 8 anonymous clients, each
 * from its own loopback address, looping on /verify, the NDJSON export, as-of and the past
 * standings CSV until the time is up, reading every byte. Kept apart from the process that
 * times /healthz and the table entries, so reading 80 MB exports cannot delay those timings'
 * own callbacks. Prints `started` as it begins and `{"ok":N,"limited":N}` when done.
 *
 *   node bin/run-ts.js bench/heavy-clients.ts PORT SECONDS EVENTS
 */
import { request } from 'node:http';

const [port, seconds, events] = process.argv.slice(2).map(Number) as [number, number, number];

function read(path: string, localAddress: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, localAddress }, (res) => {
      res.on('data', () => {});
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end();
  });
}

process.stdout.write('started\n');
const until = Date.now() + seconds * 1000;
const heavy = [
  () => '/verify',
  () => '/api/ledger.ndjson',
  () => `/tournaments/bench/as-of?position=${1 + Math.floor(Math.random() * events)}`,
  () => `/tournaments/bench/standings.csv?position=${1 + Math.floor(Math.random() * events)}`,
];
const answered = { ok: 0, limited: 0 };
await Promise.all(
  Array.from({ length: 8 }, async (_, i) => {
    const localAddress = `127.0.0.${i + 2}`;
    for (let n = i; Date.now() < until; n++) {
      const status = await read(heavy[n % heavy.length]!(), localAddress);
      if (status === 429) answered.limited++;
      else answered.ok++;
    }
  }),
);
process.stdout.write(`${JSON.stringify(answered)}\n`);

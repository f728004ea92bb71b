/**
 * The crash-safety test, for longer: kills ledger writers with SIGKILL over and over on one
 * ledger and checks after every kill that each acknowledged event is there, none is recorded
 * twice, positions are gapless, the store's own check passes and the chain verifies. The same
 * cycle as the ledger suite's, on a SQLite file or (with --postgres) on a throwaway PostgreSQL
 * cluster. Not part of `npm test`; run by hand:
 *
 *   node bin/run-ts.js test/soak/crash-soak.ts [--postgres] [--minutes 10] [--cycles N] [--writers 3] [--seed S] [--keep]
 *
 * Writers per cycle vary from 1 to --writers. Exits 1 at the first cycle that finds a problem,
 * printing the seed to replay it (and, with --keep or on a problem, leaving a SQLite file in place).
 */
import { parseArgs } from 'node:util';
import { createRandom } from '../../engine/random.ts';
import { postgresBackend, sqliteBackend } from '../fixtures/ledger-backends.ts';
import { buildLedgerChild, crashCycle } from '../fixtures/ledger-child-process.ts';

const { values } = parseArgs({
  options: {
    minutes: { type: 'string', default: '10' },
    cycles: { type: 'string' },
    writers: { type: 'string', default: '3' },
    postgres: { type: 'boolean', default: false },
    seed: { type: 'string' },
    keep: { type: 'boolean', default: false },
  },
});

const minutes = Number(values.minutes);
const maxCycles = values.cycles === undefined ? Infinity : Number(values.cycles);
const maxWriters = Number(values.writers);
const seed = values.seed === undefined ? Date.now() >>> 0 : Number(values.seed);
if (![minutes, maxCycles, maxWriters, seed].every((n) => n > 0) || !Number.isInteger(maxWriters)) {
  console.error('crash-soak: --minutes, --cycles, --writers and --seed take positive numbers');
  process.exit(2);
}

const backend = values.postgres ? postgresBackend() : sqliteBackend();
if (!backend.available) {
  console.error('crash-soak: PostgreSQL is not installed (apt-get install postgresql), so --postgres cannot run');
  process.exit(2);
}
const random = createRandom(seed).float;
await backend.start();
const location = await backend.create();
const child = buildLedgerChild();
const deadline = Date.now() + minutes * 60_000;
console.log(
  `crash soak on ${backend.name}: seed ${seed}, ledger ${location}, up to ${minutes} min${Number.isFinite(maxCycles) ? ` or ${maxCycles} cycles` : ''}`,
);

let cycle = 0;
let acked = 0;
let head = 0;
let failed = false;
try {
  while (cycle < maxCycles && Date.now() < deadline) {
    cycle++;
    const writers = 1 + Math.floor(random() * maxWriters);
    const result = await crashCycle(backend, location, child.path, random, writers);
    acked += result.acked;
    if (result.head < head) result.problems.push(`the head went back from ${head} to ${result.head}`);
    head = result.head;
    if (result.problems.length > 0) {
      console.error(`cycle ${cycle} (${writers} writers, seed ${seed}):\n  ${result.problems.join('\n  ')}`);
      failed = true;
      break;
    }
    if (cycle % 100 === 0) console.log(`${cycle} kills, ${acked} acknowledged appends, ${head} events, all held`);
  }
  if (!failed) console.log(`done: ${cycle} kills, ${acked} acknowledged appends, ${head} events, all held`);
} finally {
  child.remove();
  // A file is kept to look into; a throwaway cluster goes with its folder.
  const keep = (failed || values.keep) && backend.name === 'SQLite';
  if (keep) console.log(`ledger kept at ${location}`);
  else await backend.stop();
}
process.exitCode = failed ? 1 : 0;

/**
 * One writer process of the PostgreSQL append benchmark (pg-append.ts): a store of its own, with
 * its own connections, on the benchmark's database, and four writers each appending to a stream
 * of its own (four in the benchmark), as the tables one server process serves would. It appends when told, over the
 * IPC channel of the benchmark that forked it, and answers with its store's commit counts.
 *
 *   node bin/run-ts.js bench/pg-writer-process.ts URL INDEX WRITERS
 */
import { openPostgresStore } from '../events/store/postgres/event-store.ts';
import { type BenchEvent, event, registry } from './ledger.ts';

const [url, index, writers] = process.argv.slice(2);
if (!url || index === undefined || !writers || !process.send) throw new Error('usage: forked by pg-append.ts with URL INDEX WRITERS');
const WRITERS_PER_PROCESS = Number(writers);
const send = (message: unknown) => process.send!(message);
// Each process takes part in electing the writer, as a server process does.
const store = await openPostgresStore<BenchEvent>({
  url,
  registry,
  clock: () => '2026-01-01T00:00:00.000Z',
  poolSize: WRITERS_PER_PROCESS,
  writerLink: { host: '127.0.0.1' },
});

process.on('message', (message: { count: number } | 'close') => {
  if (message === 'close') {
    void store.close().then(() => process.exit(0));
    return;
  }
  const before = store.commitStats();
  void Promise.all(
    Array.from({ length: WRITERS_PER_PROCESS }, async (_, w) => {
      for (let i = 0; i < message.count; i++) await store.append(`game-p${index}-w${w}`, [event]);
    }),
  ).then(
    // The link's counts for this round alone; the committer's are summed over the run.
    () => {
      const after = store.commitStats();
      send({
        done: true,
        stats: {
          ...after,
          forwarded: after.forwarded - before.forwarded,
          servedForOthers: after.servedForOthers - before.servedForOthers,
          own: after.own - before.own,
        },
      });
    },
    (error: Error) => send({ done: false, error: error.message }),
  );
});
send('ready');

import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

/**
 * Suites that start nothing of their own (no server listening, no browser, no child process,
 * no PostgreSQL) and leave nothing running: the rules engine, the folds, the views and the app
 * answering requests in memory. They run one after another in one shared thread, which loads the
 * project once for all of them instead of once per file. Every other suite, and any new one
 * until it is listed here, runs in a process of its own: what a suite that starts servers and
 * browsers leaves running would otherwise stay for every file after it. test/layout.test.ts
 * checks that no listed suite starts anything.
 */
export const SHARED_THREAD_SUITES = [
  'abuse-sessions',
  'api-v1',
  'app',
  'audit-as-of',
  'audit-exports',
  'audit-replay',
  'bid',
  'blp-rounds',
  'bot',
  'bracket-rounds',
  'bracket',
  'competition-words',
  'director-desk',
  'embeds',
  'event-store',
  'game',
  'idempotency',
  'import-ledger-checks',
  'import-ledger-replay',
  'judge-penalty-text',
  'knockout-standings',
  'paper-time-calls',
  'preset-tables',
  'prize-pages',
  'progressive-demo',
  'progressive-evening',
  'progressive-room',
  'progressive-sheets',
  'progressive',
  'public-address',
  'random',
  'reader-worker-file',
  'record-import',
  'record-schema',
  'record',
  'request-input',
  'routes-access',
  'routes-card-grid',
  'routes-console',
  'routes-entry',
  'routes-judge-console',
  'routes-registration',
  'routes-ruling-withdrawal',
  'routes-seating',
  'routes-table-matches',
  'routes-team-page',
  'rule-options-doc',
  'rulebook-examples',
  'rules-sheet',
  'schemas',
  'scoring',
  'screen-address',
  'screen-pin',
  'seeding',
  'simulate',
  'snapshot-binding',
  'sqlite-group-commit',
  'storage-faults',
  'tournament-clock',
  'tournament-corrections',
  'tournament-formats',
  'tournament-registration',
  'tournament-stats',
  'trick.property',
  'views',
];
const shared = SHARED_THREAD_SUITES.flatMap((name) => [`test/${name}.test.ts`, `test/${name}.test.tsx`]);
/** Suites that drive chromium: they connect to one started for the run (test/fixtures/shared-chromium.ts). */
const browser = ['test/browser-*.test.ts', 'test/pg-cluster.test.ts'];

export default defineConfig({
  esbuild: { jsx: 'automatic', jsxImportSource: 'hono/jsx' },
  test: {
    testTimeout: 60_000,
    hookTimeout: 60_000,
    poolOptions: {
      // Most suites of their own spend their time waiting on processes they started (servers,
      // chromium, PostgreSQL, writers to kill): two at a time keep two cores busy where vitest's
      // default of one fewer than the cores would run one.
      forks: { maxForks: Math.max(2, availableParallelism() - 1) },
      threads: { isolate: false, minThreads: 1, maxThreads: 1 },
    },
    projects: [
      { extends: true, test: { name: 'shared', include: shared, pool: 'threads' } },
      { extends: true, test: { name: 'own', include: ['test/**/*.test.ts', 'test/**/*.test.tsx'], exclude: [...shared, ...browser], pool: 'forks' } },
      // A project of their own, so the browser is started only for a run that has one of them.
      { extends: true, test: { name: 'browser', include: browser, pool: 'forks', globalSetup: ['test/fixtures/shared-chromium.ts'] } },
    ],
  },
});

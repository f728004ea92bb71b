import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  esbuild: { jsx: 'automatic', jsxImportSource: 'hono/jsx' },
  test: {
    include: ['test/**/*.test.ts', 'test/**/*.test.tsx'],
    pool: 'forks',
    // Most suites spend their time waiting on processes of their own (servers, chromium,
    // PostgreSQL, writers to kill): two files at a time keep two cores busy where vitest's
    // default of one fewer than the cores would run one. Each file runs in a fresh process: sharing
    // one per fork loaded the project once rather than once per file (about 130 s less, summed),
    // but what one file leaves running (a ledger's follow timer, a server) then stays for every
    // file after it in that process, and suites that start servers and browsers failed in full
    // runs with it that never fail alone.
    poolOptions: { forks: { maxForks: Math.max(2, availableParallelism() - 1) } },
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});

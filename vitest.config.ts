import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  esbuild: { jsx: 'automatic', jsxImportSource: 'hono/jsx' },
  test: {
    include: ['test/**/*.test.ts', 'test/**/*.test.tsx'],
    pool: 'forks',
    // Most suites spend their time waiting on processes of their own (servers, chromium,
    // PostgreSQL, writers to kill): two files at a time keep two cores busy where vitest's
    // default of one fewer than the cores would run one.
    poolOptions: { forks: { maxForks: Math.max(2, availableParallelism() - 1) } },
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});

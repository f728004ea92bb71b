import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  esbuild: { jsx: 'automatic', jsxImportSource: 'hono/jsx' },
  test: {
    include: ['test/**/*.test.ts', 'test/**/*.test.tsx'],
    pool: 'forks',
    // Most suites spend their time waiting on processes of their own (servers, chromium,
    // PostgreSQL, writers to kill): two files at a time keep two cores busy where vitest's
    // default of one fewer than the cores would run one. Each fork runs its files one after another
    // in one process (isolate: false), so the project's modules are imported and transformed once
    // per fork rather than once per file: collecting the files took 152 s summed, now about 30.
    // No suite mocks modules or leaves globals, timers or environment changed behind it.
    poolOptions: { forks: { maxForks: Math.max(2, availableParallelism() - 1), isolate: false } },
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});

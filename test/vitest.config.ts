// Vitest settings (kept under test/): node environment, tests under test/, generous timeouts for spawned CLI runs.
import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    environment: 'node',
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Every core: vitest's default is one worker fewer, which on a 2-core machine left the second core idle while the
    // analysis tests, CPU-bound, ran one file at a time (the main process only collects results).
    maxWorkers: availableParallelism(),
  },
});

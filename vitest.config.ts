import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // One file per core: most files spend their time waiting on the CLI processes they start, and
    // vitest's default (one core left free) ran them one at a time on a 2-core machine.
    maxWorkers: availableParallelism(),
  },
});

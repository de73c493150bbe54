import type { RunOptions } from '../../harness/run/run.js';

/** RunOptions for a small quiet test run: one repetition, no warm-up, 2 workers, 256 MiB, 10 s, 2 solutions. */
export function testRunOptions(base: Pick<RunOptions, 'paths' | 'strategies' | 'out' | 'log'> & Partial<RunOptions>, over: Partial<RunOptions>): RunOptions {
  return { repeat: 1, warmup: 0, timeoutS: 10, memoryMb: 256, workers: 2, maxSolutions: 2, quiet: true, ...base, ...over };
}

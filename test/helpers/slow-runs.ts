import { join } from 'node:path';
import { Writable } from 'node:stream';
import { expect } from 'vitest';
import { runCorpus } from '../../harness/run/run.js';
import { tempDirs } from './temp-dirs.js';

// Real measured runs: slow-goal busy-waits `waitMs` per solve, so 100 against 50 is a true 2× slowdown.
// One worker and waits of 50 ms keep the scheduler's delays (a few ms on a loaded machine) small beside them.
export const FIX = 'test/fixtures/harness';
export const SLOW = `${FIX}/slow-goal.mjs`;
export const PUZZLES = [1, 2, 3].map((n) => `${FIX}/tiny.json#${n}`);
export const FAST = 50;
export const SLOWER = 100;
export const CLI = 'dist/harness/cli.js';
export const tmp = tempDirs('compare-runs');

export const quietLog = () =>
  new Writable({
    write(_chunk, _enc, done) {
      done();
    },
  }) as unknown as NodeJS.WriteStream;

/** Runs slow-goal with `waitMs` over the puzzles, 5 repetitions on one worker; returns the CSV path. */
export async function measure(waitMs: number, paths = PUZZLES): Promise<string> {
  const run = await runCorpus({
    paths,
    strategies: [SLOW],
    repeat: 5,
    warmup: 0,
    timeoutS: 10,
    memoryMb: 256,
    workers: 1,
    maxSolutions: 2,
    out: join(tmp(), `wait-${waitMs}.csv`),
    quiet: true,
    params: { waitMs },
    log: quietLog(),
  });
  expect(run.exitCode).toBe(0);
  return run.out;
}

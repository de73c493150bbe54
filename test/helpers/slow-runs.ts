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

/** Units of slow-goal's fixed computation (about 0.2 ms each): 300 against 150 doubles the CPU time, busy machine or not. */
export const FAST_WORK = 150;
export const SLOWER_WORK = 300;

/** Runs slow-goal with `waitMs` over the puzzles, 5 repetitions on one worker; returns the CSV path. */
export async function measure(waitMs: number, paths = PUZZLES, params: Record<string, number> = { waitMs }): Promise<string> {
  const run = await runCorpus({
    paths,
    strategies: [SLOW],
    repeat: 5,
    warmup: 0,
    timeoutS: 10,
    memoryMb: 256,
    workers: 1,
    maxSolutions: 2,
    out: join(tmp(), `${Object.entries(params).flat().join('-')}-${Math.random().toString(36).slice(2, 8)}.csv`),
    quiet: true,
    params,
    log: quietLog(),
  });
  expect(run.exitCode).toBe(0);
  return run.out;
}

/** As measure, with `work` units of computation per solve: what CPU time judges. */
export const measureWork = (work: number, paths = PUZZLES) => measure(0, paths, { work });

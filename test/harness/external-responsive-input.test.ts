import { describe, expect, it } from 'vitest';
import { generateRandomPuzzle } from '../../corpus/generate.js';
import { withoutGoal } from '../../corpus/model.js';
import { createRng } from '../../corpus/random.js';
import { runExternalTask } from '../../harness/external/run-external.js';
import { resolveExternal } from '../../harness/external/spec.js';
import { executable } from '../helpers/external-runs.js';
import { tempDirs } from '../helpers/temp-dirs.js';

const dir = tempDirs('external-responsive');

describe("an external SAT solver's large CNF", () => {
  it('is encoded and written letting the harness thread run others meanwhile (their time limits), not in one block', async () => {
    // An 80×80 automaton CNF (12 MB) took the thread a second in one piece; a 300×300 one 35 s, while
    // the solvers running beside it went on past their time limits (a 2 s limit ended after 28 s).
    const puzzle = withoutGoal(generateRandomPuzzle(80, 80, 0.5, createRng(1)));
    const program = executable(dir(), 'unknown.sh', '#!/bin/sh\necho s UNKNOWN\n');
    let last = performance.now();
    let longestGap = 0;
    const ticker = setInterval(() => {
      const now = performance.now();
      longestGap = Math.max(longestGap, now - last);
      last = now;
    }, 5);
    const started = performance.now();
    try {
      const outcome = await runExternalTask({
        puzzle,
        solver: resolveExternal({ command: `${program} {cnf}`, input: 'cnf', output: 'dimacs-model', encoding: 'automaton' }),
        maxSolutions: 1,
        timeoutMs: 20_000,
        hardLimitMs: 25_000,
        memoryMb: 1024,
      });
      expect(outcome.kind).toBe('done');
    } finally {
      clearInterval(ticker);
    }
    const total = performance.now() - started;
    expect(longestGap, `the thread's longest block: ${longestGap.toFixed(0)} ms of ${total.toFixed(0)} ms`).toBeLessThan(total * 0.3);
  }, 20_000);
});

import { resolve } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { loadPuzzle } from '../../corpus/load.js';
import { withoutGoal } from '../../corpus/model.js';
import { runExternalTask } from '../../harness/external/run-external.js';
import { resolveExternal } from '../../harness/external/spec.js';
import { DANCER_ROWS, executable } from '../helpers/external-runs.js';
import { tempDirs } from '../helpers/temp-dirs.js';

/** Variables a 300×300 puzzle's automaton CNF has (10.5 million), so that its model is longer than 64 MiB; the clauses stay the small puzzle's. */
const MANY_VARIABLES = 7_000_000;

vi.mock('../../solvers/sat/encodings/encode.js', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../solvers/sat/encodings/encode.js')>();
  // The external runner's only encoder.
  return {
    ...real,
    encodeNonogramSteps: function* (...args: Parameters<typeof real.encodeNonogramSteps>) {
      return { ...(yield* real.encodeNonogramSteps(...args)), numVars: MANY_VARIABLES };
    },
  };
});

const dir = tempDirs('external-model-stdout');

describe('a SAT solver whose answer on stdout is longer than 64 MiB', () => {
  it('is read when a model of the CNF can be that long, as its model file would be', async () => {
    // 70 MB on stdout: less than a model of 7 million variables can take (1 MiB + 12 bytes a variable),
    // a solver's comment lines here standing in for the values (which would take seconds to print).
    const cells = DANCER_ROWS.join('').split('').map((c, i) => (c === '1' ? i + 1 : -(i + 1))).join(' ');
    const program = executable(dir(), 'long-answer.sh', `#!/bin/sh\nprintf 'c '\nhead -c 70000000 /dev/zero | tr '\\0' x\nprintf '\\ns SATISFIABLE\\nv ${cells} 0\\n'\nexit 10\n`);
    const outcome = await runExternalTask({
      puzzle: withoutGoal(loadPuzzle(resolve('corpus/puzzles/webpbn/1.non'))),
      solver: resolveExternal({ command: `${program} {cnf}`, input: 'cnf', output: 'dimacs-model' }),
      maxSolutions: 1,
      timeoutMs: 20_000,
      hardLimitMs: 25_000,
      memoryMb: 1024,
    });
    expect(outcome.kind === 'done' ? outcome.reply.result.solutions.map((s) => s.join('')) : outcome).toEqual([DANCER_ROWS.join('').replace(/0/g, '2')]);
  }, 20_000);
});

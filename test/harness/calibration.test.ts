import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { EMPTY, FILLED, UNKNOWN } from '../../corpus/model.js';
import { countPlacements, measureCalibration } from '../../harness/run/calibration.js';

/** Placements of `clue` in `n` cells agreeing with `state`, by listing every row of n cells. */
function bruteCount(clue: number[], state: number[]): number {
  const n = state.length;
  let count = 0;
  for (let bits = 0; bits < 1 << n; bits++) {
    const runs: number[] = [];
    let run = 0;
    let agrees = true;
    for (let i = 0; i < n; i++) {
      const filled = (bits >> i) & 1;
      if ((state[i] === FILLED && !filled) || (state[i] === EMPTY && filled)) agrees = false;
      if (filled) run++;
      else if (run > 0) runs.push(run), (run = 0);
    }
    if (run > 0) runs.push(run);
    if (agrees && runs.length === clue.length && runs.every((r, j) => r === clue[j])) count++;
  }
  return count;
}

describe('calibration', () => {
  it('counts placements as listing every row does', () => {
    const line = fc.integer({ min: 1, max: 10 }).chain((n) =>
      fc.tuple(
        fc.array(fc.integer({ min: 1, max: n }), { maxLength: 4 }),
        fc.array(fc.constantFrom(UNKNOWN, UNKNOWN, FILLED, EMPTY), { minLength: n, maxLength: n }),
      ),
    );
    fc.assert(
      fc.property(line, ([clue, state]) => {
        const got = countPlacements(Int32Array.from(clue), Uint8Array.from(state), new Float64Array(12), new Float64Array(12));
        expect(got).toBe(bruteCount(clue, state));
      }),
      { numRuns: 500 },
    );
  });

  it('runs no solver code, so a slower solver cannot slow the gauge and hide itself', () => {
    const source = readFileSync('harness/run/calibration.ts', 'utf8');
    const imports = [...source.matchAll(/from '([^']+)'/g)].map((m) => m[1]);
    expect(imports.length).toBeGreaterThan(0);
    expect(imports.filter((path) => /solvers/.test(path!))).toEqual([]);
    expect(measureCalibration()).toBeGreaterThan(0);
  });
});

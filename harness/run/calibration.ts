import { createRng, type Rng } from '../../corpus/random.js';
import { EMPTY, FILLED, UNKNOWN } from '../../corpus/model.js';

export interface LineCase {
  clue: Int32Array;
  state: Uint8Array;
}

/**
 * Random line-solver inputs: a placement of `blocks` random blocks (lengths 1–4) in `length`
 * cells, then each cell kept known with probability `known`, so every case is solvable and
 * partly decided.
 */
export function randomLineCases(rng: Rng, count: number, length: number, blocks: number, known = 0.3): LineCase[] {
  const cases: LineCase[] = [];
  const threshold = Math.floor(known * 2 ** 32);
  while (cases.length < count) {
    const lens = Array.from({ length: blocks }, () => 1 + rng.nextBelow(4));
    const free = length - lens.reduce((a, b) => a + b, 0) - (blocks - 1);
    if (free < 0) continue;
    const gaps = new Array<number>(blocks + 1).fill(0);
    for (let i = 0; i < free; i++) gaps[rng.nextBelow(blocks + 1)]!++;
    const full = new Uint8Array(length).fill(EMPTY);
    let at = gaps[0]!;
    lens.forEach((len, j) => {
      full.fill(FILLED, at, at + len);
      at += len + 1 + gaps[j + 1]!;
    });
    const state = full.map((v) => (rng.chance(threshold) ? v : UNKNOWN));
    cases.push({ clue: Int32Array.from(lens), state });
  }
  return cases;
}

/**
 * The gauge's own work: the number of placements of a clue that agree with a partly known line, by
 * dynamic programming over (block, first cell). Kept here, apart from solvers/, and never tuned: a
 * gauge that ran solver code would slow down with a slower solver, and compare would then scale
 * away the very regression it must report. `a` and `b` are scratch rows of state.length + 2 entries.
 */
export function countPlacements(clue: Int32Array, state: Uint8Array, a: Float64Array, b: Float64Array): number {
  const n = state.length;
  // after[i]: ways to place the blocks after the current one in cells i..n-1 (i = n + 1: past the end).
  let after = a;
  let here = b;
  after[n + 1] = after[n] = 1;
  for (let i = n - 1; i >= 0; i--) after[i] = state[i] === FILLED ? 0 : after[i + 1]!;
  for (let j = clue.length - 1; j >= 0; j--) {
    const len = clue[j]!;
    here[n + 1] = here[n] = 0;
    let open = 0; // cells from i on that are not known empty
    for (let i = n - 1; i >= 0; i--) {
      open = state[i] === EMPTY ? 0 : open + 1;
      let ways = state[i] === FILLED ? 0 : here[i + 1]!;
      if (open >= len && (i + len === n || state[i + len] !== FILLED)) ways += after[Math.min(n + 1, i + len + 1)]!;
      here[i] = ways;
    }
    const t = after;
    after = here;
    here = t;
  }
  return after[0]!;
}

let calibrationCases: LineCase[] | undefined;
const CALIBRATION_LINES = 1024;
const CALIBRATION_CELLS = 30;
const scratchA = new Float64Array(CALIBRATION_CELLS + 2);
const scratchB = new Float64Array(CALIBRATION_CELLS + 2);

function calibrationPass(cases: LineCase[]): number {
  let total = 0;
  for (const c of cases) total += countPlacements(c.clue, c.state, scratchA, scratchB);
  return total;
}

/** The clock as this module found it, before any strategy that shares the thread could replace `performance.now`. */
export const clock = performance.now.bind(performance);

/**
 * Milliseconds this thread takes for a fixed amount of line work (placement counts of 1024 partly
 * known 30-cell lines; see countPlacements): a gauge of how fast the machine is running right now.
 * Recorded with every row so that `compare` can discount a run slowed as a whole by other load.
 */
export function measureCalibration(): number {
  if (!calibrationCases) {
    calibrationCases = randomLineCases(createRng(2026), CALIBRATION_LINES, CALIBRATION_CELLS, 5);
    // The first passes only compile the code: a cold measurement would gauge the JIT, not the machine.
    for (let i = 0; i < 2; i++) calibrationPass(calibrationCases);
  }
  const start = clock();
  const total = calibrationPass(calibrationCases);
  const elapsed = clock() - start;
  if (!(total > 0)) throw new Error('calibration: a generated line has no placement'); // keeps the work from being optimised away
  return elapsed;
}

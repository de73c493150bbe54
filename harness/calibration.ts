import { createRng, type Rng } from '../corpus/random.js';
import { EMPTY, FILLED, UNKNOWN } from '../corpus/model.js';
import { ExactLineSolver } from '../solvers/line/exact.js';
import type { LineSolver } from '../solvers/line/line-solver.js';

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

/** Solves the cases in turn, forever: one call, one line solve (the unit of the line benchmarks). */
export function lineSolveLoop(solver: LineSolver, cases: LineCase[]): () => void {
  const scratch = new Uint8Array(cases[0]!.state.length);
  let i = 0;
  return () => {
    const c = cases[i++ % cases.length]!;
    scratch.set(c.state);
    solver.solve(c.clue, scratch, scratch.length);
  };
}

let calibrationLoop: (() => void) | undefined;
const CALIBRATION_SOLVES = 4096;

/**
 * Milliseconds this thread takes for a fixed amount of solver-like work (4096 exact solves of
 * 30-cell lines): a gauge of how fast the machine is running right now. Recorded with every row
 * so that `compare` can discount a run that was slowed as a whole by other load on the machine.
 */
export function measureCalibration(): number {
  if (!calibrationLoop) {
    calibrationLoop = lineSolveLoop(new ExactLineSolver(), randomLineCases(createRng(2026), CALIBRATION_SOLVES, 30, 5));
    // The first pass only compiles the code: a cold measurement would gauge the JIT, not the machine.
    for (let i = 0; i < 2 * CALIBRATION_SOLVES; i++) calibrationLoop();
  }
  const start = performance.now();
  for (let i = 0; i < CALIBRATION_SOLVES; i++) calibrationLoop();
  return performance.now() - start;
}

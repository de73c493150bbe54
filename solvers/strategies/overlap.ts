import { isSolution } from '../../corpus/grid.js';
import type { Puzzle } from '../../corpus/model.js';
import { OverlapLineSolver } from '../line/overlap.js';
import { Propagator } from '../propagation/propagator.js';
import type { SolveOptions, SolveResult, Strategy } from '../api/types.js';
import { propagationMetrics, solveResult } from '../api/result.js';

/**
 * Simple line logic without guessing: the overlap line solver on every line, to a fixpoint.
 * Its deductions are forced, so a grid it completes is the puzzle's only solution. `params.cache`
 * (default true) turns the line cache off with false.
 */
export function solveByOverlap(puzzle: Puzzle, options: SolveOptions): SolveResult {
  const prop = new Propagator(puzzle, new OverlapLineSolver(), {
    cache: options.params?.cache !== false && options.params?.cache !== 'false',
    shouldStop: options.shouldStop,
  });
  prop.enqueueAll();
  const ok = prop.propagate();
  const metrics = propagationMetrics(prop);
  const grid = prop.grid;
  if (!ok) return solveResult('contradiction', grid, [], metrics);
  if (prop.stopped) return solveResult('timeout', grid, [], metrics);
  if (prop.unknownCells() > 0) return solveResult('stuck', grid, [], metrics);
  // Every line was solved after its last change, so a complete grid satisfies every clue.
  if (!isSolution(puzzle, grid)) throw new Error(`overlap: internal error: deduced grid of ${puzzle.id} breaks its clues`);
  return solveResult(options.maxSolutions === 1 ? 'solved' : 'unique', grid, [grid.slice()], metrics);
}

export const overlapStrategy: Strategy = {
  name: 'overlap',
  description: 'Simple line logic (leftmost/rightmost overlap and unreachable cells) to a fixpoint; never guesses',
  solve: solveByOverlap,
};

import { isSolution } from '../../corpus/grid.js';
import type { Puzzle } from '../../corpus/model.js';
import { OverlapLineSolver } from '../line/overlap.js';
import { Propagator } from '../propagation/propagator.js';
import { resolveParams, type ParamSpec } from '../api/params.js';
import type { SolveOptions, SolveResult, SyncStrategy } from '../api/types.js';
import { solveResult } from '../api/result.js';
import { propagationMetrics } from '../propagation/metrics.js';

/** The parameters of `overlap`. */
export const OVERLAP_PARAMS: readonly ParamSpec[] = [
  { name: 'cache', type: 'boolean', default: true, meaning: 'cache line results by clue and line state' },
];

/**
 * Simple line logic without guessing: the overlap line solver on every line, to a fixpoint.
 * Its deductions are forced, so a grid it completes is the puzzle's only solution.
 */
export function solveByOverlap(puzzle: Puzzle, options: SolveOptions): SolveResult {
  const params = resolveParams('overlap', OVERLAP_PARAMS, options.params);
  const prop = new Propagator(puzzle, new OverlapLineSolver(), {
    cache: params.cache as boolean,
    shouldStop: options.shouldStop,
  });
  prop.trace = options.trace ?? null;
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

export const overlapStrategy: SyncStrategy = {
  name: 'overlap',
  description: 'Simple line logic (leftmost/rightmost overlap and unreachable cells) to a fixpoint; never guesses',
  params: OVERLAP_PARAMS,
  traces: true,
  solve: solveByOverlap,
};

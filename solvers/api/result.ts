import type { Grid } from '../../corpus/model.js';
import type { SolveMetrics, SolveResult, SolveStatus } from './types.js';

/** The one way a built-in strategy makes its result. */
export function solveResult(status: SolveStatus, grid: Grid, solutions: Grid[], metrics: SolveMetrics): SolveResult {
  return { status, grid, solutions, metrics };
}

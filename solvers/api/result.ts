import { countKnown } from '../../corpus/grid.js';
import type { Grid } from '../../corpus/model.js';
import { emptyMetrics, type SolveMetrics, type SolveResult, type SolveStatus } from './types.js';
import type { Propagator } from '../propagation/propagator.js';

/** Counters every propagation-based strategy reports. */
export function propagationMetrics(prop: Propagator): SolveMetrics {
  const metrics = emptyMetrics();
  metrics.lineSolves = prop.lineSolves;
  metrics.extra.cacheHits = prop.cacheHits;
  metrics.extra.propagations = prop.propagations;
  if (prop.cacheResets > 0) metrics.extra.cacheResets = prop.cacheResets;
  return metrics;
}

/** A result whose `cellsResolved` and `solutionsFound` follow from its grid and solutions. */
export function solveResult(status: SolveStatus, grid: Grid, solutions: Grid[], metrics: SolveMetrics): SolveResult {
  metrics.cellsResolved = countKnown(grid);
  metrics.solutionsFound = solutions.length;
  return { status, grid, solutions, metrics };
}

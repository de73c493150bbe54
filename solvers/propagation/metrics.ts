import { emptyMetrics, type SolveMetrics } from '../api/types.js';
import type { Propagator } from './propagator.js';

/** Counters every propagation-based strategy reports. */
export function propagationMetrics(prop: Propagator): SolveMetrics {
  const metrics = emptyMetrics();
  metrics.lineSolves = prop.lineSolves;
  metrics.extra.cacheHits = prop.cacheHits;
  metrics.extra.propagations = prop.propagations;
  if (prop.cacheResets > 0) metrics.extra.cacheResets = prop.cacheResets;
  return metrics;
}

import type { Grid, Puzzle } from '../../../corpus/model.js';
import { ExactLineSolver } from '../../line/exact.js';
import { probeToFixpoint } from '../../propagation/probe-fixpoint.js';
import { Propagator } from '../../propagation/propagator.js';

/** What line propagation (and optionally probing) settled before the SAT encoding. */
export interface PrePropagation {
  /** Cells deduced (UNKNOWN where undecided). */
  grid: Grid;
  lineSolves: number;
  cacheHits: number;
  /** Cells tried by contradiction probing, and values it refuted (0 without it). */
  probes: number;
  probeContradictions: number;
  /** No solution: some line has no placement left, or probing refuted both values of a cell. */
  contradiction: boolean;
  /** The cancellation check fired (the grid is still sound, only incomplete). */
  stopped: boolean;
}

/**
 * The one place the sat strategy touches the grid-level line propagator (exact line solver):
 * propagation to a fixpoint, then, with `probe`, single-cell contradiction probing to a fixpoint.
 */
export function prePropagate(puzzle: Puzzle, shouldStop: () => boolean, probe = false): PrePropagation {
  const propagator = new Propagator(puzzle, new ExactLineSolver(), { shouldStop });
  propagator.enqueueAll();
  let consistent = propagator.propagate();
  const counters = { probes: 0, contradictions: 0 };
  if (consistent && probe && !propagator.stopped) consistent = probeToFixpoint(propagator, counters) !== 'contradiction';
  return {
    grid: propagator.grid.slice(),
    lineSolves: propagator.lineSolves,
    cacheHits: propagator.cacheHits,
    probes: counters.probes,
    probeContradictions: counters.contradictions,
    contradiction: !consistent,
    stopped: propagator.stopped,
  };
}

import type { Grid, Puzzle } from '../../corpus/model.js';
import { ExactLineSolver } from '../line/exact.js';
import { Propagator } from '../propagate.js';

/** What line propagation settled before the SAT encoding. */
export interface PrePropagation {
  /** Cells deduced (UNKNOWN where undecided). */
  grid: Grid;
  lineSolves: number;
  cacheHits: number;
  /** Some line has no placement left: the puzzle has no solution. */
  contradiction: boolean;
  /** The cancellation check fired (the grid is still sound, only incomplete). */
  stopped: boolean;
}

/** The one place the sat strategy touches the grid-level line propagator (exact line solver). */
export function prePropagate(puzzle: Puzzle, shouldStop: () => boolean): PrePropagation {
  const propagator = new Propagator(puzzle, new ExactLineSolver(), { shouldStop });
  propagator.enqueueAll();
  const consistent = propagator.propagate();
  return {
    grid: propagator.grid.slice(),
    lineSolves: propagator.lineSolves,
    cacheHits: propagator.cacheHits,
    contradiction: !consistent,
    stopped: propagator.stopped,
  };
}

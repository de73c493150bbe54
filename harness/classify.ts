import { countKnown } from '../corpus/grid.js';
import { EMPTY, FILLED, UNKNOWN, type Grid, type Puzzle } from '../corpus/model.js';
import { ExactLineSolver } from '../solvers/line/exact.js';
import { Propagator } from '../solvers/propagate.js';
import { BacktrackSearch, DEFAULT_SEARCH } from '../solvers/search/backtrack.js';
import { solveByOverlap } from '../solvers/search/overlap.js';
import { solveOptions } from '../solvers/types.js';

/**
 * How much logic a puzzle needs, cheapest first. A puzzle gets the first class whose logic settles it:
 * - `overlap-solvable`: leftmost/rightmost overlap and simple spaces, line by line, to a fixpoint;
 * - `line-solvable`: exact line propagation (every placement of each line) to a fixpoint;
 * - `probe-solvable`: single-cell contradiction probing on top of exact propagation, no search;
 * - `needs-guessing`: only search finishes it, and it has exactly one solution;
 * - `multiple-solutions`: search found two solutions;
 * - `no-solution`: propagation, probing or search proved there is none;
 * - `unknown`: the time limit was hit first.
 */
export type PuzzleClass =
  | 'overlap-solvable'
  | 'line-solvable'
  | 'probe-solvable'
  | 'needs-guessing'
  | 'multiple-solutions'
  | 'no-solution'
  | 'unknown';

export const PUZZLE_CLASSES: readonly PuzzleClass[] = [
  'overlap-solvable',
  'line-solvable',
  'probe-solvable',
  'needs-guessing',
  'multiple-solutions',
  'no-solution',
  'unknown',
];

/** The logic that settled the class (for `unknown`: the stage running when the limit was hit). */
export type ClassifyStage = 'overlap' | 'line' | 'probe' | 'search';

export interface Classification {
  class: PuzzleClass;
  stage: ClassifyStage;
  /** Cells known after each stage's fixpoint; null when the stage did not run or met a contradiction. */
  overlapResolved: number | null;
  lineResolved: number | null;
  probeResolved: number | null;
  /** The grid after exact line propagation (UNKNOWN where it stalled); null after a contradiction there. */
  lineGrid: Grid | null;
  /** Solutions known: the deduced grid for the logic classes, the search's (at most two) otherwise. */
  solutions: Grid[];
  /** Single-cell probes tried (two propagations each). */
  probes: number;
  /** Backtrack search counters; null when no search ran. */
  search: { deadEnds: number; decisions: number; maxDepth: number } | null;
  /** For two solutions: the number of cells where they differ. */
  differingCells: number | null;
}

export interface ClassifyOptions {
  /** Polled by every stage; once true the puzzle is `unknown`. */
  shouldStop?: () => boolean;
}

/** What contradiction probing ended with. */
export type ProbeOutcome = 'fixpoint' | 'contradiction' | 'stopped';

/**
 * Single-cell contradiction probing to a fixpoint, on a propagator already at a line fixpoint:
 * each unknown cell gets each value in turn, with full line propagation; a value that leads to a
 * contradiction is excluded (the cell takes the other one, which is propagated); rounds repeat
 * until one excludes nothing. Both values failing proves there is no solution.
 *
 * Unlike the search's Prober this tries every unknown cell, not only those next to known ones,
 * and keeps only forced values (not the cells both values agree on), so that the class means
 * exactly "contradiction probing suffices". Since propagation is monotone, a value refuted in a
 * grid stays refuted once more cells are known, so the fixpoint does not depend on the order.
 */
export function probeToFixpoint(prop: Propagator, counters: { probes: number } = { probes: 0 }): ProbeOutcome {
  const grid = prop.grid;
  for (;;) {
    let progress = false;
    for (let cell = 0; cell < grid.length; cell++) {
      if (grid[cell] !== UNKNOWN) continue;
      counters.probes++;
      const mark = prop.trailLength;
      prop.assign(cell, FILLED);
      const filledOk = prop.propagate();
      prop.undo(mark);
      if (prop.stopped) return 'stopped';
      prop.assign(cell, EMPTY);
      const emptyOk = prop.propagate();
      prop.undo(mark);
      if (prop.stopped) return 'stopped';
      if (filledOk && emptyOk) continue;
      if (!filledOk && !emptyOk) return 'contradiction';
      prop.assign(cell, filledOk ? FILLED : EMPTY);
      if (!prop.propagate()) return 'contradiction';
      if (prop.stopped) return 'stopped';
      progress = true;
    }
    if (!progress || prop.unknownCells() === 0) return 'fixpoint';
  }
}

/** Number of cells where two grids differ. */
export function countDiffering(a: Grid, b: Grid): number {
  let n = 0;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) n++;
  return n;
}

/** Classifies one puzzle, trying the cheaper logic first. Pure apart from the cancellation check. */
export function classify(puzzle: Puzzle, options: ClassifyOptions = {}): Classification {
  const shouldStop = options.shouldStop ?? (() => false);
  const cells = puzzle.width * puzzle.height;
  const c: Classification = {
    class: 'unknown',
    stage: 'overlap',
    overlapResolved: null,
    lineResolved: null,
    probeResolved: null,
    lineGrid: null,
    solutions: [],
    probes: 0,
    search: null,
    differingCells: null,
  };
  const settle = (cls: PuzzleClass, stage: ClassifyStage): Classification => {
    c.class = cls;
    c.stage = stage;
    return c;
  };

  // Overlap logic, on its own, so its own count is known even when exact propagation does more.
  const overlap = solveByOverlap(puzzle, solveOptions({ maxSolutions: 2, shouldStop }));
  if (overlap.status === 'timeout') return settle('unknown', 'overlap');
  if (overlap.status === 'contradiction') return settle('no-solution', 'overlap');
  c.overlapResolved = countKnown(overlap.grid);
  const overlapDone = c.overlapResolved === cells;

  // Exact propagation always runs: its count is a column for every puzzle, and it is cheap.
  const prop = new Propagator(puzzle, new ExactLineSolver(), { shouldStop });
  prop.enqueueAll();
  if (!prop.propagate()) return settle('no-solution', 'line');
  if (prop.stopped) return settle('unknown', 'line');
  c.lineGrid = prop.grid.slice();
  c.lineResolved = countKnown(prop.grid);
  if (overlapDone) {
    c.probeResolved = cells;
    c.solutions = [overlap.grid.slice()];
    return settle('overlap-solvable', 'overlap');
  }
  if (c.lineResolved === cells) {
    c.probeResolved = cells;
    c.solutions = [prop.grid.slice()];
    return settle('line-solvable', 'line');
  }

  const counters = { probes: 0 };
  const probed = probeToFixpoint(prop, counters);
  c.probes = counters.probes;
  if (probed === 'stopped') return settle('unknown', 'probe');
  if (probed === 'contradiction') return settle('no-solution', 'probe');
  c.probeResolved = countKnown(prop.grid);
  if (c.probeResolved === cells) {
    c.solutions = [prop.grid.slice()];
    return settle('probe-solvable', 'probe');
  }

  // The plain backtrack search from the clues, so its counters mean what they mean in `run`.
  const search = new BacktrackSearch(puzzle, solveOptions({ maxSolutions: 2, shouldStop }), DEFAULT_SEARCH);
  const result = search.run();
  c.search = { deadEnds: result.metrics.deadEnds, decisions: result.metrics.decisions, maxDepth: result.metrics.maxDepth };
  c.solutions = result.solutions;
  if (result.status === 'timeout') return settle('unknown', 'search');
  if (result.solutions.length >= 2) {
    c.differingCells = countDiffering(result.solutions[0]!, result.solutions[1]!);
    return settle('multiple-solutions', 'search');
  }
  if (result.solutions.length === 1) return settle('needs-guessing', 'search');
  return settle('no-solution', 'search');
}

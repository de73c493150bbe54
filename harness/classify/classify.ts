import { countKnown } from '../../corpus/grid.js';
import type { Grid, Puzzle } from '../../corpus/model.js';
import { ExactLineSolver } from '../../solvers/line/exact.js';
import { Propagator } from '../../solvers/propagation/propagator.js';
import { probeToFixpoint } from '../../solvers/propagation/probe-fixpoint.js';
import { BacktrackSearch } from '../../solvers/search/backtrack.js';
import { PROBE_SETTINGS } from '../../solvers/search/settings.js';
import { solveByOverlap } from '../../solvers/strategies/overlap.js';
import { solveOptions } from '../../solvers/api/types.js';
import { lineRounds } from './line-rounds.js';

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
  /**
   * Cells known after overlap logic, after exact line propagation, after probing (all cells when
   * line logic already finished the puzzle); null when the stage did not run or met a contradiction.
   */
  overlapResolved: number | null;
  lineResolved: number | null;
  probeResolved: number | null;
  /** The grid after exact line propagation (UNKNOWN where it stalled); null after a contradiction there. */
  lineGrid: Grid | null;
  /** Solutions known: the deduced grid for the logic classes, the search's (at most two) otherwise. */
  solutions: Grid[];
  /** Rounds of exact line propagation in which some line decided a cell, up to the line fixpoint; null when it met a contradiction or the limit. */
  linePasses: number | null;
  /** Single-cell probes tried (two propagations each). */
  probes: number;
  /** Probes that decided their cell: one value led to a contradiction, so the cell took the other. */
  probesDecisive: number;
  /** Counters of the search from the stalled grid (as the `probe` strategy counts them); null when no search ran. */
  search: { deadEnds: number; decisions: number; maxDepth: number } | null;
  /** For two solutions: the number of cells where they differ. */
  differingCells: number | null;
}

export interface ClassifyOptions {
  /** Polled by every stage; once true the puzzle is `unknown`. */
  shouldStop?: () => boolean;
}

/** Number of cells where two grids differ. */
export function countDiffering(a: Grid, b: Grid): number {
  let n = 0;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) n++;
  return n;
}

/** 1 where two grids differ, 0 elsewhere (a `mark` for the renderers). */
export function differingMask(a: Grid, b: Grid): Uint8Array {
  const mark = new Uint8Array(a.length);
  for (let i = 0; i < a.length; i++) mark[i] = a[i] !== b[i] ? 1 : 0;
  return mark;
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
    linePasses: null,
    probes: 0,
    probesDecisive: 0,
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
  // Counted in rounds of their own, not along the propagator's queue, whose order (mask, set or
  // array form; a mirrored or transposed puzzle) would change the count.
  const passes = lineRounds(puzzle, new ExactLineSolver(), shouldStop);
  if (passes === null) return settle('unknown', 'line');
  c.linePasses = passes;
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

  const counters = { probes: 0, contradictions: 0 };
  const probed = probeToFixpoint(prop, counters);
  c.probes = counters.probes;
  if (probed === 'stopped') return settle('unknown', 'probe');
  if (probed === 'contradiction') return settle('no-solution', 'probe');
  // At a fixpoint each refuted value decided its cell (both refuted would have been a contradiction).
  c.probesDecisive = counters.contradictions;
  c.probeResolved = countKnown(prop.grid);
  if (c.probeResolved === cells) {
    c.solutions = [prop.grid.slice()];
    return settle('probe-solvable', 'probe');
  }

  // The `probe` strategy's search, from where logic stalled, so that its counters measure the
  // guessing logic could not avoid.
  const searched = new BacktrackSearch(puzzle, solveOptions({ maxSolutions: 2, shouldStop }), PROBE_SETTINGS, prop).run();
  const { deadEnds, decisions, maxDepth } = searched.metrics;
  c.search = { deadEnds, decisions, maxDepth };
  c.solutions = searched.solutions;
  if (searched.status === 'timeout') return settle('unknown', 'search');
  if (searched.solutions.length >= 2) {
    c.differingCells = countDiffering(searched.solutions[0]!, searched.solutions[1]!);
    return settle('multiple-solutions', 'search');
  }
  if (searched.solutions.length === 1) return settle('needs-guessing', 'search');
  return settle('no-solution', 'search');
}

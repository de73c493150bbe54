import { countKnown, isSolution } from '../../corpus/grid.js';
import { EMPTY, FILLED, UNKNOWN, type Grid, type Puzzle } from '../../corpus/model.js';
import { createRng, type Rng } from '../../corpus/random.js';
import { ExactLineSolver } from '../../solvers/line/exact.js';
import { Propagator } from '../../solvers/propagation/propagator.js';
import { probeToFixpoint } from '../../solvers/propagation/probe-fixpoint.js';
import { chooseBranchCell } from '../../solvers/search/choose.js';
import { Prober } from '../../solvers/search/probe.js';
import { solveByOverlap } from '../../solvers/strategies/overlap.js';
import { solveOptions } from '../../solvers/api/types.js';

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
  /** Single-cell probes tried (two propagations each). */
  probes: number;
  /** Search counters (see GuessSearch); null when no search ran. */
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

  const counters = { probes: 0, contradictions: 0 };
  const probed = probeToFixpoint(prop, counters);
  c.probes = counters.probes;
  if (probed === 'stopped') return settle('unknown', 'probe');
  if (probed === 'contradiction') return settle('no-solution', 'probe');
  c.probeResolved = countKnown(prop.grid);
  if (c.probeResolved === cells) {
    c.solutions = [prop.grid.slice()];
    return settle('probe-solvable', 'probe');
  }

  // Search from where logic stalled, so that its counters measure the guessing logic could not avoid.
  const search = new GuessSearch(puzzle, prop, shouldStop);
  search.run();
  c.search = { deadEnds: search.deadEnds, decisions: search.decisions, maxDepth: search.maxDepth };
  c.solutions = search.solutions;
  if (search.stopped) return settle('unknown', 'search');
  if (search.solutions.length >= 2) {
    c.differingCells = countDiffering(search.solutions[0]!, search.solutions[1]!);
    return settle('multiple-solutions', 'search');
  }
  if (search.solutions.length === 1) return settle('needs-guessing', 'search');
  return settle('no-solution', 'search');
}

/** Search nodes between two polls of the cancellation check (the propagator polls as well). */
const POLL_NODES = 64;
/** Decisions allowed in the first search run; each restart allows RESTART_GROWTH times more. */
const FIRST_BUDGET = 64;
const RESTART_GROWTH = 1.5;

/**
 * Depth-first search for up to two solutions, starting from a propagator at the probing fixpoint.
 * It composes the search module's parts as the `probe` strategy does — exact propagation after each
 * guess, the Prober at every node (forced values, the cells both values agree on, and the branch
 * cell it ranks best), the `lines` cell choice when probing ranks none, restarts with a growing
 * decision budget and seeded random tie-breaks against heavy tails — but from the stalled grid
 * instead of from the clues: searching from the clues would count again, as dead ends, the
 * contradictions the probing stage already turned into deductions.
 *
 * `deadEnds` counts guesses refuted (a branch whose propagation or probing fails) over all runs;
 * contradictions met by probing inside a node are deductions, not guesses, and are not counted.
 * A run that ends within its budget explored its whole tree, so only such a run settles the count
 * of solutions; solutions found by cut-off runs are real and kept.
 */
export class GuessSearch {
  readonly solutions: Grid[] = [];
  deadEnds = 0;
  decisions = 0;
  maxDepth = 0;
  restarts = 0;
  stopped = false;

  private readonly prober: Prober;
  private readonly seen = new Set<string>();
  private nodes = 0;
  private budgetEnd = Infinity;
  private cutOff = false;
  private rng: Rng | null = null;

  constructor(
    private readonly puzzle: Puzzle,
    private readonly prop: Propagator,
    private readonly shouldStop: () => boolean,
  ) {
    this.prober = new Prober(prop);
  }

  run(): void {
    if (!this.probeNode(0)) return;
    let budget = FIRST_BUDGET;
    for (;;) {
      this.cutOff = false;
      this.budgetEnd = this.decisions + budget;
      this.search(0);
      if (!this.cutOff || this.stopped || this.solutions.length >= 2) return;
      this.restarts++;
      budget = Math.ceil(budget * RESTART_GROWTH);
      this.rng ??= createRng(parseInt(this.puzzle.id.slice(0, 8), 16) || 1);
      this.prober.jitter = this.rng;
      // The children overwrote the root's ranking: pick again from every cell's last measured rate.
      this.prober.selectRemembered();
    }
  }

  /** Probes around the cells set since trail position `from` (0: everywhere); false when the node has no solution or the limit was hit. */
  private probeNode(from: number): boolean {
    const alive = this.prober.run(from);
    if (this.prop.stopped) this.stopped = true;
    return alive && !this.stopped;
  }

  private search(depth: number): void {
    const prop = this.prop;
    if (++this.nodes % POLL_NODES === 0 && this.shouldStop()) {
      this.stopped = true;
      return;
    }
    if (prop.unknownCells() === 0) {
      this.record();
      return;
    }
    if (this.decisions >= this.budgetEnd) {
      this.cutOff = true;
      return;
    }
    // The prober's ranking belongs to this node: read it before the children probe.
    let cell = this.prober.bestCell;
    let first = this.prober.bestValue;
    if (cell < 0 || prop.grid[cell] !== UNKNOWN) {
      cell = chooseBranchCell(prop, 'lines');
      first = FILLED;
    }
    if (this.rng && this.rng.nextBelow(2) === 0) first = first === FILLED ? EMPTY : FILLED;
    for (const value of first === FILLED ? FILL_THEN_EMPTY : EMPTY_THEN_FILL) {
      const mark = prop.trailLength;
      this.decisions++;
      prop.assign(cell, value);
      let alive = prop.propagate();
      if (prop.stopped) this.stopped = true;
      if (alive && !this.stopped) alive = this.probeNode(mark);
      if (!alive && !this.stopped) this.deadEnds++;
      if (alive && !this.stopped) {
        if (depth + 1 > this.maxDepth) this.maxDepth = depth + 1;
        this.search(depth + 1);
      }
      prop.undo(mark);
      if (this.stopped || this.cutOff || this.solutions.length >= 2) return;
    }
  }

  private record(): void {
    const grid = this.prop.grid.slice();
    if (!isSolution(this.puzzle, grid))
      throw new Error(`classify: internal error: a complete grid of ${this.puzzle.id} breaks its clues`);
    // A later run may meet again a solution that a cut-off run found.
    const key = Buffer.from(grid.buffer, grid.byteOffset, grid.length).toString('latin1');
    if (this.seen.has(key)) return;
    this.seen.add(key);
    this.solutions.push(grid);
  }
}

const FILL_THEN_EMPTY = [FILLED, EMPTY] as const;
const EMPTY_THEN_FILL = [EMPTY, FILLED] as const;

import { isSolution } from '../../corpus/grid.js';
import { createRng, type Rng } from '../../corpus/random.js';
import { EMPTY, FILLED, UNKNOWN, type Grid, type Puzzle } from '../../corpus/model.js';
import { ExactLineSolver } from '../line/exact.js';
import { luby } from '../common/luby.js';
import { Propagator } from '../propagation/propagator.js';
import { statusOfSolutions, type SolveOptions, type SolveResult, type SolveTrace } from '../api/types.js';
import { BranchChooser } from './choose.js';
import { solveResult } from '../api/result.js';
import { propagationMetrics } from '../propagation/metrics.js';
import { Prober } from './probe.js';
import type { SearchSettings } from './settings.js';

/** Geometric restarts: each run allows RESTART_GROWTH times the decisions of the one before. */
const RESTART_GROWTH = 1.5;

/** Search nodes between two polls of the cancellation check (the propagator polls as well). */
const POLL_NODES = 64;

/**
 * Depth-first search over cell values with exact line propagation after every choice.
 *
 * Metrics: `decisions` counts branches taken (each value tried on a branch cell); `deadEnds`
 * counts contradictions met while searching: a branch whose propagation fails, and — with
 * probing — each probe value that fails, since a probe is a one-step branch that was refuted
 * (those are also counted apart in `extra.probeContradictions`). A contradiction in the first
 * propagation, before any guess, proves the puzzle has no solution and is not a dead end.
 * Every solution is checked with isSolution before it is reported.
 *
 * Given a propagator (`start`), the search begins from its grid, a consistent fixpoint that logic
 * stalled on, rather than from the clues: `classify` counts only the guessing logic could not avoid.
 */
export class BacktrackSearch {
  readonly solutions: Grid[] = [];
  decisions = 0;
  deadEnds = 0;
  maxDepth = 0;
  stopped = false;

  private readonly puzzle: Puzzle;
  private readonly options: SolveOptions;
  private readonly settings: SearchSettings;
  private readonly prop: Propagator;
  private readonly prober: Prober | null;
  private readonly chooser: BranchChooser;
  private nodes = 0;
  /** Decisions at which the current run gives up (Infinity: no limit). */
  private budgetEnd = Infinity;
  /** Set when the current run gave up on its budget. */
  private cutOff = false;
  private restarts = 0;
  /** Decisions the next run may take (with restarts). */
  private runBudget: number;
  /** The whole tree is explored (or the root has no solution left): no run can find more. */
  private exhausted = false;
  /** The first propagation proved that the puzzle has no solution. */
  private rootContradiction = false;
  /** Perturbs choices in runs after the first; null in the first run. */
  private rng: Rng | null = null;
  private readonly seen = new Set<string>();
  /** Branch on the probes' ranking in the current run (runs alternate with `branch` when both are on). */
  private rankByProbes: boolean;

  /** True when the search starts from a given propagator's fixpoint, so the first propagation is done. */
  private readonly propagated: boolean;
  /** Told each guess, backtrack and solution (and, through the propagator and prober, each line and probe). */
  private readonly trace: SolveTrace | null;

  constructor(puzzle: Puzzle, options: SolveOptions, settings: SearchSettings, start?: Propagator) {
    this.puzzle = puzzle;
    this.options = options;
    this.settings = settings;
    this.prop = start ?? new Propagator(puzzle, new ExactLineSolver(), { cache: settings.cache, shouldStop: options.shouldStop });
    this.propagated = start !== undefined;
    this.trace = options.trace ?? null;
    if (this.trace !== null) this.prop.trace = this.trace;
    this.prober = settings.probing ? new Prober(this.prop) : null;
    this.chooser = new BranchChooser(this.prop);
    this.rankByProbes = settings.probing && settings.probeRanks;
    this.runBudget = settings.restartBudget;
    if (this.prober) {
      this.prober.scope = settings.probeScope;
      this.prober.rememberRates = settings.rememberRates;
      this.prober.rating = settings.rating;
    }
  }

  run(): SolveResult {
    const alive = this.begin();
    if (this.rootContradiction) return this.result('contradiction', this.prop.grid.slice());
    // Probing at the root adds forced deductions only; the partial grid reported is after them.
    const rootGrid = this.prop.grid.slice();
    if (alive) while (!this.runOnce());
    return this.finish(rootGrid);
  }

  /**
   * Prepares the root: the first propagation (unless the search starts from a given fixpoint) and,
   * with probing, root probing. Returns false when no run is needed: the puzzle has no solution
   * (`rootContradiction` when the first propagation proved it) or the limit fired (`stopped`).
   */
  begin(): boolean {
    const prop = this.prop;
    if (!this.propagated) {
      prop.enqueueAll();
      if (!prop.propagate()) {
        this.rootContradiction = this.exhausted = true;
        return false;
      }
      if (prop.stopped) {
        this.stopped = true;
        return false;
      }
    }
    if (this.prober && !this.probeNode(0)) this.exhausted = true;
    return !this.exhausted && !this.stopped;
  }

  /** The result once the runs are over: the first solution found, else `grid` (what was deduced). */
  finish(grid: Grid): SolveResult {
    const best = this.solutions[0] ?? grid;
    if (this.stopped) return this.result('timeout', best);
    return this.result(statusOfSolutions(this.solutions.length, this.options.maxSolutions), best);
  }

  /**
   * One run of the search from the root. Without restarts it is the whole search; with them, a run
   * gives up once it has spent its budget of decisions, and the next run gets a larger one. A run
   * that ends within its budget explored its whole tree, so its outcome is final; solutions found by
   * cut-off runs are real and kept (duplicates are dropped). Returns true when no further run is
   * needed: the tree is explored, enough solutions are known, or the limit fired.
   */
  runOnce(): boolean {
    if (this.exhausted) return true;
    this.cutOff = false;
    this.budgetEnd = this.settings.restarts ? this.decisions + this.runBudget : Infinity;
    this.search(0);
    if (!this.cutOff && !this.stopped) this.exhausted = true;
    if (!this.cutOff || this.stopped || this.solutions.length >= this.options.maxSolutions) return true;
    this.restarts++;
    const unit = this.settings.restartBudget;
    this.runBudget = this.settings.restartPlan === 'luby' ? unit * luby(this.restarts) : Math.ceil(this.runBudget * RESTART_GROWTH);
    // Later runs break ties and order values at random (seeded: the same puzzle, the same runs).
    this.rng ??= createRng(parseInt(this.puzzle.id.slice(0, 8), 16) || 1);
    if (this.prober) {
      this.prober.jitter = this.rng;
      this.prober.selectRemembered();
      // Heavy tails differ between choices: alternating them is a small portfolio.
      if (this.settings.probeRanks && this.settings.alternate) this.rankByProbes = !this.rankByProbes;
    }
    return false;
  }

  /**
   * Counts a solution found by other means (another search of the same puzzle), so that this search
   * stops at `maxSolutions` in all and does not report it twice. It must satisfy the clues.
   */
  noteSolution(grid: Grid): void {
    this.remember(grid.slice());
  }

  /**
   * Between runs: sets root cells that hold in every solution not yet found (facts another search
   * proved) and propagates them. Returns false when that leaves no solution, which ends the search.
   */
  assumeAtRoot(cells: ArrayLike<number>, values: ArrayLike<number>): boolean {
    const prop = this.prop;
    if (this.exhausted) return false;
    const mark = prop.trailLength;
    for (let i = 0; i < cells.length; i++) {
      const cell = cells[i]!;
      if (prop.grid[cell] === UNKNOWN) prop.assign(cell, values[i]!);
      else if (prop.grid[cell] !== values[i]) {
        // No solution is left: the root grid stays as the search had it (the answer's deduced grid).
        prop.clearQueue();
        prop.undo(mark);
        this.exhausted = true;
        return false;
      }
    }
    this.trace?.learnt(prop.grid, prop.trail, mark, prop.trailLength);
    if (!prop.propagate()) {
      prop.clearQueue();
      prop.undo(mark);
      this.exhausted = true;
    }
    if (prop.stopped) this.stopped = true;
    return !this.exhausted;
  }

  private result(status: SolveResult['status'], grid: Grid): SolveResult {
    const prop = this.prop;
    const metrics = propagationMetrics(prop);
    metrics.decisions = this.decisions;
    metrics.deadEnds = this.deadEnds;
    metrics.maxDepth = this.maxDepth;
    if (this.settings.restarts) metrics.extra.restarts = this.restarts;
    if (this.prober) {
      metrics.extra.probes = this.prober.probes;
      metrics.extra.probeContradictions = this.prober.contradictions;
      metrics.extra.probeDecided = this.prober.decided;
    }
    return solveResult(status, grid, this.solutions, metrics);
  }

  /**
   * Probes around the cells set since trail position `from`; false when the node has no solution.
   * Counts probe contradictions as dead ends.
   */
  private probeNode(from: number): boolean {
    const prober = this.prober!;
    const before = prober.contradictions;
    const alive = prober.run(from);
    this.deadEnds += prober.contradictions - before;
    if (this.prop.stopped) this.stopped = true;
    return alive;
  }

  private done(): boolean {
    return this.stopped || this.cutOff || this.solutions.length >= this.options.maxSolutions;
  }

  /** Explores the subtree of the current (propagated, consistent) grid. */
  private search(depth: number): void {
    const prop = this.prop;
    const trace = this.trace;
    if (this.nodes++ % POLL_NODES === 0 && this.options.shouldStop()) {
      this.stopped = true;
      return;
    }
    if (this.decisions >= this.budgetEnd) {
      this.cutOff = true;
      return;
    }
    let cell = -1;
    let first: number = this.settings.firstValue;
    if (this.prober && this.rankByProbes && prop.unknownCells() > 0) {
      cell = this.prober.bestCell;
      first = this.prober.bestValue;
    }
    if (cell < 0 || prop.grid[cell] !== 0) {
      cell = this.chooser.choose(this.settings.branch, this.rng);
      if (this.chooser.value !== 0) first = this.chooser.value;
    }
    if (cell < 0) {
      this.record();
      return;
    }
    if (this.rng && this.rng.nextBelow(2) === 0) first = first === FILLED ? EMPTY : FILLED;
    const values = first === FILLED ? FILL_THEN_EMPTY : EMPTY_THEN_FILL;
    for (const value of values) {
      const mark = prop.trailLength;
      this.decisions++;
      // The decision reaches depth + 1 whether or not its branch then fails (as the trace's guess and SAT's decision level say).
      if (depth + 1 > this.maxDepth) this.maxDepth = depth + 1;
      if (trace !== null) trace.guess(cell, value, depth + 1);
      prop.assign(cell, value);
      let alive = prop.propagate();
      if (prop.stopped) this.stopped = true;
      if (!alive) this.deadEnds++;
      if (alive && !this.stopped && this.prober) alive = this.probeNode(mark);
      if (alive && !this.stopped) this.search(depth + 1);
      if (trace !== null) trace.backtrack(depth, !alive, prop.trail, mark, prop.trailLength);
      prop.undo(mark);
      if (this.done()) return;
    }
  }

  private record(): void {
    this.trace?.solution();
    const grid = this.prop.grid.slice();
    if (!isSolution(this.puzzle, grid))
      throw new Error(`backtrack: internal error: a complete grid of ${this.puzzle.id} breaks its clues`);
    this.remember(grid);
  }

  /** Adds a solution unless it is known already (a later run may meet one an earlier, cut-off run found). */
  private remember(grid: Grid): void {
    const key = Buffer.from(grid.buffer, grid.byteOffset, grid.length).toString('latin1');
    if (this.seen.has(key)) return;
    this.seen.add(key);
    this.solutions.push(grid);
  }
}

const FILL_THEN_EMPTY = [FILLED, EMPTY] as const;
const EMPTY_THEN_FILL = [EMPTY, FILLED] as const;

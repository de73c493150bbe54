import { isSolution } from '../../corpus/grid.js';
import { EMPTY, FILLED, type Grid, type Puzzle } from '../../corpus/model.js';
import { ExactLineSolver } from '../line/exact.js';
import { Propagator } from '../propagate.js';
import { statusOfSolutions, type SolveOptions, type SolveResult, type Strategy } from '../types.js';
import { BRANCH_HEURISTICS, chooseBranchCell, type BranchHeuristic } from './choose.js';
import { propagationMetrics, solveResult } from './outcome.js';
import { Prober } from './probe.js';

export interface SearchSettings {
  /** Probe at every search node (see Prober). */
  probing: boolean;
  /** Cell choice when probing does not rank the cells. */
  branch: BranchHeuristic;
  /** Value tried first on a branch cell (probing tries the value that decides more cells first). */
  firstValue: typeof FILLED | typeof EMPTY;
  /** Line-result cache in the propagator. */
  cache: boolean;
  /** Probing: which cells each node probes (see Prober.scope). */
  probeScope: 'local' | 'all';
  /** Probing: branch on the best rate measured so far over all cells (see Prober.rememberRates). */
  rememberRates: boolean;
}

export const DEFAULT_SEARCH: SearchSettings = {
  probing: false,
  branch: 'lines',
  firstValue: FILLED,
  cache: true,
  probeScope: 'local',
  rememberRates: true,
};

/** Search nodes between two polls of the cancellation check (the propagator polls as well). */
const POLL_NODES = 64;

/**
 * Settings from a strategy's `params`: probing, branch (first|lines|neighbours), first (filled|empty),
 * cache, probeScope (local|all), rememberRates. Unknown values throw.
 */
export function searchSettings(params: SolveOptions['params'], defaults: SearchSettings): SearchSettings {
  const settings = { ...defaults };
  if (!params) return settings;
  if (params.probing !== undefined) settings.probing = params.probing === true || params.probing === 'true';
  if (params.cache !== undefined) settings.cache = !(params.cache === false || params.cache === 'false');
  if (params.rememberRates !== undefined)
    settings.rememberRates = !(params.rememberRates === false || params.rememberRates === 'false');
  if (params.probeScope !== undefined) {
    if (params.probeScope !== 'local' && params.probeScope !== 'all')
      throw new Error(`param probeScope must be local or all, got "${params.probeScope}"`);
    settings.probeScope = params.probeScope;
  }
  if (params.branch !== undefined) {
    const branch = String(params.branch) as BranchHeuristic;
    if (!BRANCH_HEURISTICS.includes(branch))
      throw new Error(`unknown branch heuristic "${branch}" (known: ${BRANCH_HEURISTICS.join(', ')})`);
    settings.branch = branch;
  }
  if (params.first !== undefined) {
    if (params.first !== 'filled' && params.first !== 'empty') throw new Error(`param first must be filled or empty, got "${params.first}"`);
    settings.firstValue = params.first === 'filled' ? FILLED : EMPTY;
  }
  return settings;
}

/**
 * Depth-first search over cell values with exact line propagation after every choice.
 *
 * Metrics: `decisions` counts branches taken (each value tried on a branch cell); `deadEnds`
 * counts contradictions met while searching: a branch whose propagation fails, and — with
 * probing — each probe value that fails, since a probe is a one-step branch that was refuted
 * (those are also counted apart in `extra.probeContradictions`). A contradiction in the first
 * propagation, before any guess, proves the puzzle has no solution and is not a dead end.
 * Every solution is checked with isSolution before it is reported.
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
  private nodes = 0;

  constructor(puzzle: Puzzle, options: SolveOptions, settings: SearchSettings) {
    this.puzzle = puzzle;
    this.options = options;
    this.settings = settings;
    this.prop = new Propagator(puzzle, new ExactLineSolver(), { cache: settings.cache, shouldStop: options.shouldStop });
    this.prober = settings.probing ? new Prober(this.prop) : null;
    if (this.prober) {
      this.prober.scope = settings.probeScope;
      this.prober.rememberRates = settings.rememberRates;
    }
  }

  run(): SolveResult {
    const prop = this.prop;
    prop.enqueueAll();
    const rootOk = prop.propagate();
    if (!rootOk) return this.result('contradiction', prop.grid.slice());
    if (prop.stopped) return this.result('timeout', prop.grid.slice());

    // Probing at the root adds forced deductions only; the partial grid reported is after them.
    const rootAlive = this.prober ? this.probeNode(0) : true;
    const rootGrid = prop.grid.slice();
    if (this.stopped) return this.result('timeout', rootGrid);
    if (rootAlive) this.search(0);
    const grid = this.solutions[0] ?? rootGrid;
    if (this.stopped) return this.result('timeout', grid);
    return this.result(statusOfSolutions(this.solutions.length, this.options.maxSolutions), grid);
  }

  private result(status: SolveResult['status'], grid: Grid): SolveResult {
    const prop = this.prop;
    const metrics = propagationMetrics(prop);
    metrics.decisions = this.decisions;
    metrics.deadEnds = this.deadEnds;
    metrics.maxDepth = this.maxDepth;
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
    return this.stopped || this.solutions.length >= this.options.maxSolutions;
  }

  /** Explores the subtree of the current (propagated, consistent) grid. */
  private search(depth: number): void {
    const prop = this.prop;
    if (this.nodes++ % POLL_NODES === 0 && this.options.shouldStop()) {
      this.stopped = true;
      return;
    }
    let cell = -1;
    let first: number = this.settings.firstValue;
    if (this.prober && prop.unknownCells() > 0) {
      cell = this.prober.bestCell;
      first = this.prober.bestValue;
    }
    if (cell < 0 || prop.grid[cell] !== 0) cell = chooseBranchCell(prop, this.settings.branch);
    if (cell < 0) {
      this.record();
      return;
    }
    const values = first === FILLED ? FILL_THEN_EMPTY : EMPTY_THEN_FILL;
    for (const value of values) {
      const mark = prop.trailLength;
      this.decisions++;
      prop.assign(cell, value);
      let alive = prop.propagate();
      if (prop.stopped) this.stopped = true;
      if (!alive) this.deadEnds++;
      if (alive && !this.stopped && this.prober) alive = this.probeNode(mark);
      if (alive && !this.stopped) {
        if (depth + 1 > this.maxDepth) this.maxDepth = depth + 1;
        this.search(depth + 1);
      }
      prop.undo(mark);
      if (this.done()) return;
    }
  }

  private record(): void {
    const grid = this.prop.grid.slice();
    if (!isSolution(this.puzzle, grid))
      throw new Error(`backtrack: internal error: a complete grid of ${this.puzzle.id} breaks its clues`);
    this.solutions.push(grid);
  }
}

const FILL_THEN_EMPTY = [FILLED, EMPTY] as const;
const EMPTY_THEN_FILL = [EMPTY, FILLED] as const;

export function solveBySearch(puzzle: Puzzle, options: SolveOptions, defaults: SearchSettings): SolveResult {
  return new BacktrackSearch(puzzle, options, searchSettings(options.params, defaults)).run();
}

export const backtrackStrategy: Strategy = {
  name: 'backtrack',
  description: 'Exact line propagation with a line cache, then depth-first search on the most constrained cell',
  solve: (puzzle, options) => solveBySearch(puzzle, options, DEFAULT_SEARCH),
};

export const probeStrategy: Strategy = {
  name: 'probe',
  description: 'Backtracking with probing at every node: both values of cells near known ones, keeping what they force',
  solve: (puzzle, options) => solveBySearch(puzzle, options, { ...DEFAULT_SEARCH, probing: true }),
};

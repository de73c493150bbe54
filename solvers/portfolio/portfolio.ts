import { countKnown, isSolution } from '../../corpus/grid.js';
import { UNKNOWN, type Grid, type Puzzle } from '../../corpus/model.js';
import { statusOfSolutions, type SolveMetrics, type SolveOptions, type SolveResult } from '../api/types.js';
import { solveResult } from '../api/result.js';
import { ExactLineSolver } from '../line/exact.js';
import { Propagator } from '../propagation/propagator.js';
import { BacktrackSearch } from '../search/backtrack.js';
import type { SearchSettings } from '../search/settings.js';
import type { EncodingName } from '../sat/encodings/encode.js';
import { PuzzleSat } from '../sat/puzzle/puzzle-sat.js';
import { clueSymmetries, distinctSymmetries, imagesOf, type Symmetry } from '../symmetry/symmetry.js';

export interface PortfolioSettings {
  /** The depth-first search phase's settings (with restarts: its runs are the turns). */
  search: SearchSettings;
  /**
   * The first SAT turn gets this many times the work the search's run before it did (see
   * searchWork), weighted by how little root probing decided (see satWeight); later turns more.
   */
  satShare: number;
  /** Use the clues' symmetries: symmetric solutions first, and a solution's images as solutions. */
  symmetry: boolean;
  encoding: EncodingName;
  /** The line solver as a propagator inside the SAT phase (see sat's param `lines`). */
  lines: boolean;
}

/** A line solve's cost in SAT propagations (a cached line costs about one), lines in mask form. */
const LINE_SOLVE_WORK = 5;
/** How many times dearer both are when lines are longer than masks hold, kept as bit sets of several words. */
const SET_FORM_WORK = 4;
/** The same for lines longer than bit sets hold, copied, hashed and compared cell by cell. */
const ARRAY_FORM_WORK = 8;
/** The smallest SAT turn, in propagations (loading the CNF alone costs about this much). */
const MIN_SAT_TURN = 20_000;

/**
 * How much more of the time clause learning gets, from the share of cells root probing decided
 * (8 times up to an eightieth, 1 at a tenth, 0.5 from a fifth on): where probing decides little,
 * line reasoning guides the search poorly and clause learning tends to win; where it decides
 * much, the search does.
 */
function satWeight(knownShare: number): number {
  return Math.min(8, Math.max(0.5, 0.1 / Math.max(knownShare, 1e-9)));
}

/** The phase that settled the puzzle, in `extra.lastPhase`. */
export const PHASES = { line: 1, probe: 2, search: 3, sat: 4 } as const;

/**
 * The portfolio: exact line propagation, then probing at the root, then two complete searches that
 * take turns with budgets that grow: the probing depth-first search (a run of its restart plan)
 * and CDCL on the CNF of the grid probing stalled on (a slice of propagations in proportion to the
 * run's work). They share what they learn: each solution found by one is counted once by both
 * (and excluded from the CDCL search by a blocking clause), and the cells the clause learning
 * fixes for good become root facts of the depth-first search. The first to finish settles the puzzle, so its cost on a puzzle is a
 * small multiple of the better one's, and about the same where one finishes in its first turns.
 */
export class Portfolio {
  private readonly puzzle: Puzzle;
  private readonly options: SolveOptions;
  private readonly settings: PortfolioSettings;
  private readonly prop: Propagator;
  private readonly symmetries: Symmetry[];
  private search: BacktrackSearch | null = null;
  private sat: PuzzleSat | null = null;
  /** Solutions (in the search's list) whose images were added, and those excluded from the SAT phase. */
  private imaged = 0;
  private excluded = 0;
  /** Scratch for the cells the SAT phase has fixed. */
  private fixedCells: Int32Array | null = null;
  private fixedValues: Uint8Array | null = null;
  private readonly metrics: SolveMetrics;
  private readonly extra: Record<string, number>;
  private stopped = false;

  constructor(puzzle: Puzzle, options: SolveOptions, settings: PortfolioSettings) {
    this.puzzle = puzzle;
    this.options = options;
    this.settings = settings;
    this.prop = new Propagator(puzzle, new ExactLineSolver(), { cache: settings.search.cache, shouldStop: options.shouldStop });
    this.prop.trace = options.trace ?? null;
    this.symmetries = settings.symmetry ? distinctSymmetries(clueSymmetries(puzzle)) : [];
    this.metrics = { deadEnds: 0, decisions: 0, lineSolves: 0, maxDepth: 0, extra: {} };
    this.extra = { symmetries: this.symmetries.length, mirroredSolutions: 0, sharedCells: 0 };
  }

  run(): SolveResult {
    const { prop, puzzle } = this;
    const cells = puzzle.width * puzzle.height;
    prop.enqueueAll();
    if (!prop.propagate()) return this.finish(PHASES.line, 'contradiction', prop.grid.slice());
    const lineGrid = prop.grid.slice();
    this.extra.lineCells = countKnown(lineGrid);
    if (prop.stopped) return this.finish(PHASES.line, 'timeout', lineGrid);
    if (this.extra.lineCells === cells) {
      // Line logic alone decided every cell: each deduction was forced, so this is the only solution.
      if (!isSolution(puzzle, lineGrid)) throw new Error(`auto: line propagation of ${puzzle.id} ended on a grid that breaks the clues`);
      return this.finish(PHASES.line, statusOfSolutions(1, this.options.maxSolutions), lineGrid, [lineGrid]);
    }

    const search = new BacktrackSearch(puzzle, this.options, this.settings.search, prop);
    this.search = search;
    const alive = search.begin();
    const rootGrid = prop.grid.slice();
    this.extra.probeCells = countKnown(rootGrid);
    if (search.stopped) return this.finish(PHASES.probe, 'timeout', rootGrid);
    if (!alive) return this.finish(PHASES.probe, 'contradiction', rootGrid);

    // Probing may have decided every cell: the search's first run then only records the solution.
    let phase: number = prop.unknownCells() === 0 ? PHASES.probe : PHASES.search;
    const weight = satWeight(this.extra.probeCells / cells);
    const share = this.settings.satShare * weight;
    let turn = 0;
    for (;;) {
      const workBefore = this.searchWork();
      const over = search.runOnce();
      this.absorbSolutions();
      if (search.stopped) return this.timedOut(PHASES.search, rootGrid);
      if (over || this.enough()) break;
      phase = PHASES.sat;
      // Clause learning's share grows by a third each turn: a search that has not finished in its
      // first runs is in a heavy tail, where clause learning is the steadier of the two.
      const grow = 1 + turn++ / 3;
      if (this.satTurn(Math.max(MIN_SAT_TURN, (this.searchWork() - workBefore) * share * grow))) break;
      if (this.stopped) return this.timedOut(PHASES.sat, rootGrid);
      phase = PHASES.search;
    }
    return this.finishRuns(phase);
  }

  /** The limit fired: the solutions found so far, else the grid probing reached (sound without any blocking clause). */
  private timedOut(phase: number, rootGrid: Grid): SolveResult {
    const solutions = this.search!.solutions;
    return this.finish(phase, 'timeout', solutions[0] ?? rootGrid, solutions);
  }

  /** The result once the searches are over: the solutions found, or the deduced grid. */
  private finishRuns(phase: number): SolveResult {
    const solutions = this.search!.solutions;
    const grid = solutions.length > 0 ? solutions[0]! : this.prop.grid.slice();
    return this.finish(phase, statusOfSolutions(solutions.length, this.options.maxSolutions), grid, solutions);
  }

  /**
   * The search's work so far in the currency of SAT propagations, from its counters (so that turns
   * are the same on every run): a line solve costs about five propagations, a cached line one, four
   * or eight times that for lines too long for masks.
   */
  private searchWork(): number {
    const { prop } = this;
    return (LINE_SOLVE_WORK * prop.lineSolves + prop.cacheHits) * (prop.solvesMasks ? 1 : prop.solvesSets ? SET_FORM_WORK : ARRAY_FORM_WORK);
  }

  private enough(): boolean {
    return this.search!.solutions.length >= this.options.maxSolutions;
  }

  /** One slice of CDCL of about `propagations` propagations; true when it settled the puzzle (enough solutions, or none left). */
  private satTurn(propagations: number): boolean {
    if (!this.sat) {
      const sat = PuzzleSat.load(this.puzzle, {
        known: this.prop.grid.slice(),
        encoding: this.settings.encoding,
        cellDecisions: this.settings.encoding === 'automaton',
        lines: this.settings.lines,
        shouldStop: this.options.shouldStop,
        symmetric: this.symmetries.map((s) => s.image),
        onEncoded: (variables, clauses) => Object.assign(this.extra, { satVariables: variables, satClauses: clauses }),
      });
      if (!sat) {
        this.stopped = true;
        return false;
      }
      this.sat = sat;
      this.absorbSolutions();
    }
    const sat = this.sat;
    const end = sat.stats.propagations + propagations;
    let step = sat.next(Infinity, propagations);
    // A solution ends the slice only when it is the last one needed: the rest of the slice goes on to the next.
    while (step === 'solution') {
      this.options.trace?.found(sat.solution!);
      this.search!.noteSolution(sat.solution!);
      this.absorbSolutions();
      if (this.enough()) return true;
      const left = end - sat.stats.propagations;
      step = left > 0 ? sat.next(Infinity, left) : 'unknown';
    }
    if (step === 'none') return true;
    if (this.options.shouldStop()) {
      this.stopped = true;
      return false;
    }
    return !this.shareFixedCells();
  }

  /**
   * After solutions were added (all go to the search's list): adds their images under the clues'
   * symmetries, which are solutions too (a second one for free when an image differs), and excludes
   * them all from the SAT phase.
   */
  private absorbSolutions(): void {
    const search = this.search!;
    const solutions = search.solutions;
    while (this.imaged < solutions.length && !this.enough()) {
      for (const image of imagesOf(this.puzzle, solutions[this.imaged++]!, this.symmetries)) {
        if (this.enough()) break;
        const before = solutions.length;
        search.noteSolution(image);
        if (solutions.length > before) this.extra.mirroredSolutions!++;
      }
    }
    if (this.sat) while (this.excluded < solutions.length) this.sat.exclude(solutions[this.excluded++]!);
  }

  /** Gives the search the cells clause learning has fixed for good; false when that leaves it no solution. */
  private shareFixedCells(): boolean {
    const grid = this.prop.grid;
    this.fixedCells ??= new Int32Array(grid.length);
    this.fixedValues ??= new Uint8Array(grid.length);
    const n = this.sat!.fixedCells(this.fixedCells, this.fixedValues);
    let fresh = 0;
    for (let i = 0; i < n; i++) if (grid[this.fixedCells[i]!] === UNKNOWN) fresh++;
    if (fresh === 0) return true;
    this.extra.sharedCells! += fresh;
    return this.search!.assumeAtRoot(this.fixedCells.subarray(0, n), this.fixedValues.subarray(0, n));
  }

  private finish(phase: number, status: SolveResult['status'], grid: Grid, solutions: Grid[] = []): SolveResult {
    const { metrics, extra } = this;
    extra.lastPhase = phase;
    if (this.search) {
      const searched = this.search.finish(grid).metrics;
      metrics.deadEnds += searched.deadEnds;
      metrics.decisions += searched.decisions;
      metrics.maxDepth = Math.max(metrics.maxDepth, searched.maxDepth);
      for (const [key, value] of Object.entries(searched.extra)) extra[key] = value;
      extra.searchDecisions = searched.decisions;
      extra.searchDeadEnds = searched.deadEnds - (searched.extra.probeContradictions ?? 0);
    } else {
      extra.cacheHits = this.prop.cacheHits;
      extra.propagations = this.prop.propagations;
    }
    metrics.lineSolves = this.prop.lineSolves + (this.sat?.lineSolves ?? 0);
    if (this.sat) {
      const stats = this.sat.stats;
      metrics.deadEnds += stats.conflicts;
      metrics.decisions += stats.decisions;
      metrics.maxDepth = Math.max(metrics.maxDepth, stats.maxDecisionLevel);
      extra.satConflicts = stats.conflicts;
      extra.satDecisions = stats.decisions;
      extra.satPropagations = stats.propagations;
      extra.satLearntClauses = stats.learnts;
      if (this.settings.lines) extra.satExplanations = stats.explanations;
    }
    metrics.extra = extra;
    return solveResult(status, grid, solutions, metrics);
  }
}

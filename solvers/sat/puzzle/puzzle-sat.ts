import { isSolution } from '../../../corpus/grid.js';
import { EMPTY, FILLED, UNKNOWN, type Grid, type Puzzle } from '../../../corpus/model.js';
import { blockingClause, decodeGrid, encodeNonogramFlat, type EncodingName } from '../encodings/encode.js';
import { SatSolver, type SatOutcome, type SatStats } from '../engine/solver.js';
import { LineTheory } from './line-theory.js';

/** The limit is polled every 16,384 clauses loaded (a few milliseconds). */
const LOAD_POLL_MASK = (1 << 14) - 1;
/** And every 4,096 cells tied to their images (up to two clauses each). */
const TIE_POLL_MASK = (1 << 12) - 1;

export interface PuzzleSatOptions {
  /** Cells already known (UNKNOWN elsewhere): unit clauses that also prune the encoding. */
  known: Grid;
  encoding: EncodingName;
  /** Let the engine branch on cell variables only (the auxiliary ones follow from the cells). */
  cellDecisions: boolean;
  /** Solve lines with the exact line solver inside the search, as a propagator explained by clauses (see line-theory.ts). */
  lines?: boolean;
  shouldStop: () => boolean;
  /**
   * Cell maps (image[cell] = cell) under which the clues are the same, so that every solution maps
   * to a solution. With them, `next` first searches the solutions that every map leaves unchanged
   * (a puzzle with one solution has such a one, and there are far fewer such grids), then the rest.
   */
  symmetric?: readonly Int32Array[];
  /** Told the CNF's size once it is encoded, before loading (which the limit may still cut short). */
  onEncoded?: (variables: number, clauses: number) => void;
}

/** What one call of `next` ended with. */
export type SatStep = 'solution' | 'none' | 'unknown';

/**
 * A puzzle as an incremental SAT problem: its CNF loaded into the CDCL engine, then asked for
 * solutions one at a time. Each solution found is checked against the clues; `exclude` adds a
 * blocking clause over the cells that were not known, so that the next call looks for another one
 * (for solutions found by other means too). Learnt clauses are kept between calls, so a search cut
 * off by a conflict budget goes on where it stopped.
 */
export class PuzzleSat {
  /** After `next` returned 'solution': the solution. */
  solution: Grid | null = null;
  private readonly engine: SatSolver;
  private readonly puzzle: Puzzle;
  private readonly known: Grid;
  private readonly shouldStop: () => boolean;
  /** False once no solution is left (the clauses, with the exclusions, are unsatisfiable). */
  private open = true;
  /**
   * The variable that switches on the clauses tying each cell to its images (0 when there are
   * none); assumed true while the search keeps to symmetric solutions.
   */
  private guard: number;

  /** The line propagator inside the search, with param `lines`. */
  private readonly lines: LineTheory | null;

  private constructor(puzzle: Puzzle, known: Grid, engine: SatSolver, guard: number, shouldStop: () => boolean, lines: LineTheory | null) {
    this.puzzle = puzzle;
    this.lines = lines;
    this.known = known;
    this.engine = engine;
    this.guard = guard;
    this.shouldStop = shouldStop;
  }

  /** Encodes and loads the puzzle; undefined when the limit fired first (a large CNF takes seconds). */
  static load(puzzle: Puzzle, options: PuzzleSatOptions): PuzzleSat | undefined {
    const { known, shouldStop } = options;
    if (shouldStop()) return undefined;
    const cnf = encodeNonogramFlat(puzzle, { known, encoding: options.encoding, shouldStop });
    if (!cnf) return undefined;
    const { clauses } = cnf;
    options.onEncoded?.(cnf.numVars, clauses.count);
    const symmetric = options.symmetric ?? [];
    const guard = symmetric.length > 0 ? cnf.numVars + 1 : 0;
    const engine = new SatSolver(cnf.numVars + (guard > 0 ? 1 : 0));
    if (shouldStop()) return undefined; // setting up millions of variables takes a while
    for (let i = 0; i < clauses.count; i++) {
      if (!engine.addClauseSlice(clauses.lits, clauses.start(i), clauses.ends[i]!)) break;
      if ((i & LOAD_POLL_MASK) === LOAD_POLL_MASK && shouldStop()) return undefined;
    }
    // Auxiliary variables follow from the cells by propagation (see encode.ts).
    if (options.cellDecisions) for (let v = cnf.cellVars + 1; v <= cnf.numVars; v++) engine.setDecisionVar(v, false);
    const lines = options.lines ? new LineTheory(puzzle) : null;
    engine.setTheory(lines);
    if (guard > 0) {
      engine.setDecisionVar(guard, false);
      // Hundreds of thousands of clauses on a large symmetric grid: built in one scratch buffer, and polled.
      const scratch = new Int32Array(3);
      let tied = 0;
      for (const image of symmetric)
        for (let cell = 0; cell < image.length; cell++) {
          tieToImage(engine, guard, known, image, cell, scratch);
          if ((++tied & TIE_POLL_MASK) === 0 && shouldStop()) return undefined;
        }
    }
    if (shouldStop()) return undefined;
    return new PuzzleSat(puzzle, known, engine, guard, shouldStop, lines);
  }

  get stats(): SatStats {
    return this.engine.stats;
  }

  /** Line-solver calls of the line propagator inside the search (0 without it). */
  get lineSolves(): number {
    return this.lines?.solves ?? 0;
  }

  /**
   * Looks for a solution not excluded, within `conflictLimit` more conflicts and about
   * `propagationLimit` more propagations (default: no limit).
   * 'solution' sets `solution`; 'none' means no solution is left; 'unknown' that the budget or the
   * limit ended the search first.
   */
  next(conflictLimit = Infinity, propagationLimit = Infinity): SatStep {
    this.solution = null;
    const engine = this.engine;
    const stats = engine.stats;
    const end = stats.conflicts + conflictLimit;
    const propagationEnd = stats.propagations + propagationLimit;
    // The engine polls this every few hundred decisions and conflicts, so a budget of propagations holds roughly.
    const shouldStop = propagationLimit === Infinity ? this.shouldStop : () => stats.propagations >= propagationEnd || this.shouldStop();
    let outcome: SatOutcome = 'unsat';
    while (this.open) {
      const assumptions = this.guard > 0 ? [this.guard] : [];
      outcome = engine.solve({ shouldStop, conflictLimit: end - stats.conflicts, assumptions });
      if (outcome !== 'unsat') break;
      if (this.guard > 0 && engine.okay) {
        // No symmetric solution is left: from now on, any solution.
        engine.addClause([-this.guard]);
        this.guard = 0;
      } else this.open = false;
    }
    if (outcome === 'unknown') return 'unknown';
    if (!this.open) return 'none';
    const grid = decodeGrid(this.puzzle, (v) => this.engine.value(v));
    if (!isSolution(this.puzzle, grid)) throw new Error(`sat: a model of puzzle ${this.puzzle.id} does not satisfy its clues`);
    this.solution = grid;
    return 'solution';
  }

  /** Excludes a solution (one that satisfies the clues) from later calls; false once none is left. */
  exclude(solution: Grid): boolean {
    if (this.open && !this.engine.addClause(blockingClause(solution, this.known))) this.open = false;
    return this.open;
  }

  /**
   * Cells the clauses fix without any decision (learnt units included): each holds in every solution
   * not yet excluded. Written as parallel lists of cells and values; returns their number.
   */
  fixedCells(cells: Int32Array, values: Uint8Array): number {
    let n = 0;
    for (let i = 0; i < this.known.length; i++) {
      if (this.known[i] !== UNKNOWN) continue;
      const value = this.engine.fixedValue(i + 1);
      if (value === undefined) continue;
      cells[n] = i;
      values[n++] = value ? FILLED : EMPTY;
    }
    return n;
  }

  /** The known cells plus those the clauses fix (a partial answer). */
  fixedGrid(): Grid {
    const grid = this.known.slice();
    const cells = new Int32Array(grid.length);
    const values = new Uint8Array(grid.length);
    const n = this.fixedCells(cells, values);
    for (let i = 0; i < n; i++) grid[cells[i]!] = values[i]!;
    return grid;
  }
}

/** Under `guard`: a cell and its image take the same value (or the known one of the two). `clause` is scratch for three literals. */
function tieToImage(engine: SatSolver, guard: number, known: Grid, images: Int32Array, cell: number, clause: Int32Array): void {
  const image = images[cell]!;
  // A cell that maps to itself needs nothing; a pair that swaps is tied once.
  if (image === cell || (image < cell && images[image] === cell)) return;
  const a = cell + 1;
  const b = image + 1;
  const ka = known[cell]!;
  const kb = known[image]!;
  clause[0] = -guard;
  if (ka === UNKNOWN && kb === UNKNOWN) {
    clause[1] = -a;
    clause[2] = b;
    engine.addClauseSlice(clause, 0, 3);
    clause[1] = a;
    clause[2] = -b;
    engine.addClauseSlice(clause, 0, 3);
  } else if (ka === UNKNOWN) {
    clause[1] = kb === FILLED ? a : -a;
    engine.addClauseSlice(clause, 0, 2);
  } else if (kb === UNKNOWN) {
    clause[1] = ka === FILLED ? b : -b;
    engine.addClauseSlice(clause, 0, 2);
  } else if (ka !== kb) engine.addClauseSlice(clause, 0, 1);
}

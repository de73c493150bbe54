import type { Grid, Puzzle } from '../../corpus/model.js';
import type { Params, ParamSpec } from './params.js';

/**
 * How a solve ended. The meanings are shared by every strategy:
 * - `unique`: one solution, proven the only one;
 * - `multiple`: two or more solutions found;
 * - `solved`: one found, uniqueness not asked (`maxSolutions = 1`);
 * - `stuck`: a strategy that does not guess ran out of deductions (partial grid);
 * - `contradiction`: no solution exists;
 * - `too-large`: the strategy's own resource cap was hit;
 * - `timeout`: the cancellation check fired.
 */
export type SolveStatus = 'unique' | 'multiple' | 'solved' | 'stuck' | 'contradiction' | 'too-large' | 'timeout';

export const SOLVE_STATUSES: readonly SolveStatus[] = [
  'unique',
  'multiple',
  'solved',
  'stuck',
  'contradiction',
  'too-large',
  'timeout',
];

/**
 * Counters with one meaning in every strategy. The cells resolved and the solutions found are not
 * among them: the harness counts both from the grids, the same way for every strategy.
 */
export interface SolveMetrics {
  /** Contradictions met while searching (0 for a strategy that never guesses). */
  deadEnds: number;
  /** Guesses / branches taken. */
  decisions: number;
  /** Line-solver calls (cache hits excluded). */
  lineSolves: number;
  /** Deepest search level reached (0 without search). */
  maxDepth: number;
  /** Strategy-specific counters (propagations, cache hits, learnt clauses, …). */
  extra: Record<string, number>;
}

export interface SolveResult {
  status: SolveStatus;
  /** The final grid: the solution when one was found, else what was deduced (UNKNOWN elsewhere). */
  grid: Grid;
  /** Solutions found, at most `maxSolutions`. */
  solutions: Grid[];
  metrics: SolveMetrics;
}

export interface SolveOptions {
  /** Stop after this many solutions (default 2, so that uniqueness is checked). */
  maxSolutions: number;
  /** Polled by the strategy: once it returns true the strategy returns `timeout` promptly. */
  shouldStop: () => boolean;
  /** Strategy-specific settings (for example a placement cap), by name; see Strategy.params. */
  params?: Params;
  /**
   * An observer told every step of the solve (for `solve --replay`); absent or null by default.
   * Strategies built from the Propagator, Prober and BacktrackSearch pass it on to them; the others
   * ignore it. Counters and choices are the same with and without it.
   */
  trace?: SolveTrace | null;
}

/**
 * The steps of a propagation-and-search solve, as they happen. Lines are numbered rows first
 * (0 … height−1), then columns; cells are row-major indices. The cells a step sets or clears are
 * given as a range of the propagator's trail (`trail[from]` … `trail[to − 1]`, their values in
 * `grid`), valid during the call only, so no step allocates anything.
 */
export interface SolveTrace {
  /**
   * A line solve (or cache hit) set the cells of trail[from, to), possibly none; `ok` false when no
   * placement of the line fits (a contradiction, nothing set). Trial propagations inside a probe are
   * not reported: they are undone at once, and the probe reports what it learnt.
   */
  line(line: number, ok: boolean, grid: Uint8Array, trail: Int32Array, from: number, to: number): void;
  /**
   * A probe of `cell`: whether each value survived propagation, and the cells it then set, before
   * their consequences are propagated: the forced value when one failed, else the cells both agree on.
   */
  probe(cell: number, filledOk: boolean, emptyOk: boolean, grid: Uint8Array, trail: Int32Array, from: number, to: number): void;
  /** A search decision: `cell` takes `value` at search depth `depth` (1 for the first guess). */
  guess(cell: number, value: number, depth: number): void;
  /**
   * The search leaves a branch and returns to `depth`: the cells of trail[from, to) become unknown
   * again. `deadEnd` when the branch failed at once (its propagation or probing met a contradiction).
   */
  backtrack(depth: number, deadEnd: boolean, trail: Int32Array, from: number, to: number): void;
  /** The current grid is a solution (the search records it and goes on, or stops). */
  solution(): void;
  /**
   * Cells another search proved (auto's clause learning: they hold in every solution not found
   * yet) were set at the search's root: trail[from, to), before their consequences are propagated.
   */
  learnt(grid: Uint8Array, trail: Int32Array, from: number, to: number): void;
  /** Another search (auto's clause learning) found a solution; the current grid stays as it is. */
  found(solution: Uint8Array): void;
}

export interface Strategy {
  name: string;
  /** One line, shown by `nonobench strategies`. */
  description: string;
  /**
   * The parameters it takes. Declared ones are checked and resolved (defaults included) before a
   * solve, so a misspelt name or a bad value is refused rather than ignored.
   */
  params?: readonly ParamSpec[];
  /** True when it reports its steps to `SolveOptions.trace` (so `nonobench solve --replay` can show them). */
  traces?: boolean;
  /** May return a Promise (a plugin that awaits); the built-ins answer at once (SyncStrategy). */
  solve(puzzle: Puzzle, options: SolveOptions): SolveResult | Promise<SolveResult>;
}

/** A strategy that answers synchronously, as every built-in one does. */
export interface SyncStrategy extends Strategy {
  solve(puzzle: Puzzle, options: SolveOptions): SolveResult;
}

/**
 * Declares a strategy with full types: `export default defineStrategy({ name, description, params, solve })`.
 * It returns its argument; a plain object of the same shape works as well.
 */
export function defineStrategy<S extends Strategy>(strategy: S): S {
  return strategy;
}

export const DEFAULT_MAX_SOLUTIONS = 2;

/** Options with the defaults filled in. */
export function solveOptions(partial: Partial<SolveOptions> = {}): SolveOptions {
  return {
    maxSolutions: partial.maxSolutions ?? DEFAULT_MAX_SOLUTIONS,
    shouldStop: partial.shouldStop ?? (() => false),
    ...(partial.params ? { params: partial.params } : {}),
    ...(partial.trace ? { trace: partial.trace } : {}),
  };
}

/** A cancellation check that fires after `ms` milliseconds on the monotonic clock. */
export function deadlineAfter(ms: number): () => boolean {
  if (!Number.isFinite(ms)) return () => false;
  const end = performance.now() + ms;
  return () => performance.now() > end;
}

/** Fresh zeroed metrics. */
export function emptyMetrics(): SolveMetrics {
  return { deadEnds: 0, decisions: 0, lineSolves: 0, maxDepth: 0, extra: {} };
}

/** The status a searching strategy reports for the solutions it found when the search ended normally. */
export function statusOfSolutions(found: number, maxSolutions: number): SolveStatus {
  if (found === 0) return 'contradiction';
  if (found >= 2) return 'multiple';
  return maxSolutions === 1 ? 'solved' : 'unique';
}

/**
 * What `import … from 'nonobench'` gives a plugin author: the strategy contract with its types,
 * `defineStrategy`, the declared-parameter types, and the few helpers the built-ins use to answer.
 */
export { EMPTY, FILLED, UNKNOWN, type Cell, type Clue, type Grid, type Puzzle, type PuzzleMeta } from '../../corpus/model.js';
export { isSolution, verifyGrid } from '../../corpus/grid.js';
export { ParamError, resolveParams, type ParamSpec, type Params, type ParamValue } from './params.js';
export { solveResult } from './result.js';
export {
  deadlineAfter,
  defineStrategy,
  emptyMetrics,
  SOLVE_STATUSES,
  statusOfSolutions,
  type SolveMetrics,
  type SolveOptions,
  type SolveResult,
  type SolveStatus,
  type SolveTrace,
  type Strategy,
  type SyncStrategy,
} from './types.js';

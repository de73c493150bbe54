import { isSolution } from '../../corpus/grid.js';
import { EMPTY, FILLED, UNKNOWN, type Grid, type Puzzle } from '../../corpus/model.js';
import { blockingClause, decodeGrid, DEFAULT_ENCODING, encodeNonogramFlat, ENCODINGS, type EncodingName } from '../sat/encodings/encode.js';
import { ParamError, resolveParams, type ParamSpec } from '../api/params.js';
import { prePropagate } from '../sat/encodings/pre-propagate.js';
import { SatSolver } from '../sat/engine/solver.js';
import { emptyMetrics, statusOfSolutions, type SolveOptions, type SolveResult, type SyncStrategy } from '../api/types.js';
import { solveResult } from '../api/result.js';

/** The parameters of `sat`. */
export const SAT_PARAMS: readonly ParamSpec[] = [
  { name: 'encoding', type: 'enum', values: ENCODINGS, default: DEFAULT_ENCODING, meaning: 'how a line becomes clauses (see the README)' },
  { name: 'propagate', type: 'boolean', default: true, meaning: 'settle what line propagation can before encoding' },
  { name: 'probe', type: 'boolean', default: false, meaning: 'probe cells after propagation, before encoding (needs propagate)' },
  {
    name: 'cellDecisions',
    type: 'boolean',
    default: (p) => p.encoding === 'automaton',
    defaultText: 'true with encoding=automaton, else false',
    meaning: 'let the engine branch on cell variables only',
  },
];

/** The limit is polled every 16,384 clauses loaded (a few milliseconds). */
const LOAD_POLL_MASK = (1 << 14) - 1;

/**
 * Solving through CNF and the CDCL engine. Line propagation first settles what it can (param
 * `propagate`, default true), then, with param `probe` (default false), single-cell contradiction
 * probing (off by default: see the README). The puzzle is then encoded with the settled cells as
 * unit clauses (param `encoding`: `blocks`, the default, or `automaton`; see encodings/encode.ts)
 * and solved. Param `cellDecisions` lets the engine branch on cell variables only; its default
 * follows the encoding (off for `blocks`, on for `automaton`: README, "The SAT encoding"). Each
 * solution is verified, then excluded by a blocking
 * clause over the undecided cells, and the engine is asked again, until `maxSolutions` are found
 * or none is left.
 *
 * Metrics: deadEnds = conflicts (plus values refuted by probing, with `probe`), decisions = the engine's decisions, maxDepth = its highest
 * decision level, lineSolves = the line solves of propagation and probing; `extra` holds the probes
 * (with `probe`), the engine's propagations, learnt clauses, restarts, rephases, deleted learnt
 * clauses, clauses removed as satisfied at level 0, and the CNF's variables and clauses.
 */
export function solveBySat(puzzle: Puzzle, options: SolveOptions): SolveResult {
  const params = resolveParams('sat', SAT_PARAMS, options.params);
  const usePropagation = params.propagate as boolean;
  const useProbing = params.probe as boolean;
  const encoding = params.encoding as EncodingName;
  const branchOnCellsOnly = params.cellDecisions as boolean;
  if (useProbing && !usePropagation) throw new ParamError('sat: probe=true needs propagate=true (probing builds on line propagation)');
  const metrics = emptyMetrics();
  const cells = puzzle.width * puzzle.height;
  let known: Grid = new Uint8Array(cells);
  const finish = (status: SolveResult['status'], grid: Grid, solutions: Grid[]) => solveResult(status, grid, solutions, metrics);

  if (usePropagation) {
    const pre = prePropagate(puzzle, options.shouldStop, useProbing);
    metrics.lineSolves = pre.lineSolves;
    metrics.extra.lineCacheHits = pre.cacheHits;
    if (useProbing) {
      metrics.extra.probes = pre.probes;
      metrics.extra.probeContradictions = pre.probeContradictions;
      metrics.deadEnds = pre.probeContradictions; // refuted values are dead ends, as in backtrack and probe
    }
    known = pre.grid;
    if (pre.contradiction) return finish('contradiction', known, []);
    if (pre.stopped) return finish('timeout', known, []);
  }

  // Encoding and loading a large CNF take seconds at 200×200: both poll the limit as they go.
  if (options.shouldStop()) return finish('timeout', known, []);
  const cnf = encodeNonogramFlat(puzzle, {
    known: usePropagation ? known : undefined,
    encoding,
    shouldStop: options.shouldStop,
  });
  if (!cnf) return finish('timeout', known, []);
  const { clauses } = cnf;
  metrics.extra.variables = cnf.numVars;
  metrics.extra.clauses = clauses.count;
  const engine = new SatSolver(cnf.numVars);
  for (let i = 0; i < clauses.count; i++) {
    if (!engine.addClauseSlice(clauses.lits, clauses.start(i), clauses.ends[i]!)) break;
    if ((i & LOAD_POLL_MASK) === LOAD_POLL_MASK && options.shouldStop()) return finish('timeout', known, []);
  }
  // Auxiliary variables follow from the cells by propagation (see encode.ts).
  if (branchOnCellsOnly) for (let v = cnf.cellVars + 1; v <= cnf.numVars; v++) engine.setDecisionVar(v, false);
  if (options.shouldStop()) return finish('timeout', known, []);

  const solutions: Grid[] = [];
  let timedOut = false;
  while (solutions.length < options.maxSolutions) {
    const outcome = engine.solve({ shouldStop: options.shouldStop });
    if (outcome === 'unknown') {
      timedOut = true;
      break;
    }
    if (outcome === 'unsat') break;
    const grid = decodeGrid(puzzle, (v) => engine.value(v));
    if (!isSolution(puzzle, grid)) throw new Error(`sat: a model of puzzle ${puzzle.id} does not satisfy its clues`);
    solutions.push(grid);
    if (solutions.length < options.maxSolutions && !engine.addClause(blockingClause(grid, known))) break;
  }

  const stats = engine.stats;
  metrics.deadEnds += stats.conflicts;
  metrics.decisions = stats.decisions;
  metrics.maxDepth = stats.maxDecisionLevel;
  metrics.extra.propagations = stats.propagations;
  metrics.extra.learntClauses = stats.learnts;
  metrics.extra.restarts = stats.restarts;
  metrics.extra.rephases = stats.rephases;
  metrics.extra.deletedClauses = stats.deletedClauses;
  metrics.extra.satisfiedRemoved = stats.satisfiedRemoved;

  if (timedOut) return finish('timeout', solutions[0] ?? withFixedCells(known, engine), solutions);
  const status = statusOfSolutions(solutions.length, options.maxSolutions);
  return finish(status, solutions[0] ?? known, solutions);
}

/** The known cells plus those the engine has fixed at level 0 (for a partial answer on timeout). */
function withFixedCells(known: Grid, engine: SatSolver): Grid {
  const grid = known.slice();
  for (let i = 0; i < grid.length; i++) {
    if (grid[i] !== UNKNOWN) continue;
    const value = engine.fixedValue(i + 1);
    if (value !== undefined) grid[i] = value ? FILLED : EMPTY;
  }
  return grid;
}

export const sat: SyncStrategy = {
  name: 'sat',
  description: 'CDCL SAT solving of a block-start CNF encoding (param encoding), after line propagation (param propagate)',
  params: SAT_PARAMS,
  solve: solveBySat,
};

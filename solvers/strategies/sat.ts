import { countKnown, isSolution } from '../../corpus/grid.js';
import { EMPTY, FILLED, UNKNOWN, type Grid, type Puzzle } from '../../corpus/model.js';
import { blockingClause, decodeGrid, DEFAULT_ENCODING, encodeNonogramFlat, encodingNamed, type EncodingName } from '../sat/encodings/encode.js';
import { prePropagate } from '../sat/encodings/pre-propagate.js';
import { SatSolver } from '../sat/engine/solver.js';
import { emptyMetrics, statusOfSolutions, type SolveOptions, type SolveResult, type Strategy } from '../api/types.js';

/** A yes/no param (true/false, 1/0, on/off), `fallback` when absent. */
export function readBooleanParam(params: SolveOptions['params'], name: string, fallback: boolean): boolean {
  const raw = params?.[name];
  if (raw === undefined) return fallback;
  if (raw === true || raw === 1 || raw === 'true' || raw === 'on') return true;
  if (raw === false || raw === 0 || raw === 'false' || raw === 'off') return false;
  throw new Error(`sat: ${name} must be true/false, 1/0 or on/off, got ${JSON.stringify(raw)}`);
}

/** Param `encoding`: blocks (the default) or automaton. */
function readEncodingParam(params: SolveOptions['params']): EncodingName {
  const raw = params?.encoding;
  if (raw === undefined) return DEFAULT_ENCODING;
  try {
    return encodingNamed(String(raw));
  } catch (error) {
    throw new Error(`sat: ${(error as Error).message}`);
  }
}

/** The limit is polled every 16,384 clauses loaded (a few milliseconds). */
const LOAD_POLL_MASK = (1 << 14) - 1;

/**
 * Solving through CNF and the CDCL engine. Line propagation first settles what it can (param
 * `propagate`, default true), then, with param `probe` (default false), single-cell contradiction
 * probing: it saves work on random puzzles but costs time on the tournament set (see the
 * README). The puzzle is then encoded with the settled cells as unit clauses
 * (param `encoding`: `blocks`, the default, or `automaton`; see sat/encode.ts) and solved. Param
 * `cellDecisions` lets the engine branch on cell variables only; its default follows the
 * encoding (off for `blocks`, on for `automaton`), the faster choice for each on the random and
 * tournament puzzles (see the README). Each solution is verified, then excluded by a blocking
 * clause over the undecided cells, and the engine is asked again, until `maxSolutions` are found
 * or none is left.
 *
 * Metrics: deadEnds = conflicts (plus values refuted by probing, with `probe`), decisions = the engine's decisions, maxDepth = its highest
 * decision level, lineSolves = the line solves of propagation and probing; `extra` holds the probes
 * (with `probe`), the engine's propagations, learnt clauses, restarts, rephases, deleted learnt
 * clauses, clauses removed as satisfied at level 0, and the CNF's variables and clauses.
 */
export function solveBySat(puzzle: Puzzle, options: SolveOptions): SolveResult {
  const usePropagation = readBooleanParam(options.params, 'propagate', true);
  const useProbing = readBooleanParam(options.params, 'probe', false);
  const encoding = readEncodingParam(options.params);
  const branchOnCellsOnly = readBooleanParam(options.params, 'cellDecisions', encoding === 'automaton');
  if (useProbing && !usePropagation) throw new Error('sat: probe=true needs propagate=true (probing builds on line propagation)');
  const metrics = emptyMetrics();
  const cells = puzzle.width * puzzle.height;
  let known: Grid = new Uint8Array(cells);
  const finish = (status: SolveResult['status'], grid: Grid, solutions: Grid[]): SolveResult => {
    metrics.solutionsFound = solutions.length;
    metrics.cellsResolved = countKnown(grid);
    return { status, grid, solutions, metrics };
  };

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

export const sat: Strategy = {
  name: 'sat',
  description: 'CDCL SAT solving of a block-start CNF encoding (param encoding), after line propagation (param propagate)',
  solve: solveBySat,
};

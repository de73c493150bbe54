import type { Grid, Puzzle } from '../../corpus/model.js';
import { DEFAULT_ENCODING, ENCODINGS, type EncodingName } from '../sat/encodings/encode.js';
import { resolveParams, type ParamSpec } from '../api/params.js';
import { prePropagate } from '../sat/encodings/pre-propagate.js';
import type { SatStats } from '../sat/engine/solver.js';
import { PuzzleSat } from '../sat/puzzle/puzzle-sat.js';
import { clueSymmetries, distinctSymmetries, imagesOf } from '../symmetry/symmetry.js';
import { emptyMetrics, statusOfSolutions, type SolveMetrics, type SolveOptions, type SolveResult, type SyncStrategy } from '../api/types.js';
import { solveResult } from '../api/result.js';

/** The parameters of `sat`. */
export const SAT_PARAMS: readonly ParamSpec[] = [
  { name: 'encoding', type: 'enum', values: ENCODINGS, default: DEFAULT_ENCODING, meaning: 'how a line becomes clauses (see the README)' },
  { name: 'propagate', type: 'boolean', default: true, meaning: 'settle what line propagation can before encoding' },
  { name: 'probe', type: 'boolean', default: false, requires: 'propagate', meaning: 'probe cells after propagation, before encoding (probing builds on it)' },
  {
    name: 'cellDecisions',
    type: 'boolean',
    default: (p) => p.encoding === 'automaton',
    defaultText: 'true with encoding=automaton, else false',
    meaning: 'let the engine branch on cell variables only',
  },
  { name: 'lines', type: 'boolean', default: false, meaning: 'solve lines with the exact line solver inside the search, explained as clauses (lazy clause generation)' },
  { name: 'symmetry', type: 'boolean', default: true, meaning: "use the clues' symmetries: symmetric solutions first, a solution's images as solutions" },
];

/**
 * Solving through CNF and the CDCL engine. Line propagation first settles what it can (param
 * `propagate`, default true), then, with param `probe` (default false), single-cell contradiction
 * probing (off by default: see the README). The puzzle is then encoded with the settled cells as
 * unit clauses (param `encoding`: `blocks`, the default, or `automaton`; see encodings/encode.ts)
 * and solved. Param `cellDecisions` lets the engine branch on cell variables only; its default
 * follows the encoding (off for `blocks`, on for `automaton`: README, "The SAT encoding"). Param
 * `lines` (default false) also solves lines with the exact line solver inside the search, each
 * deduction explained by a clause (puzzle/line-theory.ts). Each solution is verified, then excluded by a blocking
 * clause over the undecided cells, and the engine is asked again, until `maxSolutions` are found
 * or none is left.
 *
 * Metrics: deadEnds = conflicts (plus values refuted by probing, with `probe`), decisions = the engine's decisions, maxDepth = its highest
 * decision level, lineSolves = the line solves of propagation, probing and (with `lines`) the
 * search; `extra` holds the probes (with `probe`), the engine's propagations, learnt clauses,
 * restarts, rephases, deleted learnt clauses, clauses removed as satisfied at level 0, the clauses
 * explaining line deductions (with `lines`), and the CNF's variables and clauses.
 */
export function solveBySat(puzzle: Puzzle, options: SolveOptions): SolveResult {
  const params = resolveParams('sat', SAT_PARAMS, options.params);
  const usePropagation = params.propagate as boolean;
  const useProbing = params.probe as boolean;
  const encoding = params.encoding as EncodingName;
  const branchOnCellsOnly = params.cellDecisions as boolean;
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

  const symmetries = params.symmetry ? distinctSymmetries(clueSymmetries(puzzle)) : [];
  if (symmetries.length > 0) metrics.extra.symmetries = symmetries.length;
  const sat = PuzzleSat.load(puzzle, {
    known,
    encoding,
    cellDecisions: branchOnCellsOnly,
    lines: params.lines as boolean,
    shouldStop: options.shouldStop,
    symmetric: symmetries.map((s) => s.image),
    onEncoded: (variables, clauses) => Object.assign(metrics.extra, { variables, clauses }),
  });
  if (!sat) return finish('timeout', known, []);

  const solutions: Grid[] = [];
  let timedOut = false;
  while (solutions.length < options.maxSolutions) {
    const step = sat.next();
    if (step === 'unknown') {
      timedOut = true;
      break;
    }
    if (step === 'none') break;
    const found = [sat.solution!];
    // Its images are solutions too, not found yet: each earlier solution's images (its whole orbit) are excluded.
    for (const image of imagesOf(puzzle, sat.solution!, symmetries)) if (solutions.length + found.length < options.maxSolutions) found.push(image);
    if (found.length > 1) metrics.extra.mirroredSolutions = (metrics.extra.mirroredSolutions ?? 0) + found.length - 1;
    solutions.push(...found);
    if (solutions.length < options.maxSolutions && !found.every((s) => sat.exclude(s))) break;
  }
  addEngineMetrics(metrics, sat.stats, params.lines as boolean);
  metrics.lineSolves += sat.lineSolves;

  if (timedOut) return finish('timeout', solutions[0] ?? sat.fixedGrid(), solutions);
  const status = statusOfSolutions(solutions.length, options.maxSolutions);
  return finish(status, solutions[0] ?? known, solutions);
}

/** The engine's counters in a result: dead ends are conflicts, decisions and depth are the engine's. */
function addEngineMetrics(metrics: SolveMetrics, stats: SatStats, lines: boolean): void {
  metrics.deadEnds += stats.conflicts;
  metrics.decisions += stats.decisions;
  metrics.maxDepth = Math.max(metrics.maxDepth, stats.maxDecisionLevel);
  metrics.extra.propagations = stats.propagations;
  metrics.extra.learntClauses = stats.learnts;
  metrics.extra.restarts = stats.restarts;
  metrics.extra.rephases = stats.rephases;
  metrics.extra.deletedClauses = stats.deletedClauses;
  metrics.extra.satisfiedRemoved = stats.satisfiedRemoved;
  // With `lines`, even when it is 0 (the automaton encoding: the line solver deduces nothing unit propagation has not).
  if (lines) metrics.extra.explanations = stats.explanations;
}

export const sat: SyncStrategy = {
  name: 'sat',
  description: 'CDCL SAT solving of a block-start CNF encoding (param encoding), after line propagation (param propagate)',
  params: SAT_PARAMS,
  solve: solveBySat,
};

import type { Puzzle } from '../../corpus/model.js';
import { resolveParams, type ParamSpec } from '../api/params.js';
import type { SolveOptions, SolveResult, SyncStrategy } from '../api/types.js';
import { Portfolio } from '../portfolio/portfolio.js';
import { BACKTRACK_SETTINGS, PROBE_SETTINGS } from '../search/settings.js';
import { DEFAULT_ENCODING, ENCODINGS, type EncodingName } from '../sat/encodings/encode.js';

/** The parameters of `auto`. */
export const AUTO_PARAMS: readonly ParamSpec[] = [
  { name: 'search', type: 'enum', values: ['probe', 'backtrack'], default: 'probe', meaning: 'the depth-first search phase: as probe (probing around each decision\'s changes) or as the backtrack strategy (probing every candidate cell at each node)' },
  { name: 'satShare', type: 'integer', min: 1, default: 8, meaning: "the first SAT turn's work, in multiples of the work of the search run before it (weighted up where probing decided little; later turns get more)" },
  { name: 'symmetry', type: 'boolean', default: true, meaning: "use the clues' symmetries: symmetric solutions first, a solution's images as solutions" },
  { name: 'encoding', type: 'enum', values: ENCODINGS, default: DEFAULT_ENCODING, meaning: 'CNF encoding of the SAT phase (see sat)' },
  { name: 'lines', type: 'boolean', default: false, meaning: 'solve lines with the exact line solver inside the SAT phase, explained as clauses (see sat)' },
];

/**
 * The portfolio strategy (solvers/portfolio/): line logic, then probing, then the probing search
 * and clause learning taking turns with growing budgets and sharing what they learn.
 *
 * Metrics: deadEnds = contradictions of every phase (refuted probe values, failed branches, SAT
 * conflicts), decisions = branches of the search plus SAT decisions, maxDepth = the deeper of the
 * two; `extra` holds each phase's counters (see the README, "Strategies").
 */
export const autoStrategy: SyncStrategy = {
  name: 'auto',
  description: 'Portfolio: line logic, probing, then probing search and CDCL in turns with growing budgets, sharing solutions and fixed cells',
  params: AUTO_PARAMS,
  traces: true,
  solve(puzzle: Puzzle, options: SolveOptions): SolveResult {
    const p = resolveParams('auto', AUTO_PARAMS, options.params);
    return new Portfolio(puzzle, options, {
      search: p.search === 'probe' ? PROBE_SETTINGS : BACKTRACK_SETTINGS,
      satShare: p.satShare as number,
      symmetry: p.symmetry as boolean,
      encoding: p.encoding as EncodingName,
      lines: p.lines as boolean,
    }).run();
  },
};

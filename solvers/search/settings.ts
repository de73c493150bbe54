import { EMPTY, FILLED } from '../../corpus/model.js';
import type { Params, ParamSpec } from '../api/params.js';
import { BRANCH_HEURISTICS, type BranchHeuristic } from './choose.js';
import { PROBE_RATINGS, type ProbeRating } from './probe.js';

/** The knobs of the propagation + search strategies (`backtrack`, `probe`), settable through `params`. */
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
  /** Probing: how a cell's two impacts make its branching rate. */
  rating: ProbeRating;
  /** Probing: branch on the cell the probes rank best (else on the `branch` heuristic's choice). */
  probeRanks: boolean;
  /** Probing with restarts: alternate runs between the probes' ranking and the `branch` heuristic. */
  alternate: boolean;
  /**
   * Restart the search with perturbed choices when a run exceeds its budget of decisions (the
   * budget grows each time, so a run eventually completes and the search stays complete).
   */
  restarts: boolean;
  /** Decisions allowed in the first run (the unit of the Luby plan). */
  restartBudget: number;
  /** How run budgets grow: ×1.5 per run, or unit × the Luby sequence (many short runs, a few long ones). */
  restartPlan: 'geometric' | 'luby';
}

/**
 * The `backtrack` strategy's settings. Probing is on because depth-first search without it
 * thrashes on puzzles that need deep guessing (see the README); `probing: false` gives plain DFS
 * with the same propagation.
 */
export const BACKTRACK_SETTINGS: SearchSettings = {
  probing: true,
  branch: 'lines',
  firstValue: FILLED,
  cache: true,
  probeScope: 'all',
  rememberRates: true,
  rating: 'product',
  probeRanks: true,
  alternate: false,
  restarts: true,
  restartBudget: 64,
  restartPlan: 'geometric',
};

/** The `probe` strategy's settings: the same search, probing only around each decision's changes. */
export const PROBE_SETTINGS: SearchSettings = { ...BACKTRACK_SETTINGS, probeScope: 'local' };

const valueName = (v: SearchSettings['firstValue']) => (v === FILLED ? 'filled' : 'empty');

/** The parameters of a search strategy whose defaults are `defaults`. */
export function searchParams(defaults: SearchSettings): readonly ParamSpec[] {
  return [
    { name: 'probing', type: 'boolean', default: defaults.probing, meaning: 'probe cells at every search node' },
    { name: 'branch', type: 'enum', values: BRANCH_HEURISTICS, default: defaults.branch, meaning: 'branch cell choice when probing does not rank cells' },
    { name: 'first', type: 'enum', values: ['filled', 'empty'], default: valueName(defaults.firstValue), meaning: 'value tried first on a branch cell when probing does not rank cells (else the value whose probe decided more)' },
    { name: 'cache', type: 'boolean', default: defaults.cache, meaning: 'cache line results by clue and line state' },
    { name: 'probeScope', type: 'enum', values: ['local', 'all'], default: defaults.probeScope, meaning: 'probe around the last changes, or every cell next to a known one' },
    { name: 'rememberRates', type: 'boolean', default: defaults.rememberRates, meaning: 'rank branch cells by the best rate measured so far' },
    { name: 'rating', type: 'enum', values: PROBE_RATINGS, default: defaults.rating, meaning: "how a cell's two probe impacts make its rate" },
    { name: 'probeRanks', type: 'boolean', default: defaults.probeRanks, meaning: 'branch on the cell the probes rank best' },
    { name: 'alternate', type: 'boolean', default: defaults.alternate, meaning: "alternate restarts between the probes' ranking and `branch`" },
    { name: 'restarts', type: 'boolean', default: defaults.restarts, meaning: 'restart with a growing budget of decisions' },
    { name: 'restartBudget', type: 'integer', min: 1, default: defaults.restartBudget, meaning: 'decisions allowed in the first run' },
    { name: 'restartPlan', type: 'enum', values: ['geometric', 'luby'], default: defaults.restartPlan, meaning: 'how run budgets grow' },
  ];
}

/** Settings from parameters resolved against searchParams. */
export function searchSettings(p: Params): SearchSettings {
  return {
    probing: p.probing as boolean,
    branch: p.branch as BranchHeuristic,
    firstValue: p.first === 'filled' ? FILLED : EMPTY,
    cache: p.cache as boolean,
    probeScope: p.probeScope as SearchSettings['probeScope'],
    rememberRates: p.rememberRates as boolean,
    rating: p.rating as ProbeRating,
    probeRanks: p.probeRanks as boolean,
    alternate: p.alternate as boolean,
    restarts: p.restarts as boolean,
    restartBudget: p.restartBudget as number,
    restartPlan: p.restartPlan as SearchSettings['restartPlan'],
  };
}

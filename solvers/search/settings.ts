import { EMPTY, FILLED } from '../../corpus/model.js';
import type { SolveOptions } from '../api/types.js';
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
 * The `backtrack` strategy's settings, chosen by measurement (random 30x30 puzzles, webpbn and
 * tournament sets). Probing is on: without it the depth-first search thrashes (on random 30x30
 * puzzles over a third of the searches ran past 10 s; webpbn #436 and #803 did not finish).
 * `probing: false` gives plain DFS with the same propagation.
 */
export const DEFAULT_SEARCH: SearchSettings = {
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

type Param = NonNullable<SolveOptions['params']>[string];

const FLAGS = ['probing', 'cache', 'rememberRates', 'probeRanks', 'alternate', 'restarts'] as const;

function flag(name: string, value: Param): boolean {
  if (value === true || value === 'true') return true;
  if (value === false || value === 'false') return false;
  throw new Error(`param ${name} must be true or false, got "${value}"`);
}

function oneOf<T extends string>(name: string, value: Param, allowed: readonly T[]): T {
  const s = String(value) as T;
  if (!allowed.includes(s)) throw new Error(`param ${name} must be one of ${allowed.join(', ')}, got "${value}"`);
  return s;
}

/**
 * Settings from a strategy's `params`, over `defaults`: the flags probing, cache, rememberRates,
 * probeRanks, alternate, restarts (true/false); branch (first|lines|neighbours|density); first
 * (filled|empty); probeScope (local|all); rating (product|min|sqrt|sum); restartPlan
 * (geometric|luby); restartBudget (a positive integer). A bad value throws; other names are
 * ignored (they may belong to another strategy).
 */
export function searchSettings(params: SolveOptions['params'], defaults: SearchSettings): SearchSettings {
  const settings = { ...defaults };
  if (!params) return settings;
  for (const name of FLAGS) if (params[name] !== undefined) settings[name] = flag(name, params[name]);
  if (params.branch !== undefined) settings.branch = oneOf('branch', params.branch, BRANCH_HEURISTICS);
  if (params.first !== undefined) settings.firstValue = oneOf('first', params.first, ['filled', 'empty'] as const) === 'filled' ? FILLED : EMPTY;
  if (params.probeScope !== undefined) settings.probeScope = oneOf('probeScope', params.probeScope, ['local', 'all'] as const);
  if (params.rating !== undefined) settings.rating = oneOf('rating', params.rating, PROBE_RATINGS);
  if (params.restartPlan !== undefined) settings.restartPlan = oneOf('restartPlan', params.restartPlan, ['geometric', 'luby'] as const);
  if (params.restartBudget !== undefined) {
    const budget = Number(params.restartBudget);
    if (!Number.isInteger(budget) || budget < 1) throw new Error(`param restartBudget must be a positive integer, got "${params.restartBudget}"`);
    settings.restartBudget = budget;
  }
  return settings;
}

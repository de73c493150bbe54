import type { Puzzle } from '../../corpus/model.js';
import { resolveParams, type ParamSpec } from '../api/params.js';
import type { SolveOptions, SolveResult, SyncStrategy } from '../api/types.js';
import { BacktrackSearch } from '../search/backtrack.js';
import { BACKTRACK_SETTINGS, PROBE_SETTINGS, searchParams, searchSettings } from '../search/settings.js';

/** A search strategy: its parameters (defaults from `defaults`) and its solve. */
function searchStrategy(name: string, description: string, defaults: typeof BACKTRACK_SETTINGS): SyncStrategy {
  const params: readonly ParamSpec[] = searchParams(defaults);
  return {
    name,
    description,
    params,
    traces: true,
    solve: (puzzle: Puzzle, options: SolveOptions): SolveResult =>
      new BacktrackSearch(puzzle, options, searchSettings(resolveParams(name, params, options.params))).run(),
  };
}

/**
 * Depth-first search with exact line propagation; at every node it probes each unknown cell next
 * to a known one (or to the edge), keeps what the probes force and branches on the cell whose two
 * values both decide the most (a look-ahead choice); restarts with varied choices when a run
 * exceeds its budget.
 */
export const backtrackStrategy = searchStrategy(
  'backtrack',
  'Exact line propagation + depth-first search; probes every candidate cell at each node to learn and to pick the branch; restarts',
  BACKTRACK_SETTINGS,
);

/**
 * The same search with probing limited to the cells next to what the last decision changed:
 * cheaper nodes, weaker pruning and choices.
 */
export const probeStrategy = searchStrategy(
  'probe',
  "Depth-first search with probing around each decision's changes (both values of nearby cells, keeping what they force); restarts",
  PROBE_SETTINGS,
);

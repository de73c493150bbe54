import { withoutGoal, type Puzzle } from '../../corpus/model.js';
import { builtInStrategies } from '../../solvers/strategies/registry.js';
import { deadlineAfter, solveOptions, type SolveResult, type Strategy } from '../../solvers/api/types.js';
import type { Params } from '../../solvers/api/params.js';
import { oneLine, UsageError } from '../io/thrown.js';
import { DEFAULT_MAX_STEPS, ReplayRecorder, type RecordedSteps } from './recorder.js';

/** The built-in strategies that report their steps, in the registry's order. */
export const replayableStrategies = (): string[] => builtInStrategies().filter((s) => s.traces === true).map((s) => s.name);

/**
 * The built-in strategy of that name when it reports its steps; else a usage error naming those
 * that do. A plugin module is refused without being imported: plugins are imported in threads of
 * their own only, and a replay is recorded in this one.
 */
export function replayableStrategy(name: string): Strategy {
  const strategy = builtInStrategies().find((s) => s.name === name);
  if (strategy?.traces !== true)
    throw new UsageError(`--replay: strategy ${oneLine(name)} does not report its steps (these do: ${replayableStrategies().join(', ')})`);
  return strategy;
}

export interface RecordedSolve {
  result: SolveResult;
  steps: RecordedSteps;
  timeMs: number;
}

/**
 * Solves in this thread with a recorder attached, and returns the result with its steps. For a
 * strategy from replayableStrategy: those all poll their deadline, so the soft limit is enough.
 */
export async function recordSolve(
  strategy: Strategy,
  puzzle: Puzzle,
  settings: { maxSolutions: number; timeoutMs: number; params: Params; maxSteps?: number },
): Promise<RecordedSolve> {
  const recorder = new ReplayRecorder(puzzle.width * puzzle.height, settings.maxSteps ?? DEFAULT_MAX_STEPS);
  const options = solveOptions({
    maxSolutions: settings.maxSolutions,
    params: settings.params,
    shouldStop: deadlineAfter(settings.timeoutMs > 0 ? settings.timeoutMs : Infinity),
    trace: recorder,
  });
  const started = performance.now();
  const result = await strategy.solve(withoutGoal(puzzle), options);
  const timeMs = performance.now() - started;
  return { result, steps: recorder.finish(result.grid), timeMs };
}

import { withoutGoal, type Puzzle } from '../../corpus/model.js';
import { builtInStrategies } from '../../solvers/strategies/registry.js';
import { deadlineAfter, solveOptions, type SolveResult, type Strategy } from '../../solvers/api/types.js';
import type { Params } from '../../solvers/api/params.js';
import { UsageError } from '../io/thrown.js';
import { DEFAULT_MAX_STEPS, ReplayRecorder, type RecordedSteps } from './recorder.js';

/** The built-in strategies that report their steps, in the registry's order. */
export const replayableStrategies = (): string[] => builtInStrategies().filter((s) => s.traces === true).map((s) => s.name);

/** Refuses a strategy that does not report its steps, naming those that do. */
export function checkReplayable(strategy: Strategy): void {
  if (strategy.traces !== true)
    throw new UsageError(`--replay: strategy ${strategy.name} does not report its steps (these do: ${replayableStrategies().join(', ')})`);
}

export interface RecordedSolve {
  result: SolveResult;
  steps: RecordedSteps;
  timeMs: number;
}

/**
 * Solves in this thread with a recorder attached (the strategies that trace all poll their
 * deadline, so the soft limit is enough), and returns the result with its steps.
 */
export async function recordSolve(
  strategy: Strategy,
  puzzle: Puzzle,
  settings: { maxSolutions: number; timeoutMs: number; params: Params; maxSteps?: number },
): Promise<RecordedSolve> {
  checkReplayable(strategy);
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

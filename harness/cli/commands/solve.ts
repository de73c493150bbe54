import type { Command } from 'commander';
import { countKnown, describeViolation, gridToRows, verifyGrid } from '../../../corpus/grid.js';
import { loadPuzzle } from '../../../corpus/load.js';
import { refuseInputAsOutput } from '../../../corpus/input-files.js';
import { puzzleLabel, withoutGoal, type Grid, type Puzzle } from '../../../corpus/model.js';
import { renderSvg, renderTerminal } from '../../../corpus/render.js';
import type { Params } from '../../../solvers/api/params.js';
import { loadStrategy } from '../../../solvers/strategies/registry.js';
import { solveOptions, type SolveResult } from '../../../solvers/api/types.js';
import { checkAnswer, malformed, overTime } from '../../results/verify.js';
import { hardLimitMs, SolverPool, taskLimitMs } from '../../run/pool.js';
import { resolveConfigurations } from '../../config/configurations.js';
import { DEFAULT_MEMORY_MB } from '../../run/run.js';
import type { WorkerReply } from '../../results/outcome.js';
import { writeOutputFile } from '../../io/output-path.js';
import { EXIT_FAILED, exitOnInterrupt, NEVER, oneLine, thrownMessage } from '../../io/thrown.js';
import { oneLineText } from '../../../corpus/errors.js';
import { recordSolve, replayableStrategy } from '../../replay/record.js';
import { replayPage } from '../../replay/page.js';
import { DEFAULT_MAX_STEPS, type RecordedSteps } from '../../replay/recorder.js';
import { collectParam, distinctFiles, loadOptionsOf, maxSizeOption, nonNegativeNumber, positiveInt, strategySpec } from '../options.js';

export const DEFAULT_SOLVE_STRATEGY = 'backtrack';
export const DEFAULT_SOLVE_TIMEOUT_S = 60;

interface SolveCommandOptions {
  strategy: string;
  maxSolutions: number;
  timeout: number;
  svg?: string;
  replay?: string;
  json?: boolean;
  param?: Record<string, number | boolean | string>;
  maxSize?: number;
}

/**
 * Everything wrong with a result: each reported solution that fails the clues (one line each),
 * else a false claim about them (a uniqueness or impossibility claim the goal refutes, a status
 * that does not match the number of solutions, `solved` when uniqueness was asked), as `run` judges them.
 */
export function wrongAnswers(puzzle: Puzzle, r: SolveResult, maxSolutions?: number): string[] {
  const shape = malformed(puzzle, r, maxSolutions);
  if (shape) return [shape];
  const wrong: string[] = [];
  r.solutions.forEach((s, i) => {
    const violations = verifyGrid(puzzle, s);
    if (violations.length > 0) wrong.push(`solution ${i + 1} is wrong: ${violations.map(describeViolation).join('; ')}`);
  });
  if (wrong.length > 0) return wrong;
  const claim = checkAnswer(puzzle, r, maxSolutions);
  return claim ? [claim] : [];
}

/** Cells where two grids differ (1) or agree (0). */
export function differingCells(a: Grid, b: Grid): Uint8Array {
  const mark = new Uint8Array(a.length);
  for (let i = 0; i < a.length; i++) mark[i] = a[i] !== b[i] ? 1 : 0;
  return mark;
}

const METRIC_FIELDS = ['deadEnds', 'decisions', 'lineSolves', 'maxDepth'] as const;

/**
 * A solve that gave no result: the strategy threw, ran out of memory or was stopped at the hard time limit.
 * Its input was fine, so it exits 1 (as an `error` row makes `run` exit 1), with one line, not 2.
 */
class FailedSolve extends Error {
  /** The status `run` records for it. */
  status: 'error' | 'timeout' | 'memory' = 'error';
}

/**
 * JSON on one line that no terminal acts on: JSON.stringify leaves DEL, the C1 controls and U+2028/U+2029 raw
 * (a file name may hold them); written as `\uXXXX` they are the same JSON value.
 */
const jsonLine = (value: unknown) =>
  JSON.stringify(value).replace(/[\u007f-\u009f\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

const failed = (name: string, why: string) => new FailedSolve(`strategy ${oneLine(name)} failed: ${oneLine(why)}`);

/** One solve on a one-thread pool, with `run`'s hard time limit; a failure is one line, as `run` records it. */
async function solveOnWorker(puzzle: Puzzle, opts: SolveCommandOptions, name: string, params: Params): Promise<WorkerReply> {
  const pool = new SolverPool({ workers: 1, memoryMb: DEFAULT_MEMORY_MB });
  // The event loop stays free while the worker solves: Ctrl-C closes the thread and exits 130. The
  // task that closing fails is no failed solve: nothing more is reported.
  let interrupted = false;
  const release = exitOnInterrupt(
    () => 'interrupted',
    () => {
      interrupted = true;
      return pool.close();
    },
  );
  try {
    const timeoutMs = opts.timeout * 1000;
    const task = { puzzle: withoutGoal(puzzle), strategySpec: opts.strategy, maxSolutions: opts.maxSolutions, timeoutMs, warmup: 0, params };
    const outcome = await pool.run(task).catch(async (err: unknown) => (interrupted ? NEVER : Promise.reject(err)));
    if (interrupted) await NEVER;
    if (outcome.kind === 'done') return outcome.reply;
    if (outcome.kind === 'killed')
      throw Object.assign(new FailedSolve(`strategy ${oneLine(name)} stopped at the hard time limit (${(hardLimitMs(timeoutMs) / 1000).toFixed(1)} s) without returning`), { status: 'timeout' as const });
    const failure = failed(name, outcome.kind === 'memory' ? `out of memory (${outcome.message})` : outcome.message);
    if (outcome.kind === 'memory') failure.status = 'memory';
    throw failure;
  } finally {
    release();
    await pool.close();
  }
}

export function registerSolve(program: Command): void {
  program
    .command('solve')
    .description('solve one puzzle with one strategy and show the grid, the status and the metrics')
    .argument('<puzzle>', 'puzzle file (FILE#N for a member of a bundle)')
    .option('-s, --strategy <name>', 'registered strategy name or module path', DEFAULT_SOLVE_STRATEGY)
    .option('--max-solutions <n>', 'stop after this many solutions (2 checks uniqueness)', positiveInt('--max-solutions'), 2)
    .option('--timeout <seconds>', 'time limit (0: none)', nonNegativeNumber('--timeout'), DEFAULT_SOLVE_TIMEOUT_S)
    .option('--svg <file>', 'also draw the final grid as an SVG picture')
    .option('--replay <file>', `also write an HTML page that replays the solve step by step (line-based strategies; at most ${DEFAULT_MAX_STEPS} steps recorded)`)
    .option('--json', 'print one JSON object instead of the picture')
    .option('--param <key=value>', 'strategy parameter (repeatable)', collectParam)
    .addOption(maxSizeOption())
    .action(async (puzzlePath: string, opts: SolveCommandOptions) => {
      try {
        await solveCommand(puzzlePath, opts);
      } catch (err) {
        if (!(err instanceof FailedSolve)) throw err;
        process.stderr.write(`nonobench: ${err.message}\n`);
        process.exitCode = EXIT_FAILED;
      }
    });
}

/** structuredClone as it was before the strategy loaded: a plugin shares this thread, and may replace it. */
const clone = structuredClone;

/** `nonobench solve PUZZLE`: bad input throws (exit 2), a failed solve throws FailedSolve (exit 1). */
async function solveCommand(puzzlePath: string, opts: SolveCommandOptions): Promise<void> {
  distinctFiles([['--svg', opts.svg], ['--replay', opts.replay]]);
  const puzzle = loadPuzzle(puzzlePath, loadOptionsOf(opts));
  // Before solving, and before either picture is written: one that would replace the puzzle file.
  for (const output of [opts.svg, opts.replay]) if (output !== undefined) refuseInputAsOutput(output);
  // Parameters are checked before solving, so that a misspelt or bad one is a usage error, not a failed solve.
  const [config] = await resolveConfigurations([{ strategy: strategySpec(opts.strategy), params: opts.param ?? {} }], {}, taskLimitMs(opts.timeout * 1000, 0));
  const { params } = config!;
  // With --json a failed solve is still one JSON object, as it is still a row in `run` (status error, timeout or memory, no counters).
  const failedJson = (status: string, error: string) => {
    const out: Record<string, unknown> = { puzzle: puzzle.id, source: puzzle.meta.source ?? puzzlePath, strategy: config.strategy, status, cellsResolved: null };
    for (const f of METRIC_FIELDS) out[f] = null;
    Object.assign(out, { solutionsFound: null, extra: {}, grid: null, solutions: [], error });
    process.stdout.write(`${jsonLine(out)}\n`);
  };
  try {
    await solveAndPrint(puzzle, puzzlePath, opts, config!, params, failedJson);
  } catch (err) {
    if (opts.json && err instanceof FailedSolve) failedJson(err.status, err.message);
    throw err;
  }
}

async function solveAndPrint(
  puzzle: Puzzle,
  puzzlePath: string,
  opts: SolveCommandOptions,
  config: { strategy: string; spec: string },
  params: Params,
  failedJson: (status: string, error: string) => void,
): Promise<void> {
  let result: SolveResult;
  let timeMs: number;
  let steps: RecordedSteps | undefined;
  if (opts.replay !== undefined) {
    // In this thread, where the recorder is: the strategies that can replay all poll their deadline.
    const strategy = replayableStrategy(opts.strategy);
    try {
      ({ result, timeMs, steps } = await recordSolve(strategy, puzzle, { maxSolutions: opts.maxSolutions, timeoutMs: opts.timeout * 1000, params }));
    } catch (err) {
      throw failed(strategy.name, thrownMessage(err));
    }
  } else if (opts.timeout > 0) {
    // On a worker thread, as in `run`, so that the hard limit stops even a strategy that never polls.
    const solved = await solveOnWorker(puzzle, opts, config.strategy, params);
    result = solved.result;
    timeMs = solved.timeMs;
  } else {
    // No limit: in this thread.
    const strategy = await loadStrategy(config.spec);
    const options = solveOptions({ maxSolutions: opts.maxSolutions, params });
    const started = performance.now();
    try {
      result = await strategy.solve(withoutGoal(puzzle), options);
    } catch (err) {
      throw failed(strategy.name, thrownMessage(err));
    }
    timeMs = performance.now() - started;
    try {
      // Plain data, as a worker thread would send it: a getter that throws is the strategy's failure, as in `run`.
      result = clone(result);
    } catch (err) {
      throw failed(strategy.name, `its result cannot be recorded: ${thrownMessage(err)}`);
    }
  }

  // A result of the wrong shape is an `error` row in `run`, a wrong answer a `wrong` one.
  const shape = malformed(puzzle, result, opts.maxSolutions);
  const wrong = wrongAnswers(puzzle, result, opts.maxSolutions);
  for (const line of wrong) process.stderr.write(`${shape ? 'error' : 'wrong'}: ${oneLine(line)}\n`);
  if (wrong.length > 0) process.exitCode = EXIT_FAILED;
  if (shape) {
    if (opts.json) failedJson('error', shape);
    return;
  }
  // An answer after the time limit is none, as in `run`.
  const late = wrong.length === 0 ? overTime({ status: result.status, error: '' }, timeMs, opts.timeout > 0 ? opts.timeout * 1000 : Infinity) : undefined;
  if (late && late.status !== result.status) {
    process.stderr.write(`nonobench: ${late.error}\n`);
    result = { ...result, status: 'timeout' };
  }

  const { width, height } = puzzle;
  const [first, second] = result.solutions;
  const mark = first && second ? differingCells(first, second) : undefined;
  if (opts.svg) writeOutputFile(opts.svg, renderSvg(result.grid, width, height, { puzzle, ...(mark ? { mark } : {}) }));
  if (opts.replay !== undefined && steps)
    writeOutputFile(opts.replay, replayPage({ puzzle, strategy: config.strategy, result, steps, maxSteps: DEFAULT_MAX_STEPS }));

  const metrics = result.metrics;
  // Counted from the grids, as `run` counts them, not taken from the strategy.
  const cellsResolved = countKnown(result.grid);
  const solutionsFound = result.solutions.length;
  // The status `run` records: a wrong answer is `wrong`, whatever the strategy claimed.
  const status = wrong.length > 0 ? 'wrong' : result.status;
  // A counter the strategy left out is an empty CSV cell in `run`: null here, never undefined.
  const counter = (f: (typeof METRIC_FIELDS)[number]) => (typeof metrics[f] === 'number' ? metrics[f] : null);
  if (opts.json) {
    const out: Record<string, unknown> = { puzzle: puzzle.id, source: puzzle.meta.source ?? puzzlePath, strategy: config.strategy };
    out.status = status;
    if (status !== result.status) out.claimed = result.status;
    out.cellsResolved = cellsResolved;
    for (const f of METRIC_FIELDS) out[f] = counter(f);
    out.solutionsFound = solutionsFound;
    out.extra = metrics.extra ?? {};
    out.timeMs = Math.round(timeMs * 1000) / 1000;
    out.grid = gridToRows(result.grid, width);
    out.solutions = result.solutions.map((s) => gridToRows(s, width));
    if (wrong.length > 0) out.wrong = wrong;
    process.stdout.write(`${jsonLine(out)}\n`);
    return;
  }

  const color = !!process.stdout.isTTY;
  // The label quotes the file name and the title, either of which may hold control characters.
  const lines: string[] = [oneLineText(`${puzzleLabel(puzzle)} (${width}×${height}) with ${config.strategy}`), ''];
  lines.push(renderTerminal(result.grid, width, { color, clues: puzzle, ...(mark ? { mark } : {}) }));
  if (second && mark) {
    lines.push('second solution (marked cells differ from the first):', '');
    lines.push(renderTerminal(second, width, { color, clues: puzzle, mark }));
  }
  lines.push(status === result.status ? `status: ${status}` : `status: ${status} (the strategy claimed ${result.status})`);
  lines.push(`time: ${timeMs.toFixed(1)} ms`);
  lines.push(`cells resolved: ${cellsResolved} of ${width * height}`);
  lines.push(
    `line solves: ${counter('lineSolves') ?? '-'}, decisions: ${counter('decisions') ?? '-'}, dead ends: ${counter('deadEnds') ?? '-'}, max depth: ${counter('maxDepth') ?? '-'}, solutions found: ${solutionsFound}`,
  );
  const extra = Object.entries(metrics.extra ?? {});
  if (extra.length > 0) lines.push(oneLineText(`extra: ${extra.map(([k, v]) => `${k}=${v}`).join(', ')}`));
  if (opts.replay !== undefined && steps) {
    const left = steps.omitted > 0 ? ` (${steps.omitted} more left out)` : '';
    lines.push(oneLineText(`replay: ${steps.kind.length} steps${left} in ${opts.replay}`));
  }
  process.stdout.write(`${lines.join('\n')}\n`);
}

import { existsSync, statSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { InputError } from '../../corpus/errors.js';
import { loadCorpus } from '../../corpus/load.js';
import { withoutGoal, type Puzzle } from '../../corpus/model.js';
import { BUNDLED_CORPUS } from '../../corpus/paths.js';
import type { Params } from '../../solvers/api/params.js';
import { resolveConfigurations, type ConfigSpec } from '../config/configurations.js';
import { CsvAppender, readCsvInput } from '../results/csv.js';
import { buildRow, RUN_COLUMNS, rowValues, taskKey, type RunFields, type RunRecord } from '../results/row.js';
import { runEnvironment } from './environment.js';
import { judge } from '../results/verify.js';
import { SolverPool, taskLimitMs } from './pool.js';
import { killAllExternal } from '../external/process.js';
import { runExternalTask } from '../external/run-external.js';
import type { TaskOutcome } from '../results/outcome.js';
import { createProgress } from './progress.js';
import { RunSummary } from '../results/summary.js';
import { buildTasks, inRounds, shardTasks, type Shard, type Task } from './tasks.js';

export interface RunOptions {
  /** Puzzle paths (files, bundles, FILE#N, directories); the bundled corpus when empty. */
  paths: string[];
  /** Configurations: `--strategies` items (`sat`, `sat:encoding=automaton`, `./plugin.mjs`, `NAME=STRATEGY:KEY=VALUE`) or specs. */
  strategies: (string | ConfigSpec)[];
  repeat: number;
  warmup: number;
  /** Per-solve limit in seconds; 0 for none. */
  timeoutS: number;
  memoryMb: number;
  workers: number;
  maxSolutions: number;
  out: string;
  shard?: Shard;
  /** Append to this CSV, skipping the tasks it already records (a new file when there is none). */
  resume?: string;
  /** Largest accepted puzzle width or height (the loader's default when absent). */
  maxSize?: number;
  quiet: boolean;
  /** Parameters given to every configuration whose strategy declares them (a plugin declaring none gets all); a configuration's own values win. */
  params?: Params;
  /** The benchmark definition the run came from, as recorded (`FILE@HASH`). */
  definition?: string;
  /** Where progress, load errors and the summary go (stderr by default). */
  log?: NodeJS.WriteStream;
}

export interface RunResult {
  out: string;
  summary: RunSummary;
  tasksRun: number;
  tasksSkipped: number;
  loadErrors: number;
  /** 1 when any row is `wrong` or `error`, 2 when some input could not be read, else 0. */
  exitCode: number;
}

export const defaultWorkers = () => Math.max(1, availableParallelism());
export const DEFAULT_TIMEOUT_S = 10;
export const DEFAULT_MEMORY_MB = 2048;

/**
 * Keys of the tasks a run CSV being resumed already records: none when it does not exist yet or is
 * empty. Anything but a run CSV of these columns is refused before the file is touched, since rows
 * appended to it would sit under a foreign header.
 */
function recordedTasks(path: string): Set<string> {
  if (!existsSync(path) || statSync(path).size === 0) return new Set();
  const parsed = readCsvInput(path, 'cannot resume: ');
  if (parsed.columns.join(',') !== RUN_COLUMNS.join(','))
    throw new InputError(path, 1, 'cannot resume: not a run CSV (its header is not the run columns)');
  return new Set((parsed.records as RunRecord[]).map((r) => taskKey(r.puzzle_id!, r.puzzle_path!, r.config!, r.rep!)));
}

/**
 * Runs every (puzzle, strategy, repetition) task on a pool of worker threads, keeping at most one
 * task per worker in flight so each task's clock starts when it does, and appends one CSV row per
 * task the moment it finishes.
 */
export async function runCorpus(options: RunOptions): Promise<RunResult> {
  // The threads start first, so that their start-up overlaps with reading the corpus.
  const pool = new SolverPool({ workers: options.workers, memoryMb: options.memoryMb });
  try {
    return await runOnPool(pool, options);
  } finally {
    await pool.close();
  }
}

async function runOnPool(pool: SolverPool, options: RunOptions): Promise<RunResult> {
  const log = options.log ?? process.stderr;
  // Checked first: a file that cannot be resumed stops the run before anything else is reported.
  const done = options.resume !== undefined ? recordedTasks(options.resume) : undefined;
  const paths = options.paths.length > 0 ? options.paths : [BUNDLED_CORPUS];
  const { puzzles, errors } = loadCorpus(paths, options.maxSize !== undefined ? { maxSize: options.maxSize } : {});
  for (const e of errors) log.write(`${e.message}\n`);

  const configs = await resolveConfigurations(options.strategies, options.params, taskLimitMs(options.timeoutS > 0 ? options.timeoutS * 1000 : Infinity, 0));
  let tasks = buildTasks(puzzles, configs, options.repeat);
  if (options.shard) tasks = shardTasks(tasks, options.shard, configs.length * options.repeat);
  const out = options.resume ?? options.out;
  let skipped = 0;
  if (done) {
    const before = tasks.length;
    tasks = tasks.filter((t) => !done.has(taskKey(t.puzzle.id, t.puzzle.meta.source ?? '', t.config.name, t.rep)));
    skipped = before - tasks.length;
  }
  tasks = inRounds(tasks);

  const env = runEnvironment();
  const csv = new CsvAppender(out, RUN_COLUMNS, options.resume !== undefined);
  const summary = new RunSummary(configs.map((c) => c.name));
  const progress = createProgress(tasks.length, log, options.quiet);
  const timeoutMs = options.timeoutS > 0 ? options.timeoutS * 1000 : Infinity;

  const runFields: RunFields = {
    ...env,
    timeout_s: options.timeoutS || '',
    max_solutions: options.maxSolutions,
    workers: options.workers,
    warmup: options.warmup,
    memory_mb: options.memoryMb,
    definition: options.definition ?? '',
  };

  const record = (task: Task, outcome: TaskOutcome) => {
    const judged = judge(task.puzzle, outcome, options.maxSolutions);
    const { config } = task;
    const rowTask = { index: task.index, puzzle: task.puzzle, strategy: config.strategy, config: config.name, strategyFile: config.file, rep: task.rep, params: config.paramsText };
    const reply = outcome.kind === 'done' ? outcome.reply : undefined;
    const usage = outcome.usage ?? { cpuMs: reply?.cpuMs ?? '', peakRssKb: '' };
    csv.write(rowValues(buildRow(runFields, rowTask, judged, reply?.calibMs ?? '', usage)));
    summary.add(config.name, judged.status, judged.time_ms, judged.dead_ends);
    progress.tick({ timeouts: summary.count('timeout'), errors: summary.count('error') + summary.count('memory') + summary.count('wrong') });
  };

  // SIGINT: every finished row is already on disk; stop the workers and leave.
  const onSigint = () => {
    killAllExternal();
    progress.stop();
    csv.close();
    log.write(`\ninterrupted: the rows finished so far are in ${out}\n`);
    void pool.close().finally(() => process.exit(130));
  };
  process.once('SIGINT', onSigint);

  try {
    // Strategies get the clues only (see withoutGoal); one stripped copy per puzzle, shared by its tasks.
    const hidden = new Map<Puzzle, Puzzle>();
    const shown = (p: Puzzle) => hidden.get(p) ?? hidden.set(p, withoutGoal(p)).get(p)!;
    // External solvers run no warm-up solves: one process per task.
    const limitMs = taskLimitMs(timeoutMs, 0);
    const start = (task: Task): Promise<TaskOutcome> =>
      task.config.external
        ? runExternalTask({
            puzzle: shown(task.puzzle),
            solver: task.config.external,
            maxSolutions: options.maxSolutions,
            timeoutMs,
            hardLimitMs: limitMs,
            memoryMb: options.memoryMb,
          })
        : pool.run({
        puzzle: shown(task.puzzle),
        strategySpec: task.config.spec,
        maxSolutions: options.maxSolutions,
        timeoutMs,
        warmup: options.warmup,
        params: task.config.params,
      });
    let next = 0;
    const worker = async () => {
      let task = tasks[next++];
      let running = task && start(task);
      while (task && running) {
        const outcome = await running;
        const finished = task;
        // Hand the thread its next task before recording this one, so it does not wait on the CSV.
        task = tasks[next++];
        running = task && start(task);
        record(finished, outcome);
      }
    };
    await Promise.all(Array.from({ length: Math.min(options.workers, tasks.length) }, worker));
  } finally {
    process.off('SIGINT', onSigint);
    progress.stop();
    csv.close();
  }

  const failed = summary.count('wrong') + summary.count('error') > 0;
  return {
    out,
    summary,
    tasksRun: tasks.length,
    tasksSkipped: skipped,
    loadErrors: errors.length,
    exitCode: failed ? 1 : errors.length > 0 ? 2 : 0,
  };
}

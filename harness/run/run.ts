import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { loadCorpus } from '../../corpus/load.js';
import { withoutGoal, type Puzzle } from '../../corpus/model.js';
import { BUNDLED_CORPUS } from '../../corpus/paths.js';
import type { Params } from '../../solvers/api/params.js';
import { parseConfigItem, resolveConfigurations, type ConfigSpec } from '../config/configurations.js';
import { isModuleSpecifier } from '../../solvers/strategies/registry.js';
import { CsvAppender } from '../results/csv.js';
import { buildRow, RUN_COLUMNS, rowValues, type RunFields } from '../results/row.js';
import { lockOutput, type OutputLock } from '../io/output-lock.js';
import { refuseInputAsOutput } from '../../corpus/input-files.js';
import { checkResumable, keepRecordedPaths, recordedDefinition, recordedTasks, resumeKey } from './resume.js';
import { runEnvironment } from './environment.js';
import { judge } from '../results/verify.js';
import { SolverPool, taskLimitMs, WARMUP_PUZZLES } from './pool.js';
import { killAllExternal } from '../external/process.js';
import { runExternalTask } from '../external/run-external.js';
import { exitAfterStop, NEVER, oneLine, thrownMessage } from '../io/thrown.js';
import type { TaskOutcome } from '../results/outcome.js';
import { createProgress } from './progress.js';
import { RunSummary } from '../results/summary.js';
import { buildTasks, inRounds, shardTasks, spreadPuzzles, type Shard, type Task } from './tasks.js';

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
  /** Whether the command takes `--resume` (bench-check does not): its messages then say how to go on. */
  resumable?: boolean;
}

export interface RunResult {
  out: string;
  summary: RunSummary;
  tasksRun: number;
  tasksSkipped: number;
  loadErrors: number;
  /** 1 when any row is `wrong` or `error` or the CSV could not be written, 2 when some input could not be read, else 0. */
  exitCode: number;
  /** Why the run stopped before its last task: its CSV could not be written (a full disk). */
  stopped?: string;
  /** The first wrong and error rows, one line each (configuration, puzzle, status: message), and how many there were in all. */
  failures: string[];
  failureCount: number;
  /** Wall time of the whole run, from the start to the last row, in seconds. */
  wallS: number;
}

/** How many wrong and error rows the end of a run lists; the CSV has them all. */
const LISTED_FAILURES = 10;

export const defaultWorkers = () => Math.max(1, availableParallelism());
export const DEFAULT_TIMEOUT_S = 10;
export const DEFAULT_MEMORY_MB = 2048;

/**
 * Runs every (puzzle, strategy, repetition) task on a pool of worker threads, keeping at most one
 * task per worker in flight so each task's clock starts when it does, and appends one CSV row per
 * task the moment it finishes.
 */
export async function runCorpus(options: RunOptions): Promise<RunResult> {
  // The threads start first, so that their start-up overlaps with reading the corpus.
  const log = options.log ?? process.stderr;
  const pool = new SolverPool({ workers: options.workers, memoryMb: options.memoryMb, sharedAtStart: runsBuiltIn(options.strategies), onColdThreads: (line) => log.write(`${line}\n`) });
  try {
    return await runOnPool(pool, options);
  } finally {
    await pool.close();
  }
}

/** Whether a configuration runs a built-in strategy (on the shared threads); one that does not parse is counted as one, to be refused later. */
export function runsBuiltIn(specs: readonly (string | ConfigSpec)[]): boolean {
  return specs.some((raw) => {
    try {
      const spec = typeof raw === 'string' ? parseConfigItem(raw) : raw;
      return spec.external === undefined && !isModuleSpecifier(spec.strategy);
    } catch {
      return true;
    }
  });
}

async function runOnPool(pool: SolverPool, options: RunOptions): Promise<RunResult> {
  const started = performance.now();
  const log = options.log ?? process.stderr;
  const out = options.resume ?? options.out;
  // A second run writing the same file is refused here, before it reads or touches it.
  const unlock = lockOutput(out, (line) => log.write(`${line}\n`));
  try {
    return await runLocked(pool, options, out, started, unlock);
  } finally {
    unlock();
  }
}

async function runLocked(pool: SolverPool, options: RunOptions, out: string, started: number, unlock: OutputLock): Promise<RunResult> {
  const log = options.log ?? process.stderr;
  // Checked first: a file that cannot be resumed stops the run before anything else is reported.
  const done = options.resume !== undefined ? recordedTasks(options.resume) : undefined;
  const paths = options.paths.length > 0 ? options.paths : [BUNDLED_CORPUS];
  const { puzzles, errors } = loadCorpus(paths, options.maxSize !== undefined ? { maxSize: options.maxSize } : {});
  for (const e of errors) log.write(`${e.message}\n`);
  const configs = await resolveConfigurations(options.strategies, options.params, taskLimitMs(options.timeoutS > 0 ? options.timeoutS * 1000 : Infinity, 0));
  // Before any task runs: its rows would replace a puzzle file, plugin module or solver program read (a resumed file is read on purpose).
  if (options.resume === undefined) refuseInputAsOutput(out);
  let tasks = buildTasks(puzzles, configs, options.repeat);
  // Before anything is written: rows run with other settings, or whose task numbers name other tasks, are not appended to.
  if (done) {
    checkResumable(done, { tasks, repeat: options.repeat, timeoutS: options.timeoutS, maxSolutions: options.maxSolutions, warmup: options.warmup, definition: options.definition ?? '' });
    keepRecordedPaths(done, puzzles, configs.length * options.repeat);
  }
  if (options.shard) tasks = shardTasks(tasks, options.shard, configs.length * options.repeat);
  let skipped = 0;
  if (done) {
    const before = tasks.length;
    tasks = tasks.filter((t) => !done.tasks.has(resumeKey(t.puzzle.id, t.index, t.config.name, t.rep)));
    skipped = before - tasks.length;
  }
  tasks = inRounds(tasks);

  const env = runEnvironment();
  // Opened at the first row, so that a run that records nothing (no puzzle readable) leaves the file as it was.
  let csv: CsvAppender | undefined;
  const appender = () => (csv ??= openCsv());
  const openCsv = () => {
    // A run whose thread was blocked past the lock's 10 s (reading a named pipe) may have lost its lock to another run: the file is that run's now.
    if (!unlock.held()) throw new Error('another run took over its lock while this one was blocked: the file is left as that run writes it');
    return new CsvAppender(out, RUN_COLUMNS, options.resume !== undefined);
  };
  const closeCsv = () => {
    try {
      csv?.close();
    } catch {
      // fsync refused (a device such as /dev/null, a full disk): the rows were written as they came.
    }
  };
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
    definition: (done ? recordedDefinition(done, options.definition) : options.definition) ?? '',
  };

  // How to go on, in a command that takes --resume.
  const goOn = (before: string, after: string) => (options.resumable === false ? '' : `${before}--resume ${oneLine(out)} goes on${after}`);
  let recorded = 0;
  let stopped: string | undefined;
  let interrupted = false;
  const failures: string[] = [];
  let failureCount = 0;
  const record = (task: Task, outcome: TaskOutcome) => {
    if (interrupted) return; // the CSV is closed: the process is ending
    const judged = judge(task.puzzle, outcome, options.maxSolutions, timeoutMs);
    const { config } = task;
    const rowTask = { index: task.index, puzzle: task.puzzle, strategy: config.strategy, config: config.name, strategyFile: config.file, rep: task.rep, params: config.paramsText };
    const reply = outcome.kind === 'done' ? outcome.reply : undefined;
    const usage = outcome.usage ?? { cpuMs: reply?.cpuMs ?? '', peakRssKb: '' };
    try {
      appender().write(rowValues(buildRow(runFields, rowTask, judged, reply?.calibMs ?? '', usage)));
    } catch (err) {
      // Nothing more can be recorded: no task is started after this one, and the run says why.
      const kept = recorded > 0 ? 'the rows recorded before are kept' : 'no row was recorded';
      // A file whose lock another run took over is that run's: --resume would append to its rows.
      stopped ??= `cannot write ${oneLine(out)} (${thrownMessage(err)}): ${kept}${unlock.held() ? goOn('; ', ' once it can be written') : ''}`;
      return;
    }
    recorded++;
    if (judged.status === 'wrong' || judged.status === 'error') {
      if (failureCount++ < LISTED_FAILURES) failures.push(`${oneLine(config.name)}  ${oneLine(task.puzzle.meta.source ?? task.puzzle.id)}  ${judged.status}: ${judged.error}`);
    }
    summary.add(config.name, { ...judged, cpu_ms: usage.cpuMs, timeout_s: runFields.timeout_s });
    progress.tick({ timeouts: summary.count('timeout'), errors: summary.count('error') + summary.count('memory') + summary.count('wrong') });
  };

  // SIGINT, SIGTERM or SIGHUP: every finished row is already on disk; the tasks in flight end with the process.
  const onSignal = (signal: NodeJS.Signals) => {
    // A second signal while the threads close (Ctrl-C, then SIGTERM) finds the run already ending.
    if (interrupted) return;
    interrupted = true;
    killAllExternal();
    progress.stop();
    closeCsv();
    unlock();
    // The file is opened at the first row: a run stopped before it left the file as it was.
    const kept = recorded > 0 ? `the ${recorded} rows finished are in ${oneLine(out)}${goOn(' (', ')')}` : `no row was finished, and ${oneLine(out)} is left as it was`;
    log.write(`\ninterrupted by ${signal}: ${kept}\n`);
    exitAfterStop(signal, 128 + (signal === 'SIGINT' ? 2 : signal === 'SIGHUP' ? 1 : 15), () => pool.close());
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  process.once('SIGHUP', onSignal);

  try {
    // Strategies get the clues only (see withoutGoal); one stripped copy per puzzle, shared by its tasks.
    const hidden = new Map<Puzzle, Puzzle>();
    const shown = (p: Puzzle) => hidden.get(p) ?? hidden.set(p, withoutGoal(p)).get(p)!;
    if (options.warmup > 0) pool.warmUpOn(spreadPuzzles(tasks, WARMUP_PUZZLES).map(shown), configs.filter((c) => !c.external));
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
      let task: Task | undefined = tasks[next++];
      let running: Promise<TaskOutcome> | undefined = task && start(task);
      while (task && running) {
        const outcome = await running;
        // The tasks in flight end with the process: nothing more is started or recorded.
        if (interrupted) await NEVER;
        const finished = task;
        // Hand the thread its next task before recording this one, so it does not wait on the CSV.
        task = stopped ? undefined : tasks[next++];
        running = task && start(task);
        record(finished, outcome);
      }
    };
    await Promise.all(Array.from({ length: Math.min(options.workers, tasks.length) }, worker));
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    process.off('SIGHUP', onSignal);
    progress.stop();
    // A run with nothing to record still leaves its (empty) CSV, unless some input was bad: then the file is left as it was.
    // Not again after a row could not be written: that failure is the run's result, said below.
    if (!csv && !stopped && errors.length === 0 && !existsSync(out)) {
      try {
        appender();
      } catch (err) {
        stopped = `cannot write ${oneLine(out)} (${thrownMessage(err)})`;
      }
    }
    closeCsv();
  }

  const failed = summary.count('wrong') + summary.count('error') > 0;
  return {
    out,
    summary,
    tasksRun: recorded,
    tasksSkipped: skipped,
    loadErrors: errors.length,
    exitCode: failed || stopped ? 1 : errors.length > 0 ? 2 : 0,
    ...(stopped ? { stopped } : {}),
    failures,
    failureCount,
    wallS: (performance.now() - started) / 1000,
  };
}

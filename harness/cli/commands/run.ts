import { existsSync } from 'node:fs';
import { Command, CommanderError, Option, type OptionValues } from 'commander';
import { DEFAULT_MEMORY_MB, DEFAULT_TIMEOUT_S, defaultWorkers, runCorpus } from '../../run/run.js';
import { parseShard, TooManyTasks } from '../../run/tasks.js';
import { checkWorkers, collectParam, maxSizeOption, memoryMb, nonEmpty, nonNegativeNumber, pathsWithSuite, positiveInt, suiteOption, warmupCount } from '../options.js';
import { parseConfigList, resolveConfigurations } from '../../config/configurations.js';
import { isModuleSpecifier } from '../../../solvers/strategies/registry.js';
import { ParamError } from '../../../solvers/api/params.js';
import { UsageError } from '../../io/thrown.js';
import { InputError, oneLineText } from '../../../corpus/errors.js';
import { defaultRunsPath } from '../../io/output-path.js';
import { VERSION } from '../../run/version.js';

/** `run`'s command line: its arguments, options and their parsers, without what it does. */
function defineRun(program: Command): Command {
  return program
    .command('run')
    .description('solve puzzles with strategies on worker threads and record one CSV row per task')
    .argument('[paths...]', 'puzzle files, bundles, FILE#N members or directories (default: the bundled corpus)')
    .option('-s, --strategies <list>', 'comma-separated configurations: [NAME=]STRATEGY[:KEY=VALUE]… (a registry name or module path), or "all"', 'all')
    .option('--repeat <n>', 'measured repetitions per puzzle and strategy', positiveInt('--repeat'), 1)
    .option('--warmup <n>', "unmeasured warm-up, each solve stopped at 10 ms: n solves of each task's puzzle before its measured one, and before its first task each worker thread runs n rounds over up to 64 of the run's puzzles with every configuration (at most 0.3 s per configuration a round), so that the first repetition is as warm as the others; 0: none", warmupCount, 1)
    .option('--timeout <seconds>', 'time limit per solve (0: none)', nonNegativeNumber('--timeout'), DEFAULT_TIMEOUT_S)
    .option('--memory <mb>', 'heap limit per worker thread in MiB', memoryMb, DEFAULT_MEMORY_MB)
    .addOption(new Option('--workers <n>', 'worker threads').argParser(positiveInt('--workers')).default(defaultWorkers(), 'the number of cores'))
    .option('--max-solutions <n>', 'stop each solve after this many solutions', positiveInt('--max-solutions'), 2)
    .option('--out <file>', 'CSV to write (default: reports/runs/<timestamp>.csv)')
    .option('--shard <K/N|auto>', 'run only the K-th of N deterministic slices of the tasks; auto: K and N from Slurm or Kubernetes job-array variables', nonEmpty('--shard'))
    .option('--shard-count <n>', 'with --shard auto: the number of slices (a Kubernetes indexed Job\'s completions; overrides Slurm\'s count)', positiveInt('--shard-count'))
    .option('--resume <file>', 'append to this run CSV (a new one if it does not exist), skipping the tasks it already records', nonEmpty('--resume'))
    .option('--param <key=value>', 'strategy parameter (repeatable)', collectParam)
    .option('--config <file>', 'a benchmark definition (YAML or JSON): puzzles, configurations, settings; options given here override it')
    .addOption(suiteOption())
    .addOption(maxSizeOption())
    .option('-q, --quiet', 'no progress output');
}

/**
 * What `run` makes of its arguments before it loads a puzzle or a strategy, each check in the order
 * `run` makes it: a bad value throws the usage error `run` gives. Warnings go to `log`.
 */
async function runPlan(paths: string[], o: OptionValues, command: Command, log?: { write(text: string): unknown }) {
  if (o.shardCount !== undefined && o.shard?.trim() !== 'auto') throw new UsageError('--shard-count goes with --shard auto');
  if (o.resume !== undefined && o.out !== undefined) throw new UsageError('--resume FILE writes to FILE: give --out or --resume, not both');
  // Loaded only for --config: YAML and zod are many modules, and every run would pay for them.
  const def = o.config !== undefined ? (await import('../../config/definition.js')).loadDefinition(o.config) : undefined;
  // An option given on the command line wins over the definition, which wins over the defaults.
  const given = (name: string) => command.getOptionValueSource(name) === 'cli';
  const setting = <T>(name: string, fromFile: T | undefined): T => (given(name) || fromFile === undefined ? o[name] : fromFile);
  const puzzlePaths = paths.length > 0 || o.suite !== undefined || !def ? pathsWithSuite(paths, o.suite) : def.paths;
  try {
    checkWorkers(setting('workers', def?.settings.workers), undefined, log);
  } catch (err) {
    const at = given('workers') ? undefined : def?.workersAt;
    if (at && err instanceof UsageError) throw new InputError(at.file, at.line, err.message.replace(/^--workers/, 'workers:'));
    throw err;
  }
  // Parsed only: a module path is checked for its name, not loaded.
  const strategies = def && !given('strategies') ? def.configurations : parseConfigList(o.strategies);
  const shard = o.shard !== undefined ? parseShard(o.shard, process.env, o.shardCount) : undefined;
  return { def, given, setting, puzzlePaths, strategies, shard };
}

/** Discards what a check would print: the run it checks says it again. */
const SILENT = { write: () => true };

/**
 * Checks `run`'s arguments (those after `run`) as `run` would, by the same command definition, and
 * stops before any work: for `ab`, which would otherwise find a bad one only after building both sides.
 * A bad argument throws a UsageError with the line `run` gives, less commander's `error: ` (the CLI puts its own prefix).
 */
export async function checkRunArguments(args: readonly string[]): Promise<void> {
  // With the program's --version, which `nonobench run … --version` also takes.
  const scratch = new Command().version(VERSION).exitOverride().configureOutput({ writeOut: () => {}, writeErr: () => {} });
  defineRun(scratch).action(async (paths: string[], o, command: Command) => {
    const { strategies } = await runPlan(paths, o, command, SILENT);
    // Parameters (--param, `:KEY=VALUE`) and names as the run resolves them, when that loads no module:
    // a plugin or an external program is left to the run, as runPlan leaves it.
    if (strategies.every((c) => !c.external && !isModuleSpecifier(c.strategy))) await resolveConfigurations(strategies, o.param ?? {});
  });
  try {
    await scratch.parseAsync(['run', ...args], { from: 'user' });
  } catch (err) {
    if (err instanceof CommanderError) {
      // `--version` or `--help` among them: run would show that and run nothing, which no caller wants of it.
      if (err.code === 'commander.version') throw new UsageError('--version: run would only show the version', 'run');
      if (err.exitCode === 0) throw new UsageError('--help: run would only show its help', 'run');
      throw new UsageError(err.message.replace(/^error: /, ''), 'run');
    }
    // Pointed to run's help, which says what run takes, not the calling command's.
    if ((err instanceof UsageError && err.command === undefined) || err instanceof ParamError) throw new UsageError(err.message, 'run');
    throw err;
  }
}

export function registerRun(program: Command): void {
  defineRun(program)
    .action(async (paths: string[], o, command: Command) => {
      const { def, given, setting, puzzlePaths, strategies, shard } = await runPlan(paths, o, command);
      const run = runCorpus({
        paths: puzzlePaths,
        strategies,
        repeat: setting('repeat', def?.settings.repeat),
        warmup: setting('warmup', def?.settings.warmup),
        timeoutS: setting('timeout', def?.settings.timeout),
        memoryMb: setting('memory', def?.settings.memory),
        workers: setting('workers', def?.settings.workers),
        maxSolutions: setting('maxSolutions', def?.settings.maxSolutions),
        ...(def ? { definition: def.recorded } : {}),
        out: o.out ?? defaultRunsPath(''),
        ...(shard !== undefined ? { shard } : {}),
        ...(o.resume !== undefined ? { resume: o.resume } : {}),
        ...(o.maxSize !== undefined ? { maxSize: o.maxSize } : {}),
        quiet: !!o.quiet,
        ...(o.param ? { params: o.param } : {}),
      });
      // Too many tasks for a `repeat` the definition gives: said at its line, as a bad value of the file is.
      const repeatAt = given('repeat') ? undefined : def?.repeatAt;
      const result = await run.catch((err: unknown) => {
        if (repeatAt && err instanceof TooManyTasks) throw new InputError(repeatAt.file, repeatAt.line, `repeat: ${err.message}`);
        throw err;
      });
      if (result.stopped) process.stderr.write(`nonobench: ${result.stopped}\n`);
      if (result.tasksRun === 0 && !result.tasksSkipped && !result.stopped) {
        // Nothing ran (no puzzle read, or none in this shard): the output was never touched.
        process.stdout.write(`no task was recorded: ${oneLineText(result.out)} ${existsSync(result.out) ? 'is left as it was' : 'was not written'}\n`);
        process.exitCode = result.exitCode;
        return;
      }
      process.stdout.write(`${result.summary.format()}\n`);
      const skipped = result.tasksSkipped ? ` (${result.tasksSkipped} already recorded, skipped)` : '';
      if (result.failureCount > 0) {
        // Like a test runner's failures: what went wrong is said here, not only in the CSV.
        const more = result.failureCount - result.failures.length;
        const lines = [`wrong and error rows (${result.failureCount}):`, ...result.failures.map((f) => `  ${f}`)];
        if (more > 0) lines.push(`  … and ${more} more (the CSV's error column has every message)`);
        process.stdout.write(`${lines.join('\n')}\n`);
      }
      process.stdout.write(`${result.tasksRun} tasks recorded in ${result.out}${skipped} in ${result.wallS.toFixed(1)} s\n`);
      process.exitCode = result.exitCode;
    });
}

import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Option, type Command } from 'commander';
import { refuseInputAsOutput } from '../../../corpus/input-files.js';
import { REPORTS_DIR } from '../../../corpus/paths.js';
import { DEFAULT_MAX_SIZE } from '../../../corpus/validate.js';
import { benchCheck, defaultCheckOut } from '../../compare/baseline.js';
import { formatComparison, type CompareFormat } from '../../compare/format.js';
import { MIN_REPS, SettingsRefusal } from '../../compare/compare.js';
import { addCompareOptions, compareOptionsOf, emit, noteSettings, printRefusal } from './compare.js';
import { defaultCacheDir } from '../../ab/builds.js';
import { Interrupted } from '../../ab/child.js';
import { UsageError } from '../../io/thrown.js';
import { DEFAULT_MEMORY_MB, defaultWorkers } from '../../run/run.js';
import { checkWorkers, collectParam, distinctFiles, maxSizeOption, memoryMb, nonEmpty, positiveInt, warmupCount } from '../options.js';

const collect = (value: string, previous: string[] = []) => [...previous, value];

export function registerBenchCheck(program: Command): void {
  addCompareOptions(
    program
      .command('bench-check')
      .description(
        'rerun the puzzles, strategies, repetitions, time limit and solution cap a baseline CSV records, ' +
          'then compare the new run against it: statuses and counters exactly; time only as advice, unless --ab ' +
          "runs the baseline's commit interleaved with this checkout and judges time between those two (exit 1 on a regression)",
      )
      .addOption(new Option('--baseline <file>', 'the baseline run CSV').default(join(REPORTS_DIR, 'baseline.csv'), 'reports/baseline.csv'))
      .option('--run-out <file>', 'CSV for the new run (default: reports/runs/bench-check-<timestamp>.csv)', nonEmpty('--run-out'))
      .option('--plugin <module>', 'module of a non-built-in strategy the baseline names (repeatable)', collect)
      .option('--ab', "judge time by an A/B run against the baseline's own commit (built once into --cache-dir), run interleaved with this checkout")
      .option('--rounds <n>', "with --ab: rounds of each side (default: the baseline's repetitions)", positiveInt('--rounds'))
      .addOption(new Option('--cache-dir <dir>', 'with --ab: where builds are kept, one folder per commit').argParser(nonEmpty('--cache-dir')).default(defaultCacheDir(), '$NONOBENCH_CACHE or ~/.cache/nonobench/builds'))
      .option('--allow-commands', "rerun the external solvers' commands the baseline records")
      .option('--param <key=value>', 'strategy parameter (repeatable; default: as the baseline recorded)', collectParam)
      .option('--workers <n>', 'worker threads (default: as the baseline recorded)', positiveInt('--workers'))
      .option('--warmup <n>', 'unmeasured warm-up (see run --warmup; default: as the baseline recorded)', warmupCount)
      .option('--memory <mb>', 'heap limit per worker thread in MiB (default: as the baseline recorded)', memoryMb)
      .addOption(maxSizeOption(`${DEFAULT_MAX_SIZE}, or the baseline's largest puzzle when larger`))
      .option('-q, --quiet', 'no progress output'),
  ).action(async (o) => {
    if (o.workers !== undefined) checkWorkers(o.workers);
    // Without --ab the rerun takes the baseline's repetitions: --rounds would be dropped unsaid.
    if (o.rounds !== undefined && !o.ab) throw new UsageError('--rounds goes with --ab');
    const runOut: string = o.runOut ?? defaultCheckOut();
    // Before the rerun: a comparison written over the baseline or the rerun would be refused only after it.
    distinctFiles([['--baseline', o.baseline], ['--run-out', runOut], ['--out', o.out]]);
    if (o.out !== undefined) refuseInputAsOutput(o.out); // a folder would be refused only after the whole rerun
    const options = {
      baseline: o.baseline,
      out: runOut,
      plugins: o.plugin ?? [],
      allowCommands: !!o.allowCommands,
      ...(o.param ? { params: o.param } : {}),
      ...(o.workers !== undefined ? { workers: o.workers } : {}),
      ...(o.warmup !== undefined ? { warmup: o.warmup } : {}),
      ...(o.memory !== undefined ? { memoryMb: o.memory } : {}),
      ...(o.maxSize !== undefined ? { maxSize: o.maxSize } : {}),
      quiet: !!o.quiet,
      compare: compareOptionsOf(o, `record the baseline again with --repeat ${MIN_REPS} or more`),
    };
    try {
      if (o.ab) {
        const { benchCheckAb } = await import('../../ab/bench-check-ab.js'); // as ab's: not loaded by other commands
        const { checkRunArguments } = await import('../commands/run.js');
        const rounds = o.rounds === undefined ? {} : { rounds: o.rounds as number };
        const compare = { ...options.compare, moreRounds: 'rerun with a larger --rounds' };
        const check = await benchCheckAb({ ...options, compare, cacheDir: o.cacheDir, ...rounds, checkRunArgs: checkRunArguments }, { workers: defaultWorkers(), memoryMb: DEFAULT_MEMORY_MB, warmup: 0 });
        const format = o.format as CompareFormat;
        process.stderr.write(`${check.tasksRun} tasks rerun into ${check.rerun}\n`);
        noteSettings('bench-check', check.facts, format);
        emit(`Statuses and counters against ${o.baseline}:\n\n${formatComparison(check.facts, format)}\nTime, A/B against the baseline's commit ${check.base.commit.slice(0, 12)}:\n\n${formatComparison(check.time, format)}`, o.out);
        process.exitCode = check.exitCode;
        return;
      }
      const check = await benchCheck(options);
      // No puzzle could be loaded: each one's line said why, and there was no rerun.
      if (!check.comparison && !check.run.stopped) {
        process.exitCode = check.exitCode;
        return;
      }
      process.stderr.write(`${check.run.tasksRun} tasks rerun into ${check.run.out}\n`);
      if (!check.comparison) {
        process.stderr.write(`bench-check: the rerun stopped before its first row, so there is nothing to compare: ${check.run.stopped}\n`);
        process.exitCode = check.exitCode;
        return;
      }
      if (check.run.stopped) process.stderr.write(`bench-check: the rerun stopped before its last task, so what follows compares part of it: ${check.run.stopped}\n`);
      noteSettings('bench-check', check.comparison, o.format as CompareFormat);
      emit(formatComparison(check.comparison, o.format as CompareFormat), o.out);
      process.exitCode = check.exitCode;
    } catch (err) {
      if (err instanceof Interrupted) {
        process.stderr.write('bench-check: interrupted\n');
        process.exitCode = err.exitCode;
        return;
      }
      if (!(err instanceof SettingsRefusal)) throw err;
      printRefusal('bench-check', err);
      if (existsSync(runOut)) process.stderr.write(`bench-check: the rerun is in ${runOut}\n`);
      return;
    }
  });
}

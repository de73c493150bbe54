import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Option, type Command } from 'commander';
import { REPORTS_DIR } from '../../../corpus/paths.js';
import { DEFAULT_MAX_SIZE } from '../../../corpus/validate.js';
import { benchCheck, defaultCheckOut } from '../../compare/baseline.js';
import { formatComparison, type CompareFormat } from '../../compare/format.js';
import { SettingsRefusal } from '../../compare/compare.js';
import { addCompareOptions, compareOptionsOf, emit, noteSettings, printRefusal } from './compare.js';
import { checkWorkers, collectParam, maxSizeOption, memoryMb, nonNegativeInt, positiveInt } from '../options.js';

const collect = (value: string, previous: string[] = []) => [...previous, value];

export function registerBenchCheck(program: Command): void {
  addCompareOptions(
    program
      .command('bench-check')
      .description(
        'rerun the puzzles, strategies, repetitions, time limit and solution cap a baseline CSV records, ' +
          'then compare the new run against it (exit 1 on a regression)',
      )
      .addOption(new Option('--baseline <file>', 'the baseline run CSV').default(join(REPORTS_DIR, 'baseline.csv'), 'reports/baseline.csv'))
      .option('--run-out <file>', 'CSV for the new run (default: reports/runs/bench-check-<timestamp>.csv)')
      .option('--plugin <module>', 'module of a non-built-in strategy the baseline names (repeatable)', collect)
      .option('--allow-commands', "rerun the external solvers' commands the baseline records")
      .option('--param <key=value>', 'strategy parameter (repeatable; default: as the baseline recorded)', collectParam)
      .option('--workers <n>', 'worker threads (default: as the baseline recorded)', positiveInt('--workers'))
      .option('--warmup <n>', 'unmeasured solves before each measured one (default: as the baseline recorded)', nonNegativeInt('--warmup'))
      .option('--memory <mb>', 'heap limit per worker thread in MiB (default: as the baseline recorded)', memoryMb)
      .addOption(maxSizeOption(`${DEFAULT_MAX_SIZE}, or the baseline's largest puzzle when larger`))
      .option('-q, --quiet', 'no progress output'),
  ).action(async (o) => {
    if (o.workers !== undefined) checkWorkers(o.workers);
    const runOut: string = o.runOut ?? defaultCheckOut();
    let check;
    try {
      check = await benchCheck({
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
        compare: compareOptionsOf(o),
      });
    } catch (err) {
      if (!(err instanceof SettingsRefusal)) throw err;
      printRefusal('bench-check', err);
      if (existsSync(runOut)) process.stderr.write(`bench-check: the rerun is in ${runOut}\n`);
      return;
    }
    process.stderr.write(`${check.run.tasksRun} tasks rerun into ${check.run.out}\n`);
    noteSettings('bench-check', check.comparison, o.format as CompareFormat);
    emit(formatComparison(check.comparison, o.format as CompareFormat), o.out);
    process.exitCode = check.exitCode;
  });
}

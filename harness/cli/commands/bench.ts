import type { Command } from 'commander';
import { loadStrategy } from '../../../solvers/strategies/registry.js';
import { BENCH_COLUMNS, formatBench, runBenchmarks } from '../../bench/micro.js';
import { writeCsv } from '../../results/csv.js';
import { positiveInt } from '../options.js';
import { parseConfigList } from '../../config/configurations.js';
import { UsageError } from '../../io/thrown.js';
import { defaultRunsPath, refuseUnwritableFolder } from '../../io/output-path.js';
import { clip } from '../../../corpus/errors.js';
import { refuseInputAsOutput } from '../../../corpus/input-files.js';

export function registerBench(program: Command): void {
  program
    .command('bench')
    .description('tinybench micro-benchmarks of the line solvers and of each strategy on a fixed small puzzle set')
    .option('-s, --strategies <list>', 'comma-separated strategy names or module paths, or "all"', 'all')
    .option('--time <ms>', 'time budget per benchmark in ms', positiveInt('--time'), 500)
    .option('--out <file>', 'CSV to write (default: reports/runs/bench-<timestamp>.csv)')
    .action(async (o) => {
      const items = parseConfigList(o.strategies);
      if (items.some((c) => c.name !== undefined || Object.keys(c.params ?? {}).length > 0))
        throw new UsageError('bench measures strategies with their defaults: give names or module paths, without parameters');
      const strategies = await Promise.all(items.map((c) => loadStrategy(c.strategy)));
      // Benchmarks are named by strategy: the same one twice (`all,sat`) would stop tinybench with its own message.
      const twice = strategies.find((s, i) => strategies.findIndex((t) => t.name === s.name) !== i);
      if (twice) throw new UsageError(`--strategies lists strategy "${clip(twice.name)}" twice`);
      const out = o.out ?? defaultRunsPath('bench-');
      // Before the benchmarks, which take seconds a strategy: an output that cannot be one (a folder, an input) is found now.
      refuseInputAsOutput(out);
      refuseUnwritableFolder(out);
      const rows = await runBenchmarks({ strategies, timeMs: o.time, solveTimeoutMs: 10_000 });
      process.stdout.write(`${formatBench(rows)}\n`);
      writeCsv(out, BENCH_COLUMNS, rows);
      process.stdout.write(`written to ${out}\n`);
    });
}

import { Option, type Command } from 'commander';
import { TIME_CHOICES, type TimeChoice } from '../../compare/time-basis.js';
import { defaultReportPath, writeReport } from '../../report/report.js';

export function registerReport(program: Command): void {
  program
    .command('report')
    .description(
      'write a self-contained HTML report of a run CSV, or of BASE and NEW overlaid: per-configuration table with solved counts and PAR-2, cactus and scatter plots, per-puzzle table, puzzles that need guessing',
    )
    .argument('<run>', 'run CSV (BASE when NEW follows)')
    .argument('[new]', 'a second run CSV, overlaid on the first: each configuration as two series, base and new')
    .option('--out <file>', 'HTML file to write (default: the CSV path with .html; with two runs NEW-vs-BASE.html beside NEW)')
    .option('--x <config>', 'configuration across the scatter plot (default: the first in the CSV; one run only)')
    .option('--y <config>', 'configuration up the scatter plot (default: the second in the CSV; one run only)')
    .addOption(
      new Option('--time <basis>', 'time to show: cpu (cpu_ms), wall (time_ms), or auto: CPU time when every solved row has it, else wall time').choices(TIME_CHOICES).default('auto'),
    )
    .action(async (run: string, next: string | undefined, o: { out?: string; x?: string; y?: string; time: TimeChoice }) => {
      const paths = next === undefined ? [run] : [run, next];
      const out = await writeReport(paths, o.out ?? defaultReportPath(paths), {
        ...(o.x !== undefined ? { x: o.x } : {}),
        ...(o.y !== undefined ? { y: o.y } : {}),
        time: o.time,
      });
      process.stdout.write(`report written to ${out}\n`);
    });
}

import type { Command } from 'commander';
import { defaultReportPath, writeReport } from '../../report/report.js';

export function registerReport(program: Command): void {
  program
    .command('report')
    .description('write a self-contained HTML report of a run CSV: cactus and scatter plots, per-strategy table, puzzles that need guessing')
    .argument('<run>', 'run CSV')
    .option('--out <file>', 'HTML file to write (default: the CSV path with .html)')
    .option('--x <strategy>', 'strategy across the scatter plot (default: the first in the CSV)')
    .option('--y <strategy>', 'strategy up the scatter plot (default: the second in the CSV)')
    .action(async (run: string, o: { out?: string; x?: string; y?: string }) => {
      const out = await writeReport(run, o.out ?? defaultReportPath(run), {
        ...(o.x !== undefined ? { x: o.x } : {}),
        ...(o.y !== undefined ? { y: o.y } : {}),
      });
      process.stdout.write(`report written to ${out}\n`);
    });
}

import { join } from 'node:path';
import { Argument, Option, type Command } from 'commander';
import { REPORTS_DIR } from '../../../corpus/paths.js';
import { TIME_CHOICES, type TimeChoice } from '../../compare/time-basis.js';
import { DEFAULT_HISTORY_OPTIONS, stepLine, worseAtLast } from '../../history/history.js';
import { writeHistory } from '../../history/page.js';
import { EXIT_BAD_INPUT, EXIT_FAILED } from '../../io/thrown.js';
import { percent } from './compare.js';

export function registerHistory(program: Command): void {
  program
    .command('history')
    .description('trends across commits from a folder of run CSVs: one HTML page with a chart per metric, and the commits where a step change happened')
    .addArgument(new Argument('[inputs...]', 'run CSVs, or folders of them (every *.csv inside, recursively)').default([join(REPORTS_DIR, 'runs')], 'reports/runs'))
    .option('--out <file>', 'HTML file to write', 'history.html')
    .addOption(
      new Option('--time <basis>', 'time to follow: cpu (cpu_ms), wall (time_ms), or auto: CPU time when every solved row has it, else wall time')
        .choices(TIME_CHOICES)
        .default(DEFAULT_HISTORY_OPTIONS.time),
    )
    .addOption(
      new Option('--threshold <percent>', 'smallest step change reported, in percent').argParser(percent('--threshold')).default(DEFAULT_HISTORY_OPTIONS.threshold, '10'),
    )
    .option('--fail-on-step', 'exit 1 when a step for the worse (slower, fewer solved, more dead ends) is at the last commit')
    .action(async (inputs: string[], o: { out: string; time: TimeChoice; threshold: number; failOnStep?: boolean }) => {
      const { history, collection } = await writeHistory(inputs, o.out, { time: o.time, threshold: o.threshold });
      for (const line of collection.skipped) process.stderr.write(`nonobench history: ${line}\n`);
      for (const p of collection.problems) process.stderr.write(`${p.message}\n`);
      const bad = collection.problems.length > 0;
      if (!history) {
        process.stderr.write(`nonobench history: no run rows to show in ${inputs.join(', ')}; nothing written\n`);
        process.exitCode = EXIT_BAD_INPUT;
        return;
      }
      for (const step of history.steps) process.stdout.write(`${stepLine(step)}\n`);
      process.stdout.write(`history of ${history.commits.length} commits, ${history.configs.length} configurations written to ${o.out}\n`);
      process.exitCode = o.failOnStep && worseAtLast(history).length > 0 ? EXIT_FAILED : bad ? EXIT_BAD_INPUT : 0;
    });
}

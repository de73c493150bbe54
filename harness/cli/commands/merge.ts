import type { Command } from 'commander';
import { mergeCsvs } from '../../results/merge.js';

export function registerMerge(program: Command): void {
  program
    .command('merge')
    .description('merge run CSVs (for example --shard slices) into one, in task order')
    .argument('<out>', 'CSV to write')
    .argument('<inputs...>', 'run CSVs to merge')
    .action((out: string, inputs: string[]) => {
      const { rows, duplicates } = mergeCsvs(out, inputs);
      const dup = duplicates ? `, ${duplicates} duplicate task rows dropped` : '';
      process.stdout.write(`${rows} rows written to ${out}${dup}\n`);
    });
}

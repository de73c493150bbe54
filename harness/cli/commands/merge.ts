import type { Command } from 'commander';
import { oneLineText } from '../../../corpus/errors.js';
import { isDirectory } from '../../../corpus/input-files.js';
import { UsageError } from '../../io/thrown.js';
import { mergeCsvs } from '../../results/merge.js';

export function registerMerge(program: Command): void {
  program
    .command('merge')
    .description('merge run CSVs (for example --shard slices) into one, in task order')
    .argument('<out>', 'CSV to write')
    .argument('<inputs...>', 'run CSVs to merge')
    .action((out: string, inputs: string[]) => {
      // OUT may be one of the inputs (it is replaced whole at the end), but not a folder: said before the inputs are read.
      // (A path that cannot be looked at, ENOTDIR or ELOOP, is left to the writer, which says why in words.)
      if (isDirectory(out)) throw new UsageError(`${oneLineText(out)}: is a directory; name a file`);
      const { rows, duplicates } = mergeCsvs(out, inputs);
      const dup = duplicates ? `, ${duplicates} duplicate task rows dropped` : '';
      process.stdout.write(`${rows} rows written to ${out}${dup}\n`);
    });
}

import type { Command } from 'commander';
import { writableFormatOf, writePuzzles, type WritableFormat } from '../../../corpus/formats/index.js';
import { loadPuzzles } from '../../../corpus/load.js';
import type { LoadOptions } from '../../../corpus/validate.js';
import { writeOutputFile } from '../../io/output-path.js';
import { UsageError } from '../../io/thrown.js';
import { oneLineText } from '../../../corpus/errors.js';
import { loadOptionsOf, maxSizeOption, nonEmpty } from '../options.js';

interface ConvertOptions {
  format?: string;
  maxSize?: number;
  solutions?: string;
}

/** `nonobench convert IN OUT`: reads any supported format, writes .non (or a `====` bundle), JSON or webpbn XML. */
export function registerConvert(program: Command): void {
  program
    .command('convert')
    .description('convert puzzles between formats: reads .non/.nonpack, webpbn .xml, .json and tournament .txt; writes .non, .json or webpbn .xml')
    .argument('<in>', 'a puzzle file, FILE#N (one member of a bundle) or a directory')
    .argument('<out>', 'the output file (.non, .nonpack, .json or .xml), or - for standard output (.non text unless --format says otherwise)')
    .option('--format <format>', "output format, non, json or xml (default: from OUT's extension; non for -)")
    .addOption(maxSizeOption())
    .option('--solutions <file>', 'tournament format: the solutions file to attach as goals', nonEmpty('--solutions'))
    .action((input: string, out: string, opts: ConvertOptions) => {
      let format: WritableFormat | undefined;
      if (opts.format !== undefined) {
        if (opts.format !== 'non' && opts.format !== 'json' && opts.format !== 'xml') throw new UsageError(`--format must be non, json or xml, got "${opts.format}"`);
        format = opts.format;
        // A file whose extension names another format would be read back as that one, and refused.
        const named = out === '-' ? undefined : writableFormatOf(out);
        if (named !== undefined && named !== format)
          throw new UsageError(`${out} names the ${named} format by its extension, and --format says ${format}: name the file for its format, or leave --format out`);
      } else format = out === '-' ? 'non' : writableFormatOf(out); // standard output has no extension: .non text
      if (!format) throw new UsageError(`cannot tell the output format of "${out}": name it .non, .nonpack, .json or .xml, or give --format`);
      const load: LoadOptions = loadOptionsOf(opts);
      if (opts.solutions !== undefined) load.solutions = opts.solutions;
      const puzzles = loadPuzzles(input, load);
      const text = writePuzzles(puzzles, format);
      if (out === '-') process.stdout.write(text);
      else {
        writeOutputFile(out, text);
        process.stdout.write(`wrote ${puzzles.length} puzzle${puzzles.length === 1 ? '' : 's'} to ${oneLineText(out)}\n`);
      }
    });
}

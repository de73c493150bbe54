import { InvalidArgumentError, type Command } from 'commander';
import { MAX_SERIES_COUNT, SeriesWriteError, writeSeriesFiles } from '../../../corpus/generate.js';
import { MAX_SEED } from '../../../corpus/random.js';
import { DEFAULT_MAX_SIZE } from '../../../corpus/validate.js';
import { ensureDir } from '../../io/output-path.js';
import { DECIMAL_NUMBER, nonEmpty, wholeNumber } from '../options.js';
import { exitOnInterrupt, OutputWriteError } from '../../io/thrown.js';
import { withSizeLimitNamed } from '../../io/write-all.js';
import { oneLineText } from '../../../corpus/errors.js';

interface GenerateOptions {
  width: number;
  height?: number;
  density: number;
  count: number;
  seed: number;
  out: string;
}

// Larger puzzles would be refused by every command that loads them (their --max-size defaults to this).
const sizeOption = (name: string) => wholeNumber(name, 1, DEFAULT_MAX_SIZE, ', the largest size the loader accepts by default');

/** Files written between two turns of the event loop. */
const YIELD_EVERY = 64;

function densityOption(value: string): number {
  const d = Number(value);
  if (!DECIMAL_NUMBER.test(value) || !(d >= 0 && d <= 1)) throw new InvalidArgumentError('--density must be a number from 0 to 1');
  return d;
}

/**
 * `nonobench generate`: random puzzles (each cell black with probability D) written as `.non` files with
 * their goal. The same arguments give byte-identical files on any machine.
 */
export function registerGenerate(program: Command): void {
  program
    .command('generate')
    .description('write random puzzles (each cell black with probability --density) as .non files with their goal')
    .option('--width <w>', `width of each puzzle, 1 to ${DEFAULT_MAX_SIZE}`, sizeOption('--width'), 20)
    .option('--height <h>', `height of each puzzle, 1 to ${DEFAULT_MAX_SIZE} (default: the width)`, sizeOption('--height'))
    .option('--density <d>', 'probability of a black cell, 0 to 1', densityOption, 0.5)
    .option('--count <n>', `number of puzzles, 1 to ${MAX_SERIES_COUNT}`, wholeNumber('--count', 1, MAX_SERIES_COUNT), 1)
    .option('--seed <s>', `seed, an integer from 0 to ${MAX_SEED}`, wholeNumber('--seed', 0, MAX_SEED), 1)
    .requiredOption('--out <dir>', 'output directory (created if needed); files are named 001.non, 002.non, …', nonEmpty('--out'))
    .action(async (opts: GenerateOptions) => {
      const { width, density, count, seed } = opts;
      ensureDir(opts.out);
      const wrote = (n: number) => `wrote ${n} puzzle${n === 1 ? '' : 's'} to ${oneLineText(opts.out)}`;
      // Each file is written as it is made: memory stays flat however long the series. Between files the
      // event loop gets a turn now and then, so that Ctrl-C can say how far the series got and exit 130.
      let written = 0;
      const release = exitOnInterrupt(() => `interrupted: ${wrote(written)}`);
      try {
        for (const _ of writeSeriesFiles({ width, height: opts.height ?? width, density, count, seed }, opts.out)) {
          if (++written % YIELD_EVERY === 0) await new Promise((done) => setImmediate(done));
        }
      } catch (err) {
        // A full disk is a failure (exit 1) naming the file, as for every other output.
        throw err instanceof SeriesWriteError ? new OutputWriteError(err.file, withSizeLimitNamed(err.reason)) : err;
      } finally {
        release();
      }
      process.stdout.write(`${wrote(written)}\n`);
    });
}

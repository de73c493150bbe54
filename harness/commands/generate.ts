import type { Command } from 'commander';
import { writeSeries } from '../../corpus/generate.js';
import { isValidSeed, MAX_SEED } from '../../corpus/random.js';
import { positiveIntegerOption } from './options.js';

interface GenerateOptions {
  width: string;
  height?: string;
  density: string;
  count: string;
  seed: string;
  out: string;
}

/**
 * `nonobench generate`: random puzzles (each cell black with probability D) written as `.non` files with
 * their goal. The same arguments give byte-identical files on any machine.
 */
export function registerGenerate(program: Command): void {
  program
    .command('generate')
    .description('write random puzzles (each cell black with probability --density) as .non files with their goal')
    .option('--width <w>', 'width of each puzzle', '20')
    .option('--height <h>', 'height of each puzzle (default: the width)')
    .option('--density <d>', 'probability of a black cell, 0 to 1', '0.5')
    .option('--count <n>', 'number of puzzles', '1')
    .option('--seed <s>', `seed, an integer from 0 to ${MAX_SEED}`, '1')
    .requiredOption('--out <dir>', 'output directory (created if needed); files are named 001.non, 002.non, …')
    .action((opts: GenerateOptions) => {
      const width = positiveIntegerOption('--width', opts.width);
      const height = opts.height === undefined ? width : positiveIntegerOption('--height', opts.height);
      const count = positiveIntegerOption('--count', opts.count);
      const density = Number(opts.density);
      if (opts.density.trim() === '' || !(density >= 0 && density <= 1))
        throw new Error(`--density must be a number from 0 to 1, got "${opts.density}"`);
      const seed = Number(opts.seed);
      if (!/^\d+$/.test(opts.seed.trim()) || !isValidSeed(seed))
        throw new Error(`--seed must be an integer from 0 to ${MAX_SEED}, got "${opts.seed}"`);
      const paths = writeSeries({ width, height, density, count, seed }, opts.out);
      process.stdout.write(`wrote ${paths.length} puzzle${paths.length === 1 ? '' : 's'} to ${opts.out}\n`);
    });
}

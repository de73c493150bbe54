import { mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cluesOf } from './grid.js';
import { EMPTY, FILLED, makePuzzle, type Puzzle, type PuzzleMeta } from './model.js';
import { createRng, deriveSeed, isValidSeed, MAX_SEED, probabilityThreshold, type Rng } from './random.js';
import { writeNon } from './formats/non.js';

/**
 * Random puzzles in the style of Jan Wolter's random-puzzle experiment: every cell is black with
 * probability `density`, independently; the clues are read off the picture, which becomes the goal.
 * Such puzzles often have several solutions: that is part of what they measure.
 */

/** A random puzzle of the given size; the picture is its goal. */
export function generateRandomPuzzle(width: number, height: number, density: number, rng: Rng, meta: PuzzleMeta = {}): Puzzle {
  for (const [name, v] of [['width', width], ['height', height]] as const)
    if (!Number.isInteger(v) || v < 1) throw new Error(`${name} must be a positive integer, got ${v}`);
  const threshold = probabilityThreshold(density);
  const goal = new Uint8Array(width * height);
  for (let i = 0; i < goal.length; i++) goal[i] = rng.chance(threshold) ? FILLED : EMPTY;
  const { rows, columns } = cluesOf(goal, width, height);
  return makePuzzle(rows, columns, meta, goal);
}

export interface SeriesOptions {
  width: number;
  height: number;
  density: number;
  count: number;
  seed: number;
}

export interface GeneratedFile {
  name: string;
  puzzle: Puzzle;
  text: string;
}

export const GENERATED_LICENSE = 'CC0-1.0';

/** Zero-padded member numbers, at least 3 digits, so names sort in generation order. */
const padded = (k: number, count: number) => String(k).padStart(Math.max(3, String(count).length), '0');

function checkSeries(o: SeriesOptions): void {
  for (const [name, v] of [['width', o.width], ['height', o.height], ['count', o.count]] as const)
    if (!Number.isInteger(v) || v < 1) throw new Error(`${name} must be a positive integer, got ${v}`);
  if (!(o.density >= 0 && o.density <= 1)) throw new Error(`density must be between 0 and 1, got ${o.density}`);
  if (!isValidSeed(o.seed)) throw new Error(`seed must be an integer from 0 to ${MAX_SEED}, got ${o.seed}`);
}

/** The largest series `generate` writes: a bound on run time and on files in one directory. */
export const MAX_SERIES_COUNT = 1_000_000;

/**
 * A numbered series of random puzzles, made one at a time so a long series needs no more memory than
 * one puzzle. Puzzle k uses its own stream derived from (seed, k), so a longer series starts with the
 * same puzzles as a shorter one. Texts are byte-identical on every machine.
 */
export function* seriesFiles(o: SeriesOptions): Generator<GeneratedFile> {
  checkSeries(o);
  for (let k = 1; k <= o.count; k++) {
    const meta: PuzzleMeta = {
      title: `random ${o.width}x${o.height} d${o.density} seed ${o.seed} #${k}`,
      author: 'nonobench generate',
      license: GENERATED_LICENSE,
      catalogue: `nonobench generate --width ${o.width} --height ${o.height} --density ${o.density} --seed ${o.seed} (#${k})`,
    };
    const puzzle = generateRandomPuzzle(o.width, o.height, o.density, createRng(deriveSeed(o.seed, k)), meta);
    yield { name: `${padded(k, o.count)}.non`, puzzle, text: writeNon(puzzle) };
  }
}

/** The whole series in memory (for tests and small series). */
export const generateSeries = (o: SeriesOptions): GeneratedFile[] => [...seriesFiles(o)];

/** A generated file whose bytes could not be written (a full disk): `file` names it, `reason` is what failed. */
export class SeriesWriteError extends Error {
  constructor(
    readonly file: string,
    readonly reason: unknown,
  ) {
    super(`cannot write ${file} (${reason instanceof Error ? reason.message : String(reason)})`);
  }
}

/**
 * Writes a series as `.non` files into a directory (created if needed), each as soon as it is made;
 * yields the paths written. A write that fails (a full disk) is a SeriesWriteError naming the file.
 */
export function* writeSeriesFiles(o: SeriesOptions, outDir: string): Generator<string> {
  checkSeries(o);
  mkdirSync(outDir, { recursive: true });
  for (const f of seriesFiles(o)) {
    const path = join(outDir, f.name);
    // Written beside and renamed: SIGTERM or SIGHUP (no handler) mid-write must not leave an empty puzzle.
    const temp = join(outDir, `.${f.name}.${process.pid}.tmp`);
    try {
      writeFileSync(temp, f.text);
      renameSync(temp, path);
    } catch (error) {
      // A failed write or rename (a full disk, a folder in the file's place) must not leave the temporary file behind.
      rmSync(temp, { force: true });
      // The write itself, not the open or the rename: Node's message names no file.
      if ((error as NodeJS.ErrnoException).syscall === 'write') throw new SeriesWriteError(path, error);
      throw error;
    }
    yield path;
  }
}

/** Writes a series as `.non` files into a directory (created if needed); returns the paths written. */
export const writeSeries = (o: SeriesOptions, outDir: string): string[] => [...writeSeriesFiles(o, outDir)];

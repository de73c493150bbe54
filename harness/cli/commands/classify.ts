import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { InvalidArgumentError, Option, type Command } from 'commander';
import { UNKNOWN, type Grid } from '../../../corpus/model.js';
import { renderSvg, renderTerminal } from '../../../corpus/render.js';
import { differingMask, PUZZLE_CLASSES, type ClassifyStage, type PuzzleClass } from '../../classify/classify.js';
import {
  byDifficulty,
  CLASSIFY_COLUMNS,
  classifyCorpus,
  classifyRow,
  classOf,
  formatClassCounts,
  formatListing,
  type ClassifiedPuzzle,
} from '../../classify/run.js';
import { writeCsv } from '../../results/csv.js';
import { ensureDir, refuseUnwritableFolder, writeOutputFile } from '../../io/output-path.js';
import { difficultyPage } from '../../classify/page.js';
import { DEFAULT_MEMORY_MB, defaultWorkers } from '../../run/run.js';
import { checkWorkers, distinctFiles, maxSizeOption, memoryMb, nonEmpty, nonNegativeNumber, pathsWithSuite, suiteOption, workerCount } from '../options.js';
import { EXIT_BAD_INPUT, EXIT_FAILED, exitOnInterrupt } from '../../io/thrown.js';
import { oneLineText } from '../../../corpus/errors.js';
import { defaultRunsPath } from '../../io/output-path.js';

export const DEFAULT_CLASSIFY_TIMEOUT_S = 10;

/** Up to this many listed puzzles, their pictures are printed without `--show`. */
const SHOW_AUTOMATICALLY = 10;

/** The hardest puzzles printed without `--only` (the CSV ranks them all). */
const HARDEST_SHOWN = 20;

interface ClassifyCommandOptions {
  timeout: number;
  workers: number;
  memory: number;
  out?: string;
  only?: PuzzleClass[];
  svg?: string;
  html?: string;
  show?: boolean;
  quiet?: boolean;
  maxSize?: number;
  suite?: string;
}

/** Parses `--only`: one class or a comma-separated list. */
export function parseClassList(text: string): PuzzleClass[] {
  const names = text
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  for (const n of names)
    if (!PUZZLE_CLASSES.includes(n as PuzzleClass))
      throw new InvalidArgumentError(`unknown class "${n}" (known: ${PUZZLE_CLASSES.join(', ')})`);
  if (names.length === 0) throw new InvalidArgumentError('--only needs at least one class');
  return names as PuzzleClass[];
}


/** Logic alone settles these: there is no stalled grid to show. */
const isLineSolvable = (cls: PuzzleClass) => cls === 'overlap-solvable' || cls === 'line-solvable';

const unknownMask = (grid: Grid): Uint8Array => grid.map((v) => (v === UNKNOWN ? 1 : 0));

/** `(row, column)` pairs, 1-based, of the marked cells. */
function markedCells(mark: Uint8Array, width: number): string {
  const out: string[] = [];
  mark.forEach((m, i) => {
    if (m) out.push(`(${Math.floor(i / width) + 1}, ${(i % width) + 1})`);
  });
  return out.join(' ');
}

/** What a designer needs to see of one puzzle: the stalled grid, and for two solutions where they differ. */
interface Pictures {
  stalled?: { grid: Grid; mark: Uint8Array };
  solutions?: { grid: Grid; mark: Uint8Array };
}

function picturesOf(r: ClassifiedPuzzle): Pictures {
  const c = r.classification;
  if (!c || isLineSolvable(c.class)) return {};
  const pictures: Pictures = {};
  if (c.lineGrid) pictures.stalled = { grid: c.lineGrid, mark: unknownMask(c.lineGrid) };
  if (c.class === 'multiple-solutions') pictures.solutions = { grid: c.solutions[0]!, mark: differingMask(c.solutions[0]!, c.solutions[1]!) };
  return pictures;
}

const STAGE_WORDS: Record<ClassifyStage, string> = { overlap: 'the overlap pass', line: 'line propagation', probe: 'probing', search: 'the search' };

/** Longest stem kept whole: with its id twice and `-solutions.svg` a name stays far under 255 bytes. */
const MAX_STEM = 120;

/** A file-name stem for a puzzle: its last folder and file name (and member number), made unique with its id. */
function fileStem(r: ClassifiedPuzzle, used: Set<string>): string {
  const source = r.puzzle.meta.source ?? r.puzzle.id;
  const [file = '', member] = source.split('#');
  const parts = file.split(/[\\/]/).filter(Boolean);
  const last = (parts.pop() ?? '').replace(/\.[^.]*$/, '');
  const folder = parts.pop();
  let stem = [folder, last, member].filter(Boolean).join('-').replace(/[^A-Za-z0-9._-]+/g, '_') || r.puzzle.id;
  // A file name takes at most 255 bytes (the stem is ASCII): a long one keeps its two ends, made unique with the id.
  if (stem.length > MAX_STEM) stem = `${stem.slice(0, MAX_STEM / 2)}_${stem.slice(-MAX_STEM / 2)}-${r.puzzle.id}`;
  if (used.has(stem)) stem = `${stem}-${r.puzzle.id}`;
  used.add(stem);
  return stem;
}

/** Writes `<stem>-stalled.svg` and `<stem>-solutions.svg` for each listed puzzle that has them; returns the files. */
export function writeClassifySvgs(results: ClassifiedPuzzle[], dir: string): string[] {
  ensureDir(dir);
  const used = new Set<string>();
  const written: string[] = [];
  for (const r of results) {
    const pictures = picturesOf(r);
    if (!pictures.stalled && !pictures.solutions) continue;
    const stem = fileStem(r, used);
    const { puzzle } = r;
    for (const [kind, picture] of Object.entries(pictures)) {
      const file = join(dir, `${stem}-${kind}.svg`);
      // Whole or not at all: Ctrl-C here (its handler is gone) must not leave a cut picture.
      writeOutputFile(file, renderSvg(picture.grid, puzzle.width, puzzle.height, { puzzle, mark: picture.mark }));
      written.push(file);
    }
  }
  return written;
}

/** The same pictures for the terminal, with the differing cells listed. */
export function showClassified(results: ClassifiedPuzzle[], color: boolean): string {
  const out: string[] = [];
  for (const r of results) {
    const { puzzle } = r;
    const cls = classOf(r);
    if (isLineSolvable(cls)) continue;
    out.push(`== ${oneLineText(puzzle.meta.source ?? puzzle.id)} (${puzzle.width}x${puzzle.height}): ${cls} ==`);
    if (!r.classification) {
      out.push(`no classification: ${oneLineText(r.error)}`, '');
      continue;
    }
    const { stalled, solutions } = picturesOf(r);
    const cells = puzzle.width * puzzle.height;
    if (stalled) {
      const unknown = stalled.mark.reduce((a, b) => a + b, 0);
      out.push(`after line propagation ${cells - unknown} of ${cells} cells are known; the ${unknown} unknown ones are marked:`);
      out.push(renderTerminal(stalled.grid, puzzle.width, { color, mark: stalled.mark, clues: puzzle }).trimEnd());
    } else if (r.classification.class === 'unknown') {
      // No stalled grid because the limit came first, not because the clues contradict each other.
      out.push(`the time limit came during ${STAGE_WORDS[r.classification.stage]}: no more is known`);
    } else {
      out.push('line propagation meets a contradiction: no solution');
    }
    if (solutions) {
      const n = solutions.mark.reduce((a, b) => a + b, 0);
      out.push(`first solution; the ${n} cells where the two solutions found differ are marked:`);
      out.push(renderTerminal(solutions.grid, puzzle.width, { color, mark: solutions.mark, clues: puzzle }).trimEnd());
      out.push(`differing cells (row, column): ${markedCells(solutions.mark, puzzle.width)}`);
    }
    out.push('');
  }
  return out.join('\n');
}

export function registerClassify(program: Command): void {
  program
    .command('classify')
    .description('sort puzzles by the logic they need: overlap, line propagation, probing, guessing; find ambiguous and impossible ones')
    .argument('[paths...]', 'puzzle files, bundles, FILE#N members or directories (default: the bundled corpus)')
    .option('--timeout <seconds>', 'time limit per puzzle (0: none); past it the class is "unknown"', nonNegativeNumber('--timeout'), DEFAULT_CLASSIFY_TIMEOUT_S)
    .addOption(
      new Option('--workers <n>', 'worker threads (0: classify in this thread, soft time limit only)')
        .argParser(workerCount(0))
        .default(defaultWorkers(), 'the number of cores'),
    )
    .option('--memory <mb>', 'heap limit per worker thread in MiB', memoryMb, DEFAULT_MEMORY_MB)
    .option('--out <file>', 'CSV to write (default: reports/runs/classify-<timestamp>.csv)')
    .option('--only <classes>', `list only puzzles of these classes (comma-separated: ${PUZZLE_CLASSES.join(', ')}); the CSV too`, parseClassList)
    .option('--svg <dir>', 'draw each listed puzzle that line propagation does not finish: its stalled grid, and for two solutions where they differ', nonEmpty('--svg'))
    .option('--html <file>', 'also write an HTML page of the puzzles ranked by difficulty, with their profiles')
    .option('--show', `print those pictures in the terminal (automatic for up to ${SHOW_AUTOMATICALLY} listed puzzles)`)
    .addOption(suiteOption())
    .addOption(maxSizeOption())
    .option('-q, --quiet', 'no progress output')
    .action(async (paths: string[], o: ClassifyCommandOptions) => {
      const started = performance.now();
      checkWorkers(o.workers);
      distinctFiles([['--out', o.out], ['--html', o.html]]);
      const out = o.out ?? defaultRunsPath('classify-');
      // Ctrl-C: the CSV is written at the end, so nothing is; the pool's threads end with the process.
      // (With --workers 0 the classification holds this thread, and Ctrl-C keeps its default effect.)
      const release = o.workers > 0 ? exitOnInterrupt(() => 'interrupted: no CSV written') : () => {};
      let run;
      try {
        // A bad --svg is found before the (possibly long) classification, not after it.
        if (o.svg !== undefined) ensureDir(o.svg);
        for (const file of [out, o.html]) if (file !== undefined) refuseUnwritableFolder(file);
        run = await classifyCorpus({
          paths: pathsWithSuite(paths, o.suite),
          outputs: [o.out, o.html].filter((f): f is string => f !== undefined),
          timeoutS: o.timeout,
          workers: o.workers,
          memoryMb: o.memory,
          ...(o.maxSize !== undefined ? { maxSize: o.maxSize } : {}),
          quiet: !!o.quiet,
        });
      } finally {
        release();
      }
      // No puzzle read (a typo in every path): as `run`, outputs are touched only with something to
      // record, so an earlier classification under the same --out or --html is left as it was.
      if (run.results.length === 0 && run.loadErrors.length > 0) {
        process.stdout.write(`no puzzle could be read: nothing written, ${oneLineText(out)} ${existsSync(out) ? 'left as it was' : 'not made'}\n`);
        process.exitCode = EXIT_BAD_INPUT;
        return;
      }
      const listed = o.only ? run.results.filter((r) => o.only!.includes(classOf(r))) : run.results;
      writeCsv(out, CLASSIFY_COLUMNS, listed.map((r) => classifyRow(r, o.timeout)));

      const print = (text: string) => process.stdout.write(`${text}\n`);
      print(formatClassCounts(run.results));
      print('');
      if (o.only) {
        print(`${o.only.join(', ')} puzzles (${listed.length}), hardest first:`);
        if (listed.length > 0) print(formatListing(listed));
      } else {
        const ranked = byDifficulty(run.results).filter((r) => r.difficultyRank !== null);
        const hardest = ranked.slice(0, HARDEST_SHOWN);
        print(`hardest puzzles first (${hardest.length} of the ${ranked.length} with one solution; difficulty_rank in the CSV ranks them all):`);
        if (hardest.length > 0) print(formatListing(hardest));
      }
      if (o.show || listed.length <= SHOW_AUTOMATICALLY) {
        const pictures = showClassified(listed, !!process.stdout.isTTY);
        if (pictures) print(`\n${pictures}`);
      }
      if (o.svg !== undefined) {
        const files = writeClassifySvgs(listed, o.svg);
        print(`${files.length} SVG files written to ${oneLineText(o.svg)}`);
      }
      if (o.html) {
        writeOutputFile(o.html, await difficultyPage({ results: listed, timeoutS: o.timeout, csvPath: out }));
        print(`difficulty page written to ${oneLineText(o.html)}`);
      }
      const seconds = ((performance.now() - started) / 1000).toFixed(1);
      const where = o.workers === 0 ? 'in this thread' : `on ${o.workers} worker thread${o.workers === 1 ? '' : 's'}`;
      const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
      print(`${plural(run.results.length, 'puzzle')} classified in ${seconds} s ${where}; ${plural(listed.length, 'row')} in ${oneLineText(out)}`);
      // As `run`: a failed puzzle first, then unreadable input.
      if (run.failures > 0) process.exitCode = EXIT_FAILED;
      else if (run.loadErrors.length > 0) process.exitCode = EXIT_BAD_INPUT;
    });
}

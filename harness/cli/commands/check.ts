import type { Command } from 'commander';
import { clip, ProblemLog, withinMemory } from '../../../corpus/errors.js';
import { cellOfChar, describeViolation, verifyGrid } from '../../../corpus/grid.js';
import { withoutBom } from '../../../corpus/formats/text.js';
import { checkLineCount } from '../../../corpus/heap-guard.js';
import { loadPuzzle } from '../../../corpus/load.js';
import type { Grid } from '../../../corpus/model.js';
import { renderSvg } from '../../../corpus/render.js';
import { writeOutputFile } from '../../io/output-path.js';
import { readInput } from '../../io/read-input.js';
import { loadOptionsOf, maxSizeOption, nonEmpty } from '../options.js';

/** Lines that carry no row: blank, `//` or `;` comments, and `$N` puzzle headers of the tournament format. */
const isSkipped = (trimmed: string) =>
  trimmed === '' || trimmed.startsWith('//') || trimmed.startsWith(';') || trimmed.startsWith('$');

/**
 * A row's cells: up to `width + 1` of them, and how many there are. A row far too long (a line of
 * millions of characters) is counted, not split into a value per cell, which would take gigabytes.
 */
interface RowCells {
  cells: string[];
  count: number;
}

/** Adds `cell` to `row`, keeping only the first `width + 1` (enough to tell a row of the wrong length). */
function addCell(row: RowCells, cell: string, width: number): void {
  if (row.count++ <= width) row.cells.push(cell);
}

/** A row written as separated values (`1<TAB>0<TAB>1`, `1 0 1`) rather than one character per cell. */
function separatedTokens(line: string, width: number): RowCells | null {
  const trimmed = line.trim();
  const row: RowCells = { cells: [], count: 0 };
  for (const m of trimmed.matchAll(/[^\t ]+/g)) addCell(row, m[0], width);
  if (trimmed === '') addCell(row, '', width); // as ''.split gives one empty token
  if (trimmed.includes('\t')) return row;
  // Without tabs a space may also be an empty cell: take the separated reading only when it has
  // exactly `width` one-character tokens and the character reading does not fit.
  if (row.count === width && row.cells.every((t) => t.length === 1) && line.trimEnd().length !== width) return row;
  return null;
}

/** A row of one character per cell; trailing blanks past the width are editor noise. */
function characterCells(line: string, width: number): RowCells {
  const row: RowCells = { cells: [], count: 0 };
  let end = 0; // where the first `width` characters end
  for (const ch of line) {
    addCell(row, ch, width);
    if (row.count <= width) end += ch.length;
  }
  if (row.count > width && line.slice(end).trim() === '') return { cells: row.cells.slice(0, width), count: width };
  return row;
}

/**
 * Reads a solution grid: one line per row, either one character per cell (`#`/`1`/`X` filled,
 * `.`/`0`/`-`/space empty, `?` unknown) or tab/space-separated single-character values (the
 * tournament solutions format). Blank lines (but not a row of exactly `width` spaces) and lines
 * starting with `//`, `;` or `$` are skipped.
 * Throws InputError(s) naming the file and line for a wrong width, an unknown character or a
 * wrong number of rows.
 */
export function parseGridFile(text: string, file: string, width: number, height: number): Grid {
  const grid = new Uint8Array(width * height);
  // At most MAX_FILE_PROBLEMS lines, then a count of the rest, as for puzzle files: a grid of hundreds of bad rows is not hundreds of lines.
  const problems = new ProblemLog();
  const body = withoutBom(text); // some editors write one; it is no cell
  checkLineCount(body, file);
  const lines = body.split('\n');
  let rows = 0;
  lines.forEach((raw, i) => {
    const lineNo = i + 1;
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    // A line of exactly `width` spaces is a row of empty cells (space is one), not a blank line.
    const emptyRow = line.length === width && /^ +$/.test(line);
    if (!emptyRow && isSkipped(line.trim())) return;
    const y = rows++;
    if (y >= height) {
      if (y === height) problems.add(file, lineNo, `more rows than the puzzle's ${height}`);
      return;
    }
    const { cells, count } = separatedTokens(line, width) ?? characterCells(line, width);
    if (count !== width) {
      problems.add(file, lineNo, `row ${y + 1} has ${count} cells, expected ${width}`);
      return;
    }
    for (let x = 0; x < width; x++) {
      const token = cells[x]!;
      const v = token.length === 1 ? cellOfChar(token) : undefined;
      if (v === undefined) {
        problems.add(file, lineNo, `unknown cell "${clip(token)}" in row ${y + 1}, column ${x + 1}`);
        return;
      }
      grid[y * width + x] = v;
    }
  });
  // Too few rows is found at the end of the file: its last line (0 for an empty file, the file as a whole).
  const lastLine = body === '' ? 0 : body.endsWith('\n') ? lines.length - 1 : lines.length;
  if (rows < height) problems.add(file, lastLine, `grid has ${rows} rows, expected ${height}`);
  if (!problems.empty) throw problems.kept.length === 1 && problems.more === 0 ? problems.kept[0]! : problems.error();
  return grid;
}

export function registerCheck(program: Command): void {
  program
    .command('check')
    .description('check a solution grid against a puzzle: prints "ok" or each violated row and column')
    .argument('<puzzle>', 'puzzle file (FILE#N for a member of a bundle)')
    .argument('<gridfile>', 'grid file: rows of #/. (or 1/0, X/-, tab-separated 0/1)')
    .option('--svg <file>', 'also draw the grid as an SVG picture', nonEmpty('--svg'))
    .addOption(maxSizeOption())
    .action((puzzlePath: string, gridPath: string, opts: { svg?: string; maxSize?: number }) => {
      const puzzle = loadPuzzle(puzzlePath, loadOptionsOf(opts));
      const text = readInput(gridPath);
      const grid = withinMemory(puzzle.meta.source ?? puzzlePath, puzzle.width, puzzle.height, () => parseGridFile(text, gridPath, puzzle.width, puzzle.height));
      if (opts.svg !== undefined) writeOutputFile(opts.svg, renderSvg(grid, puzzle.width, puzzle.height, { puzzle }));
      const violations = verifyGrid(puzzle, grid);
      if (violations.length === 0) {
        process.stdout.write('ok\n');
        return;
      }
      process.stdout.write(violations.map((v) => `${describeViolation(v)}\n`).join(''));
      process.exitCode = 1;
    });
}

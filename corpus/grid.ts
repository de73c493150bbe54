import { EMPTY, FILLED, UNKNOWN, type Clue, type Grid, type Puzzle } from './model.js';

/** Block lengths of a fully known line (UNKNOWN cells count as empty). */
export function runsOf(cells: ArrayLike<number>, start: number, stride: number, length: number): Clue {
  const runs: number[] = [];
  let run = 0;
  for (let i = 0, k = start; i < length; i++, k += stride) {
    if (cells[k] === FILLED) run++;
    else if (run > 0) {
      runs.push(run);
      run = 0;
    }
  }
  if (run > 0) runs.push(run);
  return runs;
}

export const rowRuns = (grid: Grid, width: number, y: number): Clue => runsOf(grid, y * width, 1, width);
export const columnRuns = (grid: Grid, width: number, height: number, x: number): Clue =>
  runsOf(grid, x, width, height);

/** The clues a complete picture produces. */
export function cluesOf(grid: Grid, width: number, height: number): { rows: Clue[]; columns: Clue[] } {
  const rows: Clue[] = [];
  const columns: Clue[] = [];
  for (let y = 0; y < height; y++) rows.push(rowRuns(grid, width, y));
  for (let x = 0; x < width; x++) columns.push(columnRuns(grid, width, height, x));
  return { rows, columns };
}

export interface LineViolation {
  kind: 'row' | 'column' | 'size' | 'unknown';
  /** 0-based line index (rows top to bottom, columns left to right); for `unknown`, the cell's index in the grid. */
  index: number;
  /** For `unknown`: the first unknown cell's 0-based row and column. */
  cell?: { row: number; column: number };
  expected: Clue;
  actual: Clue;
}

const sameClue = (a: Clue, b: Clue) => a.length === b.length && a.every((v, i) => v === b[i]);

/**
 * Checks a grid against the clues and names every violated line.
 * A grid with unknown cells is reported once as `unknown`: it is not a solution.
 */
export function verifyGrid(puzzle: Puzzle, grid: Grid): LineViolation[] {
  const { width, height } = puzzle;
  if (grid.length !== width * height)
    return [{ kind: 'size', index: -1, expected: [width * height], actual: [grid.length] }];
  const violations: LineViolation[] = [];
  const unknown = grid.indexOf(UNKNOWN);
  if (unknown >= 0)
    violations.push({ kind: 'unknown', index: unknown, cell: { row: Math.floor(unknown / width), column: unknown % width }, expected: [], actual: [] });
  for (let y = 0; y < height; y++) {
    const actual = rowRuns(grid, width, y);
    if (!sameClue(actual, puzzle.rows[y]!)) violations.push({ kind: 'row', index: y, expected: puzzle.rows[y]!, actual });
  }
  for (let x = 0; x < width; x++) {
    const actual = columnRuns(grid, width, height, x);
    if (!sameClue(actual, puzzle.columns[x]!))
      violations.push({ kind: 'column', index: x, expected: puzzle.columns[x]!, actual });
  }
  return violations;
}

/** True when the grid is complete and satisfies every clue. */
export const isSolution = (puzzle: Puzzle, grid: Grid): boolean => verifyGrid(puzzle, grid).length === 0;

/** One-line description of a violation, 1-based as users count lines. */
export function describeViolation(v: LineViolation): string {
  switch (v.kind) {
    case 'size':
      return `grid has ${v.actual[0]} cells, expected ${v.expected[0]}`;
    case 'unknown':
      return v.cell
        ? `grid is incomplete (first unknown cell at row ${v.cell.row + 1}, column ${v.cell.column + 1})`
        : `grid is incomplete (first unknown cell at index ${v.index})`;
    default:
      return `${v.kind} ${v.index + 1}: expected ${v.expected.join(',') || '0'}, got ${v.actual.join(',') || '0'}`;
  }
}

/** Number of cells that are not UNKNOWN. */
export function countKnown(grid: Grid): number {
  let n = 0;
  for (let i = 0; i < grid.length; i++) if (grid[i] !== UNKNOWN) n++;
  return n;
}

const CHAR_OF = ['?', '#', '.'] as const;

/** Rows as strings: `#` filled, `.` empty, `?` unknown. */
export function gridToRows(grid: Grid, width: number): string[] {
  const rows: string[] = [];
  for (let k = 0; k < grid.length; k += width) {
    let s = '';
    for (let i = k; i < k + width; i++) s += CHAR_OF[grid[i]!] ?? '?';
    rows.push(s);
  }
  return rows;
}

/** Parses one cell character of the text grid forms we accept (`#`/`1`/`X` filled, `.`/`0`/`-`/space empty, `?` unknown). */
export function cellOfChar(ch: string): number | undefined {
  switch (ch) {
    case '#':
    case '1':
    case 'X':
    case 'x':
    case '█':
      return FILLED;
    case '.':
    case '0':
    case '-':
    case ' ':
      return EMPTY;
    case '?':
      return UNKNOWN;
    default:
      return undefined;
  }
}

/** Grid from row strings in the `#`/`.`/`?` form (the inverse of gridToRows). */
export function gridFromRows(rows: string[]): Grid {
  const width = rows[0]?.length ?? 0;
  const grid = new Uint8Array(width * rows.length);
  rows.forEach((row, y) => {
    for (let x = 0; x < width; x++) grid[y * width + x] = cellOfChar(row[x] ?? '?') ?? UNKNOWN;
  });
  return grid;
}

export { EMPTY, FILLED, UNKNOWN };

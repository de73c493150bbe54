import { cellOfChar } from '../../corpus/grid.js';
import { UNKNOWN, type Grid, type Puzzle } from '../../corpus/model.js';
import { SOLVE_STATUSES, type SolveMetrics, type SolveResult, type SolveStatus } from '../../solvers/api/types.js';
import { parseSolverOutput, type SolverAnswer } from '../../solvers/sat/dimacs/solver-output.js';

/**
 * Output adapters: what an external solver printed, read back as a result. Anything they cannot
 * read is an AdapterError saying where; the answer itself is verified later, like every strategy's.
 */
export class AdapterError extends Error {}

/** Status words a `grid` or `json` answer may give, with the SAT solvers' words for the same. */
const STATUS_WORDS = new Map<string, SolveStatus>([
  ...SOLVE_STATUSES.map((s) => [s, s] as const),
  ['sat', 'solved'],
  ['satisfiable', 'solved'],
  ['unsat', 'contradiction'],
  ['unsatisfiable', 'contradiction'],
  ['no-solution', 'contradiction'],
  ['unknown', 'timeout'],
]);

/**
 * A row of a grid: `#` `1` `X` `x` `█` (filled), `.` `0` (empty), `?` (unknown), blanks between them
 * allowed. Not `-`, which cellOfChar also reads as empty: a line of dashes is a separator.
 */
const CELL_LINE = /^[#.?01Xx█\s]+$/;
/** A row that cannot be a number printed on a line of its own (a count before a grid). */
const NOT_A_NUMBER = /[^01\s]/;

/** A line's status word (`unique`, `status: unique`, `s UNSATISFIABLE`), or undefined. */
function statusWord(line: string): SolveStatus | undefined {
  // The colon or the blanks each in one place, so that no run of blanks can be split two ways
  // (`\s*:?\s+` took time quadratic in the blanks of a line).
  const m = /^(?:(?:s|status)(?:\s*:\s*|\s+))?([A-Za-z][\w-]*)\s*$/.exec(line);
  return m ? STATUS_WORDS.get(m[1]!.toLowerCase()) : undefined;
}

/** Metrics of a program that reports none: counters unknown (empty in the row). */
export const unreported = (extra: Record<string, number> = {}) => ({ extra }) as unknown as SolveMetrics;

const isComplete = (g: Grid) => !g.includes(UNKNOWN);

/** A result from grids and a status: complete grids are solutions, a partial one is where it stopped. */
function resultOf(puzzle: Puzzle, grids: Grid[], status: SolveStatus | undefined, metrics: SolveMetrics): SolveResult {
  const solutions = grids.filter(isComplete);
  const partial = grids.filter((g) => !isComplete(g));
  if (partial.length > 1 || (partial.length === 1 && solutions.length > 0)) throw new AdapterError('a partial grid (with ? cells) must be the only grid');
  if (status === undefined) {
    if (grids.length === 0) throw new AdapterError('no grid and no status word in the output');
    status = partial.length > 0 ? 'stuck' : solutions.length === 1 ? 'solved' : 'multiple';
  }
  const grid = solutions[0] ?? partial[0] ?? new Uint8Array(puzzle.width * puzzle.height);
  return { status, grid, solutions, metrics };
}

/**
 * The `grid` adapter: rows of `#`/`1`/`X` (filled) and `.`/`0` (empty), `?` for an unknown cell,
 * blanks between cells allowed, one grid after another (blank lines between them optional), and an
 * optional status word on a line of its own. Other lines are passed over, and so is a single line
 * of cell characters of another width outside a grid (a count printed before it); a block of rows
 * that is not the puzzle's height (a truncated grid), a row of the wrong width inside one, two
 * rows in a row of another width that are no numbers (a grid of the wrong size) and more than `maxGrids` grids (more
 * solutions than asked for, read no further) are refused.
 */
export function readGridOutput(text: string, puzzle: Puzzle, maxGrids = Infinity): SolveResult {
  const { width, height } = puzzle;
  const grids: Grid[] = [];
  let status: SolveStatus | undefined;
  let rows: string[] = [];
  let firstRowLine = 0;
  /** The width of the line before when it was a row of cells of another width, else −1. */
  let otherWidth = -1;
  const endBlock = () => {
    if (rows.length === 0) return;
    if (rows.length % height !== 0) throw new AdapterError(`line ${firstRowLine}: a grid of ${rows.length} rows, the puzzle has ${height}`);
    for (let k = 0; k < rows.length; k += height) {
      if (grids.length === maxGrids) throw new AdapterError(`line ${firstRowLine}: more than ${maxGrids} grids, the most solutions asked for`);
      const grid = new Uint8Array(width * height);
      for (let r = 0; r < height; r++) for (let c = 0; c < width; c++) grid[r * width + c] = cellOfChar(rows[k + r]![c]!)!;
      grids.push(grid);
    }
    rows = [];
  };
  // Line by line rather than split: a flood of output is refused at its first extra grid, unread.
  for (let at = 0, i = 0; at <= text.length; i++) {
    const eol = text.indexOf('\n', at);
    const line = text.slice(at, eol < 0 ? text.length : eol).trim();
    at = eol < 0 ? text.length + 1 : eol + 1;
    const word = line === '' ? undefined : statusWord(line);
    const cellRow = line !== '' && word === undefined && CELL_LINE.test(line);
    const cells = cellRow ? line.replace(/\s+/g, '') : '';
    if (cellRow && cells.length === width) {
      if (rows.length === 0) firstRowLine = i + 1;
      rows.push(cells);
      if (rows.length === height) endBlock();
      otherWidth = -1;
      continue;
    }
    if (cellRow) {
      if (rows.length > 0) throw new AdapterError(`line ${i + 1}: a row of ${cells.length} cells, the puzzle is ${width} wide`);
      if (cells.length === otherWidth) throw new AdapterError(`line ${i}: a grid of ${cells.length} columns, the puzzle is ${width} wide`);
    }
    otherWidth = cellRow && cells.length > 1 && NOT_A_NUMBER.test(cells) ? cells.length : -1;
    endBlock();
    if (word !== undefined) {
      if (status !== undefined && status !== word) throw new AdapterError(`line ${i + 1}: a second status word (${word} after ${status})`);
      status = word;
    }
  }
  endBlock();
  return resultOf(puzzle, grids, status, unreported());
}

function gridOfRows(rows: unknown, puzzle: Puzzle, what: string): Grid {
  const { width, height } = puzzle;
  if (!Array.isArray(rows) || rows.length !== height || rows.some((r) => typeof r !== 'string' || r.length !== width))
    throw new AdapterError(`${what}: not ${height} rows of ${width} cells`);
  const grid = new Uint8Array(width * height);
  (rows as string[]).forEach((row, r) => {
    for (let c = 0; c < width; c++) {
      const v = cellOfChar(row[c]!);
      if (v === undefined) throw new AdapterError(`${what}: row ${r + 1} holds ${JSON.stringify(row[c])}, not a cell`);
      grid[r * width + c] = v;
    }
  });
  return grid;
}

/** The JSON object in a program's output: all of it, or else its last line that starts with `{` (after log lines). */
function jsonObject(text: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    const line = text.split(/\r?\n/).reverse().find((l) => l.trimStart().startsWith('{'));
    if (line === undefined) throw new AdapterError('no JSON object in the output (one object, alone or on the last line that starts with {)');
    try {
      value = JSON.parse(line);
    } catch (err) {
      throw new AdapterError(`its last line starting with { is not JSON: ${(err as Error).message}`);
    }
  }
  if (!value || typeof value !== 'object' || Array.isArray(value)) throw new AdapterError('the JSON is not an object');
  return value as Record<string, unknown>;
}

/**
 * The `json` adapter: the object `nonobench solve --json` prints. Without `solutions`, a complete
 * `grid` given with a status that has one solution (`unique`, `solved`) is that solution.
 */
export function readJsonOutput(text: string, puzzle: Puzzle): SolveResult {
  const value = jsonObject(text);
  const status = typeof value.status === 'string' ? STATUS_WORDS.get(value.status.toLowerCase()) : undefined;
  if (status === undefined) throw new AdapterError(`status ${JSON.stringify(value.status)} is not one of ${SOLVE_STATUSES.join(', ')}`);
  const solutions = value.solutions === undefined ? [] : Array.isArray(value.solutions) ? value.solutions.map((s, i) => gridOfRows(s, puzzle, `solutions[${i}]`)) : undefined;
  if (!solutions) throw new AdapterError('solutions is not an array');
  const grid = value.grid !== undefined ? gridOfRows(value.grid, puzzle, 'grid') : (solutions[0] ?? new Uint8Array(puzzle.width * puzzle.height));
  if (value.solutions === undefined && (status === 'unique' || status === 'solved') && isComplete(grid)) solutions.push(grid.slice());
  const metrics: Record<string, unknown> = {};
  for (const name of ['deadEnds', 'decisions', 'lineSolves', 'maxDepth']) if (value[name] !== undefined) metrics[name] = value[name];
  metrics.extra = value.extra ?? {};
  return { status, grid, solutions, metrics: metrics as unknown as SolveMetrics };
}

/**
 * The `dimacs-model` adapter, one call: the SAT solver's answer (competition output or MiniSat's
 * result file) with every cell variable given a value when satisfiable.
 */
export function readModel(text: string, numVars: number, cellVars: number): SolverAnswer {
  let answer: SolverAnswer;
  try {
    answer = parseSolverOutput(text, numVars, 'model');
  } catch (err) {
    throw new AdapterError((err as Error).message);
  }
  if (answer.status === 'sat') {
    const missing = answer.values.subarray(1, cellVars + 1).indexOf(0);
    if (missing >= 0) throw new AdapterError(`a truncated model: cell variable ${missing + 1} has no value`);
  }
  return answer;
}

/** What one adapter is to read: what a program printed (bytes, UTF-8) or its model file's text, and what reading it needs. */
export type AnswerRequest = { text: string | Uint8Array } & (
  | { adapter: 'grid'; puzzle: Puzzle; maxGrids: number }
  | { adapter: 'json'; puzzle: Puzzle }
  | { adapter: 'dimacs-model'; numVars: number; cellVars: number }
);

/** Runs the adapter `request` names. */
export function readAnswer(request: AnswerRequest): SolveResult | SolverAnswer {
  const { text: input } = request;
  const text = typeof input === 'string' ? input : Buffer.from(input.buffer, input.byteOffset, input.byteLength).toString('utf8');
  switch (request.adapter) {
    case 'grid':
      return readGridOutput(text, request.puzzle, request.maxGrids);
    case 'json':
      return readJsonOutput(text, request.puzzle);
    case 'dimacs-model':
      return readModel(text, request.numVars, request.cellVars);
  }
}

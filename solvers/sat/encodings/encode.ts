import { EMPTY, FILLED, UNKNOWN, type Clue, type Grid, type Puzzle } from '../../../corpus/model.js';
import { ClauseSink, ENCODING_STOPPED, type FlatClauses } from './clause-sink.js';
import type { Cnf } from '../dimacs/dimacs.js';
import { encodeLineAutomaton } from './line-automaton.js';
import { encodeLineBlocks } from './line-blocks.js';

/**
 * Nonogram → CNF. Cell (row r, column c) is variable r·width + c + 1 (true = filled); each line
 * adds auxiliary variables and clauses that hold exactly when its cells spell its clue, in one
 * of two encodings:
 * - `blocks` (the default, line-blocks.ts): per block, order variables "starts at p or later";
 *   clauses of at most three literals, propagation at least as strong as the overlap rules;
 * - `automaton` (line-automaton.ts): the clue's automaton unrolled over the line, a variable per
 *   reachable (position, state); propagation as strong as an exact line solver.
 * In both, the auxiliary variables are determined by the cells: a picture has exactly one model,
 * so counting models over the cells counts solutions. Known cells (optional) become unit clauses
 * and prune the auxiliary variables.
 */

export type EncodingName = 'blocks' | 'automaton';
export const ENCODINGS: readonly EncodingName[] = ['blocks', 'automaton'];
export const DEFAULT_ENCODING: EncodingName = 'blocks';

export interface NonogramCnf extends Cnf {
  width: number;
  height: number;
  /** Cells are variables 1..cellVars (= width·height); auxiliary variables follow. */
  cellVars: number;
}

/** The variable of cell (row, column): row·width + column + 1. */
export const cellVariable = (width: number, row: number, column: number): number => row * width + column + 1;

const lineEncoders = { blocks: encodeLineBlocks, automaton: encodeLineAutomaton };

/** The encoding a name stands for; a clear error for any other name. */
export function encodingNamed(name: string): EncodingName {
  if ((ENCODINGS as readonly string[]).includes(name)) return name as EncodingName;
  throw new Error(`unknown encoding ${JSON.stringify(name)} (known: ${ENCODINGS.join(', ')})`);
}

/**
 * The CNF of one line on its own (cells are variables 1..length), for studying the line encodings;
 * `known` gives cell codes to prune with (they are also stated as unit clauses).
 */
export function encodeLineCnf(clue: Clue, length: number, known?: ArrayLike<number>, encoding = DEFAULT_ENCODING): Cnf {
  const sink = new ClauseSink(length);
  const cells = Array.from({ length }, (_, i) => i + 1);
  const codes = Array.from({ length }, (_, i) => (known ? known[i]! : UNKNOWN));
  codes.forEach((code, i) => {
    if (code === FILLED || code === EMPTY) sink.cellUnit(i + 1, code === FILLED);
  });
  lineEncoders[encoding](clue, cells, codes, sink);
  return { numVars: sink.nextVar - 1, clauses: sink.out.toArrays() };
}

export interface EncodeOptions {
  /** A grid of cell codes: its known cells become unit clauses and prune the encoding. */
  known?: Grid;
  encoding?: EncodingName;
  /** Polled after each line (a 200×200 puzzle takes up to a second to encode) and within a line every 65,536 clauses offered (one line of thousands of cells takes seconds). */
  shouldStop?: () => boolean;
}

/** A puzzle's CNF with its clauses in flat form (see FlatClauses), as the sat strategy consumes it. */
export interface FlatNonogramCnf {
  numVars: number;
  clauses: FlatClauses;
  width: number;
  height: number;
  cellVars: number;
}

/** The CNF of a puzzle (see the module comment); undefined once `shouldStop` returns true. */
export function encodeNonogramFlat(puzzle: Puzzle, options: EncodeOptions = {}): FlatNonogramCnf | undefined {
  const steps = encodeSteps(puzzle, options, options.shouldStop);
  try {
    for (let step = steps.next(); ; step = steps.next()) {
      if (step.done) return step.value;
      if (options.shouldStop?.()) return undefined;
    }
  } catch (err) {
    if (err === ENCODING_STOPPED) return undefined;
    throw err;
  }
}

/**
 * The CNF of a puzzle a line at a time: it yields after each line and returns the CNF, so that a
 * caller sharing its thread (the harness's, encoding for an external solver) can let others run.
 */
export function encodeNonogramSteps(puzzle: Puzzle, options: Omit<EncodeOptions, 'shouldStop'> = {}): Generator<void, FlatNonogramCnf> {
  return encodeSteps(puzzle, options);
}

/** encodeNonogramSteps, its sink polling `shouldStop` within lines (see ClauseSink). */
function* encodeSteps(puzzle: Puzzle, options: Omit<EncodeOptions, 'shouldStop'>, shouldStop?: () => boolean): Generator<void, FlatNonogramCnf> {
  const { known } = options;
  const encodeLine = lineEncoders[options.encoding ?? DEFAULT_ENCODING];
  const { width, height } = puzzle;
  const cellVars = width * height;
  const sink = new ClauseSink(cellVars, shouldStop);
  if (known) {
    for (let index = 0; index < cellVars; index++) {
      const code = known[index]!;
      if (code === FILLED || code === EMPTY) sink.cellUnit(index + 1, code === FILLED);
    }
  }
  const longest = Math.max(width, height);
  const cells = new Int32Array(longest);
  const codes = new Uint8Array(longest);
  const encode = (clue: Clue, first: number, step: number, length: number) => {
    for (let i = 0; i < length; i++) {
      const index = first + i * step;
      cells[i] = index + 1;
      codes[i] = known ? known[index]! : UNKNOWN;
    }
    encodeLine(clue, cells.subarray(0, length), codes.subarray(0, length), sink);
  };
  for (let r = 0; r < height; r++) {
    encode(puzzle.rows[r]!, r * width, 1, width);
    yield;
  }
  for (let c = 0; c < width; c++) {
    encode(puzzle.columns[c]!, c, width, height);
    yield;
  }
  return { numVars: sink.nextVar - 1, clauses: sink.out, width, height, cellVars };
}

/** `encodeNonogramFlat` with the clauses as arrays, for export and inspection. */
export function encodeNonogram(puzzle: Puzzle, options: Omit<EncodeOptions, 'shouldStop'> = {}): NonogramCnf {
  const flat = encodeNonogramFlat(puzzle, options)!;
  return { ...flat, clauses: flat.clauses.toArrays() };
}

/** The picture a model describes: `isTrue(v)` for each cell variable v. */
export function decodeGrid(puzzle: Puzzle, isTrue: (v: number) => boolean): Grid {
  const grid = new Uint8Array(puzzle.width * puzzle.height);
  for (let i = 0; i < grid.length; i++) grid[i] = isTrue(i + 1) ? FILLED : EMPTY;
  return grid;
}

/**
 * The clause that excludes one picture: some cell must differ. Only the cells not already
 * known (UNKNOWN in `known`) need to appear, since known cells are fixed by unit clauses.
 */
export function blockingClause(solution: Grid, known?: Grid): number[] {
  const clause: number[] = [];
  for (let i = 0; i < solution.length; i++) {
    if (known && known[i] !== UNKNOWN) continue;
    clause.push(solution[i] === FILLED ? -(i + 1) : i + 1);
  }
  return clause;
}

import { createHash } from 'node:crypto';

/** Cell codes shared by every grid in the project (Uint8Array, row-major). */
export const UNKNOWN = 0;
export const FILLED = 1;
export const EMPTY = 2;
export type Cell = typeof UNKNOWN | typeof FILLED | typeof EMPTY;

/** A row-major grid of cell codes, `width * height` long. */
export type Grid = Uint8Array;

/** A clue: the lengths of the blocks of one line, in order; `[]` for an empty line. */
export type Clue = number[];

export interface PuzzleMeta {
  title?: string;
  author?: string;
  copyright?: string;
  license?: string;
  catalogue?: string;
  /** Where the puzzle was read from: a path, or `path#N` for a member of a bundle. */
  source?: string;
}

export interface Puzzle {
  /** Short hash of the clues alone: renaming or re-titling a file keeps it. */
  id: string;
  width: number;
  height: number;
  rows: Clue[];
  columns: Clue[];
  /** The intended picture (FILLED / EMPTY codes), when the file has one. */
  goal?: Grid;
  meta: PuzzleMeta;
}

/** The stable id of a puzzle: 12 hex digits of a SHA-256 over its size and clues. */
export function puzzleId(width: number, height: number, rows: Clue[], columns: Clue[]): string {
  const text = `${width}x${height}|${rows.map((c) => c.join(',')).join(';')}|${columns.map((c) => c.join(',')).join(';')}`;
  return createHash('sha256').update(text).digest('hex').slice(0, 12);
}

/** Builds a puzzle from its clues, computing its id. */
export function makePuzzle(
  rows: Clue[],
  columns: Clue[],
  meta: PuzzleMeta = {},
  goal?: Grid,
): Puzzle {
  const width = columns.length;
  const height = rows.length;
  const puzzle: Puzzle = { id: puzzleId(width, height, rows, columns), width, height, rows, columns, meta };
  if (goal) puzzle.goal = goal;
  return puzzle;
}

/**
 * The puzzle as a strategy sees it: a copy of the clues and metadata without the goal, so that no
 * strategy can report the intended picture instead of solving, nor change the clues its answer is
 * checked against (in the same thread, as `solve --timeout 0` runs it).
 */
export function withoutGoal(puzzle: Puzzle): Puzzle {
  const { goal: _goal, ...rest } = puzzle;
  return { ...rest, rows: puzzle.rows.map((clue) => clue.slice()), columns: puzzle.columns.map((clue) => clue.slice()), meta: { ...puzzle.meta } };
}

/** A short human label: the title when there is one, else the source, else the id. */
export function puzzleLabel(p: Puzzle): string {
  return p.meta.title ?? p.meta.source ?? p.id;
}

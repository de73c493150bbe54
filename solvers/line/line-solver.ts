import type { Clue } from '../../corpus/model.js';

/**
 * A line solver: given one line's clue and the cells known so far, it decides every cell it can.
 *
 * `solve` works in place on `line[0 .. length)` (cell codes UNKNOWN / FILLED / EMPTY): it turns
 * UNKNOWN cells it can decide into FILLED or EMPTY, never changes a known cell, and returns false
 * when it proves that no placement of the blocks fits the known cells (the line is then left in an
 * unspecified state). The clue is an Int32Array of block lengths (no zeros; empty for an empty line)
 * so the hot path reads a typed array. Implementations keep their scratch space between calls.
 */
export interface LineSolver {
  /** Short name, used in metrics and messages. */
  readonly name: string;
  solve(clue: Int32Array, line: Uint8Array, length: number): boolean;
}

/** A clue in the form the line solvers read: block lengths as an Int32Array, zero-length blocks dropped. */
export function lineClue(clue: Clue | Int32Array): Int32Array {
  let blocks = 0;
  for (let i = 0; i < clue.length; i++) if (clue[i]! > 0) blocks++;
  const out = new Int32Array(blocks);
  let j = 0;
  for (let i = 0; i < clue.length; i++) if (clue[i]! > 0) out[j++] = clue[i]!;
  return out;
}

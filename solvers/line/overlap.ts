import { EMPTY, FILLED, UNKNOWN, type Clue } from '../../corpus/model.js';
import { emptyLine } from './exact.js';
import { lineClue, type LineSolver } from './line-solver.js';

/**
 * Finds the leftmost placement of the blocks consistent with the known cells: start[j] for each
 * block, every start as small as any valid placement allows (valid placements are closed under
 * taking the smaller start of each block, so this placement is the componentwise minimum).
 * Returns false when no placement fits.
 *
 * Method: slide blocks right only when forced. Block j goes to the first position, at or after
 * its current lower bound and past block j−1 with a gap, whose cells hold no EMPTY and whose next
 * cell is not FILLED. A FILLED cell left uncovered between block j−1 and block j (or after the
 * last block) can only be covered by an earlier block, so block j−1 (the last one) must move
 * right until it reaches that cell; then the blocks after it are placed again. Every move raises a
 * lower bound that holds in all valid placements, so the first placement passing every check is
 * the minimum. Only the first `k` entries of `clue` are read.
 */
export function leftmostPlacement(
  clue: Int32Array,
  line: Uint8Array,
  n: number,
  start: Int32Array,
  k: number = clue.length,
): boolean {
  for (let j = 0; j < k; j++) start[j] = 0;
  let j = 0;
  while (j <= k) {
    if (j === k) {
      // Trailing cells must hold no FILLED cell, else the last block must reach the last one.
      const gapFrom = k === 0 ? 0 : start[k - 1]! + clue[k - 1]!;
      const filled = lastFilled(line, gapFrom, n);
      if (filled < 0) return true;
      if (k === 0) return false;
      j = k - 1;
      start[j] = filled - clue[j]! + 1;
      continue;
    }
    const len = clue[j]!;
    let s = start[j]!;
    if (j > 0) s = Math.max(s, start[j - 1]! + clue[j - 1]! + 1);
    // First position from s where the block fits locally.
    for (;;) {
      if (s + len > n) return false;
      let empty = -1;
      for (let c = s + len - 1; c >= s; c--)
        if (line[c] === EMPTY) {
          empty = c;
          break;
        }
      if (empty >= 0) s = empty + 1;
      else if (s + len < n && line[s + len] === FILLED) s++;
      else break;
    }
    start[j] = s;
    const gapFrom = j === 0 ? 0 : start[j - 1]! + clue[j - 1]!;
    const filled = lastFilled(line, gapFrom, s);
    if (filled < 0) {
      j++;
      continue;
    }
    if (j === 0) return false; // a FILLED cell before the first block's earliest start
    j--;
    start[j] = filled - clue[j]! + 1;
  }
  return true;
}

/** Index of the last FILLED cell in [from, to), or −1. */
function lastFilled(line: Uint8Array, from: number, to: number): number {
  for (let c = to - 1; c >= from; c--) if (line[c] === FILLED) return c;
  return -1;
}

/**
 * The overlap line solver (the "simple boxes" and "simple spaces" rules): from the leftmost and
 * rightmost placements consistent with the known cells, a cell covered by block j in both is
 * FILLED; a cell no block can reach (before block 0's leftmost start, between block j's rightmost
 * end and block j+1's leftmost start, after the last block's rightmost end) is EMPTY.
 * Its deductions are a subset of the exact solver's; it reports an impossible line exactly when
 * no placement fits (the leftmost search fails).
 */
export class OverlapLineSolver implements LineSolver {
  readonly name = 'overlap';
  private left = new Int32Array(0);
  private right = new Int32Array(0);
  private reversedClue = new Int32Array(0);
  private reversedLine = new Uint8Array(0);

  solve(clue: Int32Array, line: Uint8Array, n: number): boolean {
    const k = clue.length;
    if (k === 0) return emptyLine(line, n);
    if (this.left.length < k) {
      this.left = new Int32Array(k * 2);
      this.right = new Int32Array(k * 2);
      this.reversedClue = new Int32Array(k * 2);
    }
    if (this.reversedLine.length < n) this.reversedLine = new Uint8Array(n * 2);
    const left = this.left;
    const right = this.right;
    if (!leftmostPlacement(clue, line, n, left)) return false;

    // The rightmost placement is the leftmost one of the mirrored line.
    const rClue = this.reversedClue;
    const rLine = this.reversedLine;
    for (let j = 0; j < k; j++) rClue[j] = clue[k - 1 - j]!;
    for (let i = 0; i < n; i++) rLine[i] = line[n - 1 - i]!;
    // Cannot fail once a leftmost placement exists: the mirror of a placement is a placement.
    leftmostPlacement(rClue, rLine, n, right, k);

    let reach = 0; // first cell that the blocks before j may still cover
    for (let j = 0; j < k; j++) {
      const len = clue[j]!;
      const l = left[j]!;
      // Mirrored block k-1-j occupies [s, s+len) there, so it starts at n-s-len here.
      const r = n - right[k - 1 - j]! - len;
      for (let c = reach; c < l; c++) if (line[c] === UNKNOWN) line[c] = EMPTY;
      for (let c = r; c < l + len; c++) if (line[c] === UNKNOWN) line[c] = FILLED;
      reach = r + len;
    }
    for (let c = reach; c < n; c++) if (line[c] === UNKNOWN) line[c] = EMPTY;
    return true;
  }
}

const shared = new OverlapLineSolver();

/** Convenience form (allocates): the deduced line, or null when the line is impossible. */
export function solveLineOverlap(clue: Clue | Int32Array, line: ArrayLike<number>): Uint8Array | null {
  const cells = Uint8Array.from(line);
  return shared.solve(lineClue(clue), cells, cells.length) ? cells : null;
}

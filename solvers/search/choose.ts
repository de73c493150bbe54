import { UNKNOWN } from '../../corpus/model.js';
import type { Propagator } from '../propagate.js';

/**
 * How the search picks the cell to branch on when probing gives no ranking:
 * - `first`: the first unknown cell in reading order;
 * - `lines`: the unknown cell whose row and column have the fewest unknown cells between them
 *   (the most constrained lines, whose solving is closest to done);
 * - `neighbours`: the unknown cell with the most known neighbours (the grid's edge counts as known),
 *   ties broken as in `lines`.
 */
export type BranchHeuristic = 'first' | 'lines' | 'neighbours';

export const BRANCH_HEURISTICS: readonly BranchHeuristic[] = ['first', 'lines', 'neighbours'];

/** The cell to branch on, or −1 when the grid is complete. */
export function chooseBranchCell(prop: Propagator, heuristic: BranchHeuristic): number {
  const { grid, width, height, unknownInLine } = prop;
  if (heuristic === 'first') return grid.indexOf(UNKNOWN);
  let best = -1;
  let bestScore = -Infinity;
  for (let y = 0; y < height; y++) {
    const rowUnknown = unknownInLine[y]!;
    if (rowUnknown === 0) continue;
    const base = y * width;
    for (let x = 0; x < width; x++) {
      const cell = base + x;
      if (grid[cell] !== UNKNOWN) continue;
      // Fewer unknowns in the crossing lines score higher; at most width + height of them.
      let score = -(rowUnknown + unknownInLine[height + x]!);
      if (heuristic === 'neighbours') {
        let known = 0;
        if (x === 0 || grid[cell - 1] !== UNKNOWN) known++;
        if (x === width - 1 || grid[cell + 1] !== UNKNOWN) known++;
        if (y === 0 || grid[cell - width] !== UNKNOWN) known++;
        if (y === height - 1 || grid[cell + width] !== UNKNOWN) known++;
        score += known * (width + height + 1);
      }
      if (score > bestScore) {
        bestScore = score;
        best = cell;
      }
    }
  }
  return best;
}

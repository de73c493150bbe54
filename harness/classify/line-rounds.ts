import { UNKNOWN, type Puzzle } from '../../corpus/model.js';
import { lineClue, type LineSolver } from '../../solvers/line/line-solver.js';

/**
 * The rounds of exact line propagation from the clues to its fixpoint, counted synchronously: round 1
 * solves every line, round r + 1 every line with a cell that round r decided, each line of a round
 * against the grid as the round began (what one line of a round decides is seen by the others only in
 * the next). The count is that of the rounds that decided some cell: it depends on the puzzle alone,
 * not on the order lines are queued or cells assigned (so a mirrored or transposed puzzle has the
 * same), unlike a count that follows the propagator's queue. Null on a contradiction or when stopped.
 */
export function lineRounds(puzzle: Puzzle, solver: LineSolver, shouldStop: () => boolean = () => false): number | null {
  const { width, height } = puzzle;
  const clues = [...puzzle.rows, ...puzzle.columns].map((c) => lineClue(c));
  const grid = new Uint8Array(width * height);
  const scratch = new Uint8Array(Math.max(width, height));
  let pending = new Uint8Array(width + height).fill(1);
  const cells: number[] = [];
  const values: number[] = [];
  let rounds = 0;
  for (;;) {
    cells.length = 0;
    values.length = 0;
    for (let line = 0; line < width + height; line++) {
      if (!pending[line]) continue;
      if (shouldStop()) return null;
      const isRow = line < height;
      const start = isRow ? line * width : line - height;
      const stride = isRow ? 1 : width;
      const length = isRow ? width : height;
      for (let i = 0, k = start; i < length; i++, k += stride) scratch[i] = grid[k]!;
      if (!solver.solve(clues[line]!, scratch, length)) return null;
      for (let i = 0, k = start; i < length; i++, k += stride)
        if (scratch[i] !== grid[k]) {
          cells.push(k);
          values.push(scratch[i]!);
        }
    }
    if (cells.length === 0) return rounds;
    rounds++;
    const next = new Uint8Array(width + height);
    for (let j = 0; j < cells.length; j++) {
      const cell = cells[j]!;
      // A row and a column of the same round may both decide a cell: differently only when there is no solution.
      if (grid[cell] !== UNKNOWN && grid[cell] !== values[j]) return null;
      grid[cell] = values[j]!;
      const y = (cell / width) | 0;
      next[y] = 1;
      next[height + cell - y * width] = 1;
    }
    pending = next;
  }
}


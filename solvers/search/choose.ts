import { EMPTY, FILLED, UNKNOWN } from '../../corpus/model.js';
import type { Rng } from '../../corpus/random.js';
import { LineCounter } from '../line/count.js';
import type { Propagator } from '../propagation/propagator.js';

/**
 * How the search picks the cell to branch on when probing gives no ranking:
 * - `first`: the first unknown cell in reading order;
 * - `lines`: the unknown cell whose row and column have the fewest unknown cells between them
 *   (the most constrained lines, whose solving is closest to done);
 * - `neighbours`: the unknown cell with the most known neighbours (the grid's edge counts as known),
 *   ties broken as in `lines`;
 * - `density`: the cell whose value the placements of its row and column agree on most (each
 *   line's share of placements filling the cell, combined as independent estimates), tried with
 *   that likely value first — a counting-based choice that finds solutions early.
 */
export type BranchHeuristic = 'first' | 'lines' | 'neighbours' | 'density';

export const BRANCH_HEURISTICS: readonly BranchHeuristic[] = ['first', 'lines', 'neighbours', 'density'];

/** Picks branch cells; keeps the scratch the `density` heuristic needs. */
export class BranchChooser {
  /** After `choose`: the value to try first, or UNKNOWN when the heuristic has no preference. */
  value: number = UNKNOWN;
  private readonly prop: Propagator;
  private readonly counter = new LineCounter();
  private readonly line: Uint8Array;
  private readonly filledShare: Float64Array;
  /** Per cell, the share of its row's placements filling it. */
  private readonly rowShare: Float64Array;

  constructor(prop: Propagator) {
    this.prop = prop;
    const longest = Math.max(prop.width, prop.height);
    this.line = new Uint8Array(longest);
    this.filledShare = new Float64Array(longest);
    this.rowShare = new Float64Array(prop.width * prop.height);
  }

  /**
   * The cell to branch on, or −1 when the grid is complete. With `rng`, ties are broken at random
   * and `first` picks a random unknown cell (restarts use this to vary the search).
   */
  choose(heuristic: BranchHeuristic, rng: Rng | null = null): number {
    this.value = UNKNOWN;
    if (heuristic === 'density') return this.densest(rng);
    return chooseBranchCell(this.prop, heuristic, rng);
  }

  private densest(rng: Rng | null): number {
    const { grid, width, height, unknownInLine, clues } = this.prop;
    const { line, filledShare, rowShare, counter } = this;
    for (let y = 0; y < height; y++) {
      if (unknownInLine[y] === 0) continue;
      const base = y * width;
      for (let x = 0; x < width; x++) line[x] = grid[base + x]!;
      const total = counter.count(clues[y]!, line, width, filledShare);
      for (let x = 0; x < width; x++) rowShare[base + x] = total > 0 ? filledShare[x]! / total : 0.5;
    }
    let best = -1;
    let bestScore = -1;
    for (let x = 0; x < width; x++) {
      if (unknownInLine[height + x] === 0) continue;
      for (let y = 0, k = x; y < height; y++, k += width) line[y] = grid[k]!;
      const total = counter.count(clues[height + x]!, line, height, filledShare);
      for (let y = 0, cell = x; y < height; y++, cell += width) {
        if (grid[cell] !== UNKNOWN) continue;
        const r = rowShare[cell]!;
        const c = total > 0 ? filledShare[y]! / total : 0.5;
        // Two independent estimates of "filled", combined.
        const yes = r * c;
        const no = (1 - r) * (1 - c);
        const p = yes + no > 0 ? yes / (yes + no) : 0.5;
        let score = Math.max(p, 1 - p);
        if (rng !== null) score *= 0.9 + 0.1 * (rng.nextUint32() / 2 ** 32);
        if (score > bestScore) {
          bestScore = score;
          best = cell;
          this.value = p >= 0.5 ? FILLED : EMPTY;
        }
      }
    }
    return best;
  }
}

/**
 * The cell to branch on by a cheap score (see BranchHeuristic), or −1 when the grid is complete.
 * With `rng`, ties are broken at random and `first` picks a random unknown cell. `density` needs
 * scratch space: this function allocates it on every call, BranchChooser keeps it.
 */
function chooseBranchCell(prop: Propagator, heuristic: BranchHeuristic, rng: Rng | null = null): number {
  if (heuristic === 'density') return new BranchChooser(prop).choose('density', rng);
  const { grid, width, height, unknownInLine } = prop;
  if (heuristic === 'first' && rng === null) return grid.indexOf(UNKNOWN);
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
      let score = heuristic === 'first' ? 0 : -(rowUnknown + unknownInLine[height + x]!);
      if (heuristic === 'neighbours') {
        let known = 0;
        if (x === 0 || grid[cell - 1] !== UNKNOWN) known++;
        if (x === width - 1 || grid[cell + 1] !== UNKNOWN) known++;
        if (y === 0 || grid[cell - width] !== UNKNOWN) known++;
        if (y === height - 1 || grid[cell + width] !== UNKNOWN) known++;
        score += known * (width + height + 1);
      }
      // Scores are integers: a fraction in [0, 1) only breaks ties.
      if (rng !== null) score += rng.nextUint32() / 2 ** 32;
      if (score > bestScore) {
        bestScore = score;
        best = cell;
      }
    }
  }
  return best;
}

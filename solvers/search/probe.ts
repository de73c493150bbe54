import { EMPTY, FILLED, UNKNOWN } from '../../corpus/model.js';
import type { Propagator } from '../propagate.js';

/**
 * Probing: for an unknown cell, propagate each value in turn. When one value leads to a
 * contradiction the cell must take the other; when both succeed, every cell that both
 * propagations set to the same value is decided. Probes repeat until a whole round teaches nothing.
 *
 * Which cells: unknown cells next to a known cell or to the grid's edge, where a guess tends to
 * reach far. After a round without progress every remaining probe ran on the same grid, so the
 * recorded impacts rank the branching choices: `bestCell` is the cell whose weaker value still
 * decides the most cells, `bestValue` its stronger value (tried first).
 */
export class Prober {
  probes = 0;
  /** Probe values that led to a contradiction. Each is also a dead end of the search. */
  contradictions = 0;
  /** Cells decided by probing (forced values and common consequences). */
  decided = 0;
  bestCell = -1;
  bestValue: number = FILLED;

  private readonly prop: Propagator;
  /** stamp[cell] = probe id when the FILLED probe set the cell, its value in stampValue. */
  private readonly stamp: Int32Array;
  private readonly stampValue: Uint8Array;
  private stampId = 0;
  private readonly common: Int32Array;
  private readonly commonValue: Uint8Array;

  constructor(prop: Propagator) {
    this.prop = prop;
    const cells = prop.width * prop.height;
    this.stamp = new Int32Array(cells);
    this.stampValue = new Uint8Array(cells);
    this.common = new Int32Array(cells);
    this.commonValue = new Uint8Array(cells);
  }

  /**
   * Probes the current grid to a fixpoint. Returns false when the grid has no solution (both values
   * of some cell contradict, or a forced value does). Returns true early when the propagator stopped.
   */
  run(): boolean {
    const prop = this.prop;
    const { grid, width, height } = prop;
    for (;;) {
      let progress = false;
      this.bestCell = -1;
      let bestRate = -1;
      for (let cell = 0; cell < grid.length; cell++) {
        if (grid[cell] !== UNKNOWN) continue;
        const y = (cell / width) | 0;
        const x = cell - y * width;
        const nearKnown =
          x === 0 ||
          x === width - 1 ||
          y === 0 ||
          y === height - 1 ||
          grid[cell - 1] !== UNKNOWN ||
          grid[cell + 1] !== UNKNOWN ||
          grid[cell - width] !== UNKNOWN ||
          grid[cell + width] !== UNKNOWN;
        if (!nearKnown) continue;

        const outcome = this.probe(cell);
        if (prop.stopped) return true;
        if (outcome === BOTH_FAIL) return false;
        if (outcome === LEARNT) {
          progress = true;
          continue;
        }
        // Both values possible: rank the cell by what its weaker value decides.
        const rate = Math.min(this.filledImpact, this.emptyImpact) * 4096 + Math.max(this.filledImpact, this.emptyImpact);
        if (rate > bestRate) {
          bestRate = rate;
          this.bestCell = cell;
          this.bestValue = this.filledImpact >= this.emptyImpact ? FILLED : EMPTY;
        }
      }
      if (!progress) return true;
      if (prop.unknownCells() === 0) return true;
    }
  }

  private filledImpact = 0;
  private emptyImpact = 0;

  /** Probes one cell; on success with both values records their impacts. */
  private probe(cell: number): number {
    const prop = this.prop;
    const { grid, trail } = prop;
    const mark = prop.trailLength;
    const id = ++this.stampId;
    this.probes++;

    prop.assign(cell, FILLED);
    const filledOk = prop.propagate();
    this.filledImpact = prop.trailLength - mark;
    if (filledOk)
      for (let t = mark; t < prop.trailLength; t++) {
        const c = trail[t]!;
        this.stamp[c] = id;
        this.stampValue[c] = grid[c]!;
      }
    prop.undo(mark);
    if (prop.stopped) return BOTH_OK;

    prop.assign(cell, EMPTY);
    const emptyOk = prop.propagate();
    this.emptyImpact = prop.trailLength - mark;
    let commonCount = 0;
    if (filledOk && emptyOk)
      for (let t = mark + 1; t < prop.trailLength; t++) {
        const c = trail[t]!;
        if (this.stamp[c] === id && this.stampValue[c] === grid[c]) {
          this.common[commonCount] = c;
          this.commonValue[commonCount++] = grid[c]!;
        }
      }
    prop.undo(mark);
    if (prop.stopped) return BOTH_OK;

    if (!filledOk && !emptyOk) {
      this.contradictions += 2;
      return BOTH_FAIL;
    }
    if (!filledOk || !emptyOk) {
      this.contradictions++;
      this.decided++;
      prop.assign(cell, filledOk ? FILLED : EMPTY);
      return prop.propagate() ? LEARNT : BOTH_FAIL;
    }
    if (commonCount === 0) return BOTH_OK;
    for (let i = 0; i < commonCount; i++) prop.assign(this.common[i]!, this.commonValue[i]!);
    this.decided += commonCount;
    return prop.propagate() ? LEARNT : BOTH_FAIL;
  }
}

const BOTH_OK = 0;
const LEARNT = 1;
const BOTH_FAIL = 2;

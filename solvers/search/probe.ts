import { EMPTY, FILLED, UNKNOWN } from '../../corpus/model.js';
import type { Rng } from '../../corpus/random.js';
import type { Propagator } from '../propagation/propagator.js';

/**
 * Probing: for an unknown cell, propagate each value in turn. When one value leads to a
 * contradiction the cell must take the other; when both succeed, every cell that both
 * propagations set to the same value is decided.
 *
 * Which cells: a work list. `run(from)` starts it with the unknown neighbours of the cells set since
 * trail position `from` (at the root, from 0: every unknown cell next to a known one or to the
 * grid's edge); each probe that teaches something adds the unknown neighbours of what it decided.
 * A cell is probed at most once per list entry, so the work stays near the recent changes.
 *
 * The probes also rank the branching choices: `bestCell` is the probed cell, still unknown, whose
 * weaker value decides the most cells, `bestValue` its stronger value (tried first).
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
  /** Work list of cells to probe (a ring), with a membership flag per cell. */
  private readonly work: Int32Array;
  private workHead = 0;
  private workSize = 0;
  private readonly listed: Uint8Array;
  private filledImpact = 0;
  private emptyImpact = 0;
  /** Last measured rate of each cell (weaker impact × 65536 + stronger), −1 when never probed. */
  private readonly rate: Float64Array;
  private readonly strongValue: Uint8Array;
  /** Rank branch cells by every cell's last measured rate, not only by this run's probes. */
  rememberRates = true;
  /** When set, rates are scaled by a random factor in [0.75, 1.25] when compared (restarts vary their choices). */
  jitter: Rng | null = null;
  /** How the two impacts of a cell combine into its branching rate (see ProbeRating). */
  rating: ProbeRating = 'product';
  /** Which cells a run starts with: `local` = around the recent changes, `all` = every cell next to a known one. */
  scope: 'local' | 'all' = 'local';

  constructor(prop: Propagator) {
    this.prop = prop;
    const cells = prop.width * prop.height;
    this.stamp = new Int32Array(cells);
    this.stampValue = new Uint8Array(cells);
    this.common = new Int32Array(cells);
    this.commonValue = new Uint8Array(cells);
    this.work = new Int32Array(cells);
    this.listed = new Uint8Array(cells);
    this.rate = new Float64Array(cells).fill(-1);
    this.strongValue = new Uint8Array(cells);
  }

  /**
   * Probes around the cells set since trail position `from` until the work list is empty. Returns
   * false when the grid has no solution (both values of some cell contradict, or a forced value
   * does). Returns true early when the propagator stopped.
   */
  run(from: number): boolean {
    const prop = this.prop;
    const grid = prop.grid;
    this.bestCell = -1;
    let bestRate = -1;
    if (from === 0 || this.scope === 'all') this.listAllNearKnown();
    else for (let t = from; t < prop.trailLength; t++) this.listNeighbours(prop.trail[t]!);

    while (this.workSize > 0) {
      const cell = this.work[this.workHead]!;
      this.workHead = this.workHead + 1 === this.work.length ? 0 : this.workHead + 1;
      this.workSize--;
      this.listed[cell] = 0;
      if (grid[cell] !== UNKNOWN) continue;

      const mark = prop.trailLength;
      const outcome = this.probe(cell);
      if (prop.stopped) {
        this.clearWork();
        return true;
      }
      if (outcome === DEAD) {
        this.clearWork();
        return false;
      }
      if (outcome === LEARNT) {
        for (let t = mark; t < prop.trailLength; t++) this.listNeighbours(prop.trail[t]!);
        continue;
      }
      // Both values possible: rank the cell by what its weaker value decides.
      const weak = Math.min(this.filledImpact, this.emptyImpact);
      const strong = Math.max(this.filledImpact, this.emptyImpact);
      const rate = rateOf(this.rating, weak, strong);
      this.rate[cell] = rate;
      this.strongValue[cell] = this.filledImpact >= this.emptyImpact ? FILLED : EMPTY;
      const jittered = this.jitter === null ? rate : rate * (0.75 + this.jitter.nextUint32() / 2 ** 33);
      if (jittered > bestRate) {
        bestRate = jittered;
        this.bestCell = cell;
        this.bestValue = this.filledImpact >= this.emptyImpact ? FILLED : EMPTY;
      }
    }
    if (this.bestCell >= 0 && grid[this.bestCell] !== UNKNOWN) {
      this.bestCell = -1;
      bestRate = -1;
    }
    if (this.rememberRates) this.selectRemembered(bestRate);
    return true;
  }

  /** Makes the unknown cell with the best remembered rate (if above `floor`) the branching choice. */
  selectRemembered(floor = -1): void {
    const grid = this.prop.grid;
    let bestRate = floor;
    if (floor < 0) this.bestCell = -1;
    for (let cell = 0; cell < grid.length; cell++) {
      if (grid[cell] !== UNKNOWN) continue;
      const rate = this.rate[cell]!;
      if (rate < 0) continue;
      const jittered = this.jitter === null ? rate : rate * (0.75 + this.jitter.nextUint32() / 2 ** 33);
      if (jittered > bestRate) {
        bestRate = jittered;
        this.bestCell = cell;
        this.bestValue = this.strongValue[cell]!;
      }
    }
  }

  private list(cell: number): void {
    if (this.listed[cell] === 1 || this.prop.grid[cell] !== UNKNOWN) return;
    this.listed[cell] = 1;
    let at = this.workHead + this.workSize;
    if (at >= this.work.length) at -= this.work.length;
    this.work[at] = cell;
    this.workSize++;
  }

  private listNeighbours(cell: number): void {
    const { width, height } = this.prop;
    const y = (cell / width) | 0;
    const x = cell - y * width;
    if (x > 0) this.list(cell - 1);
    if (x < width - 1) this.list(cell + 1);
    if (y > 0) this.list(cell - width);
    if (y < height - 1) this.list(cell + width);
  }

  private listAllNearKnown(): void {
    const { grid, width, height } = this.prop;
    for (let cell = 0; cell < grid.length; cell++) {
      if (grid[cell] !== UNKNOWN) continue;
      const y = (cell / width) | 0;
      const x = cell - y * width;
      if (
        x === 0 ||
        x === width - 1 ||
        y === 0 ||
        y === height - 1 ||
        grid[cell - 1] !== UNKNOWN ||
        grid[cell + 1] !== UNKNOWN ||
        grid[cell - width] !== UNKNOWN ||
        grid[cell + width] !== UNKNOWN
      )
        this.list(cell);
    }
  }

  private clearWork(): void {
    while (this.workSize > 0) {
      this.listed[this.work[this.workHead]!] = 0;
      this.workHead = this.workHead + 1 === this.work.length ? 0 : this.workHead + 1;
      this.workSize--;
    }
  }

  /** Probes one cell; when both values survive, records their impacts. */
  private probe(cell: number): number {
    const prop = this.prop;
    const { grid, trail } = prop;
    const mark = prop.trailLength;
    const id = ++this.stampId;
    this.probes++;
    // The trial propagations are undone at once: no steps of a trace, which hears what the probe learnt.
    const trace = prop.trace;
    prop.trace = null;

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
    if (prop.stopped) {
      prop.trace = trace;
      return BOTH_OPEN;
    }

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
    prop.trace = trace;
    if (prop.stopped) return BOTH_OPEN;

    if (!filledOk && !emptyOk) {
      this.contradictions += 2;
      if (trace !== null) trace.probe(cell, false, false, grid, trail, mark, mark);
      return DEAD;
    }
    if (!filledOk || !emptyOk) {
      this.contradictions++;
      this.decided++;
      prop.assign(cell, filledOk ? FILLED : EMPTY);
      if (trace !== null) trace.probe(cell, filledOk, emptyOk, grid, trail, mark, prop.trailLength);
      return prop.propagate() ? LEARNT : DEAD;
    }
    for (let i = 0; i < commonCount; i++) prop.assign(this.common[i]!, this.commonValue[i]!);
    this.decided += commonCount;
    if (trace !== null) trace.probe(cell, true, true, grid, trail, mark, prop.trailLength);
    if (commonCount === 0) return BOTH_OPEN;
    return prop.propagate() ? LEARNT : DEAD;
  }
}

/**
 * Ranking a cell from the number of cells each of its values decides (weak ≤ strong):
 * `product` (weak+1)(strong+1), the usual look-ahead score, rewarding cells where both branches
 * shrink the problem; `min` the weaker impact first, the stronger to break ties; `sqrt`
 * √(strong/(weak+1)) + weak; `sum` weak + strong.
 */
export type ProbeRating = 'product' | 'min' | 'sqrt' | 'sum';
export const PROBE_RATINGS: readonly ProbeRating[] = ['product', 'min', 'sqrt', 'sum'];

function rateOf(rating: ProbeRating, weak: number, strong: number): number {
  switch (rating) {
    case 'product':
      return (weak + 1) * (strong + 1);
    case 'min':
      return weak * 65536 + strong;
    case 'sqrt':
      return Math.sqrt(strong / (weak + 1)) + weak;
    case 'sum':
      return weak + strong;
  }
}

/** Probe outcomes: both values possible and nothing common; something decided; no value possible. */
const BOTH_OPEN = 0;
const LEARNT = 1;
const DEAD = 2;

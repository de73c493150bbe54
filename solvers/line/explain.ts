import { EMPTY, FILLED, UNKNOWN } from '../../corpus/model.js';

/**
 * Why a line's assigned cells force another cell, or rule the line out: the cells an explanation
 * needs, found by walking the line's automaton away from the cell, as the explanations of the
 * regular constraint in lazy clause generation are.
 *
 * The automaton reads a line cell by cell. State s means s symbols of the clue's pattern read,
 * the pattern being each block's filled cells followed, between blocks, by one empty cell; a state
 * at the start, after a gap's empty cell or at the end also loops on empty cells. `prepare`
 * computes which states each prefix of the line can reach (forward) and from which states each
 * suffix can finish (backward), given the assigned cells. A cell is forced exactly when no edge
 * reading its other value joins a forward state to a backward one, which is what the exact line
 * solver decides too.
 *
 * To explain it, every such edge is cut on one side: its source unreachable from the start, or its
 * target unable to finish, preferring a side the line's length alone cuts. Walking outwards from
 * the cell, a state stays unreachable through the next cell either because that cell's assigned
 * value blocks the edges into it from reachable states (the cell joins the explanation) or
 * because its predecessors stay unreachable too. A cell joins only when some edge from a
 * reachable state must be blocked. The result is short but not always minimal: which side cuts an
 * edge dead at both ends is chosen edge by edge, not for the shortest whole.
 *
 * Clues are lists of positive block lengths (lineClue).
 */
export class LineExplainer {
  /** Pattern symbol s (1 filled, 0 empty) and whether state s loops on an empty cell. */
  private symbol = new Uint8Array(0);
  private loops = new Uint8Array(0);
  /** States m + 1; forward[i·stride + s] = 1 when reading cells 0..i−1 can reach state s. */
  private stride = 0;
  private n = 0;
  private forward = new Uint8Array(0);
  private backward = new Uint8Array(0);
  /** The states a walk must keep cut: on the left of the cell, on its right, and at the next layer. */
  private here = new Uint8Array(0);
  private there = new Uint8Array(0);
  private scratch = new Uint8Array(0);
  /** The line's assigned cells, as given to prepare. */
  private cells = new Uint8Array(0);

  /** Computes the reachability of the line's automaton under its assigned cells (codes of corpus/model). */
  prepare(clue: ArrayLike<number>, cells: ArrayLike<number>, n: number): void {
    let m = 0;
    for (let b = 0; b < clue.length; b++) m += clue[b]! + (b > 0 ? 1 : 0);
    const stride = m + 1;
    if (this.symbol.length < stride) {
      this.symbol = new Uint8Array(stride);
      this.loops = new Uint8Array(stride);
      this.here = new Uint8Array(stride);
      this.there = new Uint8Array(stride);
      this.scratch = new Uint8Array(stride);
    }
    if (this.forward.length < (n + 1) * stride) {
      this.forward = new Uint8Array((n + 1) * stride * 2);
      this.backward = new Uint8Array((n + 1) * stride * 2);
    }
    if (this.cells.length < n) this.cells = new Uint8Array(n * 2);
    const { symbol, loops, forward, backward } = this;
    loops.fill(0, 0, stride);
    loops[0] = 1;
    let s = 0;
    for (let b = 0; b < clue.length; b++) {
      if (b > 0) {
        symbol[s++] = 0;
        loops[s] = 1;
      }
      for (let k = 0; k < clue[b]!; k++) symbol[s++] = 1;
    }
    loops[m] = 1;
    this.stride = stride;
    this.n = n;
    for (let i = 0; i < n; i++) this.cells[i] = cells[i]!;

    forward.fill(0, 0, (n + 1) * stride);
    forward[0] = 1;
    for (let i = 0; i < n; i++) {
      const cell = cells[i]!;
      const from = i * stride;
      const to = from + stride;
      for (let q = 0; q < stride; q++) {
        if (forward[from + q] === 0) continue;
        if (q < m && cell !== (symbol[q] === 1 ? EMPTY : FILLED)) forward[to + q + 1] = 1;
        if (loops[q] === 1 && cell !== FILLED) forward[to + q] = 1;
      }
    }
    backward.fill(0, 0, (n + 1) * stride);
    backward[n * stride + m] = 1;
    for (let i = n - 1; i >= 0; i--) {
      const cell = cells[i]!;
      const at = i * stride;
      const next = at + stride;
      for (let q = 0; q < stride; q++) {
        if (
          (q < m && backward[next + q + 1] === 1 && cell !== (symbol[q] === 1 ? EMPTY : FILLED)) ||
          (loops[q] === 1 && backward[next + q] === 1 && cell !== FILLED)
        )
          backward[at + q] = 1;
      }
    }
  }

  /** Whether some way of filling the line fits its clue and its assigned cells. */
  feasible(): boolean {
    return this.forward[this.n * this.stride + this.stride - 1] === 1;
  }

  /**
   * Leaves in `kept` (UNKNOWN elsewhere) the assigned cells that force cell p to `value` under the
   * clue. False when they do not force it, `kept` then holding every assigned cell.
   */
  explainCell(p: number, value: number, kept: Uint8Array): boolean {
    const { stride, n, symbol, loops, forward, backward, here, there } = this;
    const m = stride - 1;
    const other = value === FILLED ? 0 : 1; // the symbol cell p cannot read
    kept.fill(UNKNOWN, 0, n);
    here.fill(0, 0, stride);
    there.fill(0, 0, stride);
    let left = false;
    let right = false;
    // Cut each edge reading `other` at p, from source q to target t: on the left when the start
    // cannot reach q, unless the cells after p are too few to finish from t whatever they hold,
    // which makes the right side free (as q > p makes the left side free).
    for (let q = 0; q < stride; q++) {
      for (let e = 0; e < 2; e++) {
        if (e === 0 ? !(q < m && symbol[q] === other) : !(loops[q] === 1 && other === 0)) continue;
        const t = e === 0 ? q + 1 : q;
        const leftDead = forward[p * stride + q] === 0;
        const rightDead = backward[(p + 1) * stride + t] === 0;
        if (leftDead && (q > p || m - t <= n - p - 1)) {
          here[q] = 1;
          left = true;
        } else if (rightDead) {
          there[t] = 1;
          right = true;
        } else if (leftDead) {
          here[q] = 1;
          left = true;
        } else return this.keepAll(kept);
      }
    }
    if (left) this.walk(p, -1, here, kept);
    if (right) this.walk(p + 1, 1, there, kept);
    return true;
  }

  /** Leaves in `kept` assigned cells that no way of filling the line fits. False when the line is feasible. */
  explainConflict(kept: Uint8Array): boolean {
    const { stride, n, here } = this;
    kept.fill(UNKNOWN, 0, n);
    if (this.feasible()) return this.keepAll(kept);
    here.fill(0, 0, stride);
    here[stride - 1] = 1;
    this.walk(n, -1, here, kept);
    return true;
  }

  /**
   * Keeps the states marked in `cut` cut off at layer i, walking to the line's start (step −1:
   * unreachable from the start, by `forward`) or to its end (step +1: unable to finish, by
   * `backward`). At each cell, either its value blocks every edge between a cut state and a live
   * neighbour (and the cell is kept), or the neighbours through the edges it leaves join the cut.
   */
  private walk(i: number, step: number, cut: Uint8Array, kept: Uint8Array): void {
    const { stride, n, symbol, loops, cells } = this;
    const live = step < 0 ? this.forward : this.backward;
    const m = stride - 1;
    const next = this.scratch;
    next.fill(0, 0, stride);
    let lo = 0;
    let hi = m;
    while (step < 0 ? i > 0 : i < n) {
      const at = step < 0 ? i - 1 : i; // the cell crossed
      const cell = cells[at]!;
      const layer = (i + step) * stride;
      // Is some edge between the cut and a live state (necessarily one the cell's value blocks)?
      let needed = false;
      for (let q = lo; q <= hi && !needed; q++) {
        if (cut[q] === 0) continue;
        const r = q + step;
        if (r >= 0 && r <= m && live[layer + r] === 1) needed = true;
        else if (loops[q] === 1 && live[layer + q] === 1) needed = true;
      }
      if (needed) kept[at] = cell;
      // The neighbours through edges the kept cell does not block must stay cut.
      const blocksFilled = needed && cell === EMPTY;
      const blocksEmpty = needed && cell === FILLED;
      let newLo = stride;
      let newHi = -1;
      for (let q = lo; q <= hi; q++) {
        if (cut[q] === 0) continue;
        cut[q] = 0;
        const r = q + step;
        if (r >= 0 && r <= m && !(symbol[step < 0 ? r : q] === 1 ? blocksFilled : blocksEmpty)) {
          next[r] = 1;
          if (r < newLo) newLo = r;
          if (r > newHi) newHi = r;
        }
        if (loops[q] === 1 && !blocksEmpty) {
          next[q] = 1;
          if (q < newLo) newLo = q;
          if (q > newHi) newHi = q;
        }
      }
      if (newHi < 0) return;
      // The cut of the next layer.
      for (let q = newLo; q <= newHi; q++) {
        cut[q] = next[q]!;
        next[q] = 0;
      }
      lo = newLo;
      hi = newHi;
      i += step;
    }
  }

  private keepAll(kept: Uint8Array): false {
    kept.set(this.cells.subarray(0, this.n));
    return false;
  }
}

import { EMPTY, FILLED } from '../../corpus/model.js';

/**
 * Counts the placements of a clue consistent with a line's known cells, and for each cell how
 * many of them fill it: the line's "solution density", which a search can use to pick the value
 * most placements agree on.
 *
 * The same prefix/suffix tables as the exact solver's table form (see exact.ts), holding counts
 * instead of reachability; counts are doubles (exact below 2^53, close enough above).
 */
export class LineCounter {
  private cells = -1;
  private blocks = -1;
  private nonEmptyRun = new Int32Array(0);
  private prefix = new Float64Array(0);
  private suffix = new Float64Array(0);
  private cover = new Float64Array(0);
  private lo = new Int32Array(0);

  private reserve(n: number, k: number): void {
    if (n <= this.cells && k <= this.blocks) return;
    const cells = Math.max(n, this.cells * 2, 32);
    const blocks = Math.max(k, this.blocks * 2, 8);
    this.cells = cells;
    this.blocks = blocks;
    this.nonEmptyRun = new Int32Array(cells + 1);
    this.prefix = new Float64Array((blocks + 1) * (cells + 1));
    this.suffix = new Float64Array((blocks + 1) * (cells + 1));
    this.cover = new Float64Array(cells + 1);
    this.lo = new Int32Array(blocks + 1);
  }

  /**
   * The number of consistent placements (0 when the line is impossible); `filled[c]` receives the
   * number of them that fill cell c, for c < n.
   */
  count(clue: Int32Array, line: Uint8Array, n: number, filled: Float64Array): number {
    const k = clue.length;
    if (k === 0) {
      for (let c = 0; c < n; c++) {
        if (line[c] === FILLED) return 0;
        filled[c] = 0;
      }
      return 1;
    }
    this.reserve(n, k);
    const lo = this.lo;
    let need = 0;
    for (let j = 0; j < k; j++) {
      lo[j] = need;
      need += clue[j]! + 1;
    }
    const slack = n - (need - 1);
    if (slack < 0) return 0;
    const run = this.nonEmptyRun;
    run[n] = 0;
    for (let i = n - 1; i >= 0; i--) run[i] = line[i] === EMPTY ? 0 : run[i + 1]! + 1;

    // prefix[j][i]: placements of blocks 0 … j−1 within [0, i), the rest of it empty.
    const W = n + 1;
    const prefix = this.prefix;
    prefix[0] = 1;
    for (let i = 1; i <= slack; i++) prefix[i] = line[i - 1] !== FILLED ? prefix[i - 1]! : 0;
    for (let j = 1; j <= k; j++) {
      const len = clue[j - 1]!;
      const first = lo[j - 1]! + len;
      const row = j * W;
      const before = row - W;
      for (let i = first; i <= first + slack; i++) {
        let ways = i > first && line[i - 1] !== FILLED ? prefix[row + i - 1]! : 0;
        const s = i - len;
        if (run[s]! >= len) {
          if (s === 0) ways += 1;
          else if (line[s - 1] !== FILLED) ways += prefix[before + s - 1]!;
        }
        prefix[row + i] = ways;
      }
    }
    const total = prefix[k * W + n]!;
    if (total === 0) return 0;

    // suffix[j][i]: placements of blocks j … k−1 within [i, n), the rest of it empty.
    const suffix = this.suffix;
    const rowK = k * W;
    suffix[rowK + n] = 1;
    for (let i = n - 1; i >= n - slack; i--) suffix[rowK + i] = line[i] !== FILLED ? suffix[rowK + i + 1]! : 0;
    for (let j = k - 1; j >= 0; j--) {
      const len = clue[j]!;
      const first = lo[j]!;
      const last = first + slack;
      const row = j * W;
      const after = row + W;
      for (let i = last; i >= first; i--) {
        let ways = i < last && line[i] !== FILLED ? suffix[row + i + 1]! : 0;
        if (run[i]! >= len) {
          const end = i + len;
          if (end === n) ways += 1;
          else if (line[end] !== FILLED) ways += suffix[after + end + 1]!;
        }
        suffix[row + i] = ways;
      }
    }

    // Each placement of block j at s counts (ways before) × (ways after) complete placements.
    const cover = this.cover;
    cover.fill(0, 0, n + 1);
    for (let j = 0; j < k; j++) {
      const len = clue[j]!;
      const first = lo[j]!;
      const row = j * W;
      const after = row + W;
      for (let s = first; s <= first + slack; s++) {
        if (run[s]! < len) continue;
        const left = s === 0 ? 1 : line[s - 1] === FILLED ? 0 : prefix[row + s - 1]!;
        if (left === 0) continue;
        const end = s + len;
        const right = end === n ? (j === k - 1 ? 1 : 0) : line[end] === FILLED ? 0 : suffix[after + end + 1]!;
        if (right === 0) continue;
        const ways = left * right;
        cover[s]! += ways;
        cover[end]! -= ways;
      }
    }
    let acc = 0;
    for (let c = 0; c < n; c++) {
      acc += cover[c]!;
      filled[c] = acc;
    }
    return total;
  }
}

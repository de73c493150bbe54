import { EMPTY, FILLED, UNKNOWN } from '../../corpus/model.js';
import { reverse31 } from './exact-wide.js';

/**
 * The bit-parallel exact line solver for lines of 62 to MULTI_MAX cells: the algorithm of the
 * one- and two-word forms (exact.ts, exact-wide.ts) on bit sets of W words of 31 bits, bit i of a
 * set in word ⌊i/31⌋. One bit in each word stays free, so that additions carry from word to word.
 * Every set lives in one scratch array, W words per slot, so a solve allocates nothing.
 */

/** Longest line of this form: positions 0 … n must fit in 8 words. */
export const MULTI_MAX = 8 * 31 - 1;

const WORD = 0x7fffffff;

// Slots of the scratch, each W words; the rows (prefix, suffix, fit) follow them.
const FILLED_SET = 0;
const EMPTY_SET = 1;
const ALL = 2;
const OPEN = 3;
const REACH = 4;
const START = 5;
const M_EMPTY = 6;
const M_OPEN = 7;
const CAN_EMPTY = 8;
const CAN_FILL = 9;
const BEFORE = 10;
const PART = 11;
/** Temporaries of the helpers (never passed to them as arguments). */
const T1 = 12;
const T2 = 13;
const SLOTS = 14;

/** Bit sets of W words in one array: slot i's words start at i·W. */
export class MultiWordLines {
  private mem = new Int32Array(64 * 8);
  private w = 1;

  private reserve(words: number, k: number): void {
    this.w = words;
    const need = (SLOTS + 4 * (k + 1)) * words;
    if (this.mem.length < need) this.mem = new Int32Array(Math.max(need, 2 * this.mem.length));
  }

  private clear(d: number): void {
    this.mem.fill(0, d, d + this.w);
  }

  /** Bits [0, count). */
  private lowBits(d: number, count: number): void {
    const m = this.mem;
    for (let i = 0; i < this.w; i++) {
      const lo = 31 * i;
      m[d + i] = count >= lo + 31 ? WORD : count <= lo ? 0 : (1 << (count - lo)) - 1;
    }
  }

  private setBit(d: number, i: number): void {
    this.mem[d + ((i / 31) | 0)]! |= 1 << i % 31;
  }

  private hasBit(s: number, i: number): boolean {
    return ((this.mem[s + ((i / 31) | 0)]! >>> i % 31) & 1) === 1;
  }

  /** d = s << by (d may be s); bits past the last word drop. */
  private shiftLeft(d: number, s: number, by: number): void {
    const m = this.mem;
    const q = (by / 31) | 0;
    const r = by % 31;
    for (let i = this.w - 1; i >= 0; i--) {
      const a = i - q >= 0 ? m[s + i - q]! : 0;
      const b = i - q - 1 >= 0 ? m[s + i - q - 1]! : 0;
      m[d + i] = r === 0 ? a : ((a << r) | (b >>> (31 - r))) & WORD;
    }
  }

  /** d = s >> by (d may be s). */
  private shiftRight(d: number, s: number, by: number): void {
    const m = this.mem;
    const w = this.w;
    const q = (by / 31) | 0;
    const r = by % 31;
    for (let i = 0; i < w; i++) {
      const a = i + q < w ? m[s + i + q]! : 0;
      const b = i + q + 1 < w ? m[s + i + q + 1]! : 0;
      m[d + i] = r === 0 ? a : ((a >>> r) | (b << (31 - r))) & WORD;
    }
  }

  /** d = positions reachable from `from` by steps t → t+1 over `open` bits (one addition with carries, as in exact.ts). */
  private spread(d: number, from: number, open: number): void {
    const m = this.mem;
    let carry = 0;
    for (let i = 0; i < this.w; i++) {
      const f = m[from + i]!;
      const o = m[open + i]!;
      const sum = (f & o) + o + carry;
      carry = sum >>> 31;
      m[d + i] = ((sum & WORD) ^ o) | f;
    }
  }

  /** d = s with bit i moved to bit top − i, for the bits 0 … top. */
  private mirror(d: number, s: number, top: number): void {
    const m = this.mem;
    const w = this.w;
    // Reversing all 31·W bits sends bit i to 31·W − 1 − i; then shift down.
    for (let i = 0; i < w; i++) m[T1 * w + i] = reverse31(m[s + w - 1 - i]!);
    this.shiftRight(d, T1 * w, 31 * w - 1 - top);
  }

  /** Leaves in T1 the bits of `src` spread over len cells: each bit b sets b … b+len−1 (toward higher bits) or b−len+1 … b. */
  private spreadBits(src: number, len: number, towardHigher: boolean): void {
    const m = this.mem;
    const w = this.w;
    const t = T1 * w;
    const u = T2 * w;
    m.copyWithin(t, src, src + w);
    // Doubling: after each step t holds the shifts 0 … width−1; the last step covers the rest.
    let width = 1;
    for (;;) {
      const by = width * 2 <= len ? width : len - width;
      if (towardHigher) this.shiftLeft(u, t, by);
      else this.shiftRight(u, t, by);
      for (let i = 0; i < w; i++) m[t + i]! |= m[u + i]!;
      if (width * 2 > len) return;
      width *= 2;
    }
  }

  /** d = starts s where cells [s, s+len) hold no EMPTY cell (of `empty`) and end within the line. */
  private startsWithoutEmpty(d: number, empty: number, len: number, n: number): void {
    if (len > n) {
      this.clear(d);
      return;
    }
    // A start is blocked when an EMPTY cell lies in the len cells from it.
    this.spreadBits(empty, len, false);
    this.lowBits(d, n - len + 1);
    const m = this.mem;
    const t = T1 * this.w;
    for (let i = 0; i < this.w; i++) m[d + i] = ~m[t + i]! & m[d + i]!;
  }

  /** Ors into d the bits s … s+len−1 for every bit s of `starts`. */
  private smearInto(d: number, starts: number, len: number): void {
    this.spreadBits(starts, len, true);
    const m = this.mem;
    const t = T1 * this.w;
    for (let i = 0; i < this.w; i++) m[d + i]! |= m[t + i]!;
  }

  /**
   * Solves `line` in place (n ≤ MULTI_MAX cells, a clue of at least one block), as LineSolver.solve:
   * false when no placement fits.
   */
  solve(clue: Int32Array, line: Uint8Array, n: number): boolean {
    const k = clue.length;
    this.reserve(Math.ceil((n + 1) / 31), k);
    const m = this.mem;
    const w = this.w;
    // Row j of each table: prefix at prefixes + j·w, suffix at suffixes + j·w, fit at fits + j·w.
    const prefixes = SLOTS * w;
    const suffixes = (SLOTS + k + 1) * w;
    const fits = (SLOTS + 2 * (k + 1)) * w;
    const mirroredFits = (SLOTS + 3 * (k + 1)) * w;
    const filled = FILLED_SET * w;
    const empty = EMPTY_SET * w;
    const all = ALL * w;
    const open = OPEN * w;
    const reach = REACH * w;
    const start = START * w;
    this.clear(filled);
    this.clear(empty);
    for (let c = 0; c < n; c++) {
      if (line[c] === FILLED) this.setBit(filled, c);
      else if (line[c] === EMPTY) this.setBit(empty, c);
    }
    this.lowBits(all, n);
    for (let i = 0; i < w; i++) m[open + i] = m[all + i]! & ~m[filled + i]!;

    // Prefix rows: prefix[j] = positions reachable with blocks 0 … j−1 placed.
    this.clear(start);
    this.setBit(start, 0);
    this.spread(prefixes, start, open);
    for (let j = 1; j <= k; j++) {
      const len = clue[j - 1]!;
      this.fitsOf(fits, j - 1, clue, empty, n, false);
      this.prefixStep(prefixes + j * w, prefixes + (j - 1) * w, open, fits + (j - 1) * w, len, j === 1);
    }
    if (!this.hasBit(prefixes + k * w, n)) return false;

    // Suffix rows: prefix rows of the mirrored line, mirrored back.
    const mEmpty = M_EMPTY * w;
    const mOpen = M_OPEN * w;
    this.mirror(mEmpty, empty, n - 1);
    this.mirror(mOpen, filled, n - 1);
    for (let i = 0; i < w; i++) m[mOpen + i] = m[all + i]! & ~m[mOpen + i]!;
    this.clear(start);
    this.setBit(start, 0);
    this.spread(reach, start, mOpen);
    this.mirror(suffixes + k * w, reach, n);
    for (let step = 1; step <= k; step++) {
      const len = clue[k - step]!;
      this.fitsOf(mirroredFits, k - step, clue, mEmpty, n, true);
      this.prefixStep(reach, reach, mOpen, mirroredFits + (k - step) * w, len, step === 1);
      this.mirror(suffixes + (k - step) * w, reach, n);
    }

    const canEmpty = CAN_EMPTY * w;
    const canFill = CAN_FILL * w;
    const part = PART * w;
    const before = BEFORE * w;
    this.clear(canEmpty);
    this.clear(canFill);
    for (let j = 0; j <= k; j++) {
      this.shiftRight(part, suffixes + j * w, 1);
      const p = prefixes + j * w;
      for (let i = 0; i < w; i++) m[canEmpty + i]! |= m[p + i]! & m[part + i]! & m[open + i]!;
    }
    for (let j = 0; j < k; j++) {
      const len = clue[j]!;
      // Starts of block j: after a reachable open cell (or at 0 for the first block), where it fits,
      for (let i = 0; i < w; i++) m[start + i] = m[prefixes + j * w + i]! & m[open + i]!;
      this.shiftLeft(start, start, 1);
      if (j === 0) this.setBit(start, 0);
      // and followed by an open cell with blocks j+1 … after it, or by the line's end.
      this.shiftRight(before, open, len);
      this.shiftRight(part, suffixes + (j + 1) * w, len + 1);
      for (let i = 0; i < w; i++) m[before + i]! &= m[part + i]!;
      if (j === k - 1) this.setBit(before, n - len);
      const f = fits + j * w;
      for (let i = 0; i < w; i++) m[start + i] = m[start + i]! & m[f + i]! & m[before + i]!;
      this.smearInto(canFill, start, len);
    }

    for (let c = 0; c < n; c++) {
      if (line[c] !== UNKNOWN) continue;
      const e = this.hasBit(canEmpty, c);
      const f = this.hasBit(canFill, c);
      if (!e) line[c] = FILLED;
      else if (!f) line[c] = EMPTY;
    }
    return true;
  }

  /**
   * Row j of the fit table at `rows`: the starts where block j fits between the EMPTY cells of
   * `empty`. A block as long as one whose row is already made (those before j, or after j when the
   * rows are made from the last block down) copies it: clues repeat lengths.
   */
  private fitsOf(rows: number, j: number, clue: Int32Array, empty: number, n: number, fromTheEnd: boolean): void {
    const w = this.w;
    const len = clue[j]!;
    const d = rows + j * w;
    for (let i = 0; i < clue.length; i++) {
      if (i === j || clue[i] !== len) continue;
      if (fromTheEnd ? i > j : i < j) {
        this.mem.copyWithin(d, rows + i * w, rows + i * w + w);
        return;
      }
    }
    this.startsWithoutEmpty(d, empty, len, n);
  }

  /** d = the positions reachable after placing one more block of `len` from the positions `from` (d may be `from`). */
  private prefixStep(d: number, from: number, open: number, fit: number, len: number, first: boolean): void {
    const m = this.mem;
    const w = this.w;
    const start = START * w;
    for (let i = 0; i < w; i++) m[start + i] = m[from + i]! & m[open + i]!;
    this.shiftLeft(start, start, 1);
    if (first) this.setBit(start, 0);
    for (let i = 0; i < w; i++) m[start + i]! &= m[fit + i]!;
    this.shiftLeft(start, start, len);
    this.spread(d, start, open);
  }
}

import { EMPTY, FILLED, UNKNOWN } from '../../corpus/model.js';
import { reverse31 } from './exact-wide.js';

/**
 * The bit-parallel exact line solver for lines of 62 to MULTI_MAX cells (and for lines of any
 * length up to that given as bit sets): the algorithm of the one- and two-word forms (exact.ts,
 * exact-wide.ts) on bit sets of W words of 31 bits, bit i of a set in word ⌊i/31⌋. One bit in each
 * word stays free, so that additions carry from word to word. Every set lives in one scratch
 * array, W words per slot, so a solve allocates nothing.
 */

/** Longest line of this form: positions 0 … n must fit in 8 words. */
export const MULTI_MAX = 8 * 31 - 1;

/** Words of a bit set of this form for a line of n cells (positions 0 … n). */
export const setWords = (n: number): number => Math.ceil((n + 1) / 31);

/** Writes a line given as bit sets (FILLED words, then EMPTY words from `stride`) into `line` as cell codes. */
export function setsToCells(sets: Int32Array, stride: number, line: Uint8Array, n: number): void {
  for (let c = 0; c < n; c++) {
    const word = (c / 31) | 0;
    const bit = c - 31 * word;
    line[c] = ((sets[word]! >>> bit) & 1) === 1 ? FILLED : ((sets[stride + word]! >>> bit) & 1) === 1 ? EMPTY : UNKNOWN;
  }
}

/** Writes the n cells of `line` into `sets` as bit sets, the other words of both sets zero. */
export function cellsToSets(line: Uint8Array, n: number, sets: Int32Array, stride: number): void {
  sets.fill(0, 0, 2 * stride);
  for (let c = 0; c < n; c++) {
    const word = (c / 31) | 0;
    if (line[c] === FILLED) sets[word]! |= 1 << (c - 31 * word);
    else if (line[c] === EMPTY) sets[stride + word]! |= 1 << (c - 31 * word);
  }
}

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
/** Temporaries of the helpers (never passed to them as arguments). */
const T1 = 10;
const T2 = 11;
const SLOTS = 12;

/** Bit sets of W words in one array: slot i's words start at i·W. */
export class MultiWordLines {
  private mem = new Int32Array(64 * 8);
  private w = 1;
  /** The blocks by length (see fitTable). */
  private order = new Int32Array(32);

  private reserve(words: number, k: number): void {
    this.w = words;
    const need = (SLOTS + 4 * (k + 1)) * words;
    if (this.mem.length < need) this.mem = new Int32Array(Math.max(need, 2 * this.mem.length));
    if (this.order.length < k) this.order = new Int32Array(Math.max(k, 2 * this.order.length));
  }

  private clear(d: number): void {
    const m = this.mem;
    for (let i = 0; i < this.w; i++) m[d + i] = 0;
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

  /** Ors into d the bits s … s+len−1 for every bit s of `starts`. */
  private smearInto(d: number, starts: number, len: number): void {
    const m = this.mem;
    const w = this.w;
    const t = T1 * w;
    const u = T2 * w;
    for (let i = 0; i < w; i++) m[t + i] = m[starts + i]!;
    // Doubling: after each step t holds the shifts 0 … width−1; the last step covers the rest.
    let width = 1;
    for (;;) {
      const by = width * 2 <= len ? width : len - width;
      this.shiftLeft(u, t, by);
      for (let i = 0; i < w; i++) m[t + i]! |= m[u + i]!;
      if (width * 2 > len) break;
      width *= 2;
    }
    for (let i = 0; i < w; i++) m[d + i]! |= m[t + i]!;
  }

  /**
   * Solves `line` in place (n ≤ MULTI_MAX cells, a clue of at least one block), as LineSolver.solve:
   * false when no placement fits.
   */
  solve(clue: Int32Array, line: Uint8Array, n: number): boolean {
    this.reserve(setWords(n), clue.length);
    const filled = FILLED_SET * this.w;
    const empty = EMPTY_SET * this.w;
    this.clear(filled);
    this.clear(empty);
    for (let c = 0; c < n; c++) {
      if (line[c] === FILLED) this.setBit(filled, c);
      else if (line[c] === EMPTY) this.setBit(empty, c);
    }
    if (!this.solveLoaded(clue, n)) return false;
    const canEmpty = CAN_EMPTY * this.w;
    const canFill = CAN_FILL * this.w;
    for (let c = 0; c < n; c++) {
      if (line[c] !== UNKNOWN) continue;
      if (!this.hasBit(canEmpty, c)) line[c] = FILLED;
      else if (!this.hasBit(canFill, c)) line[c] = EMPTY;
    }
    return true;
  }

  /**
   * Solves a line of up to MULTI_MAX cells given as bit sets of setWords(n) words, its FILLED cells
   * in sets[0 …] and its EMPTY cells in sets[stride …] (stride ≥ setWords(n)); on success writes the
   * line as solved the same way into `out`, words past setWords(n) of each set zero. The line
   * propagators keep lines longer than two mask words in this form, so most solves copy no cells.
   */
  solveSets(clue: Int32Array, n: number, sets: Int32Array, stride: number, out: Int32Array): boolean {
    const k = clue.length;
    const words = setWords(n);
    if (k === 0) {
      for (let i = 0; i < words; i++) if (sets[i] !== 0) return false;
    } else {
      this.reserve(words, k);
      const m = this.mem;
      for (let i = 0; i < words; i++) {
        m[FILLED_SET * words + i] = sets[i]!;
        m[EMPTY_SET * words + i] = sets[stride + i]!;
      }
      if (!this.solveLoaded(clue, n)) return false;
    }
    // A cell no placement leaves empty is filled, one no placement covers is empty (known cells included).
    const m = this.mem;
    for (let i = 0; i < stride; i++) {
      const lo = 31 * i;
      const all = i >= words ? 0 : n >= lo + 31 ? WORD : n <= lo ? 0 : (1 << (n - lo)) - 1;
      out[i] = k === 0 ? 0 : all & ~m[CAN_EMPTY * words + i]!;
      out[stride + i] = k === 0 ? all : all & ~m[CAN_FILL * words + i]!;
    }
    return true;
  }

  /** The solve on the FILLED and EMPTY sets already in their slots: leaves CAN_EMPTY and CAN_FILL, or returns false. */
  private solveLoaded(clue: Int32Array, n: number): boolean {
    const k = clue.length;
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
    this.lowBits(all, n);
    for (let i = 0; i < w; i++) m[open + i] = m[all + i]! & ~m[filled + i]!;

    // Prefix rows: prefix[j] = positions reachable with blocks 0 … j−1 placed.
    this.fitTable(fits, clue, empty);
    this.clear(start);
    this.setBit(start, 0);
    this.spread(prefixes, start, open);
    for (let j = 1; j <= k; j++) {
      const len = clue[j - 1]!;
      this.prefixStep(prefixes + j * w, prefixes + (j - 1) * w, open, fits + (j - 1) * w, len, j === 1);
    }
    if (!this.hasBit(prefixes + k * w, n)) return false;

    // Suffix rows: prefix rows of the mirrored line, mirrored back.
    const mEmpty = M_EMPTY * w;
    const mOpen = M_OPEN * w;
    this.mirror(mEmpty, empty, n - 1);
    this.mirror(mOpen, filled, n - 1);
    for (let i = 0; i < w; i++) m[mOpen + i] = m[all + i]! & ~m[mOpen + i]!;
    this.fitTable(mirroredFits, clue, mEmpty);
    this.clear(start);
    this.setBit(start, 0);
    this.spread(reach, start, mOpen);
    this.mirror(suffixes + k * w, reach, n);
    for (let step = 1; step <= k; step++) {
      const len = clue[k - step]!;
      this.prefixStep(reach, reach, mOpen, mirroredFits + (k - step) * w, len, step === 1);
      this.mirror(suffixes + (k - step) * w, reach, n);
    }

    const canEmpty = CAN_EMPTY * w;
    const canFill = CAN_FILL * w;
    this.clear(canEmpty);
    this.clear(canFill);
    for (let j = 0; j <= k; j++) {
      const p = prefixes + j * w;
      const sfx = suffixes + j * w;
      for (let i = 0; i < w; i++) m[canEmpty + i]! |= m[p + i]! & this.wordRight(sfx, i, 0, 1) & m[open + i]!;
    }
    for (let j = 0; j < k; j++) {
      const len = clue[j]!;
      const p = prefixes + j * w;
      const f = fits + j * w;
      const sfx = suffixes + (j + 1) * w;
      const q = ((len + 1) / 31) | 0;
      const r = (len + 1) % 31;
      // The line's end may follow the last block.
      const endWord = j === k - 1 ? ((n - len) / 31) | 0 : -1;
      const endBit = 1 << (n - len) % 31;
      let carry = j === 0 ? 1 : 0;
      for (let i = 0; i < w; i++) {
        // Starts of block j: after a reachable open cell (or at 0 for the first block), where it fits,
        const x = m[p + i]! & m[open + i]!;
        const after = ((x << 1) & WORD) | carry;
        carry = x >>> 30;
        // and followed by an open cell with blocks j+1 … after it, or by the line's end.
        let next = this.wordRight(open, i, (len / 31) | 0, len % 31) & this.wordRight(sfx, i, q, r);
        if (i === endWord) next |= endBit;
        m[start + i] = after & m[f + i]! & next;
      }
      this.smearInto(canFill, start, len);
    }
    return true;
  }

  /** Word i of the set at s shifted right by 31·q + r bits (r < 31). */
  private wordRight(s: number, i: number, q: number, r: number): number {
    const m = this.mem;
    const w = this.w;
    const a = i + q < w ? m[s + i + q]! : 0;
    if (r === 0) return a;
    const b = i + q + 1 < w ? m[s + i + q + 1]! : 0;
    return ((a >>> r) | (b << (31 - r))) & WORD;
  }

  /**
   * The fit table at `rows`: row j holds the starts where block j fits, that is where its cells
   * hold no EMPTY cell of `empty` and end within the line. The runs of free cells are grown by
   * doubling, A(h + s) = A(h) ∧ A(h) >> s for s ≤ h, taking the blocks shortest first, so each
   * length costs about one step (clues repeat and mix lengths).
   */
  private fitTable(rows: number, clue: Int32Array, empty: number): void {
    const m = this.mem;
    const w = this.w;
    const k = clue.length;
    const a = T1 * w;
    const u = T2 * w;
    const all = ALL * w;
    for (let i = 0; i < w; i++) m[a + i] = m[all + i]! & ~m[empty + i]!;
    const order = this.order;
    for (let j = 0; j < k; j++) {
      // Insertion sort by length: clues are short.
      let at = j;
      while (at > 0 && clue[order[at - 1]!]! > clue[j]!) {
        order[at] = order[at - 1]!;
        at--;
      }
      order[at] = j;
    }
    let have = 1;
    for (let t = 0; t < k; t++) {
      const j = order[t]!;
      const len = clue[j]!;
      while (have < len) {
        const by = Math.min(have, len - have);
        this.shiftRight(u, a, by);
        for (let i = 0; i < w; i++) m[a + i]! &= m[u + i]!;
        have += by;
      }
      for (let i = 0; i < w; i++) m[rows + j * w + i] = m[a + i]!;
    }
  }

  /** d = the positions reachable after placing one more block of `len` from the positions `from` (d may be `from`). */
  private prefixStep(d: number, from: number, open: number, fit: number, len: number, first: boolean): void {
    const m = this.mem;
    const w = this.w;
    const start = START * w;
    // Starts: the cell after a reachable open one (cell 0 too for the first block), where the block fits.
    let carry = first ? 1 : 0;
    for (let i = 0; i < w; i++) {
      const x = m[from + i]! & m[open + i]!;
      m[start + i] = (((x << 1) & WORD) | carry) & m[fit + i]!;
      carry = x >>> 30;
    }
    // The starts moved by len (shiftLeft) and spread over the open cells (spread), in one pass.
    const q = (len / 31) | 0;
    const r = len % 31;
    carry = 0;
    for (let i = 0; i < w; i++) {
      const a = i - q >= 0 ? m[start + i - q]! : 0;
      const b = i - q - 1 >= 0 ? m[start + i - q - 1]! : 0;
      const f = r === 0 ? a : ((a << r) | (b >>> (31 - r))) & WORD;
      const o = m[open + i]!;
      const sum = (f & o) + o + carry;
      carry = sum >>> 31;
      m[d + i] = ((sum & WORD) ^ o) | f;
    }
  }
}

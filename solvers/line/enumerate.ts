import { EMPTY, FILLED, type Clue, type Grid } from '../../corpus/model.js';

/**
 * Placements of one line's blocks, stored as bitsets.
 *
 * A placement is the set of FILLED cells of the line (bit i = cell i); its EMPTY cells are the
 * complement within the line. All placements of a line live in one flat Uint32Array, `words`
 * words per placement, so filtering is a linear scan with no allocation.
 */
export interface PlacementSet {
  /** Cells in the line. */
  readonly length: number;
  /** 32-bit words per placement: ceil(length / 32), at least 1. */
  readonly words: number;
  /** Live placements: the first `count * words` words of `bits`. */
  count: number;
  bits: Uint32Array;
}

/** Words needed for one bitset over a line of `length` cells. */
export const wordsFor = (length: number): number => Math.max(1, Math.ceil(length / 32));

/** C(n, k) exactly. */
export function binomial(n: number, k: number): bigint {
  if (k < 0 || n < 0 || k > n) return 0n;
  const r = Math.min(k, n - k);
  let c = 1n;
  // c stays C(n - r + i, i) after step i, so each division is exact.
  for (let i = 1; i <= r; i++) c = (c * BigInt(n - r + i)) / BigInt(i);
  return c;
}

/**
 * Number of placements of `clue` in a line of `length` cells: C(length − sum + 1, blocks),
 * 0 when the blocks cannot fit. Exact, so that a cap comparison is never fooled by rounding.
 */
export function placementCount(length: number, clue: Clue): bigint {
  let sum = 0;
  for (const b of clue) sum += b;
  return binomial(length - sum + 1, clue.length);
}

/** Flips bits [from, to) of the bitset starting at `offset`. Used to add and remove a block. */
function flipRange(bits: Uint32Array, offset: number, from: number, to: number): void {
  for (let i = from; i < to; ) {
    const w = i >>> 5;
    const lo = i & 31;
    const n = Math.min(32 - lo, to - i);
    const mask = n === 32 ? 0xffffffff : ((1 << n) - 1) << lo;
    bits[offset + w]! ^= mask;
    i += n;
  }
}

/**
 * Every placement of `clue` in a line of `length` cells, leftmost first.
 * Returns null when `shouldStop` fired (it is polled every 65536 placements).
 * The caller checks the count first (placementCount): this allocates count × words words.
 */
export function enumeratePlacements(length: number, clue: Clue, shouldStop?: () => boolean): PlacementSet | null {
  const words = wordsFor(length);
  const total = placementCount(length, clue);
  if (total > BigInt(Number.MAX_SAFE_INTEGER)) throw new RangeError(`line has ${total} placements, too many to store`);
  const bits = new Uint32Array(Number(total) * words);
  const set: PlacementSet = { length, words, count: 0, bits };
  if (total === 0n) return set;

  const k = clue.length;
  // minRest[b]: cells needed by blocks b.. with one-cell gaps, so block b may start at most at length - minRest[b].
  const minRest = new Array<number>(k + 1).fill(0);
  for (let b = k - 1; b >= 0; b--) minRest[b] = clue[b]! + minRest[b + 1]! + (b < k - 1 ? 1 : 0);
  const current = new Uint32Array(words);
  let stopped = false;

  const place = (b: number, earliest: number): void => {
    if (b === k) {
      bits.set(current, set.count * words);
      set.count++;
      if ((set.count & 0xffff) === 0 && shouldStop?.()) stopped = true;
      return;
    }
    const len = clue[b]!;
    const latest = length - minRest[b]!;
    for (let s = earliest; s <= latest && !stopped; s++) {
      flipRange(current, 0, s, s + len);
      place(b + 1, s + len + 1);
      flipRange(current, 0, s, s + len);
    }
  };
  place(0, 0);
  return stopped ? null : set;
}

/** Known FILLED and EMPTY cells of a grid line as bitsets (each `wordsFor(length)` words, overwritten). */
export function lineMasks(
  grid: Grid,
  start: number,
  stride: number,
  length: number,
  filled: Uint32Array,
  empty: Uint32Array,
): void {
  filled.fill(0);
  empty.fill(0);
  for (let i = 0, k = start; i < length; i++, k += stride) {
    const c = grid[k];
    if (c === FILLED) filled[i >>> 5]! |= 1 << (i & 31);
    else if (c === EMPTY) empty[i >>> 5]! |= 1 << (i & 31);
  }
}

/**
 * Drops, in place, the placements that contradict the known cells (a filled bit on a known-empty
 * cell, or a known-filled cell left empty), keeping the order of the others; meanwhile computes
 * `allFilled` (AND of the survivors: cells filled in every one) and `anyFilled` (OR: cells filled
 * in at least one). Returns the number dropped. When none survive, `allFilled` is all ones.
 * With `shouldStop`, it is polled every 65536 placements of more than one word (millions of
 * placements of a long line take seconds); once it returns true the filtering ends with -1, and the
 * set, half filtered, must not be used again.
 */
export function filterPlacements(
  set: PlacementSet,
  knownFilled: Uint32Array,
  knownEmpty: Uint32Array,
  allFilled: Uint32Array,
  anyFilled: Uint32Array,
  shouldStop?: () => boolean,
): number {
  const { words, bits } = set;
  const before = set.count;
  allFilled.fill(0xffffffff, 0, words);
  anyFilled.fill(0, 0, words);
  let write = 0;
  if (words === 1) {
    // The common case (lines up to 32 cells) without the inner loop.
    const f = knownFilled[0]!;
    const e = knownEmpty[0]!;
    let all = 0xffffffff;
    let any = 0;
    for (let p = 0; p < before; p++) {
      const v = bits[p]!;
      if ((v & e) !== 0 || (f & ~v) !== 0) continue;
      bits[write++] = v;
      all &= v;
      any |= v;
    }
    allFilled[0] = all;
    anyFilled[0] = any;
    set.count = write;
    return before - write;
  }
  for (let p = 0, off = 0; p < before; p++, off += words) {
    if ((p & 0xffff) === 0xffff && shouldStop?.()) return -1;
    let ok = true;
    for (let w = 0; w < words; w++) {
      const v = bits[off + w]!;
      if ((v & knownEmpty[w]!) !== 0 || (knownFilled[w]! & ~v) !== 0) {
        ok = false;
        break;
      }
    }
    if (!ok) continue;
    const to = write * words;
    for (let w = 0; w < words; w++) {
      const v = bits[off + w]!;
      bits[to + w] = v;
      allFilled[w]! &= v;
      anyFilled[w]! |= v;
    }
    write++;
  }
  set.count = write;
  return before - write;
}

/** Releases the unused tail of a set's buffer once most placements have been dropped. */
export function compactPlacements(set: PlacementSet): void {
  const used = set.count * set.words;
  if (used * 2 < set.bits.length) set.bits = set.bits.slice(0, used);
}

/** Placement `index` as cell codes (FILLED / EMPTY), for display and tests. */
export function placementCells(set: PlacementSet, index: number): Uint8Array {
  const cells = new Uint8Array(set.length);
  const off = index * set.words;
  for (let i = 0; i < set.length; i++)
    cells[i] = (set.bits[off + (i >>> 5)]! >>> (i & 31)) & 1 ? FILLED : EMPTY;
  return cells;
}

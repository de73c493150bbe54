/**
 * The bit-parallel exact line solver for lines of 31 to 61 cells: the one-word algorithm of
 * ExactLineSolver (see there) on 62-bit values held as two 31-bit words, lo = bits 0 … 30 and
 * hi = bits 31 … 61. Keeping one bit free in each word lets additions carry from lo into hi.
 *
 * The word helpers return the lo word and leave the hi word in `high[0]`, so no pair is allocated.
 */

/** Longest line of the two-word form: positions 0 … n must fit in 62 bits. */
export const WIDE_MAX = 61;

const WORD = 0x7fffffff;
/** The hi word of the last helper's result (a typed-array slot: cheaper to reach than a module variable). */
const high = new Int32Array(1);

/** Bits [0, m) for 0 ≤ m ≤ 62. */
function lowBits(m: number): number {
  if (m <= 31) {
    high[0] = 0;
    return m === 31 ? WORD : (1 << m) - 1;
  }
  high[0] = m === 62 ? WORD : (1 << (m - 31)) - 1;
  return WORD;
}

/** Bit i alone. */
function bit(i: number): number {
  if (i < 31) {
    high[0] = 0;
    return 1 << i;
  }
  high[0] = 1 << (i - 31);
  return 0;
}

function shiftLeft(lo: number, hi: number, s: number): number {
  if (s === 0) {
    high[0] = hi;
    return lo;
  }
  if (s >= 31) {
    high[0] = s >= 62 ? 0 : (lo << (s - 31)) & WORD;
    return 0;
  }
  high[0] = ((hi << s) | (lo >>> (31 - s))) & WORD;
  return (lo << s) & WORD;
}

function shiftRight(lo: number, hi: number, s: number): number {
  if (s === 0) {
    high[0] = hi;
    return lo;
  }
  if (s >= 31) {
    high[0] = 0;
    return s >= 62 ? 0 : hi >>> (s - 31);
  }
  high[0] = hi >>> s;
  return ((lo >>> s) | (hi << (31 - s))) & WORD;
}

/** Positions reachable from `from` by steps t → t+1 over `open` bits (see spread in exact.ts). */
function spread(fromLo: number, fromHi: number, openLo: number, openHi: number): number {
  const sumLo = (fromLo & openLo) + openLo;
  const carry = sumLo >>> 31;
  const sumHi = ((fromHi & openHi) + openHi + carry) & WORD;
  high[0] = (sumHi ^ openHi) | fromHi;
  return ((sumLo & WORD) ^ openLo) | fromLo;
}

/** The 31 low bits of x in reverse order. */
export function reverse31(x: number): number {
  x = ((x >>> 1) & 0x55555555) | ((x & 0x55555555) << 1);
  x = ((x >>> 2) & 0x33333333) | ((x & 0x33333333) << 2);
  x = ((x >>> 4) & 0x0f0f0f0f) | ((x & 0x0f0f0f0f) << 4);
  x = ((x >>> 8) & 0x00ff00ff) | ((x & 0x00ff00ff) << 8);
  return ((x >>> 16) | (x << 16)) >>> 1;
}

/** Bit i becomes bit `top` − i, for the bits 0 … top (top ≤ 61). */
function mirror(lo: number, hi: number, top: number): number {
  // Reversing all 62 bits sends bit i to 61 − i; then shift down by 61 − top.
  return shiftRight(reverse31(hi), reverse31(lo), 61 - top);
}

/** Bit s set when cells [s, s+len) hold no EMPTY cell and end within the line. */
function startsWithoutEmpty(emptyLo: number, emptyHi: number, len: number, n: number): number {
  if (len > n) {
    high[0] = 0;
    return 0;
  }
  let lo = emptyLo;
  let hi = emptyHi;
  let width = 1;
  while (width * 2 <= len) {
    const sLo = shiftRight(lo, hi, width);
    lo |= sLo;
    hi |= high[0]!;
    width *= 2;
  }
  const sLo = shiftRight(lo, hi, len - width);
  lo |= sLo;
  hi |= high[0]!;
  const mLo = lowBits(n - len + 1);
  const mHi = high[0]!;
  high[0] = ~hi & mHi;
  return ~lo & mLo;
}

/** Bits s … s+len−1 for every bit s of `starts`. */
function smear(lo: number, hi: number, len: number): number {
  let width = 1;
  while (width * 2 <= len) {
    const sLo = shiftLeft(lo, hi, width);
    lo |= sLo;
    hi |= high[0]!;
    width *= 2;
  }
  const sLo = shiftLeft(lo, hi, len - width);
  high[0] = hi | high[0]!;
  return lo | sLo;
}

/**
 * Scratch rows (two words per row) and the results of `solveWide`. One per ExactLineSolver.
 */
export class WideScratch {
  prefix = new Int32Array(32);
  suffix = new Int32Array(32);
  fit = new Int32Array(32);
  filledLo = 0;
  filledHi = 0;
  emptyLo = 0;
  emptyHi = 0;

  reserve(k: number): void {
    if (this.prefix.length >= 2 * (k + 1)) return;
    this.prefix = new Int32Array(4 * (k + 1));
    this.suffix = new Int32Array(4 * (k + 1));
    this.fit = new Int32Array(4 * (k + 1));
  }
}

/**
 * Solves a line of n ≤ 61 cells given as two-word masks of its FILLED and EMPTY cells; on success
 * the deduced masks are in `out.filledLo/Hi`, `out.emptyLo/Hi`. The clue has at least one block.
 */
export function solveWide(
  clue: Int32Array,
  n: number,
  filledLo: number,
  filledHi: number,
  emptyLo: number,
  emptyHi: number,
  out: WideScratch,
): boolean {
  const k = clue.length;
  out.reserve(k);
  const { prefix, suffix, fit } = out;
  const allLo = lowBits(n);
  const allHi = high[0]!;
  const openLo = allLo & ~filledLo;
  const openHi = allHi & ~filledHi;

  let reachLo = spread(1, 0, openLo, openHi);
  let reachHi = high[0]!;
  prefix[0] = reachLo;
  prefix[1] = reachHi;
  for (let j = 1; j <= k; j++) {
    const len = clue[j - 1]!;
    const fitLo = startsWithoutEmpty(emptyLo, emptyHi, len, n);
    const fitHi = high[0]!;
    fit[2 * (j - 1)] = fitLo;
    fit[2 * (j - 1) + 1] = fitHi;
    let startLo = shiftLeft(reachLo & openLo, reachHi & openHi, 1);
    let startHi = high[0]!;
    if (j === 1) startLo |= 1;
    startLo &= fitLo;
    startHi &= fitHi;
    const endLo = shiftLeft(startLo, startHi, len);
    reachLo = spread(endLo, high[0]!, openLo, openHi);
    reachHi = high[0]!;
    prefix[2 * j] = reachLo;
    prefix[2 * j + 1] = reachHi;
  }
  const nLo = bit(n);
  if ((reachLo & nLo) === 0 && (reachHi & high[0]!) === 0) return false;

  // Suffix rows: prefix rows of the mirrored line, mirrored back.
  const mEmptyLo = mirror(emptyLo, emptyHi, n - 1);
  const mEmptyHi = high[0]!;
  const mFilledLo = mirror(filledLo, filledHi, n - 1);
  const mOpenLo = allLo & ~mFilledLo;
  const mOpenHi = allHi & ~high[0]!;
  reachLo = spread(1, 0, mOpenLo, mOpenHi);
  reachHi = high[0]!;
  suffix[2 * k] = mirror(reachLo, reachHi, n);
  suffix[2 * k + 1] = high[0]!;
  for (let m = 1; m <= k; m++) {
    const len = clue[k - m]!;
    const fitLo = startsWithoutEmpty(mEmptyLo, mEmptyHi, len, n);
    const fitHi = high[0]!;
    let startLo = shiftLeft(reachLo & mOpenLo, reachHi & mOpenHi, 1);
    let startHi = high[0]!;
    if (m === 1) startLo |= 1;
    startLo &= fitLo;
    startHi &= fitHi;
    const endLo = shiftLeft(startLo, startHi, len);
    reachLo = spread(endLo, high[0]!, mOpenLo, mOpenHi);
    reachHi = high[0]!;
    suffix[2 * (k - m)] = mirror(reachLo, reachHi, n);
    suffix[2 * (k - m) + 1] = high[0]!;
  }

  let canEmptyLo = 0;
  let canEmptyHi = 0;
  for (let j = 0; j <= k; j++) {
    const sLo = shiftRight(suffix[2 * j]!, suffix[2 * j + 1]!, 1);
    canEmptyLo |= prefix[2 * j]! & sLo & openLo;
    canEmptyHi |= prefix[2 * j + 1]! & high[0]! & openHi;
  }
  let canFillLo = 0;
  let canFillHi = 0;
  for (let j = 0; j < k; j++) {
    const len = clue[j]!;
    let afterLo = shiftLeft(prefix[2 * j]! & openLo, prefix[2 * j + 1]! & openHi, 1);
    const afterHi = high[0]!;
    if (j === 0) afterLo |= 1;
    // Block j ending at s+len: the next cell open and the rest holding blocks j+1 …, or the line's end.
    const oLo = shiftRight(openLo, openHi, len);
    const oHi = high[0]!;
    const sLo = shiftRight(suffix[2 * (j + 1)]!, suffix[2 * (j + 1) + 1]!, len + 1);
    let beforeLo = oLo & sLo;
    let beforeHi = oHi & high[0]!;
    if (j === k - 1) {
      beforeLo |= bit(n - len);
      beforeHi |= high[0]!;
    }
    const coverLo = smear(afterLo & fit[2 * j]! & beforeLo, afterHi & fit[2 * j + 1]! & beforeHi, len);
    canFillLo |= coverLo;
    canFillHi |= high[0]!;
  }
  out.filledLo = allLo & ~canEmptyLo;
  out.filledHi = allHi & ~canEmptyHi;
  out.emptyLo = allLo & ~canFillLo;
  out.emptyHi = allHi & ~canFillHi;
  return true;
}

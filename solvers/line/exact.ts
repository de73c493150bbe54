import { EMPTY, FILLED, UNKNOWN, type Clue } from '../../corpus/model.js';
import { lineClue, type LineSolver } from './line-solver.js';
import { solveWide, WIDE_MAX, WideScratch } from './exact-wide.js';
import { MULTI_MAX, MultiWordLines, cellsToSets, setsToCells } from './exact-multi.js';

/**
 * The exact line solver: finds every cell that all placements of the clue consistent with the known
 * cells agree on, or proves that there is no such placement.
 *
 * Method: two reachability tables over (blocks placed, position).
 *   prefix[j][i] — cells [0, i) can hold exactly blocks 0 … j−1, every other cell there empty;
 *   suffix[j][i] — cells [i, n) can hold exactly blocks j … k−1, every other cell there empty.
 * Block j can start at s when its cells [s, s+len) hold no EMPTY cell, the cells just before and
 * after it are not FILLED (or are the line's ends), prefix[j][s−1] and suffix[j+1][s+len+1] hold.
 * Cell c can be empty when some j has prefix[j][c] and suffix[j][c+1] with c not FILLED.
 * A cell that can be filled but not empty is FILLED, and the other way round.
 *
 * Block j can only start within [lo_j, lo_j + slack] (lo_j = cells the blocks before it need,
 * slack = free cells of the line), so each table row only spans slack + 1 positions:
 * the work is O(n + k × slack) ≤ O(n × k), with no allocation once the scratch is big enough.
 */
export class ExactLineSolver implements LineSolver {
  readonly name = 'exact';
  /** Lines up to this many cells use the one-word bit-parallel form (positions 0 … n fit in 31 bits). */
  static readonly BIT_PARALLEL_MAX = 30;
  /** Lines up to this many cells use a bit-parallel form of one or two words (the propagator's masks); longer ones, up to MULTI_MAX cells, one of several words, then the tables. */
  static readonly MASK_MAX = WIDE_MAX;
  /** Results of `solveLineMasks`, also the scratch of the two-word form. */
  readonly masks = new WideScratch();
  /** The form for lines longer than two words hold (up to MULTI_MAX cells), made when first needed. */
  private multi: MultiWordLines | null = null;
  /** The cells of a line given as bit sets that the tables solve (see tablesFaster). */
  private setCells = new Uint8Array(0);
  /** False when the bit-parallel forms are disabled (then every line uses the tables). */
  readonly bitParallel: boolean;
  /** Bit-parallel rows: prefixBits[j], suffixBits[j] hold the reachable positions as bits. */
  private prefixBits = new Int32Array(16);
  private suffixBits = new Int32Array(16);
  private fitBits = new Int32Array(16);
  private cells = -1;
  private blocks = -1;
  /** nonEmptyRun[i]: consecutive non-EMPTY cells starting at i (nonEmptyRun[n] = 0). */
  private nonEmptyRun = new Int32Array(0);
  /** Rows of n+1 entries, one per number of blocks placed (0 … k). */
  private prefix = new Uint8Array(0);
  private suffix = new Uint8Array(0);
  /** Difference array of the cells covered by some valid block placement. */
  private cover = new Int32Array(0);
  private canEmpty = new Uint8Array(0);
  /** lo[j]: smallest start of block j. */
  private lo = new Int32Array(0);

  /** `bitParallel: false` forces the table form for every line (the tests compare the forms). */
  constructor(options: { bitParallel?: boolean } = {}) {
    this.bitParallel = options.bitParallel ?? true;
  }

  private reserve(n: number, k: number): void {
    if (n <= this.cells && k <= this.blocks) return;
    // Grow geometrically so a corpus of growing lines reallocates rarely.
    const cells = Math.max(n, this.cells * 2, 32);
    const blocks = Math.max(k, this.blocks * 2, 8);
    this.cells = cells;
    this.blocks = blocks;
    this.nonEmptyRun = new Int32Array(cells + 1);
    this.prefix = new Uint8Array((blocks + 1) * (cells + 1));
    this.suffix = new Uint8Array((blocks + 1) * (cells + 1));
    this.cover = new Int32Array(cells + 1);
    this.canEmpty = new Uint8Array(cells);
    this.lo = new Int32Array(blocks + 1);
  }

  solve(clue: Int32Array, line: Uint8Array, n: number): boolean {
    const k = clue.length;
    if (k === 0) return emptyLine(line, n);
    if (this.bitParallel) {
      if (n <= ExactLineSolver.BIT_PARALLEL_MAX) return this.solveBits(clue, line, n, k);
      if (n <= WIDE_MAX) return this.solveWideLine(clue, line, n);
      if (n <= MULTI_MAX && !tablesFaster(clue, n)) return (this.multi ??= new MultiWordLines()).solve(clue, line, n);
    }
    return this.solveTables(clue, line, n, k);
  }

  /**
   * A line of up to MULTI_MAX cells given as bit sets, as MultiWordLines.solveSets takes them (bit c
   * of a set in word ⌊c/31⌋: up to MASK_MAX cells, the words are the two masks of solveLineMasks,
   * which solves those lines faster); on success writes the solved line into `out` the same way.
   */
  solveLineSets(clue: Int32Array, n: number, sets: Int32Array, stride: number, out: Int32Array): boolean {
    if (n > ExactLineSolver.MASK_MAX) {
      if (!tablesFaster(clue, n)) return (this.multi ??= new MultiWordLines()).solveSets(clue, n, sets, stride, out);
      return this.solveSetsByTables(clue, n, sets, stride, out);
    }
    const two = stride > 1;
    if (!this.solveLineMasks(clue, n, sets[0]!, two ? sets[1]! : 0, sets[stride]!, two ? sets[stride + 1]! : 0)) return false;
    const masks = this.masks;
    out.fill(0);
    out[0] = masks.filledLo;
    out[stride] = masks.emptyLo;
    if (two) {
      out[1] = masks.filledHi;
      out[stride + 1] = masks.emptyHi;
    }
    return true;
  }

  /**
   * A line of up to MASK_MAX cells given as two-word masks (bits 0 … 30 in lo, 31 … 61 in hi) of
   * its FILLED and EMPTY cells; on success the deduced masks are in `masks.filledLo/Hi` and
   * `masks.emptyLo/Hi`. The propagator keeps lines in this form.
   */
  solveLineMasks(clue: Int32Array, n: number, filledLo: number, filledHi: number, emptyLo: number, emptyHi: number): boolean {
    const out = this.masks;
    if (n <= ExactLineSolver.BIT_PARALLEL_MAX) {
      if (!this.solveMasks(clue, n, filledLo, emptyLo)) return false;
      out.filledLo = this.filledOut;
      out.emptyLo = this.emptyOut;
      out.filledHi = 0;
      out.emptyHi = 0;
      return true;
    }
    if (clue.length === 0) {
      if ((filledLo | filledHi) !== 0) return false;
      out.filledLo = 0;
      out.filledHi = 0;
      out.emptyLo = 0x7fffffff;
      out.emptyHi = (1 << (n - 31)) - 1;
      return true;
    }
    return solveWide(clue, n, filledLo, filledHi, emptyLo, emptyHi, out);
  }

  /** solveLineSets through the tables: the sets copied into cells and back. */
  private solveSetsByTables(clue: Int32Array, n: number, sets: Int32Array, stride: number, out: Int32Array): boolean {
    if (this.setCells.length < n) this.setCells = new Uint8Array(Math.max(n, 2 * this.setCells.length));
    const line = this.setCells;
    setsToCells(sets, stride, line, n);
    if (!this.solveTables(clue, line, n, clue.length)) return false;
    cellsToSets(line, n, out, stride);
    return true;
  }

  private solveWideLine(clue: Int32Array, line: Uint8Array, n: number): boolean {
    let filledLo = 0;
    let filledHi = 0;
    let emptyLo = 0;
    let emptyHi = 0;
    for (let c = 0; c < n; c++) {
      const v = line[c];
      if (v === FILLED) {
        if (c < 31) filledLo |= 1 << c;
        else filledHi |= 1 << (c - 31);
      } else if (v === EMPTY) {
        if (c < 31) emptyLo |= 1 << c;
        else emptyHi |= 1 << (c - 31);
      }
    }
    const out = this.masks;
    if (!solveWide(clue, n, filledLo, filledHi, emptyLo, emptyHi, out)) return false;
    for (let c = 0; c < n; c++) {
      if (line[c] !== UNKNOWN) continue;
      const f = c < 31 ? (out.filledLo >>> c) & 1 : (out.filledHi >>> (c - 31)) & 1;
      const e = c < 31 ? (out.emptyLo >>> c) & 1 : (out.emptyHi >>> (c - 31)) & 1;
      if (f === 1) line[c] = FILLED;
      else if (e === 1) line[c] = EMPTY;
    }
    return true;
  }

  /**
   * The same tables as `solveTables`, one machine word per row: bit i of a row is position i.
   * Extending a reachable position across cells that may be empty is a carry chain, so it is one
   * addition (see `spread`); the whole solve is O(k log n) word operations plus one pass over the cells.
   */
  private solveBits(clue: Int32Array, line: Uint8Array, n: number, k: number): boolean {
    let filled = 0;
    let empty = 0;
    for (let c = 0; c < n; c++) {
      const v = line[c];
      if (v === FILLED) filled |= 1 << c;
      else if (v === EMPTY) empty |= 1 << c;
    }
    if (!this.solveMasksOf(clue, n, k, filled, empty)) return false;
    let becomeFilled = this.filledOut & ~filled;
    let becomeEmpty = this.emptyOut & ~empty;
    while (becomeFilled !== 0) {
      const low = becomeFilled & -becomeFilled;
      line[31 - Math.clz32(low)] = FILLED;
      becomeFilled ^= low;
    }
    while (becomeEmpty !== 0) {
      const low = becomeEmpty & -becomeEmpty;
      line[31 - Math.clz32(low)] = EMPTY;
      becomeEmpty ^= low;
    }
    return true;
  }

  /** After a successful `solveMasks`: the FILLED and EMPTY cells of the line (bit c = cell c). */
  filledOut = 0;
  emptyOut = 0;

  /**
   * The line given as bit masks of its FILLED and EMPTY cells (n ≤ BIT_PARALLEL_MAX): on success
   * the deduced masks are in `filledOut` / `emptyOut`. The propagator keeps lines in this form.
   */
  solveMasks(clue: Int32Array, n: number, filled: number, empty: number): boolean {
    const k = clue.length;
    if (k === 0) {
      if (filled !== 0) return false;
      this.filledOut = 0;
      this.emptyOut = n === 0 ? 0 : (1 << n) - 1;
      return true;
    }
    return this.solveMasksOf(clue, n, k, filled, empty);
  }

  private solveMasksOf(clue: Int32Array, n: number, k: number, filled: number, empty: number): boolean {
    if (this.prefixBits.length <= k) {
      this.prefixBits = new Int32Array(2 * k + 2);
      this.suffixBits = new Int32Array(2 * k + 2);
      this.fitBits = new Int32Array(2 * k + 2);
    }
    const prefix = this.prefixBits;
    const suffix = this.suffixBits;
    const fit = this.fitBits;
    const all = (1 << n) - 1;
    // open bit t: cell t may be empty, so a reachable position t extends to t+1.
    const open = all & ~filled;

    let reach = spread(1, open);
    prefix[0] = reach;
    for (let j = 1; j <= k; j++) {
      const len = clue[j - 1]!;
      const fits = startsWithoutEmpty(empty, len, n);
      fit[j - 1] = fits;
      const starts = (((reach & open) << 1) | (j === 1 ? 1 : 0)) & fits;
      reach = spread(starts << len, open);
      prefix[j] = reach;
    }
    if (((reach >>> n) & 1) === 0) return false;

    // Suffix rows are the prefix rows of the mirrored line, mirrored back.
    const mirroredEmpty = mirrorCells(empty, n);
    const mirroredOpen = all & ~mirrorCells(filled, n);
    reach = spread(1, mirroredOpen);
    suffix[k] = mirrorPositions(reach, n);
    for (let m = 1; m <= k; m++) {
      const len = clue[k - m]!;
      const starts = (((reach & mirroredOpen) << 1) | (m === 1 ? 1 : 0)) & startsWithoutEmpty(mirroredEmpty, len, n);
      reach = spread(starts << len, mirroredOpen);
      suffix[k - m] = mirrorPositions(reach, n);
    }

    let canEmpty = 0;
    for (let j = 0; j <= k; j++) canEmpty |= prefix[j]! & (suffix[j]! >>> 1) & open;
    let canFill = 0;
    for (let j = 0; j < k; j++) {
      const len = clue[j]!;
      const afterPrefix = ((prefix[j]! & open) << 1) | (j === 0 ? 1 : 0);
      // Block j ending at s+len: the next cell open and the rest holding blocks j+1 …, or the line's end.
      const beforeSuffix = ((open >>> len) & (suffix[j + 1]! >>> (len + 1))) | (j === k - 1 ? 1 << (n - len) : 0);
      canFill |= smear(afterPrefix & fit[j]! & beforeSuffix, len);
    }
    // A cell that cannot be empty is filled, one that cannot be filled is empty.
    this.filledOut = all & ~canEmpty;
    this.emptyOut = all & ~canFill;
    return true;
  }

  private solveTables(clue: Int32Array, line: Uint8Array, n: number, k: number): boolean {
    this.reserve(n, k);
    const lo = this.lo;
    let need = 0;
    for (let j = 0; j < k; j++) {
      lo[j] = need;
      need += clue[j]! + 1;
    }
    const slack = n - (need - 1);
    if (slack < 0) return false;

    const run = this.nonEmptyRun;
    run[n] = 0;
    for (let i = n - 1; i >= 0; i--) run[i] = line[i] === EMPTY ? 0 : run[i + 1]! + 1;

    const W = n + 1;
    const prefix = this.prefix;
    // Row 0: no block yet, so the prefix must be free of FILLED cells.
    prefix[0] = 1;
    for (let i = 1; i <= slack; i++) prefix[i] = prefix[i - 1] === 1 && line[i - 1] !== FILLED ? 1 : 0;
    for (let j = 1; j <= k; j++) {
      const len = clue[j - 1]!;
      const first = lo[j - 1]! + len; // smallest end of block j-1
      const last = first + slack;
      const row = j * W;
      const before = row - W;
      for (let i = first; i <= last; i++) {
        let reach = 0;
        if (i > first && prefix[row + i - 1] === 1 && line[i - 1] !== FILLED) reach = 1;
        else {
          const s = i - len; // block j-1 occupying [s, i)
          if (run[s]! >= len) {
            if (s === 0) reach = 1; // only block 0 can start at 0
            else if (prefix[before + s - 1] === 1 && line[s - 1] !== FILLED) reach = 1;
          }
        }
        prefix[row + i] = reach;
      }
    }
    if (prefix[k * W + n] !== 1) return false;

    const suffix = this.suffix;
    const rowK = k * W;
    suffix[rowK + n] = 1;
    for (let i = n - 1; i >= n - slack; i--) suffix[rowK + i] = suffix[rowK + i + 1] === 1 && line[i] !== FILLED ? 1 : 0;
    for (let j = k - 1; j >= 0; j--) {
      const len = clue[j]!;
      const first = lo[j]!;
      const last = first + slack;
      const row = j * W;
      const after = row + W;
      for (let i = last; i >= first; i--) {
        let reach = 0;
        if (i < last && suffix[row + i + 1] === 1 && line[i] !== FILLED) reach = 1;
        else if (run[i]! >= len) {
          const end = i + len; // block j occupying [i, end)
          if (end === n) reach = 1; // only the last block can end the line
          else if (line[end] !== FILLED && suffix[after + end + 1] === 1) reach = 1;
        }
        suffix[row + i] = reach;
      }
    }

    // Cells some valid placement fills: a +1/-1 difference array over block placements.
    const cover = this.cover;
    cover.fill(0, 0, n + 1);
    for (let j = 0; j < k; j++) {
      const len = clue[j]!;
      const first = lo[j]!;
      const last = first + slack;
      const row = j * W;
      const after = row + W;
      for (let s = first; s <= last; s++) {
        if (run[s]! < len) continue;
        if (s > 0 && (prefix[row + s - 1] !== 1 || line[s - 1] === FILLED)) continue;
        const end = s + len;
        if (end < n && (line[end] === FILLED || suffix[after + end + 1] !== 1)) continue;
        cover[s]!++;
        cover[end]!--;
      }
    }

    // Cells some valid placement leaves empty: a gap after j blocks.
    const canEmpty = this.canEmpty;
    canEmpty.fill(0, 0, n);
    for (let j = 0; j <= k; j++) {
      const first = j === 0 ? 0 : lo[j - 1]! + clue[j - 1]!;
      // Before block 0 the gap ends where block 0 can last start; elsewhere it spans slack + 1 cells.
      const last = Math.min(j === 0 ? slack - 1 : first + slack, n - 1);
      const row = j * W;
      for (let c = first; c <= last; c++) {
        if (prefix[row + c] === 1 && suffix[row + c + 1] === 1 && line[c] !== FILLED) canEmpty[c] = 1;
      }
    }

    let covered = 0;
    for (let c = 0; c < n; c++) {
      covered += cover[c]!;
      if (line[c] !== UNKNOWN) continue;
      if (covered === 0) line[c] = EMPTY;
      else if (canEmpty[c] === 0) line[c] = FILLED;
    }
    return true;
  }
}

/**
 * Positions reachable from `from` by steps t → t+1 over `open` bits: within each run of open bits,
 * adding the run to its lowest reached bit carries through the rest of the run and one past it.
 */
function spread(from: number, open: number): number {
  const steps = from & open;
  return (((steps + open) ^ open) | from) | 0;
}

/** Bit s set when cells [s, s+len) hold no EMPTY cell and end within the line. */
function startsWithoutEmpty(empty: number, len: number, n: number): number {
  if (len > n) return 0;
  // Bit s of `blocked`: some EMPTY in [s, s+len), built by doubling the window.
  let blocked = empty;
  let width = 1;
  while (width * 2 <= len) {
    blocked |= blocked >>> width;
    width *= 2;
  }
  blocked |= blocked >>> (len - width);
  return ~blocked & ((1 << (n - len + 1)) - 1);
}

/** Bits s … s+len−1 for every bit s of `starts`. */
function smear(starts: number, len: number): number {
  let cover = starts;
  let width = 1;
  while (width * 2 <= len) {
    cover |= cover << width;
    width *= 2;
  }
  return cover | (cover << (len - width));
}

function reverse32(x: number): number {
  x = ((x >>> 1) & 0x55555555) | ((x & 0x55555555) << 1);
  x = ((x >>> 2) & 0x33333333) | ((x & 0x33333333) << 2);
  x = ((x >>> 4) & 0x0f0f0f0f) | ((x & 0x0f0f0f0f) << 4);
  x = ((x >>> 8) & 0x00ff00ff) | ((x & 0x00ff00ff) << 8);
  return (x >>> 16) | (x << 16);
}

/** Cell bits of a line of n cells, mirrored: bit t becomes bit n−1−t. */
const mirrorCells = (bits: number, n: number): number => (n === 0 ? 0 : reverse32(bits) >>> (32 - n));

/** Position bits 0 … n mirrored: bit i becomes bit n−i. */
const mirrorPositions = (bits: number, n: number): number => reverse32(bits) >>> (31 - n);

/** A line without blocks: every cell empty, impossible when one is FILLED. */
export function emptyLine(line: Uint8Array, n: number): boolean {
  for (let i = 0; i < n; i++) if (line[i] === FILLED) return false;
  line.fill(EMPTY, 0, n);
  return true;
}

const shared = new ExactLineSolver();

/**
 * Convenience form (allocates): the deduced line, or null when the line is impossible.
 * Hot paths keep their own ExactLineSolver and call `solve` on a scratch line instead.
 */
export function solveLineExact(clue: Clue | Int32Array, line: ArrayLike<number>): Uint8Array | null {
  const cells = Uint8Array.from(line);
  return shared.solve(lineClue(clue), cells, cells.length) ? cells : null;
}

/**
 * For lines past two words: whether the tables solve this clue faster than the bit sets, that is
 * when it leaves the blocks little room (their work grows with blocks × room, where the bit sets'
 * work has a floor of a few passes over every row and word).
 */
function tablesFaster(clue: Int32Array, n: number): boolean {
  let room = n + 1;
  for (let j = 0; j < clue.length; j++) room -= clue[j]! + 1;
  return room < 2 * Math.ceil((n + 1) / 31);
}

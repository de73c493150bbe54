import { EMPTY, FILLED, UNKNOWN, type Puzzle } from '../../corpus/model.js';
import { ExactLineSolver } from '../line/exact.js';
import { MULTI_MAX, setWords } from '../line/exact-multi.js';
import { ArrayLineCache, CACHE_HIT, CACHE_IMPOSSIBLE, CACHE_MISS, IMPOSSIBLE_LINE, MaskLineCache, SetLineCache } from '../line/line-cache.js';
import { lineClue, type LineSolver } from '../line/line-solver.js';
import type { SolveTrace } from '../api/types.js';

/**
 * Cells of the lines solved between two polls of the cancellation check: 256 solves of 32-cell
 * lines, but a poll every two solves of 4000-cell ones, whose solves take milliseconds each.
 */
const POLL_CELLS = 256 * 32;

export interface PropagatorOptions {
  /** Remember each line's result per (line, state) so the same state is never solved twice (default true). */
  cache?: boolean;
  /** Polled every few thousand cells of lines solved; once true, `propagate` stops early and sets `stopped`. */
  shouldStop?: () => boolean;
}

/**
 * Line propagation over a whole grid: solves lines until none can deduce more (a fixpoint) or one
 * is impossible (a contradiction).
 *
 * Lines are numbered rows first (0 … height−1), then columns (height … height+width−1). Only lines
 * with a cell changed since their last solve are queued. Every cell set is pushed on a trail, so a
 * search can return to an earlier state with `undo(mark)` instead of copying the grid. With the
 * cache on, a line state met before gets its earlier result without a solver call.
 *
 * Three internal forms. With the exact solver, each line is also kept as bits of its FILLED and its
 * EMPTY cells and solved in that form, with no copying of cells: as two-word masks when no line
 * exceeds 61 cells, as bit sets of several words (exact-multi.ts) up to MULTI_MAX cells. Otherwise
 * lines are copied to a scratch array for the solver.
 */
export class Propagator {
  readonly width: number;
  readonly height: number;
  readonly lineCount: number;
  /** The grid being solved (row-major cell codes); set cells through `assign` only. */
  readonly grid: Uint8Array;
  /** Clue of each line, in the line solvers' form. */
  readonly clues: Int32Array[];
  /** Cells set so far, in order; `trailLength` entries are live. */
  readonly trail: Int32Array;
  trailLength = 0;
  /** Unknown cells per line, kept up to date by assign/undo. */
  readonly unknownInLine: Int32Array;

  /** Line-solver calls (cache hits excluded). */
  lineSolves = 0;
  cacheHits = 0;
  /** Calls of `propagate`. */
  propagations = 0;
  /** Set when the cancellation check fired during `propagate`. */
  stopped = false;
  /** Told each line solve of `propagate` (null: no observer, the default). */
  trace: SolveTrace | null = null;

  private readonly solver: LineSolver;
  private readonly shouldStop: () => boolean;
  private readonly queue: Int32Array;
  private queueHead = 0;
  private queueSize = 0;
  private readonly queued: Uint8Array;
  private sincePoll = 0;

  /**
   * Mask form: the exact solver, and per line two-word masks of its FILLED and EMPTY cells
   * (cell c is bit c of lo for c < 31, bit c−31 of hi otherwise).
   */
  private readonly maskSolver: ExactLineSolver | null;
  private readonly filledLo: Int32Array;
  private readonly filledHi: Int32Array;
  private readonly emptyLo: Int32Array;
  private readonly emptyHi: Int32Array;
  private readonly maskCache: MaskLineCache | null;
  /**
   * Set form: per line, setStride words of its FILLED cells then setStride of its EMPTY cells, at
   * line · 2 · setStride (cell c is bit c mod 31 of word ⌊c/31⌋).
   */
  private readonly setSolver: ExactLineSolver | null;
  private readonly setStride: number;
  private readonly sets: Int32Array;
  private readonly setCache: SetLineCache | null;
  /** The line being solved, and its result, in the same layout. */
  private readonly setLine: Int32Array;
  private readonly setResult: Int32Array;
  /** Array form. */
  private readonly scratch: Uint8Array;
  private readonly arrayCache: ArrayLineCache | null;
  /**
   * The array cache's key for each line: the first line of the same length and clue. One
   * propagation never meets a line's own state twice, so only lines that share a clue let the cache
   * of a propagation without search (`overlap`) save a solve.
   */
  private readonly arrayCacheLine: Int32Array;

  constructor(puzzle: Puzzle, solver: LineSolver, options: PropagatorOptions = {}) {
    const { width, height } = puzzle;
    this.width = width;
    this.height = height;
    this.lineCount = width + height;
    this.grid = new Uint8Array(width * height);
    this.clues = [...puzzle.rows, ...puzzle.columns].map((c) => lineClue(c));
    this.trail = new Int32Array(width * height);
    this.unknownInLine = new Int32Array(this.lineCount);
    for (let y = 0; y < height; y++) this.unknownInLine[y] = width;
    for (let x = 0; x < width; x++) this.unknownInLine[height + x] = height;
    this.solver = solver;
    this.shouldStop = options.shouldStop ?? (() => false);
    this.queue = new Int32Array(this.lineCount);
    this.queued = new Uint8Array(this.lineCount);
    const cache = options.cache ?? true;
    const longest = Math.max(width, height);
    const bitForm = solver instanceof ExactLineSolver && solver.bitParallel;
    const maskForm = bitForm && longest <= ExactLineSolver.MASK_MAX;
    const setForm = bitForm && !maskForm && longest <= MULTI_MAX;
    this.maskSolver = maskForm ? solver : null;
    const masks = maskForm ? this.lineCount : 0;
    this.filledLo = new Int32Array(masks);
    this.filledHi = new Int32Array(masks);
    this.emptyLo = new Int32Array(masks);
    this.emptyHi = new Int32Array(masks);
    this.maskCache = maskForm && cache ? new MaskLineCache() : null;
    this.setSolver = setForm ? solver : null;
    this.setStride = setForm ? setWords(longest) : 0;
    this.sets = new Int32Array(2 * this.setStride * (setForm ? this.lineCount : 0));
    this.setLine = new Int32Array(2 * this.setStride);
    this.setResult = new Int32Array(2 * this.setStride);
    this.setCache = setForm && cache ? new SetLineCache(this.setStride) : null;
    this.scratch = new Uint8Array(longest);
    this.arrayCache = !maskForm && !setForm && cache ? new ArrayLineCache(this.lineCount) : null;
    this.arrayCacheLine = this.arrayCache ? sameClueLines(this.clues, height, width, height) : new Int32Array(0);
  }

  /** True when lines are kept and solved as bit masks (the fast form: the exact solver, lines up to 61 cells). */
  get solvesMasks(): boolean {
    return this.maskSolver !== null;
  }

  /** True when lines are kept and solved as bit sets of several words (the exact solver, lines of 62 to MULTI_MAX cells). */
  get solvesSets(): boolean {
    return this.setSolver !== null;
  }

  /** Times a full cache was emptied. */
  get cacheResets(): number {
    return (this.maskCache?.resets ?? 0) + (this.setCache?.resets ?? 0) + (this.arrayCache?.resets ?? 0);
  }

  /** Queues one line for solving (no-op when already queued). */
  enqueue(line: number): void {
    if (this.queued[line] === 1) return;
    this.queued[line] = 1;
    let at = this.queueHead + this.queueSize;
    if (at >= this.lineCount) at -= this.lineCount;
    this.queue[at] = line;
    this.queueSize++;
  }

  enqueueAll(): void {
    for (let line = 0; line < this.lineCount; line++) this.enqueue(line);
  }

  /** Sets an UNKNOWN cell, records it on the trail and queues its row and column. */
  assign(cell: number, value: number): void {
    const width = this.width;
    const y = (cell / width) | 0;
    const x = cell - y * width;
    const column = this.height + x;
    this.grid[cell] = value;
    this.trail[this.trailLength++] = cell;
    this.unknownInLine[y]!--;
    this.unknownInLine[column]!--;
    if (this.maskSolver) {
      const filled = value === FILLED;
      if (x < 31) (filled ? this.filledLo : this.emptyLo)[y]! |= 1 << x;
      else (filled ? this.filledHi : this.emptyHi)[y]! |= 1 << (x - 31);
      if (y < 31) (filled ? this.filledLo : this.emptyLo)[column]! |= 1 << y;
      else (filled ? this.filledHi : this.emptyHi)[column]! |= 1 << (y - 31);
    } else if (this.setSolver) {
      const stride = this.setStride;
      const at = value === FILLED ? 0 : stride;
      const xWord = (x / 31) | 0;
      const yWord = (y / 31) | 0;
      this.sets[2 * stride * y + at + xWord]! |= 1 << (x - 31 * xWord);
      this.sets[2 * stride * column + at + yWord]! |= 1 << (y - 31 * yWord);
    }
    this.enqueue(y);
    this.enqueue(column);
  }

  /** Returns every cell set after trail position `mark` to UNKNOWN. */
  undo(mark: number): void {
    const { grid, trail, width, height, unknownInLine } = this;
    const masks = this.maskSolver !== null;
    const stride = this.setStride; // 0 unless in set form
    for (let t = this.trailLength - 1; t >= mark; t--) {
      const cell = trail[t]!;
      const y = (cell / width) | 0;
      const x = cell - y * width;
      if (masks) {
        const filled = grid[cell] === FILLED;
        if (x < 31) (filled ? this.filledLo : this.emptyLo)[y]! &= ~(1 << x);
        else (filled ? this.filledHi : this.emptyHi)[y]! &= ~(1 << (x - 31));
        if (y < 31) (filled ? this.filledLo : this.emptyLo)[height + x]! &= ~(1 << y);
        else (filled ? this.filledHi : this.emptyHi)[height + x]! &= ~(1 << (y - 31));
      } else if (stride > 0) {
        const at = grid[cell] === FILLED ? 0 : stride;
        const xWord = (x / 31) | 0;
        const yWord = (y / 31) | 0;
        this.sets[2 * stride * y + at + xWord]! &= ~(1 << (x - 31 * xWord));
        this.sets[2 * stride * (height + x) + at + yWord]! &= ~(1 << (y - 31 * yWord));
      }
      grid[cell] = UNKNOWN;
      unknownInLine[y]!++;
      unknownInLine[height + x]!++;
    }
    this.trailLength = mark;
  }

  /** Empties the queue (after a contradiction or a stop). */
  clearQueue(): void {
    while (this.queueSize > 0) {
      this.queued[this.queue[this.queueHead]!] = 0;
      this.queueHead = this.queueHead + 1 === this.lineCount ? 0 : this.queueHead + 1;
      this.queueSize--;
    }
    this.queueHead = 0;
  }

  /**
   * Solves queued lines until the queue is empty. Returns false on a contradiction (some line
   * impossible; the queue is emptied, the cells set so far stay on the trail). When the cancellation
   * check fires it stops early, sets `stopped` and returns true: the deductions made are still sound.
   */
  propagate(): boolean {
    this.propagations++;
    const { queue, queued, lineCount } = this;
    const masks = this.maskSolver !== null;
    const sets = this.setSolver !== null;
    const trace = this.trace;
    while (this.queueSize > 0) {
      const line = queue[this.queueHead]!;
      this.queueHead = this.queueHead + 1 === lineCount ? 0 : this.queueHead + 1;
      this.queueSize--;
      queued[line] = 0;
      const from = this.trailLength;
      const ok = masks ? this.solveMaskLine(line) : sets ? this.solveSetLine(line) : this.solveArrayLine(line);
      if (trace !== null) trace.line(line, ok, this.grid, this.trail, from, this.trailLength);
      if (!ok) {
        this.clearQueue();
        return false;
      }
      this.sincePoll += line < this.height ? this.width : this.height;
      if (this.sincePoll >= POLL_CELLS) {
        this.sincePoll = 0;
        if (this.shouldStop()) {
          this.stopped = true;
          this.clearQueue();
          return true;
        }
      }
    }
    return true;
  }

  /** Mask form: solve (or look up) one line and assign what it decides. */
  private solveMaskLine(line: number): boolean {
    const filledLo = this.filledLo[line]!;
    const filledHi = this.filledHi[line]!;
    const emptyLo = this.emptyLo[line]!;
    const emptyHi = this.emptyHi[line]!;
    let rFilledLo: number;
    let rFilledHi: number;
    let rEmptyLo: number;
    let rEmptyHi: number;
    const cache = this.maskCache;
    const isRow = line < this.height;
    if (cache !== null && cache.lookup(line, filledLo, filledHi, emptyLo, emptyHi)) {
      this.cacheHits++;
      if (cache.filledLo === IMPOSSIBLE_LINE) return false;
      rFilledLo = cache.filledLo;
      rFilledHi = cache.filledHi;
      rEmptyLo = cache.emptyLo;
      rEmptyHi = cache.emptyHi;
    } else {
      this.lineSolves++;
      const solver = this.maskSolver!;
      if (!solver.solveLineMasks(this.clues[line]!, isRow ? this.width : this.height, filledLo, filledHi, emptyLo, emptyHi)) {
        cache?.store(line, filledLo, filledHi, emptyLo, emptyHi, IMPOSSIBLE_LINE, 0, 0, 0);
        return false;
      }
      const out = solver.masks;
      rFilledLo = out.filledLo;
      rFilledHi = out.filledHi;
      rEmptyLo = out.emptyLo;
      rEmptyHi = out.emptyHi;
      cache?.store(line, filledLo, filledHi, emptyLo, emptyHi, rFilledLo, rFilledHi, rEmptyLo, rEmptyHi);
    }
    const newFilledLo = rFilledLo & ~filledLo;
    const newFilledHi = rFilledHi & ~filledHi;
    const newEmptyLo = rEmptyLo & ~emptyLo;
    const newEmptyHi = rEmptyHi & ~emptyHi;
    if ((newFilledLo | newFilledHi | newEmptyLo | newEmptyHi) === 0) return true;
    const start = isRow ? line * this.width : line - this.height;
    const stride = isRow ? 1 : this.width;
    this.assignBits(newFilledLo, start, stride, FILLED);
    this.assignBits(newEmptyLo, start, stride, EMPTY);
    this.assignBits(newFilledHi, start + 31 * stride, stride, FILLED);
    this.assignBits(newEmptyHi, start + 31 * stride, stride, EMPTY);
    return true;
  }

  /** Set form: solve (or look up) one line and assign what it decides. */
  private solveSetLine(line: number): boolean {
    const { setLine, setResult } = this;
    const stride = this.setStride;
    const at = 2 * stride * line;
    for (let i = 0; i < 2 * stride; i++) setLine[i] = this.sets[at + i]!;
    const found = this.setCache === null ? CACHE_MISS : this.setCache.lookup(line, setLine, setResult);
    if (found === CACHE_IMPOSSIBLE) {
      this.cacheHits++;
      return false;
    }
    const isRow = line < this.height;
    if (found === CACHE_HIT) this.cacheHits++;
    else {
      this.lineSolves++;
      const ok = this.setSolver!.solveLineSets(this.clues[line]!, isRow ? this.width : this.height, setLine, stride, setResult);
      this.setCache?.store(line, setLine, ok ? setResult : null);
      if (!ok) return false;
    }
    const start = isRow ? line * this.width : line - this.height;
    const step = isRow ? 1 : this.width;
    // In cell order, as the array form assigns them (the order steers the search that follows).
    for (let w = 0; w < stride; w++) {
      const first = start + 31 * w * step;
      const filled = setResult[w]! & ~setLine[w]!;
      let bits = filled | (setResult[stride + w]! & ~setLine[stride + w]!);
      while (bits !== 0) {
        const low = bits & -bits;
        this.assign(first + (31 - Math.clz32(low)) * step, (filled & low) !== 0 ? FILLED : EMPTY);
        bits ^= low;
      }
    }
    return true;
  }

  /** Assigns `value` to the cells `start + i * stride` for every bit i of `bits`. */
  private assignBits(bits: number, start: number, stride: number, value: number): void {
    while (bits !== 0) {
      const low = bits & -bits;
      this.assign(start + (31 - Math.clz32(low)) * stride, value);
      bits ^= low;
    }
  }

  /** Array form: copy the line out, solve (or look up) it, and assign what changed. */
  private solveArrayLine(line: number): boolean {
    const { grid, scratch } = this;
    const isRow = line < this.height;
    const start = isRow ? line * this.width : line - this.height;
    const stride = isRow ? 1 : this.width;
    const length = isRow ? this.width : this.height;
    for (let i = 0, k = start; i < length; i++, k += stride) scratch[i] = grid[k]!;
    const cache = this.arrayCache;
    const key = cache === null ? line : this.arrayCacheLine[line]!;
    const found = cache === null ? -1 : cache.lookup(key, scratch, length);
    if (found === CACHE_HIT) this.cacheHits++;
    else if (found === CACHE_IMPOSSIBLE) {
      this.cacheHits++;
      return false;
    } else {
      this.lineSolves++;
      const ok = this.solver.solve(this.clues[line]!, scratch, length);
      cache?.store(key, ok ? scratch : null, length);
      if (!ok) return false;
    }
    for (let i = 0, k = start; i < length; i++, k += stride) {
      const v = scratch[i]!;
      if (v !== grid[k]) this.assign(k, v);
    }
    return true;
  }

  /** Number of UNKNOWN cells in the grid. */
  unknownCells(): number {
    let n = 0;
    for (let line = 0; line < this.height; line++) n += this.unknownInLine[line]!;
    return n;
  }
}

/** For each line (rows first), the first line of the same length with the same clue. */
function sameClueLines(clues: readonly Int32Array[], rows: number, width: number, height: number): Int32Array {
  const first = new Map<string, number>();
  return Int32Array.from(clues, (clue, line) => {
    const key = `${line < rows ? width : height}:${clue.join(',')}`;
    const seen = first.get(key);
    if (seen !== undefined) return seen;
    first.set(key, line);
    return line;
  });
}

import { UNKNOWN, type Puzzle } from '../corpus/model.js';
import { lineClue, type LineSolver } from './line/line-solver.js';

/** Lines up to this many cells get a numeric cache key (3^33 < 2^53); longer ones a string key. */
const NUMERIC_KEY_MAX = 33;
/** Result bytes kept in the line cache before it is emptied and starts over. */
const CACHE_BYTES = 1 << 24;
/** Line solves between two polls of the cancellation check. */
const POLL_EVERY = 256;
/** Marks a cached contradiction. */
const IMPOSSIBLE = -1;

export interface PropagatorOptions {
  /** Remember each line's result per (line, state) so the same state is never solved twice (default true). */
  cache?: boolean;
  /** Polled every few hundred line solves; once true, `propagate` stops early and sets `stopped`. */
  shouldStop?: () => boolean;
}

/**
 * Line propagation over a whole grid: solves lines until none can deduce more (a fixpoint) or one
 * is impossible (a contradiction).
 *
 * Lines are numbered rows first (0 … height−1), then columns (height … height+width−1). Only lines
 * with a cell changed since their last solve are queued. Every cell set is pushed on a trail, so a
 * search can return to an earlier state with `undo(mark)` instead of copying the grid. With the
 * cache on, a line whose (state) was met before gets its earlier result without a solver call.
 */
export class Propagator {
  readonly width: number;
  readonly height: number;
  readonly lineCount: number;
  /** The grid being solved (row-major cell codes); set cells through `assign`. */
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
  /** Times the cache was emptied because it was full. */
  cacheResets = 0;
  /** Set when the cancellation check fired during `propagate`. */
  stopped = false;

  private readonly solver: LineSolver;
  private readonly shouldStop: () => boolean;
  private readonly queue: Int32Array;
  private queueHead = 0;
  private queueSize = 0;
  private readonly queued: Uint8Array;
  private readonly scratch: Uint8Array;
  private sincePoll = 0;

  private readonly cacheOn: boolean;
  private cacheMaps: Map<number | string, number>[];
  private arena: Uint8Array;
  private arenaUsed = 0;

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
    this.scratch = new Uint8Array(Math.max(width, height));
    this.cacheOn = options.cache ?? true;
    this.cacheMaps = this.cacheOn ? Array.from({ length: this.lineCount }, () => new Map()) : [];
    this.arena = new Uint8Array(this.cacheOn ? 1 << 16 : 0);
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
    const y = (cell / this.width) | 0;
    const x = cell - y * this.width;
    this.grid[cell] = value;
    this.trail[this.trailLength++] = cell;
    this.unknownInLine[y]!--;
    this.unknownInLine[this.height + x]!--;
    this.enqueue(y);
    this.enqueue(this.height + x);
  }

  /** Returns every cell set after trail position `mark` to UNKNOWN. */
  undo(mark: number): void {
    const { grid, trail, width, height, unknownInLine } = this;
    for (let t = this.trailLength - 1; t >= mark; t--) {
      const cell = trail[t]!;
      grid[cell] = UNKNOWN;
      const y = (cell / width) | 0;
      unknownInLine[y]!++;
      unknownInLine[height + cell - y * width]!++;
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
    const { grid, width, height, scratch, queue, queued, lineCount } = this;
    while (this.queueSize > 0) {
      const line = queue[this.queueHead]!;
      this.queueHead = this.queueHead + 1 === lineCount ? 0 : this.queueHead + 1;
      this.queueSize--;
      queued[line] = 0;

      const isRow = line < height;
      const start = isRow ? line * width : line - height;
      const stride = isRow ? 1 : width;
      const length = isRow ? width : height;

      for (let i = 0, k = start; i < length; i++, k += stride) scratch[i] = grid[k]!;
      if (!this.solveLine(line, length)) {
        this.clearQueue();
        return false;
      }
      // Write back what the line decided and queue the crossing lines.
      for (let i = 0, k = start; i < length; i++, k += stride) {
        const v = scratch[i]!;
        if (v !== grid[k]) this.assign(k, v);
      }
      if (++this.sincePoll >= POLL_EVERY) {
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

  /** Solves `scratch` as line `line`, through the cache when it is on. */
  private solveLine(line: number, length: number): boolean {
    if (!this.cacheOn) {
      this.lineSolves++;
      return this.solver.solve(this.clues[line]!, this.scratch, length);
    }
    const scratch = this.scratch;
    const key = lineKey(scratch, length);
    const map = this.cacheMaps[line]!;
    const hit = map.get(key);
    if (hit !== undefined) {
      this.cacheHits++;
      if (hit === IMPOSSIBLE) return false;
      scratch.set(this.arena.subarray(hit, hit + length));
      return true;
    }
    this.lineSolves++;
    const ok = this.solver.solve(this.clues[line]!, scratch, length);
    if (!ok) {
      map.set(key, IMPOSSIBLE);
      return false;
    }
    if (this.arenaUsed + length > this.arena.length) this.growArena(length);
    this.arena.set(scratch.subarray(0, length), this.arenaUsed);
    map.set(key, this.arenaUsed);
    this.arenaUsed += length;
    return true;
  }

  private growArena(length: number): void {
    if (this.arena.length * 2 <= CACHE_BYTES) {
      const bigger = new Uint8Array(this.arena.length * 2);
      bigger.set(this.arena.subarray(0, this.arenaUsed));
      this.arena = bigger;
      if (this.arenaUsed + length <= bigger.length) return;
    }
    // Full: forget everything rather than track ages; states met again are simply solved again.
    this.cacheResets++;
    for (const map of this.cacheMaps) map.clear();
    this.arenaUsed = 0;
  }

  /** Number of UNKNOWN cells in the grid. */
  unknownCells(): number {
    let n = 0;
    for (let line = 0; line < this.height; line++) n += this.unknownInLine[line]!;
    return n;
  }
}

/** A key naming a line state exactly: base-3 digits as a number, or as a string for long lines. */
function lineKey(cells: Uint8Array, length: number): number | string {
  if (length <= NUMERIC_KEY_MAX) {
    let key = 0;
    for (let i = 0; i < length; i++) key = key * 3 + cells[i]!;
    return key;
  }
  // Ten cells per UTF-16 unit (3^10 = 59049 < 65536).
  let key = '';
  for (let i = 0; i < length; i += 10) {
    let chunk = 0;
    const end = Math.min(length, i + 10);
    for (let j = i; j < end; j++) chunk = chunk * 3 + cells[j]!;
    key += String.fromCharCode(chunk);
  }
  return key;
}

import { EMPTY, FILLED, UNKNOWN, type Puzzle } from '../../../corpus/model.js';
import { ExactLineSolver } from '../../line/exact.js';
import { LineExplainer } from '../../line/explain.js';
import { lineClue } from '../../line/line-solver.js';
import { ArrayLineCache, CACHE_HIT, CACHE_IMPOSSIBLE } from '../../line/line-cache.js';
import type { Theory, TheoryHost } from '../engine/theory.js';

/** FNV-1a over a line's cell codes. */
const HASH_SEED = 0x811c9dc5 | 0;
const HASH_PRIME = 0x01000193;

/**
 * The exact line solver as a propagator inside the CDCL search (lazy clause generation): each line
 * with a cell assigned since it was last solved is solved again on the cells the search has
 * assigned, so the search deduces at every node what line logic deduces, where unit propagation
 * on the CNF sees less. Each deduced cell is explained by the line's assigned cells it needs (the
 * clause "these cells as they are imply this one", found by LineExplainer), an impossible line by
 * the clause that the cells it needs cannot all be as they are. Cell (row r, column c) is
 * variable r·width + c + 1, as in the encodings.
 */
export class LineTheory implements Theory {
  private readonly width: number;
  private readonly height: number;
  private readonly clues: Int32Array[];
  private readonly solver = new ExactLineSolver();
  private readonly explainer = new LineExplainer();
  /** The search meets the same line states again and again (after restarts and backjumps). */
  private readonly cache: ArrayLineCache;
  /** Per line (rows, then columns): 1 while it is in the queue. */
  private readonly dirty: Uint8Array;
  private readonly queue: Int32Array;
  private queued = 0;
  /** The line being solved, its cells as the search has them, and the clause being built. */
  private readonly line: Uint8Array;
  private readonly before: Uint8Array;
  private readonly cellOf: Int32Array;
  private readonly clause: Int32Array;
  /** The assigned cells an explanation keeps. */
  private readonly kept: Uint8Array;
  /**
   * Per line: a hash of the last state its solve left (with its deductions), a fixpoint of the line
   * solver. A line found in that state again is skipped; a collision only skips a deduction, which
   * the clauses do not need.
   */
  private readonly fixpoint: Int32Array;
  /** Line-solver calls (cache hits excluded). */
  solves = 0;

  constructor(puzzle: Puzzle) {
    const { width, height } = puzzle;
    this.width = width;
    this.height = height;
    this.clues = [...puzzle.rows, ...puzzle.columns].map((clue) => lineClue(clue));
    const lines = width + height;
    this.cache = new ArrayLineCache(lines);
    this.fixpoint = new Int32Array(lines);
    this.dirty = new Uint8Array(lines).fill(1);
    this.queue = new Int32Array(lines);
    for (let i = 0; i < lines; i++) this.queue[i] = i;
    this.queued = lines;
    const longest = Math.max(width, height);
    this.line = new Uint8Array(longest);
    this.before = new Uint8Array(longest);
    this.cellOf = new Int32Array(longest);
    this.clause = new Int32Array(longest + 1);
    this.kept = new Uint8Array(longest);
  }

  assigned(v: number): void {
    const cell = v - 1;
    const cells = this.width * this.height;
    if (cell >= cells) return; // an auxiliary variable of the encoding
    const row = (cell / this.width) | 0;
    this.mark(row);
    this.mark(this.height + cell - row * this.width);
  }

  propagate(host: TheoryHost): boolean {
    while (this.queued > 0) {
      const index = this.queue[--this.queued]!;
      this.dirty[index] = 0;
      if (!this.solveLine(index, host)) return false;
    }
    return true;
  }

  private mark(index: number): void {
    if (this.dirty[index] === 1) return;
    this.dirty[index] = 1;
    this.queue[this.queued++] = index;
  }

  /** Solves one line on its assigned cells and explains what follows; false on a conflict. */
  private solveLine(index: number, host: TheoryHost): boolean {
    const { width, height, line, before, cellOf, clause } = this;
    const isRow = index < height;
    const n = isRow ? width : height;
    const first = isRow ? index * width : index - height;
    const step = isRow ? 1 : width;
    let known = 0;
    let state = HASH_SEED;
    for (let i = 0; i < n; i++) {
      const cell = first + i * step;
      cellOf[i] = cell;
      const value = host.value(cell + 1);
      const code = value === 1 ? FILLED : value === -1 ? EMPTY : UNKNOWN;
      line[i] = before[i] = code;
      if (code !== UNKNOWN) known++;
      state = Math.imul(state ^ code, HASH_PRIME);
    }
    if (known === n) return true; // unit propagation on the CNF already checks a full line
    // Most often the line is as its last solve left it (its own deductions marked it again).
    if (state === this.fixpoint[index]) return true;
    const clue = this.clues[index]!;
    const feasible = this.solveCached(index, clue, n);
    if (feasible) {
      let deduced = 0;
      let after = HASH_SEED;
      for (let i = 0; i < n; i++) {
        if (before[i] === UNKNOWN && line[i] !== UNKNOWN) deduced++;
        after = Math.imul(after ^ line[i]!, HASH_PRIME);
      }
      this.fixpoint[index] = after;
      if (deduced === 0) return true;
    }
    const { explainer, kept } = this;
    explainer.prepare(clue, before, n);
    if (!feasible) {
      explainer.explainConflict(kept);
      return host.explain(clause, this.keptClause(n, 0));
    }
    for (let i = 0; i < n; i++) {
      if (before[i] !== UNKNOWN || line[i] === UNKNOWN) continue; // `line` as solved
      const v = cellOf[i]! + 1;
      if (host.value(v) !== 0) continue; // deduced meanwhile by a crossing line's explanation
      // Were it to fail, `kept` would hold every assigned cell: still an explanation.
      explainer.explainCell(i, line[i]!, kept);
      const size = this.keptClause(n, 1);
      clause[0] = line[i] === FILLED ? v : -v;
      if (!host.explain(clause, size)) return false;
    }
    return true;
  }

  /** Writes the cells in `kept`, each as its false literal, into `clause` from `from`; returns the clause's size. */
  private keptClause(n: number, from: number): number {
    const { kept, cellOf, clause } = this;
    let size = from;
    for (let i = 0; i < n; i++) if (kept[i] !== UNKNOWN) clause[size++] = kept[i] === FILLED ? -(cellOf[i]! + 1) : cellOf[i]! + 1;
    return size;
  }

  /**
   * Solves `line` in place. Lines too long for the bit-parallel forms go through a cache: their
   * solves cost far more than a lookup, where for short lines the lookup costs as much as a solve.
   */
  private solveCached(index: number, clue: Int32Array, n: number): boolean {
    const line = this.line;
    if (n <= ExactLineSolver.MASK_MAX) {
      this.solves++;
      return this.solver.solve(clue, line, n);
    }
    const found = this.cache.lookup(index, line, n);
    if (found === CACHE_HIT) return true;
    if (found === CACHE_IMPOSSIBLE) return false;
    this.solves++;
    const feasible = this.solver.solve(clue, line, n);
    this.cache.store(index, feasible ? line : null, n);
    return feasible;
  }
}

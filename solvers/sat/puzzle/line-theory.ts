import { EMPTY, FILLED, UNKNOWN, type Puzzle } from '../../../corpus/model.js';
import { ExactLineSolver } from '../../line/exact.js';
import { MULTI_MAX, setWords, setsToCells } from '../../line/exact-multi.js';
import { LineExplainer } from '../../line/explain.js';
import { lineClue } from '../../line/line-solver.js';
import { ArrayLineCache, CACHE_HIT, CACHE_IMPOSSIBLE, CACHE_MISS, SetLineCache, sameWords } from '../../line/line-cache.js';
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
  /**
   * The search meets the same line states again and again (after restarts and backjumps): lines
   * longer than two mask words go through a cache, keyed by their bit sets up to MULTI_MAX cells,
   * by their cells beyond.
   */
  private readonly setCache: SetLineCache;
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
   * Per line: the last state its solve left (with its deductions), a fixpoint of the line solver,
   * where a line found again is skipped. Lines up to MULTI_MAX cells keep it exactly, as their four
   * masks or their two bit sets; longer ones as a hash, where a collision only skips a deduction,
   * which the clauses do not need.
   */
  private readonly fixpointMasks: Int32Array;
  private readonly fixpointSets: Int32Array;
  private readonly fixpoint: Int32Array;
  /** Words per bit set of the lines held as sets (FILLED words, then EMPTY words: 2·stride in all). */
  private readonly setStride: number;
  /** The line being solved as bit sets, and as solved. */
  private readonly sets: Int32Array;
  private readonly solvedSets: Int32Array;
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
    this.fixpointMasks = new Int32Array(4 * lines).fill(-1); // no line's masks: bit 31 is never set
    const longest = Math.max(width, height);
    this.setStride = setWords(Math.min(longest, MULTI_MAX));
    this.setCache = new SetLineCache(this.setStride);
    this.sets = new Int32Array(2 * this.setStride);
    this.solvedSets = new Int32Array(2 * this.setStride);
    this.fixpointSets = new Int32Array(longest > ExactLineSolver.MASK_MAX ? 2 * this.setStride * lines : 0).fill(-1); // as above
    this.dirty = new Uint8Array(lines).fill(1);
    this.queue = new Int32Array(lines);
    for (let i = 0; i < lines; i++) this.queue[i] = i;
    this.queued = lines;
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
    const isRow = index < this.height;
    const n = isRow ? this.width : this.height;
    const first = isRow ? index * this.width : index - this.height;
    const step = isRow ? 1 : this.width;
    if (n <= ExactLineSolver.MASK_MAX) return this.solveMaskLine(index, host, n, first, step);
    return n <= MULTI_MAX ? this.solveSetLine(index, host, n, first, step) : this.solveArrayLine(index, host, n, first, step);
  }

  /**
   * A line of up to MASK_MAX cells, read straight into bit masks: most solves deduce nothing, and
   * then the line is never copied cell by cell. Its last fixpoint is kept as masks too (exact).
   */
  private solveMaskLine(index: number, host: TheoryHost, n: number, first: number, step: number): boolean {
    const { fixpointMasks } = this;
    let filledLo = 0;
    let emptyLo = 0;
    let filledHi = 0;
    let emptyHi = 0;
    const low = n < 31 ? n : 31;
    for (let i = 0; i < low; i++) {
      const value = host.value(first + i * step + 1);
      if (value === 1) filledLo |= 1 << i;
      else if (value === -1) emptyLo |= 1 << i;
    }
    for (let i = 31; i < n; i++) {
      const value = host.value(first + i * step + 1);
      if (value === 1) filledHi |= 1 << (i - 31);
      else if (value === -1) emptyHi |= 1 << (i - 31);
    }
    const at = 4 * index;
    // Most often the line is as its last solve left it (its own deductions marked it again).
    if (filledLo === fixpointMasks[at] && filledHi === fixpointMasks[at + 1] && emptyLo === fixpointMasks[at + 2] && emptyHi === fixpointMasks[at + 3]) return true;
    const lowAll = low === 31 ? 0x7fffffff : (1 << low) - 1;
    const highAll = n > 31 ? (1 << (n - 31)) - 1 : 0;
    // Unit propagation on the CNF already checks a full line.
    if ((filledLo | emptyLo) === lowAll && (filledHi | emptyHi) === highAll) return true;
    this.solves++;
    const { solver } = this;
    const feasible = solver.solveLineMasks(this.clues[index]!, n, filledLo, filledHi, emptyLo, emptyHi);
    if (feasible) {
      const out = solver.masks;
      fixpointMasks[at] = out.filledLo;
      fixpointMasks[at + 1] = out.filledHi;
      fixpointMasks[at + 2] = out.emptyLo;
      fixpointMasks[at + 3] = out.emptyHi;
      if (out.filledLo === filledLo && out.filledHi === filledHi && out.emptyLo === emptyLo && out.emptyHi === emptyHi) return true;
      this.unmask(this.line, n, out.filledLo, out.filledHi, out.emptyLo, out.emptyHi);
    }
    this.unmask(this.before, n, filledLo, filledHi, emptyLo, emptyHi);
    return this.explainLine(index, host, n, first, step, feasible);
  }

  /** Writes a line given as masks into `line` as cell codes. */
  private unmask(line: Uint8Array, n: number, filledLo: number, filledHi: number, emptyLo: number, emptyHi: number): void {
    for (let i = 0; i < n; i++) {
      const filled = i < 31 ? (filledLo >>> i) & 1 : (filledHi >>> (i - 31)) & 1;
      const empty = i < 31 ? (emptyLo >>> i) & 1 : (emptyHi >>> (i - 31)) & 1;
      line[i] = filled === 1 ? FILLED : empty === 1 ? EMPTY : UNKNOWN;
    }
  }

  /**
   * A line longer than masks hold, up to MULTI_MAX cells: read into bit sets, solved through the
   * cache, and copied cell by cell only when its solve deduced something or found it impossible.
   */
  private solveSetLine(index: number, host: TheoryHost, n: number, first: number, step: number): boolean {
    const { sets, solvedSets, setStride: stride, fixpointSets } = this;
    const words = 2 * stride;
    sets.fill(0);
    let known = 0;
    let word = 0;
    let bit = 0;
    for (let i = 0; i < n; i++) {
      const value = host.value(first + i * step + 1);
      if (value === 1) {
        sets[word]! |= 1 << bit;
        known++;
      } else if (value === -1) {
        sets[stride + word]! |= 1 << bit;
        known++;
      }
      if (++bit === 31) {
        bit = 0;
        word++;
      }
    }
    if (known === n) return true; // unit propagation on the CNF already checks a full line
    const at = words * index;
    // Most often the line is as its last solve left it (its own deductions marked it again).
    if (sameWords(fixpointSets, at, sets, words)) return true;
    const found = this.setCache.lookup(index, sets, solvedSets);
    let feasible = found === CACHE_HIT;
    if (found === CACHE_MISS) {
      this.solves++;
      feasible = this.solver.solveLineSets(this.clues[index]!, n, sets, stride, solvedSets);
      this.setCache.store(index, sets, feasible ? solvedSets : null);
    }
    if (feasible) {
      fixpointSets.set(solvedSets, at);
      if (sameWords(solvedSets, 0, sets, words)) return true;
      setsToCells(solvedSets, stride, this.line, n);
    }
    setsToCells(sets, stride, this.before, n);
    return this.explainLine(index, host, n, first, step, feasible);
  }

  /** A line longer than MULTI_MAX cells: copied cell by cell, its last fixpoint kept as a hash. */
  private solveArrayLine(index: number, host: TheoryHost, n: number, first: number, step: number): boolean {
    const { line, before } = this;
    let known = 0;
    let state = HASH_SEED;
    for (let i = 0; i < n; i++) {
      const value = host.value(first + i * step + 1);
      const code = value === 1 ? FILLED : value === -1 ? EMPTY : UNKNOWN;
      line[i] = before[i] = code;
      if (code !== UNKNOWN) known++;
      state = Math.imul(state ^ code, HASH_PRIME);
    }
    if (known === n) return true; // unit propagation on the CNF already checks a full line
    // Most often the line is as its last solve left it (its own deductions marked it again).
    if (state === this.fixpoint[index]) return true;
    const feasible = this.solveCached(index, this.clues[index]!, n);
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
    return this.explainLine(index, host, n, first, step, feasible);
  }

  /**
   * Explains a solve that deduced cells (`before` as the search has the line, `line` as solved) or
   * found the line impossible; false on a conflict.
   */
  private explainLine(index: number, host: TheoryHost, n: number, first: number, step: number, feasible: boolean): boolean {
    const { explainer, kept, line, before, cellOf, clause } = this;
    for (let i = 0; i < n; i++) cellOf[i] = first + i * step;
    explainer.prepare(this.clues[index]!, before, n);
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
   * Solves `line` (longer than MULTI_MAX cells) in place, through a cache: such solves cost far
   * more than a lookup, where for lines that masks hold the lookup costs as much as a solve.
   */
  private solveCached(index: number, clue: Int32Array, n: number): boolean {
    const line = this.line;
    const found = this.cache.lookup(index, line, n);
    if (found === CACHE_HIT) return true;
    if (found === CACHE_IMPOSSIBLE) return false;
    this.solves++;
    const feasible = this.solver.solve(clue, line, n);
    this.cache.store(index, feasible ? line : null, n);
    return feasible;
  }
}


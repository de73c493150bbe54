import { EMPTY, FILLED, UNKNOWN, type Clue, type Grid, type Puzzle } from '../../corpus/model.js';
import type { Cnf } from './dimacs.js';
import { grownInt32 } from './grow.js';

/**
 * Nonogram → CNF, one "regular constraint" per line.
 *
 * Cell (row r, column c) is variable r·width + c + 1 (true = filled). Each line's clue is read by a
 * deterministic automaton whose states, in order, are
 *     G0, F1,1 … F1,b1, G1, F2,1 … F2,b2, G2, …, Fk,bk, Gk
 * (Gj: in the gap after block j, G0 before the first block; Fj,t: t cells of block j seen). From a state the automaton either
 * stays (Gj on an empty cell) or moves to the next state, and the kind of the state it lands in
 * says what the cell was: an F state is entered only on a filled cell, a G state only on an empty
 * one. Accepting: Gk and Fk,bk.
 *
 * The automaton is unrolled over the line: node (i, q) means "after i cells the state is q". Nodes
 * that are not on some path from (0, G0) to an accepting node at i = n, given the cells already
 * known, are dropped; each remaining node gets a variable, except that a layer with a single node
 * has it as the constant true. For the step over cell i, with x = the cell variable:
 *   forward   (i,q)   → ∨ its successors at i+1
 *   backward  (i+1,t) → ∨ its predecessors at i
 *   kind      (i+1,t) → x      (t an F state)      (i+1,t) → ¬x   (t a G state)
 *   support   x → ∨ F nodes at i+1                 ¬x → ∨ G nodes at i+1
 * A cell all of whose nodes at i+1 have one kind is forced and becomes a unit clause instead.
 *
 * Unit propagation on these clauses removes exactly the nodes that lie on no complete path, so a
 * cell value is refuted by propagation as soon as no placement of the clue is left that gives it:
 * the encoding is propagation-complete for each line (generalised arc consistency), like an exact
 * line solver. No at-most-one clauses are needed: true nodes can only form the one path the cells
 * spell out, so auxiliary variables are determined by the cells (one model per picture).
 */

export interface NonogramCnf extends Cnf {
  width: number;
  height: number;
  /** Cells are variables 1..cellVars (= width·height); auxiliary variables follow. */
  cellVars: number;
}

/** The variable of cell (row, column): row·width + column + 1. */
export const cellVariable = (width: number, row: number, column: number): number => row * width + column + 1;

/** Constant literals, simplified away as clauses are emitted (variables stay far below 2^31). */
const TRUE = 0x7fffffff;
const FALSE = -TRUE;

/**
 * Clauses as one flat list of literals: clause i is lits[ends[i-1] .. ends[i]), ends[-1] = 0.
 * Encoding a large puzzle this way allocates a few growing buffers instead of an array per clause.
 */
export class FlatClauses {
  lits: Int32Array = new Int32Array(1 << 12);
  ends: Int32Array = new Int32Array(1 << 10);
  count = 0;
  private top = 0;
  private open = 0;

  /** Appends a literal to the clause being built (see `end`). */
  add(lit: number): void {
    if (this.top === this.lits.length) this.lits = grownInt32(this.lits, this.top, this.top + 1);
    this.lits[this.top++] = lit;
  }

  /** Closes the clause being built. */
  end(): void {
    if (this.count === this.ends.length) this.ends = grownInt32(this.ends, this.count, this.count + 1);
    this.ends[this.count++] = this.top;
    this.open = this.top;
  }

  /** Drops the clause being built. */
  discard(): void {
    this.top = this.open;
  }

  start(i: number): number {
    return i === 0 ? 0 : this.ends[i - 1]!;
  }

  /** Clause i as a fresh array (for export and tests). */
  clause(i: number): number[] {
    return Array.from(this.lits.subarray(this.start(i), this.ends[i]!));
  }

  toArrays(): number[][] {
    return Array.from({ length: this.count }, (_, i) => this.clause(i));
  }
}

class ClauseSink {
  readonly out = new FlatClauses();
  nextVar: number;
  /** Per cell: the value already stated by a unit clause (0 none, 1 filled, 2 empty). */
  private readonly unitDone: Uint8Array;

  constructor(cellVars: number) {
    this.nextVar = cellVars + 1;
    this.unitDone = new Uint8Array(cellVars + 1);
  }

  /** Adds the clause of `count` literals from `lits`, dropping FALSE ones and the whole clause if one is TRUE. */
  emit(lits: ArrayLike<number>, count = lits.length): void {
    for (let i = 0; i < count; i++) {
      const l = lits[i]!;
      if (l === TRUE) return this.out.discard();
      if (l !== FALSE) this.out.add(l);
    }
    this.out.end();
  }

  /** The clause (a ∨ b ∨ c); pass FALSE for missing literals. */
  emit3(a: number, b: number, c: number): void {
    this.scratch3[0] = a;
    this.scratch3[1] = b;
    this.scratch3[2] = c;
    this.emit(this.scratch3);
  }

  private readonly scratch3 = new Int32Array(3);

  /** A unit clause on a cell, once per cell and value. */
  cellUnit(cellVar: number, filled: boolean): void {
    const code = filled ? 1 : 2;
    if (this.unitDone[cellVar] === code) return;
    this.unitDone[cellVar] = code;
    this.out.add(filled ? cellVar : -cellVar);
    this.out.end();
  }
}

/**
 * Encodes one line. `cells` lists the line's cell variables in order; `known` gives their current
 * codes (UNKNOWN, FILLED, EMPTY).
 */
function encodeLine(line: Clue, cells: ArrayLike<number>, known: ArrayLike<number>, sink: ClauseSink): void {
  const n = cells.length;
  let k = 0;
  let Q = 1;
  for (const b of line) if (b > 0) (k++, (Q += b + 1)); // tolerate a written-out "0" for an empty line
  // States: filled[q] is 1 for F states.
  const filled = new Uint8Array(Q);
  for (let q = 1, j = 0; j < line.length; j++) {
    const b = line[j]!;
    if (b <= 0) continue;
    filled.fill(1, q, q + b);
    q += b + 1;
  }
  const accepting = (q: number) => q === Q - 1 || (k > 0 && q === Q - 2);
  // Whether entering state t fits a cell whose code is `cell` (F states are entered on filled cells).
  const allowed = (t: number, cell: number) =>
    cell === UNKNOWN || (cell === FILLED) === (filled[t] === 1);

  const at = (i: number, q: number) => i * Q + q;
  const fwd = new Uint8Array((n + 1) * Q);
  const live = new Uint8Array((n + 1) * Q);
  fwd[0] = 1;
  for (let i = 0; i < n; i++) {
    for (let q = 0; q < Q; q++) {
      if (!fwd[at(i, q)]) continue;
      if (filled[q] === 0 && allowed(q, known[i]!)) fwd[at(i + 1, q)] = 1;
      if (q + 1 < Q && allowed(q + 1, known[i]!)) fwd[at(i + 1, q + 1)] = 1;
    }
  }
  for (let q = 0; q < Q; q++) if (accepting(q) && fwd[at(n, q)]) live[at(n, q)] = 1;
  for (let i = n - 1; i >= 0; i--) {
    for (let q = 0; q < Q; q++) {
      if (!fwd[at(i, q)]) continue;
      const stay = filled[q] === 0 && allowed(q, known[i]!) && live[at(i + 1, q)] === 1;
      const move = q + 1 < Q && allowed(q + 1, known[i]!) && live[at(i + 1, q + 1)] === 1;
      if (stay || move) live[at(i, q)] = 1;
    }
  }
  if (!live[0]) {
    sink.emit([]); // no placement of the clue fits the known cells
    return;
  }

  // Node literals: a variable, or TRUE for the only node of its layer; absent nodes are FALSE.
  const node = new Int32Array((n + 1) * Q).fill(FALSE);
  for (let i = 0; i <= n; i++) {
    let count = 0;
    for (let q = 0; q < Q; q++) count += live[at(i, q)]!;
    for (let q = 0; q < Q; q++) if (live[at(i, q)]) node[at(i, q)] = count === 1 ? TRUE : sink.nextVar++;
  }
  const lit = (i: number, q: number) => node[at(i, q)]!;
  // The two long clauses of a cell, built while its nodes are visited.
  const support = new Int32Array(Q + 1);
  const refute = new Int32Array(Q + 1);

  for (let i = 0; i < n; i++) {
    const x = cells[i]!;
    let fNodes = 0;
    let gNodes = 0;
    for (let t = 0; t < Q; t++) if (live[at(i + 1, t)]) filled[t] ? fNodes++ : gNodes++;
    const forced = fNodes === 0 || gNodes === 0;
    if (forced) sink.cellUnit(x, fNodes > 0);

    for (let q = 0; q < Q; q++) {
      if (!live[at(i, q)]) continue;
      const stay = filled[q] === 0 && live[at(i + 1, q)] ? lit(i + 1, q) : FALSE;
      const move = q + 1 < Q && live[at(i + 1, q + 1)] ? lit(i + 1, q + 1) : FALSE;
      sink.emit3(-lit(i, q), stay, move); // a node has a successor
    }
    let supports = 0;
    let refutes = 0;
    support[supports++] = x;
    refute[refutes++] = -x;
    for (let t = 0; t < Q; t++) {
      if (!live[at(i + 1, t)]) continue;
      const stay = filled[t] === 0 && live[at(i, t)] ? lit(i, t) : FALSE;
      const moved = t > 0 && live[at(i, t - 1)] ? lit(i, t - 1) : FALSE;
      sink.emit3(-lit(i + 1, t), stay, moved); // a node has a predecessor
      if (forced) continue;
      sink.emit3(-lit(i + 1, t), filled[t] ? x : -x, FALSE);
      if (filled[t]) refute[refutes++] = lit(i + 1, t);
      else support[supports++] = lit(i + 1, t);
    }
    if (!forced) {
      sink.emit(support, supports); // ¬x → some G node
      sink.emit(refute, refutes); // x → some F node
    }
  }
}

/**
 * The CNF of one line on its own (cells are variables 1..length), for studying the line encoding;
 * `known` gives cell codes to prune with (they are also stated as unit clauses).
 */
export function encodeLineCnf(clue: Clue, length: number, known?: ArrayLike<number>): Cnf {
  const sink = new ClauseSink(length);
  const cells = Array.from({ length }, (_, i) => i + 1);
  const codes = Array.from({ length }, (_, i) => (known ? known[i]! : UNKNOWN));
  codes.forEach((code, i) => {
    if (code === FILLED || code === EMPTY) sink.cellUnit(i + 1, code === FILLED);
  });
  encodeLine(clue, cells, codes, sink);
  return { numVars: sink.nextVar - 1, clauses: sink.out.toArrays() };
}

/** A puzzle's CNF with its clauses in flat form (see FlatClauses), as the sat strategy consumes it. */
export interface FlatNonogramCnf {
  numVars: number;
  clauses: FlatClauses;
  width: number;
  height: number;
  cellVars: number;
}

/**
 * The CNF of a puzzle (see the module comment). `known` (optional, a grid of cell codes) adds the
 * known cells as unit clauses and prunes the automata with them.
 */
export function encodeNonogramFlat(puzzle: Puzzle, known?: Grid): FlatNonogramCnf;
/** With `shouldStop`, polled after each line (a 200×200 puzzle takes about a second): undefined once it is true. */
export function encodeNonogramFlat(puzzle: Puzzle, known: Grid | undefined, shouldStop: () => boolean): FlatNonogramCnf | undefined;
export function encodeNonogramFlat(puzzle: Puzzle, known?: Grid, shouldStop?: () => boolean): FlatNonogramCnf | undefined {
  const { width, height } = puzzle;
  const cellVars = width * height;
  const sink = new ClauseSink(cellVars);
  if (known) {
    for (let index = 0; index < cellVars; index++) {
      const code = known[index]!;
      if (code === FILLED || code === EMPTY) sink.cellUnit(index + 1, code === FILLED);
    }
  }
  const longest = Math.max(width, height);
  const cells = new Int32Array(longest);
  const codes = new Uint8Array(longest);
  const encode = (clue: Clue, first: number, step: number, length: number) => {
    for (let i = 0; i < length; i++) {
      const index = first + i * step;
      cells[i] = index + 1;
      codes[i] = known ? known[index]! : UNKNOWN;
    }
    encodeLine(clue, cells.subarray(0, length), codes.subarray(0, length), sink);
  };
  for (let r = 0; r < height; r++) {
    encode(puzzle.rows[r]!, r * width, 1, width);
    if (shouldStop?.()) return undefined;
  }
  for (let c = 0; c < width; c++) {
    encode(puzzle.columns[c]!, c, width, height);
    if (shouldStop?.()) return undefined;
  }
  return { numVars: sink.nextVar - 1, clauses: sink.out, width, height, cellVars };
}

/** `encodeNonogramFlat` with the clauses as arrays, for export and inspection. */
export function encodeNonogram(puzzle: Puzzle, known?: Grid): NonogramCnf {
  const flat = encodeNonogramFlat(puzzle, known);
  return { ...flat, clauses: flat.clauses.toArrays() };
}

/** The picture a model describes: `isTrue(v)` for each cell variable v. */
export function decodeGrid(puzzle: Puzzle, isTrue: (v: number) => boolean): Grid {
  const grid = new Uint8Array(puzzle.width * puzzle.height);
  for (let i = 0; i < grid.length; i++) grid[i] = isTrue(i + 1) ? FILLED : EMPTY;
  return grid;
}

/**
 * The clause that excludes one picture: some cell must differ. Only the cells not already
 * known (UNKNOWN in `known`) need to appear, since known cells are fixed by unit clauses.
 */
export function blockingClause(solution: Grid, known?: Grid): number[] {
  const clause: number[] = [];
  for (let i = 0; i < solution.length; i++) {
    if (known && known[i] !== UNKNOWN) continue;
    clause.push(solution[i] === FILLED ? -(i + 1) : i + 1);
  }
  return clause;
}

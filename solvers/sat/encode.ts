import { EMPTY, FILLED, UNKNOWN, type Clue, type Grid, type Puzzle } from '../../corpus/model.js';
import type { Cnf } from './dimacs.js';

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

/** Constant literals, simplified away as clauses are emitted. */
const TRUE = Number.MAX_SAFE_INTEGER;
const FALSE = -TRUE;

class ClauseSink {
  readonly clauses: number[][] = [];
  nextVar: number;
  /** Per cell: the value already stated by a unit clause (0 none, 1 filled, 2 empty). */
  private readonly unitDone: Uint8Array;

  constructor(cellVars: number) {
    this.nextVar = cellVars + 1;
    this.unitDone = new Uint8Array(cellVars + 1);
  }

  /** Adds a clause, dropping FALSE literals and the whole clause if it holds a TRUE literal. */
  emit(lits: number[]): void {
    const kept: number[] = [];
    for (const l of lits) {
      if (l === TRUE) return;
      if (l !== FALSE) kept.push(l);
    }
    this.clauses.push(kept);
  }

  /** A unit clause on a cell, once per cell and value. */
  cellUnit(cellVar: number, filled: boolean): void {
    const code = filled ? 1 : 2;
    if (this.unitDone[cellVar] === code) return;
    this.unitDone[cellVar] = code;
    this.clauses.push([filled ? cellVar : -cellVar]);
  }
}

/**
 * Encodes one line. `cells` lists the line's cell variables in order; `known` gives their current
 * codes (UNKNOWN, FILLED, EMPTY).
 */
function encodeLine(line: Clue, cells: number[], known: number[], sink: ClauseSink): void {
  const clue = line.filter((b) => b > 0); // tolerate a written-out "0" for an empty line
  const n = cells.length;
  const k = clue.length;
  // States: filled[q] is 1 for F states.
  const filled: number[] = [0];
  for (const b of clue) {
    for (let t = 0; t < b; t++) filled.push(1);
    filled.push(0);
  }
  const Q = filled.length;
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
  const node = new Float64Array((n + 1) * Q).fill(FALSE);
  for (let i = 0; i <= n; i++) {
    let count = 0;
    for (let q = 0; q < Q; q++) count += live[at(i, q)]!;
    for (let q = 0; q < Q; q++) if (live[at(i, q)]) node[at(i, q)] = count === 1 ? TRUE : sink.nextVar++;
  }
  const lit = (i: number, q: number) => node[at(i, q)]!;

  for (let i = 0; i < n; i++) {
    const x = cells[i]!;
    let fNodes = 0;
    let gNodes = 0;
    for (let t = 0; t < Q; t++) if (live[at(i + 1, t)]) filled[t] ? fNodes++ : gNodes++;
    const forced = fNodes === 0 || gNodes === 0;
    if (forced) sink.cellUnit(x, fNodes > 0);

    for (let q = 0; q < Q; q++) {
      if (!live[at(i, q)]) continue;
      const successors = [-lit(i, q)];
      if (filled[q] === 0 && live[at(i + 1, q)]) successors.push(lit(i + 1, q));
      if (q + 1 < Q && live[at(i + 1, q + 1)]) successors.push(lit(i + 1, q + 1));
      sink.emit(successors);
    }
    const support = [x];
    const refute = [-x];
    for (let t = 0; t < Q; t++) {
      if (!live[at(i + 1, t)]) continue;
      const predecessors = [-lit(i + 1, t)];
      if (filled[t] === 0 && live[at(i, t)]) predecessors.push(lit(i, t));
      if (t > 0 && live[at(i, t - 1)]) predecessors.push(lit(i, t - 1));
      sink.emit(predecessors);
      if (forced) continue;
      sink.emit([-lit(i + 1, t), filled[t] ? x : -x]);
      (filled[t] ? refute : support).push(lit(i + 1, t));
    }
    if (!forced) {
      sink.emit(support); // ¬x → some G node
      sink.emit(refute); // x → some F node
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
  return { numVars: sink.nextVar - 1, clauses: sink.clauses };
}

/**
 * The CNF of a puzzle (see the module comment). `known` (optional, a grid of cell codes) adds the
 * known cells as unit clauses and prunes the automata with them.
 */
export function encodeNonogram(puzzle: Puzzle, known?: Grid): NonogramCnf {
  const { width, height } = puzzle;
  const cellVars = width * height;
  const sink = new ClauseSink(cellVars);
  const codeOf = (index: number) => (known ? known[index]! : UNKNOWN);
  if (known) {
    for (let index = 0; index < cellVars; index++) {
      const code = known[index]!;
      if (code === FILLED || code === EMPTY) sink.cellUnit(index + 1, code === FILLED);
    }
  }
  for (let r = 0; r < height; r++) {
    const cells: number[] = [];
    const codes: number[] = [];
    for (let c = 0; c < width; c++) {
      cells.push(cellVariable(width, r, c));
      codes.push(codeOf(r * width + c));
    }
    encodeLine(puzzle.rows[r]!, cells, codes, sink);
  }
  for (let c = 0; c < width; c++) {
    const cells: number[] = [];
    const codes: number[] = [];
    for (let r = 0; r < height; r++) {
      cells.push(cellVariable(width, r, c));
      codes.push(codeOf(r * width + c));
    }
    encodeLine(puzzle.columns[c]!, cells, codes, sink);
  }
  return { numVars: sink.nextVar - 1, clauses: sink.clauses, width, height, cellVars };
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

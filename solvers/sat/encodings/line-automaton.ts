import { FILLED, UNKNOWN, type Clue } from '../../../corpus/model.js';
import { FALSE, TRUE, type ClauseSink } from './clause-sink.js';

/**
 * The automaton encoding of a line (encoding `automaton`), one "regular constraint" per line.
 *
 * A line's clue is read by a deterministic automaton whose states, in order, are
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
 * spell out, so the node variables are determined by the cells (one model per picture).
 */

/** The automaton of a clue unrolled over a line of n cells whose codes are `known`. */
export interface LineNodes {
  /** Number of states: G0, F1,1 … F1,b1, G1, …, Gk. */
  Q: number;
  /** Per state: 1 for an F state (entered on a filled cell), 0 for a G state. */
  filled: Uint8Array;
  /** live[i·Q + q] = 1 when node (i, q) lies on a path from (0, G0) to an accepting node at i = n that fits the known cells. */
  live: Uint8Array;
}

/** With a `sink`, each layer of nodes visited counts towards its stop check (see ClauseSink.charge): a long line of many blocks has millions. */
export function lineNodes(line: Clue, known: ArrayLike<number>, n: number, sink?: ClauseSink): LineNodes {
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
    sink?.charge(Q);
    for (let q = 0; q < Q; q++) {
      if (!fwd[at(i, q)]) continue;
      if (filled[q] === 0 && allowed(q, known[i]!)) fwd[at(i + 1, q)] = 1;
      if (q + 1 < Q && allowed(q + 1, known[i]!)) fwd[at(i + 1, q + 1)] = 1;
    }
  }
  for (let q = 0; q < Q; q++) if (accepting(q) && fwd[at(n, q)]) live[at(n, q)] = 1;
  for (let i = n - 1; i >= 0; i--) {
    sink?.charge(Q);
    for (let q = 0; q < Q; q++) {
      if (!fwd[at(i, q)]) continue;
      const stay = filled[q] === 0 && allowed(q, known[i]!) && live[at(i + 1, q)] === 1;
      const move = q + 1 < Q && allowed(q + 1, known[i]!) && live[at(i + 1, q + 1)] === 1;
      if (stay || move) live[at(i, q)] = 1;
    }
  }
  return { Q, filled, live };
}

/** Encodes one line: `cells` lists its cell variables in order, `known` their codes (UNKNOWN, FILLED, EMPTY). */
export function encodeLineAutomaton(line: Clue, cells: ArrayLike<number>, known: ArrayLike<number>, sink: ClauseSink): void {
  const n = cells.length;
  const { Q, filled, live } = lineNodes(line, known, n, sink);
  const at = (i: number, q: number) => i * Q + q;
  if (!live[0]) {
    sink.emit([]); // no placement of the clue fits the known cells
    return;
  }

  // Node literals: a variable, or TRUE for the only node of its layer; absent nodes are FALSE.
  const node = new Int32Array((n + 1) * Q).fill(FALSE);
  for (let i = 0; i <= n; i++) {
    sink.charge(Q);
    let count = 0;
    for (let q = 0; q < Q; q++) count += live[at(i, q)]!;
    for (let q = 0; q < Q; q++) if (live[at(i, q)]) node[at(i, q)] = count === 1 ? TRUE : sink.nextVar++;
  }
  const lit = (i: number, q: number) => node[at(i, q)]!;
  // The two long clauses of a cell, built while its nodes are visited.
  const support = new Int32Array(Q + 1);
  const refute = new Int32Array(Q + 1);

  for (let i = 0; i < n; i++) {
    sink.charge(Q);
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

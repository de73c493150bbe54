import { EMPTY, FILLED, type Clue } from '../../../corpus/model.js';
import { FALSE, TRUE, type ClauseSink } from './clause-sink.js';
import { lineNodes } from './line-automaton.js';

/**
 * The block-start encoding of a line (encoding `blocks`, the default), an order encoding of where
 * each block starts.
 *
 * Block b (counted from 0, length L_b) starts at cell s_b. Variable y(b, p) means s_b ≥ p. Let lo_b
 * and hi_b be the first and last starts that placements fitting the known cells use: y(b, p) is a
 * variable for lo_b < p ≤ hi_b, true below and false above. With x the variable of cell i:
 *   order      y(b, p+1) → y(b, p)
 *   gap        y(b, p) → y(b+1, p + L_b + 1)
 *   before     y(0, i+1) → ¬x                       (no block has started by cell i)
 *   covered    ¬y(b, i+1) ∧ y(b, i−L_b+1) → x       (b started at i or before and still covers i)
 *   uncovered  x ∧ y(b+1, i+1) → y(b, i−L_b+1)      (i filled and block b+1 starts after it: b
 *                                                    covers i, or starts after it too)
 * The starts fix every cell by propagation, and a picture fixes the starts, so a picture has
 * exactly one model. Every clause has at most three literals (constants drop out, so some are
 * units).
 *
 * Propagation here is bounds reasoning: an empty cell pushes the earliest start of a block that
 * would cover it past it, a filled cell pulls in the latest start of the first block that can
 * still cover it, and gaps carry bounds from block to block. It decides at least what the
 * leftmost/rightmost overlap rules decide, but less than an exact line solver (the automaton
 * encoding's arc consistency). What it gains is vocabulary:
 * clauses learnt over "block b starts at p or later" are much shorter than over automaton states,
 * so each conflict costs far less propagation (README, "The SAT encoding").
 */
export function encodeLineBlocks(line: Clue, cells: ArrayLike<number>, known: ArrayLike<number>, sink: ClauseSink): void {
  const n = cells.length;
  const { Q, live } = lineNodes(line, known, n, sink);
  if (!live[0]) {
    sink.emit([]); // no placement of the clue fits the known cells
    return;
  }
  const lengths = line.filter((b) => b > 0); // tolerate a written-out "0" for an empty line
  const k = lengths.length;
  if (k === 0) {
    for (let i = 0; i < n; i++) if (known[i] !== EMPTY) sink.cellUnit(cells[i]!, false);
    return;
  }
  // Block b starts at p in some placement exactly when the node (p + 1, first F state of b) is live.
  const lo = new Int32Array(k).fill(-1);
  const hi = new Int32Array(k);
  const base = new Int32Array(k);
  for (let b = 0, q = 1; b < k; q += lengths[b]! + 1, b++) {
    for (let p = 0; p + lengths[b]! <= n; p++) {
      if (!live[(p + 1) * Q + q]) continue;
      if (lo[b] < 0) lo[b] = p;
      hi[b] = p;
    }
    base[b] = sink.nextVar - lo[b]! - 1; // y(b, lo_b + 1) is the next variable
    sink.nextVar += hi[b]! - lo[b]!;
  }
  /** y(b, p) as a literal; block k (past the last) never starts. */
  const y = (b: number, p: number): number => (b >= k || p <= lo[b]! ? TRUE : p > hi[b]! ? FALSE : base[b]! + p);
  const cell = (i: number): number => (known[i] === FILLED ? TRUE : known[i] === EMPTY ? FALSE : cells[i]!);

  for (let b = 0; b < k; b++) {
    for (let p = lo[b]! + 1; p <= hi[b]!; p++) {
      sink.emit3(-y(b, p + 1), y(b, p), FALSE); // order
      if (b + 1 < k) sink.emit3(-y(b, p), y(b + 1, p + lengths[b]! + 1), FALSE); // gap
    }
  }
  for (let i = 0; i < n; i++) {
    const x = cell(i);
    sink.emit3(-y(0, i + 1), -x, FALSE); // before
    for (let b = 0; b < k && y(b, i + 1) !== TRUE; b++) {
      const coversFrom = y(b, i - lengths[b]! + 1);
      sink.emit3(y(b, i + 1), -coversFrom, x); // covered
      sink.emit3(-y(b + 1, i + 1), coversFrom, -x); // uncovered
    }
  }
}

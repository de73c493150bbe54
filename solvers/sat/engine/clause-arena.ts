import { grownInt32 } from '../../common/grow.js';

/**
 * Clause storage: every clause lives in one Int32Array as a header followed by its literals.
 * A clause reference ("cref") is the offset of its header. Keeping clauses contiguous and
 * allocation-free is what makes unit propagation fast in a JavaScript engine.
 *
 * Header layout (HEADER words):
 *   mem[cr]     number of literals
 *   mem[cr + 1] flags: bit 0 learnt, bit 1 deleted, bit 2 used (a learnt clause met in conflict
 *               analysis since the last reduction), bits 3.. the LBD (learnt clauses)
 *   mem[cr + 2] activity (learnt clauses), stored as float32 bits through a second view of the buffer
 *   mem[cr + 3] where propagation last found a new literal to watch, counted from the first literal
 *               (2 .. size − 1): the next search starts there and wraps around, so a long clause is not
 *               rescanned from the front past the same false literals each time
 * Literals follow at mem[cr + HEADER ...]; the two watched literals are always the first two.
 */
export const HEADER = 4;

const LEARNT = 1;
const DELETED = 2;
const USED = 4;
const LBD_SHIFT = 3;

export class ClauseArena {
  mem: Int32Array;
  /** Float view of `mem`, used only at offset cr + 2 (the activity). */
  act: Float32Array;
  /** First free word. */
  top = 0;
  /** Words held by deleted clauses, reclaimed by `compact`. */
  wasted = 0;

  constructor(capacity = 1 << 12) {
    this.mem = new Int32Array(capacity);
    this.act = new Float32Array(this.mem.buffer);
  }

  /** Stores a clause and returns its reference. The buffer doubles when full: callers must re-read `mem`. */
  alloc(lits: ArrayLike<number>, size: number, learnt: boolean, lbd = 0): number {
    const need = HEADER + size;
    if (this.top + need > this.mem.length) {
      this.mem = grownInt32(this.mem, this.top, this.top + need);
      this.act = new Float32Array(this.mem.buffer);
    }
    const cr = this.top;
    const mem = this.mem;
    mem[cr] = size;
    mem[cr + 1] = (learnt ? LEARNT : 0) | (lbd << LBD_SHIFT);
    this.act[cr + 2] = 0;
    mem[cr + 3] = 2; // the first literal after the two watched ones
    for (let i = 0; i < size; i++) mem[cr + HEADER + i] = lits[i]!;
    this.top += need;
    return cr;
  }

  size(cr: number): number {
    return this.mem[cr]!;
  }

  isLearnt(cr: number): boolean {
    return (this.mem[cr + 1]! & LEARNT) !== 0;
  }

  isDeleted(cr: number): boolean {
    return (this.mem[cr + 1]! & DELETED) !== 0;
  }

  lbd(cr: number): number {
    return this.mem[cr + 1]! >>> LBD_SHIFT;
  }

  setLbd(cr: number, lbd: number): void {
    this.mem[cr + 1] = (this.mem[cr + 1]! & (LEARNT | DELETED | USED)) | (lbd << LBD_SHIFT);
  }

  isUsed(cr: number): boolean {
    return (this.mem[cr + 1]! & USED) !== 0;
  }

  setUsed(cr: number, used: boolean): void {
    this.mem[cr + 1] = used ? this.mem[cr + 1]! | USED : this.mem[cr + 1]! & ~USED;
  }

  activity(cr: number): number {
    return this.act[cr + 2]!;
  }

  markDeleted(cr: number): void {
    this.mem[cr + 1]! |= DELETED;
    this.wasted += HEADER + this.mem[cr]!;
  }

  /** The literals of a clause, copied (for tests and export, not for hot paths). */
  literals(cr: number): number[] {
    return Array.from(this.mem.subarray(cr + HEADER, cr + HEADER + this.mem[cr]!));
  }

  /**
   * Moves the clauses named in `lists` into a fresh buffer, dropping everything else, and rewrites
   * the lists in place. Returns the old-to-new reference map for the callers' other references
   * (reasons); it is only valid for clauses that were in the lists. A generator that yields every
   * `step` clauses, so that a caller can pause a compaction of millions of clauses (ClauseDatabase);
   * nothing may read or change the clauses until it has returned.
   */
  *compact(lists: number[][], step: number): Generator<void, (oldRef: number) => number> {
    const old = this.mem;
    let live = 0;
    // In plain loops of `step` clauses: the generator only pauses between them.
    for (const list of lists)
      for (let from = 0; from < list.length; from += step) {
        if (from > 0) yield;
        live += wordsOf(old, list, from, Math.min(list.length, from + step));
      }
    const mem = new Int32Array(Math.max(1 << 12, live * 2));
    let top = 0;
    for (const list of lists)
      for (let from = 0; from < list.length; from += step) {
        if (from > 0) yield;
        top = moveClauses(old, mem, list, from, Math.min(list.length, from + step), top);
      }
    this.mem = mem;
    this.act = new Float32Array(mem.buffer);
    this.top = top;
    this.wasted = 0;
    return (oldRef) => old[oldRef + 2]!;
  }
}

/** The words (headers and literals) of the clauses list[from, to) in `mem`. */
function wordsOf(mem: Int32Array, list: number[], from: number, to: number): number {
  let words = 0;
  for (let i = from; i < to; i++) words += HEADER + mem[list[i]!]!;
  return words;
}

/**
 * Copies the clauses list[from, to) from `old` to `mem` at `top`, leaving each one's new reference
 * as a forwarding address in its old activity word and in the list; returns the new top.
 */
function moveClauses(old: Int32Array, mem: Int32Array, list: number[], from: number, to: number, top: number): number {
  for (let i = from; i < to; i++) {
    const cr = list[i]!;
    const words = HEADER + old[cr]!;
    for (let k = 0; k < words; k++) mem[top + k] = old[cr + k]!;
    old[cr + 2] = top;
    list[i] = top;
    top += words;
  }
  return top;
}

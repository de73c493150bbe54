import { grownInt32 } from '../../common/grow.js';

/**
 * Lists of Int32 words per literal (the engine's watch lists), all in one Int32Array, so that building and solving a large CNF
 * allocates a handful of buffers rather than one small array per literal (tens of thousands of
 * objects that the garbage collector must then trace and free, slowing every thread).
 *
 * List `lit` occupies buf[start[lit] .. start[lit] + count[lit]) inside a segment of cap[lit]
 * words. A full list moves to a segment twice its size at the end of the buffer; the old
 * segment is wasted until `clear` (the solver rebuilds all lists when it compacts its clauses).
 * Growing the buffer keeps every offset, so a caller holding `buf` must re-read it after `push`.
 */
export class WatchLists {
  buf: Int32Array;
  readonly start: Int32Array;
  readonly count: Int32Array;
  private readonly cap: Int32Array;
  private top = 0;

  constructor(lists: number) {
    this.buf = new Int32Array(Math.max(1024, lists * 8));
    this.start = new Int32Array(lists);
    this.count = new Int32Array(lists);
    this.cap = new Int32Array(lists);
  }

  /** Appends the pair (a, b) to list `lit`. */
  push(lit: number, a: number, b: number): void {
    let at = this.start[lit]! + this.count[lit]!;
    if (this.count[lit]! + 2 > this.cap[lit]!) at = this.relocate(lit);
    this.buf[at] = a;
    this.buf[at + 1] = b;
    this.count[lit]! += 2;
  }

  /** Appends the single word a to list `lit` (for lists of one-word entries). */
  pushOne(lit: number, a: number): void {
    let at = this.start[lit]! + this.count[lit]!;
    if (this.count[lit]! + 1 > this.cap[lit]!) at = this.relocate(lit);
    this.buf[at] = a;
    this.count[lit]! += 1;
  }

  /** Moves list `lit` to a fresh segment twice its size; returns its first free position. */
  private relocate(lit: number): number {
    const cap = Math.max(4, this.cap[lit]! * 2);
    if (this.top + cap > this.buf.length) this.buf = grownInt32(this.buf, this.top, this.top + cap);
    const from = this.start[lit]!;
    const n = this.count[lit]!;
    this.buf.copyWithin(this.top, from, from + n);
    this.start[lit] = this.top;
    this.cap[lit] = cap;
    this.top += cap;
    return this.top - cap + n;
  }

  /** Empties every list and reclaims the whole buffer. */
  clear(): void {
    this.count.fill(0);
    this.cap.fill(0);
    this.start.fill(0);
    this.top = 0;
  }
}

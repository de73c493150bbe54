import { grownInt32 } from '../../common/grow.js';

// Where the line encoders write their clauses: one flat growing buffer, with constant literals
// simplified away as clauses are emitted.

/** Constant literals, simplified away as clauses are emitted (variables stay far below 2^31); -TRUE is FALSE. */
export const TRUE = 0x7fffffff;
export const FALSE = -TRUE;

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

/** Clauses offered (or units charged) between two polls of a sink's stop check: milliseconds of encoding, where one long line takes seconds. */
const POLL_CLAUSES = 1 << 16;

/** What a ClauseSink throws once its stop check fires, to leave a line encoder midway (caught by encodeNonogramFlat). */
export const ENCODING_STOPPED: unique symbol = Symbol('encoding stopped');

/** A puzzle's clauses as the line encoders emit them; auxiliary variables are numbered after the cells. */
export class ClauseSink {
  readonly out = new FlatClauses();
  nextVar: number;
  /** Per cell: the value already stated by a unit clause (0 none, 1 filled, 2 empty). */
  private readonly unitDone: Uint8Array;
  private untilPoll = POLL_CLAUSES;

  /** With `shouldStop`, it is polled every POLL_CLAUSES clauses offered or units charged, and ENCODING_STOPPED thrown once it returns true. */
  constructor(
    cellVars: number,
    private readonly shouldStop?: () => boolean,
  ) {
    this.nextVar = cellVars + 1;
    this.unitDone = new Uint8Array(cellVars + 1);
  }

  /**
   * Adds the clause of `count` literals from `lits`, dropping FALSE ones and the whole clause if one
   * is TRUE. A clause left with one cell literal is a cell unit (stated once, as in `cellUnit`).
   */
  emit(lits: ArrayLike<number>, count = lits.length): void {
    if (--this.untilPoll === 0) this.poll();
    let kept = 0;
    let last = 0;
    for (let i = 0; i < count; i++) {
      const l = lits[i]!;
      if (l === TRUE) return this.out.discard();
      if (l === FALSE) continue;
      this.out.add(l);
      kept++;
      last = l;
    }
    if (kept === 1 && Math.abs(last) < this.unitDone.length) {
      this.out.discard();
      return this.cellUnit(Math.abs(last), last > 0);
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

  /** Counts `units` of an encoder's work that emits no clause (a clause offered is one unit) towards the stop check. */
  charge(units: number): void {
    if ((this.untilPoll -= units) <= 0) this.poll();
  }

  private poll(): void {
    this.untilPoll = POLL_CLAUSES;
    if (this.shouldStop?.()) throw ENCODING_STOPPED;
  }

  /** A unit clause on a cell, once per cell and value. */
  cellUnit(cellVar: number, filled: boolean): void {
    const code = filled ? 1 : 2;
    if (this.unitDone[cellVar] === code) return;
    this.unitDone[cellVar] = code;
    this.out.add(filled ? cellVar : -cellVar);
    this.out.end();
  }
}

import { HEADER } from './clause-arena.js';
import { isBinaryReason, NO_LIT, NO_REASON, otherOfBinary, toDimacs, varOf } from './literals.js';
import type { EngineState } from './state.js';

/** Marks in `seen`: a literal of the learnt clause, and during minimisation one shown implied or shown not. */
const IN_CLAUSE = 1;
const REMOVABLE = 2;
const FAILED = 3;

/**
 * Conflict analysis to the first unique implication point, then recursive minimisation of the
 * learnt clause (a literal is dropped when its reason is implied by the other learnt literals).
 * Holds the scratch it reuses across conflicts.
 */
export class ConflictAnalysis {
  /** After analyze: the learnt clause in learnt[0 .. size), asserting literal first, a literal of the backtrack level second. */
  readonly learnt: Int32Array;
  size = 0;
  private readonly seen: Uint8Array;
  private readonly toClear: number[] = [];
  /** Depth-first walk of `redundant`: literals and the next reason position to visit. */
  private readonly stackLit: Int32Array;
  private readonly stackNext: Int32Array;
  /** During minimisation, per decision level: `stamp` when the learnt clause has a literal of it, and the earliest trail position of one. */
  private readonly clauseLevel: Int32Array;
  private readonly clauseLevelFirst: Int32Array;
  private stamp = 0;
  /** A two-literal buffer, so that analysis reads a binary reason or conflict as it reads a clause. */
  private readonly binary = new Int32Array(2);

  constructor(
    private readonly s: EngineState,
    numVars: number,
  ) {
    this.learnt = new Int32Array(numVars + 1);
    this.seen = new Uint8Array(numVars);
    this.stackLit = new Int32Array(numVars);
    this.stackNext = new Int32Array(numVars);
    this.clauseLevel = new Int32Array(numVars + 1);
    this.clauseLevelFirst = new Int32Array(numVars + 1);
  }

  /**
   * Analyses a conflict, a clause reference or a binary clause as propagate returns it, into
   * `learnt`; returns the level to backtrack to.
   */
  analyze(conflict: number): number {
    const s = this.s;
    const { level, reason, trail, arena } = s;
    const { seen, learnt } = this;
    const current = s.levels;
    let size = 1; // learnt[0] is the asserting literal, known at the end
    let pending = 0;
    let p = NO_LIT;
    let index = s.trailSize - 1;
    let cr = conflict;
    do {
      // The false literals of the reason: a binary reason's other literal, or the clause's (but p).
      let k: number;
      let end: number;
      let mem: Int32Array;
      if (isBinaryReason(cr)) {
        mem = this.binary;
        mem[0] = otherOfBinary(cr);
        mem[1] = s.binaryConflictLit; // a conflicting binary clause: its other false literal
        k = 0;
        end = p === NO_LIT ? 2 : 1;
      } else {
        if (arena.isLearnt(cr)) {
          s.bumpClause(cr);
          arena.setUsed(cr, true);
          const lbd = arena.lbd(cr);
          if (lbd > 2) {
            const fresh = s.lbdOf(arena.mem, cr + HEADER, arena.size(cr));
            if (fresh < lbd) arena.setLbd(cr, fresh);
          }
        }
        mem = arena.mem;
        k = cr + HEADER + (p === NO_LIT ? 0 : 1);
        end = cr + HEADER + mem[cr]!;
      }
      for (; k < end; k++) {
        const q = mem[k]!;
        const v = varOf(q);
        if (seen[v] !== 0 || level[v] === 0) continue;
        s.bumpVar(v);
        seen[v] = IN_CLAUSE;
        if (level[v]! >= current) pending++; // resolved away below
        else learnt[size++] = q;
      }
      while (seen[varOf(trail[index--]!)] === 0);
      p = trail[index + 1]!;
      cr = reason[varOf(p)]!;
      seen[varOf(p)] = 0;
      pending--;
    } while (pending > 0);
    learnt[0] = p ^ 1;
    this.size = size;
    this.minimise();
    size = this.size;
    if (size === 1) return 0;
    let maxAt = 1;
    for (let i = 2; i < size; i++) if (level[varOf(learnt[i]!)]! > level[varOf(learnt[maxAt]!)]!) maxAt = i;
    const swap = learnt[1]!;
    learnt[1] = learnt[maxAt]!;
    learnt[maxAt] = swap;
    return level[varOf(learnt[1]!)]!;
  }

  /** Drops the literals of `learnt` (after the first) that the others imply. */
  private minimise(): void {
    const { level, reason, trailPos } = this.s;
    const { seen, toClear, clauseLevel, clauseLevelFirst } = this;
    const out = this.learnt;
    const size = this.size;
    toClear.length = 0;
    for (let i = 1; i < size; i++) toClear.push(out[i]!);
    const stamp = ++this.stamp;
    for (let i = 1; i < size; i++) {
      const v = varOf(out[i]!);
      const lv = level[v]!;
      if (clauseLevel[lv] !== stamp) {
        clauseLevel[lv] = stamp;
        clauseLevelFirst[lv] = trailPos[v]!;
      } else if (trailPos[v]! < clauseLevelFirst[lv]!) clauseLevelFirst[lv] = trailPos[v]!;
    }
    let j = 1;
    for (let i = 1; i < size; i++) {
      const l = out[i]!;
      if (reason[varOf(l)] === NO_REASON || !this.redundant(l, stamp)) out[j++] = l;
    }
    this.size = j;
    for (const l of toClear) seen[varOf(l)] = 0;
  }

  /**
   * True when literal p of the learnt clause is implied by the others: every path back through
   * reason clauses ends in literals of the clause. A depth-first walk over the reasons; its verdicts
   * are remembered in `seen` (REMOVABLE / FAILED) for the rest of this conflict, so no literal is
   * explored twice. A literal of a level the clause does not reach, or earlier on the trail than the
   * clause's first literal of its level, fails at once (`clauseLevel`, `clauseLevelFirst` under `stamp`).
   */
  private redundant(p: number, stamp: number): boolean {
    const { level, reason, trailPos } = this.s;
    const { seen, toClear, stackLit, stackNext, clauseLevel, clauseLevelFirst } = this;
    const mem = this.s.arena.mem;
    let depth = 0;
    stackLit[0] = p;
    stackNext[0] = 1;
    for (;;) {
      const q = stackLit[depth]!;
      const cr = reason[varOf(q)]!;
      const k = stackNext[depth]!;
      if (k < (isBinaryReason(cr) ? 2 : mem[cr]!)) {
        stackNext[depth] = k + 1;
        const l = isBinaryReason(cr) ? otherOfBinary(cr) : mem[cr + HEADER + k]!;
        const v = varOf(l);
        const mark = seen[v]!;
        if (level[v] === 0 || mark === IN_CLAUSE || mark === REMOVABLE) continue;
        const lv = level[v]!;
        // Every literal of a level but its decision follows from earlier literals of that level, so
        // one of a level without clause literals, or before the clause's first of its level, cannot
        // follow from the clause.
        if (mark === FAILED || reason[v] === NO_REASON || clauseLevel[lv] !== stamp || trailPos[v]! < clauseLevelFirst[lv]!) {
          // Everything on the path down to here depends on l: none of it is implied.
          for (let i = 0; i <= depth; i++) {
            const w = varOf(stackLit[i]!);
            if (seen[w] === 0) {
              seen[w] = FAILED;
              toClear.push(stackLit[i]!);
            }
          }
          return false;
        }
        depth++;
        stackLit[depth] = l;
        stackNext[depth] = 1;
        continue;
      }
      // Every antecedent of q is implied: so is q.
      if (seen[varOf(q)] === 0) {
        seen[varOf(q)] = REMOVABLE;
        toClear.push(q);
      }
      if (depth-- === 0) return true;
    }
  }

  /** The assumptions (DIMACS) behind the failed assumption `p` (false on the trail), `p` first. */
  analyzeFinal(p: number): number[] {
    const s = this.s;
    const failed = [p];
    const v0 = varOf(p);
    if (s.levels > 0 && s.level[v0]! > 0) {
      const { reason, level, trail } = s;
      const seen = this.seen;
      const mem = s.arena.mem;
      seen[v0] = 1;
      for (let i = s.trailSize - 1; i >= s.trailLim[0]!; i--) {
        const v = varOf(trail[i]!);
        if (seen[v] === 0) continue;
        const cr = reason[v]!;
        if (cr === NO_REASON) {
          failed.push(trail[i]!); // an assumption decided true (the negation of p, if that was assumed too)
        } else if (isBinaryReason(cr)) {
          const q = otherOfBinary(cr);
          if (level[varOf(q)]! > 0) seen[varOf(q)] = 1;
        } else {
          for (let k = 1; k < mem[cr]!; k++) {
            const q = mem[cr + HEADER + k]!;
            if (level[varOf(q)]! > 0) seen[varOf(q)] = 1;
          }
        }
        seen[v] = 0;
      }
      seen[v0] = 0;
    }
    return failed.map(toDimacs);
  }
}

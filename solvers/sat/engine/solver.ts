import { ClauseArena, HEADER } from './clause-arena.js';
import { luby } from '../../common/luby.js';
import { grownInt32 } from './grow.js';
import { VarHeap } from './var-heap.js';
import { WatchLists } from './watch-lists.js';

/**
 * A CDCL SAT solver in the manner of MiniSat, independent of nonograms.
 *
 * Public literals are DIMACS integers: variable v (1-based) is `v`, its negation `-v`.
 * Internally variable v is `v - 1` and a literal is `2 * var + sign` (sign 1 = negated), so
 * `lit ^ 1` is the negation and `lit >> 1` the variable.
 *
 * - Unit propagation with two watched literals per clause; each watcher carries a blocker literal
 *   (another literal of the clause) that, when true, lets propagation skip the clause unread.
 *   A binary clause's watcher is marked and its blocker is the other literal, and a literal it
 *   implies keeps that other literal as its reason: propagating or analysing a binary clause never
 *   reads it (most clauses of the nonogram encoding are binary).
 * - Conflict analysis to the first UIP, then recursive minimisation of the learnt clause
 *   (a literal is dropped when its reason clause is implied by the other learnt literals).
 * - Branching on the most active variable (EVSIDS, decay 0.95, rescaled past 1e100) with phase saving,
 *   overridden by target phases (as in CaDiCaL and Kissat): the values on the longest conflict-free
 *   trail prefix seen since the last rephase. Rephase k comes 1000·k conflicts after rephase k - 1
 *   and resets the saved phases, in turn, to the best phases (the longest conflict-free prefix since
 *   the last reset to them), all false, best again, all true. The search keeps returning to nearly
 *   consistent assignments instead of drifting: on hard satisfiable nonograms this about halved the
 *   conflicts.
 * - Restarts on the Luby sequence times 100 conflicts: simple, deterministic and robust.
 * - Learnt-clause database reduction every 2000 + 300·k conflicts: binary clauses, glue clauses
 *   (LBD ≤ 2) and clauses that are the reason of a trail literal are kept; of the rest, the half with
 *   the worst LBD (ties: lowest activity) is deleted, then the arena is compacted.
 * - Back at level 0 with new fixed literals, clauses they satisfy are dropped for good.
 * - Incremental use: clauses may be added between solves, and `solve` takes assumptions.
 */

export type SatOutcome = 'sat' | 'unsat' | 'unknown';

export interface SatSolveOptions {
  /** Literals (DIMACS) assumed true for this solve only. */
  assumptions?: ArrayLike<number>;
  /** Polled every 256 propagation rounds, or sooner after 2^18 propagations; once true, solve returns 'unknown'. */
  shouldStop?: () => boolean;
  /** Give up with 'unknown' after this many conflicts in this call. */
  conflictLimit?: number;
}

export interface SatStats {
  conflicts: number;
  decisions: number;
  /** Literals taken off the trail by unit propagation. */
  propagations: number;
  /** Learnt clauses produced (units included). */
  learnts: number;
  restarts: number;
  /** Resets of the saved phases (see the class comment). */
  rephases: number;
  /** Learnt clauses removed by database reduction. */
  deletedClauses: number;
  /** Clauses (problem or learnt) dropped because they are satisfied at level 0. */
  satisfiedRemoved: number;
  /** Highest decision level reached. */
  maxDecisionLevel: number;
}

const NO_REASON = -1;
const VAR_DECAY = 0.95;
const CLAUSE_DECAY = 0.999;
const RESTART_BASE = 100;
const FIRST_REDUCE = 2000;
const REDUCE_INCREMENT = 300;
const STOP_POLL_INTERVAL = 256;
const STOP_POLL_PROPAGATIONS = 1 << 18;
/** Rephase k happens REPHASE_INTERVAL·k conflicts after rephase k - 1. */
const REPHASE_INTERVAL = 1000;
/** What each rephase resets saved phases to, cyclically: Best, Original (false), Inverted (true). */
const REPHASE_CYCLE = 'BOBI';
/** In `target` and `best`: no phase recorded for the variable. */
const NO_PHASE = 2;
/** Marks in `seen` during minimisation: a literal of the learnt clause, one shown implied, one shown not. */
const IN_CLAUSE = 1;
const REMOVABLE = 2;
const FAILED = 3;

export class SatSolver {
  readonly numVars: number;
  readonly stats: SatStats = {
    conflicts: 0,
    decisions: 0,
    propagations: 0,
    learnts: 0,
    restarts: 0,
    rephases: 0,
    deletedClauses: 0,
    satisfiedRemoved: 0,
    maxDecisionLevel: 0,
  };
  /** After 'sat': model[v] is 1 when variable v (1-based) is true, else 0; index 0 is unused. */
  model: Uint8Array | null = null;
  /** Called with every learnt clause (DIMACS literals) as it is learnt; for tests and tracing. */
  onLearnt: ((clause: number[]) => void) | null = null;

  /** False once the clauses are unsatisfiable without assumptions. */
  private ok = true;
  private readonly arena = new ClauseArena();
  private readonly clauses: number[] = [];
  private readonly learnts: number[] = [];

  /** Per literal: 1 true, -1 false, 0 unassigned. */
  private readonly vals: Int8Array;
  /** Per literal: watchers of clauses watching it, as (cref, blocker) pairs; visited when it becomes false. */
  private readonly watches: WatchLists;

  private readonly level: Int32Array;
  private readonly reason: Int32Array;
  private readonly activity: Float64Array;
  /** Saved phase: the sign bit of the variable's last value (1 = false), the default being false. */
  private readonly polarity: Uint8Array;
  /** Target phase (sign bit or NO_PHASE): the variable's value on the longest conflict-free prefix since the last rephase. */
  private readonly target: Uint8Array;
  private targetSize = 0;
  /** Best phase: the same since the last rephase to best phases. */
  private readonly best: Uint8Array;
  private bestSize = 0;
  private nextRephase = REPHASE_INTERVAL;
  private readonly seen: Uint8Array;
  /** Per variable: 1 when the search may branch on it (see setDecisionVar). */
  private readonly decision: Uint8Array;
  private readonly heap: VarHeap;

  private readonly trail: Int32Array;
  /** Per variable: its position on the trail while it is assigned. */
  private readonly trailPos: Int32Array;
  private trailSize = 0;
  /** trailLim[d]: the trail size where decision level d + 1 starts; `levels` is the current level. */
  private trailLim: Int32Array;
  private levels = 0;
  private qhead = 0;

  private varInc = 1;
  private clauseInc = 1;
  private nextReduce = FIRST_REDUCE;
  /** Propagation rounds left before shouldStop is polled; kept across restarts, which are often shorter. */
  private untilPoll = STOP_POLL_INTERVAL;
  /** Propagations after which shouldStop is polled even before STOP_POLL_INTERVAL rounds (rounds are long on a huge CNF). */
  private pollAtPropagations = STOP_POLL_PROPAGATIONS;
  private reduceInterval = FIRST_REDUCE;
  /** Trail size at the last removal of satisfied clauses. */
  private simplifiedAt = -1;
  /** No removal of satisfied clauses before this many propagations (MiniSat's throttle: a pass costs a scan of every clause). */
  private nextSimplify = 0;

  // Scratch state reused across conflicts.
  private readonly learnt: number[] = [];
  private readonly toClear: number[] = [];
  /** Depth-first walk of `redundant`: literals and the next reason position to visit. */
  private readonly stackLit: Int32Array;
  private readonly stackNext: Int32Array;
  private readonly levelStamp: Int32Array;
  /** During minimisation, per decision level: `stamp` when the learnt clause has a literal of it, and the earliest trail position of one. */
  private readonly clauseLevel: Int32Array;
  private readonly clauseLevelFirst: Int32Array;
  private stamp = 0;
  private assumptions: Int32Array = new Int32Array(0);
  private failed: number[] = [];
  /** addClause's working copy of a clause. */
  private scratch = new Int32Array(64);

  constructor(numVars: number) {
    if (!Number.isInteger(numVars) || numVars < 0) throw new RangeError(`bad variable count ${numVars}`);
    this.numVars = numVars;
    this.vals = new Int8Array(2 * numVars);
    this.watches = new WatchLists(2 * numVars);
    this.level = new Int32Array(numVars);
    this.reason = new Int32Array(numVars).fill(NO_REASON);
    this.activity = new Float64Array(numVars);
    this.polarity = new Uint8Array(numVars).fill(1);
    this.target = new Uint8Array(numVars).fill(NO_PHASE);
    this.best = new Uint8Array(numVars).fill(NO_PHASE);
    this.seen = new Uint8Array(numVars);
    this.decision = new Uint8Array(numVars).fill(1);
    this.trail = new Int32Array(numVars);
    this.trailPos = new Int32Array(numVars);
    this.trailLim = new Int32Array(numVars + 1);
    this.levelStamp = new Int32Array(numVars + 1);
    this.clauseLevel = new Int32Array(numVars + 1);
    this.clauseLevelFirst = new Int32Array(numVars + 1);
    this.stackLit = new Int32Array(numVars);
    this.stackNext = new Int32Array(numVars);
    this.heap = new VarHeap(numVars, this.activity);
    for (let v = 0; v < numVars; v++) this.heap.insert(v);
  }

  /** Number of problem clauses kept (units and satisfied clauses are not stored). */
  get numClauses(): number {
    return this.clauses.length;
  }

  /** Number of learnt clauses currently kept (units excluded). */
  get numLearnts(): number {
    return this.learnts.length;
  }

  /** False once the clause set is known to be unsatisfiable. */
  get okay(): boolean {
    return this.ok;
  }

  /**
   * Adds a clause of DIMACS literals (between solves). Returns false when the clause set became
   * unsatisfiable (an empty clause, or a unit contradicting the units already known).
   */
  addClause(lits: ArrayLike<number>): boolean {
    return this.addClauseSlice(lits, 0, lits.length);
  }

  /** `addClause` of lits[from .. to), without copying them out first (for encoders with flat buffers). */
  addClauseSlice(lits: ArrayLike<number>, from: number, to: number): boolean {
    if (!this.ok) return false;
    const size = to - from;
    if (this.scratch.length < size) this.scratch = new Int32Array(Math.max(size, 2 * this.scratch.length));
    const kept = this.scratch;
    // Insertion sort: clauses are short, and sorted literals put duplicates and x, ¬x side by side.
    for (let i = 0; i < size; i++) {
      const l = this.toLit(lits[from + i]!);
      let k = i;
      while (k > 0 && kept[k - 1]! > l) {
        kept[k] = kept[k - 1]!;
        k--;
      }
      kept[k] = l;
    }
    let n = 0;
    let previous = -1;
    for (let i = 0; i < size; i++) {
      const l = kept[i]!;
      if (l === previous) continue;
      if (l === (previous ^ 1) || this.vals[l] === 1) return true; // tautology or satisfied at level 0
      if (this.vals[l] === -1) continue; // false at level 0: drop the literal
      kept[n++] = l;
      previous = l;
    }
    if (n === 0) return (this.ok = false);
    if (n === 1) {
      this.enqueue(kept[0]!, NO_REASON);
      return (this.ok = this.propagate() === NO_REASON);
    }
    const cr = this.arena.alloc(kept, n, false);
    this.clauses.push(cr);
    this.attach(cr);
    return true;
  }

  /**
   * Lets the search branch on variable v (1-based), or not. A variable that is not a decision
   * variable only gets a value through propagation: use it for variables that the others determine
   * (a solve may end 'sat' with it unassigned, and the model then reads it as false).
   */
  setDecisionVar(v: number, allowed: boolean): void {
    const internal = this.toLit(v) >> 1;
    this.decision[internal] = allowed ? 1 : 0;
    if (allowed && this.vals[2 * internal] === 0) this.heap.insert(internal);
  }

  /**
   * Searches for a model. 'sat' sets `model`; 'unsat' under assumptions sets `failedAssumptions`;
   * 'unknown' means the conflict limit or the stop check ended the search. The solver is left at
   * decision level 0, ready for more clauses and solves.
   */
  solve(options: SatSolveOptions = {}): SatOutcome {
    this.model = null;
    this.failed = [];
    if (!this.ok) return 'unsat';
    const given = options.assumptions ?? [];
    this.assumptions = new Int32Array(given.length);
    for (let i = 0; i < given.length; i++) this.assumptions[i] = this.toLit(given[i]!);
    const shouldStop = options.shouldStop ?? (() => false);
    if (shouldStop()) return 'unknown';
    const conflictLimit = this.stats.conflicts + (options.conflictLimit ?? Infinity);
    let outcome: SatOutcome | 'restart' = 'restart';
    for (let restarts = 0; outcome === 'restart'; restarts++) {
      outcome = this.search(luby(restarts) * RESTART_BASE, conflictLimit, shouldStop);
      if (outcome === 'restart') this.stats.restarts++;
    }
    if (outcome === 'sat') {
      const model = new Uint8Array(this.numVars + 1);
      for (let v = 0; v < this.numVars; v++) model[v + 1] = this.vals[2 * v] === 1 ? 1 : 0;
      this.model = model;
    }
    this.cancelUntil(0);
    return outcome;
  }

  /** After 'sat': the value of variable v (1-based) in the model. */
  value(v: number): boolean {
    if (!this.model) throw new Error('no model: the last solve did not return sat');
    return this.model[v] === 1;
  }

  /** After 'unsat' under assumptions: assumptions (DIMACS) that together cannot hold. Empty when the clauses alone are unsatisfiable. */
  get failedAssumptions(): number[] {
    return this.failed.slice();
  }

  /** The value a variable has at level 0 (fixed by the clauses): true, false, or undefined. */
  fixedValue(v: number): boolean | undefined {
    const lit = this.toLit(v);
    if (this.vals[lit] === 0 || this.level[lit >> 1] !== 0) return undefined;
    return this.vals[lit] === 1;
  }

  /** The learnt clauses currently kept, as DIMACS literals (learnt units show up as `fixedValue`). */
  learntClauses(): number[][] {
    return this.learnts.map((cr) => this.arena.literals(cr).map(toDimacs));
  }

  // ---- core ----------------------------------------------------------------------------------

  private toLit(d: number): number {
    const v = Math.abs(d);
    if (!Number.isInteger(d) || d === 0 || v > this.numVars)
      throw new RangeError(`literal ${d} is not a variable of 1..${this.numVars}`);
    return 2 * (v - 1) + (d < 0 ? 1 : 0);
  }

  private decisionLevel(): number {
    return this.levels;
  }

  private enqueue(lit: number, from: number): void {
    const v = lit >> 1;
    this.vals[lit] = 1;
    this.vals[lit ^ 1] = -1;
    this.level[v] = this.levels;
    this.reason[v] = from;
    this.trailPos[v] = this.trailSize;
    this.trail[this.trailSize++] = lit;
  }

  private attach(cr: number): void {
    const mem = this.arena.mem;
    const a = mem[cr + HEADER]!;
    const b = mem[cr + HEADER + 1]!;
    const watcher = mem[cr] === 2 ? ~cr : cr; // a negative watcher marks a binary clause for propagation
    this.watches.push(a, watcher, b);
    this.watches.push(b, watcher, a);
  }

  /** Unit propagation to a fixpoint; returns the conflicting clause or NO_REASON. */
  private propagate(): number {
    const { vals, trail, trailPos, level, reason, watches } = this;
    const { start: watchStart, count: watchCount } = watches;
    let ws = watches.buf; // re-read after a push, which may grow it
    const mem = this.arena.mem; // no clause is allocated during propagation
    const decisionLevel = this.levels;
    const start = this.qhead;
    let qhead = start;
    let trailSize = this.trailSize;
    let conflict = NO_REASON;
    while (qhead < trailSize) {
      const falseLit = trail[qhead++]! ^ 1;
      const listStart = watchStart[falseLit]!;
      const n = listStart + watchCount[falseLit]!;
      let i = listStart;
      let j = listStart;
      while (i < n) {
        const cr = ws[i]!;
        const blocker = ws[i + 1]!;
        i += 2;
        const blockerValue = vals[blocker]!;
        if (blockerValue === 1) {
          ws[j++] = cr;
          ws[j++] = blocker;
          continue;
        }
        if (cr < 0) {
          // A binary clause (~cr in the arena): the blocker is its other literal, so no clause read.
          ws[j++] = cr;
          ws[j++] = blocker;
          if (blockerValue === -1) {
            conflict = ~cr;
            while (i < n) ws[j++] = ws[i++]!;
          } else {
            vals[blocker] = 1;
            vals[blocker ^ 1] = -1;
            level[blocker >> 1] = decisionLevel;
            reason[blocker >> 1] = binaryReason(falseLit);
            trailPos[blocker >> 1] = trailSize;
            trail[trailSize++] = blocker;
          }
          continue;
        }
        // Keep the false literal in the second slot.
        const base = cr + HEADER;
        if (mem[base] === falseLit) {
          mem[base] = mem[base + 1]!;
          mem[base + 1] = falseLit;
        }
        const first = mem[base]!;
        if (first !== blocker && vals[first] === 1) {
          ws[j++] = cr;
          ws[j++] = first;
          continue;
        }
        // Look for a literal that is not false to watch instead.
        const end = base + mem[cr]!;
        let moved = false;
        for (let k = base + 2; k < end; k++) {
          const l = mem[k]!;
          if (vals[l] !== -1) {
            mem[base + 1] = l;
            mem[k] = falseLit;
            watches.push(l, cr, first); // never this list: l is not false
            ws = watches.buf;
            moved = true;
            break;
          }
        }
        if (moved) continue;
        // The clause is unit or conflicting.
        ws[j++] = cr;
        ws[j++] = first;
        if (vals[first] === -1) {
          conflict = cr;
          while (i < n) ws[j++] = ws[i++]!;
        } else {
          vals[first] = 1;
          vals[first ^ 1] = -1;
          level[first >> 1] = decisionLevel;
          reason[first >> 1] = cr;
          trailPos[first >> 1] = trailSize;
          trail[trailSize++] = first;
        }
      }
      watchCount[falseLit] = j - listStart;
      if (conflict !== NO_REASON) break;
    }
    this.stats.propagations += qhead - start;
    this.trailSize = trailSize;
    this.qhead = conflict === NO_REASON ? qhead : trailSize;
    return conflict;
  }

  private cancelUntil(level: number): void {
    if (this.decisionLevel() <= level) return;
    const stop = this.trailLim[level]!;
    for (let i = this.trailSize - 1; i >= stop; i--) {
      const lit = this.trail[i]!;
      const v = lit >> 1;
      this.vals[lit] = 0;
      this.vals[lit ^ 1] = 0;
      this.reason[v] = NO_REASON;
      this.polarity[v] = lit & 1;
      if (this.decision[v] === 1) this.heap.insert(v);
    }
    this.trailSize = stop;
    this.qhead = stop;
    this.levels = level;
  }

  private bumpVar(v: number): void {
    if ((this.activity[v]! += this.varInc) > 1e100) {
      for (let i = 0; i < this.numVars; i++) this.activity[i]! *= 1e-100;
      this.varInc *= 1e-100;
    }
    this.heap.increased(v);
  }

  private bumpClause(cr: number): void {
    const act = this.arena.act;
    if ((act[cr + 2]! += this.clauseInc) > 1e20) {
      for (const c of this.learnts) act[c + 2]! *= 1e-20;
      this.clauseInc *= 1e-20;
    }
  }

  /** Number of distinct decision levels among the literals (the clause's "glue"). */
  private lbdOf(lits: ArrayLike<number>, from: number, size: number): number {
    const stamp = ++this.stamp;
    let count = 0;
    for (let i = from; i < from + size; i++) {
      const lv = this.level[lits[i]! >> 1]!;
      if (this.levelStamp[lv] !== stamp) {
        this.levelStamp[lv] = stamp;
        count++;
      }
    }
    return count;
  }

  /**
   * First-UIP conflict analysis. Leaves the minimised learnt clause in `this.learnt` with the
   * asserting literal first and a literal of the backtrack level second; returns that level.
   */
  private analyze(conflict: number): number {
    const { seen, level, reason, trail, arena } = this;
    const out = this.learnt;
    out.length = 0;
    out.push(-1);
    const current = this.decisionLevel();
    let pending = 0;
    let p = -1;
    let index = this.trailSize - 1;
    let cr = conflict;
    do {
      if (cr < NO_REASON) {
        pending += this.analyzeLiteral(otherOfBinary(cr), current);
      } else {
        if (arena.isLearnt(cr)) {
          this.bumpClause(cr);
          const lbd = arena.lbd(cr);
          if (lbd > 2) {
            const fresh = this.lbdOf(arena.mem, cr + HEADER, arena.size(cr));
            if (fresh < lbd) arena.setLbd(cr, fresh);
          }
        }
        const mem = arena.mem;
        const size = mem[cr]!;
        for (let k = p === -1 ? 0 : 1; k < size; k++) pending += this.analyzeLiteral(mem[cr + HEADER + k]!, current);
      }
      while (seen[trail[index--]! >> 1] === 0);
      p = trail[index + 1]!;
      cr = reason[p >> 1]!;
      seen[p >> 1] = 0;
      pending--;
    } while (pending > 0);
    out[0] = p ^ 1;

    // Minimisation: drop literals implied by the rest of the clause.
    const toClear = this.toClear;
    toClear.length = 0;
    for (let i = 1; i < out.length; i++) toClear.push(out[i]!);
    const { clauseLevel, clauseLevelFirst, trailPos } = this;
    const stamp = ++this.stamp;
    for (let i = 1; i < out.length; i++) {
      const v = out[i]! >> 1;
      const lv = level[v]!;
      if (clauseLevel[lv] !== stamp) {
        clauseLevel[lv] = stamp;
        clauseLevelFirst[lv] = trailPos[v]!;
      } else if (trailPos[v]! < clauseLevelFirst[lv]!) clauseLevelFirst[lv] = trailPos[v]!;
    }
    let j = 1;
    for (let i = 1; i < out.length; i++) {
      const l = out[i]!;
      if (reason[l >> 1] === NO_REASON || !this.redundant(l, stamp)) out[j++] = l;
    }
    out.length = j;
    for (const l of toClear) seen[l >> 1] = 0;

    if (out.length === 1) return 0;
    let maxAt = 1;
    for (let i = 2; i < out.length; i++) if (level[out[i]! >> 1]! > level[out[maxAt]! >> 1]!) maxAt = i;
    const swap = out[1]!;
    out[1] = out[maxAt]!;
    out[maxAt] = swap;
    return level[out[1]! >> 1]!;
  }

  /** Analysis meets q, a false literal of a reason: marks and bumps it; returns 1 when q is of the current level (to be resolved away). */
  private analyzeLiteral(q: number, current: number): number {
    const v = q >> 1;
    if (this.seen[v] !== 0 || this.level[v] === 0) return 0;
    this.bumpVar(v);
    this.seen[v] = IN_CLAUSE;
    if (this.level[v]! >= current) return 1;
    this.learnt.push(q);
    return 0;
  }

  /**
   * True when literal p of the learnt clause is implied by the others: every path back through
   * reason clauses ends in literals of the clause. A depth-first walk over the reasons; its verdicts
   * are remembered in `seen` (REMOVABLE / FAILED) for the rest of this conflict, so no literal is
   * explored twice. A literal of a level the clause does not reach, or earlier on the trail than the
   * clause's first literal of its level, fails at once (`clauseLevel`, `clauseLevelFirst` under `stamp`).
   */
  private redundant(p: number, stamp: number): boolean {
    const { seen, level, reason, toClear, stackLit, stackNext, clauseLevel, clauseLevelFirst, trailPos } = this;
    const mem = this.arena.mem;
    let depth = 0;
    stackLit[0] = p;
    stackNext[0] = 1;
    for (;;) {
      const q = stackLit[depth]!;
      const cr = reason[q >> 1]!;
      const k = stackNext[depth]!;
      if (k < (cr < NO_REASON ? 2 : mem[cr]!)) {
        stackNext[depth] = k + 1;
        const l = cr < NO_REASON ? otherOfBinary(cr) : mem[cr + HEADER + k]!;
        const v = l >> 1;
        const mark = seen[v]!;
        if (level[v] === 0 || mark === IN_CLAUSE || mark === REMOVABLE) continue;
        const lv = level[v]!;
        // Every literal of a level but its decision follows from earlier literals of that level, so
        // one of a level without clause literals, or before the clause's first of its level, cannot
        // follow from the clause.
        if (mark === FAILED || reason[v] === NO_REASON || clauseLevel[lv] !== stamp || trailPos[v]! < clauseLevelFirst[lv]!) {
          // Everything on the path down to here depends on l: none of it is implied.
          for (let i = 0; i <= depth; i++) {
            const w = stackLit[i]! >> 1;
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
      if (seen[q >> 1] === 0) {
        seen[q >> 1] = REMOVABLE;
        toClear.push(q);
      }
      if (depth-- === 0) return true;
    }
  }

  /** Records the assumptions behind the failed assumption `p` (false on the trail). */
  private analyzeFinal(p: number): void {
    const failed = [p];
    const v0 = p >> 1;
    if (this.decisionLevel() > 0 && this.level[v0]! > 0) {
      const { seen, reason, level, trail } = this;
      const mem = this.arena.mem;
      seen[v0] = 1;
      for (let i = this.trailSize - 1; i >= this.trailLim[0]!; i--) {
        const v = trail[i]! >> 1;
        if (seen[v] === 0) continue;
        const cr = reason[v]!;
        if (cr === NO_REASON) {
          failed.push(trail[i]!); // an assumption decided true (the negation of p, if that was assumed too)
        } else if (cr < NO_REASON) {
          const q = otherOfBinary(cr);
          if (level[q >> 1]! > 0) seen[q >> 1] = 1;
        } else {
          for (let k = 1; k < mem[cr]!; k++) {
            const q = mem[cr + HEADER + k]!;
            if (level[q >> 1]! > 0) seen[q >> 1] = 1;
          }
        }
        seen[v] = 0;
      }
      seen[v0] = 0;
    }
    this.failed = failed.map(toDimacs);
  }

  private pickBranchLit(): number {
    while (this.heap.size > 0) {
      const v = this.heap.removeMax();
      if (this.vals[2 * v] === 0 && this.decision[v] === 1) {
        const phase = this.target[v]!;
        return 2 * v + (phase === NO_PHASE ? this.polarity[v]! : phase);
      }
    }
    return -1;
  }

  /** Records the first `prefix` trail literals, propagated without conflict, as target / best phases when longer than before. */
  private updatePhases(prefix: number): void {
    if (prefix <= this.targetSize) return; // bestSize ≥ targetSize, so neither improves
    const { trail, target, best } = this;
    this.targetSize = prefix;
    if (prefix > this.bestSize) {
      this.bestSize = prefix;
      for (let i = 0; i < prefix; i++) {
        const lit = trail[i]!;
        target[lit >> 1] = best[lit >> 1] = lit & 1;
      }
    } else {
      for (let i = 0; i < prefix; i++) target[trail[i]! >> 1] = trail[i]! & 1;
    }
  }

  /** Resets the saved phases (see REPHASE_CYCLE) and forgets the target, so the search leaves a stuck region. */
  private rephase(): void {
    const kind = REPHASE_CYCLE[this.stats.rephases++ % REPHASE_CYCLE.length];
    if (kind === 'B') {
      for (let v = 0; v < this.numVars; v++) if (this.best[v] !== NO_PHASE) this.polarity[v] = this.best[v]!;
      this.bestSize = 0;
    } else {
      this.polarity.fill(kind === 'O' ? 1 : 0);
    }
    this.target.fill(NO_PHASE);
    this.targetSize = 0;
    this.nextRephase = this.stats.conflicts + REPHASE_INTERVAL * (this.stats.rephases + 1);
  }

  private newDecisionLevel(): void {
    if (this.levels === this.trailLim.length) {
      // Repeated assumptions add empty levels, so there can be more levels than variables.
      this.trailLim = grownInt32(this.trailLim, this.levels, this.levels + 1);
    }
    this.trailLim[this.levels++] = this.trailSize;
    if (this.levels > this.stats.maxDecisionLevel) this.stats.maxDecisionLevel = this.levels;
  }

  private locked(cr: number): boolean {
    const first = this.arena.mem[cr + HEADER]!;
    return this.vals[first] === 1 && this.reason[first >> 1] === cr;
  }

  /** Learns the clause in `this.learnt` (after backtracking) and asserts its first literal. */
  private learn(): void {
    const out = this.learnt;
    this.stats.learnts++;
    if (this.onLearnt) this.onLearnt(out.map(toDimacs));
    if (out.length === 1) {
      this.enqueue(out[0]!, NO_REASON);
      return;
    }
    const cr = this.arena.alloc(out, out.length, true, this.lbdOf(out, 0, out.length));
    this.learnts.push(cr);
    this.attach(cr);
    this.bumpClause(cr);
    this.enqueue(out[0]!, cr);
  }

  /** One restart's worth of search: 'restart' when its conflict budget is spent. */
  private search(budget: number, conflictLimit: number, shouldStop: () => boolean): SatOutcome | 'restart' {
    let conflicts = 0;
    for (;;) {
      if (--this.untilPoll === 0 || this.stats.propagations >= this.pollAtPropagations) {
        this.untilPoll = STOP_POLL_INTERVAL;
        this.pollAtPropagations = this.stats.propagations + STOP_POLL_PROPAGATIONS;
        if (shouldStop()) return this.giveUp();
      }
      const conflict = this.propagate();
      if (conflict !== NO_REASON) {
        this.stats.conflicts++;
        conflicts++;
        if (this.decisionLevel() === 0) {
          this.ok = false;
          return 'unsat';
        }
        this.updatePhases(this.trailLim[this.levels - 1]!); // the levels below the conflict's were consistent
        const backtrackLevel = this.analyze(conflict);
        this.cancelUntil(backtrackLevel);
        this.learn();
        this.varInc /= VAR_DECAY;
        this.clauseInc /= CLAUSE_DECAY;
        if (this.stats.conflicts >= this.nextRephase) this.rephase();
        if (this.stats.conflicts >= conflictLimit) return this.giveUp();
        continue;
      }
      if (conflicts >= budget) {
        this.updatePhases(this.trailSize); // fully propagated without conflict
        this.cancelUntil(0);
        return 'restart';
      }
      if (this.decisionLevel() === 0 && this.trailSize !== this.simplifiedAt && this.stats.propagations >= this.nextSimplify)
        this.removeSatisfied();
      if (this.stats.conflicts >= this.nextReduce) {
        this.reduceInterval += REDUCE_INCREMENT;
        this.nextReduce = this.stats.conflicts + this.reduceInterval;
        this.reduceLearnts();
      }
      let next = -1;
      while (this.decisionLevel() < this.assumptions.length) {
        const a = this.assumptions[this.decisionLevel()]!;
        if (this.vals[a] === 1) {
          this.newDecisionLevel(); // already true: an empty level keeps levels aligned with assumptions
        } else if (this.vals[a] === -1) {
          this.analyzeFinal(a);
          this.cancelUntil(0);
          return 'unsat';
        } else {
          next = a;
          break;
        }
      }
      if (next === -1) {
        next = this.pickBranchLit();
        if (next === -1) return 'sat';
        this.stats.decisions++;
      }
      this.newDecisionLevel();
      this.enqueue(next, NO_REASON);
    }
  }

  private giveUp(): 'unknown' {
    this.cancelUntil(0);
    return 'unknown';
  }

  /** Deletes the worse half of the learnt clauses (see the class comment for what is kept). */
  private reduceLearnts(): void {
    const arena = this.arena;
    const candidates: number[] = [];
    const kept: number[] = [];
    for (const cr of this.learnts) {
      if (arena.size(cr) === 2 || arena.lbd(cr) <= 2 || this.locked(cr)) kept.push(cr);
      else candidates.push(cr);
    }
    candidates.sort((a, b) => arena.lbd(b) - arena.lbd(a) || arena.activity(a) - arena.activity(b));
    const remove = candidates.length >> 1;
    for (let i = 0; i < candidates.length; i++) {
      if (i < remove) {
        arena.markDeleted(candidates[i]!);
        this.stats.deletedClauses++;
      } else kept.push(candidates[i]!);
    }
    this.learnts.length = 0;
    for (const cr of kept) this.learnts.push(cr);
    this.collectGarbage();
  }

  /** At level 0: drops clauses already satisfied (their literals can never matter again). */
  private removeSatisfied(): void {
    if (this.propagate() !== NO_REASON) {
      this.ok = false;
      return;
    }
    this.simplifiedAt = this.trailSize;
    let literals = 0;
    for (const cr of this.clauses) literals += this.arena.size(cr);
    for (const cr of this.learnts) literals += this.arena.size(cr);
    this.nextSimplify = this.stats.propagations + literals;
    const mem = this.arena.mem;
    const satisfied = (cr: number) => {
      for (let k = 0; k < mem[cr]!; k++) if (this.vals[mem[cr + HEADER + k]!] === 1) return true;
      return false;
    };
    let removed = 0;
    for (const list of [this.clauses, this.learnts]) {
      let j = 0;
      for (const cr of list) {
        if (satisfied(cr)) {
          this.arena.markDeleted(cr);
          removed++;
        } else list[j++] = cr;
      }
      list.length = j;
    }
    if (removed === 0) return;
    this.stats.satisfiedRemoved += removed;
    // Level-0 literals never take part in analysis, so their reasons may go.
    for (let i = 0; i < this.trailSize; i++) this.reason[this.trail[i]! >> 1] = NO_REASON;
    this.collectGarbage();
  }

  /** Compacts the arena, remaps reasons and rebuilds every watch list (watches are the first two literals). */
  private collectGarbage(): void {
    const forward = this.arena.compact([this.clauses, this.learnts]);
    for (let i = 0; i < this.trailSize; i++) {
      const v = this.trail[i]! >> 1;
      if (this.reason[v]! >= 0) this.reason[v] = forward(this.reason[v]!); // binary reasons name no clause
    }
    this.watches.clear();
    for (const cr of this.clauses) this.attach(cr);
    for (const cr of this.learnts) this.attach(cr);
  }
}

/**
 * A literal implied by a binary clause has the clause's other literal as its reason, encoded below
 * NO_REASON, so that neither propagation nor analysis reads the clause.
 */
function binaryReason(other: number): number {
  return -2 - other;
}

function otherOfBinary(reason: number): number {
  return -2 - reason;
}

export function toDimacs(lit: number): number {
  return lit & 1 ? -((lit >> 1) + 1) : (lit >> 1) + 1;
}

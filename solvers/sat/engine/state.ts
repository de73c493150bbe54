import { ClauseArena, HEADER } from './clause-arena.js';
import { grownInt32 } from '../../common/grow.js';
import { FALSE, NO_REASON, sign, TRUE, UNDEF, varOf } from './literals.js';
import { Phases } from './phases.js';
import { VarHeap } from './var-heap.js';
import { WatchLists } from './watch-lists.js';

export interface SatStats {
  conflicts: number;
  decisions: number;
  /** Literals taken off the trail by unit propagation. */
  propagations: number;
  /** Learnt clauses produced (units included). */
  learnts: number;
  restarts: number;
  /** Resets of the saved phases (see Phases). */
  rephases: number;
  /** Learnt clauses removed by database reduction. */
  deletedClauses: number;
  /** Clauses (problem or learnt) dropped because they are satisfied at level 0. */
  satisfiedRemoved: number;
  /** Highest decision level reached by the search's own decisions (levels holding assumptions not counted). */
  maxDecisionLevel: number;
  /** Clauses a theory propagator added to explain its deductions and conflicts (see theory.ts). */
  explanations: number;
}

/** Activities past a limit are all scaled down, so they stay finite; only their order matters. */
const VAR_LIMIT = 1e100;
const VAR_SCALE = 1e-100;
const CLAUSE_LIMIT = 1e20;
const CLAUSE_SCALE = 1e-20;

/**
 * The engine's state: clauses, the assignment with its trail and decision levels, activities.
 * Propagation, analysis and the clause database work on it; SatSolver is its public face.
 */
export class EngineState {
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
    explanations: 0,
  };
  /** False once the clauses are unsatisfiable without assumptions. */
  ok = true;
  readonly arena = new ClauseArena();
  readonly clauses: number[] = [];
  readonly learnts: number[] = [];

  /** Per literal: TRUE, FALSE or UNDEF. */
  readonly vals: Int8Array;
  /** Per literal: the clauses of three or more literals watching it, as (clause, blocker) pairs; visited when it becomes false. */
  readonly watches: WatchLists;
  /** Per literal: the other literal of every binary clause holding it, one word each; visited when it becomes false. */
  readonly binaries: WatchLists;
  /** After propagate returned a binary clause as its conflict (binaryReason(other)): the clause's other literal. */
  binaryConflictLit = 0;
  readonly level: Int32Array;
  readonly reason: Int32Array;
  readonly activity: Float64Array;
  /** Per variable: 1 when the search may branch on it. */
  readonly decision: Uint8Array;
  readonly heap: VarHeap;
  readonly phases: Phases;

  readonly trail: Int32Array;
  /** Per variable: its position on the trail while it is assigned. */
  readonly trailPos: Int32Array;
  trailSize = 0;
  /** trailLim[d]: the trail size where decision level d + 1 starts; `levels` is the current level. */
  trailLim: Int32Array;
  levels = 0;
  /** Next trail position to propagate. */
  qhead = 0;
  /** Next trail position to tell the theory propagator about (see theory.ts). */
  theoryHead = 0;

  varInc = 1;
  clauseInc = 1;
  /** Per decision level: `stamp` when lbdOf last met it. */
  private readonly levelStamp: Int32Array;
  stamp = 0;

  constructor(readonly numVars: number) {
    this.vals = new Int8Array(2 * numVars);
    this.watches = new WatchLists(2 * numVars);
    this.binaries = new WatchLists(2 * numVars);
    this.level = new Int32Array(numVars);
    this.reason = new Int32Array(numVars).fill(NO_REASON);
    this.activity = new Float64Array(numVars);
    this.decision = new Uint8Array(numVars).fill(1);
    this.phases = new Phases(numVars);
    this.trail = new Int32Array(numVars);
    this.trailPos = new Int32Array(numVars);
    this.trailLim = new Int32Array(numVars + 1);
    this.levelStamp = new Int32Array(numVars + 1);
    this.heap = new VarHeap(numVars, this.activity);
    this.heap.insertAllInOrder(); // as inserting 0, 1, … one at a time (the activities are all 0)
  }

  /** Makes `lit` true at the current level, with `reason` (NO_REASON for a decision): the one way a literal is assigned. */
  enqueue(lit: number, reason: number): void {
    const v = varOf(lit);
    this.vals[lit] = TRUE;
    this.vals[lit ^ 1] = FALSE;
    this.level[v] = this.levels;
    this.reason[v] = reason;
    this.trailPos[v] = this.trailSize;
    this.trail[this.trailSize++] = lit;
  }

  newDecisionLevel(): void {
    if (this.levels === this.trailLim.length) {
      // Repeated assumptions add empty levels, so there can be more levels than variables.
      this.trailLim = grownInt32(this.trailLim, this.levels, this.levels + 1);
    }
    this.trailLim[this.levels++] = this.trailSize;
  }

  /** Undoes every assignment above `level`, saving each variable's phase. */
  cancelUntil(level: number): void {
    if (this.levels <= level) return;
    const stop = this.trailLim[level]!;
    const polarity = this.phases.polarity;
    for (let i = this.trailSize - 1; i >= stop; i--) {
      const lit = this.trail[i]!;
      const v = varOf(lit);
      this.vals[lit] = UNDEF;
      this.vals[lit ^ 1] = UNDEF;
      this.reason[v] = NO_REASON;
      polarity[v] = sign(lit);
      if (this.decision[v] === 1) this.heap.insert(v);
    }
    this.trailSize = stop;
    this.qhead = stop;
    if (this.theoryHead > stop) this.theoryHead = stop;
    this.levels = level;
  }

  bumpVar(v: number): void {
    if ((this.activity[v]! += this.varInc) > VAR_LIMIT) {
      for (let i = 0; i < this.numVars; i++) this.activity[i]! *= VAR_SCALE;
      this.varInc *= VAR_SCALE;
    }
    this.heap.increased(v);
  }

  bumpClause(cr: number): void {
    const act = this.arena.act;
    if ((act[cr + 2]! += this.clauseInc) > CLAUSE_LIMIT) {
      for (const c of this.learnts) act[c + 2]! *= CLAUSE_SCALE;
      this.clauseInc *= CLAUSE_SCALE;
    }
  }

  /** Number of distinct decision levels among the literals (the clause's "glue"). */
  lbdOf(lits: ArrayLike<number>, from: number, size: number): number {
    const stamp = ++this.stamp;
    let count = 0;
    for (let i = from; i < from + size; i++) {
      const lv = this.level[varOf(lits[i]!)]!;
      if (this.levelStamp[lv] !== stamp) {
        this.levelStamp[lv] = stamp;
        count++;
      }
    }
    return count;
  }

  /** Watches a clause's first two literals (a binary clause in `binaries`, a longer one in `watches`). */
  attach(cr: number): void {
    const mem = this.arena.mem;
    const a = mem[cr + HEADER]!;
    const b = mem[cr + HEADER + 1]!;
    if (mem[cr] === 2) {
      this.binaries.pushOne(a, b);
      this.binaries.pushOne(b, a);
    } else {
      this.watches.push(a, cr, b);
      this.watches.push(b, cr, a);
    }
  }

  /** True when the clause is the reason of its (true) first literal, so it may not be deleted. */
  locked(cr: number): boolean {
    const first = this.arena.mem[cr + HEADER]!;
    return this.vals[first] === TRUE && this.reason[varOf(first)] === cr;
  }
}

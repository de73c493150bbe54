import { luby } from '../../common/luby.js';
import { ConflictAnalysis } from './analyze.js';
import { ClauseDatabase } from './clause-db.js';
import { binaryReason, FALSE, NO_LIT, NO_REASON, TRUE, UNDEF, mkLit, toDimacs, varOf } from './literals.js';
import { propagate } from './propagate.js';
import { EngineState, type SatStats } from './state.js';
import type { Theory, TheoryHost } from './theory.js';

export { toDimacs } from './literals.js';
export type { SatStats } from './state.js';

/**
 * A CDCL SAT solver in the manner of MiniSat, independent of nonograms. Its parts:
 * - literals.ts: the literal representation and the sentinels stored beside literals;
 * - state.ts: clauses, assignment, trail, decision levels, activities; the one enqueue;
 * - propagate.ts: unit propagation with watched literals and blockers;
 * - analyze.ts: first-UIP conflict analysis and clause minimisation;
 * - phases.ts: saved, target and best phases and rephasing;
 * - clause-db.ts: learnt-clause reduction and removal of satisfied clauses;
 * - theory.ts: the interface of an optional propagator beyond the clauses, which explains its
 *   deductions as clauses (setTheory).
 * This file is the public API and the search loop: branching on the most active variable (EVSIDS,
 * decay 0.95), restarts on the Luby sequence times 100 conflicts (simple, deterministic and
 * robust), and incremental use: clauses may be added between solves, and `solve` takes assumptions.
 *
 * Public literals are DIMACS integers: variable v (1-based) is `v`, its negation `-v`.
 */

export type SatOutcome = 'sat' | 'unsat' | 'unknown';

export interface SatSolveOptions {
  /** Literals (DIMACS) assumed true for this solve only. */
  assumptions?: ArrayLike<number>;
  /** Polled every 256 propagation rounds, or sooner after 2^14 propagations (a few milliseconds on a huge CNF), and before each pass over the clause database; once true, solve returns 'unknown'. */
  shouldStop?: () => boolean;
  /** Give up with 'unknown' after this many conflicts in this call. */
  conflictLimit?: number;
}

const VAR_DECAY = 0.95;
const CLAUSE_DECAY = 0.999;
const RESTART_BASE = 100;
const STOP_POLL_INTERVAL = 256;
const STOP_POLL_PROPAGATIONS = 1 << 14;
/** The LBD a theory's clause starts with: above any real one (see explain). */
const EXPLANATION_LBD = 1 << 20;

export class SatSolver {
  readonly numVars: number;
  /** After 'sat': model[v] is 1 when variable v (1-based) is true, else 0; index 0 is unused. */
  model: Uint8Array | null = null;
  /** Called with every learnt clause (DIMACS literals) as it is learnt; for tests and tracing. */
  onLearnt: ((clause: number[]) => void) | null = null;

  private readonly s: EngineState;
  private readonly analysis: ConflictAnalysis;
  private readonly db: ClauseDatabase;
  /** Propagation rounds left before shouldStop is polled; kept across restarts, which are often shorter. */
  private untilPoll = STOP_POLL_INTERVAL;
  /** Propagations after which shouldStop is polled even before STOP_POLL_INTERVAL rounds (rounds are long on a huge CNF). */
  private pollAtPropagations = STOP_POLL_PROPAGATIONS;
  /**
   * Where the restart plan stands: the Luby index of the current restart and its conflicts so far.
   * Kept across solves, so that a search given its conflicts in slices restarts as one given them at once.
   */
  private restartIndex = 0;
  private restartConflicts = 0;
  private assumptions: Int32Array = new Int32Array(0);
  private failed: number[] = [];
  /** addClause's working copy of a clause. */
  private scratch = new Int32Array(64);
  private theory: Theory | null = null;
  /** What the theory sees of the engine. */
  private readonly host: TheoryHost = {
    value: (v) => this.s.vals[mkLit(v - 1, false)]!,
    explain: (lits, size) => this.explain(lits, size),
  };
  /** After explain reported a conflict: its clause. */
  private theoryConflict = NO_REASON;

  constructor(numVars: number) {
    if (!Number.isInteger(numVars) || numVars < 0) throw new RangeError(`bad variable count ${numVars}`);
    this.numVars = numVars;
    this.s = new EngineState(numVars);
    this.analysis = new ConflictAnalysis(this.s, numVars);
    this.db = new ClauseDatabase(this.s);
  }

  get stats(): SatStats {
    return this.s.stats;
  }

  /** Number of problem clauses kept (units and satisfied clauses are not stored). */
  get numClauses(): number {
    return this.s.clauses.length;
  }

  /** Number of learnt clauses currently kept (units excluded). */
  get numLearnts(): number {
    return this.s.learnts.length;
  }

  /** False once the clause set is known to be unsatisfiable. */
  get okay(): boolean {
    return this.s.ok;
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
    const s = this.s;
    if (!s.ok) return false;
    this.db.finishPass(); // a pass the stop check paused is done before the clauses change
    if (s.levels > 0) s.cancelUntil(0); // a search paused by its budget (see solve) gives up its trail
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
      if (l === (previous ^ 1) || s.vals[l] === TRUE) return true; // tautology or satisfied at level 0
      if (s.vals[l] === FALSE) continue; // false at level 0: drop the literal
      kept[n++] = l;
      previous = l;
    }
    if (n === 0) return (s.ok = false);
    if (n === 1) {
      s.enqueue(kept[0]!, NO_REASON);
      return (s.ok = propagate(s) === NO_REASON);
    }
    const cr = s.arena.alloc(kept, n, false);
    s.clauses.push(cr);
    s.attach(cr);
    return true;
  }

  /**
   * Lets the search branch on variable v (1-based), or not. A variable that is not a decision
   * variable only gets a value through propagation: use it for variables that the others determine
   * (a solve may end 'sat' with it unassigned, and the model then reads it as false).
   */
  setDecisionVar(v: number, allowed: boolean): void {
    const internal = varOf(this.toLit(v));
    this.s.decision[internal] = allowed ? 1 : 0;
    if (allowed && this.s.vals[mkLit(internal, false)] === UNDEF) this.s.heap.insert(internal);
  }

  /**
   * Lets a propagator beyond the clauses take part in the search (see theory.ts). A model is then
   * one the theory found no conflict in: a theory whose constraints the clauses do not already
   * hold must report a conflict on every full assignment that breaks them.
   */
  setTheory(theory: Theory | null): void {
    this.theory = theory;
    this.s.theoryHead = 0; // tell it the whole trail
  }

  /**
   * Searches for a model. 'sat' sets `model`; 'unsat' under assumptions sets `failedAssumptions`;
   * 'unknown' means the conflict limit or the stop check ended the search: the search is paused
   * there, and the next solve (under the same assumptions) goes on from where it stopped, so that a
   * search given its budget in slices runs as one given it at once. Clauses may be added at any
   * time between solves (that ends a paused search's trail).
   */
  solve(options: SatSolveOptions = {}): SatOutcome {
    this.model = null;
    this.failed = [];
    const s = this.s;
    if (!s.ok) return 'unsat';
    const given = options.assumptions ?? [];
    const assumptions = new Int32Array(given.length);
    for (let i = 0; i < given.length; i++) assumptions[i] = this.toLit(given[i]!);
    const shouldStop = options.shouldStop ?? (() => false);
    // A pass over the clauses the stop check paused goes on first, polled, before the trail changes.
    if (!this.db.resumePass(shouldStop)) return 'unknown';
    // A search paused by its budget goes on from its trail, unless it rests on other assumptions.
    if (!sameLits(assumptions, this.assumptions)) s.cancelUntil(0);
    this.assumptions = assumptions;
    if (shouldStop()) return 'unknown';
    const conflictLimit = s.stats.conflicts + (options.conflictLimit ?? Infinity);
    let outcome: SatOutcome | 'restart';
    while ((outcome = this.search(luby(this.restartIndex) * RESTART_BASE, conflictLimit, shouldStop)) === 'restart') {
      this.restartIndex++;
      this.restartConflicts = 0;
      s.stats.restarts++;
    }
    if (outcome === 'sat') {
      const model = new Uint8Array(this.numVars + 1);
      for (let v = 0; v < this.numVars; v++) model[v + 1] = s.vals[mkLit(v, false)] === TRUE ? 1 : 0;
      this.model = model;
    }
    if (outcome !== 'unknown') s.cancelUntil(0);
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
    if (this.s.vals[lit] === UNDEF || this.s.level[varOf(lit)] !== 0) return undefined;
    return this.s.vals[lit] === TRUE;
  }

  /** The learnt clauses currently kept, as DIMACS literals (learnt units show up as `fixedValue`). */
  learntClauses(): number[][] {
    this.db.finishPass();
    return this.s.learnts.map((cr) => this.s.arena.literals(cr).map(toDimacs));
  }

  /** The internal literal of a DIMACS one. */
  private toLit(d: number): number {
    const v = Math.abs(d);
    if (!Number.isInteger(d) || d === 0 || v > this.numVars)
      throw new RangeError(`literal ${d} is not a variable of 1..${this.numVars}`);
    return mkLit(v - 1, d < 0);
  }

  /** The most active unassigned decision variable, with its phase; NO_LIT when every one is assigned. */
  private pickBranchLit(): number {
    const s = this.s;
    while (s.heap.size > 0) {
      const v = s.heap.removeMax();
      if (s.vals[mkLit(v, false)] === UNDEF && s.decision[v] === 1) return mkLit(v, s.phases.of(v) === 1);
    }
    return NO_LIT;
  }

  /** Learns the clause analysis left (after backtracking) and asserts its first literal. */
  private learn(): void {
    const s = this.s;
    const { learnt: out, size } = this.analysis;
    s.stats.learnts++;
    if (this.onLearnt) this.onLearnt(Array.from(out.subarray(0, size), toDimacs));
    if (size === 1) {
      s.enqueue(out[0]!, NO_REASON);
      return;
    }
    const cr = s.arena.alloc(out, size, true, s.lbdOf(out, 0, size));
    s.learnts.push(cr);
    s.attach(cr);
    s.bumpClause(cr);
    s.enqueue(out[0]!, cr);
  }

  /** The rest of one restart's search: 'restart' when its conflict budget is spent. */
  private search(budget: number, conflictLimit: number, shouldStop: () => boolean): SatOutcome | 'restart' {
    const s = this.s;
    const stats = s.stats;
    for (;;) {
      if (--this.untilPoll === 0 || stats.propagations >= this.pollAtPropagations) {
        this.untilPoll = STOP_POLL_INTERVAL;
        this.pollAtPropagations = stats.propagations + STOP_POLL_PROPAGATIONS;
        if (shouldStop()) return this.giveUp();
      }
      let conflict = propagate(s);
      if (conflict === NO_REASON && this.theory !== null) conflict = this.propagateTheory();
      if (conflict !== NO_REASON) {
        stats.conflicts++;
        this.restartConflicts++;
        if (s.levels === 0) {
          s.ok = false;
          return 'unsat';
        }
        s.phases.update(s.trail, s.trailLim[s.levels - 1]!); // the levels below the conflict's were consistent
        s.cancelUntil(this.analysis.analyze(conflict));
        this.learn();
        s.varInc /= VAR_DECAY;
        s.clauseInc /= CLAUSE_DECAY;
        if (stats.conflicts >= s.phases.nextRephase) s.phases.rephase(stats.rephases++, stats.conflicts);
        if (stats.conflicts >= conflictLimit) return this.giveUp();
        continue;
      }
      if (this.restartConflicts >= budget) {
        s.phases.update(s.trail, s.trailSize); // fully propagated without conflict
        s.cancelUntil(0);
        return 'restart';
      }
      // A pass over the clause database takes long on a huge CNF: not when the limit has come, and polled as it goes.
      if (this.db.passDue()) {
        this.untilPoll = STOP_POLL_INTERVAL;
        this.pollAtPropagations = stats.propagations + STOP_POLL_PROPAGATIONS;
        if (shouldStop() || !this.db.runPass(shouldStop)) return this.giveUp();
      }
      let next = NO_LIT;
      while (s.levels < this.assumptions.length) {
        const a = this.assumptions[s.levels]!;
        if (s.vals[a] === TRUE) {
          s.newDecisionLevel(); // already true: an empty level keeps levels aligned with assumptions
        } else if (s.vals[a] === FALSE) {
          this.failed = this.analysis.analyzeFinal(a);
          s.cancelUntil(0);
          return 'unsat';
        } else {
          next = a;
          break;
        }
      }
      let decided = false;
      if (next === NO_LIT) {
        next = this.pickBranchLit();
        if (next === NO_LIT) return 'sat';
        stats.decisions++;
        decided = true;
      }
      s.newDecisionLevel();
      // Depth counts the search's decisions only: the levels that hold assumptions (sat's symmetry guard) are no search.
      if (decided && s.levels - this.assumptions.length > stats.maxDecisionLevel) stats.maxDecisionLevel = s.levels - this.assumptions.length;
      s.enqueue(next, NO_REASON);
    }
  }

  /**
   * Unit propagation and the theory in turns, from a fixpoint of unit propagation, until neither
   * deduces more; returns the conflict or NO_REASON.
   */
  private propagateTheory(): number {
    const s = this.s;
    const theory = this.theory!;
    for (;;) {
      for (let i = s.theoryHead; i < s.trailSize; i++) theory.assigned(varOf(s.trail[i]!) + 1);
      s.theoryHead = s.trailSize;
      if (!theory.propagate(this.host)) return this.theoryConflict;
      if (s.qhead === s.trailSize) return NO_REASON;
      const conflict = propagate(s);
      if (conflict !== NO_REASON) return conflict;
    }
  }

  /**
   * TheoryHost.explain: learns the theory's clause, then asserts its first literal or reports the
   * conflict. The clause stays as a learnt one, so unit propagation applies it again cheaply.
   */
  private explain(dimacs: Int32Array, size: number): boolean {
    const s = this.s;
    if (this.scratch.length < size) this.scratch = new Int32Array(Math.max(size, 2 * this.scratch.length));
    const lits = this.scratch;
    for (let i = 0; i < size; i++) lits[i] = this.toLit(dimacs[i]!);
    s.stats.explanations++;
    if (size === 0) {
      // The empty clause: unsatisfiable, found at level 0 where the search ends without reading it.
      s.cancelUntil(0);
      this.theoryConflict = binaryReason(0);
      return false;
    }
    const first = lits[0]!;
    if (size === 1) {
      // Implied by no assignment: a fact, which belongs at level 0.
      if (s.vals[first] === TRUE && s.level[varOf(first)] === 0) return true;
      s.cancelUntil(0);
      if (s.vals[first] === FALSE) {
        // A conflict at level 0, where the search ends 'unsat' without reading it.
        this.theoryConflict = binaryReason(first);
        return false;
      }
      if (s.vals[first] === UNDEF) s.enqueue(first, NO_REASON);
      return true;
    }
    if (s.vals[first] === TRUE) return true;
    const { level } = s;
    const conflicting = s.vals[first] === FALSE;
    // Watch the highest-level literals: the implied one and the latest false one, or for a
    // conflict the two latest, at the level where the conflict belongs.
    for (let w = conflicting ? 0 : 1; w < 2; w++) {
      let maxAt = w;
      for (let i = w + 1; i < size; i++) if (level[varOf(lits[i]!)]! > level[varOf(lits[maxAt]!)]!) maxAt = i;
      const swap = lits[w]!;
      lits[w] = lits[maxAt]!;
      lits[maxAt] = swap;
    }
    if (conflicting) s.cancelUntil(level[varOf(lits[0]!)]!);
    // Rated as the worst of clauses until analysis meets one (and rates it anew), so that
    // explanations no conflict needed go at the next reduction.
    const cr = s.arena.alloc(lits, size, true, EXPLANATION_LBD);
    s.learnts.push(cr);
    s.attach(cr);
    if (conflicting) {
      this.theoryConflict = cr;
      return false;
    }
    s.enqueue(lits[0]!, cr);
    return true;
  }

  /** The budget or the stop check ended the search: the trail is kept, so that the next solve goes on from it. */
  private giveUp(): 'unknown' {
    return 'unknown';
  }
}

function sameLits(a: Int32Array, b: Int32Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

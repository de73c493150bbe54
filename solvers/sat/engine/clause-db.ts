import { HEADER } from './clause-arena.js';
import { NO_REASON, TRUE, varOf } from './literals.js';
import { propagate } from './propagate.js';
import type { EngineState } from './state.js';

const FIRST_REDUCE = 2000;
const REDUCE_INCREMENT = 300;
/** Learnt clauses of LBD up to CORE_LBD are kept for good, those up to TIER2_LBD while analysis uses them. */
const CORE_LBD = 2;
const TIER2_LBD = 6;
/** Clauses a pass handles between two polls of the stop check: milliseconds, where a whole pass over a huge CNF takes seconds. */
const PASS_STEP = 1 << 16;

/**
 * Keeps the clause database small: every 2000 + 300·k conflicts three quarters of the learnt
 * clauses that may go do go, those with the worst LBD, then the lowest activity. Binary clauses,
 * glue clauses of LBD ≤ 2, reasons of trail literals and clauses of LBD ≤ 6 that conflict analysis
 * met since the last reduction stay (tiers as in CaDiCaL). At level 0, clauses satisfied by new
 * fixed literals go for good. Either way the arena is then compacted.
 *
 * A pass reads and rewrites every clause, seconds on a CNF of millions of clauses, so it runs in
 * steps (`runPass`) between which the stop check is polled; a pass the check stopped stays pending,
 * half done, and is finished (`finishPass`) before the engine reads or changes its clauses again.
 */
export class ClauseDatabase {
  private nextReduce = FIRST_REDUCE;
  private reduceInterval = FIRST_REDUCE;
  /** Trail size at the last removal of satisfied clauses. */
  private simplifiedAt = -1;
  /** No removal of satisfied clauses before this many propagations (a pass costs a scan of every clause). */
  private nextSimplify = 0;

  constructor(private readonly s: EngineState) {}

  /**
   * True when `runPass` would make a pass now: each pass reads (and the
   * compaction after it rewrites) every clause, which takes a while on a CNF of millions of clauses,
   * so the search polls its stop check first.
   */
  passDue(): boolean {
    const s = this.s;
    return s.stats.conflicts >= this.nextReduce || (s.levels === 0 && s.trailSize !== this.simplifiedAt && s.stats.propagations >= this.nextSimplify);
  }

  /** The pass a stop check paused, if any. */
  private pending: Generator<void, void> | null = null;

  /**
   * Makes the passes that are due (removal of satisfied clauses, then reduction of the learnt
   * ones), or goes on with the one a stop check paused, polling `shouldStop` every PASS_STEP
   * clauses. False when it fired first: the pass is then pending (see finishPass).
   */
  runPass(shouldStop: () => boolean): boolean {
    if (this.pending === null) {
      if (!this.passDue()) return true;
      this.pending = this.passSteps();
    }
    for (;;) {
      if (this.pending.next().done) break;
      if (shouldStop()) return false;
    }
    this.pending = null;
    return true;
  }

  /** Goes on with a pass a stop check paused, as runPass does (false when the check fires again); starts none. */
  resumePass(shouldStop: () => boolean): boolean {
    return this.pending === null || this.runPass(shouldStop);
  }

  /** Finishes a pass a stop check paused, without polling: it must be done before the clauses are read or changed. */
  finishPass(): void {
    if (this.pending === null) return;
    while (!this.pending.next().done);
    this.pending = null;
  }

  private *passSteps(): Generator<void, void> {
    const s = this.s;
    if (s.levels === 0 && s.trailSize !== this.simplifiedAt && s.stats.propagations >= this.nextSimplify) yield* this.removeSatisfied();
    if (s.stats.conflicts >= this.nextReduce) {
      this.reduceInterval += REDUCE_INCREMENT;
      this.nextReduce = s.stats.conflicts + this.reduceInterval;
      yield* this.reduceLearnts();
    }
  }

  private *reduceLearnts(): Generator<void, void> {
    const s = this.s;
    const arena = s.arena;
    const candidates: number[] = [];
    const kept: number[] = [];
    for (const cr of s.learnts) {
      const lbd = arena.lbd(cr);
      if (arena.size(cr) === 2 || lbd <= CORE_LBD || s.locked(cr) || (lbd <= TIER2_LBD && arena.isUsed(cr))) kept.push(cr);
      else candidates.push(cr);
      arena.setUsed(cr, false);
    }
    candidates.sort((a, b) => arena.lbd(b) - arena.lbd(a) || arena.activity(a) - arena.activity(b));
    const remove = (3 * candidates.length) >> 2;
    for (let i = 0; i < candidates.length; i++) {
      if (i < remove) {
        arena.markDeleted(candidates[i]!);
        s.stats.deletedClauses++;
      } else kept.push(candidates[i]!);
    }
    s.learnts.length = 0;
    for (const cr of kept) s.learnts.push(cr);
    yield* this.collectGarbage();
  }

  private *removeSatisfied(): Generator<void, void> {
    const s = this.s;
    if (propagate(s) !== NO_REASON) {
      s.ok = false;
      return;
    }
    this.simplifiedAt = s.trailSize;
    this.scanned = 0;
    this.removed = 0;
    for (const list of [s.clauses, s.learnts]) {
      let kept = 0;
      // In plain loops of PASS_STEP clauses: the generator only pauses between them.
      for (let from = 0; from < list.length; from += PASS_STEP) {
        if (from > 0) yield;
        kept = this.dropSatisfied(list, from, Math.min(list.length, from + PASS_STEP), kept);
      }
      list.length = kept;
    }
    const literals = this.scanned;
    const removed = this.removed;
    this.nextSimplify = s.stats.propagations + literals;
    if (removed === 0) return;
    s.stats.satisfiedRemoved += removed;
    // Level-0 literals never take part in analysis, so their reasons may go.
    for (let i = 0; i < s.trailSize; i++) s.reason[varOf(s.trail[i]!)] = NO_REASON;
    yield* this.collectGarbage();
  }

  /** Literals read and clauses removed by the removal of satisfied clauses under way. */
  private scanned = 0;
  private removed = 0;

  /** Drops the satisfied clauses of list[from, to), moving the others down to list[kept ...]; returns the new `kept`. */
  private dropSatisfied(list: number[], from: number, to: number, kept: number): number {
    const s = this.s;
    const mem = s.arena.mem;
    const vals = s.vals;
    for (let i = from; i < to; i++) {
      const cr = list[i]!;
      const end = cr + HEADER + mem[cr]!;
      this.scanned += mem[cr]!;
      let k = cr + HEADER;
      while (k < end && vals[mem[k]!] !== TRUE) k++;
      if (k < end) {
        s.arena.markDeleted(cr);
        this.removed++;
      } else list[kept++] = cr;
    }
    return kept;
  }

  /** Compacts the arena, remaps reasons and rebuilds every watch list (watches are the first two literals). */
  private *collectGarbage(): Generator<void, void> {
    const s = this.s;
    const forward = yield* s.arena.compact([s.clauses, s.learnts], PASS_STEP);
    for (let i = 0; i < s.trailSize; i++) {
      const v = varOf(s.trail[i]!);
      if (s.reason[v]! >= 0) s.reason[v] = forward(s.reason[v]!); // binary reasons name no clause
    }
    s.watches.clear();
    s.binaries.clear();
    for (const list of [s.clauses, s.learnts])
      for (let from = 0; from < list.length; from += PASS_STEP) {
        if (from > 0) yield;
        const to = Math.min(list.length, from + PASS_STEP);
        for (let i = from; i < to; i++) s.attach(list[i]!);
      }
  }
}

import { HEADER } from './clause-arena.js';
import { NO_REASON, TRUE, varOf } from './literals.js';
import { propagate } from './propagate.js';
import type { EngineState } from './state.js';

const FIRST_REDUCE = 2000;
const REDUCE_INCREMENT = 300;
/** Learnt clauses of LBD up to CORE_LBD are kept for good, those up to TIER2_LBD while analysis uses them. */
const CORE_LBD = 2;
const TIER2_LBD = 6;

/**
 * Keeps the clause database small: every 2000 + 300·k conflicts three quarters of the learnt
 * clauses that may go do go, those with the worst LBD, then the lowest activity. Binary clauses,
 * glue clauses of LBD ≤ 2, reasons of trail literals and clauses of LBD ≤ 6 that conflict analysis
 * met since the last reduction stay (tiers as in CaDiCaL). At level 0, clauses satisfied by new
 * fixed literals go for good. Either way the arena is then compacted.
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
   * True when `maybeSimplify` or `maybeReduce` would make a pass now: each pass reads (and the
   * compaction after it rewrites) every clause, which takes a while on a CNF of millions of clauses,
   * so the search polls its stop check first.
   */
  passDue(): boolean {
    const s = this.s;
    return s.stats.conflicts >= this.nextReduce || (s.levels === 0 && s.trailSize !== this.simplifiedAt && s.stats.propagations >= this.nextSimplify);
  }

  /** Reduces the learnt clauses when their time has come. */
  maybeReduce(): void {
    if (this.s.stats.conflicts < this.nextReduce) return;
    this.reduceInterval += REDUCE_INCREMENT;
    this.nextReduce = this.s.stats.conflicts + this.reduceInterval;
    this.reduceLearnts();
  }

  /** At level 0, with new fixed literals since the last pass: drops the clauses they satisfy. */
  maybeSimplify(): void {
    const s = this.s;
    if (s.levels === 0 && s.trailSize !== this.simplifiedAt && s.stats.propagations >= this.nextSimplify) this.removeSatisfied();
  }

  private reduceLearnts(): void {
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
    this.collectGarbage();
  }

  private removeSatisfied(): void {
    const s = this.s;
    if (propagate(s) !== NO_REASON) {
      s.ok = false;
      return;
    }
    this.simplifiedAt = s.trailSize;
    const mem = s.arena.mem;
    const vals = s.vals;
    let literals = 0;
    let removed = 0;
    for (const list of [s.clauses, s.learnts]) {
      let j = 0;
      for (let i = 0; i < list.length; i++) {
        const cr = list[i]!;
        const end = cr + HEADER + mem[cr]!;
        literals += mem[cr]!;
        let k = cr + HEADER;
        while (k < end && vals[mem[k]!] !== TRUE) k++;
        if (k < end) {
          s.arena.markDeleted(cr);
          removed++;
        } else list[j++] = cr;
      }
      list.length = j;
    }
    this.nextSimplify = s.stats.propagations + literals;
    if (removed === 0) return;
    s.stats.satisfiedRemoved += removed;
    // Level-0 literals never take part in analysis, so their reasons may go.
    for (let i = 0; i < s.trailSize; i++) s.reason[varOf(s.trail[i]!)] = NO_REASON;
    this.collectGarbage();
  }

  /** Compacts the arena, remaps reasons and rebuilds every watch list (watches are the first two literals). */
  private collectGarbage(): void {
    const s = this.s;
    const forward = s.arena.compact([s.clauses, s.learnts]);
    for (let i = 0; i < s.trailSize; i++) {
      const v = varOf(s.trail[i]!);
      if (s.reason[v]! >= 0) s.reason[v] = forward(s.reason[v]!); // binary reasons name no clause
    }
    s.watches.clear();
    s.binaries.clear();
    for (const cr of s.clauses) s.attach(cr);
    for (const cr of s.learnts) s.attach(cr);
  }
}

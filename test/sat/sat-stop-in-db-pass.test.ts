import { describe, expect, it } from 'vitest';
import { SatSolver } from '../../solvers/sat/engine/solver.js';
import { randomKSat } from './sat-helpers.js';

/**
 * A pass over the clause database (the compaction after a reduction of the learnt clauses, the
 * removal of satisfied clauses) reads and rewrites every clause: seconds on a CNF of millions of
 * clauses (a 200×200 puzzle with the automaton encoding), during which the stop check used to wait.
 * It now polls every 2^16 clauses; a pass it stopped is finished before anything else. Counted by
 * polls and counters, not by time.
 */
describe('the stop check during a pass over the clause database', () => {
  const CORE = 200;
  const PADDING = 70_000; // clauses over variables of their own: more than 2^16 to compact
  /** A random 3-SAT core of thousands of conflicts, padded with clauses that never propagate. */
  const engine = () => {
    const e = new SatSolver(CORE + 3 * PADDING);
    for (const clause of randomKSat(7, CORE, 852)) e.addClause(clause);
    for (let i = 0; i < PADDING; i++) {
      const v = CORE + 3 * i + 1;
      e.addClause([v, v + 1, v + 2]);
      for (let k = 0; k < 3; k++) e.setDecisionVar(v + k, false);
    }
    return e;
  };
  const counters = (e: SatSolver) => {
    const { conflicts, decisions, propagations, deletedClauses, restarts } = e.stats;
    return { conflicts, decisions, propagations, deletedClauses, restarts, learnts: e.numLearnts };
  };

  it('polls inside the compaction after the first reduction, before any further decision', () => {
    const e = engine();
    const polls: { decisions: number; deleted: number }[] = [];
    const outcome = e.solve({
      conflictLimit: 2600,
      shouldStop: () => (polls.push({ decisions: e.stats.decisions, deleted: e.stats.deletedClauses }), false),
    });
    expect(outcome).toBe('unknown');
    expect(e.stats.deletedClauses).toBeGreaterThan(0);
    const first = polls.findIndex((p) => p.deleted > 0);
    expect(first).toBeGreaterThan(0);
    // The poll just before the pass (none deleted yet) and the first one after the reduction chose its
    // clauses fall between the same two decisions: the second came from inside the pass.
    expect(polls[first]!.decisions).toBe(polls[first - 1]!.decisions);
  });

  it('a search stopped inside a pass, then resumed, goes on as one never stopped', () => {
    const straight = engine();
    const outcome = straight.solve({ conflictLimit: 3000 });

    const paused = engine();
    let stops = 0;
    // Stop at the first poll after the reduction chose its clauses: inside its compaction.
    const first = paused.solve({ conflictLimit: 3000, shouldStop: () => paused.stats.deletedClauses > 0 && ++stops === 1 });
    expect(first).toBe('unknown');
    expect(paused.stats.conflicts).toBeLessThan(3000);
    const rest = paused.solve({ conflictLimit: 3000 - paused.stats.conflicts });
    expect(rest).toBe(outcome);
    expect(counters(paused)).toEqual(counters(straight));
    expect(paused.learntClauses()).toEqual(straight.learntClauses());
  });

  it('adding a clause finishes a paused pass first', () => {
    const e = engine();
    let stops = 0;
    expect(e.solve({ conflictLimit: 3000, shouldStop: () => e.stats.deletedClauses > 0 && ++stops === 1 })).toBe('unknown');
    const learnts = e.numLearnts;
    expect(e.addClause([CORE + 1, CORE + 4])).toBe(true);
    expect(e.numLearnts).toBe(learnts);
    // Every clause is intact and watched: a model found satisfies the core.
    const outcome = e.solve({ conflictLimit: 1000 });
    expect(['sat', 'unsat', 'unknown']).toContain(outcome);
    if (outcome === 'sat') for (const clause of randomKSat(7, CORE, 852)) expect(clause.some((l) => e.value(Math.abs(l)) === l > 0)).toBe(true);
  });
});

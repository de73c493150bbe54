import { describe, expect, it } from 'vitest';
import { SatSolver } from '../../solvers/sat/engine/solver.js';
import { randomKSat } from './sat-helpers.js';

/**
 * A pass over the clause database (removal of satisfied clauses, reduction of the learnt ones and
 * the compaction after it) reads and rewrites every clause: most of a second or more on a CNF of
 * millions of clauses (a 200×200 puzzle). The search must not start one once the limit has come.
 */
describe('SatSolver stop check and the clause database', () => {
  const cnf = () => {
    const engine = new SatSolver(200);
    for (const clause of randomKSat(7, 200, 852)) engine.addClause(clause); // ratio 4.26: thousands of conflicts
    return engine;
  };

  it('does not reduce the learnt clauses once the stop check would fire (it polls before the pass)', () => {
    const engine = cnf();
    // The limit comes with the conflict that makes the first reduction due (at 2000 conflicts).
    const outcome = engine.solve({ shouldStop: () => engine.stats.conflicts >= 2000 });
    expect(outcome).toBe('unknown');
    expect(engine.stats.conflicts).toBe(2000);
    expect(engine.stats.deletedClauses).toBe(0);
  });

  it('without a stop, the same search reduces at 2000 conflicts as before', () => {
    const engine = cnf();
    const outcome = engine.solve({ conflictLimit: 2100 });
    expect(['unknown', 'sat', 'unsat']).toContain(outcome);
    if (engine.stats.conflicts > 2000) expect(engine.stats.deletedClauses).toBeGreaterThan(0);
  });

  it('polls at least once per 2^14 propagations (plus one round), even when rounds are few and long', () => {
    // 100 chains of 1000 variables, (¬a ∨ b) along each: a decision propagates up to a chain's length in
    // one round, so 256 rounds never come and only the propagation count can bring a poll. (On the
    // random CNF above the 256 rounds alone poll more often than every 2^14 propagations: a test there
    // passes with any propagation interval.)
    const CHAIN = 1000;
    const CHAINS = 100;
    const engine = new SatSolver(CHAIN * CHAINS);
    for (let c = 0; c < CHAINS; c++) for (let i = 1; i < CHAIN; i++) engine.addClause([-(c * CHAIN + i), c * CHAIN + i + 1]);
    const at: number[] = [];
    expect(engine.solve({ shouldStop: () => (at.push(engine.stats.propagations), false) })).toBe('sat');
    at.push(engine.stats.propagations);
    let gap = 0;
    for (let i = 1; i < at.length; i++) gap = Math.max(gap, at[i]! - at[i - 1]!);
    expect(engine.stats.propagations).toBeGreaterThan(4 * (1 << 14));
    expect(gap).toBeLessThanOrEqual((1 << 14) + CHAIN);
  });
});

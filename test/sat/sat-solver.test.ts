import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { luby } from '../../solvers/common/luby.js';
import { SatSolver } from '../../solvers/sat/engine/solver.js';
import { allModels, pigeonhole, randomKSat, randomMixedSat, satisfiesClause } from './sat-helpers.js';

function solverFor(numVars: number, clauses: number[][]): SatSolver {
  const s = new SatSolver(numVars);
  for (const c of clauses) s.addClause(c);
  return s;
}

function modelBits(s: SatSolver): number {
  let a = 0;
  for (let v = 1; v <= s.numVars; v++) if (s.value(v)) a |= 1 << (v - 1);
  return a;
}

/**
 * Solves the clauses, recording every learnt clause, and checks the verdict against brute force and
 * the model against every clause; returns what the caller checks further.
 */
function solveAgainstBruteForce(n: number, clauses: number[][]) {
  const s = solverFor(n, clauses);
  const learnt: number[][] = [];
  s.onLearnt = (c) => learnt.push(c);
  const outcome = s.solve();
  const models = allModels(n, clauses);
  expect(outcome).toBe(models.length > 0 ? 'sat' : 'unsat');
  if (outcome === 'sat') for (const c of clauses) expect(satisfiesClause(modelBits(s), c)).toBe(true);
  return { s, learnt, models, outcome };
}

describe('luby', () => {
  it('gives the restart sequence 1 1 2 1 1 2 4 1 1 2 1 1 2 4 8', () => {
    expect(Array.from({ length: 15 }, (_, i) => luby(i))).toEqual([1, 1, 2, 1, 1, 2, 4, 1, 1, 2, 1, 1, 2, 4, 8]);
  });
});

describe('SatSolver basics', () => {
  it('rejects literals outside the variables', () => {
    const s = new SatSolver(3);
    expect(() => s.addClause([4])).toThrow(RangeError);
    expect(() => s.addClause([0, 1])).toThrow(RangeError);
    expect(() => s.addClause([1.5])).toThrow(RangeError);
  });

  it('an empty clause or contradicting units make the formula unsatisfiable', () => {
    const a = new SatSolver(2);
    expect(a.addClause([])).toBe(false);
    expect(a.solve()).toBe('unsat');
    const b = new SatSolver(2);
    expect(b.addClause([1])).toBe(true);
    expect(b.addClause([-1, 2])).toBe(true);
    expect(b.fixedValue(2)).toBe(true);
    expect(b.addClause([-2])).toBe(false);
    expect(b.solve()).toBe('unsat');
  });

  it('ignores tautologies and finds a model of a trivial formula', () => {
    const s = new SatSolver(3);
    expect(s.addClause([1, -1])).toBe(true);
    expect(s.numClauses).toBe(0);
    s.addClause([-2, 3]);
    s.addClause([2]);
    expect(s.solve()).toBe('sat');
    expect(s.value(2) && s.value(3)).toBe(true);
    expect(s.model![0]).toBe(0);
  });

  it('proves pigeonhole PHP(n+1, n) unsatisfiable for n = 2..7 and PHP(n, n) satisfiable', () => {
    for (let n = 2; n <= 7; n++) {
      const php = pigeonhole(n + 1, n);
      expect(solverFor(php.numVars, php.clauses).solve()).toBe('unsat');
      const fits = pigeonhole(n, n);
      const s = solverFor(fits.numVars, fits.clauses);
      expect(s.solve()).toBe('sat');
      for (const c of fits.clauses) expect(c.some((l) => s.value(Math.abs(l)) === l > 0)).toBe(true);
    }
  });

  it('reduces its learnt-clause database on a long search and stays correct', () => {
    const php = pigeonhole(9, 8);
    const s = solverFor(php.numVars, php.clauses);
    expect(s.solve()).toBe('unsat');
    expect(s.stats.conflicts).toBeGreaterThan(2000);
    expect(s.stats.deletedClauses).toBeGreaterThan(0);
    expect(s.stats.restarts).toBeGreaterThan(0);
  });

  it('resets its saved phases 1000, 3000, 6000, … conflicts into a search, and stays correct', () => {
    const php = pigeonhole(9, 8);
    const s = solverFor(php.numVars, php.clauses);
    expect(s.solve()).toBe('unsat');
    // Rephase k comes 1000·k conflicts after rephase k - 1: the k-th after 1000·k(k+1)/2 in all.
    let expected = 0;
    while ((1000 * (expected + 1) * (expected + 2)) / 2 <= s.stats.conflicts) expected++;
    expect(expected).toBeGreaterThan(0);
    expect(s.stats.rephases).toBe(expected);
  });

  it('honours conflictLimit and shouldStop, then resumes', () => {
    const php = pigeonhole(8, 7);
    const s = solverFor(php.numVars, php.clauses);
    expect(s.solve({ conflictLimit: 10 })).toBe('unknown');
    expect(s.stats.conflicts).toBe(10);
    expect(s.solve()).toBe('unsat');
    const hard = pigeonhole(11, 10);
    const t = solverFor(hard.numVars, hard.clauses);
    let polls = 0;
    expect(t.solve({ shouldStop: () => ++polls > 1 })).toBe('unknown');
    expect(polls).toBe(2); // once on entry, once after 256 propagation rounds
    expect(t.solve({ shouldStop: () => true })).toBe('unknown');
  });

  it('polls shouldStop every 256 propagation rounds however short its restarts are', () => {
    const hard = pigeonhole(11, 10);
    const s = solverFor(hard.numVars, hard.clauses);
    let polls = 0;
    // Stop at the 20th poll: some 5000 rounds, past several restarts of 100 conflicts.
    expect(s.solve({ shouldStop: () => ++polls >= 20 })).toBe('unknown');
    expect(s.stats.restarts).toBeGreaterThan(1);
    expect(s.stats.conflicts + s.stats.decisions).toBeLessThanOrEqual(19 * 256);
  });

  it('polls shouldStop after 2^18 propagations even within fewer rounds (long rounds on a huge CNF)', () => {
    // PHP(11, 10), each of its variables equivalent to a chain of 3000 more: every assignment propagates thousands.
    const hard = pigeonhole(11, 10);
    const chain = 3000;
    const s = new SatSolver(hard.numVars * (1 + chain));
    for (const c of hard.clauses) s.addClause(c);
    for (let v = 1; v <= hard.numVars; v++) {
      let previous = v;
      for (let k = 0; k < chain; k++) {
        const next = hard.numVars + (v - 1) * chain + k + 1;
        s.addClause([-previous, next]);
        s.addClause([previous, -next]);
        previous = next;
      }
    }
    let polls = 0;
    let propagationsAtPoll = 0;
    expect(s.solve({ shouldStop: () => ((propagationsAtPoll = s.stats.propagations), ++polls >= 3) })).toBe('unknown');
    // Poll 2 comes after 256 rounds or 2^18 propagations, whichever is first, and poll 3 likewise after it;
    // 256 rounds here are well over a million propagations.
    expect(propagationsAtPoll).toBeLessThan(2 * (1 << 18) + 4 * chain * 11);
  });
});

describe('SatSolver against brute force on random 3-SAT near the threshold', () => {
  const instance = fc.record({
    seed: fc.nat(),
    n: fc.integer({ min: 3, max: 16 }),
    ratio: fc.double({ min: 3.5, max: 5, noNaN: true }),
  });

  it('agrees on sat/unsat and every model satisfies every clause', () => {
    fc.assert(
      fc.property(instance, ({ seed, n, ratio }) => {
        const clauses = randomKSat(seed, n, Math.round(ratio * n));
        const s = solverFor(n, clauses);
        const outcome = s.solve();
        const models = allModels(n, clauses);
        expect(outcome).toBe(models.length > 0 ? 'sat' : 'unsat');
        if (outcome === 'sat') {
          const a = modelBits(s);
          for (const c of clauses) expect(satisfiesClause(a, c)).toBe(true);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('agrees on instances with 20 variables at ratio 4.26', () => {
    for (let seed = 1; seed <= 6; seed++) {
      const clauses = randomKSat(seed, 20, 85);
      const s = solverFor(20, clauses);
      const outcome = s.solve();
      expect(outcome).toBe(allModels(20, clauses).length > 0 ? 'sat' : 'unsat');
      if (outcome === 'sat') for (const c of clauses) expect(satisfiesClause(modelBits(s), c)).toBe(true);
    }
  });

  it('learns only clauses implied by the input (and fixes only implied units)', () => {
    fc.assert(
      fc.property(instance, ({ seed, n, ratio }) => {
        const clauses = randomKSat(seed, n, Math.round(ratio * n));
        const s = solverFor(n, clauses);
        const learnt: number[][] = [];
        s.onLearnt = (c) => learnt.push(c);
        s.solve();
        const models = allModels(n, clauses);
        for (const c of [...learnt, ...s.learntClauses()])
          for (const a of models) expect(satisfiesClause(a, c)).toBe(true);
        for (let v = 1; v <= n; v++) {
          const fixed = s.fixedValue(v);
          if (fixed !== undefined) for (const a of models) expect(((a >> (v - 1)) & 1) === 1).toBe(fixed);
        }
        if (models.length === 0 && s.stats.conflicts > 0) expect(learnt.length).toBeGreaterThan(0);
      }),
      { numRuns: 200 },
    );
  });
});

describe('SatSolver against brute force on formulas of long clauses', () => {
  // Propagation looks for a new watch from where its last search in the clause ended and wraps
  // around: clauses of 4 and 5 literals near their thresholds (about 9.9 and 21 clauses a variable).
  const instance = fc.record({
    seed: fc.nat(),
    n: fc.integer({ min: 5, max: 13 }),
    k: fc.integer({ min: 4, max: 5 }),
    load: fc.double({ min: 0.8, max: 1.2, noNaN: true }),
  });

  it('agrees on sat/unsat, its models satisfy every clause, and its learnt clauses are implied', () => {
    fc.assert(
      fc.property(instance, ({ seed, n, k, load }) => {
        const { learnt, models } = solveAgainstBruteForce(n, randomKSat(seed, n, Math.round(load * (k === 4 ? 9.9 : 21) * n), k));
        for (const c of learnt) for (const a of models) expect(satisfiesClause(a, c)).toBe(true);
      }),
      { numRuns: 200 },
    );
  });
});

describe('SatSolver against brute force on mostly binary formulas', () => {
  // Binary clauses take their own path through propagation and analysis (no clause reads).
  const instance = fc.record({
    seed: fc.nat(),
    n: fc.integer({ min: 3, max: 16 }),
    ratio: fc.double({ min: 1, max: 3, noNaN: true }),
    binaryShare: fc.double({ min: 0.5, max: 1, noNaN: true }),
  });

  it('agrees on sat/unsat, its models satisfy every clause, and its learnt clauses and units are implied', () => {
    let unsat = 0;
    let learning = 0;
    fc.assert(
      fc.property(instance, ({ seed, n, ratio, binaryShare }) => {
        const { s, learnt, models, outcome } = solveAgainstBruteForce(n, randomMixedSat(seed, n, Math.round(ratio * n), binaryShare));
        if (outcome === 'unsat') unsat++;
        if (learnt.length > 0) learning++;
        for (const c of [...learnt, ...s.learntClauses()]) for (const a of models) expect(satisfiesClause(a, c)).toBe(true);
        for (let v = 1; v <= n; v++) {
          const fixed = s.fixedValue(v);
          if (fixed !== undefined) for (const a of models) expect(((a >> (v - 1)) & 1) === 1).toBe(fixed);
        }
      }),
      { numRuns: 300 },
    );
    // The sample must exercise both answers and conflict analysis.
    expect(unsat).toBeGreaterThan(10);
    expect(learning).toBeGreaterThan(10);
  });
});

describe('SatSolver incremental use', () => {
  it('enumerates exactly the models of a formula by adding blocking clauses', () => {
    fc.assert(
      fc.property(fc.nat(), fc.integer({ min: 1, max: 10 }), fc.integer({ min: 0, max: 30 }), (seed, n, m) => {
        const clauses = randomKSat(seed, n, m);
        const s = solverFor(n, clauses);
        const found = new Set<number>();
        while (s.solve() === 'sat') {
          const a = modelBits(s);
          expect(found.has(a)).toBe(false);
          for (const c of clauses) expect(satisfiesClause(a, c)).toBe(true);
          found.add(a);
          const blocking = Array.from({ length: n }, (_, i) => (((a >> i) & 1) === 1 ? -(i + 1) : i + 1));
          if (!s.addClause(blocking)) break;
        }
        expect(s.solve()).toBe('unsat');
        expect(found.size).toBe(allModels(n, clauses).length);
      }),
      { numRuns: 200 },
    );
  });

  it('a search given its conflicts in slices runs exactly as one given them at once', () => {
    fc.assert(
      fc.property(fc.nat(), fc.integer({ min: 1, max: 40 }), (seed, slice) => {
        const clauses = randomKSat(seed, 60, 256);
        const whole = solverFor(60, clauses);
        const outcome = whole.solve();
        const sliced = solverFor(60, clauses);
        let step = sliced.solve({ conflictLimit: slice });
        while (step === 'unknown') step = sliced.solve({ conflictLimit: slice });
        expect(step).toBe(outcome);
        expect(sliced.stats.conflicts).toBe(whole.stats.conflicts);
        expect(sliced.stats.decisions).toBe(whole.stats.decisions);
        expect(sliced.stats.restarts).toBe(whole.stats.restarts);
        if (outcome === 'sat') expect(modelBits(sliced)).toBe(modelBits(whole));
      }),
      { numRuns: 40 },
    );
  });

  it('takes clauses and other assumptions while a search is paused, and stays exact', () => {
    fc.assert(
      fc.property(fc.nat(), fc.integer({ min: 8, max: 14 }), fc.integer({ min: 1, max: 14 }), (seed, n, v) => {
        const clauses = randomKSat(seed, n, Math.round(4.2 * n));
        const models = allModels(n, clauses);
        const s = solverFor(n, clauses);
        const found = new Set<number>();
        const blockedWhilePaused = new Set<number>();
        const block = (a: number) => s.addClause(Array.from({ length: n }, (_, i) => (((a >> i) & 1) === 1 ? -(i + 1) : i + 1)));
        // Tiny slices, every third under an assumption; a paused search is sometimes given a
        // blocking clause of a model it has not found; each model found is blocked too.
        for (let round = 0; round < 10_000; round++) {
          const assumptions = round % 3 === 0 ? [v <= n ? v : -1] : [];
          const step = s.solve({ conflictLimit: 1, assumptions });
          if (step === 'unknown') {
            const other = models.find((a) => !found.has(a) && !blockedWhilePaused.has(a));
            if (round % 4 === 1 && other !== undefined) {
              blockedWhilePaused.add(other);
              if (!block(other)) break;
            }
            continue;
          }
          if (step === 'unsat' && assumptions.length > 0 && s.okay) continue;
          if (step === 'unsat') break;
          const a = modelBits(s);
          for (const c of clauses) expect(satisfiesClause(a, c)).toBe(true);
          for (const l of assumptions) expect(s.value(Math.abs(l))).toBe(l > 0);
          expect(found.has(a) || blockedWhilePaused.has(a)).toBe(false);
          found.add(a);
          if (!block(a)) break;
        }
        expect(s.solve()).toBe('unsat');
        expect(found.size + blockedWhilePaused.size).toBe(models.length);
      }),
      { numRuns: 100 },
    );
  });

  it('solves under assumptions, names failed assumptions, and forgets them afterwards', () => {
    fc.assert(
      fc.property(
        fc.nat(),
        fc.integer({ min: 3, max: 12 }),
        fc.array(fc.integer({ min: -12, max: 12 }).filter((l) => l !== 0), { maxLength: 5 }),
        (seed, n, rawAssumptions) => {
          const clauses = randomKSat(seed, n, Math.round(3.5 * n));
          const assumptions = rawAssumptions.filter((l) => Math.abs(l) <= n);
          const s = solverFor(n, clauses);
          const withAssumptions = allModels(n, [...clauses, ...assumptions.map((l) => [l])]);
          const outcome = s.solve({ assumptions });
          expect(outcome).toBe(withAssumptions.length > 0 ? 'sat' : 'unsat');
          if (outcome === 'sat') {
            const a = modelBits(s);
            for (const l of assumptions) expect(s.value(Math.abs(l))).toBe(l > 0);
            for (const c of clauses) expect(satisfiesClause(a, c)).toBe(true);
          } else if (s.okay) {
            const failed = s.failedAssumptions;
            expect(failed.length).toBeGreaterThan(0);
            for (const l of failed) expect(assumptions).toContain(l);
            expect(allModels(n, [...clauses, ...failed.map((l) => [l])])).toHaveLength(0);
          }
          expect(s.solve()).toBe(allModels(n, clauses).length > 0 ? 'sat' : 'unsat');
        },
      ),
      { numRuns: 300 },
    );
  });
});
